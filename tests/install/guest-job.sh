#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make check-install's guest job: PID 1 on the Debian root the packages
# were installed into (tests/install/init), the run directory at /mnt.
# /mnt/env sets PHASE, NEW and OLD (package versions) and KVERS (the
# kernels installed in the root):
#   fresh    the root has NEW installed: the checks, then the purge;
#   upgrade  the root has OLD installed, its module loaded by a request:
#            install NEW over it in the guest (DKMS rebuilds for every
#            kernel, not only the running and the newest), reload, the
#            checks, then the purge.
# The checks are debian/tests (as "tester" unless needs-root). TAP goes
# to /mnt/tap.log, the counts to /mnt/counts, the verdict to /mnt/done;
# then the guest powers off.
set -uo pipefail

export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
export LC_ALL=C.UTF-8 HOME=/root DEBIAN_FRONTEND=noninteractive
OUT=/mnt
. "$OUT/env"
. "$OUT/tap-lib.sh"

mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t tmpfs tmpfs /tmp
mount -t tmpfs tmpfs /run
mkdir -p /dev/pts /dev/shm
# devtmpfs has no /dev/fd (udev makes it): bash's <(...) needs it, and
# dkms uses that.
ln -sfn /proc/self/fd /dev/fd
ln -sfn /proc/self/fd/0 /dev/stdin
ln -sfn /proc/self/fd/1 /dev/stdout
ln -sfn /proc/self/fd/2 /dev/stderr
mount -t devpts devpts /dev/pts
mount -t tmpfs tmpfs /dev/shm
mount -o remount,rw / 2>/dev/null
hostname profil-guest

exec >"$OUT/tap.log" 2>&1

BAD='WARNING:|BUG:|Oops|KASAN|UBSAN|kernel BUG|general protection fault'
BAD+='|possible circular locking|possible recursive locking'
BAD+='|inconsistent lock state|suspicious RCU usage|Call Trace:'
BAD+='|scheduling while atomic|sleeping function called from invalid context'
BAD+='|refcount_t:|list_(add|del) corruption|soft lockup|hard LOCKUP|Kernel panic'
PKGS="profil-dkms profil-ctl libprofil1 libprofil-dev"

as_tester() { runuser -u tester -- env HOME=/home/tester "$@"; }

# check NAME CMD...: one TAP result; the output, nested, when it fails.
check()
{
	local name=$1 log t=$SECONDS
	shift
	log=$(mktemp)
	echo "profil-check: $name" >/dev/kmsg
	if "$@" >"$log" 2>&1; then
		sed -n 's/^note: /# /p' "$log"
		tap_result ok "$name"
	else
		sed 's/^/# /' "$log" | tail -40
		tap_result fail "$name"
	fi
	echo "#   $((SECONDS - t)) s"
	rm -f "$log"
	tap_counts "$OUT/counts"
}

loaded_version() { cat /sys/module/profil/version 2>/dev/null || echo none; }

# DKMS installed version $1, and only it, for every kernel in $KVERS, and
# modinfo agrees there.
dkms_for_all()
{
	local v=$1 k
	dkms status
	for k in $KVERS; do
		dkms status -m profil -v "$v" -k "$k" | grep -q ': installed' ||
			{ echo "no profil/$v installed for $k"; return 1; }
		[ "$(modinfo -k "$k" -F version profil)" = "$v" ] ||
			{ echo "modinfo -k $k: $(modinfo -k "$k" -F version profil)"; return 1; }
	done
	[ "$(dkms status profil | grep -vc "^profil/$v")" -eq 0 ]
}

# debian/tests/control's tests, in order: needs-root as root, the others
# as tester; without allow-stderr, output on stderr fails.
autopkgtests()
{
	local t r tmp rc t0
	awk 'BEGIN { RS = ""; FS = "\n" }
	     { t = ""; r = ""
	       for (i = 1; i <= NF; i++) {
		       if ($i ~ /^Tests:/) { t = $i; sub(/^Tests:[ \t]*/, "", t) }
		       if ($i ~ /^Restrictions:/) { r = $i; sub(/^Restrictions:[ \t]*/, "", r) }
	       }
	       if (t != "") { gsub(/[ ,]+/, ",", r); print t, (r == "" ? "-" : r) } }' \
		"$OUT/debian-tests/control" >/tmp/tests.list
	while read -r t r; do
		t0=$SECONDS
		tmp=$(mktemp -d)
		chmod 0777 "$tmp"
		rc=0
		case ",$r," in
		*,needs-root,*)
			(cd "$tmp" && AUTOPKGTEST_TMP=$tmp "$OUT/debian-tests/$t") \
				>"$tmp/.out" 2>"$tmp/.err" || rc=$? ;;
		*)	(cd "$tmp" && as_tester env AUTOPKGTEST_TMP="$tmp" \
				"$OUT/debian-tests/$t") >"$tmp/.out" 2>"$tmp/.err" || rc=$? ;;
		esac
		case ",$r," in
		*,allow-stderr,*) ;;
		*)	[ ! -s "$tmp/.err" ] || [ $rc -ne 0 ] || rc=255 ;;
		esac
		if [ $rc -eq 0 ]; then
			tail -5 "$tmp/.out" | sed 's/^/# /'
			tap_result ok "debian/tests/$t"
		else
			cat "$tmp/.out" "$tmp/.err" | tail -40 | sed 's/^/# /'
			tap_result fail "debian/tests/$t" "exit $rc$([ $rc = 255 ] && echo ', output on stderr')"
		fi
		echo "#   $((SECONDS - t0)) s"
		tap_counts "$OUT/counts"
		rm -rf "$tmp"
	done </tmp/tests.list
}

