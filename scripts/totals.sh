#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Sum "pass fail skip" count files written by the runners and print the
# one totals line "N passed, N failed, N skipped", always the last line.
# A missing file means its runner never finished, which counts as one
# failure. Exits 1 if anything failed.
#
# usage: totals.sh [-s START] FILE...
#   -s START   the run's start (seconds since the epoch): print its
#              elapsed time, "# M.m minutes (S s)", just before the totals
set -euo pipefail

start=
if [ "${1:-}" = -s ]; then
	start=$2
	shift 2
fi

pass=0 fail=0 skip=0
for f in "$@"; do
	if [ -r "$f" ] && read -r p x s <"$f"; then
		pass=$((pass + p)) fail=$((fail + x)) skip=$((skip + s))
	else
		echo "# $(basename "$f" .counts): no results (runner did not finish)"
		fail=$((fail + 1))
	fi
done
if [ -n "$start" ]; then
	secs=$(($(date +%s) - start))
	echo "# $((secs / 60)).$((secs % 60 * 10 / 60)) minutes ($secs s)"
fi
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
