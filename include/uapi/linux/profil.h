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
 * @PROFIL_CMD_COLLECT: follow a process into a profile the kernel holds
 *	for the requesting socket, its collector (a kernel-held session,
 *	%PROFIL_KIND_HELD): its threads, by default the processes it forks
 *	(vfork and clone included) and what they all exec. Optional
 *	%PROFIL_ATTR_PID, %PROFIL_ATTR_RATE, %PROFIL_ATTR_FLAGS and, on the
 *	socket's first COLLECT, %PROFIL_ATTR_IMAGES_MAX and
 *	%PROFIL_ATTR_SAMPLES_MAX. -EEXIST if the process is followed
 *	already. Independent of a buffer session of the same process: both
 *	count every tick. The profile lives until the socket is closed,
 *	which stops every session of it. With %PROFIL_ATTR_SCOPE
 *	%PROFIL_SCOPE_MACHINE or %PROFIL_SCOPE_CGROUP (no %PROFIL_ATTR_PID,
 *	on a socket without a profile yet) the scheduler tick samples every
 *	user task of the machine into the profile instead, per CPU, as
 *	``perf record -a`` does, with no session per process: this needs
 *	CAP_PERFMON or CAP_SYS_ADMIN in the initial user namespace, a rate
 *	of at most HZ (-EINVAL), and one such profile runs at a time
 *	(-EBUSY).
 * @PROFIL_CMD_GET_PROFILE: dump only, on the collector's own socket: its
 *	profile, messages of %PROFIL_ATTR_IMAGE nests, then of
 *	%PROFIL_ATTR_OBJECT nests, then of %PROFIL_ATTR_SAMPLES, then one
 *	with %PROFIL_ATTR_PROFILE_STATS.
 *
 * Another process: %PROFIL_CMD_GET needs ptrace read access by credentials
 * (same user, dumpable, or CAP_SYS_PTRACE over it); every other command
 * also needs the caller to be its ptrace tracer, whose attach the LSMs
 * approved (CAP_SYS_PTRACE alone is not enough), else -EPERM. Without
 * that, GET replies and dump entries leave out the addresses:
 * %PROFIL_ATTR_BUF, %PROFIL_ATTR_OFFSET and %PROFIL_ATTR_FAULT_ADDR.
 */
enum profil_cmd {
	PROFIL_CMD_UNSPEC,
	PROFIL_CMD_START,
	PROFIL_CMD_STOP,
	PROFIL_CMD_GET,
	PROFIL_CMD_STOPPED,
	PROFIL_CMD_ADD_REGIONS,
	PROFIL_CMD_GET_REGIONS,
	PROFIL_CMD_COLLECT,
	PROFIL_CMD_GET_PROFILE,

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
 *	parameters). New threads are profiled either way. No effect on a
 *	machine-wide COLLECT (%PROFIL_SCOPE_MACHINE, %PROFIL_SCOPE_CGROUP),
 *	which follows no process: the tick samples whatever task it finds.
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
 * @PROFIL_STOP_SECURE_EXEC: a kernel-held session's process exec'd a
 *	setuid, setgid or file-capability image, which is not followed (as
 *	perf stops at such an exec).
 * @PROFIL_STOP_CLOSED: the collector's socket was closed.
 */
