# SPDX-License-Identifier: GPL-2.0
#
# profil: kernel module (kmod/), library (libprofil/), CLI (cli/), tests.
#
#   make [all]            module + lib + cli
#   make check [T=name]   deps, build, unit tests, guest tests, the minutes,
#                         one totals line
#   make check-unit | check-guest
#   make check-guest KSERIES=6.12   the guest suite on Linux 6.12 (.ci/run)
#   make check-debug      the guest suite on the debug kernel, with the leak
#                         check (not compare_test.sh, top_test.sh)
#   make check-load       a busy loop per host core; under it, LOAD_RUNS (3)
#                         make checks, each in a fresh clone of HEAD in a
#                         new mode-0700 directory (LOAD_DEBUG=1: and
#                         check-debug); fails if any failed or skipped
#   make demo             boot the guest, load the module, run $(DEMO_JOB)
#   make bench            cost per sample, idle cost, mcount's cost per
#                         call (libprofil's and glibc's) and the tick's cost
#                         against 3x10^4 profiled threads, under -icount;
#                         then bench-host
#   make bench-host       on the host: profil-ctl's gmon.out reader on
#                         10^4, 10^5 and 10^6 records
#   make compare          profil-ctl against perf on real programs, in the
#                         guest (COMPARE_RATE, COMPARE_CASES)
#   make textpatch        6.12's multi-threaded TCG defect without profil.ko:
#                         KSERIES=6.12 TCG_THREAD=
#                         (Documentation/testing/linux-6.12.rst)
#   make fuzz             nl_fuzz with PROFIL_FUZZ_N (10^6) messages
#   make fuzz-gmon        profil-ctl's gmon.out reader, FUZZ_SECS (600) s
#   make style            checkpatch, bad-input matrix, clang-format, names
#                         the docs use, an aarch64 compile of profil-ctl
#                         and libprofil, no build without
#                         GENL_MCAST_CAP_NET_ADMIN, sparse and W=1 on
#                         each series (6.1, 6.12)
#   make install | clean | distclean
#   make dkms-install | dkms-uninstall   [DKMS_KVER=release]
#
# Parameters: KDIR, KSERIES (6.1, 6.12), KFLAVOUR (amd64, rt, debug), T,
# VCPUS, MEM, ACCEL, KCMDLINE, QEMU_ARGS, TIMEOUT, TIMEOUT_SCALE, KMEMLEAK,
# STRESS_SCALE, MODULE, DEMO_JOB,
# GUEST_VMLINUZ, GUEST_MODDIR, GUEST_KDIR, PROFIL_CACHE; LOAD_RUNS,
# LOAD_DEBUG, LOAD_CPUS, LOAD_DIR (Documentation/testing/guest.rst,
# "Parameters"; the LOAD_* ones: Documentation/testing/load.rst).

MAKEFLAGS += --no-print-directory

TOP	 := $(CURDIR)
BUILD	 ?= $(TOP)/build
KFLAVOUR ?= amd64
# The kernel series the guest boots and the module is built for: Debian
# 12's own 6.1, or 6.12 from bookworm-security.
KSERIES	 ?= 6.1
ifeq ($(filter 6.1 6.12,$(KSERIES)),)
$(error KSERIES=$(KSERIES): 6.1 or 6.12)
endif
ifeq ($(KFLAVOUR) $(KSERIES),debug 6.12)
$(error KFLAVOUR=debug is built from linux-source-6.1: KSERIES=6.1 only)
endif

# The guest kernel release, from the series' linux-image-*-$(KFLAVOUR)
# metapackage (scripts/guest-kernel.sh); evaluated at most once per make,
# and only when used.
GUEST_KVER = $(eval GUEST_KVER := $$(shell BUILD=$(BUILD) KSERIES=$(KSERIES) \
	     KFLAVOUR=$(KFLAVOUR) \
	     $(TOP)/scripts/guest-kernel.sh kver))$(GUEST_KVER)
GUEST_KDIR ?= /usr/src/linux-headers-$(GUEST_KVER)
HOST_KDIR  := /lib/modules/$(shell uname -r)/build
KDIR	   ?= $(if $(wildcard $(HOST_KDIR)/Makefile),$(HOST_KDIR),$(GUEST_KDIR))

