// SPDX-License-Identifier: GPL-2.0
/*
 * Live buffer geometry, marker page and conversion to struct hist.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "livebuf.h"

#define LIVEBUF_MAX_ALIGN 4096

bool livebuf_bin_bytes_valid(uint64_t bin_bytes)
{
	return bin_bytes >= 2 && bin_bytes <= LIVEBUF_MAX_BIN_BYTES &&
	       !(bin_bytes & (bin_bytes - 1));
}

int livebuf_geometry(uint64_t start, uint64_t end, uint64_t bin_bytes,
		     struct livebuf_geom *g)
{
	uint64_t align, nbins;

	if (end <= start || !livebuf_bin_bytes_valid(bin_bytes)) {
		errno = EINVAL;
		return -1;
	}
	align = bin_bytes < LIVEBUF_MAX_ALIGN ? bin_bytes : LIVEBUF_MAX_ALIGN;
	g->offset = start & ~(align - 1);
	nbins = (end - g->offset + bin_bytes - 1) / bin_bytes;
	g->nbins = (size_t)nbins;
	g->bufsiz = nbins * 2;
	g->scale = (uint32_t)(LIVEBUF_MAX_BIN_BYTES / bin_bytes);
	return 0;
}

int livebuf_range_end(uint64_t offset, size_t nbins, uint32_t scale,
		      uint64_t *end)
{
	uint64_t halves;

	if (!scale) {
		errno = EINVAL;
		return -1;
	}
	if (nbins > UINT64_MAX / 65536) {
		errno = EOVERFLOW;
		return -1;
	}
	/* Counter i starts at the first half-word h with h * scale >= i * 65536. */
	halves = ((uint64_t)nbins * 65536 + scale - 1) / scale;
	if (halves > (UINT64_MAX - offset) / 2) {
		errno = EOVERFLOW;
		return -1;
	}
	*end = offset + 2 * halves;
	return 0;
}

int livebuf_to_hist(const uint16_t *counts, size_t nbins, uint64_t offset,
		    uint32_t scale, uint64_t bias, struct hist *h)
{
	uint64_t end, *bins;
	size_t i;
	int ret;

	if (!nbins || offset < bias) {
		errno = EINVAL;
		return -1;
	}
	if (livebuf_range_end(offset, nbins, scale, &end) < 0)
		return -1;
	bins = malloc(nbins * sizeof(*bins));
	if (!bins)
		return -1;
	for (i = 0; i < nbins; i++)
		bins[i] = counts[i];
	ret = hist_add_range(h, offset - bias, end - bias, bins, nbins);
	free(bins);
	return ret;
}

void livebuf_marker_init(struct livebuf_marker *m, uint64_t map_len,
			 uint64_t bufsiz, uint64_t bias)
{
	memset(m, 0, sizeof(*m));
	memcpy(m->magic, LIVEBUF_MAGIC, sizeof(LIVEBUF_MAGIC));
	m->map_len = map_len;
	m->bufsiz = bufsiz;
	m->bias = bias;
}

uint64_t livebuf_map_len(uint64_t bufsiz, uint64_t page_size)
{
	uint64_t pages = bufsiz / page_size + !!(bufsiz % page_size);

	if (pages >= UINT64_MAX / page_size)
		return 0;
	return (pages + 1) * page_size;
}

bool livebuf_marker_matches(const struct livebuf_marker *m, uint64_t bufsiz,
			    uint64_t page_size)
{
	return !memcmp(m->magic, LIVEBUF_MAGIC, sizeof(LIVEBUF_MAGIC)) &&
	       m->bufsiz == bufsiz &&
	       m->map_len == livebuf_map_len(bufsiz, page_size);
}
