#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Names from a real debuginfod: elfutils' server (Debian's debuginfod
# package) on a loopback port, with a database of its own, indexing a
# directory (-F) that holds one debug file, that of cli_dbginfod_target.c
# (objcopy --only-keep-debug); profil-ctl reports a saved profile of the
# program stripped of every symbol (build-id kept):
# - DEBUGINFOD_URLS set, a fresh cache: the hot functions by name, their
#   source lines (the DWARF of the same download), one debuginfo request
#   to the server; again with that cache: the same, no request;
# - DEBUGINFOD_URLS unset, another fresh cache: no name, the FDE ranges
#   (cli_dbginfod_target+0xADDR, ADDR the function's in nm), and the
#   hint's "set DEBUGINFOD_URLS";
# - what a fetch costs: the report's wall time with a fresh cache, with
#   the cache filled and without debuginfod, the median of $RUNS each,
#   as "# cost:" lines (Documentation/profil-ctl/report.rst, "Symbols").
# The server is killed on every way out. Exit 4 (skip) without
# debuginfod or debuginfod-find.
set -eu

top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/unit/saved_profile.sh"
ctl=$top/cli/profil-ctl
RUNS=${RUNS:-5}
tmp=$(mktemp -d /tmp/profil-debuginfod.XXXXXX)
srv=
stop_server() {
	[ -n "$srv" ] || return 0
	kill "$srv" 2>/dev/null || true
	wait "$srv" 2>/dev/null || true
	srv=
}
trap 'stop_server; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP
n=0
rc=0
ok() { n=$((n + 1)); echo "ok $n - $*"; }
notok() { n=$((n + 1)); echo "not ok $n - $*"; rc=1; }
has() {		# NAME FILE PATTERN
	if grep -qE -- "$3" "$2"; then ok "$1"; else
		notok "$1: no /$3/"; sed 's/^/# /' "$2"; fi
}
hasnt() {	# NAME FILE PATTERN
	if grep -qE -- "$3" "$2"; then
		notok "$1: /$3/"; sed 's/^/# /' "$2"; else ok "$1"; fi
}

for t in debuginfod debuginfod-find; do
	if ! command -v $t >/dev/null; then
		echo "ok 1 - real debuginfod # SKIP no $t (debuginfod)"
		exit 4
	fi
done
make -s -C "$top/cli" >/dev/null
# Nothing of the caller's: no proxy for the loopback server, no server
# from /etc/profile.d/debuginfod.sh.
unset http_proxy HTTP_PROXY https_proxy HTTPS_PROXY all_proxy ALL_PROXY
unset DEBUGINFOD_URLS DEBUGINFOD_CACHE_PATH DEBUGINFOD_VERBOSE
export DEBUGINFOD_TIMEOUT=10

# The program, its debug file where only the server has it, the copy
# profiled.
name=cli_dbginfod_target
mkdir -p "$tmp/build" "$tmp/served" "$tmp/bin"
cc -O2 -g -o "$tmp/build/$name" "$top/tests/unit/$name.c"
objcopy --only-keep-debug "$tmp/build/$name" "$tmp/served/$name.debug"
strip --strip-all -o "$tmp/bin/$name" "$tmp/build/$name"
prog=$tmp/bin/$name
id=$(readelf -n "$prog" | awk '/Build ID/ { print $3 }')

# The server: a free port (taken by another between the look and the
# start: the next try), its own database, no rescans or grooming.
free_port() {
	python3 -c 'import socket; s = socket.socket()
s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}
start_server() {
	local try
	for try in 1 2 3 4 5; do
		port=$(free_port)
		rm -f "$tmp/db.sqlite"*
		debuginfod -F -p "$port" -d "$tmp/db.sqlite" -t 0 -g 0 \
			"$tmp/served" >"$tmp/server.log" 2>&1 &
		srv=$!
		for _ in $(seq 50); do
			grep -q 'started http server' "$tmp/server.log" &&
				return 0
			kill -0 "$srv" 2>/dev/null || break
			sleep 0.1
		done
		stop_server
	done
	return 1
}
url() { echo "http://127.0.0.1:$port"; }
metric() {	# the value of /metrics' line that starts with $1, or 0
	python3 -c 'import sys, urllib.request as u
m = u.urlopen(sys.argv[1] + "/metrics", timeout=10).read().decode()
print(next((l.split()[-1] for l in m.splitlines()
	    if l.startswith(sys.argv[2] + " ")), "0"))' "$(url)" "$1"
}
requests() { metric 'http_requests_total{type="debuginfo"}'; }

if ! start_server; then
	notok "debuginfod starts on a loopback port"
	sed 's/^/# /' "$tmp/server.log"
	echo "1..$n"
	exit 1
fi
ok "debuginfod starts on a loopback port ($port)"
# Indexed once debuginfod-find gets the file (a miss is cached as a
# miss: a fresh client cache per look).
found=
for i in $(seq 100); do
	if DEBUGINFOD_URLS=$(url) DEBUGINFOD_CACHE_PATH=$tmp/probe.$i \
	   debuginfod-find debuginfo "$id" >/dev/null 2>&1; then
		found=1
		break
	fi
	sleep 0.1
