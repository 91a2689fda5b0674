#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make check-install: the Debian packages installed the way a user
# installs them, on a Debian 12 that has never seen the tree, booted in
# QEMU on Linux 6.12 and 6.1 (Documentation/testing/check-install.rst).
#
#   1. make deb (lintian: no error, no warning), and a second build at a
#      lower version (the commit count minus one) for the upgrade, while
#      the root is made: a minimal bookworm from mmdebstrap
#      (scripts/install-root.sh, cached in ~/.cache/profil);
#   2. two copies of the root, A and B, extracted afresh; in each
#      (chroot, the archive reachable), side by side: apt-get install
#      ./*.deb, the new build in A and the older one in B, with both
#      kernels' headers; DKMS must build for both kernels. In A,
#      systemd-analyze verify finds nothing in profil-serve.service, and
#      it is disabled. A and B become ext4 images;
#   3. Linux 6.1 boots image B and Linux 6.12 image A, at once (the 6.12
#      guest takes one host thread; nothing here measures time):
#      tests/install/guest-job.sh, phase "upgrade" (the new build
#      installed over the older one in the guest, DKMS rebuilding there,
#      which TCG makes the long part) and phase "fresh", whose end runs
#      under systemd as PID 1 (profil-serve.service started, fetched
#      from with curl, killed, stopped, purged running). Meanwhile, in
#      root B (chroot), the upgrade with uname -r saying 6.12, the running
#      and newest kernel, for which dkms's own postinst rebuilds alone:
#      the package's postinst must build for 6.1. The guests hold the
#      guest lock (/tmp/profil-guest.lock) from the first to boot to the
#      last to end; other guest runs may take it too.
#
# Ends with the minutes and the totals line; exits 1 on any failure.
set -uo pipefail

TOP=$(cd "$(dirname "$0")/.." && pwd -P)
BUILD=$(realpath -m "${BUILD:-$TOP/build}")
export BUILD
T0=${CHECK_T0:-$(date +%s)}
WORK=$BUILD/check-install
CACHE=${PROFIL_CACHE:-$HOME/.cache/profil}
LOCK=${PROFIL_GUEST_LOCK:-/tmp/profil-guest.lock}
# The guests' CPU model: qemu64 rather than max, whose AVX2 and AVX-512
# glibc's string functions then use and TCG emulates slowly; the
# upgrade's DKMS builds took 497 s instead of 682 s (Documentation/
# testing/check-install.rst). Debian 12's baseline is plain x86-64.
GUEST_CPU=${GUEST_CPU:-qemu64}
. "$TOP/scripts/tap-lib.sh"

die() { echo "check-install: $*" >&2; exit 1; }
[ "$(id -u)" -eq 0 ] || die "needs root (chroot, mounts, mkfs)"
for t in mmdebstrap mkfs.ext4 qemu-system-x86_64 busybox flock unshare; do
	command -v "$t" >/dev/null || die "$t missing (make deps)"
done
case $BUILD in
*[[:space:]]*) die "a build directory with white space: $BUILD" ;;
esac

# The roots get the host's /dev (and /dev/pts) bound into them while the
# packages install: the run has a mount namespace of its own, so that
# those mounts end with it however it ends, and nothing outside (make
# clean, git clean, the next run) can remove the host's /dev through
# them, as an earlier version did once.
if [ -z "${PROFIL_CHECK_INSTALL_NS-}" ]; then
	PROFIL_CHECK_INSTALL_NS=1 exec unshare -m --propagation private "$0" "$@"
	die "unshare failed"
fi

# One run at a time in a build directory, and one at a time on the
# shared cache (apt locks its package directory; install-root.sh writes
# one tarball): the second waits.
mkdir -p "$BUILD" "$CACHE"
exec 8>"$BUILD/check-install.lock"
flock -n 8 || die "another check-install runs in $BUILD"
exec 7>"$CACHE/check-install.lock"
flock 7 || die "cannot lock $CACHE"

# GUESTS_ONLY=1 (debugging the guest side): reuse the last run's images.
GUESTS_ONLY=${GUESTS_ONLY:-0}
if [ "$GUESTS_ONLY" = 1 ]; then
	[ -s "$WORK/root-new.img" ] && [ -s "$WORK/root-old.img" ] ||
		die "GUESTS_ONLY=1: no images from a previous run"
	rm -rf "$WORK"/guest-* "$WORK/jobs" "$WORK/host.counts"
