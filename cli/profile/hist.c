// SPDX-License-Identifier: GPL-2.0
/*
 * Helpers on struct hist shared by every source and renderer: freeing,
 * bin geometry, totals, and adding a range the way gprof merges
 * TIME_HIST records.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "hist.h"

void hist_free(struct hist *h)
{
	size_t i;

	if (!h)
		return;
	for (i = 0; i < h->nranges; i++)
		free(h->ranges[i].bins);
	free(h->ranges);
	free(h->arcs);
	free(h->binary);
	memset(h, 0, sizeof(*h));
}

/*
 * gprof's geometry: bin boundaries in 2-byte units, truncated from
 * i * ((high - low) / 2) / nbins (gprof/hist.c). For the exact
 * power-of-two bins libprofil writes this is low + i * bytes_per_bin.
 */
static uint64_t hist_bin_edge(const struct hist_range *r, size_t i)
{
	uint64_t units = (r->high_pc - r->low_pc) / 2;
	double scale = (double)units / (double)r->nbins;
	uint64_t off = i >= r->nbins ? units : (uint64_t)(scale * (double)i);

	if (off > units)
		off = units;
	return (r->low_pc / 2 + off) * 2;
}

void hist_bin_range(const struct hist_range *r, size_t i, uint64_t *lo,
		    uint64_t *hi)
{
	*lo = hist_bin_edge(r, i);
	*hi = i + 1 >= r->nbins ? r->high_pc : hist_bin_edge(r, i + 1);
	if (*hi < *lo)
		*hi = *lo;
}

int hist_each_bin(const struct hist *h,
		  int (*fn)(void *ctx, uint64_t lo, uint64_t hi,
			    uint64_t count),
		  void *ctx)
{
	const struct hist_range *r;
	uint64_t lo, hi;
	size_t i, b;
	int ret;

	for (i = 0; i < h->nranges; i++) {
		r = &h->ranges[i];
		for (b = 0; b < r->nbins; b++) {
			if (!r->bins[b])
				continue;
			hist_bin_range(r, b, &lo, &hi);
			ret = fn(ctx, lo, hi, r->bins[b]);
			if (ret)
				return ret;
		}
	}
	return 0;
}

uint64_t hist_range_total(const struct hist_range *r)
{
	uint64_t sum = 0;
	size_t i;

	for (i = 0; i < r->nbins; i++)
		sum += r->bins[i];
	return sum;
}

uint64_t hist_total(const struct hist *h)
{
	uint64_t sum = 0;
	size_t i;

	for (i = 0; i < h->nranges; i++)
		sum += hist_range_total(&h->ranges[i]);
	return sum;
}

/*
 * The first range of @h that ends after @low: ranges are sorted and
 * disjoint, so their ends are sorted too (binary search).
 */
static size_t hist_find(const struct hist *h, uint64_t low)
{
	size_t lo = 0, hi = h->nranges, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (h->ranges[mid].high_pc <= low)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

int hist_add_range(struct hist *h, uint64_t low, uint64_t high,
		   const uint64_t *bins, size_t nbins)
{
	struct hist_range *r, *nr;
	size_t i, pos;

	if (high <= low || !nbins || nbins > high - low) {
		errno = EINVAL;
		return -1;
	}
	/* Appending, as every source in address order does: no search. */
	pos = h->nranges && h->ranges[h->nranges - 1].high_pc > low ?
	      hist_find(h, low) : h->nranges;
	if (pos < h->nranges) {
		r = &h->ranges[pos];
		if (r->low_pc == low && r->high_pc == high) {
			if (r->nbins != nbins) {
				errno = EDOM;
				return -1;
			}
			for (i = 0; i < nbins; i++)
				r->bins[i] += bins[i];
			return 0;
		}
		if (r->low_pc < high) {
			errno = EEXIST;
			return -1;
		}
	}
	nr = realloc(h->ranges, (h->nranges + 1) * sizeof(*nr));
	if (!nr)
		return -1;
	h->ranges = nr;
	r = &(struct hist_range){ .low_pc = low, .high_pc = high,
				  .nbins = nbins };
	r->bins = malloc(nbins * sizeof(*r->bins));
	if (!r->bins)
		return -1;
	memcpy(r->bins, bins, nbins * sizeof(*r->bins));
	memmove(&nr[pos + 1], &nr[pos], (h->nranges - pos) * sizeof(*nr));
	nr[pos] = *r;
	h->nranges++;
	return 0;
}

/* The array grows in powers of two: no capacity field in struct hist. */
int hist_add_arc(struct hist *h, uint64_t from_pc, uint64_t self_pc,
		 uint64_t count)
{
	struct hist_arc *na;
	size_t n = h->narcs;

	if (n < 16 ? n == 0 : (n & (n - 1)) == 0) {
		na = realloc(h->arcs, (n ? 2 * n : 16) * sizeof(*na));
		if (!na)
			return -1;
		h->arcs = na;
	}
	h->arcs[h->narcs++] = (struct hist_arc){ .from_pc = from_pc,
						 .self_pc = self_pc,
						 .count = count };
	return 0;
}

static int cmp_arc(const void *a, const void *b)
{
	const struct hist_arc *x = a, *y = b;

	if (x->from_pc != y->from_pc)
		return x->from_pc < y->from_pc ? -1 : 1;
	return x->self_pc < y->self_pc ? -1 : x->self_pc > y->self_pc;
}

/* One arc per (from, self), counts summed, in that order. */
static void hist_arcs_sum(struct hist *h)
{
	size_t i, j;

	if (h->narcs < 2)
		return;
	qsort(h->arcs, h->narcs, sizeof(*h->arcs), cmp_arc);
	for (i = 1, j = 0; i < h->narcs; i++) {
		if (!cmp_arc(&h->arcs[j], &h->arcs[i]))
			h->arcs[j].count += h->arcs[i].count;
		else
			h->arcs[++j] = h->arcs[i];
	}
	h->narcs = j + 1;
}

int hist_merge(struct hist *to, const struct hist *from)
{
	size_t i;

	for (i = 0; i < from->nranges; i++) {
		const struct hist_range *r = &from->ranges[i];

		if (hist_add_range(to, r->low_pc, r->high_pc, r->bins,
				   r->nbins) < 0)
			return -1;
	}
	for (i = 0; i < from->narcs; i++)
		if (hist_add_arc(to, from->arcs[i].from_pc,
				 from->arcs[i].self_pc, from->arcs[i].count) < 0)
			return -1;
	hist_arcs_sum(to);
	return 0;
}
