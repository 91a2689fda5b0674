#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# profil-ctl against perf (profil_compare.py --check) on three of make
# compare's cases: the shared library (xz), the pipeline and the dlopen
# program, shorter than make compare's. Both name PLT entries
# ("name@plt"; under TCG they take up to a quarter of a stripped
# program's samples), compared as one key per object (perf 6.1 cannot
# name libc's stubs one by one: profil_compare.py, Profile.functions()).
# Skips (4) without perf.
set -u
here=$(cd "$(dirname "$0")" && pwd)
exec /usr/bin/python3 "$here/profil_compare.py" --check --scale 0.5 \
	--work "${OUT:-/tmp}" --bindir "$here" xz pipeline dlopen
