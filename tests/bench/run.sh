#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# make bench, in the guest (one vCPU, -icount): the cost per sample of
# each clock and of glibc's profil(), the instructions per call of
# libprofil's mcount and glibc's, the tick's cost next to 3x10^4 threads
# of another session, then what an unprofiled workload pays with the
# module loaded and without it, and what a START costs. The harness loaded $MODULE.
set -e
bench=${BENCH:-$TOP/build/bench/profil_bench}
[ -n "${IDLE_ONLY:-}" ] || "$bench" --floor "$TOP/build/bench/floor/pk_floor.ko"
# mcount per call: instructions, since a guest ns is one here. Their
# gmon.out files go to /tmp.
for rt in libprofil glibc; do
	GMON_OUT_PREFIX=/tmp/pg_bench "$TOP/build/bench/pg_bench_$rt" "$rt"
done
echo "# every counter add on return to user (PK_WRITE_ON_RETURN):"
rmmod profil
insmod "$TOP/build/bench/kmod-return/kmod/profil.ko"
"$bench" --kmod
rmmod profil
insmod "$MODULE"
echo "# the tick against other sessions' threads:"
"$TOP/tests/bench/scale.sh"
echo "# module loaded:"
"$bench" --idle
rmmod profil
echo "# module not loaded:"
"$bench" --idle
insmod "$MODULE"
echo "# module loaded again:"
"$bench" --idle
echo "# what a START costs:"
rmmod profil
insmod "$MODULE"
"$bench" --start
