#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Print the version of this tree: the project's version (libprofil's
# VERSION), then "+git", the commit count and the abbreviated hash, for
# example 1.2.0+git387.g4857ebf. Every later commit gives a higher
# version (dpkg's order), so packages built from a newer tree upgrade
# those of an older one. The module (MODULE_VERSION), DKMS, profil-ctl
# --version and debian/changelog all use it. Outside a git checkout (a
# copy made by make deb, say): the project's version alone, unless
# PROFIL_VERSION is set, which always wins.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
if [ -n "${PROFIL_VERSION:-}" ]; then
	echo "$PROFIL_VERSION"
	exit 0
fi
base=$(sed -n 's/^VERSION[[:space:]]*:=[[:space:]]*//p' "$top/libprofil/Makefile")
[ -n "$base" ] || { echo "version.sh: no VERSION in libprofil/Makefile" >&2; exit 1; }
if count=$(git -C "$top" rev-list --count HEAD 2>/dev/null) &&
   hash=$(git -C "$top" rev-parse --short=7 HEAD 2>/dev/null); then
	echo "$base+git$count.g$hash"
else
	echo "$base"
fi
