#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# make bench-insns, in the bench guest (one vCPU, -icount, insn_count.c
# loaded into QEMU): machine.sh's workload, two loops and EXECS
# fork+execs, once unprofiled and once under profil-ctl record -a at
# RATE Hz, each between insn_mark's reset and dump, so that the plugin
# writes what each run executed, block by block (dumps 0 and 1). The
# kernel's symbols go to $OUT for insns_report.py.
set -u
RATE=${INSNS_RATE:-250}
LOOPS=${LOOPS:-600}
EXECS=${EXECS:-300}
CTL=$TOP/cli/profil-ctl
WORK=$TOP/build/bench/whole_work
MARK=$TOP/build/bench/insn_mark
T=/tmp/insns
mkdir -p $T
cp /bin/busybox $T/true
echo 0 >/proc/sys/kernel/randomize_va_space
cat >$T/work.sh <<EOW
#!/bin/sh
$MARK reset
$WORK machine $LOOPS $EXECS $T/true
$MARK dump
EOW
chmod +x $T/work.sh

# A run not counted first, as machine.sh's: the page cache, the slabs.
"$WORK" machine "$LOOPS" "$EXECS" $T/true >/dev/null
# The tick probe's grace after any earlier profile (machine.sh).
sleep 11
$T/work.sh >$T/span
echo "# unprofiled: $(cat $T/span) ns"
"$CTL" record -a -F "$RATE" -o $T/profil.txt -- $T/work.sh >$T/span \
	2>$T/profil.err
samples=$(sed -n 's/.*: \([0-9]*\) ticks at .*/\1/p' $T/profil.err | tail -n 1)
echo "# profil-ctl record -a -F $RATE: $(cat $T/span) ns, $samples samples"
echo "$RATE ${samples:-0}" >"$OUT/samples"
cat /proc/kallsyms >"$OUT/kallsyms"
[ -n "$samples" ] && echo "ok 1 instruction counts" ||
	echo "not ok 1 instruction counts"
