#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Resolve, download and unpack the Debian kernel the guest boots.
#
#   guest-kernel.sh kver    print the kernel release, e.g. 6.1.0-57-amd64
#                           or (KSERIES=6.12) 6.12.117+deb12-amd64
#   guest-kernel.sh fetch   download and unpack it (cached), then print
#                           KVER=, VMLINUZ= and MODDIR= lines for eval
#
# KSERIES is the kernel series, 6.1 (Debian 12's own, the default) or
# 6.12 (from bookworm-security); KFLAVOUR the flavour. The ABI comes from
# the metapackage, linux-image-$KFLAVOUR for 6.1 and
# linux-image-$KSERIES-$KFLAVOUR for the others, and is never hard-coded;
# a release not of the series asked for is an error. The apt-cache answer
# is cached in $BUILD/guest/ until apt's package cache changes.
# GUEST_KVER, GUEST_VMLINUZ and GUEST_MODDIR override everything (a
# locally built debug kernel, say).
set -euo pipefail

KSERIES=${KSERIES:-6.1}
KFLAVOUR=${KFLAVOUR:-amd64}
# "rt" means rt-amd64, "cloud" cloud-amd64.
case $KFLAVOUR in
amd64|*-amd64) ;;
*) KFLAVOUR=$KFLAVOUR-amd64 ;;
esac
case $KSERIES in
6.1)	META=linux-image-$KFLAVOUR ;;
*)	META=linux-image-$KSERIES-$KFLAVOUR ;;
esac
BUILD=${BUILD:-$(cd "$(dirname "$0")/.." && pwd)/build}
GDIR=$BUILD/guest

tmp=
die() { echo "guest-kernel: $*" >&2; exit 1; }

kver()
{
	local cache=$GDIR/kver-$KSERIES-$KFLAVOUR pkg v

	if [ -n "${GUEST_KVER:-}" ]; then
		echo "$GUEST_KVER"
		return
	fi
	if [ -s "$cache" ] && [ "$cache" -nt /var/cache/apt/pkgcache.bin ]; then
		cat "$cache"
		return
	fi
	pkg=$(apt-cache depends "$META" 2>/dev/null |
	      awk '/Depends: linux-image-/ { print $2; exit }') || true
	[ -n "$pkg" ] || die "cannot resolve $META (apt-get update?)"
	v=${pkg#linux-image-}
	case $v in
	"$KSERIES".*) ;;
	*) die "$META names $v, not a $KSERIES kernel" ;;
	esac
	mkdir -p "$GDIR"
	echo "$v" > "$cache.tmp"
	mv "$cache.tmp" "$cache"
	cat "$cache"
}

fetch()
{
	local v dir

	v=$(kver)
	if [ -n "${GUEST_VMLINUZ:-}" ]; then
		[ -r "$GUEST_VMLINUZ" ] || die "GUEST_VMLINUZ=$GUEST_VMLINUZ unreadable"
		echo "KVER=$v"
		echo "VMLINUZ=$GUEST_VMLINUZ"
		echo "MODDIR=${GUEST_MODDIR:-}"
		return
	fi
	dir=$GDIR/$v
	if [ ! -r "$dir/boot/vmlinuz-$v" ]; then
		mkdir -p "$GDIR"
		tmp=$(mktemp -d "$GDIR/dl.XXXXXX")
		trap 'rm -rf "$tmp"' EXIT
		echo "guest-kernel: fetching linux-image-$v" >&2
		# As root apt warns that it cannot sandbox the download: harmless.
		(cd "$tmp" && apt-get download -q "linux-image-$v" >"$tmp/log" 2>&1) ||
			{ cat "$tmp/log" >&2; die "apt-get download linux-image-$v failed"; }
		dpkg-deb -x "$tmp"/linux-image-*.deb "$tmp/x"
		rm -rf "$dir"
		mv "$tmp/x" "$dir"
	fi
	echo "KVER=$v"
	echo "VMLINUZ=$dir/boot/vmlinuz-$v"
	echo "MODDIR=${GUEST_MODDIR:-$dir/lib/modules/$v}"
}

case "${1:-}" in
kver)	kver ;;
fetch)	fetch ;;
*)	echo "usage: $0 kver|fetch" >&2; exit 2 ;;
esac
