#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The guest side of the harness. Runs as the job of tests/qemu/init, chrooted
# into the host's root (read-only) with $OUT, the run directory, writable.
# Loads the module, runs every entry of $LIST as a TAP item, unloads the
# module and scans the kernel log; each of those is one TAP result, and
# with KMEMLEAK=on one more, the leak check. The
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

# The per-program timeout= of settings, times TIMEOUT_SCALE (a slow
# kernel: KASAN and friends).
timeout_of()
{
	local t

	t=$(sed -n 's/^timeout=//p' "$OUT/ksft/settings" 2>/dev/null | tail -1)
	echo $((${t:-45} * ${TIMEOUT_SCALE:-1}))
}
# Programs built with PROFIL_HARNESS_MAIN scale their per-test timeouts.
export PROFIL_TIMEOUT_SCALE=${TIMEOUT_SCALE:-1}

KMEMLEAK=${KMEMLEAK:-}
LEAKS=/sys/kernel/debug/kmemleak
# kmemleak reports an object only once it is 5 s old (its min age) and
# unchanged over two scans (the first one checksums it).
leak_scan()
{
	sleep 6
	echo scan >"$LEAKS" && echo scan >"$LEAKS"
}

read -r -a entries <<<"$LIST"
modname=$(basename "$MODULE" .ko)
steps=3
[ "$KMEMLEAK" != on ] || steps=4
tap_plan $((${#entries[@]} + steps))
tap_counts "$OUT/counts"

taint0=$(cat /proc/sys/kernel/tainted)
mark start
# kmemleak, if any: forget what boot left, only our leaks count.
[ "$KMEMLEAK" != on ] || echo clear >"$LEAKS" ||
	echo "# kmemleak: not available (KMEMLEAK=on)"
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

# Scan and read the report while the module is loaded: kmemleak
# symbolises the backtraces as it prints them, so only now do the module's
# frames resolve to [$modname]. What its unloading leaks comes with the
# second scan.
if [ "$KMEMLEAK" = on ]; then
	mark "kmemleak scan, loaded"
	leak_scan && cat "$LEAKS" >"$OUT/kmemleak-loaded.txt"
fi

mark "rmmod $modname"
if [ ! -d "/sys/module/$modname" ]; then
	tap_result fail "rmmod $modname" "module not loaded"
elif rmmod "$modname" && [ ! -d "/sys/module/$modname" ]; then
	tap_result ok "rmmod $modname"
else
	tap_result fail "rmmod $modname"
fi
tap_counts "$OUT/counts"

# kmemleak: the module's leaks fail. A report is the module's if a frame
# of its allocation backtrace is in the module ([profil] while loaded, a
# bare address once unloaded: everything else resolves, KALLSYMS_ALL) or
# in its loading or unloading. Reports are keyed by object address, as
# one object shows in both reads.
if [ "$KMEMLEAK" = on ]; then
	mark "kmemleak scan, unloaded"
	if leak_scan && cat "$LEAKS" >"$OUT/kmemleak.txt"; then
		touch "$OUT/kmemleak-loaded.txt"
		# (No process substitution: the chroot has no /dev/fd.)
		counts=$(awk -v mod="[$modname]" '
			/^unreferenced object/ { obj = $3; seen[obj] = 1; next }
			index($0, mod) || /\] 0x[0-9a-f]+$/ ||
			/\] (__do_sys_delete_module|do_init_module)\+/ { hit[obj] = 1 }
			END { for (o in seen) { all++; ours += (o in hit) }
			      print ours + 0, all + 0 }' \
			"$OUT/kmemleak-loaded.txt" "$OUT/kmemleak.txt")
		ours=${counts% *} all=${counts#* }
		if [ "$ours" -eq 0 ]; then
			[ "$all" -eq 0 ] || echo "# kmemleak: $all unreferenced" \
				"object(s), none from $modname: $OUT/kmemleak.txt"
			tap_result ok "kmemleak: no leak from $modname"
		else
			cat "$OUT/kmemleak-loaded.txt" "$OUT/kmemleak.txt" |
				head -40 | sed 's/^/# /'
			tap_result fail "kmemleak: no leak from $modname" \
				"$ours of $all unreferenced object(s)"
		fi
	else
		tap_result fail "kmemleak: no leak from $modname" \
			"kmemleak not available"
	fi
	tap_counts "$OUT/counts"
fi

mark "scan"
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
