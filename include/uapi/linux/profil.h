/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * profil: kernel-driven profil(2) for user processes.
 *
 * The generic netlink protocol spoken by profil.ko, libprofil and
 * profil-ctl. This header is the only definition of the wire format.
 */
#ifndef _UAPI_LINUX_PROFIL_H
#define _UAPI_LINUX_PROFIL_H

#include <linux/types.h>

#define PROFIL_GENL_NAME "profil"
#define PROFIL_GENL_VERSION 1
#define PROFIL_MCGRP_EVENTS "events"

/* Sampling rate bounds and default, in Hz. */
#define PROFIL_RATE_MIN 10
#define PROFIL_RATE_MAX 10000
#define PROFIL_RATE_DEFAULT 100

/* Most regions in a set (%PROFIL_ATTR_REGION), extensions included. */
#define PROFIL_REGIONS_MAX 4096

/**
 * enum profil_cmd - generic netlink commands
 * @PROFIL_CMD_START: start or replace profiling of a process.
 *	Attributes: %PROFIL_ATTR_BUF, %PROFIL_ATTR_BUFSIZ, %PROFIL_ATTR_OFFSET,
 *	%PROFIL_ATTR_SCALE, optional %PROFIL_ATTR_RATE, %PROFIL_ATTR_FLAGS,
 *	%PROFIL_ATTR_PID and %PROFIL_ATTR_EXCL. A NULL buffer or a zero
 *	scale stops profiling (not with %PROFIL_ATTR_EXCL: -EINVAL). With
 *	%PROFIL_ATTR_EXCL an active session is not replaced: -EEXIST; a
 *	stopped session is replaced either way.
 * @PROFIL_CMD_STOP: stop profiling; optional %PROFIL_ATTR_PID. Once the
 *	reply is sent the kernel writes nothing more to the buffer.
 * @PROFIL_CMD_GET: status of one process (doit, optional %PROFIL_ATTR_PID)
 *	or of every session the caller may see in its PID namespace (dump).
 * @PROFIL_CMD_STOPPED: notification on %PROFIL_MCGRP_EVENTS that a session
 *	stopped; carries the same attributes as a GET reply.
 * @PROFIL_CMD_ADD_REGIONS: add the %PROFIL_ATTR_REGION nests to the region
 *	set of an active session started with them, in one step; optional
 *	%PROFIL_ATTR_PID.
 * @PROFIL_CMD_GET_REGIONS: dump only: the regions of one process's set
 *	(optional %PROFIL_ATTR_PID), in the order they were given, as many
 *	per message as fit, each message with %PROFIL_ATTR_PID and
 *	%PROFIL_ATTR_REGION nests.
 *
 * Another process: %PROFIL_CMD_GET needs ptrace read access by credentials
 * (same user, dumpable, or CAP_SYS_PTRACE over it); every other command
 * also needs the caller to be its ptrace tracer or to have CAP_SYS_PTRACE
 * over it, else -EPERM. Without that, GET replies and dump entries leave
 * out the addresses: %PROFIL_ATTR_BUF, %PROFIL_ATTR_OFFSET and
 * %PROFIL_ATTR_FAULT_ADDR.
 */
enum profil_cmd {
	PROFIL_CMD_UNSPEC,
	PROFIL_CMD_START,
	PROFIL_CMD_STOP,
	PROFIL_CMD_GET,
	PROFIL_CMD_STOPPED,
	PROFIL_CMD_ADD_REGIONS,
	PROFIL_CMD_GET_REGIONS,

	__PROFIL_CMD_MAX,
	PROFIL_CMD_MAX = __PROFIL_CMD_MAX - 1
};

