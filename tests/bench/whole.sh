#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# make bench-whole, in the guest (one vCPU, -icount: a guest second is
# 10^9 instructions, so times repeat): what profil-ctl run and perf
# record add to four whole programs, at 100 and 1000 Hz, next to the
# program alone. "adds" is the busy CPU time over the unprofiled run's
# (busy() below), each tool's start-up and report included; the profiles go to files (text report,
# perf.data), as a user would keep them. Each figure is the median of
# $REPEAT runs after one not counted (perf fills its build-id cache in
# ~/.debug on its first run; the page cache warms).
set -u
REPEAT=${REPEAT:-3}
CTL=$TOP/cli/profil-ctl
WORK=$TOP/build/bench/whole_work
PY=$TOP/tests/selftests/profil/compare_json_re.py
OUT=/tmp/whole
mkdir -p $OUT

# The guest's busy time so far, in centiseconds: the time since boot
# (/proc/uptime) less the time idle (/proc/stat's idle and iowait, kept
# by the idle loop in ns, not sampled by the tick). Not the wall clock
# alone: with -icount sleep=off, time jumps ahead whenever the vCPU idles
# (waiting for the host's 9p file server, say) by as much as the next
# timer is away; nor the tick-sampled user and system times, since each
# tick then lands in idle. Busy time is instructions executed, by
# whatever ran for the command: its processes, the tool, and kernel
# threads working for them.
busy()
{
	awk 'FNR == 1 && FILENAME == "/proc/uptime" { up = $1 * 100 }
	     /^cpu / { idle = $5 + $6 }
	     END { printf "%d\n", up - idle }' /proc/uptime /proc/stat
}

# time_of CMD...: the busy seconds the command took (output discarded).
time_of()
{
	local t0 t1
	sync
	t0=$(busy)
	"$@" >/dev/null 2>&1 </dev/null
	t1=$(busy)
	echo "$t0 $t1" | awk '{ printf "%.2f", ($2 - $1) / 100 }'
}

median() { tr ' ' '\n' | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

# run MODE RATE CMD...: the median time of CMD under MODE.
run()
{
	local mode=$1 rate=$2 i ts=
	shift 2
	for i in $(seq 0 "$REPEAT"); do
		case $mode in
		none)	ts="$ts $(time_of "$@")" ;;
		perf)	ts="$ts $(time_of perf record -q -e cpu-clock -F "$rate" \
				-o $OUT/perf.data -- "$@")" ;;
		profil)	ts="$ts $(time_of "$CTL" run --rate "$rate" \
				-o $OUT/profil.txt -- "$@")" ;;
		esac
		[ "$i" -gt 0 ] || ts=	# the warm-up
	done
	echo $ts | median
}

row()
{
	local name=$1 base p100 f100 p1000 f1000
	shift
	base=$(run none 0 "$@")
	p100=$(run perf 100 "$@")
	f100=$(run profil 100 "$@")
	p1000=$(run perf 1000 "$@")
	f1000=$(run profil 1000 "$@")
	echo "$name $base $p100 $f100 $p1000 $f1000" | awk '{
		printf "%-28s %8.2f  %8.2f %8.2f   %8.2f %8.2f\n", $1, $2,
		       $3 - $2, $4 - $2, $5 - $2, $6 - $2 }'
}

echo "# what each tool adds to a whole program, in busy guest seconds (-icount)"
echo "# workload                     alone   perf@100 profil@100 perf@1000 profil@1000"
row "sh-loop-300-true" sh -c 'i=0; while [ $i -lt 300 ]; do /bin/true; i=$((i+1)); done'
row "1500-short-threads" "$WORK" threads 1500
row "1s-compute" "$WORK" spin 1
row "python3-json-re" python3 "$PY" 10
echo "ok 1 whole-program overhead"
