#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Extract the few files we use from Debian's linux-source-6.1 tarball into
# $1 (default build/ksrc): checkpatch.pl and its data files, the kernel's
# .clang-format, and the kselftest framework (kselftest.h,
# kselftest_harness.h, lib.mk, kselftest/). Nothing of it is committed.
set -euo pipefail

dest=${1:-$(cd "$(dirname "$0")/.." && pwd)/build/ksrc}
tarball=$(ls /usr/src/linux-source-6.1.tar.xz 2>/dev/null) ||
	{ echo "ksrc: /usr/src/linux-source-6.1.tar.xz missing (scripts/install-deps.sh)" >&2; exit 1; }

rm -rf "$dest"
mkdir -p "$dest"
tar -xJf "$tarball" -C "$dest" --strip-components=1 --wildcards \
	'linux-source-6.1/scripts/checkpatch.pl' \
	'linux-source-6.1/scripts/spelling.txt' \
	'linux-source-6.1/scripts/const_structs.checkpatch' \
	'linux-source-6.1/.clang-format' \
	'linux-source-6.1/tools/testing/selftests/kselftest.h' \
	'linux-source-6.1/tools/testing/selftests/kselftest_harness.h' \
	'linux-source-6.1/tools/testing/selftests/lib.mk' \
	'linux-source-6.1/tools/testing/selftests/kselftest/*'
touch "$dest/.stamp"
