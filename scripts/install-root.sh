#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The Debian 12 root make check-install installs the packages into: a
# minimal bookworm (mmdebstrap --variant=minbase) from the host's apt
# sources (bookworm-security included) and with the host's apt options
# that matter off the host (proxies, snapshot validity), plus the tools
# the checks use (debian/tests' Depends other than our packages: gcc,
# pkgconf, binutils for gprof, man-db, manpages-dev, xz-utils, dpkg-dev;
# systemd and curl for profil-serve.service, which the fresh guest runs
# under systemd) and an unprivileged user, "tester". Nothing of the build
# tree goes in.
# Our packages' dependencies (dkms, libmnl0, ...) and the kernel headers
# are not preinstalled: check-install resolves them from the archive.
#
#   install-root.sh TARBALL   print the cached root's tarball path,
#                             building it first if needed
#
# Cached under $PROFIL_CACHE (~/.cache/profil): install-root-<key>.tar,
# the key a hash of this script, the sources and the options; and the
# downloaded packages, apt-archives/, which check-install reuses.
set -euo pipefail

TOP=$(cd "$(dirname "$0")/.." && pwd)
CACHE=${PROFIL_CACHE:-$HOME/.cache/profil}
SUITE=bookworm
TOOLS=gcc,libc6-dev,make,binutils,pkgconf,man-db,manpages-dev,xz-utils,dpkg-dev,kmod,systemd,curl

die() { echo "install-root: $*" >&2; exit 1; }
command -v mmdebstrap >/dev/null || die "mmdebstrap missing (make deps)"

mkdir -p "$CACHE/apt-archives"
# The host's sources, as apt sees them (one-line and deb822 files), and
# the apt options a root built elsewhere would miss.
srcs=$(mktemp "$CACHE/sources.XXXXXX")
opts=$(mktemp "$CACHE/aptopts.XXXXXX")
trap 'rm -f "$srcs" "$opts"' EXIT
{
	[ ! -r /etc/apt/sources.list ] || grep -hE '^[[:space:]]*deb[[:space:]]' /etc/apt/sources.list || true
	for f in /etc/apt/sources.list.d/*.list; do
		[ -r "$f" ] && grep -hE '^[[:space:]]*deb[[:space:]]' "$f" || true
	done
} >"$srcs.list"
for f in /etc/apt/sources.list.d/*.sources; do
	[ -r "$f" ] && { cat "$f"; echo; }
done >"$srcs.sources"
# Only Debian's own suites: other vendors' lists (a cloud SDK, say) need
# keys the root has not.
grep -E 'debian(-security)?[/ ]' "$srcs.list" >"$srcs" || true
[ -s "$srcs.sources" ] && [ -s "$srcs" ] && die "both one-line and deb822 sources: not handled"
apt-config dump | grep -E '^Acquire::(http|https|ftp)::Proxy|^Acquire::Check-Valid-Until|^Acquire::Check-Date' \
	>"$opts" || true

key=$(cat "$0" "$srcs" "$srcs.sources" "$opts" | md5sum | cut -c1-12)
tar=$CACHE/install-root-$key.tar
if [ -f "$tar" ] && [ -s "$tar" ]; then
	rm -f "$srcs.list" "$srcs.sources"
	echo "$tar"
	exit 0
fi

mirror=$srcs
if [ -s "$srcs.sources" ]; then
	# deb822: Debian's stanzas only.
	awk 'BEGIN { RS = ""; ORS = "\n\n" } /URIs:[^\n]*debian/' "$srcs.sources" >"$srcs.d822.sources"
	mirror=$srcs.d822.sources
fi
[ -s "$mirror" ] || die "no Debian apt sources on the host"

echo "install-root: building $tar (mmdebstrap, a few minutes once)" >&2
aptopts=()
while read -r line; do
	aptopts+=(--aptopt="$line")
done <"$opts"
mmdebstrap --quiet --variant=minbase --include="$TOOLS" \
	"${aptopts[@]}" \
	--skip=essential/unlink --skip=cleanup/apt/lists \
	--setup-hook='mkdir -p "$1"/var/cache/apt/archives/' \
	--setup-hook="sync-in $CACHE/apt-archives /var/cache/apt/archives/" \
	--customize-hook="sync-out /var/cache/apt/archives $CACHE/apt-archives" \
	--customize-hook='chroot "$1" useradd -m -s /bin/bash tester' \
	--customize-hook='echo profil-guest >"$1/etc/hostname"' \
	"$SUITE" "${tar%.tar}.tmp.tar" "$mirror" >&2
mv "${tar%.tar}.tmp.tar" "$tar"
rm -f "$srcs.list" "$srcs.sources" "$srcs.d822.sources"
echo "$tar"
