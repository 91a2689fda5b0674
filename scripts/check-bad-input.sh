#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The netlink rows of the bad-input matrix exist twice: as variants of
# tests/selftests/profil/bad_input_test.c and as rows of
# Documentation/bad-input.rst. Fail, naming them, if a row is in one
# place only.
set -euo pipefail

TOP=$(cd "$(dirname "$0")/.." && pwd)
test_rows=$(sed -n 's/^ROW(\([a-z0-9_]*\),.*/\1/p' \
	"$TOP/tests/selftests/profil/bad_input_test.c" | sort)
doc_rows=$(sed -n 's/^   \* - ``\([a-z0-9_]*\)``$/\1/p' \
	"$TOP/Documentation/bad-input.rst" | sort)
missing=$(comm -3 <(echo "$test_rows") <(echo "$doc_rows"))
if [ -n "$missing" ]; then
	echo "bad-input: rows in only one of bad_input_test.c (left) and" \
	     "Documentation/bad-input.rst (right):"
	echo "$missing"
	exit 1
fi
echo "bad-input: $(echo "$test_rows" | wc -l) netlink rows, test and document agree"
