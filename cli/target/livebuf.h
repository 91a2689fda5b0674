/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The live profiling buffer: its geometry (as libprofil's monstartup()
 * chooses it), the marker page profil-ctl puts in front of the buffers it
 * maps into a process, and the translation of the counters into a
 * struct hist with link-time addresses. All pure.
 */
#ifndef PROFIL_CTL_LIVEBUF_H
#define PROFIL_CTL_LIVEBUF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hist.h"

#define LIVEBUF_DEFAULT_BIN_BYTES 4	/* scale 32768, as monstartup() */
#define LIVEBUF_MAX_BIN_BYTES	131072	/* scale 1 */

/**
 * struct livebuf_geom - the parameters of a START covering a text range
 * @offset: lowest PC counted (runtime)
 * @scale: 131072 / bytes per bin
 * @nbins: number of u16 counters; @bufsiz is twice that
 * @bufsiz: buffer size in bytes
 */
struct livebuf_geom {
	uint64_t offset;
	uint32_t scale;
	size_t nbins;
	uint64_t bufsiz;
};

/** livebuf_bin_bytes_valid() - a power of two in [2, 131072]. */
bool livebuf_bin_bytes_valid(uint64_t bin_bytes);

/**
 * livebuf_geometry() - exact bins of @bin_bytes over [@start, @end)
 *
 * The offset is @start rounded down to min(@bin_bytes, 4096) (so bins
 * start where aligned functions do); the bins cover @end.
 *
 * Return: 0, or -1 with errno EINVAL (empty range, @bin_bytes not valid).
 */
int livebuf_geometry(uint64_t start, uint64_t end, uint64_t bin_bytes,
		     struct livebuf_geom *g);

/**
 * livebuf_range_end() - end of the addresses @nbins counters at @scale
 * cover from @offset: offset + 2 * ceil(nbins * 65536 / scale), which is
 * where counter @nbins would begin under the rule
 * idx = floor(floor((pc - offset) / 2) * scale / 65536).
 * Return: 0, or -1 with errno EINVAL (scale 0) or EOVERFLOW.
 */
int livebuf_range_end(uint64_t offset, size_t nbins, uint32_t scale,
		      uint64_t *end);

/**
 * livebuf_to_hist() - add the counters to @h as one range
 * @counts: @nbins u16 counters as read from the buffer
 * @offset, @scale: the session's (runtime addresses)
 * @bias: subtracted to give link-time addresses; use 0 if @offset is
 *	below it (the range is not the executable's)
 * @h: a zeroed or filled struct hist; @rate and @binary are the caller's
 *
 * Return: 0, or -1 with errno: EINVAL (scale 0, no counters, @offset
 * below @bias), EOVERFLOW, ENOMEM, or hist_add_range()'s.
 */
int livebuf_to_hist(const uint16_t *counts, size_t nbins, uint64_t offset,
		    uint32_t scale, uint64_t bias, struct hist *h);

/*
 * The marker page. profil-ctl maps [marker page][counters] and passes the
 * counters' address to the kernel; the page in front says "this buffer
 * is profil-ctl's, the mapping is this long", so that `profil-ctl stop`,
 * which is another process than the `start` that mapped it, can unmap
 * exactly what was mapped and nothing the program owns.
 */
#define LIVEBUF_MAGIC "profil-ctl buf1"	/* 15 characters and a NUL */

/**
 * struct livebuf_marker - the first bytes of the marker page
 * @magic: LIVEBUF_MAGIC
 * @map_len: length of the whole mapping, marker page included
 * @bufsiz: the counters' size in bytes
 * @bias: load bias of the executable when the buffer was set up
 */
struct livebuf_marker {
	char magic[16];
	uint64_t map_len;
	uint64_t bufsiz;
	uint64_t bias;
};

/**
 * livebuf_marker_init() - fill @m for a mapping of @map_len bytes
 */
void livebuf_marker_init(struct livebuf_marker *m, uint64_t map_len,
			 uint64_t bufsiz, uint64_t bias);

/**
 * livebuf_marker_matches() - whether @m, read from the page in front of
 * a session's buffer of @bufsiz bytes, is a marker of profil-ctl for a
 * mapping that holds that page and the buffer, of @page_size pages
 */
bool livebuf_marker_matches(const struct livebuf_marker *m, uint64_t bufsiz,
			    uint64_t page_size);

/**
 * livebuf_map_len() - the mapping for @bufsiz bytes of counters: one
 * marker page plus the counters rounded up to pages; 0 on overflow
 */
uint64_t livebuf_map_len(uint64_t bufsiz, uint64_t page_size);

#endif /* PROFIL_CTL_LIVEBUF_H */
