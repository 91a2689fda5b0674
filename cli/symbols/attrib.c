// SPDX-License-Identifier: GPL-2.0
/*
 * Samples and calls charged to functions (see attrib.h).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "attrib.h"

/* First function whose bounds end above @addr (ends are sorted too). */
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

/* First function whose entry is above @addr: the gap holding @addr. */
static size_t first_starting_after(const struct sym_func *funcs, size_t n,
				   uint64_t addr)
{
	size_t lo = 0, hi = n, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (funcs[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* @c unknown samples over [@x, @y) of gap @k (before function @k). */
static void add_unknown(struct attrib *a, struct attrib_gap *gaps, size_t k,
			uint64_t x, uint64_t y, double c)
{
	struct attrib_gap *g = &gaps[k];

	if (c <= 0)
		return;
	if (g->count <= 0 || x < g->lo)
		g->lo = x;
	if (g->count <= 0 || y > g->hi)
		g->hi = y;
	g->count += c;
	a->unknown += c;
	if (k)
		a->gprof_preceding += c;
}

/*
 * Spreads @c samples of [lo, hi) over the functions its range overlaps,
 * by overlap; the parts between their bounds go to their gaps.
 */
static void spread_bin(struct attrib *a, struct attrib_gap *gaps,
		       const struct sym_func *funcs, size_t n, uint64_t lo,
		       uint64_t hi, double c)
{
	const struct sym_func *f;
	uint64_t x, y, cursor = lo;
	double w = (double)(hi - lo);
	size_t j;

	if (hi <= lo) {
		f = sym_func_find(funcs, n, lo);
		if (f)
			a->counts[f - funcs] += c;
		else
			add_unknown(a, gaps, first_starting_after(funcs, n, lo),
				    lo, lo + 1, c);
		return;
	}
	for (j = first_ending_after(funcs, n, lo);
	     j < n && funcs[j].addr < hi; j++) {
		x = funcs[j].addr > lo ? funcs[j].addr : lo;
		y = funcs[j].end < hi ? funcs[j].end : hi;
		if (x > cursor)
			add_unknown(a, gaps, j, cursor, x,
				    c * (double)(x - cursor) / w);
		if (y > x)
			a->counts[j] += c * (double)(y - x) / w;
		if (y > cursor)
			cursor = y;
	}
	if (cursor < hi)
		add_unknown(a, gaps, j, cursor, hi,
			    c * (double)(hi - cursor) / w);
}

struct spread_ctx {
	struct attrib *a;
	struct attrib_gap *gaps;
	const struct sym_func *funcs;
	size_t n;
};

static int spread_each(void *ctx, uint64_t lo, uint64_t hi, uint64_t count)
{
	struct spread_ctx *x = ctx;

	spread_bin(x->a, x->gaps, x->funcs, x->n, lo, hi, (double)count);
	return 0;
}

/* Keeps the gaps with samples, in order, in @a. */
static void keep_gaps(struct attrib *a, struct attrib_gap *gaps, size_t n)
{
	size_t k;

	a->gaps = gaps;
	for (k = 0; k < n; k++) {
		if (gaps[k].count <= 0)
			continue;
		gaps[k].next = k;
		gaps[a->ngaps++] = gaps[k];
	}
}

int attrib_funcs(struct attrib *a, const struct hist *h,
		 const struct sym_func *funcs, size_t nfuncs)
{
	struct spread_ctx x = { a, NULL, funcs, nfuncs };
	const struct sym_func *f;
	struct attrib_gap *gaps;
	size_t i;

	memset(a, 0, sizeof(*a));
	a->counts = calloc(nfuncs + 1, sizeof(*a->counts));
	a->calls = calloc(nfuncs + 1, sizeof(*a->calls));
	gaps = calloc(nfuncs + 1, sizeof(*gaps));
	if (!a->counts || !a->calls || !gaps) {
		free(gaps);
		attrib_free(a);
		errno = ENOMEM;
		return -1;
	}
	x.gaps = gaps;
	hist_each_bin(h, spread_each, &x);
	keep_gaps(a, gaps, nfuncs + 1);
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
	free(a->gaps);
	memset(a, 0, sizeof(*a));
}
