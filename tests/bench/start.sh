#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# make bench BENCH_JOB=tests/bench/start.sh: only what a START costs, on
# the module the harness has just loaded (run.sh ends with the same).
set -e
"${BENCH:-$TOP/build/bench/profil_bench}" --start
