#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Sum "pass fail skip" count files written by the runners and print the
# one totals line "N passed, N failed, N skipped". A missing file means
# its runner never finished, which counts as one failure. Exits 1 if
# anything failed.
set -euo pipefail

pass=0 fail=0 skip=0
for f in "$@"; do
	if [ -r "$f" ] && read -r p x s <"$f"; then
		pass=$((pass + p)) fail=$((fail + x)) skip=$((skip + s))
	else
		echo "# $(basename "$f" .counts): no results (runner did not finish)"
		fail=$((fail + 1))
	fi
done
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