# KFLAVOUR=debug: the kernel scripts/debug-kernel.sh builds from
# linux-source-6.1 (KASAN, lockdep, kmemleak; 9p built in), kept in a
# cache outside the repo keyed by the source version and the fragment.
# Everything runs slower there: TIMEOUT_SCALE. kmemleak doubles the boot
# time: off unless KMEMLEAK=on (make check-debug).
ifeq ($(KFLAVOUR),debug)
DEBUG_KDIR    := $(shell $(TOP)/scripts/debug-kernel.sh dir 2>/dev/null)
GUEST_KDIR    := $(DEBUG_KDIR)
GUEST_VMLINUZ := $(DEBUG_KDIR)/arch/x86/boot/bzImage
GUEST_MODDIR  := none
GUEST_KVER     = $(eval GUEST_KVER := $$(shell $(MAKE) -s -C $(DEBUG_KDIR) \
		 kernelrelease 2>/dev/null))$(GUEST_KVER)
TIMEOUT_SCALE ?= 4
KMEMLEAK      ?= off
# stress_test's counts, in percent: its lifecycle paths are what KASAN and
# lockdep check, not its numbers; at 100 CI ran out of time
# (Documentation/testing/debug.rst).
STRESS_SCALE  ?= 10
# KASAN doubles kernel stacks and keeps 1/8 of memory as shadow: in 1G,
# threads-max is too low for security_bounds_test's 4000 threads.
MEM	      ?= 2G
endif
NEED_DEBUG_KERNEL = $(if $(filter debug,$(KFLAVOUR)),debug-kernel)

KSRC	     := $(BUILD)/ksrc
KSFT_DIR     := $(KSRC)/tools/testing/selftests
SELFTESTS    := $(TOP)/tests/selftests/profil
KSFT_VARS    := KSFT_DIR=$(KSFT_DIR) OUTPUT=$(BUILD)/selftests/profil
KSFT_INSTALL = $(RESULTS)/ksft
# Per-invocation results, so that parallel `make check`s do not meet.
RUN_ID	     ?= $(shell echo $$PPID)
export RUN_ID
RESULTS	     := $(BUILD)/results/$(RUN_ID)
# The run's start, for the minutes the check targets print just before
# their totals line; check-debug hands its own to make check.
ifeq ($(origin CHECK_T0),undefined)
CHECK_T0     := $(shell date +%s)
endif
TOTALS	     = $(TOP)/scripts/totals.sh -s $(CHECK_T0)

