#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# --format=pprof and --format=folded against profil-ctl's own text
# report, pprof's read by its real consumer, go tool pprof (golang-go):
# - a gmon.out of a glibc -pg program (cli_pg_target), with arcs: -top
#   per function (samples, calls, cpu), -lines per source line, -raw
#   (build-id, symbol flags, the calls type);
# - a saved profile of two processes and two objects, one sample row
#   uncovered: -top, -lines, -tags (pid and comm), -raw;
# - folded: its counts summed per function, and in all, are the text's.
# Exit 4 (skip) without go.
set -eu

top=$(cd "$(dirname "$0")/../.." && pwd)
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
# does, a load figure ends it.
text_funcs() {
	awk -v what="${2:-count}" '
	/  function/ { col = index($0, "function"); calls = /calls/; next }
	col && $1 ~ /^[0-9.]+$/ {
		name = substr($0, col)
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
objects 2
object 0 $sid "$sym"
object 1 - "$so"
processes 2
process 0 100 1 "sym" "$sym" 30 1 5 1 0 0 0 0
process 1 101 100 "so%20user" - 10 1 0 0 0 0 0 0
counts 3
count 0 0 0 2
range $a $(printf 0x%x $((a + 8))) 2 2
bin 0 7
bin 1 3
range $b $(printf 0x%x $((b + 4))) 1 1
bin 0 5
count 0 1 3 0
count 1 1 0 1
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

text_funcs "$tmp/s.txt" >"$tmp/want"
pprof -top "$tmp/s.pb.gz" | pprof_top "" >"$tmp/got"
same "saved: go tool pprof -top: samples per function" "$tmp/want" "$tmp/got"
text_lines "$tmp/s.lines" >"$tmp/want"
pprof -top -lines "$tmp/s.pb.gz" | pprof_top 1 | grep -v '^\[' >"$tmp/got"
same "saved: go tool pprof -lines: samples per source line" \
	"$tmp/want" "$tmp/got"
total=$(awk '/# user samples/ { print $4 }' "$tmp/s.txt")
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

echo "1..$n"
exit $rc