enum profil_stop_reason {
	PROFIL_STOP_NONE,
	PROFIL_STOP_REQUEST,
	PROFIL_STOP_SCALE0,
	PROFIL_STOP_EXEC,
	PROFIL_STOP_FAULT,
	PROFIL_STOP_EXIT,
	PROFIL_STOP_SECURE_EXEC,
	PROFIL_STOP_CLOSED,

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
 * @PROFIL_ATTR_RATE: u32, samples per second of CPU time: each thread's,
 *	or for a machine-wide COLLECT each CPU's (at most HZ).
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
 * @PROFIL_ATTR_KIND: u32, &enum profil_kind: the session a STOP or GET
 *	addresses, and the kind of each GET reply; default the buffer kind.
 * @PROFIL_ATTR_IMAGES_MAX: u32, the most images a collector's profile
 *	keeps (%PROFIL_IMAGES_DEFAULT; up to %PROFIL_IMAGES_LIMIT).
 * @PROFIL_ATTR_SAMPLES_MAX: u32, the most distinct (image, object, offset)
 *	a collector's profile keeps (%PROFIL_SAMPLES_DEFAULT; up to
 *	%PROFIL_SAMPLES_LIMIT).
 * @PROFIL_ATTR_IMAGE: nest of &enum profil_image_attr (GET_PROFILE).
 * @PROFIL_ATTR_OBJECT: nest of &enum profil_object_attr (GET_PROFILE).
 * @PROFIL_ATTR_SAMPLES: binary, an array of &struct profil_sample
 *	(GET_PROFILE).
 * @PROFIL_ATTR_PROFILE_STATS: nest of &enum profil_profile_stat
 *	(GET_PROFILE).
 * @PROFIL_ATTR_SCOPE: u32, &enum profil_scope (COLLECT); default
 *	%PROFIL_SCOPE_PROCESS.
 * @PROFIL_ATTR_CGROUP_FD: u32, an open file descriptor of a cgroup v2
 *	directory, for %PROFIL_SCOPE_CGROUP.
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
	PROFIL_ATTR_KIND,
	PROFIL_ATTR_IMAGES_MAX,
	PROFIL_ATTR_SAMPLES_MAX,
	PROFIL_ATTR_IMAGE,
	PROFIL_ATTR_OBJECT,
	PROFIL_ATTR_SAMPLES,
	PROFIL_ATTR_PROFILE_STATS,
	PROFIL_ATTR_SCOPE,
	PROFIL_ATTR_CGROUP_FD,

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
 * @PROFIL_STAT_MMAP_BUSY: kernel-held profiles: ticks given up because
 *	another thread held the address space's mapping lock for writing
 *	when they were to be attributed (the thread never waits for it). A
 *	subset of DISCARDED.
 * @PROFIL_STAT_PROFILE_FULL: kernel-held profiles: ticks given up because
 *	the profile had no room for their image, object or offset. A subset
 *	of DISCARDED.
 *
 * A kernel-held session counts IN_RANGE for a tick added to its profile
 * and OUT_OF_RANGE for one whose PC was in no mapping. Every tick of it
 * takes the deferred path (DEFERRED): the attribution needs the mapping
 * lock, which the tick cannot take.
 *
 * An image of a machine-wide profile has no session: these are its own
 * counts of its samples, TICKS = IN_RANGE + OUT_OF_RANGE + DISCARDED,
 * with MISSED and SYSTEM_CHARGED. A tick in the kernel without
 * %PROFIL_F_SYSTEM_TICKS is no sample (no SYSTEM_DROPPED), none is
 * DEFERRED or PENDING, and a sample with no room for its image has no
 * image to count in (%PROFIL_PROFILE_SAMPLES_LOST).
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
	PROFIL_STAT_MMAP_BUSY,
	PROFIL_STAT_PROFILE_FULL,

	__PROFIL_STAT_MAX,
	PROFIL_STAT_MAX = __PROFIL_STAT_MAX - 1
};

/**
 * enum profil_kind - %PROFIL_ATTR_KIND, where a session's counts go
 * @PROFIL_KIND_BUFFER: into counters in the process's own memory
 *	(profil(), sprofil(): %PROFIL_CMD_START); exec turns it off.
 * @PROFIL_KIND_HELD: into a profile the kernel holds for a collector
 *	(%PROFIL_CMD_COLLECT); it follows exec.
 * @PROFIL_KIND_MACHINE: no longer used by sessions: the machine-wide
 *	profile (%PROFIL_CMD_COLLECT with %PROFIL_ATTR_SCOPE) has none. Kept
 *	so that the values stay; a GET with it finds no session (-ENOENT),
 *	a STOP nothing to stop, and a STOP with it still needs CAP_PERFMON.
 */
