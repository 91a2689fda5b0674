#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# profil-ctl run follows a program without being its debugger: programs
# that trace work under it as they do alone, and the profile still shows
# the traced program's hot function (profil_ctl_work's hot_a).
#   strace   run -- strace -f -c PROG: strace exits 0, prints its table,
#            hot_a has samples in the profile
#   gdb      run -- gdb -batch -ex run --args PROG: gdb runs PROG to its
#            exit ("exited normally"), hot_a has samples
#   traceme  PROG traceme: a child calls PTRACE_TRACEME and its parent
#            traces it to its exit; both succeed, hot_a has samples
#   tracer   no ptrace of ours: TracerPid of the program is 0 while it runs
#   ulimit   under ulimit -v, no mapping of profil-ctl's: the program's
#            mappings are the same count as when run alone
#   setuid   as nobody, a program that execs su (set-uid root): the
#            kernel stops following there, and the report says so; the
#            same under start, and stop says so
# Skips (4) without strace or gdb, or without profil.ko.
set -u

here=$(cd "$(dirname "$0")" && pwd)
CTL=${PROFIL_CTL:-${TOP:-$here/../../..}/cli/profil-ctl}
WORK=$here/profil_ctl_work
W=$(mktemp -d /tmp/ctl_tracers.XXXXXX)
. "$here/ctl_tap.sh"

echo "TAP version 13"
trap 'rm -rf "$W"' EXIT

command -v strace >/dev/null || skip_all "no strace"
command -v gdb >/dev/null || skip_all "no gdb"
need_ctl "$CTL" "$WORK"

echo "1..7"

# The samples of function $2 in the CSV report of file $1 (0 if none).
hot()
{
	python3 - "$1" "$2" <<'EOF'
import csv, sys
n = 0
with open(sys.argv[1], newline='') as f:
    for row in csv.DictReader(f):
        if row.get('function') == sys.argv[2]:
            n += int(float(row['count']))
print(n)
EOF
}

# run NAME CMD...: profil-ctl run at 1000 Hz, CSV to $W/NAME.csv, the
# command's output to $W/NAME.out; its status is profil-ctl's.
run()
{
	local name=$1

	shift
	"$CTL" run --rate 1000 --format=csv -o "$W/$name.csv" -- "$@" \
		>"$W/$name.out" 2>&1
}

# check NAME STATUS CONDITION...: the result; the output when it failed.
check()
{
	local name=$1 st=$2 a

	shift 2
	a=$(hot "$W/$name.csv" hot_a 2>/dev/null || echo 0)
	echo "# $name: status $st, hot_a $a samples"
	if [ "$st" -eq 0 ] && [ "$a" -gt 0 ] && "$@"; then
		result ok "$name"
	else
		sed 's/^/# /' "$W/$name.out"
		result fail "$name"
	fi
}

run strace strace -f -c -o "$W/strace.table" "$WORK" spin 0.3
check strace $? grep -q "total" "$W/strace.table"

run gdb gdb -nx -batch -ex run --args "$WORK" spin 0.3
check gdb $? grep -q "exited normally" "$W/gdb.out"

run traceme "$WORK" traceme 0.3
check traceme $? grep -q "traced child exited 0" "$W/traceme.out"

# TracerPid while it runs: sampled from the program's own status.
"$CTL" run --rate 1000 -o "$W/tracer.txt" -- sh -c \
	"grep TracerPid /proc/\$\$/status; exec $WORK spin 0.2" \
	>"$W/tracer.out" 2>&1
st=$?
tp=$(sed -n 's/^TracerPid:[[:space:]]*//p' "$W/tracer.out")
echo "# tracer: status $st, TracerPid '$tp'"
if [ "$st" -eq 0 ] && [ "$tp" = 0 ]; then
	result ok tracer
else
	sed 's/^/# /' "$W/tracer.out"
	result fail tracer
fi

# Mappings under ulimit -v: the same count alone and under profil-ctl.
count_maps='ulimit -v 200000; exec cat /proc/self/maps'
alone=$(sh -c "$count_maps" | wc -l)
under=$("$CTL" run -o "$W/ulimit.txt" -- sh -c "$count_maps" 2>/dev/null | wc -l)
echo "# ulimit: $alone mappings alone, $under under profil-ctl run"
if [ "$alone" -gt 0 ] && [ "$alone" -eq "$under" ]; then
	result ok ulimit
else
	result fail ulimit
fi

# A set-uid exec as nobody: not followed past it, and said.
if [ -u /bin/su ] && command -v setpriv >/dev/null; then
	chmod 1777 "$W"
	cp "$CTL" "$W/profil-ctl"
	chmod 755 "$W/profil-ctl"
	setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$W/profil-ctl" run -o "$W/setuid.txt" -- \
		sh -c 'su --help >/dev/null; exit 0' >"$W/setuid.out" 2>&1
	st=$?
	echo "# setuid: status $st"
	if [ "$st" -eq 0 ] && grep -q "1 process not followed past an exec that raised privileges" "$W/setuid.out"; then
		result ok setuid
	else
		sed 's/^/# /' "$W/setuid.out"
		result fail setuid
	fi
	# The same through start's collector, stop prints the note: root
	# starts on a root process, which then becomes nobody and execs su.
	sh -c ": >$W/ready
	      while [ ! -e $W/go ]; do sleep 0.05; done
	      setpriv --reuid=65534 --regid=65534 --clear-groups su --help >/dev/null
	      exec sleep 30" &
	spid=$!
	while [ ! -e "$W/ready" ]; do sleep 0.05; done
	"$CTL" start "$spid" >"$W/start.out" 2>&1
	st=$?
	touch "$W/go"
	# Past su: the shell has exec'd sleep (a busy host can take seconds).
	i=0
	while [ "$(cat /proc/$spid/comm 2>/dev/null)" != sleep ] && [ $i -lt 1200 ]; do
		sleep 0.05
		i=$((i + 1))
	done
	"$CTL" stop "$spid" -o "$W/stop.txt" >"$W/stop.out" 2>&1
	st2=$?
	kill "$spid" 2>/dev/null
	wait "$spid" 2>/dev/null
	echo "# setuid, start/stop: status $st, $st2"
	if [ "$st" -eq 0 ] && [ "$st2" -eq 0 ] &&
	   grep -q "not followed past an exec that raised privileges" "$W/stop.out"; then
		result ok "setuid, start/stop"
	else
		sed 's/^/# /' "$W/start.out" "$W/stop.out"
		result fail "setuid, start/stop"
	fi
else
	n=$((n + 2))
	echo "ok $((n - 1)) setuid # SKIP no set-uid su or no setpriv"
	echo "ok $n setuid, start/stop # SKIP no set-uid su or no setpriv"
fi

exit $failed
