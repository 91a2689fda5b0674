/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A whole process under profil: every executable mapping covered by a
 * region of its own, the rest by a catch-all, all counted by the kernel
 * into one mapping profil-ctl puts into the process.
 *
 * The mapping (one injected mmap(), MAP_NORESERVE: only pages the kernel
 * writes cost memory; MADV_DONTFORK: a fork child does not inherit it,
 * it gets its own):
 *
 *	[marker page][catch-all: u32, offset 0, scale 2][reserve]
 *
 * The catch-all is the set's overflow bin (Documentation/kmod/regions.rst)
 * made large enough to cover the whole user address space, one counter
 * per 128 KiB: a sample in code no region covers yet (a library mapped
 * since profil-ctl last read /proc/PID/maps) still tells its object.
 * Each executable mapping gets u32 counters of --bin-bytes carved from
 * the reserve, and a region added to the running set at once
 * (PROFIL_CMD_ADD_REGIONS): ld.so maps the libraries after execve(), and
 * dlopen() any time, so the maps are read again while the process runs.
 */
#ifndef PROFIL_CTL_COVERAGE_H
#define PROFIL_CTL_COVERAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "profil.h"
#include "inject.h"
#include "objinfo.h"
#include "profile.h"

/**
 * struct coverage_ctx - what every process of one run shares
 * @op: the command, for messages
 * @h: netlink handle
 * @rate, @flags: the session's (PROFIL_F_NO_INHERIT is always added:
 *	profil-ctl starts each child's session itself)
 * @bin_bytes: bytes of text per counter, a power of two, at least 4
 * @profile: where processes, objects and counts go
 * @objects: the ELF files read so far
 * @vdso_file: the vDSO image copied out of the first process, or NULL
 */
struct coverage_ctx {
	const char *op;
	struct profil_handle *h;
	uint32_t rate;
	uint32_t flags;
	uint64_t bin_bytes;
	struct profile *profile;
	struct objcache objects;
	char *vdso_file;
};

/**
 * struct coverage_map - one executable mapping of the process
 * @start, @end: runtime [start, end)
 * @bias: runtime minus link-time address
 * @object: its index in the profile
 * @buf: its counters in the process, 0 if it has no region (yet)
 * @nbins: their number
 */
struct coverage_map {
	uint64_t start;
	uint64_t end;
	uint64_t bias;
	size_t object;
	uint64_t buf;
	size_t nbins;
};

/**
 * struct coverage - one process image under profil
 * @pid: the process
 * @process: its index in the profile
 * @map_addr, @map_len: profil-ctl's mapping in it
 * @next, @end: the free part of the reserve
 * @maps, @nmaps: every executable mapping seen since the start
 * @nstart: how many of @maps the session had when it started; the rest
 *	were regions added to it while it ran (ld.so's libraries, dlopen())
 * @active: the session runs
 */
struct coverage {
	pid_t pid;
	size_t process;
	uint64_t map_addr;
	uint64_t map_len;
	uint64_t next;
	uint64_t end;
	struct coverage_map *maps;
	size_t nmaps;
	size_t nstart;
	bool active;
};

/**
 * coverage_start() - map the counters into process @pid through its
 * thread @tid (stopped at an injectable ptrace stop), cover its
 * executable mappings and start its session; the process is added to
 * the profile (@ppid its parent). @excl: leave an active session alone
 * (-EEXIST), as attach does with the process it attaches to.
 * Return: 0, or -errno with the message printed; @res says whether the
 * process exited meanwhile.
 */
int coverage_start(struct coverage_ctx *x, struct coverage *c, pid_t pid,
		   pid_t tid, pid_t ppid, bool excl, struct inject_result *res);

/**
 * coverage_update() - cover the executable mappings @c's process made
 * since the last look (no stop needed: the regions go to the running
 * set). A process that is gone is not an error.
 * Return: 0, or -1 with the message printed.
 */
int coverage_update(struct coverage_ctx *x, struct coverage *c);

/**
 * coverage_finish() - look at the mappings a last time, stop the
 * session and read every counter into the profile, through the thread
 * @tid, which must still have the address space (in its exit stop, or
 * any stop)
 * Return: 0, or -1 with the message printed.
 */
int coverage_finish(struct coverage_ctx *x, struct coverage *c, pid_t tid);

/**
 * coverage_snapshot() - @c's counters as they are now, read through
 * @io (its pid, or any thread of it that is not a zombie) without
 * stopping the process or its session: each covered mapping's into the
 * histogram of (@process, its object) in @out, the catch-all's into that
 * count's @uncovered. The object indices are @x->profile's; @out need
 * not hold the objects. For a live view (profil-ctl top): successive
 * snapshots differ by what the interval counted.
 * Return: 0, or -1 with errno (ESRCH: the process is gone; ENOMEM; a
 * histogram range that disagrees with one in @out, hist_add_range()).
 */
int coverage_snapshot(struct coverage_ctx *x, const struct coverage *c,
		      pid_t io, struct profile *out, size_t process);

/**
 * coverage_lost_at_exec() - @c's process called execve(): its counters
 * went with the old image. The kernel's accounting of the stopped
 * session goes into the profile, its in-range ticks as lost at exec.
 */
void coverage_lost_at_exec(struct coverage_ctx *x, struct coverage *c);

/** coverage_free() - free @c (not the mapping in the process). */
void coverage_free(struct coverage *c);

/** coverage_ctx_free() - free @x's caches; the profile stays. */
void coverage_ctx_free(struct coverage_ctx *x);

#endif /* PROFIL_CTL_COVERAGE_H */
