/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A kernel-held profile's samples in anonymous memory, named by the
 * process's perf map (/tmp/perf-PID.map, perfmap.h) when it wrote one,
 * as perf names a JIT's code: the samples of such a process go to an
 * object "[JIT] pid PID" of its own, which keeps the map's functions
 * that hold samples (so that a saved profile names them once the map
 * is gone); a process without a map keeps "[anon]".
 */
#ifndef PROFIL_CTL_HELD_JIT_H
#define PROFIL_CTL_HELD_JIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "perfmap.h"
#include "profile.h"

/**
 * struct held_jit - one process's map, while samples come
 * @pid: the process
 * @object: its object in the profile, -1 if it wrote no map
 * @map: the map as read
 * @used: per function of @map, whether a sample fell in it
 */
struct held_jit {
	pid_t pid;
	ssize_t object;
	struct perfmap map;
	bool *used;
};

/**
 * struct held_jits - the processes seen so far (zero-initialise)
 * @v, @n: their maps
 * @bin_bytes: the profile's bytes per counter: a bin is charged to the
 *	function holding its first byte, which is kept too
 */
struct held_jits {
	struct held_jit *v;
	size_t n;
	uint64_t bin_bytes;
};

/**
 * held_jit_object() - the object of a sample at @addr in the anonymous
 * memory of process @pid: its JIT object (added, with its map read, at
 * the process's first sample), else @anon
 * Return: the object's index, or -1 with errno ENOMEM.
 */
ssize_t held_jit_object(struct held_jits *j, struct profile *p, pid_t pid,
			uint64_t addr, ssize_t anon);

/**
 * held_jit_finish() - the functions that hold samples into their
 * objects (profile_object_add_func()); frees @j
 * Return: 0, or -1 with errno ENOMEM.
 */
int held_jit_finish(struct held_jits *j, struct profile *p);

/** held_jits_free() - free @j (on an error path; finish frees it too). */
void held_jits_free(struct held_jits *j);

#endif /* PROFIL_CTL_HELD_JIT_H */
