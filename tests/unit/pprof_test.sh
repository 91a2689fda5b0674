#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# --format=pprof and --format=folded against profil-ctl's own text
# report, pprof's read by its real consumer, go tool pprof (golang-go):
# - a gmon.out of a glibc -pg program (cli_pg_target), with arcs: -top
#   per function (samples, calls, cpu), -lines per source line, -raw
#   (build-id, symbol flags, the calls type);
# - a saved profile of two processes and two objects, one sample row
#   uncovered, samples in no function in both: -top (each object's
#   [unknown] its own), -lines, -tags (pid and comm), -raw (mappings'
#   file offsets from the program headers), -disasm;
# - folded: its counts summed per function, and in all, are the text's;
# - a stripped program's functions that only FDEs bound: their names in
#   the text, folded, json and csv, unnamed locations with their
#   addresses in pprof; the header's hint of what would name them.
# Exit 4 (skip) without go.
set -eu

top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/unit/saved_profile.sh"
out=${UNIT_OUT:-$top/build/unit}
ctl=$top/cli/profil-ctl
tmp=$(mktemp -d /tmp/profil-pprof.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
n=0
rc=0
ok() { n=$((n + 1)); echo "ok $n - $*"; }
notok() { n=$((n + 1)); echo "not ok $n - $*"; rc=1; }

if ! command -v go >/dev/null; then
	echo "ok 1 - go tool pprof # SKIP no go (golang-go)"
	exit 4
fi
make -s -C "$top/cli" >/dev/null
export PPROF_TMPDIR=$tmp HOME=${HOME:-$tmp}
pprof() { go tool pprof -nodefraction=0 -edgefraction=0 "$@" 2>"$tmp/err"; }

# Text function view -> "NAME<TAB>COUNT" (or calls with $2 = calls),
# summed over objects; the name starts where the header's "function"
# does (a load figure ends it), or, in a saved profile's ranked list,
# where its last column, "symbol", does. With $3 = objects, a list's
# "[...]" rows (unknown, uncovered) are named "NAME [OBJECT]", as pprof
# names them in a profile of several objects.
text_funcs() {
	awk -v what="${2:-count}" -v objects="${3:-}" '
	/  function/ { col = index($0, "function"); calls = /calls/; next }
	/  symbol$/ {
		col = index($0, "symbol"); ocol = index($0, "  object") + 2
		calls = /calls/; next
	}
	col && $1 ~ /^[0-9.]+$/ {
		name = substr($0, col)
		if (objects && ocol > 2 && name ~ /^\[/) {
			obj = substr($0, ocol, col - ocol)
			sub(/ +$/, "", obj)
			name = name " [" obj "]"
		}
		if ($NF == "total" && name !~ /[^ ]/) { col = 0; next }
		if (name == "total" || name ~ /^total /) { col = 0; next }
		sub(/ +[0-9]+\.[0-9]+$/, "", name)
		v = $1
		if (what == "calls") v = calls ? substr($0, 27, 10) + 0 : 0
		if (v) s[name] += v
	}
	END { for (k in s) printf "%s\t%s\n", k, s[k] }' "$1" | sort
}

# Text line view -> "FILE:LINE (FUNCTION)<TAB>COUNT".
text_lines() {
	awk '
	/  file:line/ { col = index($0, "file:line"); next }
	col && $1 ~ /^[0-9.]+$/ {
		name = substr($0, col)
		if (name == "total") { col = 0; next }
		if (name ~ /^\[/) next
		s[name] += $1
	}
	END { for (k in s) printf "%s\t%s\n", k, s[k] }' "$1" | sort
}

# go tool pprof -top rows -> "NAME<TAB>FLAT" (with -lines: "FILE:LINE
# (FUNCTION)", as the text names a line); rows with a zero flat left out.
pprof_top() {
	awk -v lines="$1" '
	$1 ~ /^[0-9]/ && $2 ~ /%$/ && NF >= 6 {
		name = $6
		for (i = 7; i <= NF; i++) name = name " " $i
		if (lines && name !~ /^\[/) {
			k = split(name, w, " ")
			name = w[k] " (" substr(name, 1, length(name) - length(w[k]) - 1) ")"
		}
		if ($1 != "0") s[name] += $1
	}
	END { for (k in s) printf "%s\t%s\n", k, s[k] }' | sort
}

# Folded -> "FUNCTION<TAB>COUNT" (the frame after the object's).
folded_funcs() {
	awk '{ c = $NF; key = substr($0, 1, length($0) - length(c) - 1)
	       split(key, f, ";"); s[f[2]] += c }
	END { for (k in s) printf "%s\t%s\n", k, s[k] }' "$1" | sort
}

same() {	# NAME FILE1 FILE2
	if [ -s "$2" ] && cmp -s "$2" "$3"; then
		ok "$1"
	else
		notok "$1"
		diff "$2" "$3" | sed 's/^/# /' || true
	fi
}

has() {		# NAME FILE PATTERN
	if grep -qE -- "$3" "$2"; then ok "$1"; else
		notok "$1: no /$3/"; sed 's/^/# /' "$2"; fi
}

# 1. A glibc -pg program's gmon.out: histogram and arcs.
pg=$out/cli_pg_target
(cd "$tmp" && "$pg" >/dev/null)
g=$tmp/gmon.out
"$ctl" report "$pg" "$g" >"$tmp/g.txt"
"$ctl" report --lines "$pg" "$g" >"$tmp/g.lines"
"$ctl" report --format=pprof -o "$tmp/g.pb.gz" "$pg" "$g"
"$ctl" report --format=folded "$pg" "$g" >"$tmp/g.folded"

text_funcs "$tmp/g.txt" >"$tmp/want"
pprof -top "$tmp/g.pb.gz" | pprof_top "" >"$tmp/got"
same "gmon.out: go tool pprof -top: samples per function" "$tmp/want" "$tmp/got"
text_funcs "$tmp/g.txt" calls >"$tmp/want"
pprof -top -sample_index=calls "$tmp/g.pb.gz" | pprof_top "" >"$tmp/got"
same "gmon.out: go tool pprof -top -sample_index=calls: calls per function" \
	"$tmp/want" "$tmp/got"
total=$(awk '$NF == "total" || $(NF-1) == "total" { print $1; exit }' "$tmp/g.txt")
secs=$(awk '$NF == "total" || $(NF-1) == "total" { print $3; exit }' "$tmp/g.txt")
pprof -top "$tmp/g.pb.gz" >"$tmp/top"
has "gmon.out: -top total is the text's ($total)" "$tmp/top" \
	"accounting for $total, 100% of $total total"
ms=$(awk -v s="$secs" 'BEGIN { printf "%g", s * 1000 }')
pprof -top -sample_index=cpu -unit=ms "$tmp/g.pb.gz" >"$tmp/top"
has "gmon.out: cpu total is the text's seconds ($secs s)" "$tmp/top" \
	"of ${ms}ms total"
text_lines "$tmp/g.lines" >"$tmp/want"
pprof -top -lines "$tmp/g.pb.gz" | pprof_top 1 >"$tmp/got"
same "gmon.out: go tool pprof -lines: samples per source line" \
	"$tmp/want" "$tmp/got"
pprof -raw "$tmp/g.pb.gz" >"$tmp/raw"
id=$(readelf -n "$pg" | awk '/Build ID/ { print $3 }')
has "gmon.out: -raw: one mapping, its build-id, functions, files, lines" \
	"$tmp/raw" "^1: .* $id \[FN\]\[FL\]\[LN\]$"
has "gmon.out: -raw: three sample types, calls apart" "$tmp/raw" \
	"^samples/count\[dflt\] cpu/nanoseconds calls/count$"
text_funcs "$tmp/g.txt" >"$tmp/want"
folded_funcs "$tmp/g.folded" >"$tmp/got"
same "gmon.out: folded: samples per function" "$tmp/want" "$tmp/got"

# 2. A saved profile: the program and a library, two processes, 4-byte
# bins inside the functions, samples of the library not covered.
sym=$out/cli_sym_target
so=$out/cli_so_target.so
bin() {	# FILE FUNCTION: the first 4-byte bin inside it
	printf '0x%x' $(( (0x$(nm "$1" | awk -v f="$2" '$3 == f { print $1 }') \
		+ 3) & ~3 ))
}
a=$(bin "$sym" target_alpha)
b=$(bin "$sym" target_beta)
w=$(bin "$so" so_work)
sid=$(readelf -n "$sym" | awk '/Build ID/ { print $3 }')
cat >"$tmp/saved" <<SAVED
profil-ctl-profile 1
rate 250
bin-bytes 4
acct 40 2 5 1 0 0 0 0
command "sym%20--fast%20'a%20b'"
objects 2
object 0 $sid "$sym"
object 1 - "$so"
processes 2
process 0 100 1 "sym" "$sym" 30 1 5 1 0 0 0 0
process 1 101 100 "so%20user" - 10 1 0 0 0 0 0 0
counts 3
count 0 0 0 3
range 0x100 0x104 1 1
bin 0 2
range $a $(printf 0x%x $((a + 8))) 2 2
bin 0 7
bin 1 3
range $b $(printf 0x%x $((b + 4))) 1 1
bin 0 5
count 0 1 3 0
count 1 1 0 2
range 0x10 0x14 1 1
bin 0 6
range $w $(printf 0x%x $((w + 8))) 2 1
bin 1 4
end
SAVED
s=$tmp/saved
"$ctl" report "$s" >"$tmp/s.txt"
"$ctl" report --lines "$s" >"$tmp/s.lines"
"$ctl" report --format=pprof -o "$tmp/s.pb.gz" "$s"
"$ctl" report --format=folded "$s" >"$tmp/s.folded"
"$ctl" report --per-process "$s" >"$tmp/s.pp"

text_funcs "$tmp/s.txt" count objects >"$tmp/want"
pprof -top "$tmp/s.pb.gz" | pprof_top "" >"$tmp/got"
same "saved: go tool pprof -top: samples per function" "$tmp/want" "$tmp/got"
has "saved: -top: the program's [unknown] samples are its own" "$tmp/got" \
	"^\[unknown\] \[cli_sym_target\]	2$"
has "saved: -top: the library's [unknown] samples are its own" "$tmp/got" \
	"^\[unknown\] \[cli_so_target\.so\]	6$"
text_lines "$tmp/s.lines" >"$tmp/want"
pprof -top -lines "$tmp/s.pb.gz" | pprof_top 1 | grep -v '^\[' >"$tmp/got"
same "saved: go tool pprof -lines: samples per source line" \
	"$tmp/want" "$tmp/got"
total=$(awk '/^# [0-9]+ samples/ { print $2 }' "$tmp/s.txt")
pprof -top "$tmp/s.pb.gz" >"$tmp/top"
has "saved: -top total is the text's ($total)" "$tmp/top" \
	"accounting for $total, 100% of $total total"
pprof -raw "$tmp/s.pb.gz" >"$tmp/raw"
has "saved: -raw: the program first, with its build-id" "$tmp/raw" \
	"^1: .* $sym $sid \[FN\]\[FL\]\[LN\]$"
has "saved: -raw: the library second, no build-id" "$tmp/raw" \
	"^2: .* $so +\[FN\]\[FL\]\[LN\]$"
has "saved: -raw: two sample types, period 1e9 / 250" "$tmp/raw" \
	"^Period: 4000000$"
# The library's mapping starts at 0x10, in its first PT_LOAD (offset 0,
# address 0): its file offset is 0x10, not 0; and -disasm finds so_work's
# instructions in the file, its 4 samples on the one holding the bin.
has "saved: -raw: the library's file offset is its start's (0x10)" \
	"$tmp/raw" "^2: 0x10/0x[0-9a-f]+/0x10 "
pprof -comments "$tmp/s.pb.gz" >"$tmp/comments"
has "saved: -comments: the command line profiled" "$tmp/comments" \
	"^command: sym --fast 'a b'$"
pprof -disasm=so_work "$tmp/s.pb.gz" >"$tmp/disasm"
has "saved: -disasm=so_work: its samples on its instructions" \
	"$tmp/disasm" "^ +4 +4 +[0-9a-f]+: .*;so_work cli_so_target\.c:[0-9]+"
p100=$(awk '/^# +[0-9]+ +[0-9.]+ +100 / { print $2 }' "$tmp/s.pp")
pprof -tags "$tmp/s.pb.gz" >"$tmp/tags"
has "saved: -tags: pid 100 has its --per-process samples ($p100)" \
	"$tmp/tags" "^ +$p100\.0 \(.*\): 100$"
has "saved: -tags: comm so user" "$tmp/tags" ": so user$"
text_funcs "$tmp/s.txt" >"$tmp/want"
folded_funcs "$tmp/s.folded" >"$tmp/got"
same "saved: folded: samples per function" "$tmp/want" "$tmp/got"
has "saved: folded: object;function;file:line count" "$tmp/s.folded" \
	"^$sym;target_alpha;.*/cli_sym_target\.c:[0-9]+ 10$"

# 3. A stripped program (cli_fde_target, -O2): samples in two functions
# that only their FDEs bound, fde_loop and main's cold part, and one in
# no FDE. The text names them FILE+0xSTART; that address is the
# function's in the unstripped copy (nm, addr2line); folded keeps the
# names; pprof leaves them unnamed, the locations their addresses.
full=$out/cli_fde_target
strp=$out/cli_fde_target.stripped
fl=$(bin "$full" fde_loop)
fc=$(bin "$full" main.cold)
{ saved_one_object "$strp" fde 300 3; cat <<SAVED; } >"$tmp/fde"
range 0x4 0x8 1 1
bin 0 2
range $fc $(printf 0x%x $((fc + 4))) 1 1
bin 0 5
range $fl $(printf 0x%x $((fl + 8))) 2 2
bin 0 7
bin 1 3
SAVED
echo end >>"$tmp/fde"
f=$tmp/fde
"$ctl" report "$f" >"$tmp/f.txt"
"$ctl" report --format=folded "$f" >"$tmp/f.folded"
"$ctl" report --format=pprof -o "$tmp/f.pb.gz" "$f"
for fn in fde_loop main.cold; do
	at=$(nm "$full" | awk -v f="$fn" '$3 == f { sub(/^0+/, "", $1); print $1 }')
	has "stripped: $fn is cli_fde_target.stripped+0x$at" "$tmp/f.txt" \
		"  cli_fde_target\.stripped\+0x$at( |$)"
done
has "stripped: 10 samples in fde_loop's range" "$tmp/f.txt" \
	"^ +10 .*  cli_fde_target\.stripped\+0x"
has "stripped: the sample in no FDE stays [unknown]" "$tmp/f.txt" \
	"^ +2 .*  \[unknown\]$"
at=$(sed -n 's/.*  cli_fde_target\.stripped+0x\([0-9a-f]*\)$/\1/p' "$tmp/f.txt" |
	head -1)
addr2line -f -e "$full" "0x$at" | head -1 >"$tmp/a2l"
has "stripped: addr2line -e the unstripped copy names 0x$at" "$tmp/a2l" \
	"^fde_loop$"
text_funcs "$tmp/f.txt" >"$tmp/want"
folded_funcs "$tmp/f.folded" >"$tmp/got"
same "stripped: folded: samples per FDE range" "$tmp/want" "$tmp/got"
size=$(printf %x $((0x$(nm -S "$full" | awk '$4 == "fde_loop" { print $2 }'))))
"$ctl" report --format=json "$f" | python3 -c '
import json, sys
r = [r for r in json.load(sys.stdin)["parts"][0]["rows"]
     if r["function"] == "cli_fde_target.stripped+0x" + sys.argv[1]]
print(*[(hex(x["address"]), hex(x["size"]), x["count"]) for x in r])' \
	"$at" >"$tmp/json"
has "stripped: json: the range's address, its size fde_loop's (0x$size)" \
	"$tmp/json" "^\('0x$at', '0x$size', 10\)$"
# Its samples are all unnamed: the header says what would name them.
hint="# hint: $strp: 100\.0% of its samples are in unnamed code \(unwind-table ranges 88\.2%, \[unknown\] 11\.8%\): rebuild it with -g"
has "stripped: text: the hint in the header" "$tmp/f.txt" "^$hint"
DEBUGINFOD_URLS= "$ctl" report --format=json "$f" | python3 -c '
import json, sys
print(json.load(sys.stdin)["objects"][0]["hint"])' >"$tmp/hint"
has "stripped: json: the object's hint, DEBUGINFOD_URLS unset" \
	"$tmp/hint" "^${hint#\# hint: }, or set DEBUGINFOD_URLS to a server that has its debug info$"
# A server set (one that refuses): -g is what is left.
DEBUGINFOD_URLS=http://127.0.0.1:1 "$ctl" report "$f" >"$tmp/f.set"
has "stripped: text: with DEBUGINFOD_URLS set, the hint says -g only" \
	"$tmp/f.set" "^$hint$"
"$ctl" report --per-object --format=csv "$f" >"$tmp/csv" 2>"$tmp/csv.err"
has "stripped: csv: the hint on standard error" "$tmp/csv.err" \
	"^profil-ctl: report: ${hint#\# }"
if grep -q '^#' "$tmp/csv"; then notok "stripped: csv: no comment lines"
else ok "stripped: csv: no comment lines"; fi
has "stripped: csv: the range by name and address" "$tmp/csv" \
	",cli_fde_target\.stripped\+0x$at,0x$at,[0-9]+,10,"
pprof -raw "$tmp/f.pb.gz" >"$tmp/raw"
has "stripped: -raw: a location at fde_loop's address, no function" \
	"$tmp/raw" "^ +[0-9]+: $fl M=1 *$"
has "stripped: -raw: the mapping does not claim functions" "$tmp/raw" \
	"^1: .* $strp +(\[FL\]\[LN\])?$"
pprof -top -addresses "$tmp/f.pb.gz" >"$tmp/top"
has "stripped: -addresses: 7 samples at fde_loop's first bin" "$tmp/top" \
	"^ +7 .* 0*${fl#0x} \[cli_fde_target\.stripped\]$"
has "stripped: -top total is the text's (17)" "$tmp/top" \
	"accounting for 17, 100% of 17 total"

echo "1..$n"
exit $rc
