/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libprofil: profil(3), monitor(3) and the gmon.out writer on top of the
 * profil.ko generic netlink family, plus an extended API in the style of
 * libmnl (opaque handle, profil_<object>_<verb> names, -1 and errno).
 *
 * The wire protocol is <linux/profil.h>; its constants (PROFIL_F_*,
 * PROFIL_STATE_*, PROFIL_STOP_*, PROFIL_RATE_*) are used here unchanged.
 *
 * profil() itself is declared by glibc's <unistd.h>, sprofil() by
 * <sys/profil.h>, and monstartup() and _mcleanup() by <sys/gmon.h>;
 * libprofil defines them with the same prototypes, so programs linked
 * with -lprofil get the kernel-driven versions without source changes.
 */
#ifndef LIBPROFIL_PROFIL_H
#define LIBPROFIL_PROFIL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>
#include <linux/profil.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Drop-ins not declared by glibc's headers.
 */

/**
 * moncontrol() - start (mode != 0) or stop (mode == 0) the profiling set
 * up by monstartup(). glibc exports it without declaring it.
 * If monstartup() of libprofil was never called, the call is passed on to
 * the next definition (glibc's), so -pg programs keep working.
 */
void moncontrol(int mode);

/**
 * monitor() - Solaris monitor(3C): start profiling of [lowpc, highpc)
 * into @buffer, or stop and write gmon.out when @lowpc is NULL.
 * @lowpc: lowest function address, or NULL to stop
 * @highpc: end of the range (exclusive)
 * @buffer: header, @nfunc call-count slots, then the u16 histogram
 * @bufsize: size of @buffer in shorts (unsigned short units)
 * @nfunc: number of call-count slots; they stay zero unless the program
 *	is compiled with -pg, and even then libprofil records no calls
 *
 * Errors are reported on stderr and in errno: EINVAL (range empty, buffer
 * too small for the header, the slots and one bin), and every errno of
 * profil(). Writing gmon.out follows _mcleanup(): GMON_OUT_PREFIX,
 * atomic rename, a message on stderr on failure.
 */
void monitor(int (*lowpc)(void), int (*highpc)(void),
	     unsigned short *buffer, size_t bufsize, size_t nfunc);

/*
 * Extended API.
 */

/*
 * PROFIL_START_EXCL - libprofil's own bit of the flags of
 * profil_session_start() and profil_session_start_regions(), one the
 * kernel's PROFIL_F_* leave free (nl.c asserts it), never sent as
 * PROFIL_ATTR_FLAGS: the START goes with PROFIL_ATTR_EXCL and fails with
 * EEXIST where the process has an active session, which it would
 * otherwise replace (a program's own profil(), a -pg build's session).
 */
#define PROFIL_START_EXCL (1U << 31)

/** struct profil_handle - opaque: one netlink socket and the resolved family. */
struct profil_handle;

/**
 * struct profil_params - arguments of profil_session_start()
 * @buf: address of the u16 counters in the target's address space
 *	(cast with (uintptr_t) for the caller's own buffer); 0 stops
 * @bufsiz: size of the counters in bytes
 * @offset: lowest PC counted
 * @scale: 16.16 fixed-point scale of profil(3); 0 stops
 * @rate: samples per second of CPU time, PROFIL_RATE_MIN..PROFIL_RATE_MAX;
 *	0 lets the kernel pick PROFIL_RATE_DEFAULT
 * @flags: PROFIL_F_* of <linux/profil.h>, and PROFIL_START_EXCL
 * @pid: target process; 0 is the caller's own process
 */
struct profil_params {
	uint64_t buf;
	uint64_t bufsiz;
	uint64_t offset;
	uint32_t scale;
	uint32_t rate;
	uint32_t flags;
	pid_t pid;
};

/** struct profil_stats - tick accounting, see enum profil_stat. */
struct profil_stats {
	uint64_t ticks;
	uint64_t in_range;
	uint64_t out_of_range;
	uint64_t system_dropped;
	uint64_t system_charged;
	uint64_t deferred;
	uint64_t pending;
	uint64_t discarded;
	uint64_t faulted;
};

