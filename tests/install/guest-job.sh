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
# The checks are debian/tests (as "tester" unless needs-root). In phase
# fresh the job then hands PID 1 over to systemd, which runs the rest as
# profil-check.service (this script, argument "systemd"):
# profil-serve.service started, fetched from, killed, stopped, then the
# purge with it running. TAP goes to /mnt/tap.log, the counts to
# /mnt/counts, the verdict to /mnt/done; then the guest powers off.
set -uo pipefail
PART=${1:-init}

export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
export LC_ALL=C.UTF-8 HOME=/root DEBIAN_FRONTEND=noninteractive
OUT=/mnt
. "$OUT/env"
. "$OUT/tap-lib.sh"

if [ "$PART" = init ]; then
	mount -t proc proc /proc
	mount -t sysfs sysfs /sys
	mount -t tmpfs tmpfs /tmp
	mount -t tmpfs tmpfs /run
	mkdir -p /dev/pts /dev/shm
	# devtmpfs has no /dev/fd (udev makes it): bash's <(...) needs it,
	# and dkms uses that.
	ln -sfn /proc/self/fd /dev/fd
	ln -sfn /proc/self/fd/0 /dev/stdin
	ln -sfn /proc/self/fd/1 /dev/stdout
	ln -sfn /proc/self/fd/2 /dev/stderr
	mount -t devpts devpts /dev/pts
	mount -t tmpfs tmpfs /dev/shm
	mount -o remount,rw / 2>/dev/null
	hostname profil-guest
	exec >"$OUT/tap.log" 2>&1
else
	# Under systemd: the mounts stay, the results so far are in /run.
	exec >>"$OUT/tap.log" 2>&1
	. /run/profil-check.tap
fi

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

# profil-serve.service (debian/profil-ctl.profil-serve.service), in phase
# fresh under systemd.
UNIT=profil-serve.service
AUTH=/etc/profil-serve.auth
URL=http://127.0.0.1:6060/debug/pprof/profile

# The rest of phase fresh with systemd as PID 1: this script again, as
# profil-check.service, the one unit systemd starts (with what it needs:
# sysinit, the journal). The results so far go through /run; a machine
# id, so that systemd does not take this for a first boot.
to_systemd()
{
	declare -p TAP_N TAP_PASS TAP_FAIL TAP_SKIP >/run/profil-check.tap
	systemd-machine-id-setup 2>&1 | sed 's/^/# /' || return 1
	cat >/etc/systemd/system/profil-check.service <<-EOF
	[Unit]
	Description=make check-install, phase fresh under systemd
	[Service]
	Type=exec
	ExecStart=/bin/bash $OUT/job.sh systemd
	EOF
	echo "# PID 1 goes to systemd at $SECONDS s"
	# systemd takes the console for its own output.
	shopt -s execfail
	exec /lib/systemd/systemd --unit=profil-check.service
	echo "exec /lib/systemd/systemd failed"
	return 1
}

# Installed, neither enabled nor running. Without systemd (phase
# upgrade), systemctl reads the unit files.
unit_disabled()
{
	local e
	e=$(systemctl is-enabled "$UNIT")
	echo "PID 1: $(cat /proc/1/comm); is-enabled: $e"
	[ -f "/lib/systemd/system/$UNIT" ] && [ "$e" = disabled ] || return 1
	[ "$(cat /proc/1/comm)" = systemd ] || return 0
	echo "is-active: $(systemctl is-active "$UNIT")"
	[ "$(systemctl is-active "$UNIT")" = inactive ]
}

# poll SECONDS CMD...: CMD until it succeeds, for at most SECONDS.
poll()
{
	local i
	for ((i = 0; i < $1 * 4; i++)); do
		"${@:2}" >/dev/null 2>&1 && return 0
		sleep 0.25
	done
	"${@:2}"
}

