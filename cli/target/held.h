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

#include "cgroups.h"
#include "profil.h"
#include "objinfo.h"
#include "profile.h"

/**
 * struct held_notes - what a read found that the report must say
 * @live: images still followed (their process neither exited nor
 *	exec'd)
 * @images_lost: processes not followed, the profile having no room
 *	(machine-wide: samples whose process had no room for its image,
 *	also in @samples_lost)
 * @samples_lost: machine-wide: samples that reached no image
 *	(PROFIL_PROFILE_SAMPLES_LOST)
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
	uint64_t samples_lost;
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
 * @cgroups: where set, each process's cgroup path is looked up there by
 *	its image's cgroup id (a machine-wide profile's: serve)
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
	const struct cgroups *cgroups;
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

/**
 * struct held_base_sample - one raw sample of a baseline: the kernel's
 * (image, object, file offset) and its count then
 */
struct held_base_sample {
	uint32_t image;
	uint32_t object;
	uint64_t offset;
	uint64_t count;
};

/**
 * struct held_baseline - the raw counts of a profile at one moment, to be
 * subtracted from a later read of the same profile (serve: what a
 * request saw at its start). Image and object ids are the kernel's: they
 * name the same things in every read of one profile, never across two.
 * @v, @n, @cap: the samples, sorted by (image, object, offset) once
 *	held_baseline_sort() ran
 * @acct, @nacct: each image's accounting then, by image id - 1
 *
 * Zero-initialise; an empty baseline subtracts nothing.
 */
struct held_baseline {
	struct held_base_sample *v;
	size_t n;
	size_t cap;
	struct profile_acct *acct;
	size_t nacct;
};

/**
 * held_baseline_take() - the raw counts of the profile of @r->h as it is
 * now, into @b (emptied first)
 * Return: 0, or -1 with errno (the message is the caller's to print).
 */
int held_baseline_take(struct held_reader *r, struct held_baseline *b);

/**
 * held_baseline_add() - append sample @s (unsorted until
 * held_baseline_sort())
 * Return: 0, or -1 with errno ENOMEM.
 */
int held_baseline_add(struct held_baseline *b, const struct profil_sample *s);

/** held_baseline_sort() - sort @b's samples for held_baseline_since(). */
void held_baseline_sort(struct held_baseline *b);

/**
 * held_baseline_since() - @s's count less the baseline's of the same
 * (image, object, offset); 0 if the baseline had more (never negative)
 */
uint64_t held_baseline_since(const struct held_baseline *b,
			     const struct profil_sample *s);

/**
 * held_acct_since() - @a less @base, field by field, none below 0; an
 * unknown field stays unknown
 */
void held_acct_since(struct profile_acct *a, const struct profile_acct *base);

/** held_baseline_free() - free what @b holds and empty it. */
void held_baseline_free(struct held_baseline *b);

/**
 * held_read_since() - as held_read(), with only what was counted since
 * @base (NULL: since the profile began): each sample's and image's
 * counts less the baseline's; samples left with none are dropped
 */
int held_read_since(struct held_reader *r, const struct held_baseline *base,
		    struct profile *out, struct held_notes *notes);

/** held_notes_print() - @n's notes on standard error, as @op's. */
void held_notes_print(const char *op, const struct held_notes *n);

/** held_reader_free() - free what @r owns (not the handle). */
void held_reader_free(struct held_reader *r);

#endif /* PROFIL_CTL_HELD_H */