/**
 * struct profil_status - one session as reported by the kernel
 * @pid: process; @buf, @bufsiz, @offset, @scale, @rate, @flags: the
 *	parameters in force; @state: PROFIL_STATE_*; @reason: PROFIL_STOP_*;
 * @fault_addr: the address of a failed write (@reason PROFIL_STOP_FAULT);
 * @stats: the counters. Fields the kernel did not send are zero: about
 * another process, the kernel sends the addresses (@buf, @offset,
 * @fault_addr) only to its ptrace tracer (CAP_SYS_PTRACE alone is not
 * enough), and never in events, so a @buf of 0 means they were left out.
 */
struct profil_status {
	pid_t pid;
	uint64_t buf;
	uint64_t bufsiz;
	uint64_t offset;
	uint32_t scale;
	uint32_t rate;
	uint32_t flags;
	uint32_t state;
	uint32_t reason;
	uint64_t fault_addr;
	struct profil_stats stats;
};

/**
 * profil_handle_open() - open a netlink socket and resolve the family
 *
 * Return: a handle, or NULL with errno set: ENOSYS if profil.ko is not
 * loaded (and could not be autoloaded), ENOMEM, or the errno of socket(2),
 * bind(2) or setsockopt(2). A handle must not be used by two threads at
 * once, nor after fork() in the child.
 */
struct profil_handle *profil_handle_open(void);

/**
 * profil_handle_close() - close the sockets and free @h. NULL is a no-op.
 */
void profil_handle_close(struct profil_handle *h);

/**
 * profil_session_start() - start or replace profiling of a process
 *
 * A zero @p->buf or @p->scale stops profiling instead.
 *
 * Return: 0, or -1 with errno set to the kernel's answer (EINVAL for a
 * rate or flag out of range, EFAULT for a buffer that is not writable,
 * ESRCH for no such process, EPERM without ptrace access to it, ...),
 * EPROTO for a malformed reply, or a socket errno. profil_strerror()
 * then returns the kernel's explanation when it gave one.
 */
int profil_session_start(struct profil_handle *h,
			 const struct profil_params *p);

/**
 * profil_session_stop() - stop profiling of @pid (0: the caller)
 *
 * When this returns 0 the kernel writes nothing more to the buffer.
 *
 * Return: 0, or -1 with errno set (ENOENT: no session, ESRCH, EPERM, ...).
 */
int profil_session_stop(struct profil_handle *h, pid_t pid);

/**
 * profil_session_get() - status of the session of @pid (0: the caller)
 *
 * Return: 0 and *@st filled, or -1 with errno set (ENOENT: no session,
 * ESRCH, EPERM, EPROTO for a malformed reply, ...).
 */
int profil_session_get(struct profil_handle *h, pid_t pid,
		       struct profil_status *st);

/**
 * profil_session_get_stats() - every counter of the session of @pid
 * @h: the handle
 * @pid: the process; 0 is the caller's own
 * @stats: filled by enum profil_stat of <linux/profil.h>: @stats[i] is
 *	counter i; slots the kernel did not send (PAD, UNSPEC, counters
 *	older kernels lack) are 0
 * @n: the length of @stats; PROFIL_STAT_MAX + 1 takes every counter this
 *	header knows, counters past @n are skipped
 *
 * Extensible where struct profil_stats is not: new counters (such as
 * PROFIL_STAT_MISSED, since PROFIL_1.1, and PROFIL_STAT_NOMEM) come only
 * through here.
 *
 * Return: 0, or -1 with errno set as profil_session_get(), or EINVAL for
 * a NULL @stats with a non-zero @n.
 */
int profil_session_get_stats(struct profil_handle *h, pid_t pid,
			     uint64_t *stats, size_t n);

/**
 * typedef profil_session_cb - called once per session by
 * profil_session_dump(); return 0 to continue, non-zero to stop the walk.
 * A positive value is returned by profil_session_dump(); a negative one
 * is returned as 1, so that -1 always means a failure of the library.
 */
typedef int (*profil_session_cb)(const struct profil_status *st, void *data);

/**
 * profil_session_dump() - every session the caller may see
 *
 * Return: 0 after the last session; after the callback stopped the walk
 * early, its value if positive and 1 if negative (a callback's -1 is
 * never passed through, so it cannot be mistaken for a failure); or -1
 * with errno and profil_strerror() set (EINVAL, EPROTO, socket errors),
 * and only then. After an early stop the rest of the dump is read and
 * discarded. To hand more than a positive int back, use @data.
 */
int profil_session_dump(struct profil_handle *h, profil_session_cb cb,
			void *data);

