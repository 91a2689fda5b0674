/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The profile model of a whole program: the objects its processes ran
 * (executables, shared libraries, the vDSO), the processes, and one
 * histogram per (process, object) with link-time addresses of that
 * object, plus the kernel's accounting. What the live commands collect,
 * what the saved profile holds, what every format renders. Pure: no I/O.
 *
 * Percentages in reports are over all user samples: the sum of every
 * count's histogram and of its @uncovered samples.
 */
#ifndef PROFIL_CTL_PROFILE_H
#define PROFIL_CTL_PROFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "hist.h"

/* What a field holds when its source has no such figure. */
#define PROFILE_UNKNOWN UINT64_MAX

/**
 * struct profile_func - a function no file names: a JIT's
 * @addr, @end: its bounds, [@addr, @end)
 * @name: its name
 */
struct profile_func {
	uint64_t addr;
	uint64_t end;
	char *name;
};

/**
 * struct profile_object - one ELF object (or the vDSO, or a JIT's code)
 * @path: its path as the process mapped it ("[vdso]" for the vDSO,
 *	"[anon]" for anonymous memory, "[JIT] pid PID" for the anonymous
 *	memory of a process that wrote a perf map)
 * @build_id: its GNU build-id in hex, or NULL if it has none
 * @symfile: where to read its symbols if not @path (the vDSO's image,
 *	copied out of a process), or NULL
 * @funcs, @nfuncs: its functions when no file has them: a JIT's, from
 *	/tmp/perf-PID.map as it was when the profile was read (kept in the
 *	saved profile: the map goes with the process, or is overwritten
 *	by the next one of that pid); sorted, bounds disjoint
 */
struct profile_object {
	char *path;
	char *build_id;
	char *symfile;
	struct profile_func *funcs;
	size_t nfuncs;
};

/**
 * struct profile_acct - the kernel's accounting of sampling ticks
 * @ticks: sampling ticks taken (PROFIL_STAT_TICKS)
 * @missed: sampling periods a late clock skipped (PROFIL_STAT_MISSED)
 * @kernel: ticks in kernel mode, not charged (SYSTEM_DROPPED)
 * @outside: user ticks whose PC was in no mapping profil-ctl saw
 * @deferred: ticks written on the return to user mode (DEFERRED)
 * @saturated: ticks not added, their counter full (SATURATED)
 * @lost: ticks counted by the kernel but in no histogram: DISCARDED,
 *	FAULTED, PENDING at the end
 * @lost_exec: ticks in range taken by an image that then called
 *	execve(): its address space, and the counters, went with it
 *
 * Each is PROFILE_UNKNOWN when the source does not know it (a gmon.out).
 */
struct profile_acct {
	uint64_t ticks;
	uint64_t missed;
	uint64_t kernel;
	uint64_t outside;
	uint64_t deferred;
	uint64_t saturated;
	uint64_t lost;
	uint64_t lost_exec;
};

/**
 * struct profile_process - one process (one image: a process that
 * execs becomes a new entry with the same pid)
 * @pid, @ppid: its ids (@ppid 0 if not known)
 * @comm: its name (the executable's base name, as the kernel's comm)
 * @exe: its main executable's path, or NULL
 * @cgroup: its cgroup v2's path below the mount ("/" for the root), or
 *	NULL if not known (only a machine-wide profile's reader names it;
 *	the saved profile does not keep it)
 * @acct: the kernel's accounting of its session
 */
struct profile_process {
	pid_t pid;
	pid_t ppid;
	char comm[16];
	char *exe;
	char *cgroup;
	struct profile_acct acct;
};

/**
 * struct profile_count - the samples of one process in one object
 * @process: index into profile.processes; PROFILE_ALL_PROCESSES once
 *	merged by object
 * @object: index into profile.objects
 * @hist: counts at the object's link-time addresses (@hist.binary NULL)
 * @uncovered: samples taken in the object before profil-ctl covered it
 *	with a region of its own (a library mapped after the last look at
 *	the process's mappings): known by object, not by address
 */
struct profile_count {
	size_t process;
	size_t object;
	struct hist hist;
	uint64_t uncovered;
};

#define PROFILE_ALL_PROCESSES ((size_t)-1)

/**
 * struct profile - a whole profile
 * @command: the command line profiled (run's program and arguments,
 *	attach's /proc/PID/cmdline), words joined by spaces, a word with
 *	a space or quote in single quotes; NULL if not known
 * @rate: samples per second of CPU time, 0 if unknown
 * @bin_bytes: bytes of text per counter
 * @objects, @nobjects: every object with samples, or mapped
 * @processes, @nprocesses: every process profiled
 * @counts, @ncounts: one per (process, object) with a histogram
 * @acct: the sum of the processes' accounting
 *
 * Zero-initialise, fill with the functions below, free with
 * profile_free(). Strings and arrays are owned by the struct.
 */
