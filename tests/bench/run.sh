#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# make bench, in the guest (one vCPU, -icount): the cost per sample of
# each clock and of glibc's profil(), the instructions per call of
# libprofil's mcount and glibc's, then what an unprofiled workload pays
# with the module loaded and without it. The harness loaded $MODULE.
set -e
bench=${BENCH:-$TOP/build/bench/profil_bench}
[ -n "${IDLE_ONLY:-}" ] || "$bench"
# mcount per call: instructions, since a guest ns is one here. Their
# gmon.out files go to /tmp.
for rt in libprofil glibc; do
	GMON_OUT_PREFIX=/tmp/pg_bench "$TOP/build/bench/pg_bench_$rt" "$rt"
done
echo "# module loaded:"
"$bench" --idle
rmmod profil
echo "# module not loaded:"
"$bench" --idle
insmod "$MODULE"
echo "# module loaded again:"
"$bench" --idle