/**
 * enum profil_flags - bits of %PROFIL_ATTR_FLAGS
 * @PROFIL_F_SYSTEM_TICKS: charge ticks taken while the task runs in the
 *	kernel to the user PC at which it entered the kernel (the glibc and
 *	OpenBSD rule). Without it such ticks are dropped (the v10 and FreeBSD
 *	rule) and counted in %PROFIL_STAT_SYSTEM_DROPPED.
 * @PROFIL_F_NO_INHERIT: a process forked from the profiled one is not
 *	profiled (by default it gets a session of its own with the same
 *	parameters). New threads are profiled either way.
 */
enum profil_flags {
	PROFIL_F_SYSTEM_TICKS = 1U << 0,
	PROFIL_F_NO_INHERIT = 1U << 1,
};

#define PROFIL_F_ALL (PROFIL_F_SYSTEM_TICKS | PROFIL_F_NO_INHERIT)

/**
 * enum profil_counter - %PROFIL_ATTR_COUNTER, the width of every counter
 * @PROFIL_COUNTER_U16: u16 counters, index (pc - offset) / 2 * scale / 65536
 *	(profil(), sprofil()'s %PROF_USHORT)
 * @PROFIL_COUNTER_U32: u32 counters, index (pc - offset) / 4 * scale / 65536
 *	(sprofil()'s %PROF_UINT)
 */
enum profil_counter {
	PROFIL_COUNTER_U16,
	PROFIL_COUNTER_U32,

	__PROFIL_COUNTER_MAX,
	PROFIL_COUNTER_MAX = __PROFIL_COUNTER_MAX - 1
};

/**
 * enum profil_mode - %PROFIL_ATTR_MODE, what a full counter does
 * @PROFIL_MODE_WRAP: it wraps to 0 (profil())
 * @PROFIL_MODE_SATURATE: it stays at its maximum, and the tick is counted in
 *	%PROFIL_STAT_SATURATED (sprofil())
 */
enum profil_mode {
	PROFIL_MODE_WRAP,
	PROFIL_MODE_SATURATE,

	__PROFIL_MODE_MAX,
	PROFIL_MODE_MAX = __PROFIL_MODE_MAX - 1
};

/**
 * enum profil_state - %PROFIL_ATTR_STATE
 * @PROFIL_STATE_ACTIVE: ticks are being counted.
 * @PROFIL_STATE_STOPPED: profiling is off; %PROFIL_ATTR_REASON says why.
 */
enum profil_state {
	PROFIL_STATE_ACTIVE = 1,
	PROFIL_STATE_STOPPED,
};

/**
 * enum profil_stop_reason - %PROFIL_ATTR_REASON
 * @PROFIL_STOP_NONE: still active.
 * @PROFIL_STOP_REQUEST: %PROFIL_CMD_STOP or a NULL buffer.
 * @PROFIL_STOP_SCALE0: a start request with scale 0.
 * @PROFIL_STOP_EXEC: the process called execve().
 * @PROFIL_STOP_FAULT: the buffer could not be written;
 *	%PROFIL_ATTR_FAULT_ADDR holds the address.
 * @PROFIL_STOP_EXIT: the process exited.
 */
enum profil_stop_reason {
	PROFIL_STOP_NONE,
	PROFIL_STOP_REQUEST,
	PROFIL_STOP_SCALE0,
	PROFIL_STOP_EXEC,
	PROFIL_STOP_FAULT,
	PROFIL_STOP_EXIT,

	__PROFIL_STOP_MAX,
	PROFIL_STOP_MAX = __PROFIL_STOP_MAX - 1
};