enum profil_kind {
	PROFIL_KIND_BUFFER,
	PROFIL_KIND_HELD,
	PROFIL_KIND_MACHINE,

	__PROFIL_KIND_MAX,
	PROFIL_KIND_MAX = __PROFIL_KIND_MAX - 1
};

/**
 * enum profil_scope - %PROFIL_ATTR_SCOPE, what a COLLECT profiles
 * @PROFIL_SCOPE_PROCESS: one process and what it forks and execs.
 * @PROFIL_SCOPE_MACHINE: every user task of the machine, sampled by the
 *	scheduler tick of the CPU it runs on.
 * @PROFIL_SCOPE_CGROUP: as %PROFIL_SCOPE_MACHINE, sampling only tasks
 *	in the cgroup v2 of %PROFIL_ATTR_CGROUP_FD or below it when the tick
 *	finds them (the other ticks are no samples), as
 *	``perf record -a -G`` does.
 */
enum profil_scope {
	PROFIL_SCOPE_PROCESS,
	PROFIL_SCOPE_MACHINE,
	PROFIL_SCOPE_CGROUP,

	__PROFIL_SCOPE_MAX,
	PROFIL_SCOPE_MAX = __PROFIL_SCOPE_MAX - 1
};

/* A collector's bounds: defaults and largest values. */
#define PROFIL_IMAGES_DEFAULT 4096
#define PROFIL_IMAGES_LIMIT 1048576
#define PROFIL_SAMPLES_DEFAULT 262144
#define PROFIL_SAMPLES_LIMIT 16777216

/**
 * enum profil_image_attr - one image of a kernel-held profile: a process
 * from its fork or exec (in a machine-wide profile, from its first
 * sample) to its exit or next exec
 * @PROFIL_IMAGE_ID: u32, its number in the profile, from 1.
 * @PROFIL_IMAGE_PARENT: u32, the image it was forked from or exec'd
 *	from, 0 for a process the collector named. Machine-wide: its
 *	previous program's if that ended at an exec, else its parent
 *	process's, 0 if neither has one.
 * @PROFIL_IMAGE_PID: u32, its process id in the collector's PID
 *	namespace (0 if not visible there).
 * @PROFIL_IMAGE_COMM: string, its command name when it ended (or now);
 *	machine-wide, that of its first sampled thread, taken again at its
 *	exit.
 * @PROFIL_IMAGE_EXE: u32, the object of its executable, 0 if unknown.
 * @PROFIL_IMAGE_REASON: u32, &enum profil_stop_reason: why it ended, or
 *	%PROFIL_STOP_NONE while followed.
 * @PROFIL_IMAGE_STATS: nest of &enum profil_stat: its session's ticks,
 *	or a machine-wide image's own samples.
 * @PROFIL_IMAGE_CGROUP: u64, the id of its process's cgroup v2 when the
 *	image began (the inode number of the cgroup's directory).
 */
enum profil_image_attr {
	PROFIL_IMAGE_UNSPEC,
	PROFIL_IMAGE_PAD,
	PROFIL_IMAGE_ID,
	PROFIL_IMAGE_PARENT,
	PROFIL_IMAGE_PID,
	PROFIL_IMAGE_COMM,
	PROFIL_IMAGE_EXE,
	PROFIL_IMAGE_REASON,
	PROFIL_IMAGE_STATS,
	PROFIL_IMAGE_CGROUP,

	__PROFIL_IMAGE_MAX,
	PROFIL_IMAGE_MAX = __PROFIL_IMAGE_MAX - 1
};

/**
 * enum profil_object_kind - %PROFIL_OBJECT_KIND
 * @PROFIL_OBJECT_FILE: a mapped file; offsets are file offsets.
 * @PROFIL_OBJECT_SPECIAL: a mapping the kernel names (the vDSO);
 *	offsets are from its start.
 * @PROFIL_OBJECT_ANON: anonymous memory (JIT code); offsets are virtual
 *	addresses of the image.
 */
