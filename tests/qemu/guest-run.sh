#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The guest side of the harness. Runs as the job of tests/qemu/init, chrooted
# into the host's root (read-only) with $OUT, the run directory, writable.
# Loads the module, runs every entry of $LIST as a TAP item, unloads the
# module and scans the kernel log; each of those is one TAP result. The
# TAP stream goes to $OUT/tap.log (the host prints it), the counts to
# $OUT/counts and, at the end, a verdict to $OUT/done.
set -uo pipefail

export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
export HOME=/tmp LC_ALL=C.UTF-8
. "$TOP/scripts/tap-lib.sh"

# What fails the run once it shows up in the kernel log after our marker.
BAD='WARNING:|BUG:|Oops|KASAN|UBSAN|kernel BUG|general protection fault'
BAD+='|possible circular locking|possible recursive locking'
BAD+='|inconsistent lock state|possible irq lock inversion'
BAD+='|suspicious RCU usage|lock held when returning to user space'
BAD+='|scheduling while atomic|sleeping function called from invalid context'
BAD+='|unreferenced object|Call Trace:|refcount_t:|list_(add|del) corruption'
BAD+='|blocked for more than|soft lockup|hard LOCKUP|rcu.*stall|Kernel panic'
# Taint bits allowed: O (out-of-tree, 4096) and E (unsigned, 8192).
TAINT_OK=$((4096 | 8192))

# Milestones in the kernel log, timestamped, for the console log.
mark() { echo "profil-harness: $*" >/dev/kmsg; }

timeout_of()
{
	local t

	t=$(sed -n 's/^timeout=//p' "$OUT/ksft/settings" 2>/dev/null | tail -1)
	echo "${t:-45}"
}

read -r -a entries <<<"$LIST"
modname=$(basename "$MODULE" .ko)
tap_plan $((${#entries[@]} + 3))
tap_counts "$OUT/counts"

taint0=$(cat /proc/sys/kernel/tainted)
mark start
# kmemleak, if any: forget what boot left, only our leaks count.
[ ! -w /sys/kernel/debug/kmemleak ] || echo clear >/sys/kernel/debug/kmemleak
echo "# kernel $(uname -r), $(nproc) CPUs, taint before: $taint0"

if insmod "$MODULE"; then
	tap_result ok "insmod $modname.ko"
else
	tap_result fail "insmod $modname.ko"
fi
tap_counts "$OUT/counts"

secs=$(timeout_of)
for e in "${entries[@]}"; do
	mark "run $e"
	if [ "${e#/}" != "$e" ]; then
		cd "$OUT" && tap_run "$(basename "$e")" "$secs" "$e"
	else
		cd "$OUT/ksft" && tap_run "selftests: profil: $e" "$secs" "./$e"
	fi
	cd /
	tap_counts "$OUT/counts"
done

mark "rmmod $modname"
if [ ! -d "/sys/module/$modname" ]; then
	tap_result fail "rmmod $modname" "module not loaded"
elif rmmod "$modname" && [ ! -d "/sys/module/$modname" ]; then
	tap_result ok "rmmod $modname"
else
	tap_result fail "rmmod $modname"
fi
tap_counts "$OUT/counts"

mark "scan"
# A kernel with kmemleak (a debug build): scan now, report what it holds.
leaks=/sys/kernel/debug/kmemleak
if [ -w "$leaks" ]; then
	echo scan >"$leaks"
	sleep 1
	echo scan >"$leaks"
	cat "$leaks" >"$OUT/kmemleak.txt"
	[ ! -s "$OUT/kmemleak.txt" ] ||
		echo "profil-harness: kmemleak: unreferenced object(s)" >/dev/kmsg
fi
dmesg >"$OUT/dmesg.txt"
taint=$(cat /proc/sys/kernel/tainted)
new_taint=$(((taint & ~taint0) & ~TAINT_OK))
hits=$(sed -n '/profil-harness: start/,$p' "$OUT/dmesg.txt" | grep -E "$BAD")
if [ -z "$hits" ] && [ "$new_taint" -eq 0 ]; then
	tap_result ok "dmesg clean"
else
	echo "$hits" | head -40 | sed 's/^/# /'
	echo "# taint: $taint0 -> $taint (new, not O/E: $new_taint)"
	tap_result fail "dmesg clean"
fi
tap_counts "$OUT/counts"

if [ "$TAP_FAIL" -eq 0 ]; then
	echo pass >"$OUT/done"
else
	echo fail >"$OUT/done"
fi