struct profile {
	char *command;
	uint32_t rate;
	uint64_t bin_bytes;
	struct profile_object *objects;
	size_t nobjects;
	struct profile_process *processes;
	size_t nprocesses;
	struct profile_count *counts;
	size_t ncounts;
	struct profile_acct acct;
};

/** profile_free() - free what @p owns and zero it; NULL is a no-op. */
void profile_free(struct profile *p);

/**
 * profile_set_command() - @p's command from the @n words of @argv
 * Return: 0, or -1 with errno ENOMEM.
 */
int profile_set_command(struct profile *p, char *const *argv, size_t n);

/** profile_acct_unknown() - every field of @a PROFILE_UNKNOWN. */
void profile_acct_unknown(struct profile_acct *a);

/**
 * profile_acct_add() - add @b to @a field by field; an unknown field
 * stays (or becomes) unknown
 */
void profile_acct_add(struct profile_acct *a, const struct profile_acct *b);

/**
 * profile_object_add() - the index of the object @path with @build_id
 * (NULL: none), added if new; the same path with another build-id is
 * another object (the file was replaced between two runs)
 * Return: the index, or -1 with errno ENOMEM.
 */
ssize_t profile_object_add(struct profile *p, const char *path,
			   const char *build_id);

/* The longest function name kept (a longer one is cut): a saved line. */
#define PROFILE_FUNC_NAME_MAX 4096

/**
 * profile_object_add_func() - append [@addr, @end) named @name (its
 * first PROFILE_FUNC_NAME_MAX bytes) to the functions of object @object
 * Return: 0, or -1 with errno (ENOMEM; EINVAL: @object out of range, the
 * function empty, or not above the last one).
 */
int profile_object_add_func(struct profile *p, size_t object, uint64_t addr,
			    uint64_t end, const char *name);

/**
 * profile_process_add() - append a process
 * Return: its index, or -1 with errno ENOMEM.
 */
ssize_t profile_process_add(struct profile *p, pid_t pid, pid_t ppid,
			    const char *comm, const char *exe);

/**
 * profile_process_set_cgroup() - process @process's cgroup path, a copy
 * of @path (NULL: not known)
 * Return: 0, or -1 with errno ENOMEM.
 */
int profile_process_set_cgroup(struct profile *p, size_t process,
			       const char *path);

/**
 * profile_count_get() - the count of (@process, @object), added empty if
 * new
 * Return: it (valid until the next call that adds), or NULL with errno
 * ENOMEM.
 */
struct profile_count *profile_count_get(struct profile *p, size_t process,
					size_t object);

/**
 * profile_count_add() - append an empty count of (@process, @object)
 * without looking for one: the caller knows there is none (a loader
 * that checks the order of its input)
 * Return: it (valid until the next call that adds), or NULL with errno
 * ENOMEM.
 */
struct profile_count *profile_count_add(struct profile *p, size_t process,
					size_t object);

/** profile_count_total() - @c's histogram plus its uncovered samples. */
uint64_t profile_count_total(const struct profile_count *c);

/** profile_total() - every user sample of @p: the sum over its counts. */
uint64_t profile_total(const struct profile *p);

/** profile_object_total() - the samples of object @object, all processes. */
uint64_t profile_object_total(const struct profile *p, size_t object);

/** profile_process_total() - the samples of process @process. */
uint64_t profile_process_total(const struct profile *p, size_t process);

/**
 * profile_merge_processes() - @out: @p with the counts of each object
 * summed over the processes (process PROFILE_ALL_PROCESSES); objects,
 * processes and accounting copied
 * Return: 0, or -1 with errno (ENOMEM, or hist_add_range()'s when one
 * object's ranges disagree between processes).
 */
int profile_merge_processes(const struct profile *p, struct profile *out);

/**
 * profile_main_object() - the object the first process's @exe names:
 * the program's executable
 * Return: its index, or -1 if there is none.
 */
ssize_t profile_main_object(const struct profile *p);

/**
 * profile_merge() - add @from to @to: its processes appended (with their
 * accounting), its objects matched by build-id when both have one, else
 * by path (the first's path and build-id kept), its counts copied to the
 * new processes; @to's accounting summed. Rates and bin sizes are the
 * caller's to check: the result keeps @to's (@from's if @to is empty).
 * Return: 0, or -1 with errno ENOMEM (@to is then partly merged: free it).
 */
int profile_merge(struct profile *to, const struct profile *from);

#endif /* PROFIL_CTL_PROFILE_H */
