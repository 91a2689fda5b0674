// SPDX-License-Identifier: GPL-2.0
/* A gzip stream written as it is made (gzout.h). */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "gzout.h"

int gzout_open(struct gzout *g, FILE *out)
{
	memset(g, 0, sizeof(*g));
	g->out = out;
	/* windowBits 15 + 16: a gzip header and trailer, not zlib's. */
	if (deflateInit2(&g->z, Z_BEST_SPEED, Z_DEFLATED, 15 + 16, 8,
			 Z_DEFAULT_STRATEGY) != Z_OK) {
		errno = ENOMEM;
		return -1;
	}
	g->open = true;
	return 0;
}

int gzout_put(struct gzout *g, const void *buf, size_t len, bool finish)
{
	unsigned char chunk[1 << 15];
	size_t n;
	int zr;

	if (len > UINT32_MAX) {
		errno = EFBIG;
		return -1;
	}
	g->z.next_in = (Bytef *)(uintptr_t)buf;
	g->z.avail_in = (uInt)len;
	do {
		g->z.next_out = chunk;
		g->z.avail_out = sizeof(chunk);
		zr = deflate(&g->z, finish ? Z_FINISH : Z_NO_FLUSH);
		n = sizeof(chunk) - g->z.avail_out;
		if (n && fwrite(chunk, 1, n, g->out) != n)
			return -1;
		if (zr == Z_STREAM_ERROR) {
			errno = EIO;
			return -1;
		}
	} while (g->z.avail_out == 0 || (finish && zr != Z_STREAM_END));
	return 0;
}

void gzout_close(struct gzout *g)
{
	if (g->open)
		deflateEnd(&g->z);
	g->open = false;
}
