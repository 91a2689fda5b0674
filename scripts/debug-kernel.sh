#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build the debug guest kernel from Debian's linux-source-6.1: x86_64
# allnoconfig plus tests/qemu/debug.config (KASAN, lockdep, kmemleak, ...)
# and tests/selftests/profil/config, `bzImage modules` (so that the tree
# has a Module.symvers and doubles as the KDIR profil.ko is built against).
#
# The tree lives in a cache outside the repo, shared by every clone:
#   ${PROFIL_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/profil}/debug-kernel/
#     <linux-source version>-<sha256 of the fragment and recipe, 12 hex>/
# A second run finds it built and only prints its location.
#
# usage: debug-kernel.sh [dir]   print the tree's directory (not building)
#        debug-kernel.sh         build if needed, print KVER=, VMLINUZ=, KDIR=
# Environment: JOBS (nproc), PROFIL_CACHE.
set -euo pipefail

TOP=$(cd "$(dirname "$0")/.." && pwd)
JOBS=${JOBS:-$(nproc)}
PKG=linux-source-6.1
tarball=/usr/src/$PKG.tar.xz
# How the tree is made; part of the key, so a change here rebuilds.
RECIPE="allnoconfig KCONFIG_ALLCONFIG; bzImage modules"

die() { echo "debug-kernel: $*" >&2; exit 1; }

srcver=$(dpkg-query -W -f='${Version}' "$PKG" 2>/dev/null) ||
	die "$PKG not installed (scripts/install-deps.sh)"
[ -r "$tarball" ] || die "$tarball missing (scripts/install-deps.sh)"
# The fragments' settings: comments and blank lines are not part of the
# key (a comment's edit must not cost a kernel build), "is not set" is.
frag=$(awk '/^# CONFIG_[A-Za-z0-9_]+ is not set$/ || !/^(#|[[:space:]]*$)/' \
	"$TOP/tests/qemu/debug.config" "$TOP/tests/selftests/profil/config")
key=$srcver-$(printf '%s\n%s\n' "$RECIPE" "$frag" | sha256sum | cut -c1-12)
CACHE=${PROFIL_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/profil}/debug-kernel
DIR=$CACHE/$key
SRC=$DIR/linux

if [ "${1:-}" = dir ]; then
	echo "$SRC"
	exit 0
fi

img=$SRC/arch/x86/boot/bzImage
kmake() { nice -n 10 make -C "$SRC" ARCH=x86_64 "$@"; }
report()
{
	echo "KVER=$(kmake -s kernelrelease)"
	echo "VMLINUZ=$img"
	echo "KDIR=$SRC"
}

# Written last: a tree without it is (re)built.
[ ! -f "$DIR/built" ] || { report; exit 0; }

for t in flex bison bc; do
	command -v "$t" >/dev/null || die "$t missing (scripts/install-deps.sh)"
done

mkdir -p "$DIR"
# One builder per key (two clones, two makes); the others wait, then
# find it built.
exec 9>"$DIR/lock"
flock 9
[ ! -f "$DIR/built" ] || { report; exit 0; }

start=$(date +%s)
if [ ! -f "$SRC/Makefile" ]; then
	echo "debug-kernel: extracting $tarball into $DIR" >&2
	rm -rf "$SRC" "$DIR/src.tmp"
	mkdir -p "$DIR/src.tmp"
	tar -xJf "$tarball" -C "$DIR/src.tmp" --strip-components=1
	mv "$DIR/src.tmp" "$SRC"
fi
printf '%s\n' "$frag" >"$DIR/fragment.config"

echo "debug-kernel: configuring and building $key (-j$JOBS, ~10 min on 2 cores)" >&2
kmake -s KCONFIG_ALLCONFIG="$DIR/fragment.config" allnoconfig >&2
# Every line of the fragment must have survived Kconfig: "CONFIG_X=v" and
# "# CONFIG_X is not set" alike.
bad=0
while read -r line; do
	case $line in
	CONFIG_*=*)	sym=${line%%=*} val=${line#*=} ;;
	"# CONFIG_"*" is not set") sym=${line#\# } sym=${sym%% *} val=n ;;
	*)		continue ;;
	esac
	got=$("$SRC/scripts/config" --file "$SRC/.config" --state "${sym#CONFIG_}")
	[ "$val" = n ] && [ "$got" = undef ] && got=n
	if [ "$got" != "$val" ]; then
		echo "debug-kernel: $sym=$val did not stick (got $got)" >&2
		bad=1
	fi
done <"$DIR/fragment.config"
[ "$bad" = 0 ] || die "fix tests/qemu/debug.config"
kmake -s -j"$JOBS" bzImage modules >&2
[ -s "$SRC/Module.symvers" ] || die "no Module.symvers in $SRC"
echo "debug-kernel: built in $(($(date +%s) - start)) s" >&2
date -u >"$DIR/built"
report