/**
 * profil_event_subscribe() - join the "events" multicast group
 *
 * Opens a second socket, so requests on @h and events do not mix.
 * Subscribing twice is a no-op.
 *
 * Return: 0, or -1 with errno set (ENOENT if the kernel has no such group,
 * EPERM, socket errors).
 */
int profil_event_subscribe(struct profil_handle *h);

/**
 * profil_event_fd() - the event socket's descriptor, for poll(2)
 *
 * Return: the descriptor, or -1 with errno EBADF if not subscribed.
 */
int profil_event_fd(const struct profil_handle *h);

/**
 * profil_event_read() - read one PROFIL_CMD_STOPPED notification
 *
 * Blocks unless the descriptor was made non-blocking.
 *
 * Return: 0 and *@st filled, or -1 with errno set: EAGAIN (non-blocking
 * and nothing queued), ENOBUFS (the socket overflowed and events were
 * lost; later reads work again), EBADF (not subscribed), EPROTO.
 */
int profil_event_read(struct profil_handle *h, struct profil_status *st);

/**
 * struct profil_gmon_hist - one histogram for profil_gmon_write()
 * @low_pc: lowest address covered, as gprof will read it: a link-time
 *	address, the load bias of a PIE already subtracted
 * @high_pc: end of the range (exclusive), >= @low_pc
 * @hist_size: number of bins; [@low_pc, @high_pc) is split evenly
 * @prof_rate: samples per second, written as gmon.out's prof_rate
 * @counts: @hist_size counters (may be NULL if @hist_size is 0) ...
 * @width: ... of 2, 4 or 8 bytes each (unsigned, host byte order)
 */
struct profil_gmon_hist {
	uint64_t low_pc;
	uint64_t high_pc;
	uint32_t hist_size;
	uint32_t prof_rate;
	const void *counts;
	unsigned int width;
};

/**
 * profil_gmon_write() - write a gmon.out file for gprof to @f
 * @f: a stream open for writing, at the start of the file
 * @h: the histogram
 *
 * Writes the header ("gmon", version 1) and GMON_TAG_TIME_HIST records
 * in host byte order and pointer width, then flushes @f. Counts above
 * 65535 are split over further records of the same range, which gprof
 * sums; at least one record is written, even for an empty histogram. The
 * file name, the load bias and an atomic rename are the caller's business
 * (_mcleanup() and monitor() do them as described in monstartup(3)).
 * Since PROFIL_1.1.
 *
 * Return: 0, or -1 with errno and profil_strerror() set: EINVAL (NULL @f
 * or @h, NULL @counts with a non-zero @hist_size, a @width other than 2,
 * 4 or 8, @high_pc below @low_pc, or an address wider than a pointer),
 * or the errno of the failed fwrite(3) or fflush(3) (ENOSPC, EIO, ...;
 * EIO if the stream set none). On failure part of the file may have been
 * written.
 */
int profil_gmon_write(FILE *f, const struct profil_gmon_hist *h);

/**
 * struct profil_gmon_arc - one call-graph arc for profil_gmon_write_arcs()
 * @from_pc: the caller's return address, as gprof will read it (the load
 *	bias of a PIE already subtracted, as struct profil_gmon_hist's)
 * @self_pc: an address in the callee (glibc's mcount passes the return
 *	address of the callee's call to mcount)
 * @count: calls
 */
struct profil_gmon_arc {
	uint64_t from_pc;
	uint64_t self_pc;
	uint64_t count;
};

/**
 * profil_gmon_write_arcs() - append call-graph arcs to a gmon.out stream
 * @f: a stream that profil_gmon_write() has written
 * @arcs: the arcs (may be NULL if @n is 0)
 * @n: how many
 *
 * Writes one GMON_TAG_CG_ARC record per arc, in host byte order and
 * pointer width, then flushes @f. A count above 2^32 - 1 is split over
 * several records of the same arc, which gprof sums; arcs of count 0 are
 * left out. gprof -q prints the graph they make. Since PROFIL_1.2.
 *
 * Return: 0, or -1 with errno and profil_strerror() set: EINVAL (NULL @f,
 * NULL @arcs with a non-zero @n, or an address wider than a pointer), or
 * the errno of the failed fwrite(3) or fflush(3), as profil_gmon_write().
 */
int profil_gmon_write_arcs(FILE *f, const struct profil_gmon_arc *arcs,
			   size_t n);

