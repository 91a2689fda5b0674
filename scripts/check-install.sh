#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make check-install: the Debian packages installed the way a user
# installs them, on a Debian 12 that has never seen the tree, booted in
# QEMU on Linux 6.12 and 6.1 (Documentation/testing.rst,
# "check-install").
#
#   1. make deb (lintian: no error, no warning), and a second build at a
#      lower version (the commit count minus one) for the upgrade;
#   2. a minimal bookworm root from mmdebstrap (scripts/install-root.sh,
#      cached in ~/.cache/profil), extracted afresh;
#   3. in it (chroot, the archive reachable): apt-get install ./*.deb of
#      the new build with both kernels' headers; DKMS must build for both;
#      the root is written to ext4 image A; then the packages are purged
#      and the lower build installed the same way: image B;
#   4. the upgrade in the root (chroot) with uname -r saying 6.12, the
#      running and newest kernel, for which dkms's own postinst rebuilds
#      alone: the package's postinst must build for 6.1;
#   5. Linux 6.12 boots image A as its root: tests/install/guest-job.sh,
#      phase "fresh"; Linux 6.1 boots image B: phase "upgrade" (in the
#      guest, which TCG makes the long part). One guest at a time (flock
#      /tmp/profil-guest.lock).
#
# Ends with the minutes and the totals line; exits 1 on any failure.
set -uo pipefail

TOP=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$TOP/build}
export BUILD
T0=${CHECK_T0:-$(date +%s)}
WORK=$BUILD/check-install
CACHE=${PROFIL_CACHE:-$HOME/.cache/profil}
LOCK=${PROFIL_GUEST_LOCK:-/tmp/profil-guest.lock}
# The guests' CPU model: qemu64 rather than max, whose AVX2 and AVX-512
# glibc's string functions then use and TCG emulates slowly; the
# upgrade's DKMS builds took 497 s instead of 682 s (Documentation/
# testing.rst). Debian 12's baseline is plain x86-64.
GUEST_CPU=${GUEST_CPU:-qemu64}
. "$TOP/scripts/tap-lib.sh"

die() { echo "check-install: $*" >&2; exit 1; }
[ "$(id -u)" -eq 0 ] || die "needs root (chroot, mounts, mkfs)"
for t in mmdebstrap mkfs.ext4 qemu-system-x86_64 busybox flock; do
	command -v "$t" >/dev/null || die "$t missing (make deps)"
done

# GUESTS_ONLY=1 (debugging the guest side): reuse the last run's images.
GUESTS_ONLY=${GUESTS_ONLY:-0}
if [ "$GUESTS_ONLY" = 1 ]; then
	[ -s "$WORK/root-new.img" ] && [ -s "$WORK/root-old.img" ] ||
		die "GUESTS_ONLY=1: no images from a previous run"
	rm -rf "$WORK"/guest-* "$WORK/host.counts"
else
	rm -rf "$WORK"
fi
mkdir -p "$WORK"
ROOT=$WORK/root

# check NAME CMD...: one host-side TAP result, output nested on failure.
check()
{
	local name=$1 log
	shift
	log=$(mktemp)
	if "$@" >"$log" 2>&1; then
		tap_result ok "$name"
	else
		sed 's/^/# /' "$log" | tail -40
		tap_result fail "$name"
	fi
	rm -f "$log"
	tap_counts "$WORK/host.counts"
}