# The version (scripts/version.sh: 1.3.0+git<commits>.g<hash>) of the
# module (MODULE_VERSION), profil-ctl, DKMS and the packages. DKMS: the
# files from an explicit list. DKMS_KVER: the kernel to build and
# install for.
VERSION	  ?= $(shell $(TOP)/scripts/version.sh)
export PROFIL_VERSION := $(VERSION)
DKMS_SRC  := /usr/src/profil-$(VERSION)
DKMS_FILES := Kbuild kmod/Kbuild \
	      $(filter-out %.mod.c,$(wildcard kmod/*.c kmod/*.h)) \
	      include/uapi/linux/profil.h
DKMS_KVER ?= $(shell uname -r)

# Where the module is built: in place, except against the debug kernel
# and the 6.12 series, whose builds would replace the stock
# kmod/profil.ko that other runs in a shared work tree load (and theirs
# ours): there, in a copy of its sources (DKMS_FILES) under $(BUILD).
ifeq ($(KFLAVOUR),debug)
MOD_TREE := $(BUILD)/kmod-debug
else ifneq ($(KSERIES),6.1)
MOD_TREE := $(BUILD)/kmod-$(KSERIES)-$(KFLAVOUR)
else
MOD_TREE := $(TOP)
endif
ifneq ($(MOD_TREE),$(TOP))
MOD_SYNC  = @mkdir -p $(MOD_TREE) && rsync -a --relative $(DKMS_FILES) $(MOD_TREE)/
endif

# The module the guest loads.
MODULE ?= $(MOD_TREE)/kmod/profil.ko

# What `make demo` runs in the guest once the module is loaded.
DEMO_JOB ?= $(TOP)/scripts/demo-job.sh

# 6.12 under QEMU 7.2's multi-threaded TCG panics in the kernel's text
# patching ("Oops: int3", Documentation/testing/linux-6.12.rst); with
# every vCPU in one host thread its suite passes.
TCG_THREAD ?= $(if $(filter 6.12,$(KSERIES)),single)

# The guest run's parameters, handed to tests/qemu/run.sh.
QEMU_ENV = BUILD=$(BUILD) KSERIES=$(KSERIES) KFLAVOUR=$(KFLAVOUR) \
	   MODULE=$(MODULE) KSFT_INSTALL=$(KSFT_INSTALL) \
	   $(foreach v,VCPUS MEM ACCEL TCG_THREAD KCMDLINE QEMU_ARGS TIMEOUT \
	     TIMEOUT_SCALE KMEMLEAK STRESS_SCALE GUEST_VMLINUZ GUEST_MODDIR GUEST_KVER,$(if $($(v)),$(v)='$($(v))'))

CHECKPATCH  := $(KSRC)/scripts/checkpatch.pl
STYLE_KSRC  := $(wildcard $(TOP)/kmod/*.[ch]) $(TOP)/include/uapi/linux/profil.h \
	       $(TOP)/tests/bench/floor/pk_floor.c
STYLE_KSRC  := $(filter-out %.mod.c,$(STYLE_KSRC))
# kmod/compat.h is where the kernel series differ: the one file whose
# LINUX_VERSION_CODE checks checkpatch lets pass (CONSTANT_COMPARISON is
# the same check seen as a comparison); anywhere else they fail.
STYLE_COMPAT := $(TOP)/kmod/compat.h
STYLE_COMPAT_IGNORE := LINUX_VERSION_CODE,CONSTANT_COMPARISON
# The series make style's sparse and W=1 builds cover, each against its
# amd64 headers, in a copy of the sources under $(BUILD)/style-<series>:
# kmod/profil.ko stays whatever make check built.
STYLE_SERIES := 6.1 6.12
# clang-format: the kernel sources. (Test programs are not formatted: the
# kselftest idiom "ASSERT_EQ(..) TH_LOG(..);" defeats clang-format.)
CLANG_FORMAT_FILES ?= $(STYLE_KSRC)

.PHONY: all module lib cli deps guest-module ksrc selftests unit check \
	check-unit check-guest check-debug check-load run-unit run-guest \
	demo bench bench-floor bench-return bench-host bench-whole bench-machine \
	bench-insns \
	compare textpatch \
	style format \
	install dkms-install dkms-uninstall debug-kernel clean distclean deb \
	check-install

all: module lib cli

deps:
	@BUILD=$(BUILD) KSERIES=$(KSERIES) KFLAVOUR=$(KFLAVOUR) \
	 $(if $(filter command line environment,$(origin GUEST_KDIR)),GUEST_KDIR=$(GUEST_KDIR)) \
	 $(TOP)/scripts/install-deps.sh

module: $(NEED_DEBUG_KERNEL)
	$(MOD_SYNC)
	$(MAKE) -C $(KDIR) M=$(MOD_TREE) modules

# The module the guest loads is always built against the guest's headers.
guest-module: $(NEED_DEBUG_KERNEL)
	$(MOD_SYNC)
	$(MAKE) -C $(GUEST_KDIR) M=$(MOD_TREE) modules

# Build (or find up to date) the debug guest kernel; long the first time.
debug-kernel:
	@BUILD=$(BUILD) $(TOP)/scripts/debug-kernel.sh >/dev/null

lib:
ifneq ($(wildcard libprofil/Makefile),)
	$(MAKE) -C libprofil
else
	@echo "lib: no libprofil/Makefile yet, skipped"
endif

cli:
ifneq ($(wildcard cli/Makefile),)
	$(MAKE) -C cli
else
	@echo "cli: no cli/Makefile yet, skipped"
endif

$(KSRC)/.stamp: $(TOP)/scripts/ksrc.sh $(wildcard /usr/src/linux-source-6.1.tar.xz)
	$(TOP)/scripts/ksrc.sh $(KSRC)

ksrc: $(KSRC)/.stamp

selftests: $(KSRC)/.stamp
	@mkdir -p $(BUILD)/selftests/profil
	$(MAKE) -C $(SELFTESTS) $(KSFT_VARS)

unit:
	$(MAKE) -C tests/unit BUILD=$(BUILD)

# run-*: run one suite, leave its counts in $(RESULTS); check* add them up.
run-unit: unit
	@mkdir -p $(RESULTS)
	@$(MAKE) -s -C tests/unit BUILD=$(BUILD) run COUNTS=$(RESULTS)/unit.counts

run-guest: guest-module selftests
	@mkdir -p $(RESULTS)
	@rm -rf $(KSFT_INSTALL)
	@$(MAKE) -s -C $(SELFTESTS) $(KSFT_VARS) install \
		INSTALL_PATH=$(KSFT_INSTALL) >/dev/null
	@$(QEMU_ENV) COUNTS=$(RESULTS)/guest.counts RUN_NAME=check \
		$(TOP)/tests/qemu/run.sh $(or $(T),$(GUEST_PROGS))

check-unit:
	@rm -f $(RESULTS)/unit.counts
	@rc=0; $(MAKE) run-unit || rc=1; \
	 $(TOTALS) $(RESULTS)/unit.counts || rc=1; \
	 rm -rf $(RESULTS); exit $$rc

check-guest: deps
	@rm -f $(RESULTS)/guest.counts
	@rc=0; $(MAKE) run-guest || rc=1; \
	 $(TOTALS) $(RESULTS)/guest.counts || rc=1; \
	 rm -rf $(RESULTS); exit $$rc

# T=name: only that guest test program, no unit tests. A build failure
# still ends with a totals line.
check: deps
	@if ! { $(MAKE) all && \
		$(MAKE) guest-module selftests $(if $(T),,unit); }; then \
		echo "# build failed"; mkdir -p $(RESULTS); \
		echo "0 1 0" >$(RESULTS)/build.counts; \
		$(TOTALS) $(RESULTS)/build.counts; rm -rf $(RESULTS); exit 1; \
	 fi
	@rm -f $(RESULTS)/*.counts
	@rc=0; \
	 $(if $(T),,$(MAKE) run-unit || rc=1;) \
	 $(MAKE) run-guest || rc=1; \
	 $(TOTALS) $(if $(T),,$(RESULTS)/unit.counts) \
		$(RESULTS)/guest.counts || rc=1; \
	 rm -rf $(RESULTS); exit $$rc

# The guest suite on the debug kernel (built the first time, about 10
# minutes on two cores), booted with kmemleak on: the module's leaks fail.
# Not the unit tests, which run on the host and do not touch the kernel,
# nor DEBUG_SKIP: programs that drive the kernel through libprofil and
# profil-ctl on paths the kernel-side programs take too, and the ones
# that measure profil-ctl's output against perf and tmux, which the debug
# kernel only slows (Documentation/testing/debug.rst). T=: those programs
# instead.
DEBUG_SKIP := sprofil_test profil_semantics_test_lib \
	      profil_clocks_test_lib profil_threads_test_lib libprofil_test \
	      libprofil_test_nopie libprofil_held_test \
	      libprofil_held_test_nopie libprofil_preload profil_ctl_test \
	      ctl_start_test pg_test compare_test.sh top_test.sh \
	      record_test.sh serve_test.sh
GUEST_PROGS = $(shell $(MAKE) -s -C $(SELFTESTS) $(KSFT_VARS) emit_tests | \
		sed 's/^.*://')
check-debug: deps ksrc
	@$(MAKE) check KFLAVOUR=debug KMEMLEAK=on CHECK_T0=$(CHECK_T0) \
		T="$(or $(T),$(filter-out $(DEBUG_SKIP),$(GUEST_PROGS)))"

# The suite on a loaded machine (scripts/check-load.sh): only HEAD is
# tested, from a clone; LOAD_RUNS, LOAD_DEBUG, LOAD_CPUS, LOAD_DIR.
check-load:
	@$(TOP)/scripts/check-load.sh

# The sample program the demo profiles: libprofil's complete example.
DEMO_BIN := $(BUILD)/demo/demo

$(DEMO_BIN): libprofil/examples/demo.c libprofil/examples/workload.h lib
	@mkdir -p $(dir $@)
	$(CC) -std=gnu11 -O2 -g -Wall -Wextra -Werror -Iinclude/uapi \
		-Ilibprofil $< libprofil/libprofil.a -lmnl -o $@

# The unmodified program the demo runs under profil-ctl.
BUSY_BIN := $(BUILD)/demo/busy

$(BUSY_BIN): cli/examples/busy.c libprofil/examples/workload.h
	@mkdir -p $(dir $@)
	$(CC) -std=gnu11 -O2 -g -Wall -Wextra -Werror -Ilibprofil/examples \
		$< -o $@

demo: deps
	@$(MAKE) all
	@$(MAKE) guest-module selftests $(DEMO_BIN) $(BUSY_BIN)
	@rm -rf $(KSFT_INSTALL)
	@$(MAKE) -s -C $(SELFTESTS) $(KSFT_VARS) install \
		INSTALL_PATH=$(KSFT_INSTALL) >/dev/null
	@rc=0; $(QEMU_ENV) RUN_NAME=demo TAP_PREFIX= \
		$(TOP)/tests/qemu/run.sh $(DEMO_JOB) || rc=1; \
	 rm -rf $(RESULTS); exit $$rc

# Cost per sample and idle cost, in guest ns: one vCPU, time counting
# instructions (-icount), so runs repeat; and the instructions per call of
# libprofil's mcount next to glibc's. Numbers, not a test.
BENCH_BIN := $(BUILD)/bench/profil_bench

$(BENCH_BIN): tests/bench/profil_bench.c tests/bench/bench_util.h tests/selftests/profil/profil_nl.h \
	      include/uapi/linux/profil.h
	@mkdir -p $(dir $@)
	$(CC) -std=gnu11 -O2 -Wall -Wextra -Werror -Wno-unused-function \
		-Wno-unused-parameter -Iinclude/uapi $< -o $@ -lmnl

# mcount's cost per call: libprofil's (libprofil.a) and glibc's.
PG_BENCH := $(BUILD)/bench/pg_bench_libprofil $(BUILD)/bench/pg_bench_glibc

$(BUILD)/bench/pg_bench_libprofil: tests/bench/pg_bench.c lib
	@mkdir -p $(dir $@)
	$(CC) -std=gnu11 -O2 -pg -Wall -Wextra -Werror $< \
		libprofil/libprofil.a -lmnl -lpthread -o $@

$(BUILD)/bench/pg_bench_glibc: tests/bench/pg_bench.c
	@mkdir -p $(dir $@)
	$(CC) -std=gnu11 -O2 -pg -Wall -Wextra -Werror $< -o $@

# The tick's cost with 1 to 3x10^4 threads of another session in the
# thread table (tests/bench/scale_bench.c): 3G holds their stacks.
SCALE_BENCH := $(BUILD)/bench/scale_bench

$(SCALE_BENCH): tests/bench/scale_bench.c tests/bench/bench_util.h tests/selftests/profil/profil_nl.h \
		include/uapi/linux/profil.h
	@mkdir -p $(dir $@)
	$(CC) -std=gnu11 -O2 -Wall -Wextra -Werror -Wno-unused-function \
		-Wno-unused-parameter -Iinclude/uapi $< -o $@ -lmnl -lpthread

# The floor under the timer clock: a task-clock event whose handler only
# counts (tests/bench/floor/pk_floor.c), built against the guest's kernel.
FLOOR_TREE := $(BUILD)/bench/floor

bench-floor: $(NEED_DEBUG_KERNEL)
	@mkdir -p $(FLOOR_TREE)
	@rsync -a $(TOP)/tests/bench/floor/ $(FLOOR_TREE)/
	$(MAKE) -C $(GUEST_KDIR) M=$(FLOOR_TREE) modules

# The module with every counter add done on return to user mode
# (PK_WRITE_ON_RETURN, kmod/sampler.c), to compare with the tick's write.
RETURN_TREE := $(BUILD)/bench/kmod-return

bench-return: $(NEED_DEBUG_KERNEL)
	@mkdir -p $(RETURN_TREE)
	@rsync -a --relative $(DKMS_FILES) $(RETURN_TREE)/
	$(MAKE) -C $(GUEST_KDIR) M=$(RETURN_TREE) \
		KCFLAGS=-DPK_WRITE_ON_RETURN=1 modules

# What the bench guest runs; BENCH_JOB=tests/bench/scale.sh: only the
# thread-table rows.
BENCH_JOB ?= $(TOP)/tests/bench/run.sh

# $(call bench_guest,JOB,TIMEOUT): run JOB in the bench guest: one vCPU,
# -icount (a guest second is 10^9 instructions), JOB's timeout TIMEOUT s.
define bench_guest
	@mkdir -p $(BUILD)/bench/ksft
	@echo timeout=$(2) >$(BUILD)/bench/ksft/settings
	@$(QEMU_ENV) KSFT_INSTALL=$(BUILD)/bench/ksft VCPUS=1 ACCEL=tcg \
		MEM=$(or $(MEM),3G) TIMEOUT=$$(($(2) + 600)) \
		QEMU_ARGS='-icount shift=0,sleep=off $(QEMU_ARGS)' \
		RUN_NAME=bench TAP_PREFIX= \
		$(TOP)/tests/qemu/run.sh $(1)
endef

bench: deps guest-module bench-floor bench-return $(BENCH_BIN) $(PG_BENCH) \
       $(SCALE_BENCH)
	$(call bench_guest,$(abspath $(BENCH_JOB)),1200)
	@$(MAKE) bench-host

# What profil-ctl run and perf record add to four whole programs
# (tests/bench/whole.sh), at 100 and 1000 Hz, in the -icount guest.
WHOLE_WORK := $(BUILD)/bench/whole_work

$(WHOLE_WORK): tests/bench/whole_work.c
	@mkdir -p $(dir $@)
	$(CC) -std=gnu11 -O2 -Wall -Wextra -Werror $< -o $@ -lpthread

# The text-patching load of tests/qemu/textpatch/ in the guest, with a
# module that does nothing in profil.ko's place: KSERIES=6.12 TCG_THREAD=
# (empty: QEMU's multi-threaded TCG) brings the 6.12 guest down in
# seconds; its 420 s pass with TCG_THREAD=single.
TEXTPATCH := $(BUILD)/textpatch

textpatch: deps
	@mkdir -p $(TEXTPATCH)
	$(CC) -std=gnu11 -O2 -Wall -Wextra -Werror -pthread \
		tests/qemu/textpatch/textpatch_load.c -o $(TEXTPATCH)/textpatch_load
	@cp tests/qemu/textpatch/pk_nop.c tests/qemu/textpatch/Kbuild $(TEXTPATCH)/
	$(MAKE) -C $(GUEST_KDIR) M=$(TEXTPATCH) modules
	@$(QEMU_ENV) MODULE=$(TEXTPATCH)/pk_nop.ko KSFT_INSTALL= RUN_NAME=textpatch \
		TIMEOUT_SCALE=$(or $(TIMEOUT_SCALE),20) \
		$(TOP)/tests/qemu/run.sh $(TOP)/tests/qemu/textpatch/job.sh

bench-whole: deps guest-module cli $(WHOLE_WORK)
	$(call bench_guest,$(TOP)/tests/bench/whole.sh,3000)

# What profil-ctl record -a and perf record -a add to a machine running
# two loops and an exec loop, at 97 Hz and HZ (tests/bench/machine.sh).
bench-machine: deps guest-module cli $(WHOLE_WORK)
	$(call bench_guest,$(TOP)/tests/bench/machine.sh,3000)

# Instruction by instruction (tests/bench/insns/): machine.sh's workload
# unprofiled and under profil-ctl record -a at HZ, in the bench guest
# with a QEMU plugin that counts each block's runs between two marks;
# the report, per kernel function, is what the sampling executed.
INSNS_DIR  := $(BUILD)/bench/insns
INSN_COUNT := $(INSNS_DIR)/insn_count.so
INSN_MARK  := $(BUILD)/bench/insn_mark
insn_mark_addr = 0x$(shell nm $(INSN_MARK) | sed -n 's/^\([0-9a-f]*\) T insn_mark_$(1)$$/\1/p')

$(INSN_COUNT): tests/bench/insns/insn_count.c tests/bench/insns/qemu_plugin_api.h
	@mkdir -p $(dir $@)
	$(CC) -std=gnu11 -O2 -Wall -Wextra -Werror -fPIC -shared \
		-fvisibility=hidden $< -o $@

# Static, its text at an address of its own: the marks are its functions'.
$(INSN_MARK): tests/bench/insns/insn_mark.c
	@mkdir -p $(dir $@)
	$(CC) -std=c11 -O1 -Wall -Wextra -Werror -static -no-pie \
		-Wl,-Ttext-segment=0x5a5a0000 $< -o $@

bench-insns: QEMU_ARGS = -plugin $(INSN_COUNT),reset=$(call insn_mark_addr,reset),dump=$(call insn_mark_addr,dump),out=$(INSNS_DIR)/insns
bench-insns: deps guest-module cli $(WHOLE_WORK) $(INSN_COUNT) $(INSN_MARK)
	@rm -f $(INSNS_DIR)/insns.*
	$(call bench_guest,$(TOP)/tests/bench/insns/machine_insns.sh,1200)
	@cp $(BUILD)/qemu/bench/kallsyms $(BUILD)/qemu/bench/samples $(INSNS_DIR)/
	@python3 $(TOP)/tests/bench/insns/insns_report.py $(INSNS_DIR)

# Host-side rows, in seconds of this machine: profil-ctl's gmon.out
# reader on files of 10^4, 10^5 and 10^6 TIME_HIST records, in address
# order and shuffled (tests/bench/gmon_bench.c).
GMON_BENCH := $(BUILD)/bench/gmon_bench

$(GMON_BENCH): tests/bench/gmon_bench.c cli/profile/gmon_read.c \
	       cli/profile/gmon_read.h cli/profile/hist.c cli/profile/hist.h
	@mkdir -p $(dir $@)
	$(CC) -std=c11 -O2 -Wall -Wextra -Werror -Icli/profile \
		$(filter %.c,$^) -lm -o $@

bench-host: $(GMON_BENCH)
	@$(GMON_BENCH)

# profil-ctl against perf (tests/selftests/profil/profil_compare.py): each
# case twice under perf record, once under profil-ctl run, at
# COMPARE_RATE Hz; the tables, then one TAP result per target, strict
# (make check runs three cases with noise-widened bounds: compare_test.sh).
COMPARE_RATE ?= 1000
COMPARE_CASES ?=
# COMPARE_FLAGS=--all: the whole machine, profil-ctl record -a against
# perf record -a, while each case runs.
COMPARE_FLAGS ?=

compare: deps
	@$(MAKE) all
	@$(MAKE) guest-module selftests
	@mkdir -p $(RESULTS)
	@rm -rf $(KSFT_INSTALL)
	@$(MAKE) -s -C $(SELFTESTS) $(KSFT_VARS) install \
		INSTALL_PATH=$(KSFT_INSTALL) >/dev/null
	@printf '#!/bin/sh\nexec /usr/bin/python3 "$$OUT/ksft/profil_compare.py" --rate %s --work "$$OUT" --bindir "$$OUT/ksft" %s %s\n' \
		'$(COMPARE_RATE)' '$(COMPARE_FLAGS)' '$(COMPARE_CASES)' >$(RESULTS)/compare
	@chmod +x $(RESULTS)/compare
	@rc=0; $(QEMU_ENV) COUNTS=$(RESULTS)/guest.counts RUN_NAME=compare \
		TIMEOUT=$$(( 1200 * $(or $(TIMEOUT_SCALE),1) )) \
		$(TOP)/tests/qemu/run.sh $(RESULTS)/compare || rc=1; \
	 $(TOTALS) $(RESULTS)/guest.counts || rc=1; \
	 rm -rf $(RESULTS); exit $$rc

# The netlink fuzzer at length (tests/selftests/profil/nl_fuzz.c):
# PROFIL_FUZZ_N messages, PROFIL_FUZZ_SEED (empty: nl_fuzz's fixed seed).
PROFIL_FUZZ_N ?= 1000000
PROFIL_FUZZ_SEED ?=
FUZZ_SECS = $(shell echo $$(( $(PROFIL_FUZZ_N) / 200 + 120 )))

.PHONY: fuzz
fuzz: deps
	@$(MAKE) guest-module selftests
	@mkdir -p $(RESULTS)
	@rm -rf $(KSFT_INSTALL)
	@$(MAKE) -s -C $(SELFTESTS) $(KSFT_VARS) install \
		INSTALL_PATH=$(KSFT_INSTALL) >/dev/null
	@echo timeout=$(FUZZ_SECS) >$(KSFT_INSTALL)/settings
	@printf '#!/bin/sh\nPROFIL_FUZZ_N=%s PROFIL_FUZZ_SEED=%s exec "$$OUT/ksft/nl_fuzz"\n' \
		'$(PROFIL_FUZZ_N)' '$(PROFIL_FUZZ_SEED)' >$(RESULTS)/nl_fuzz_long
	@chmod +x $(RESULTS)/nl_fuzz_long
	@rc=0; $(QEMU_ENV) COUNTS=$(RESULTS)/guest.counts RUN_NAME=fuzz \
		TIMEOUT=$$(( ($(FUZZ_SECS) + 120) * $(or $(TIMEOUT_SCALE),1) )) \
		$(TOP)/tests/qemu/run.sh $(RESULTS)/nl_fuzz_long || rc=1; \
	 $(TOTALS) $(RESULTS)/guest.counts || rc=1; \
	 rm -rf $(RESULTS); exit $$rc

# profil-ctl's gmon.out reader under libFuzzer, on the host
# (tests/fuzz/Makefile; make check runs a short bounded run).
.PHONY: fuzz-gmon
fuzz-gmon: deps
	$(MAKE) -C tests/fuzz BUILD=$(BUILD) long

# Style gates; every one runs, any finding fails.
style: $(KSRC)/.stamp
	@rc=0; \
	 echo "style: checkpatch --strict"; \
	 $(CHECKPATCH) --strict --no-tree --no-summary --show-types -q \
		-f $(filter-out $(STYLE_COMPAT),$(STYLE_KSRC)) || rc=1; \
	 $(CHECKPATCH) --strict --no-tree --no-summary --show-types -q \
		--ignore $(STYLE_COMPAT_IGNORE) -f $(STYLE_COMPAT) || rc=1; \
	 echo "style: bad-input matrix"; \
	 $(TOP)/scripts/check-bad-input.sh || rc=1; \
	 echo "style: clang-format"; \
	 clang-format --style=file --dry-run -Werror $(CLANG_FORMAT_FILES) || rc=1; \
	 echo "style: functions the docs name exist"; \
	 $(TOP)/scripts/check-doc-names.sh || rc=1; \
	 echo "style: profil-ctl and libprofil compile for aarch64"; \
	 $(TOP)/scripts/check-portable.sh $(BUILD) || rc=1; \
	 echo "style: no build without GENL_MCAST_CAP_NET_ADMIN"; \
	 $(TOP)/scripts/check-mcast-cap.sh $(GUEST_KDIR) || rc=1; \
	 for s in $(STYLE_SERIES); do \
		v=$$(BUILD=$(BUILD) KSERIES=$$s KFLAVOUR=amd64 \
		     $(TOP)/scripts/guest-kernel.sh kver) || { rc=1; continue; }; \
		k=/usr/src/linux-headers-$$v t=$(BUILD)/style-$$s; \
		mkdir -p $$t && rsync -a --relative $(DKMS_FILES) $$t/; \
		echo "style: sparse (C=2), $$v"; \
		$(MAKE) -C $$k M=$$t C=2 modules >$(BUILD)/sparse-$$s.log 2>&1 || rc=1; \
		! grep -E '(warning|error):' $(BUILD)/sparse-$$s.log || rc=1; \
		echo "style: W=1, $$v"; \
		$(MAKE) -C $$k M=$$t W=1 modules >$(BUILD)/w1-$$s.log 2>&1 || rc=1; \
		! grep -E '(warning|error):' $(BUILD)/w1-$$s.log || rc=1; \
	 done; \
	 if [ $$rc = 0 ]; then echo "style: clean"; else echo "style: FAILED"; fi; \
	 exit $$rc

# Rewrite the kernel-style sources with clang-format (review the diff).
format:
	clang-format --style=file -i $(CLANG_FORMAT_FILES)

install: all
	$(MAKE) -C $(KDIR) M=$(TOP) modules_install
ifneq ($(wildcard libprofil/Makefile),)
	$(MAKE) -C libprofil install
endif
ifneq ($(wildcard cli/Makefile),)
	$(MAKE) -C cli install
endif

# Sources to /usr/src/profil-$(VERSION), then dkms add, build, install.
dkms-install:
	rm -rf $(DKMS_SRC)
	install -d $(DKMS_SRC)
	cd $(TOP) && cp --parents $(DKMS_FILES) $(DKMS_SRC)/
	sed 's/@VERSION@/$(VERSION)/' $(TOP)/dkms.conf.in >$(DKMS_SRC)/dkms.conf
	dkms add profil/$(VERSION)
	dkms install profil/$(VERSION) -k $(DKMS_KVER)

# The Debian packages (debian/), from a clean copy of the tree, into
# build/deb/; lintian: any error or warning fails (scripts/make-deb.sh).
deb:
	@BUILD=$(BUILD) $(TOP)/scripts/make-deb.sh

# The packages installed as a user installs them, on a fresh Debian 12
# root booted in QEMU on 6.12 and 6.1: install, the debian/tests checks,
# upgrade, purge (scripts/check-install.sh,
# Documentation/testing/check-install.rst).
# Root: chroot, mounts, mkfs. Ends with its minutes and the totals line.
check-install: deps
	@BUILD=$(BUILD) CHECK_T0=$(CHECK_T0) $(TOP)/scripts/check-install.sh

# Unload, remove every DKMS version and its sources and our modprobe
# configuration, refresh the module index.
dkms-uninstall:
	-rmmod profil 2>/dev/null
	for v in $$(dkms status profil 2>/dev/null | \
		    sed -n 's|^profil/\([^,:]*\).*|\1|p' | sort -u); do \
		dkms remove profil/$$v --all || exit 1; \
	done
	rm -rf /usr/src/profil-*
	rm -f /etc/modules-load.d/profil.conf /etc/modprobe.d/profil.conf
	if [ -d /lib/modules/$(DKMS_KVER) ]; then depmod -a $(DKMS_KVER); fi

clean:
	@if [ -f $(KDIR)/Makefile ]; then $(MAKE) -C $(KDIR) M=$(TOP) clean; fi
	@find $(TOP)/kmod $(TOP) -maxdepth 1 \( -name '*.o' -o -name '*.ko' -o \
		-name '*.mod' -o -name '*.mod.c' -o -name '.*.cmd' -o \
		-name modules.order -o -name Module.symvers \) -delete
ifneq ($(wildcard libprofil/Makefile),)
	$(MAKE) -C libprofil clean
endif
ifneq ($(wildcard cli/Makefile),)
	$(MAKE) -C cli clean
endif
	$(MAKE) -C tests/unit BUILD=$(BUILD) clean
	rm -rf --one-file-system $(BUILD)

# The debug kernel's cache (scripts/debug-kernel.sh) is shared by every
# clone: not ours to remove.
distclean: clean