/*
 * Region sets (sprofil()), since PROFIL_1.1.
 *
 * A set is an opaque object built with profil_regions_add() and read back
 * with the getters, so that new per-region fields never change a struct
 * a program was compiled with (libnftnl's model). Its counter width and
 * counting mode apply to every region: enum profil_counter and enum
 * profil_mode of <linux/profil.h>. Documentation/kmod/regions.rst has the
 * kernel's rules: where regions overlap the higher offset wins, a scale
 * below 2 is ignored, offset 0 with scale 2 is the overflow bin.
 */

/** struct profil_regions - opaque: a region set and its counting rules. */
struct profil_regions;

/**
 * profil_regions_alloc() - an empty set: u16 counters, wrap mode
 * Return: the set, or NULL with errno ENOMEM.
 */
struct profil_regions *profil_regions_alloc(void);

/** profil_regions_free() - free @r; NULL is a no-op. */
void profil_regions_free(struct profil_regions *r);

/**
 * profil_regions_add() - append one region (glibc's struct prof)
 * @buf: address of its counters in the target's address space (pr_base)
 * @size: their size in bytes, not 0 (pr_size)
 * @offset: the lowest PC of the region (pr_off)
 * @scale: 16.16 fixed-point scale (pr_scale)
 *
 * Return: 0, or -1 with errno: EINVAL (NULL @r, @size 0), E2BIG (the set
 * holds PROFIL_REGIONS_MAX regions already), ENOMEM.
 */
int profil_regions_add(struct profil_regions *r, uint64_t buf, uint64_t size,
		       uint64_t offset, uint32_t scale);

/** profil_regions_count() - the number of regions in @r (0 for NULL). */
size_t profil_regions_count(const struct profil_regions *r);

/**
 * profil_regions_get() - region @i of @r, in the order added; any of the
 * out pointers may be NULL
 * Return: 0, or -1 with errno EINVAL (NULL @r) or ERANGE (no region @i).
 */
int profil_regions_get(const struct profil_regions *r, size_t i,
		       uint64_t *buf, uint64_t *size, uint64_t *offset,
		       uint32_t *scale);

/**
 * profil_regions_set_counter(), profil_regions_set_mode() - the counter
 * width (PROFIL_COUNTER_*) and what a full counter does (PROFIL_MODE_*)
 * Return: 0, or -1 with errno EINVAL (NULL @r, a value out of range).
 */
int profil_regions_set_counter(struct profil_regions *r, uint32_t counter);
int profil_regions_set_mode(struct profil_regions *r, uint32_t mode);

/** profil_regions_counter(), profil_regions_mode() - the set's values. */
uint32_t profil_regions_counter(const struct profil_regions *r);
uint32_t profil_regions_mode(const struct profil_regions *r);

/**
 * profil_session_start_regions() - start or replace profiling of @pid
 * (0: the caller) with the set @r, in one request
 * @rate: as struct profil_params's; 0 for the kernel's default
 * @flags: PROFIL_F_*, and PROFIL_START_EXCL
 *
 * Sets of any size up to PROFIL_REGIONS_MAX go in one message, so the
 * kernel replaces the old set with the whole new one at once.
 *
 * Return: 0, or -1 with errno as profil_session_start() (EINVAL: an
 * empty or NULL set), profil_strerror() giving the kernel's reason.
 */
int profil_session_start_regions(struct profil_handle *h, pid_t pid,
				 const struct profil_regions *r, uint32_t rate,
				 uint32_t flags);

/**
 * profil_session_add_regions() - extend the running set of @pid with the
 * regions of @r (its counter and mode are the running set's), atomically:
 * every tick lands in the old set or in the extended one. For dlopen().
 *
 * Return: 0, or -1 with errno: ENOENT (no active session), EINVAL (the
 * session was started without regions, or the set would pass
 * PROFIL_REGIONS_MAX), and profil_session_start()'s.
 */
int profil_session_add_regions(struct profil_handle *h, pid_t pid,
			       const struct profil_regions *r);

/**
 * profil_session_get_regions() - append the regions of @pid's set to @r,
 * in the order they were given, and take its counter and mode
 *
 * Return: 0, or -1 with errno as profil_session_get(), E2BIG (more than
 * @r can hold), ENOMEM.
 */
int profil_session_get_regions(struct profil_handle *h, pid_t pid,
			       struct profil_regions *r);

/*
 * Kernel-held profiles (PROFIL_CMD_COLLECT): the kernel follows a process
 * and what it forks and execs (or, machine-wide, samples whatever user
 * task each CPU's tick interrupts), and keeps the profile for the
 * handle's socket, its collector, until the handle is closed.
 */