mounted=()
umount_root()
{
	local i
	for ((i = ${#mounted[@]} - 1; i >= 0; i--)); do
		umount -l "${mounted[i]}" 2>/dev/null
	done
	mounted=()
}
mount_root()
{
	local m
	mount -t proc proc "$ROOT/proc" && mounted+=("$ROOT/proc")
	mount -t sysfs sysfs "$ROOT/sys" && mounted+=("$ROOT/sys")
	mount -o bind /dev "$ROOT/dev" && mounted+=("$ROOT/dev")
	mount -o bind /dev/pts "$ROOT/dev/pts" && mounted+=("$ROOT/dev/pts")
	mount -t tmpfs tmpfs "$ROOT/run" && mounted+=("$ROOT/run")
	# Downloads are kept for the next run.
	m=$ROOT/var/cache/apt/archives
	mount -o bind "$CACHE/apt-archives" "$m" && mounted+=("$m")
	cp -L /etc/resolv.conf "$ROOT/etc/resolv.conf" 2>/dev/null || true
}
trap 'umount_root' EXIT

# In the root; INITRD=No: the kernel's postinst makes no initramfs (the
# guest boots with ours).
in_root() { chroot "$ROOT" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin \
	LC_ALL=C.UTF-8 DEBIAN_FRONTEND=noninteractive INITRD=No "$@"; }

tap_plan 11
tap_counts "$WORK/host.counts"

# 1. The packages.
if [ "$GUESTS_ONLY" = 1 ]; then
	. "$WORK/versions"
else
	NEW=$("$TOP/scripts/version.sh")
	count=${NEW##*+git}
	count=${count%%.*}
	OLD=${NEW%%+git*}+git$((count - 1)).${NEW##*.}
	printf 'NEW=%q OLD=%q\n' "$NEW" "$OLD" >"$WORK/versions"
fi
echo "# packages: $NEW, and $OLD for the upgrade"
K61=$(KSERIES=6.1 "$TOP/scripts/guest-kernel.sh" kver) || die "no 6.1 kernel"
K612=$(KSERIES=6.12 "$TOP/scripts/guest-kernel.sh" kver) || die "no 6.12 kernel"
if [ "$GUESTS_ONLY" != 1 ]; then
# The older build runs while mmdebstrap waits for the network.
(env PROFIL_VERSION="$OLD" DEB_OUT="$BUILD/deb-old" LINTIAN=0 \
	"$TOP/scripts/make-deb.sh" >"$WORK/deb-old.log" 2>&1) &
old_pid=$!

# 2. The root.
tar=$("$TOP/scripts/install-root.sh") || die "no root"
check "make deb: $NEW, lintian clean" make -C "$TOP" -s deb
old_built() { wait "$old_pid" || { cat "$WORK/deb-old.log"; return 1; }; }
check "make deb at $OLD (the upgrade's older build)" old_built
mkdir -p "$ROOT"
tar -xf "$tar" -C "$ROOT" || die "cannot extract $tar"
mount_root

debs()
{
	rm -rf "$ROOT/tmp/debs"
	mkdir -p "$ROOT/tmp/debs"
	ls "$1"/*.deb | grep -v -- '-dbgsym_' | xargs cp -t "$ROOT/tmp/debs/"
}
installed_for_both()
{
	local v=$1 k
	in_root dkms status
	for k in "$K61" "$K612"; do
		in_root dkms status -m profil -v "$v" -k "$k" | grep -q ': installed' || return 1
		[ "$(in_root modinfo -k "$k" -F version profil)" = "$v" ] || return 1
	done
}
install_debs() { in_root apt-get update -q && in_root sh -c 'apt-get install -y -q /tmp/debs/*.deb "$@"' sh "$@"; }

# 3. Install, image A; purge, install the older build, image B.
image()
{
	local img=$1 mb
	umount_root
	rm -rf "$ROOT/tmp/debs" "$ROOT/var/cache/apt/archives/"*.deb
	mb=$(du -sm "$ROOT" | cut -f1)
	# No metadata_csum: ext4 wants no crc32c module from the initramfs.
	mkfs.ext4 -q -F -O ^metadata_csum -L root -d "$ROOT" "$img" "$((mb * 13 / 10 + 512))M"
	local rc=$?
	mount_root
	return $rc
}

debs "$BUILD/deb"
check "apt-get install ./*.deb linux-headers-$K61 linux-headers-$K612" \
	install_debs "linux-headers-$K61" "linux-headers-$K612"
check "DKMS built profil $NEW for $K61 and $K612" installed_for_both "$NEW"
check "image A: the root with $NEW" image "$WORK/root-new.img"
check "purge, then apt-get install ./*.deb at $OLD" \
	eval 'in_root apt-get purge -y -q profil-dkms profil-ctl libprofil1 libprofil-dev &&
	      debs "$BUILD/deb-old" && install_debs'
check "DKMS built profil $OLD for $K61 and $K612" installed_for_both "$OLD"
check "image B: the root with $OLD" image "$WORK/root-old.img"

# 4. The upgrade on a machine running its newest kernel, 6.12: dkms's
# common.postinst takes uname -r for the running kernel, and builds for it
# alone when it is also the newest; the 6.1 build must come from
# debian/profil-dkms.postinst. (The guests' upgrade runs on 6.1, where
# dkms builds for both itself: 6.12 is the newest.) A stand-in uname in
# /usr/local/bin says 6.12 (and DPkg::Path puts it in the maintainer
# scripts' PATH, which apt otherwise sets); the root is not used
# afterwards.
upgrade_as_612()
{
	local log=$WORK/upgrade-612.log
	printf '#!/bin/sh\n[ "$1" = -r ] && { echo %s; exit 0; }\nexec /usr/bin/uname "$@"\n' \
		"$K612" >"$ROOT/usr/local/bin/uname"
	chmod 0755 "$ROOT/usr/local/bin/uname"
	debs "$BUILD/deb"
	in_root env PATH=/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
		sh -c 'apt-get install -y -q -o Dpkg::Use-Pty=0 -o DPkg::Path="$PATH" /tmp/debs/*.deb' \
		>"$log" 2>&1 || { cat "$log"; return 1; }
	rm -f "$ROOT/usr/local/bin/uname"
	grep -E '^(Building for|profil-dkms: built)' "$log"
	grep -qx "Building for $K612" "$log" &&
		grep -q "^profil-dkms: built and installed for Linux $K61\$" "$log" &&
		installed_for_both "$NEW"
}
check "upgrade with $K612 running: dkms builds for it, profil-dkms for $K61" \
	upgrade_as_612
umount_root
fi

# 4. The guests.
# The initramfs: busybox, tests/install/init and, in load order, the
# modules of virtio, the disk, ext4 and 9p with what they depend on
# (modules.dep); those built in are left out.
initrd()
{
	local moddir=$1 out=$2 st m line path d kver base
	# The unpacked package has no modules.dep: depmod makes one there.
	if [ ! -s "$moddir/modules.dep" ]; then
		kver=$(basename "$moddir")
		base=${moddir%/lib/modules/*}
		depmod -b "$base" "$kver" || return 1
	fi
	st=$(mktemp -d "$WORK/initrd.XXXXXX")
	mkdir -p "$st/bin" "$st/modules"
	cp /bin/busybox "$st/bin/busybox"
	install -m 0755 "$TOP/tests/install/init" "$st/init"
	: >"$st/modules/order"
	add()
	{
		local m=$1 line path deps d n
		line=$(grep -E "(^|/)$m\.ko(\.xz|\.gz)?:" "$moddir/modules.dep") || return 0
		path=${line%%:*}
		deps=${line#*:}
		n=$(basename "$path")
		n=${n%%.ko*}
		grep -qx "$n" "$st/modules/order" && return 0
		for d in $(echo $deps | tr ' ' '\n' | tac); do
			d=$(basename "$d")
			add "${d%%.ko*}"
		done
		case $path in
		*.xz) xz -dc "$moddir/$path" ;;
		*.gz) gzip -dc "$moddir/$path" ;;
		*) cat "$moddir/$path" ;;
		esac >"$st/modules/$n.ko"
		echo "$n" >>"$st/modules/order"
	}
	for m in virtio_ring virtio virtio_pci virtio_blk crc32c_generic ext4 \
		 netfs fscache 9pnet 9pnet_virtio 9p; do
		add "$m"
	done
	(cd "$st" && find . | cpio -o -H newc --quiet) >"$out"
	rm -rf "$st"
}

guest()
{
	local series=$1 phase=$2 img=$3 secs=$4 thread=$5
	local run=$WORK/guest-$series kver vmlinuz moddir qrc start
	eval "$(KSERIES=$series "$TOP/scripts/guest-kernel.sh" fetch)" || return 1
	kver=$KVER vmlinuz=$VMLINUZ moddir=$MODDIR
	mkdir -p "$run/debs" "$run/debian-tests"
	cp "$TOP/tests/install/guest-job.sh" "$run/job.sh"
	cp "$TOP/scripts/tap-lib.sh" "$run/"
	cp "$TOP"/debian/tests/* "$run/debian-tests/"
	ls "$BUILD"/deb/*.deb | grep -v -- '-dbgsym_' | xargs cp -t "$run/debs/"
	printf 'PHASE=%q NEW=%q OLD=%q KVERS=%q\n' "$phase" "$NEW" "$OLD" \
		"$K61 $K612" >"$run/env"
	: >"$run/tap.log"
	initrd "$moddir" "$run/initrd.cpio" || return 1
	echo "# guest: linux $kver, phase $phase, tcg${thread:+ ($thread thread)}, timeout ${secs}s"
	start=$(date +%s)
	flock "$LOCK" timeout -k 5 "$secs" qemu-system-x86_64 \
		-nodefaults -no-user-config -machine q35 \
		-accel "tcg${thread:+,thread=$thread}" -cpu "$GUEST_CPU" -smp 2 -m 2G \
		-kernel "$vmlinuz" -initrd "$run/initrd.cpio" \
		-append "console=ttyS0 panic=-1 rdinit=/init" \
		-drive "file=$img,if=virtio,format=raw,snapshot=on" \
		-virtfs "local,path=$run,mount_tag=out,security_model=none,multidevs=remap" \
		-display none -serial "file:$run/console.log" -monitor none \
		-no-reboot &
	local qpid=$!
	tail -n +1 -F --pid="$qpid" "$run/tap.log" 2>/dev/null
	wait "$qpid"
	qrc=$?
	echo "# guest: ran $(($(date +%s) - start))s (lock wait included), qemu exit $qrc, log $run/console.log"
	if [ "$(cat "$run/done" 2>/dev/null)" != pass ]; then
		if [ ! -s "$run/done" ]; then
			echo "not ok - guest $series did not finish"
			tail -n 30 "$run/console.log" | sed 's/^/#   /'
			read -r p f s <"$run/counts" 2>/dev/null || { p=0 f=0 s=0; }
			echo "$p $((f + 1)) $s" >"$run/counts"
		fi
		return 1
	fi
}

# GUEST_SERIES (debugging): the guests to boot, "6.12 6.1".
rc=0
case " ${GUEST_SERIES:-6.12 6.1} " in
*" 6.12 "*) guest 6.12 fresh "$WORK/root-new.img" 1200 single || rc=1 ;;
esac
case " ${GUEST_SERIES:-6.12 6.1} " in
*" 6.1 "*) guest 6.1 upgrade "$WORK/root-old.img" 1800 "" || rc=1 ;;
esac
"$TOP/scripts/totals.sh" -s "$T0" "$WORK/host.counts" \
	"$WORK/guest-6.12/counts" "$WORK/guest-6.1/counts" || rc=1
exit $rc
