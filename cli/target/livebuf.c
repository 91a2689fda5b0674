// SPDX-License-Identifier: GPL-2.0
/*
 * A profiling buffer's range and its conversion to struct hist.
 */
#include <errno.h>
#include <stdlib.h>

#include "livebuf.h"

bool livebuf_bin_bytes_valid(uint64_t bin_bytes)
{
	return bin_bytes >= 2 && bin_bytes <= LIVEBUF_MAX_BIN_BYTES &&
	       !(bin_bytes & (bin_bytes - 1));
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