# status_says TEXT: systemctl status shows TEXT (it exits 3 for a
# failed unit).
status_says()
{
	local st
	st=$(systemctl status --no-pager -l -n 20 "$UNIT")
	grep -qF -- "$1" <<<"$st"
}

# Without the auth file serve refuses to start (status 1, no restart),
# and systemctl status shows its message from the journal.
unit_no_auth()
{
	local said=0
	rm -f "$AUTH"
	# Type=exec: the start may be over, or may fail, before serve exits.
	systemctl start "$UNIT"
	poll 60 systemctl -q is-failed "$UNIT" || return 1
	poll 10 status_says "--auth-file: $AUTH: No such file or directory" || said=1
	systemctl status --no-pager -l -n 5 "$UNIT"
	[ $said -eq 0 ] && [ "$(systemctl show -P ExecMainStatus "$UNIT")" = 1 ] &&
		[ "$(systemctl show -P NRestarts "$UNIT")" = 0 ] &&
		systemctl reset-failed "$UNIT"
}

code() { curl -s -o /dev/null -w '%{http_code}' "$@"; }

# serving URL: 401 without credentials, the first answer waited for.
serving() { [ "$(code --retry 90 --retry-connrefused --retry-delay 1 "$URL")" = 401 ]; }

# tester's program in a home only tester may enter: the unit's root
# names its function all the same (CAP_DAC_READ_SEARCH, and
# ProtectHome=read-only).
spin_build()
{
	cat >/home/tester/spin.c <<-'EOF'
	volatile unsigned long profil_sink;
	__attribute__((noinline)) void profil_unit_spin(void)
	{
		for (unsigned long i = 0; i < 1000000; i++)
			profil_sink += i;
	}
	int main(void)
	{
		for (;;)
			profil_unit_spin();
	}
	EOF
	chown tester: /home/tester/spin.c
	chmod 0700 /home/tester
	as_tester cc -O1 -o /home/tester/spin /home/tester/spin.c
}

# With a 0640 auth file: the start loads the module (serve's check of
# CAP_PERFMON); 401 without credentials and with wrong ones; with them,
# a gzip'ed pprof profile naming tester's spinning function.
unit_serves()
{
	local c magic
	spin_build || return 1
	(umask 027 && echo 'pprof:pass:word' >"$AUTH") || return 1
	echo "auth file mode $(stat -c %a "$AUTH")"
	modprobe -r profil || return 1
	systemctl start "$UNIT" || return 1
	serving || { systemctl status --no-pager "$UNIT"; return 1; }
	echo "module loaded by the start: $(loaded_version)"
	[ "$(loaded_version)" = "$NEW" ] || return 1
	c=$(code -u pprof:nope "$URL?seconds=1")
	echo "wrong password: $c"
	[ "$c" = 401 ] || return 1
	runuser -u tester -- timeout 6 /home/tester/spin &
	c=$(curl -s -u pprof:pass:word -o /tmp/profile -w '%{http_code}' "$URL?seconds=3")
	wait
	magic=$(od -An -tx1 -N2 /tmp/profile | tr -d ' ')
	echo "with credentials: $c, $(stat -c %s /tmp/profile) bytes, magic $magic"
	[ "$c" = 200 ] && [ "$magic" = 1f8b ] && zcat /tmp/profile >/tmp/profile.pb || return 1
	grep -aq profil_unit_spin /tmp/profile.pb
}

# Killed: Restart=on-abnormal starts it again.
restarted()
{
	local p
	p=$(systemctl show -P MainPID "$UNIT")
	[ "$p" -gt 0 ] && [ "$p" != "$1" ] && systemctl -q is-active "$UNIT"
}
unit_restarts()
{
	local pid
	pid=$(systemctl show -P MainPID "$UNIT")
	[ "$pid" -gt 0 ] || return 1
	kill -KILL "$pid"
	poll 60 restarted "$pid" || return 1
	echo "MainPID $pid killed, then $(systemctl show -P MainPID "$UNIT"); NRestarts $(systemctl show -P NRestarts "$UNIT")"
	serving
}

