#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# profil-ctl record: every process of the machine, or of a cgroup,
# followed by the kernel, as perf record -a.
#   all      a spinner started before record, then record -a --duration:
#            the spinner's command has samples, and record exits 0
#   command  record -a -- CMD: ends when CMD does, with its status; CMD's
#            samples and a spinner's are there, --save's profile too
#   cgroup   spinners in cgroups A and B, record -G A: A's has samples,
#            B's none
#   nobody   record -a as nobody: refused (1), and says CAP_PERFMON
#   usage    record without -a or -G: a usage error (2)
# Skips (4) without profil.ko.
set -u

here=$(cd "$(dirname "$0")" && pwd)
CTL=${PROFIL_CTL:-${TOP:-$here/../../..}/cli/profil-ctl}
WORK=$here/profil_ctl_work
W=$(mktemp -d /tmp/record_test.XXXXXX)
. "$here/ctl_tap.sh"
spinners=
cgroot=

echo "TAP version 13"

cleanup()
{
	local p

	for p in $spinners; do
		kill -KILL "$p" 2>/dev/null
		wait "$p" 2>/dev/null
	done
	if [ -n "$cgroot" ]; then
		rmdir "$cgroot/rec_a" "$cgroot/rec_b" 2>/dev/null
	fi
	rm -rf "$W"
}
trap cleanup EXIT

need_ctl "$CTL" "$WORK"
echo "1..5"

# Spinners with commands of their own: copies of the workload.
cp "$WORK" "$W/rec_spin_a" && cp "$WORK" "$W/rec_spin_b" &&
	cp "$WORK" "$W/rec_cmd" && chmod 755 "$W" ||
	skip_all "cannot copy the workload"

spin() # NAME: start a spinner, its pid in $spinners and $last
{
	"$W/$1" spin 600 >/dev/null 2>&1 &
	last=$!
	spinners="$spinners $last"
}

# samples CSV COMM: the samples of command COMM in a --sort comm CSV
samples()
{
	python3 - "$@" <<'PY'
import csv, sys
n = 0
with open(sys.argv[1], newline='') as f:
    for row in csv.DictReader(f):
        if row.get('comm') == sys.argv[2]:
            n += int(float(row['count']))
print(n)
PY
}

spin rec_spin_a
spin_a=$last

# all: a process that was there before record.
"$CTL" record -a --duration 2 --sort comm --format=csv -o "$W/all.csv" \
	>"$W/all.out" 2>&1
st=$?
got=$(samples "$W/all.csv" rec_spin_a 2>/dev/null || echo 0)
echo "# all: status $st, rec_spin_a $got samples"
if [ "$st" -eq 0 ] && [ "$got" -gt 0 ]; then
	result ok "all: a running process's samples"
else
	sed 's/^/# /' "$W/all.out" "$W/all.csv" 2>/dev/null
	result fail "all: a running process's samples"
fi

# command: record ends with the command, and its status is record's.
"$CTL" record -a --sort comm --format=csv -o "$W/cmd.csv" \
	--save "$W/cmd.saved" -- "$W/rec_cmd" spin 1 3 >"$W/cmd.out" 2>&1
st=$?
got=$(samples "$W/cmd.csv" rec_cmd 2>/dev/null || echo 0)
other=$(samples "$W/cmd.csv" rec_spin_a 2>/dev/null || echo 0)
"$CTL" report --sort comm --format=csv -o "$W/saved.csv" "$W/cmd.saved" \
	>"$W/saved.out" 2>&1
saved=$(samples "$W/saved.csv" rec_cmd 2>/dev/null || echo 0)
echo "# command: status $st, rec_cmd $got, rec_spin_a $other, saved $saved"
if [ "$st" -eq 3 ] && [ "$got" -gt 0 ] && [ "$other" -gt 0 ] &&
   [ "$saved" -eq "$got" ]; then
	result ok "command: ends with it, its status, every process, saved"
else
	sed 's/^/# /' "$W/cmd.out" "$W/cmd.csv" "$W/saved.out" 2>/dev/null
	result fail "command: ends with it, its status, every process, saved"
fi

# cgroup: only the ticks of the cgroup's threads.
cgroot=/sys/fs/cgroup
grep -q "^[^ ]* $cgroot cgroup2 " /proc/mounts ||
	mount -t cgroup2 none "$cgroot" 2>/dev/null
spin rec_spin_b
spin_b=$last
if mkdir -p "$cgroot/rec_a" "$cgroot/rec_b" &&
   echo "$spin_a" >"$cgroot/rec_a/cgroup.procs" &&
   echo "$spin_b" >"$cgroot/rec_b/cgroup.procs"; then
	"$CTL" record -G rec_a --duration 2 --sort comm --format=csv \
		-o "$W/cg.csv" >"$W/cg.out" 2>&1
	st=$?
	a=$(samples "$W/cg.csv" rec_spin_a 2>/dev/null || echo 0)
	b=$(samples "$W/cg.csv" rec_spin_b 2>/dev/null || echo -1)
	echo "# cgroup: status $st, rec_spin_a $a, rec_spin_b $b"
	if [ "$st" -eq 0 ] && [ "$a" -gt 0 ] && [ "$b" -eq 0 ]; then
		result ok "cgroup: only the cgroup's threads"
	else
		sed 's/^/# /' "$W/cg.out" "$W/cg.csv" 2>/dev/null
		result fail "cgroup: only the cgroup's threads"
	fi
	echo "$spin_a" >"$cgroot/cgroup.procs"
	echo "$spin_b" >"$cgroot/cgroup.procs"
else
	result fail "cgroup: cannot make cgroups under $cgroot"
fi

# nobody: no CAP_PERFMON, no machine-wide profile.
if command -v setpriv >/dev/null; then
	setpriv --reuid=65534 --regid=65534 --clear-groups \
		--inh-caps=-all --bounding-set=-all \
		"$CTL" record -a --duration 1 >"$W/nobody.out" 2>&1
	st=$?
	if [ "$st" -eq 1 ] && grep -q CAP_PERFMON "$W/nobody.out"; then
		result ok "nobody: refused, and why"
	else
		echo "# nobody: status $st"
		sed 's/^/# /' "$W/nobody.out"
		result fail "nobody: refused, and why"
	fi
else
	result fail "nobody: no setpriv"
fi

# usage: record needs a scope.
"$CTL" record --duration 1 >"$W/usage.out" 2>&1
st=$?
if [ "$st" -eq 2 ] && grep -q -- "-a" "$W/usage.out"; then
	result ok "usage: without -a or -G"
else
	echo "# usage: status $st"
	sed 's/^/# /' "$W/usage.out"
	result fail "usage: without -a or -G"
fi

exit $failed
