#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Boot the Debian guest kernel in QEMU, share the host's root read-only,
# load the module, run the given entries (installed kselftest names, or
# absolute paths of scripts), unload, scan the kernel log. TAP goes to
# stdout; the exit status is the verdict.
#
# usage: tests/qemu/run.sh [ENTRY...]
#
# Environment (all optional; see Documentation/testing/guest.rst):
#   KSERIES      kernel series, 6.1 (default) or 6.12
#   KFLAVOUR     Debian kernel flavour (amd64; rt-amd64, ...)
#   GUEST_VMLINUZ, GUEST_MODDIR, GUEST_KVER   boot a kernel of your own
#   MODULE       module to load (kmod/profil.ko)
#   KSFT_INSTALL directory of installed selftests, copied to the run dir
#   VCPUS (2), MEM (1G), ACCEL (auto|kvm|tcg), KCMDLINE, QEMU_ARGS
#   TCG_THREAD   single: TCG runs every vCPU in one host thread (the
#                Makefile's default on 6.12); empty: QEMU's (one each)
#   TIMEOUT      overall seconds (default: (90 + per-test timeout * entries)
#                * TIMEOUT_SCALE)
#   TIMEOUT_SCALE multiplies every timeout (1; a slow debug kernel: more)
#   STRESS_SCALE stress_test's counts in percent (PROFIL_STRESS_SCALE; 100)
#   KMEMLEAK     on: check for the module's leaks (fails without kmemleak);
#                off: boot with kmemleak=off; empty: neither
#   RUN_NAME     run directory $BUILD/qemu/$RUN_NAME.<pid>, "check"; the
#                link $BUILD/qemu/$RUN_NAME points to the latest
#   COUNTS       where to copy the "pass fail skip" counts
#   TAP_PREFIX   prefix of nested output ("# "; the demo uses "")
set -euo pipefail

TOP=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${BUILD:-$TOP/build}
export BUILD
MODULE=$(realpath "${MODULE:-$TOP/kmod/profil.ko}")
KSFT_INSTALL=${KSFT_INSTALL:-}
VCPUS=${VCPUS:-2}
MEM=${MEM:-1G}
ACCEL=${ACCEL:-auto}
KCMDLINE=${KCMDLINE:-}
QEMU_ARGS=${QEMU_ARGS:-}
TCG_THREAD=${TCG_THREAD:-}
RUN_NAME=${RUN_NAME:-check}
COUNTS=${COUNTS:-}
TIMEOUT_SCALE=${TIMEOUT_SCALE:-1}
KMEMLEAK=${KMEMLEAK:-}
[ "$KMEMLEAK" != off ] || KCMDLINE="kmemleak=off $KCMDLINE"
QDIR=$BUILD/qemu
# One directory per run, so that runs in parallel do not meet;
# $QDIR/$RUN_NAME points to the latest.
RUN=$QDIR/$RUN_NAME.$$

die() { echo "qemu-run: $*" >&2; exit 1; }

[ $# -gt 0 ] || die "nothing to run"
[ -r "$MODULE" ] || die "$MODULE not built"
eval "$("$TOP/scripts/guest-kernel.sh" fetch)"
mkdir -p "$QDIR"

# The initramfs: busybox, /init and the modules 9p needs, in load order.
# Modules missing from MODDIR (or no MODDIR: "none") count as built in
# (6.12 has virtio and virtio_pci built in, and fscache in netfs).
# Compressed ones (6.12's .ko.xz) go in uncompressed, for busybox's insmod.
build_initrd()
{
	local out=$1 st m f

	st=$(mktemp -d "$QDIR/initrd.XXXXXX")
	mkdir -p "$st/bin" "$st/modules"
	cp /bin/busybox "$st/bin/busybox"
	cp "$TOP/tests/qemu/init" "$st/init"
	for m in virtio_ring virtio virtio_pci_legacy_dev virtio_pci_modern_dev \
		 virtio_pci netfs fscache 9pnet 9pnet_virtio 9p; do
		[ -d "${MODDIR:-}" ] || continue
		f=$(find "$MODDIR" \( -name "$m.ko" -o -name "$m.ko.xz" \
			-o -name "$m.ko.gz" \) | head -1)
		[ -n "$f" ] || continue
		case $f in
		*.xz)	xz -dc "$f" ;;
		*.gz)	gzip -dc "$f" ;;
		*)	cat "$f" ;;
		esac >"$st/modules/$m.ko"
		echo "$m" >>"$st/modules/order"
	done
	touch "$st/modules/order"
	(cd "$st" && find . | cpio -o -H newc --quiet) >"$out.tmp"
	mv "$out.tmp" "$out"
	rm -rf "$st"
}

INITRD=$QDIR/initrd-$KVER-$(echo "${MODDIR:-}" | md5sum | cut -c1-8).cpio
if [ ! -s "$INITRD" ] || [ "$TOP/tests/qemu/init" -nt "$INITRD" ] ||
   [ "$0" -nt "$INITRD" ]; then
	build_initrd "$INITRD"