enum profil_object_kind {
	PROFIL_OBJECT_FILE,
	PROFIL_OBJECT_SPECIAL,
	PROFIL_OBJECT_ANON,
};

/**
 * enum profil_object_attr - one object of a kernel-held profile
 * @PROFIL_OBJECT_ID: u32, its number in the profile, from 1.
 * @PROFIL_OBJECT_KIND: u32, &enum profil_object_kind.
 * @PROFIL_OBJECT_DEV: u32, the file's device, as new_encode_dev() (and
 *	stat's st_dev) has it.
 * @PROFIL_OBJECT_INO: u64, its inode number.
 * @PROFIL_OBJECT_GENERATION: u32, its inode generation.
 * @PROFIL_OBJECT_CTIME: u64, its ctime in ns when first sampled: a file
 *	whose ctime or inode differs now is not the one that ran.
 * @PROFIL_OBJECT_PATH: string, its path when first sampled, or the name
 *	of a special mapping ("[vdso]").
 */
enum profil_object_attr {
	PROFIL_OBJECT_UNSPEC,
	PROFIL_OBJECT_PAD,
	PROFIL_OBJECT_ID,
	PROFIL_OBJECT_KIND,
	PROFIL_OBJECT_DEV,
	PROFIL_OBJECT_INO,
	PROFIL_OBJECT_GENERATION,
	PROFIL_OBJECT_CTIME,
	PROFIL_OBJECT_PATH,

	__PROFIL_OBJECT_MAX,
	PROFIL_OBJECT_MAX = __PROFIL_OBJECT_MAX - 1
};

/**
 * struct profil_sample - one entry of %PROFIL_ATTR_SAMPLES
 * @image: the image (%PROFIL_IMAGE_ID)
 * @object: the object (%PROFIL_OBJECT_ID)
 * @offset: where in the object, as its kind says
 * @count: the ticks there
 */
struct profil_sample {
	__u32 image;
	__u32 object;
	__u64 offset;
	__u64 count;
};

/**
 * enum profil_profile_stat - u64 counters of %PROFIL_ATTR_PROFILE_STATS
 * @PROFIL_PROFILE_IMAGES: images in the profile.
 * @PROFIL_PROFILE_IMAGES_LOST: processes (forks, execs) not followed for
 *	want of room for their image; in a machine-wide profile, samples
 *	whose process found no room for its image.
 * @PROFIL_PROFILE_OBJECTS: objects in the profile.
 * @PROFIL_PROFILE_SAMPLES: distinct (image, object, offset) entries.
 * @PROFIL_PROFILE_BYTES: kernel memory the profile's tables hold (images
 *	and, machine-wide, their index, objects, paths, samples; not its own
 *	few kilobytes of bookkeeping),
 *	charged to the memory cgroup of the task whose COLLECT made it.
 * @PROFIL_PROFILE_SAMPLES_LOST: machine-wide: samples taken but not
 *	attributed to any image: the CPU had too many queued, the process
 *	exec'd or exited first, its mapping lock was busy before it had an
 *	image, or it has no image for want of room.
 */
enum profil_profile_stat {
	PROFIL_PROFILE_UNSPEC,
	PROFIL_PROFILE_PAD,
	PROFIL_PROFILE_IMAGES,
	PROFIL_PROFILE_IMAGES_LOST,
	PROFIL_PROFILE_OBJECTS,
	PROFIL_PROFILE_SAMPLES,
	PROFIL_PROFILE_BYTES,
	PROFIL_PROFILE_SAMPLES_LOST,

	__PROFIL_PROFILE_MAX,
	PROFIL_PROFILE_MAX = __PROFIL_PROFILE_MAX - 1
};

#endif /* _UAPI_LINUX_PROFIL_H */