# systemctl stop: SIGTERM, and serve ends with status 0.
unit_stops()
{
	systemctl stop "$UNIT" || return 1
	echo "$(systemctl is-active "$UNIT"); Result $(systemctl show -P Result "$UNIT"), status $(systemctl show -P ExecMainStatus "$UNIT")"
	[ "$(systemctl is-active "$UNIT")" = inactive ] &&
		[ "$(systemctl show -P Result "$UNIT")" = success ] &&
		[ "$(systemctl show -P ExecMainStatus "$UNIT")" = 0 ]
}

# Running again for the purge, which must stop it (debian/profil-ctl.prerm).
unit_start_again()
{
	systemctl start "$UNIT" && serving || return 1
	systemctl show -P MainPID "$UNIT" >/run/profil-serve.pid
	echo "MainPID $(cat /run/profil-serve.pid)"
}
purge_stopped()
{
	local pid
	pid=$(cat /run/profil-serve.pid)
	echo "MainPID $pid before the purge; unit now $(systemctl is-active "$UNIT")"
	[ "$pid" -gt 0 ] && [ ! -e "/proc/$pid" ]
}


if [ "$PART" = init ]; then
echo "profil-check: start ($PHASE)" >/dev/kmsg
echo "# $PHASE: linux $(uname -r), $(nproc) CPUs; kernels in the root: $KVERS"
ntests=$(grep -c '^Tests:' "$OUT/debian-tests/control")
case $PHASE in
fresh)
	tap_plan $((3 + ntests + 7 + 2))
	check "module not loaded before the first request" not_loaded
	check "DKMS: profil/$NEW for every kernel ($KVERS)" dkms_for_all "$NEW"
	autopkgtests
	check "module, profil-ctl and package agree on $NEW" versions_agree
	# Returns only if systemd could not be started.
	to_systemd
	tap_result fail "systemd as PID 1"
	;;
upgrade)
	tap_plan $((6 + ntests + 1 + 2))
	check "DKMS: profil/$OLD for every kernel ($KVERS)" dkms_for_all "$OLD"
	check "a user's request loads profil $OLD" upgrade_old_loaded
	check "apt-get install ./*.deb: $OLD to $NEW, reload asked for" upgrade_install
	check "DKMS: profil/$NEW, rebuilt for every kernel ($KVERS)" dkms_for_all "$NEW"
	check "profil-ctl status warns of the old module" status_warns
	check "reloaded: module, profil-ctl and package agree on $NEW" reload
	autopkgtests
	check "$UNIT installed, disabled (systemctl is-enabled, no systemd running)" unit_disabled
	;;
esac
else
	echo "# under systemd, up $(cut -d' ' -f1 /proc/uptime) s: $(systemctl is-system-running)"
	check "systemd is PID 1: $UNIT installed, disabled, inactive" unit_disabled
	check "$UNIT without $AUTH: fails with status 1, not restarted; systemctl status says why" unit_no_auth
	check "$UNIT with a 0640 $AUTH: loads the module; 401 without or with wrong credentials; a gzip'ed pprof names tester's function (home 0700)" unit_serves
	check "$UNIT killed (SIGKILL): restarted, serves" unit_restarts
	check "systemctl stop $UNIT: inactive, exit status 0" unit_stops
	check "$UNIT started again, for the purge" unit_start_again
fi
check "apt-get purge: no file left, dkms status empty, module unloaded" purge
[ "$PART" = init ] || check "apt-get purge stopped $UNIT (debian/profil-ctl.prerm)" purge_stopped
check "kernel log clean" dmesg_clean
dmesg >"$OUT/dmesg.txt"

if [ "$TAP_FAIL" -eq 0 ]; then echo pass >"$OUT/done"; else echo fail >"$OUT/done"; fi
sync
umount /mnt 2>/dev/null
echo o >/proc/sysrq-trigger
sleep 10