/**
 * enum profil_attr - top-level attributes
 * @PROFIL_ATTR_PAD: padding for 64-bit attributes.
 * @PROFIL_ATTR_PID: u32, target thread-group id in the caller's PID
 *	namespace; absent means the caller's own process.
 * @PROFIL_ATTR_BUF: u64, user address of the counters (of the width
 *	%PROFIL_ATTR_COUNTER names). Left out of replies about another
 *	process unless the requester traces it, and out of
 *	%PROFIL_CMD_STOPPED, as are %PROFIL_ATTR_OFFSET and
 *	%PROFIL_ATTR_FAULT_ADDR.
 * @PROFIL_ATTR_BUFSIZ: u64, buffer size in bytes.
 * @PROFIL_ATTR_OFFSET: u64, lowest PC counted (left out as BUF).
 * @PROFIL_ATTR_SCALE: u32, 16.16 fixed-point scale as in profil(3). A PC
 *	maps to the (u16, by default) counter of index
 *	floor(floor((pc - offset) / 2) * scale / 65536), exact in 64 bits as
 *	glibc's LP64 profil() computes it, and is counted only if
 *	pc >= offset and that index is below bufsiz / 2 (an odd last byte is
 *	unused). This mapping is part of the ABI: a buffer filled by the
 *	kernel reads the same as one filled by glibc.
 * @PROFIL_ATTR_RATE: u32, samples per second of CPU time.
 * @PROFIL_ATTR_FLAGS: u32, &enum profil_flags.
 * @PROFIL_ATTR_STATE: u32, &enum profil_state (kernel to user only).
 * @PROFIL_ATTR_REASON: u32, &enum profil_stop_reason (kernel to user only).
 * @PROFIL_ATTR_FAULT_ADDR: u64, address of a failed write (kernel to user;
 *	left out as BUF).
 * @PROFIL_ATTR_STATS: nest of &enum profil_stat (kernel to user only).
 * @PROFIL_ATTR_REGION: nest of &enum profil_region_attr, one region of a
 *	set; repeated, up to %PROFIL_REGIONS_MAX times, in place of BUF,
 *	BUFSIZ, OFFSET and SCALE (sprofil()). Not one nest of nests: an
 *	attribute's length is 16 bits, so a nest holds about 1365 regions.
 * @PROFIL_ATTR_COUNTER: u32, &enum profil_counter; default u16.
 * @PROFIL_ATTR_MODE: u32, &enum profil_mode; default wrap.
 * @PROFIL_ATTR_NR_REGIONS: u32, regions in the set (kernel to user only);
 *	PROFIL_CMD_GET_REGIONS lists them.
 * @PROFIL_ATTR_EXCL: flag, %PROFIL_CMD_START only: leave an active session
 *	alone (-EEXIST) instead of replacing its parameters; -EINVAL with a
 *	START that stops. (Not %NLM_F_EXCL: generic netlink refuses the old
 *	request flags.)
 */
enum profil_attr {
	PROFIL_ATTR_UNSPEC,
	PROFIL_ATTR_PAD,
	PROFIL_ATTR_PID,
	PROFIL_ATTR_BUF,
	PROFIL_ATTR_BUFSIZ,
	PROFIL_ATTR_OFFSET,
	PROFIL_ATTR_SCALE,
	PROFIL_ATTR_RATE,
	PROFIL_ATTR_FLAGS,
	PROFIL_ATTR_STATE,
	PROFIL_ATTR_REASON,
	PROFIL_ATTR_FAULT_ADDR,
	PROFIL_ATTR_STATS,
	PROFIL_ATTR_REGION,
	PROFIL_ATTR_COUNTER,
	PROFIL_ATTR_MODE,
	PROFIL_ATTR_NR_REGIONS,
	PROFIL_ATTR_EXCL,

	__PROFIL_ATTR_MAX,
	PROFIL_ATTR_MAX = __PROFIL_ATTR_MAX - 1
};

/**
 * enum profil_region_attr - one region of a set, as glibc's struct prof
 * @PROFIL_REGION_PAD: padding for 64-bit attributes.
 * @PROFIL_REGION_BUF: u64, user address of the counters (pr_base).
 * @PROFIL_REGION_SIZE: u64, buffer size in bytes, not 0 (pr_size).
 * @PROFIL_REGION_OFFSET: u64, lowest PC of the region (pr_off).
 * @PROFIL_REGION_SCALE: u32, 16.16 fixed-point scale (pr_scale); a region
 *	with a scale below 2 is ignored, and the region with offset 0 and
 *	scale 2 is the overflow bin.
 */
