/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A reader of GNU gmon.out files (glibc's gmon/sys/gmon_out.h, as GNU
 * gprof reads them in gprof/gmon_io.c and hist.c) into struct hist.
 *
 * The byte order is taken from the header's version field; the pointer
 * width (4 or 8 bytes) is not in the file and must be given: the ELF
 * class of the profiled program, as gprof takes it.
 */
#ifndef PROFIL_CTL_GMON_READ_H
#define PROFIL_CTL_GMON_READ_H

#include <stddef.h>

#include "hist.h"

/* Larger files are refused rather than read: 1 GiB. */
#define GMON_READ_MAX_FILE (1ULL << 30)

/**
 * gmon_read_mem() - parse a whole gmon.out image
 * @data: the file's bytes
 * @len: their number
 * @ptr_size: 4 or 8, the profiled program's pointer width
 * @h: zero-initialised; filled on success, left empty on failure
 * @err: on failure, a message: where (byte offset) and what is wrong
 * @errlen: size of @err
 *
 * TIME_HIST records with an identical [low_pc, high_pc) are summed; a
 * partial overlap, or a dimension, scale or rate that differs from the
 * first record's, is an error, as in gprof (which ignores a different
 * rate; we do not). CG_ARC records are kept in @h->arcs, BB_COUNT
 * records checked and skipped. Memory used is linear in @len, and so is
 * the time: the histograms are read first, then sorted by address (not
 * at all when they come in order, a radix sort else) and merged in one
 * pass; a file with both an overlap and a malformed record later on is
 * refused for the malformed record.
 *
 * Return: 0, or -1 with @err set (errno ENOMEM for an allocation
 * failure, EINVAL for a malformed file).
 */
int gmon_read_mem(const void *data, size_t len, unsigned int ptr_size,
		  struct hist *h, char *err, size_t errlen);

/**
 * gmon_read_work() - the units of work the last gmon_read_mem() did: one
 * per record, bin, element moved and sort bucket visited (the test of
 * its linear growth counts them rather than time it)
 */
unsigned long long gmon_read_work(void);

/**
 * gmon_read_whole() - the bytes of @path ("-": standard input), at most
 * GMON_READ_MAX_FILE, into *@buf (malloc'ed) and *@len
 *
 * Return: 0, or -1 with @err set; errno from open(2)/read(2), EFBIG.
 */
int gmon_read_whole(const char *path, unsigned char **buf, size_t *len,
		    char *err, size_t errlen);

/**
 * gmon_read_file() - gmon_read_mem() on the contents of @path ("-":
 * standard input)
 *
 * Return: 0, or -1 with @err set; errno from open(2)/read(2), EFBIG over
 * GMON_READ_MAX_FILE, or as gmon_read_mem().
 */
int gmon_read_file(const char *path, unsigned int ptr_size, struct hist *h,
		   char *err, size_t errlen);

#endif /* PROFIL_CTL_GMON_READ_H */