else
	rm -rf --one-file-system "$WORK" || die "cannot remove $WORK"
fi
mkdir -p "$WORK"
ROOT=$WORK/root

# check NAME CMD...: one host-side TAP result, output nested on failure,
# then its seconds.
check()
{
	local name=$1 log t=$SECONDS
	shift
	log=$(mktemp)
	if "$@" >"$log" 2>&1; then
		tap_result ok "$name"
	else
		sed 's/^/# /' "$log" | tail -40
		tap_result fail "$name"
	fi
	echo "#   $((SECONDS - t)) s"
	rm -f "$log"
	tap_counts "$WORK/host.counts"
}

# Steps that run side by side: bg NAME CMD... starts one, its output in
# $WORK/jobs/NAME.log; joined NAME waits for it and succeeds as it did
# (for check: "check TITLE joined NAME").
mkdir -p "$WORK/jobs"
bg()
{
	local name=$1
	shift
	("$@" >"$WORK/jobs/$name.log" 2>&1; echo $? >"$WORK/jobs/$name.rc") &
}
joined()
{
	while [ ! -s "$WORK/jobs/$1.rc" ]; do sleep 1; done
	cat "$WORK/jobs/$1.log"
	return "$(cat "$WORK/jobs/$1.rc")"
}

# Two roots, A for the new build and B for the older one, each with its
# mounts, made ready side by side.
declare -A mounts
umount_root()
{
	local root=$1 m
	while IFS= read -r m; do
		[ -z "$m" ] || umount -l "$m" 2>/dev/null
	done < <(printf '%s' "${mounts[$root]:-}" | tac)
	mounts[$root]=
}
# mount_root ROOT ARCHIVES: the kernel's file systems, and ARCHIVES as
# apt's package cache (downloads are kept for the next run).
mount_root()
{
	local root=$1 archives=$2 m
	for m in proc sys dev dev/pts run var/cache/apt/archives; do
		case $m in
		proc)	mount -t proc proc "$root/$m" ;;
		sys)	mount -t sysfs sysfs "$root/$m" ;;
		dev|dev/pts) mount -o bind "/$m" "$root/$m" ;;
		run)	mount -t tmpfs tmpfs "$root/$m" ;;
		*)	mount -o bind "$archives" "$root/$m" ;;
		esac && mounts[$root]+="$root/$m"$'\n'
	done
	cp -L /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null || true
}
# On the way out the background jobs go first: nothing may run in a root
# whose mounts go.
trap 'kill $(jobs -p) 2>/dev/null; wait
      for r in "${!mounts[@]}"; do umount_root "$r"; done' EXIT

# in_root ROOT CMD...; INITRD=No: the kernel's postinst makes no
# initramfs (the guest boots with ours).
in_root()
{
	local root=$1
	shift
	chroot "$root" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin \
		LC_ALL=C.UTF-8 DEBIAN_FRONTEND=noninteractive INITRD=No "$@"
}

# GUESTS_ONLY=1 has no host part.
if [ "$GUESTS_ONLY" = 1 ]; then tap_plan 0; else tap_plan 11; fi
tap_counts "$WORK/host.counts"
# stage WHAT: where the minutes go.
stage() { echo "# at $(($(date +%s) - T0)) s: $*"; }

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
ROOT_A=$WORK/root-new
ROOT_B=$WORK/root-old
if [ "$GUESTS_ONLY" != 1 ]; then
# The older build and the root (mmdebstrap, network bound on a cold
# cache) come while make deb builds.
bg deb-old env PROFIL_VERSION="$OLD" DEB_OUT="$BUILD/deb-old" LINTIAN=0 \
	"$TOP/scripts/make-deb.sh"
bg root timeout 1800 "$TOP/scripts/install-root.sh"
check "make deb: $NEW, lintian clean" make -C "$TOP" -s deb
check "make deb at $OLD (the upgrade's older build)" joined deb-old
joined root >/dev/null || { cat "$WORK/jobs/root.log"; die "no root"; }
tar=$(tail -n 1 "$WORK/jobs/root.log")
stage "the root is ready; extracting it twice"
mkdir -p "$ROOT_A" "$ROOT_B"
tar -xf "$tar" -C "$ROOT_A" & tar -xf "$tar" -C "$ROOT_B" || die "cannot extract $tar"
wait $! || die "cannot extract $tar"
stage "roots A and B extracted"

