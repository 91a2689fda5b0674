#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The job `make demo` runs in the guest, after the harness loaded
# profil.ko and before it unloads it (DEMO_JOB=... runs another one).
# Runs chrooted into the host's root; $OUT is the writable run directory
# (build/qemu/demo on the host), $TOP the source tree (read-only). It
# ends with the HTML report of the whole-program run, in $OUT.
set -euo pipefail

echo "== profil.ko is loaded"
grep '^profil ' /proc/modules
echo
echo "== the generic netlink family answers (tests/selftests/profil/genl_family)"
cd "$OUT/ksft"
./genl_family

echo
echo "== a program in three functions doing 50/30/20 % of the work"
echo "   (libprofil/examples/demo.c), profiled by the kernel at 1000 Hz:"
cd "$OUT"
demo=${DEMO_BIN:-$TOP/build/demo/demo}
PROFIL_HZ=1000 "$demo"
echo
echo "== gprof -b -p on the gmon.out it wrote"
gprof -b -p "$demo" gmon.out

echo
echo "== profil-ctl run: an unmodified program (cli/examples/busy.c), 50/30/20 %,"
echo "   per function, at 1000 Hz"
busy=${BUSY_BIN:-$TOP/build/demo/busy}
"$TOP/cli/profil-ctl" run --rate 1000 -- "$busy"
echo
echo "== the same, per source line, most samples first (the report is on"
echo "   stderr: the program's stdout stays its own)"
"$TOP/cli/profil-ctl" run --rate 1000 --lines --sort -- "$busy" \
	>/dev/null 2>"$OUT/lines.txt"
head -24 "$OUT/lines.txt"

echo
echo "== a whole program: a shell pipeline of Debian's own binaries, every"
echo "   process and every object (program, ld.so, libc, liblzma, vDSO),"
echo "   per process, most samples first; the head of the report"
cd "$OUT"
seq 1 200000 >numbers
"$TOP/cli/profil-ctl" run --rate 1000 --per-process --sort \
	--save pipeline.profile -- \
	sh -c 'sort -R numbers | sort -n | xz -3 | wc -c' 2>pipeline.txt
head -40 pipeline.txt
tail -1 pipeline.txt
echo
echo "== profil-ctl report on the saved profile, merged by object, the header"
"$TOP/cli/profil-ctl" report pipeline.profile >report.txt
sed -n '1,/^$/p' report.txt


echo
echo "== call graphs: a threaded -pg program (tests/selftests/profil/pg_work.c"
echo "   threads: 8 threads each call mid() 200000 times; mid() calls leaf_a()"
echo "   once and leaf_b() twice), built with gcc -pg, at PROFIL_HZ=1000."
echo "   The calls it made, as it counts them itself:"
K=$OUT/ksft
cd "$(mktemp -d)"
export PROFIL_HZ=1000
"$K/pg_work" threads >libprofil.arcs
cat libprofil.arcs
echo
echo "== linked with libprofil (its mcount, the kernel's histogram):"
echo "   gprof -b -q pg_work gmon.out"
gprof -b -q "$K/pg_work" gmon.out >libprofil.gprof
cat libprofil.gprof
echo
echo "== profil-ctl report --callgraph --sort on the same gmon.out"
"$TOP/cli/profil-ctl" report --callgraph --sort "$K/pg_work" gmon.out \
	>libprofil.cg
cat libprofil.cg
rm gmon.out
echo
echo "== the same program with glibc's runtime alone (pg_work_glibc), whose"
echo "   mcount skips a call while another thread is inside it:"
echo "   gprof -b -q pg_work_glibc gmon.out"
"$K/pg_work_glibc" threads >glibc.arcs
gprof -b -q "$K/pg_work_glibc" gmon.out >glibc.gprof
cat glibc.gprof
echo
cd "$OUT"
echo "== the same profile as one HTML page: summary, top functions, the"
echo "   function table, sources annotated per line (--format=html)"
"$TOP/cli/profil-ctl" report --format=html -o pipeline.html pipeline.profile
echo "   $OUT/pipeline.html, $(wc -c <pipeline.html) bytes; on the host"
echo "   build/qemu/demo/pipeline.html (the latest demo run): open it in a browser"