# Purge: nothing of the packages stays (their files, DKMS's modules and
# tree), dkms status is empty, and the module unloads.
purge()
{
	local f left=0
	for p in $PKGS; do dpkg -L "$p"; done | while read -r f; do
		[ -d "$f" ] || echo "$f"
	done | sort -u >/tmp/files
	echo "$(wc -l </tmp/files) files"
	apt-get purge -y -q -o Dpkg::Use-Pty=0 $PKGS || return 1
	[ -z "$(dkms status)" ] || { echo "dkms status: $(dkms status)"; return 1; }
	while read -r f; do
		[ ! -e "$f" ] || { echo "left: $f"; left=1; }
	done </tmp/files
	for f in /usr/src/profil-* /var/lib/dkms/profil /lib/modules/*/updates/dkms/profil.ko*; do
		[ ! -e "$f" ] || { echo "left: $f"; left=1; }
	done
	[ "$left" -eq 0 ] || return 1
	[ ! -d /sys/module/profil ] || rmmod profil
	[ ! -d /sys/module/profil ]
}

dmesg_clean()
{
	local hits
	hits=$(dmesg | sed -n '/profil-check:/,$p' | grep -E "$BAD")
	[ -z "$hits" ] || { echo "$hits"; return 1; }
}

# The user's request loads the module: nothing loaded it before.
not_loaded() { [ ! -d /sys/module/profil ]; }

versions_agree()
{
	local cli
	cli=$(profil-ctl --version | awk '{ print $2 }')
	echo "module $(loaded_version), profil-ctl $cli, package $NEW"
	[ "$(loaded_version)" = "$NEW" ] && [ "$cli" = "$NEW" ]
}

upgrade_old_loaded()
{
	as_tester profil-ctl status >/dev/null || return 1
	echo "loaded: $(loaded_version)"
	[ "$(loaded_version)" = "$OLD" ]
}

upgrade_install()
{
	# Each line with its time: the run directory keeps the log.
	apt-get install -y -q -o Dpkg::Use-Pty=0 "$OUT"/debs/*.deb 2>&1 |
		while IFS= read -r l; do printf '%(%T)T %s\n' -1 "$l"; done \
		>/tmp/upgrade.log
	local rc=${PIPESTATUS[0]}
	cp /tmp/upgrade.log "$OUT/upgrade.log"
	cat /tmp/upgrade.log
	[ $rc -eq 0 ] || return 1
	# Which kernels dkms's common.postinst built, which ours
	# (debian/profil-dkms.postinst) had to.
	sed -nE 's/^[0-9:]+ ((Building for|profil-dkms: built).*)/note: \1/p' /tmp/upgrade.log
	# The old module stays loaded: the upgrade says so.
	grep -q "loaded profil module is version $OLD, not $NEW" /tmp/upgrade.log
}

status_warns()
{
	as_tester profil-ctl status 2>/tmp/status.err >/dev/null
	cat /tmp/status.err
	grep -q "warning: the loaded profil module is version $OLD, profil-ctl is $NEW" /tmp/status.err
}

reload()
{
	modprobe -r profil || return 1
	as_tester profil-ctl status 2>/tmp/status.err >/dev/null || return 1
	! grep . /tmp/status.err && versions_agree && modprobe -r profil
}

echo "profil-check: start ($PHASE)" >/dev/kmsg
echo "# $PHASE: linux $(uname -r), $(nproc) CPUs; kernels in the root: $KVERS"
ntests=$(grep -c '^Tests:' "$OUT/debian-tests/control")
case $PHASE in
fresh)
	tap_plan $((3 + ntests + 2))
	check "module not loaded before the first request" not_loaded
	check "DKMS: profil/$NEW for every kernel ($KVERS)" dkms_for_all "$NEW"
	autopkgtests
	check "module, profil-ctl and package agree on $NEW" versions_agree
	;;
upgrade)
	tap_plan $((6 + ntests + 2))
	check "DKMS: profil/$OLD for every kernel ($KVERS)" dkms_for_all "$OLD"
	check "a user's request loads profil $OLD" upgrade_old_loaded
	check "apt-get install ./*.deb: $OLD to $NEW, reload asked for" upgrade_install
	check "DKMS: profil/$NEW, rebuilt for every kernel ($KVERS)" dkms_for_all "$NEW"
	check "profil-ctl status warns of the old module" status_warns
	check "reloaded: module, profil-ctl and package agree on $NEW" reload
	autopkgtests
	;;
esac
check "apt-get purge: no file left, dkms status empty, module unloaded" purge
check "kernel log clean" dmesg_clean
dmesg >"$OUT/dmesg.txt"

if [ "$TAP_FAIL" -eq 0 ]; then echo pass >"$OUT/done"; else echo fail >"$OUT/done"; fi
sync
umount /mnt 2>/dev/null
echo o >/proc/sysrq-trigger
sleep 10
