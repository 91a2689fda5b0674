#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# make bench, in the guest (one vCPU, -icount): the cost per sample of
# each clock and of glibc's profil(), then what an unprofiled workload pays
# with the module loaded and without it. The harness loaded $MODULE.
set -e
bench=${BENCH:-$TOP/build/bench/profil_bench}
[ -n "${IDLE_ONLY:-}" ] || "$bench"
echo "# module loaded:"
"$bench" --idle
rmmod profil
echo "# module not loaded:"
"$bench" --idle
insmod "$MODULE"
echo "# module loaded again:"
"$bench" --idle