fi

# qemu_boot RUNDIR ACCEL SECONDS: boot once; returns QEMU's (or timeout's) status.
qemu_boot()
{
	local run=$1 accel=$2 secs=$3 cpu=max opts=

	[ "$accel" = kvm ] && cpu=host
	[ "$accel" != tcg ] || [ -z "$TCG_THREAD" ] || opts=,thread=$TCG_THREAD
	# shellcheck disable=SC2086
	timeout -k 5 "$secs" qemu-system-x86_64 \
		-nodefaults -no-user-config -machine q35 \
		-accel "$accel$opts" -cpu "$cpu" -smp "$VCPUS" -m "$MEM" \
		-kernel "$VMLINUZ" -initrd "$INITRD" \
		-append "console=ttyS0 panic=-1 rdinit=/init $KCMDLINE" \
		-display none -serial "file:$run/console.log" -monitor none \
		-no-reboot \
		-virtfs "local,path=/,mount_tag=hostroot,security_model=none,readonly=on,multidevs=remap" \
		-virtfs "local,path=$run,mount_tag=out,security_model=none,multidevs=remap" \
		$QEMU_ARGS
}

# KVM only if a probe boot gets through; the answer is cached per kernel.
pick_accel()
{
	local cache=$QDIR/accel-$KVER probe

	case $ACCEL in
	kvm|tcg) echo "$ACCEL"; return ;;
	esac
	if [ -s "$cache" ]; then
		cat "$cache"
		return
	fi
	echo tcg >"$cache"
	if [ -w /dev/kvm ]; then
		probe=$(mktemp -d "$QDIR/probe.XXXXXX")
		echo "PROBE=1" >"$probe/env"
		if qemu_boot "$probe" kvm 30 >/dev/null 2>&1 &&
		   [ -s "$probe/probe" ]; then
			echo kvm >"$cache"
		fi
		rm -rf "$probe"
	fi
	cat "$cache"
}

find "$QDIR" -maxdepth 1 -name "$RUN_NAME.*" -mmin +120 -exec rm -rf {} +
rm -rf "$RUN"
mkdir -p "$RUN/ksft"
ln -sfn "$(basename "$RUN")" "$QDIR/$RUN_NAME"
[ -z "$KSFT_INSTALL" ] || cp -a "$KSFT_INSTALL/." "$RUN/ksft/"

per=$(sed -n "s/^timeout=//p" "$RUN/ksft/settings" 2>/dev/null | tail -1) || true
TIMEOUT=${TIMEOUT:-$(((90 + ${per:-45} * $#) * TIMEOUT_SCALE))}
accel=$(pick_accel)

{
	echo "export PROBE=0"
	printf 'export TOP=%q OUT=%q MODULE=%q\n' "$TOP" "$RUN" "$MODULE"
	printf 'export LIST=%q\n' "$*"
	printf 'export KEEP=%q\n' "$TOP $BUILD $(dirname "$MODULE") $KSFT_INSTALL"
	printf 'export TAP_PREFIX=%q\n' "${TAP_PREFIX-# }"
	printf 'export TIMEOUT_SCALE=%q KMEMLEAK=%q\n' "$TIMEOUT_SCALE" "$KMEMLEAK"
	printf 'export PROFIL_STRESS_SCALE=%q\n' "${STRESS_SCALE:-100}"
	printf 'export JOB=%q\n' "$TOP/tests/qemu/guest-run.sh"
} >"$RUN/env"
: >"$RUN/tap.log"

echo "# guest: linux $KVER, $accel${TCG_THREAD:+ ($TCG_THREAD thread)}, $VCPUS vCPUs, $MEM, timeout ${TIMEOUT}s"
start=$(date +%s)
qemu_boot "$RUN" "$accel" "$TIMEOUT" &
qpid=$!
tail -n +1 -F --pid="$qpid" "$RUN/tap.log" 2>/dev/null || true
set +e
wait "$qpid"
qrc=$?
set -e
echo "# guest: ran $(($(date +%s) - start))s, qemu exit $qrc, log $RUN/console.log"

verdict=$(cat "$RUN/done" 2>/dev/null || true)
if [ -z "$verdict" ]; then
	[ "$qrc" -eq 124 ] && why="timed out after ${TIMEOUT}s" ||
		why="did not finish (qemu exit $qrc)"
	echo "not ok - guest $why"
	echo "# last console lines:"
	tail -n 30 "$RUN/console.log" 2>/dev/null | sed 's/^/#   /'
	read -r p f s <"$RUN/counts" 2>/dev/null || { p=0 f=0 s=0; }
	echo "$p $((f + 1)) $s" >"$RUN/counts"
	verdict=fail
fi
if [ "$verdict" != pass ]; then
	echo "# guest failures:"
	grep -E '^(# )*not ok' "$RUN/tap.log" | sed 's/^\(# \)*/#   /' || true
fi
[ -z "$COUNTS" ] || cp "$RUN/counts" "$COUNTS"
[ "$verdict" = pass ]
