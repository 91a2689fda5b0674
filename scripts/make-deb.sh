#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make deb: the Debian packages (debian/) of this tree, from a clean copy,
# then lintian on them.
#
#   1. the version (scripts/version.sh, or PROFIL_VERSION) is computed
#      here, in the git checkout;
#   2. the files git tracks, as they are in the work tree (uncommitted
#      edits included, untracked and ignored files not), are copied to
#      $BUILD/deb-src/profil-<version>/, and an entry for the version is
#      added at the top of the copy's debian/changelog;
#   3. dpkg-buildpackage -us -uc -b there; the packages, .buildinfo and
#      .changes go to $DEB_OUT ($BUILD/deb), which is emptied first;
#   4. lintian on the .changes: any error or warning fails (LINTIAN=0:
#      not run; the check-install target's older build skips it).
set -euo pipefail

TOP=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$TOP/build}
DEB_OUT=${DEB_OUT:-$BUILD/deb}
LINTIAN=${LINTIAN:-1}

die() { echo "make-deb: $*" >&2; exit 1; }

version=$("$TOP/scripts/version.sh")
for t in dpkg-buildpackage dh dh_dkms lintian; do
	command -v "$t" >/dev/null || die "$t missing (make deps)"
done
hash=$(git -C "$TOP" rev-parse --short=7 HEAD 2>/dev/null || echo unknown)
dirty=
git -C "$TOP" diff --quiet HEAD 2>/dev/null || dirty=" (with uncommitted changes)"

src=$BUILD/deb-src/$(basename "$DEB_OUT")/profil-$version
rm -rf "$(dirname "$src")"
mkdir -p "$src"
# Tracked files that exist (a deletion not yet committed is left out).
(cd "$TOP" && git ls-files -z | xargs -0 -r sh -c \
	'for f; do [ -e "$f" ] || [ -L "$f" ] && printf "%s\0" "$f"; done' sh |
	cpio -0 -pdm --quiet "$src")

{
	echo "profil ($version) unstable; urgency=medium"
	echo
	echo "  * Build of commit $hash$dirty."
	echo
	echo " -- $(sed -n 's/^Maintainer: //p' "$src/debian/control")  $(date -R)"
	echo
	cat "$src/debian/changelog"
} >"$src/debian/changelog.new"
mv "$src/debian/changelog.new" "$src/debian/changelog"

echo "make-deb: profil $version in $src"
(cd "$src" && dpkg-buildpackage -us -uc -b -j"$(nproc)") \
	>"$(dirname "$src")/build.log" 2>&1 ||
	{ tail -40 "$(dirname "$src")/build.log"; die "dpkg-buildpackage failed ($(dirname "$src")/build.log)"; }

rm -rf "$DEB_OUT"
mkdir -p "$DEB_OUT"
mv "$(dirname "$src")"/*.deb "$(dirname "$src")"/*.buildinfo \
   "$(dirname "$src")"/*.changes "$DEB_OUT/"
ls -1 "$DEB_OUT"/*.deb | sed 's|^|make-deb: |'
[ "$LINTIAN" = 1 ] || exit 0

echo "make-deb: lintian"
changes=$(ls "$DEB_OUT"/*.changes)
if ! lintian --fail-on error,warning "$changes"; then
	die "lintian: errors or warnings (above)"
fi
echo "make-deb: lintian: 0 errors, 0 warnings"
