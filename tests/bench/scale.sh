#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The tick's cost against 1 to 3x10^4 threads of another session
# (scale_bench.c), in the bench guest: part of tests/bench/run.sh, or
# alone with make bench BENCH_JOB=tests/bench/scale.sh. 3x10^4 threads
# need more pids and threads than a small guest allows, and a stack
# mapping and its guard page each.
set -e
echo 131072 >/proc/sys/kernel/pid_max
echo 131072 >/proc/sys/kernel/threads-max
echo 262144 >/proc/sys/vm/max_map_count
exec "$TOP/build/bench/scale_bench"
