#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# A JIT's code named by its perf map (Documentation/profil-ctl/report.rst, "JIT
# code: perf maps"): jit_work copies a loop into anonymous executable
# memory, writes /tmp/perf-PID.map naming it, and spins there.
#   run      profil-ctl run: the loop's samples are the map's function,
#            in the object "[JIT] pid PID", most of the program's
#   saved    the profile run saved (--save), reported once the map is
#            gone: the same function, the same count
# Skips (4) off x86-64, or without profil.ko.
set -u

here=$(cd "$(dirname "$0")" && pwd)
CTL=${PROFIL_CTL:-${TOP:-$here/../../..}/cli/profil-ctl}
WORK=$here/jit_work
W=$(mktemp -d /tmp/jit_test.XXXXXX)
NAME="jit_spin_loop [jitted]"
. "$here/ctl_tap.sh"

echo "TAP version 13"
pid=
trap 'rm -rf "$W"; [ -z "$pid" ] || rm -f "/tmp/perf-$pid.map"' EXIT

[ "$(uname -m)" = x86_64 ] || skip_all "x86-64 only"
need_ctl "$CTL" "$WORK"

echo "1..2"

# The samples of function $2 in object $3 of CSV report $1, and all
# samples: "COUNT TOTAL".
count()
{
	python3 - "$@" <<'PY'
import csv, sys
n = t = 0
with open(sys.argv[1], newline='') as f:
    for row in csv.DictReader(f):
        c = int(float(row['count']))
        t += c
        if row['function'] == sys.argv[2] and row['object'] == sys.argv[3]:
            n += c
print(n, t)
PY
}

"$CTL" run --rate 1000 --format=csv -o "$W/run.csv" --save "$W/saved" \
	-- "$WORK" 0.5 >"$W/run.out" 2>&1
st=$?
pid=$(grep -o '\[JIT\] pid [0-9]*' "$W/run.csv" | head -1 | cut -d' ' -f3)
# (The guest has no /dev/fd: no "< <(...)".)
r=$(count "$W/run.csv" "$NAME" "[JIT] pid ${pid:-0}" 2>/dev/null || echo 0 0)
got=${r% *} total=${r#* }
echo "# run: status $st, pid ${pid:-none}, $NAME $got of $total samples"
if [ "$st" -eq 0 ] && [ -n "$pid" ] && [ "$got" -gt 0 ] &&
   [ $((got * 2)) -gt "$total" ]; then
	result ok "run: the loop's samples are the perf map's $NAME"
else
	sed 's/^/# /' "$W/run.out" "$W/run.csv"
	result fail "run: the loop's samples are the perf map's $NAME"
fi

# The map gone (as when the process's pid is reused), the saved profile
# still names the loop.
[ -n "$pid" ] && rm -f "/tmp/perf-$pid.map"
"$CTL" report --format=csv -o "$W/saved.csv" "$W/saved" >"$W/saved.out" 2>&1
st=$?
r=$(count "$W/saved.csv" "$NAME" "[JIT] pid ${pid:-0}" 2>/dev/null || echo 0 0)
again=${r% *}
echo "# saved: status $st, $NAME $again samples"
if [ "$st" -eq 0 ] && [ "$again" -eq "$got" ] && [ "$got" -gt 0 ]; then
	result ok "saved: the map gone, the saved profile names $NAME"
else
	sed 's/^/# /' "$W/saved.out" "$W/saved.csv"
	result fail "saved: the map gone, the saved profile names $NAME"
fi

exit $failed
