// SPDX-License-Identifier: GPL-2.0
/*
 * Samples and calls charged to functions (see attrib.h).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "attrib.h"

/* First function whose extent ends above @addr (ends are sorted too). */
static size_t first_ending_after(const struct sym_func *funcs, size_t n,
				 uint64_t addr)
{
	size_t lo = 0, hi = n, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (funcs[mid].end <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Spreads @c samples of [lo, hi) over the functions; returns the rest. */
static double spread_bin(struct attrib *a, const struct sym_func *funcs,
			 size_t n, uint64_t lo, uint64_t hi, double c)
{
	const struct sym_func *f;
	double credited = 0, share;
	uint64_t x, y;
	size_t j;

	if (hi <= lo) {
		f = sym_func_find(funcs, n, lo);
		if (!f)
			return c;
		a->counts[f - funcs] += c;
		return 0;
	}
	for (j = first_ending_after(funcs, n, lo);
	     j < n && funcs[j].addr < hi; j++) {
		x = funcs[j].addr > lo ? funcs[j].addr : lo;
		y = funcs[j].end < hi ? funcs[j].end : hi;
		share = c * (double)(y - x) / (double)(hi - lo);
		a->counts[j] += share;
		credited += share;
	}
	return c - credited;
}

int attrib_funcs(struct attrib *a, const struct hist *h,
		 const struct sym_func *funcs, size_t nfuncs)
{
	const struct sym_func *f;
	const struct hist_range *rg;
	uint64_t lo, hi;
	size_t r, i;

	memset(a, 0, sizeof(*a));
	a->counts = calloc(nfuncs + 1, sizeof(*a->counts));
	a->calls = calloc(nfuncs + 1, sizeof(*a->calls));
	if (!a->counts || !a->calls) {
		attrib_free(a);
		errno = ENOMEM;
		return -1;
	}
	for (r = 0; r < h->nranges; r++) {
		rg = &h->ranges[r];
		for (i = 0; i < rg->nbins; i++) {
			if (!rg->bins[i])
				continue;
			hist_bin_range(rg, i, &lo, &hi);
			a->unknown += spread_bin(a, funcs, nfuncs, lo, hi,
						 (double)rg->bins[i]);
		}
	}
	for (i = 0; i < h->narcs; i++) {
		f = sym_func_find(funcs, nfuncs, h->arcs[i].self_pc);
		if (f)
			a->calls[f - funcs] += h->arcs[i].count;
	}
	return 0;
}

void attrib_free(struct attrib *a)
{
	free(a->counts);
	free(a->calls);
	memset(a, 0, sizeof(*a));
}