done
if [ -n "$found" ]; then ok "the server has $name's debug file ($id)"; else
	notok "the server has $name's debug file ($id)"
	sed 's/^/# /' "$tmp/server.log"
fi

# A saved profile of the stripped program: 7 samples in hot_alpha, 5 in
# hot_beta, 3 in hot_gamma, at each one's first 4-byte bin.
addr() {	# FUNCTION: its address in the unstripped build, 0x...
	nm "$tmp/build/$name" | awk -v f="$1" '$3 == f { print "0x" $1 }'
}
bin() { printf '0x%x' $(( ($(addr "$1") + 3) & ~3 )); }
a=$(bin hot_alpha)
b=$(bin hot_beta)
g=$(bin hot_gamma)
{ saved_one_object "$prog" dbginfod 400 3; cat <<SAVED; } >"$tmp/saved"
range $a $(printf 0x%x $((a + 4))) 1 1
bin 0 7
range $b $(printf 0x%x $((b + 4))) 1 1
bin 0 5
range $g $(printf 0x%x $((g + 4))) 1 1
bin 0 3
end
SAVED

report() {	# CACHE [ARGS...]: report the profile with that cache
	local cache=$1
	shift
	DEBUGINFOD_CACHE_PATH=$cache "$ctl" report "$@" "$tmp/saved"
}
with_server() { DEBUGINFOD_URLS=$(url) report "$@"; }

# 1. A fresh cache: one request brings the symbols and the DWARF,
# though libdwfl looks for the debug file for each.
r0=$(requests)
with_server "$tmp/cache1" --lines >"$tmp/named.lines"
r1=$(requests)
with_server "$tmp/cache1" >"$tmp/named.txt"
for f in "hot_alpha 7" "hot_beta 5" "hot_gamma 3"; do
	set -- $f
	has "server: $1 named, $2 samples" "$tmp/named.txt" \
		"^ +$2 .*  $1$"
done
hasnt "server: no unwind-table range" "$tmp/named.txt" "$name\+0x"
has "server: hot_alpha's source line, from the same DWARF" \
	"$tmp/named.lines" "$name\.c:[0-9]+ \(hot_alpha\)$"
if [ $((r1 - r0)) -eq 1 ]; then
	ok "server: one debuginfo request for symbols and lines"
else
	notok "server: $((r1 - r0)) debuginfo requests, not 1"
fi
# 2. That cache again: no request.
with_server "$tmp/cache1" >"$tmp/cached.txt"
if cmp -s "$tmp/named.txt" "$tmp/cached.txt"; then
	ok "cached: the same report"
else
	notok "cached: the same report"
	diff "$tmp/named.txt" "$tmp/cached.txt" | sed 's/^/# /' || true
fi
r2=$(requests)
if [ "$r2" -eq "$r1" ]; then ok "cached: no request"; else
	notok "cached: $((r2 - r1)) requests"; fi

# 3. DEBUGINFOD_URLS unset, a fresh cache: ranges, not names.
report "$tmp/cache2" >"$tmp/unnamed.txt"
hasnt "unset: no hot_ name" "$tmp/unnamed.txt" "hot_(alpha|beta|gamma)"
for f in "hot_alpha 7" "hot_beta 5" "hot_gamma 3"; do
	set -- $f
	at=$(addr "$1" | sed 's/^0x0*//')
	has "unset: $1 is $name+0x$at, $2 samples" "$tmp/unnamed.txt" \
		"^ +$2 .*  $name\+0x$at$"
done
has "unset: the hint says set DEBUGINFOD_URLS" "$tmp/unnamed.txt" \
	"^# hint: .*set DEBUGINFOD_URLS"
r3=$(requests)
if [ "$r3" -eq "$r2" ]; then ok "unset: no request"; else
	notok "unset: $((r3 - r2)) requests"; fi

# 4. The cost: wall time of the report, in ms, median of $RUNS.
ms() { date +%s%N | cut -c1-13; }
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
timed() {	# LABEL CMD...: "LABEL MS" lines
	local t0 i
	for i in $(seq "$RUNS"); do
		t0=$(ms)
		"$@" "$i" >/dev/null
		echo $(($(ms) - t0))
	done | median
}
first() { with_server "$tmp/first.$1"; }
again() { with_server "$tmp/cache1"; }
none() { report "$tmp/none.$1"; }
t_first=$(timed first)
t_again=$(timed again)
t_none=$(timed none)
size=$(stat -c %s "$tmp/served/$name.debug")
echo "# cost: report, median of $RUNS, ms: first fetch $t_first," \
	"cached $t_again, no debuginfod $t_none (debug file $size bytes)"
if [ "$t_first" -gt 0 ] && [ "$t_again" -gt 0 ]; then
	ok "cost measured"
else
	notok "cost measured"
fi

stop_server
echo "1..$n"
exit $rc
