#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The events group must never be world-readable: kmod/netlink.c refuses
# to build against headers without GENL_MCAST_CAP_NET_ADMIN. This builds
# a copy of the module against a copy of <net/genetlink.h> with the flag
# taken out, placed first in the include path, and fails unless the
# build stops at that #error.
#
# usage: check-mcast-cap.sh KDIR
set -euo pipefail

TOP=$(cd "$(dirname "$0")/.." && pwd)
KDIR=${1:?usage: check-mcast-cap.sh KDIR}

hdr=
for dir in "$KDIR" "$KDIR/source" "$(dirname "$KDIR")/$(basename "$KDIR" |
	   sed 's/-[a-z0-9]*$/-common/')"; do
	if [ -r "$dir/include/net/genetlink.h" ]; then
		hdr=$dir/include/net/genetlink.h
		break
	fi
done
[ -n "$hdr" ] || { echo "check-mcast-cap: no net/genetlink.h under $KDIR" >&2; exit 1; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/inc/net" "$tmp/mod"
grep -v GENL_MCAST_CAP "$hdr" >"$tmp/inc/net/genetlink.h"
(cd "$TOP" && cp -r --parents Kbuild kmod/Kbuild kmod/*.c kmod/*.h \
	include/uapi/linux/profil.h "$tmp/mod/")
rm -f "$tmp"/mod/kmod/*.mod.c
if make -C "$KDIR" M="$tmp/mod" NOSTDINC_FLAGS="-nostdinc -I$tmp/inc" \
	modules >"$tmp/log" 2>&1; then
	echo "check-mcast-cap: built without GENL_MCAST_CAP_NET_ADMIN" >&2
	exit 1
fi
grep -q 'error: #error "GENL_MCAST_CAP_NET_ADMIN missing' "$tmp/log" || {
	cat "$tmp/log" >&2
	echo "check-mcast-cap: failed, but not at the #error" >&2
	exit 1
}
echo "check-mcast-cap: no build without GENL_MCAST_CAP_NET_ADMIN"
