/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The saved profile: a struct profile (profile.h) as a line-oriented
 * text file, version 1, specified in
 * Documentation/profil-ctl/whole-program.rst ("The saved profile"). In
 * short:
 *
 *	profil-ctl-profile 1
 *	rate RATE
 *	bin-bytes BYTES
 *	acct TICKS MISSED KERNEL OUTSIDE DEFERRED SATURATED LOST LOST_EXEC
 *	command COMMAND_LINE				(if known)
 *	objects N
 *	object INDEX BUILD_ID PATH			(N lines)
 *	funcs OBJECT N		(optional, per object with functions:
 *	func LOW HIGH NAME	 a JIT's; N lines)
 *	processes N
 *	process INDEX PID PPID COMM EXE <acct's 8>	(N lines)
 *	counts N
 *	count PROCESS OBJECT UNCOVERED NRANGES		(N blocks of)
 *	range LOW HIGH NBINS NSET			(NRANGES blocks of)
 *	bin INDEX COUNT					(NSET lines)
 *	end
 *
 * Numbers are decimal, LOW and HIGH hex with 0x, "-" an unknown figure
 * (PROFILE_UNKNOWN) or a missing string; strings are in double quotes,
 * their bytes outside '!'..'~' and '%' and '"' written %XX. Only bins
 * with samples are written. A loader also takes the file gzip-compressed.
 */
#ifndef PROFIL_CTL_PROFILE_FILE_H
#define PROFIL_CTL_PROFILE_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "profile.h"

/* The first line's first word, and the version written. */
#define PROFILE_FILE_MAGIC "profil-ctl-profile"
#define PROFILE_FILE_VERSION 1

/* Limits of a loader: bins in the whole file, and its size (uncompressed). */
#define PROFILE_FILE_MAX_BINS (1ULL << 26)
#define PROFILE_FILE_MAX_SIZE (1ULL << 30)

/**
 * profile_save() - write @p to @f in the saved format (objects' @symfile
 * and histograms' arcs are not kept; a histogram's rate is @p's)
 * Return: 0, or -1 with errno (EINVAL: a count's process or object
 * index is out of range; the stream's error).
 */
int profile_save(FILE *f, const struct profile *p);

/**
 * profile_load() - read a saved profile (plain or gzip) from @f
 * @p: zero-initialised; filled on success, left empty on failure
 * @err: on failure, what is wrong and on which line ("line 12: ...")
 *
 * Return: 0, or -1 with @err set and errno (EINVAL: malformed, ENOMEM,
 * EFBIG: over PROFILE_FILE_MAX_SIZE, or the stream's error).
 */
int profile_load(FILE *f, struct profile *p, char *err, size_t errlen);

/** profile_load_mem() - profile_load() of the @len bytes at @data. */
int profile_load_mem(const void *data, size_t len, struct profile *p,
		     char *err, size_t errlen);

/**
 * profile_file_is_saved() - whether @len bytes @head, a file's start,
 * are a saved profile's: the magic word and a space, or gzip's magic
 * (a gmon.out starts "gmon")
 */
bool profile_file_is_saved(const void *head, size_t len);

#endif /* PROFIL_CTL_PROFILE_FILE_H */
