/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A gzip stream written to a FILE as it is made, a piece at a time
 * (pprof.c: pprof's profiles are gzip'ed profile.proto).
 */
#ifndef PROFIL_CTL_GZOUT_H
#define PROFIL_CTL_GZOUT_H

#include <stdbool.h>
#include <stdio.h>
#include <zlib.h>

/**
 * struct gzout - the stream
 * @z: zlib's deflate state
 * @out: where the compressed bytes go
 * @open: deflateInit2() done: gzout_close() ends it
 */
struct gzout {
	z_stream z;
	FILE *out;
	bool open;
};

/**
 * gzout_open() - start a gzip stream (fastest level) to @out
 * Return: 0, or -1 with errno ENOMEM.
 */
int gzout_open(struct gzout *g, FILE *out);

/**
 * gzout_put() - @len bytes at @buf through deflate to the file;
 * @finish: the last piece, the gzip trailer written
 * Return: 0, or -1 with errno (EFBIG past 4 GiB in one piece, EIO, the
 * stream's error).
 */
int gzout_put(struct gzout *g, const void *buf, size_t len, bool finish);

/** gzout_close() - free the deflate state (not @out); twice is harmless. */
void gzout_close(struct gzout *g);

#endif /* PROFIL_CTL_GZOUT_H */
