/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A kernel-held profile (profil_collect(), Documentation/kmod/held.rst)
 * read into profil-ctl's profile model: images become processes, the
 * kernel's objects (files by device, inode and ctime) become ELF objects
 * with their build-ids, file offsets become link-time addresses.
 */
#ifndef PROFIL_CTL_HELD_H
#define PROFIL_CTL_HELD_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "profil.h"
#include "objinfo.h"
#include "profile.h"

/**
 * struct held_notes - what a read found that the report must say
 * @live: images still followed (their process neither exited nor
 *	exec'd)
 * @images_lost: processes not followed, the profile having no room
 * @secure_exec: images that ended at an exec that raised privileges
 *	(setuid, setgid, file capabilities): not followed past it
 * @secure_comm: the command name of the first of them
 * @replaced: objects whose file was replaced (or deleted) since it was
 *	sampled: reported by path, without symbols
 * @mmap_busy, @profile_full: ticks given up (PROFIL_STAT_MMAP_BUSY,
 *	PROFIL_STAT_PROFILE_FULL), also in the accounting's lost
 */
struct held_notes {
	uint64_t live;
	uint64_t images_lost;
	uint64_t secure_exec;
	char secure_comm[16];
	uint64_t replaced;
	uint64_t mmap_busy;
	uint64_t profile_full;
};

/**
 * struct held_reader - what successive reads of one profile share
 * @op: the command, for messages
 * @h: the collector's handle
 * @rate: samples per second, 0 for the kernel's default
 * @bin_bytes: bytes of text per counter of the histograms made
 * @root_ppid: the parent of the processes the collector named (run:
 *	profil-ctl), 0 if not known
 * @spawned: the first image is run's child, which followed itself
 *	before it exec'd the program: profil-ctl's code, left out
 * @no_perfmap: leave anonymous memory "[anon]", its perf maps unread
 *	(top, which reads the profile every second and does not name a
 *	JIT's code: held_jit.h)
 * @objects: the ELF facts of every file read
 * @vdso_file: the vDSO image, copied out of profil-ctl once, or NULL
 */
struct held_reader {
	const char *op;
	struct profil_handle *h;
	uint32_t rate;
	uint64_t bin_bytes;
	pid_t root_ppid;
	bool spawned;
	bool no_perfmap;
	struct objcache objects;
	char *vdso_file;
};

/**
 * held_read() - the profile the kernel holds for @r->h, as it is now,
 * into @out (zero-initialised by the caller, freed with profile_free())
 * @notes: what the report must say; may be NULL
 * Return: 0, or -1 after printing why.
 */
int held_read(struct held_reader *r, struct profile *out,
	      struct held_notes *notes);

/** held_notes_print() - @n's notes on standard error, as @op's. */
void held_notes_print(const char *op, const struct held_notes *n);

/** held_reader_free() - free what @r owns (not the handle). */
void held_reader_free(struct held_reader *r);

#endif /* PROFIL_CTL_HELD_H */