enum profil_region_attr {
	PROFIL_REGION_UNSPEC,
	PROFIL_REGION_PAD,
	PROFIL_REGION_BUF,
	PROFIL_REGION_SIZE,
	PROFIL_REGION_OFFSET,
	PROFIL_REGION_SCALE,

	__PROFIL_REGION_MAX,
	PROFIL_REGION_MAX = __PROFIL_REGION_MAX - 1
};

/**
 * enum profil_stat - u64 counters inside %PROFIL_ATTR_STATS
 *
 * Every tick is accounted exactly once:
 * TICKS = IN_RANGE + OUT_OF_RANGE + SYSTEM_DROPPED + PENDING + DISCARDED
 *	   + FAULTED + SATURATED.
 * While no counter wraps, the buffers' sum equals IN_RANGE.
 *
 * @PROFIL_STAT_TICKS: sampling ticks taken while active.
 * @PROFIL_STAT_IN_RANGE: ticks added to a counter.
 * @PROFIL_STAT_OUT_OF_RANGE: ticks whose PC maps outside the buffer.
 * @PROFIL_STAT_SYSTEM_DROPPED: ticks in kernel mode, not charged.
 * @PROFIL_STAT_SYSTEM_CHARGED: ticks in kernel mode charged to the user PC
 *	(a subset of the other categories, not a category of its own).
 * @PROFIL_STAT_DEFERRED: ticks whose write was left for the return to
 *	user mode (a subset of IN_RANGE, PENDING, FAULTED and DISCARDED).
 * @PROFIL_STAT_PENDING: deferred ticks not yet written.
 * @PROFIL_STAT_DISCARDED: deferred ticks dropped because profiling stopped
 *	or was restarted before they could be written, or because their
 *	page could not be had (NOMEM).
 * @PROFIL_STAT_FAULTED: ticks whose write failed and turned profiling off.
 * @PROFIL_STAT_MISSED: sampling periods of CPU time that passed without a
 *	tick because the clock came late by a period or more (a delayed
 *	timer or scheduler tick: a starved virtual CPU, a long section with
 *	interrupts off). Not part of TICKS: TICKS + MISSED is the threads'
 *	CPU time while profiled, in periods.
 * @PROFIL_STAT_OVERFLOW: ticks whose PC is in no region of the set, sent to
 *	the overflow bin's counter (a subset of the other categories, as
 *	SYSTEM_CHARGED).
 * @PROFIL_STAT_SATURATED: ticks not added because their counter was at its
 *	maximum (%PROFIL_MODE_SATURATE).
 * @PROFIL_STAT_NOMEM: deferred ticks given up because their counter's page
 *	could not be faulted in for lack of memory (a memory cgroup at its
 *	limit); profiling goes on. A subset of DISCARDED, as OVERFLOW is of
 *	the other categories.
 */
enum profil_stat {
	PROFIL_STAT_UNSPEC,
	PROFIL_STAT_PAD,
	PROFIL_STAT_TICKS,
	PROFIL_STAT_IN_RANGE,
	PROFIL_STAT_OUT_OF_RANGE,
	PROFIL_STAT_SYSTEM_DROPPED,
	PROFIL_STAT_SYSTEM_CHARGED,
	PROFIL_STAT_DEFERRED,
	PROFIL_STAT_PENDING,
	PROFIL_STAT_DISCARDED,
	PROFIL_STAT_FAULTED,
	PROFIL_STAT_MISSED,
	PROFIL_STAT_OVERFLOW,
	PROFIL_STAT_SATURATED,
	PROFIL_STAT_NOMEM,

	__PROFIL_STAT_MAX,
	PROFIL_STAT_MAX = __PROFIL_STAT_MAX - 1
};

#endif /* _UAPI_LINUX_PROFIL_H */
