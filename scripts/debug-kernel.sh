#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build the debug guest kernel from Debian's linux-source-6.1: x86_64
# allnoconfig plus tests/qemu/debug.config (KASAN, lockdep, kmemleak, ...)
# and tests/selftests/profil/config, in $BUILD/debug/linux. The tree doubles as the KDIR profil.ko is built
# against. Prints KVER=, VMLINUZ=, KDIR= lines. Idempotent: rebuilds only
# when the fragment changes or the image is missing.
#
# usage: debug-kernel.sh [-j N]
set -euo pipefail

TOP=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$TOP/build}
DIR=$BUILD/debug
SRC=$DIR/linux
FRAG=$DIR/fragment.config
JOBS=${JOBS:-$(nproc)}
tarball=/usr/src/linux-source-6.1.tar.xz

die() { echo "debug-kernel: $*" >&2; exit 1; }

[ -r "$tarball" ] || die "$tarball missing (scripts/install-deps.sh)"
for t in flex bison bc; do
	command -v "$t" >/dev/null || missing="${missing:-} $t"
done
if [ -n "${missing:-}" ]; then
	echo "debug-kernel: installing$missing" >&2
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
		--no-install-recommends $missing >/dev/null
fi

if [ ! -f "$SRC/Makefile" ]; then
	echo "debug-kernel: extracting $tarball" >&2
	rm -rf "$SRC" "$DIR/src.tmp"
	mkdir -p "$DIR/src.tmp"
	tar -xJf "$tarball" -C "$DIR/src.tmp" --strip-components=1
	mv "$DIR/src.tmp" "$SRC"
fi

kmake() { nice -n 10 make -C "$SRC" ARCH=x86_64 "$@"; }

# Our fragment plus what the kselftests declare they need.
cat "$TOP/tests/qemu/debug.config" "$TOP/tests/selftests/profil/config" >"$FRAG"

img=$SRC/arch/x86/boot/bzImage
if [ ! -s "$img" ] || ! cmp -s "$FRAG" "$DIR/debug.config.built"; then
	echo "debug-kernel: configuring and building (-j$JOBS)" >&2
	kmake -s KCONFIG_ALLCONFIG="$FRAG" allnoconfig >&2
	# Every symbol of the fragment must have survived Kconfig.
	bad=0
	while IFS='=' read -r sym val; do
		case $sym in CONFIG_*) ;; *) continue ;; esac
		got=$("$SRC/scripts/config" --file "$SRC/.config" --state "${sym#CONFIG_}")
		if [ "$got" != "$val" ]; then
			echo "debug-kernel: $sym=$val did not stick (got $got)" >&2
			bad=1
		fi
	done <"$FRAG"
	[ "$bad" = 0 ] || die "fix tests/qemu/debug.config"
	kmake -s -j"$JOBS" >&2
	cp "$FRAG" "$DIR/debug.config.built"
fi

echo "KVER=$(kmake -s kernelrelease)"
echo "VMLINUZ=$img"
echo "KDIR=$SRC"