/**
 * struct profil_collect_params - arguments of profil_collect()
 * @pid: the process to follow; 0 is the caller's own
 * @rate: samples per second of CPU time, PROFIL_RATE_MIN..PROFIL_RATE_MAX;
 *	0 lets the kernel pick PROFIL_RATE_DEFAULT
 * @flags: PROFIL_F_* of <linux/profil.h> (PROFIL_F_NO_INHERIT: not the
 *	processes it forks)
 * @images_max: the most images the profile keeps, 0 for
 *	PROFIL_IMAGES_DEFAULT; only the handle's first profil_collect()
 *	sets it
 * @samples_max: the most distinct (image, object, offset) entries, 0 for
 *	PROFIL_SAMPLES_DEFAULT; likewise
 */
struct profil_collect_params {
	pid_t pid;
	uint32_t rate;
	uint32_t flags;
	uint32_t images_max;
	uint32_t samples_max;
};

/**
 * profil_collect() - follow a process into the profile @h collects
 *
 * The caller may name itself, its ptrace tracee, or, from a child of the
 * process that opened @h and before that child execs, the child itself
 * (0): that is the one use of a handle after fork(), and the parent must
 * not use @h until the child has exec'd or exited.
 *
 * Return: 0, or -1 with errno set: EINVAL for a NULL @h or @p, else the
 * kernel's answer (EEXIST: already followed; EPERM: not the process, its
 * child before exec, nor its tracer, or CAP_PERFMON needed; ERANGE: a
 * rate or bound out of range; EINVAL: an unknown flag; ESRCH; ENOSPC: no
 * room for another image; ENOMEM) and profil_strerror() its text.
 */
int profil_collect(struct profil_handle *h,
		   const struct profil_collect_params *p);

/**
 * struct profil_machine_params - arguments of profil_collect_machine()
 * @rate: samples per second of each CPU's time, PROFIL_RATE_MIN to the
 *	kernel's HZ (EINVAL above: the profile rides the scheduler tick);
 *	0 lets the kernel pick PROFIL_RATE_DEFAULT
 * @flags: PROFIL_F_* of <linux/profil.h>: PROFIL_F_SYSTEM_TICKS charges a
 *	tick in the kernel to the user PC where the task entered it;
 *	PROFIL_F_NO_INHERIT has no effect
 * @images_max: the most images the profile keeps, 0 for
 *	PROFIL_IMAGES_DEFAULT: one per program sampled (a process from its
 *	first sample to its exec or exit) during the whole run
 * @samples_max: the most distinct (image, object, offset) entries, 0 for
 *	PROFIL_SAMPLES_DEFAULT
 * @cgroup_fd: an open file descriptor of a cgroup v2 directory: only the
 *	tasks in it or below it when the tick finds them are sampled; -1 for
 *	the whole machine
 */
struct profil_machine_params {
	uint32_t rate;
	uint32_t flags;
	uint32_t images_max;
	uint32_t samples_max;
	int cgroup_fd;
};

/**
 * profil_collect_machine() - sample every process of the machine into
 * the profile @h collects, as perf record -a does
 *
 * Until @h is closed, each CPU's scheduler tick, once per sampling period
 * of that CPU's busy time, samples the user task it interrupts. No
 * process gets a session and nothing is done at a fork: a process's image
 * begins at its first sample and ends at its exec or exit, and a process
 * never sampled has none. Samples taken but attributed to no image are
 * counted in the profile's PROFIL_PROFILE_SAMPLES_LOST. @h must not
 * collect anything yet: the machine-wide profile is all it holds. Needs
 * CAP_PERFMON or CAP_SYS_ADMIN; one runs at a time on a machine.
 *
 * Return: 0, or -1 with errno set: EINVAL for a NULL @h or @p, else the
 * kernel's answer (EPERM: CAP_PERFMON needed; EINVAL: a rate above HZ
 * or an unknown flag; EBUSY: another machine-wide profile runs; EEXIST:
 * @h collects already; EBADF: not a cgroup v2 directory; ERANGE; ENOMEM)
 * and profil_strerror() its text.
 */
int profil_collect_machine(struct profil_handle *h,
			   const struct profil_machine_params *p);

