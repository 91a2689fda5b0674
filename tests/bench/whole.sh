#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# make bench-whole, in the guest (one vCPU, -icount: a guest second is
# 10^9 instructions, so times repeat): what profil-ctl run and perf
# record add to four whole programs, at 100 and 1000 Hz, next to the
# program alone. "adds" is the time over the unprofiled run, each tool's
# start-up and report included; the profiles go to files (text report,
# perf.data), as a user would keep them. One run each (REPEAT=N: the
# median of N): under -icount a run repeats to a few parts in 10^5.
set -u
REPEAT=${REPEAT:-1}
CTL=$TOP/cli/profil-ctl
WORK=$TOP/build/bench/whole_work
PY=$TOP/tests/selftests/profil/compare_json_re.py
OUT=/tmp/whole
mkdir -p $OUT

now() { date +%s.%N; }

# time_of CMD...: seconds the command took (its output discarded).
time_of()
{
	local t0 t1
	t0=$(now)
	"$@" >/dev/null 2>&1 </dev/null
	t1=$(now)
	echo "$t0 $t1" | awk '{ printf "%.3f", $2 - $1 }'
}

median() { tr ' ' '\n' | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

# run MODE RATE CMD...: the median time of CMD under MODE.
run()
{
	local mode=$1 rate=$2 i ts=
	shift 2
	for i in $(seq "$REPEAT"); do
		case $mode in
		none)	ts="$ts $(time_of "$@")" ;;
		perf)	ts="$ts $(time_of perf record -q -e cpu-clock -F "$rate" \
				-o $OUT/perf.data -- "$@")" ;;
		profil)	ts="$ts $(time_of "$CTL" run --rate "$rate" \
				-o $OUT/profil.txt -- "$@")" ;;
		esac
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

echo "# what each tool adds to a whole program, in guest seconds (-icount)"
echo "# workload                     alone   perf@100 profil@100 perf@1000 profil@1000"
row "sh-loop-300-true" sh -c 'i=0; while [ $i -lt 300 ]; do /bin/true; i=$((i+1)); done'
row "1500-short-threads" "$WORK" threads 1500
row "1s-compute" "$WORK" spin 1
row "python3-json-re" python3 "$PY" 10
echo "ok 1 whole-program overhead"
