/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A profiling buffer (a program's own, profil()): the range its counters
 * cover, and their translation into a struct hist with link-time
 * addresses; the bin sizes the live commands take. All pure.
 */
#ifndef PROFIL_CTL_LIVEBUF_H
#define PROFIL_CTL_LIVEBUF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hist.h"

#define LIVEBUF_DEFAULT_BIN_BYTES 4	/* scale 32768, as monstartup() */
#define LIVEBUF_MAX_BIN_BYTES	131072	/* scale 1 */

/** livebuf_bin_bytes_valid() - a power of two in [2, 131072]. */
bool livebuf_bin_bytes_valid(uint64_t bin_bytes);

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

#endif /* PROFIL_CTL_LIVEBUF_H */