/**
 * struct profil_image - one image of a kernel-held profile: a process
 * from its fork (or the profil_collect() that named it; machine-wide,
 * its first sample) to its exit or its next execve()
 * @id: its number in the profile, from 1
 * @parent: the image it was forked or exec'd from, 0 for a named process;
 *	machine-wide, its previous program's image if that ended at an
 *	exec, else its parent process's, 0 if neither has one
 * @pid: its process id in the collector's PID namespace (0: not visible)
 * @comm: its command name when it ended (or now); machine-wide, that of
 *	its first sampled thread, taken again at its exit
 * @exe: the object (&struct profil_object @id) of its executable, 0 if
 *	unknown
 * @reason: PROFIL_STOP_* why it ended, PROFIL_STOP_NONE while followed
 * @stats: its ticks by enum profil_stat, @nstats of them (indexes the
 *	kernel did not send are 0); machine-wide, the image's own counts of
 *	its samples; valid during the callback only
 * @nstats: the length of @stats
 * @cgroup: the id of its process's cgroup v2 when it began (the inode
 *	number of the cgroup's directory), 0 if the kernel did not say
 */
struct profil_image {
	uint32_t id;
	uint32_t parent;
	pid_t pid;
	char comm[16];
	uint32_t exe;
	uint32_t reason;
	const uint64_t *stats;
	size_t nstats;
	uint64_t cgroup;
};

/**
 * struct profil_object - where samples fell
 * @id: its number in the profile, from 1
 * @kind: PROFIL_OBJECT_FILE (offsets are file offsets),
 *	PROFIL_OBJECT_SPECIAL (a mapping the kernel names, the vDSO: offsets
 *	from its start) or PROFIL_OBJECT_ANON (offsets are addresses)
 * @dev: a file's device, as the kernel's new_encode_dev() (makedev()
 *	form: major(@dev), minor(@dev))
 * @ino, @generation: its inode and inode generation
 * @ctime_ns: its ctime when first sampled: a file now with another ctime,
 *	or inode, is one replaced since
 * @path: the file's path when first sampled, or the kernel's name of the
 *	mapping; valid during the callback only
 */
struct profil_object {
	uint32_t id;
	uint32_t kind;
	uint32_t dev;
	uint64_t ino;
	uint32_t generation;
	uint64_t ctime_ns;
	const char *path;
};

/**
 * struct profil_profile_ops - what profil_profile_read() calls, each
 * optional (NULL: skipped); each returns 0 to go on, non-zero to stop
 * @image: once per image, all of them first
 * @object: once per object, after the images
 * @samples: with @n (image, object, offset, count) entries, after the
 *	objects; a sample's image and object were passed before it
 * @stats: once, last: the profile's counters by enum
 *	profil_profile_stat, @n of them (PROFIL_PROFILE_SAMPLES_LOST:
 *	machine-wide samples attributed to no image)
 */
struct profil_profile_ops {
	int (*image)(const struct profil_image *img, void *data);
	int (*object)(const struct profil_object *obj, void *data);
	int (*samples)(const struct profil_sample *s, size_t n, void *data);
	int (*stats)(const uint64_t *stats, size_t n, void *data);
};

/**
 * profil_profile_read() - read the profile @h collects, as it is now
 *
 * Images of processes that exited are there with their final accounting.
 * Samples taken after an image or object was read wait for the next
 * read, which returns the whole profile again.
 *
 * Return: 0; a callback's non-zero value as profil_session_dump() returns
 * it (positive, or 1 for negative), the rest of the dump discarded; or
 * -1 with errno (EINVAL: a NULL @h or @ops; ENOENT: @h collects nothing;
 * EPROTO: a malformed message; socket errors).
 */
int profil_profile_read(struct profil_handle *h,
			const struct profil_profile_ops *ops, void *data);

/**
 * profil_strerror() - why the last failed libprofil call of this thread
 * failed: the kernel's extended ack message if it sent one, else
 * strerror() of the errno that call set. Every failing call sets it (the
 * drop-ins monitor() and monstartup() too), so the text is never an
 * earlier failure's.
 *
 * Return: a thread-local string valid until the next libprofil call in
 * this thread; never NULL.
 */
const char *profil_strerror(void);

/**
 * profil_last_extack() - the kernel's extended ack message for the last
 * failed libprofil call of this thread.
 *
 * Return: the message, or NULL if the kernel sent none.
 */
const char *profil_last_extack(void);

#ifdef __cplusplus
}
#endif

#endif /* LIBPROFIL_PROFIL_H */
