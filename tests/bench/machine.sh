#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# make bench-machine, in the bench guest (one vCPU, -icount: a guest
# second is 10^9 instructions, so times repeat): what profil-ctl record
# -a and perf record -a add to a machine running two CPU-bound processes
# and a fork/exec loop, at 97 Hz and at HZ (the guest kernel's 250).
#
# The workload (whole_work machine) times itself: from its first fork to
# its last child's exit, in ns of the guest's clock. Nothing in it waits
# for a file (the exec'd program is in tmpfs): under sleep=off an idle
# vCPU's clock jumps by however long the host took to answer, which made
# the first version's exec loop of /bin/true, read over 9p, vary by
# seconds. So the span is instructions executed: the work, and whatever
# the profiler did on the CPU meanwhile (perf's writer too). Each tool's
# start-up (profil: its profile's tables; perf: its events and
# buffers) and its report come before and after, outside the span.
# "adds" is the span over the unprofiled one; per sample, that divided by
# the samples the tool took. Medians of $REPEAT runs of each after one not
# counted, the three taking turns: the exec rows' spans spread over 0.4
# to 2 ms even without address-space randomisation (below), and drift.
set -u
REPEAT=${REPEAT:-11}
LOOPS=${LOOPS:-600}
EXECS=${EXECS:-300}
CTL=$TOP/cli/profil-ctl
WORK=$TOP/build/bench/whole_work
OUT=/tmp/machine
mkdir -p $OUT

# The program the exec loop runs: busybox (static) in the guest's tmpfs,
# so that no exec waits for the host's files (whole_work's "machine").
cp /bin/busybox $OUT/true

# Address-space randomisation makes each exec's page faults and page
# tables differ: with it, the unprofiled span of the exec rows varied by
# +-2 ms from run to run (more than profil adds to them); without it, by
# +-0.3 ms. The guest is thrown away after the bench.
echo 0 >/proc/sys/kernel/randomize_va_space

median() { tr ' ' '\n' | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

# perf record -a, started with its events disabled (-D -1) and enabled
# through its control FIFO, acknowledged, before the workload starts,
# disabled after it: its start-up (the processes and mappings it
# synthesizes) and its end stay outside the span, as profil-ctl's do.
#
# Debian 12's perf is 6.1's: on the 6.12 guest it hangs now and then,
# before it starts a workload of its own or before it answers on its
# FIFO, so there the rows are profil-ctl's alone and perf's figures are
# 6.1's.
case "$(uname -r)" in
6.1.*)	PERF=yes ;;
*)	PERF=no ;;
esac

perf_start()
{
	rm -f $OUT/ctl $OUT/ack
	mkfifo $OUT/ctl $OUT/ack
	perf record -q -a -e cpu-clock -F "$1" -D -1 \
		--control=fifo:$OUT/ctl,$OUT/ack -o $OUT/perf.data \
		>/dev/null 2>&1 &
	perf_pid=$!
	exec 8>$OUT/ctl 9<$OUT/ack
	echo enable >&8
	read -r _ <&9
}

perf_stop()
{
	echo disable >&8
	read -r _ <&9
	kill -INT $perf_pid
	wait $perf_pid
	exec 8>&- 9<&-
}

# once MODE RATE: one run; prints "SPAN_NS SAMPLES".
once()
{
	local samples=0

	rm -f $OUT/span
	case $1 in
	none)	"$WORK" machine "$LOOPS" "$execs" $OUT/true >$OUT/span ;;
	perf)	[ $PERF = yes ] || { echo "0 0"; return; }
		perf_start "$2"
		"$WORK" machine "$LOOPS" "$execs" $OUT/true >$OUT/span
		perf_stop
		# The span's samples: not the idle task's (pid 0), which
		# perf's cpu-clock takes in whole_work's idle settle.
		samples=$(perf script -i $OUT/perf.data -F pid 2>/dev/null |
			  awk '$1 != 0' | wc -l) ;;
	profil)	"$CTL" record -a -F "$2" -o $OUT/profil.txt \
			-- "$WORK" machine "$LOOPS" "$execs" $OUT/true \
			>$OUT/span 2>$OUT/profil.err
		# Its accounting line: "... N ticks at R Hz ...".
		samples=$(sed -n 's/.*: \([0-9]*\) ticks at .*/\1/p' \
			  $OUT/profil.err | tail -n 1) ;;
	esac
	echo "$(cat $OUT/span 2>/dev/null || echo 0) ${samples:-0}"
}

# The tick probe stays registered for 10 s after a profile ends
# (PK_TICK_GRACE, kmod/lifecycle.c): an unprofiled run waits that out,
# idle (under sleep=off, at no cost in host time).
PROBE_GRACE=11

# row RATE EXECS: the tools side by side on the loops and EXECS execs:
# medians of span and samples, the runs of the three modes in turn, so
# that whatever drifts from run to run (pids, the page cache, the slab)
# drifts under all three alike; the spans, sorted, as a comment (the
# spread the medians come from).
row()
{
	local rate=$1 i m r base perf profil
	local spans_none= spans_perf= spans_profil=
	local samples_perf= samples_profil=

	execs=$2
	for i in $(seq 0 "$REPEAT"); do
		for m in none perf profil; do
			[ $m != none ] || sleep $PROBE_GRACE
			r=$(once $m "$rate")
			[ "$i" -gt 0 ] || continue	# the warm-up
			eval "spans_$m=\"\$spans_$m ${r% *}\""
			[ $m = none ] ||
				eval "samples_$m=\"\$samples_$m ${r#* }\""
		done
	done
	for m in none perf profil; do
		eval "echo \"#   $m at $rate Hz, $execs execs, spans (ns):\" \
		     \$(echo \$spans_$m | tr ' ' '\n' | sort -n)"
	done
	base=$(echo $spans_none | median)
	perf="$(echo $spans_perf | median) $(echo $samples_perf | median)"
	profil="$(echo $spans_profil | median) $(echo $samples_profil | median)"
	echo "$rate $base $perf $profil" | awk '{
		pa = $3 - $2; fa = $5 - $2
		printf "%5d Hz %9.1f ms  ", $1, $2 / 1e6
		if ($4)
			printf "perf +%7.3f ms (%6.3f %%, %5d samples, %6.0f ns each)  ",
			       pa / 1e6, 100 * pa / $2, $4, pa / $4
		printf "profil +%7.3f ms (%6.3f %%, %5d samples, %6.0f ns each)\n",
		       fa / 1e6, 100 * fa / $2, $6, $6 ? fa / $6 : 0 }'
}

# The loops alone first: what a sample costs each tool; then with the
# exec loop, whose fork, exec and exit each tool follows.
echo "# what each tool adds to a machine running 2 loops, guest ns (-icount)"
row 97 0
row 250 0
echo "# ... and a loop of $EXECS fork+execs"
row 97 "$EXECS"
row 250 "$EXECS"
echo "ok 1 machine-wide overhead"