# debs ROOT DIR: the packages of DIR into ROOT's /tmp/debs.
debs()
{
	rm -rf "$1/tmp/debs"
	mkdir -p "$1/tmp/debs"
	ls "$2"/*.deb | grep -v -- '-dbgsym_' | xargs cp -t "$1/tmp/debs/"
}
installed_for_both()
{
	local root=$1 v=$2 k
	in_root "$root" dkms status
	for k in "$K61" "$K612"; do
		in_root "$root" dkms status -m profil -v "$v" -k "$k" | grep -q ': installed' || return 1
		[ "$(in_root "$root" modinfo -k "$k" -F version profil)" = "$v" ] || return 1
	done
}
apt_install() { in_root "$1" sh -c 'apt-get install -y -q /tmp/debs/*.deb "$@"' sh "${@:2}"; }
HEADERS="linux-headers-$K61 linux-headers-$K612"

# 2. Root A gets the new build, root B the older one, side by side, each
# as a user installs: apt-get install ./*.deb with both kernels' headers,
# dependencies from the archive, DKMS building for both kernels. Root A
# fetches what is not cached yet first; root B takes a linked copy of
# that cache (apt locks the directory it downloads to).
mount_root "$ROOT_A" "$CACHE/apt-archives"
debs "$ROOT_A" "$BUILD/deb"
debs "$ROOT_B" "$BUILD/deb-old"
fetch()
{
	in_root "$ROOT_A" apt-get update -q &&
	in_root "$ROOT_A" sh -c 'apt-get install -y -q --download-only /tmp/debs/*.deb "$@"' sh $HEADERS &&
	# The packages alone: a link to apt's lock file would share the lock.
	rm -rf "$WORK/archives-old" &&
	mkdir -p "$WORK/archives-old/partial" &&
	{ ln "$CACHE"/apt-archives/*.deb "$WORK/archives-old/" 2>/dev/null ||
	  cp "$CACHE"/apt-archives/*.deb "$WORK/archives-old/"; }
}
check "the dependencies and headers fetched" fetch
mount_root "$ROOT_B" "$WORK/archives-old"
bg install-new apt_install "$ROOT_A" $HEADERS
bg install-old eval 'in_root "$ROOT_B" apt-get update -q && apt_install "$ROOT_B" $HEADERS'
check "apt-get install ./*.deb $HEADERS ($NEW)" joined install-new
check "DKMS built profil $NEW for $K61 and $K612" installed_for_both "$ROOT_A" "$NEW"
# The unit as installed (with its man page, which verify runs man for);
# systemctl reads the unit files when systemd does not run.
unit_in_root()
{
	local out e rc=0
	out=$(in_root "$ROOT_A" systemd-analyze verify profil-serve.service 2>&1) || rc=$?
	echo "$out"
	[ $rc -eq 0 ] && [ -z "$out" ] || return 1
	e=$(in_root "$ROOT_A" systemctl is-enabled profil-serve.service)
	echo "is-enabled: $e"
	[ "$e" = disabled ]
}
check "profil-serve.service: systemd-analyze verify says nothing; disabled" unit_in_root
check "apt-get install ./*.deb $HEADERS ($OLD)" joined install-old
check "DKMS built profil $OLD for $K61 and $K612" installed_for_both "$ROOT_B" "$OLD"

# The images the guests boot.
image()
{
	local root=$1 img=$2 mb
	umount_root "$root"
	# Nothing of the host may go into the image, nor be removed.
	if findmnt -rn -o TARGET | grep -qF "$root/"; then
		echo "still mounted in $root"
		return 1
	fi
	rm -rf "$root/tmp/debs" "$root/var/cache/apt/archives/"*.deb
	mb=$(du -sm "$root" | cut -f1)
	# No metadata_csum: ext4 wants no crc32c module from the initramfs.
	mkfs.ext4 -q -F -O ^metadata_csum -L root -d "$root" "$img" "$((mb * 13 / 10 + 512))M"
}
bg image-old image "$ROOT_B" "$WORK/root-old.img"
check "image A: the root with $NEW" image "$ROOT_A" "$WORK/root-new.img"
check "image B: the root with $OLD" joined image-old
rm -rf --one-file-system "$ROOT_A"

# 3. The upgrade on a machine running its newest kernel, 6.12, in root B
# (chroot) while the guests run: dkms's common.postinst takes uname -r
# for the running kernel, and builds for it alone when it is also the
# newest; the 6.1 build must come from debian/profil-dkms.postinst. (The
# guest's upgrade runs on 6.1, where dkms builds for both itself: 6.12 is
# the newest.) A stand-in uname in /usr/local/bin says 6.12 (and
# DPkg::Path puts it in the maintainer scripts' PATH, which apt otherwise
# sets); the root is not used afterwards.
upgrade_as_612()
{
	local rc=0
	mount_root "$ROOT_B" "$WORK/archives-old"
	upgrade_as_612_in || rc=1
	umount_root "$ROOT_B"
	return $rc
}
upgrade_as_612_in()
{
	local log=$WORK/upgrade-612.log
	printf '#!/bin/sh\n[ "$1" = -r ] && { echo %s; exit 0; }\nexec /usr/bin/uname "$@"\n' \
		"$K612" >"$ROOT_B/usr/local/bin/uname"
	chmod 0755 "$ROOT_B/usr/local/bin/uname"
	debs "$ROOT_B" "$BUILD/deb"
	in_root "$ROOT_B" env PATH=/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
		sh -c 'apt-get install -y -q -o Dpkg::Use-Pty=0 -o DPkg::Path="$PATH" /tmp/debs/*.deb' \
		>"$log" 2>&1 || { cat "$log"; return 1; }
	rm -f "$ROOT_B/usr/local/bin/uname"
	grep -E '^(Building for|profil-dkms: built)' "$log"
	grep -qx "Building for $K612" "$log" &&
		grep -q "^profil-dkms: built and installed for Linux $K61\$" "$log" &&
		installed_for_both "$ROOT_B" "$NEW"
}
bg upgrade-612 upgrade_as_612
stage "images made"
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
	timeout -k 5 "$secs" qemu-system-x86_64 \
		-nodefaults -no-user-config -machine q35 \
		-accel "tcg${thread:+,thread=$thread}" -cpu "$GUEST_CPU" -smp 2 -m 2G \
		-kernel "$vmlinuz" -initrd "$run/initrd.cpio" \
		-append "console=ttyS0 panic=-1 rdinit=/init" \
		-drive "file=$img,if=virtio,format=raw,snapshot=on" \
		-virtfs "local,path=$run,mount_tag=out,security_model=none,multidevs=remap" \
		-display none -serial "file:$run/console.log" -monitor none \
		-no-reboot
	qrc=$?
	cat "$run/tap.log"
	echo "# guest: ran $(($(date +%s) - start))s, qemu exit $qrc, log $run/console.log"
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

# GUEST_SERIES (debugging): the guests to boot, "6.12 6.1". Both boot at
# once (the 6.12 guest takes one host thread, and neither measures time),
# under one hold of the guest lock, which other guest runs may take too
# (flock /tmp/profil-guest.lock make check) to keep apart from these.
rc=0
series=" ${GUEST_SERIES-6.12 6.1} "
counts=("$WORK/host.counts")
if [[ $series == *[0-9]* ]]; then
	if { exec 9>>"$LOCK"; } 2>/dev/null && flock 9; then
		echo "# guests: the lock taken after $(($(date +%s) - T0)) s"
	else
		echo "# guests: cannot take $LOCK; they run without it"
		rc=1
	fi
fi
[[ $series != *" 6.1 "* ]] ||
	bg guest-6.1 guest 6.1 upgrade "$WORK/root-old.img" 1800 ""
[[ $series != *" 6.12 "* ]] ||
	bg guest-6.12 guest 6.12 fresh "$WORK/root-new.img" 1200 single
if [ "$GUESTS_ONLY" != 1 ]; then
	check "upgrade with $K612 running: dkms builds for it, profil-dkms for $K61" \
		joined upgrade-612
fi
for g in 6.12 6.1; do
	[[ $series == *" $g "* ]] || continue
	joined "guest-$g" || rc=1
	counts+=("$WORK/guest-$g/counts")
done
exec 9>&-
"$TOP/scripts/totals.sh" -s "$T0" "${counts[@]}" || rc=1
exit $rc
