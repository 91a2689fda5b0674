#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Every function the module's documentation and comments name as
# profil_name() or pk_name() (the module's internals) must exist: a definition, prototype or function-like
# macro in kmod/, libprofil/, the UAPI header or the selftests' headers
# (the tests' own model of the PC to counter rule). A name left behind by a
# rename fails here.
set -euo pipefail

TOP=$(cd "$(dirname "$0")/.." && pwd)
cd "$TOP"

src=(kmod/*.c kmod/*.h libprofil/*.c libprofil/*.h include/uapi/linux/profil.h
     tests/selftests/profil/*.h)
said=(Documentation/kmod/*.rst kmod/*.c kmod/*.h)

defs=$(grep -ohE '^([a-z_].*[ *]|#define )?(profil|pk)_[a-z0-9_]+\(' "${src[@]}" |
       grep -oE '(profil|pk)_[a-z0-9_]+' | sort -u)
rc=0
for name in $(grep -ohE '\b(profil|pk)_[a-z0-9_]+\(\)' "${said[@]}" |
	      sed 's/()$//' | sort -u); do
	if ! grep -qx "$name" <<<"$defs"; then
		grep -nE "\\b$name\\(\\)" "${said[@]}" | sed 's/^/check-doc-names: /'
		echo "check-doc-names: $name() is named but not defined" >&2
		rc=1
	fi
done
[ $rc = 0 ] && echo "check-doc-names: every profil_*() and pk_*() named is defined"
exit $rc
