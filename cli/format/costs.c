// SPDX-License-Identifier: GPL-2.0
/*
 * A profile's functions, lines and arcs (costs.h): each object's bins
 * and arcs charged to its functions and source lines, then the rows of
 * every object in one array, sorted and merged.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "attrib.h"
#include "costs.h"

#define NONE ((size_t)-1)

/* One more element of @size at the end of *@v, of *@n (doubling). */
static void *grow(void **v, size_t *n, size_t size)
{
	void *nv;

	if (!*v || !(*n & (*n + 1))) {
		nv = realloc(*v, (2 * *n + 2) * size);
		if (!nv)
			return NULL;
		*v = nv;
	}
	return (char *)*v + (*n)++ * size;
}

/*
 * One object while it is charged. Its functions have local indices:
 * 0..nfuncs-1 its symbols, nfuncs [unknown], nfuncs + 1 [not covered].
 */
struct obj {
	struct costs *c;
	const struct profile_count *cnt;
	struct symtab *st;
	const struct sym_func *funcs;
	size_t nfuncs;
	struct attrib a;
	uint64_t *lself;	/* samples of each local function's lines */
	uint64_t *calls;	/* calls to each */
	bool *caller;		/* is the caller of an arc */
	size_t *map;		/* local index to costs.funcs' */
	size_t line0, arc0;	/* the object's first line and arc */
};

static size_t local_of(const struct obj *o, uint64_t addr)
{
	const struct sym_func *f = sym_func_find(o->funcs, o->nfuncs, addr);

	return f ? (size_t)(f - o->funcs) : o->nfuncs;
}

static void line_of(const struct obj *o, uint64_t addr, const char **file,
		    unsigned int *line)
{
	struct sym_line l;

	*file = NULL;
	*line = 0;
	if (o->st && !symtab_src(o->st, addr, &l)) {
		*file = l.file;
		*line = l.line;
	}
}

/* Every bin with samples to the line and function of its first address. */
static int charge_bins(struct obj *o)
{
	const struct hist *h = &o->cnt->hist;
	struct cost_line *cl;
	uint64_t lo, hi;
	size_t r, i;

	for (r = 0; r < h->nranges; r++) {
		for (i = 0; i < h->ranges[r].nbins; i++) {
			if (!h->ranges[r].bins[i])
				continue;
			hist_bin_range(&h->ranges[r], i, &lo, &hi);
			cl = grow((void **)&o->c->lines, &o->c->nlines,
				  sizeof(*cl));
			if (!cl)
				return -1;
			cl->func = local_of(o, lo);
			cl->count = h->ranges[r].bins[i];
			cl->addr = lo;
			line_of(o, lo, &cl->file, &cl->line);
			o->lself[cl->func] += cl->count;
		}
	}
	return 0;
}

/*
 * The arcs: from_pc is the return address, so the call is the line of
 * the byte before it; glibc rounds it down (its HASHFRACTION), maybe to
 * the caller's entry, whose line is then taken.
 */
static int charge_arcs(struct obj *o)
{
	const struct hist *h = &o->cnt->hist;
	struct cost_arc *ca;
	uint64_t from;
	size_t i;

	for (i = 0; i < h->narcs; i++) {
		ca = grow((void **)&o->c->arcs, &o->c->narcs, sizeof(*ca));
		if (!ca)
			return -1;
		ca->caller = local_of(o, h->arcs[i].from_pc);
		ca->callee = local_of(o, h->arcs[i].self_pc);
		ca->count = h->arcs[i].count;
		from = h->arcs[i].from_pc;
		if (ca->caller == o->nfuncs || from > o->funcs[ca->caller].addr)
			from--;
		line_of(o, from, &ca->file, &ca->line);
		o->calls[ca->callee] += ca->count;
		o->caller[ca->caller] = true;
	}
	return 0;
}

static bool used(const struct obj *o, size_t k)
{
	if (k == o->nfuncs + 1)
		return o->cnt->uncovered > 0;
	if (o->lself[k] || o->calls[k] || o->caller[k])
		return true;
	return k < o->nfuncs ? o->a.counts[k] > 0 : o->a.unknown > 1e-6;
}

/* The functions of the object with samples or calls, in costs.funcs. */
static int add_funcs(struct obj *o)
{
	struct cost_func *cf;
	size_t k;

	for (k = 0; k < o->nfuncs + 2; k++) {
		o->map[k] = NONE;
		if (!used(o, k))
			continue;
		o->map[k] = o->c->nfuncs;
		cf = grow((void **)&o->c->funcs, &o->c->nfuncs, sizeof(*cf));
		if (!cf)
			return -1;
		memset(cf, 0, sizeof(*cf));
		cf->object = o->cnt->object;
		cf->lines_self = o->lself[k];
		cf->calls = o->calls[k];
		if (k < o->nfuncs) {
			cf->kind = COST_FUNC;
			cf->name = o->funcs[k].name;
			cf->addr = o->funcs[k].addr;
			cf->self = o->a.counts[k];
			line_of(o, cf->addr, &cf->file, &cf->line);
		} else if (k == o->nfuncs) {
			cf->kind = COST_UNKNOWN;
			cf->name = PROFILE_UNKNOWN_ROW;
			cf->self = o->a.unknown > 1e-6 ? o->a.unknown : 0;
		} else {
			cf->kind = COST_UNCOVERED;
			cf->name = PROFILE_UNCOVERED_ROW;
			cf->self = (double)o->cnt->uncovered;
		}
	}
	for (k = o->line0; k < o->c->nlines; k++)
		o->c->lines[k].func = o->map[o->c->lines[k].func];
	for (k = o->arc0; k < o->c->narcs; k++) {
		o->c->arcs[k].caller = o->map[o->c->arcs[k].caller];
		o->c->arcs[k].callee = o->map[o->c->arcs[k].callee];
	}
	return 0;
}

static int charge_object(struct costs *c, const struct profile_count *cnt,
			 const struct profile_syms *ps)
{
	struct obj o = { .c = c, .cnt = cnt, .st = ps->st };
	size_t n;
	int ret = -1;

	if (o.st)
		o.funcs = symtab_funcs(o.st, &o.nfuncs);
	n = o.nfuncs + 2;
	o.lself = calloc(n, sizeof(*o.lself));
	o.calls = calloc(n, sizeof(*o.calls));
	o.caller = calloc(n, sizeof(*o.caller));
	o.map = calloc(n, sizeof(*o.map));
	o.line0 = c->nlines;
	o.arc0 = c->narcs;
	if (!o.lself || !o.calls || !o.caller || !o.map ||
	    attrib_funcs(&o.a, &cnt->hist, o.funcs, o.nfuncs))
		goto out;
	if (!charge_bins(&o) && !charge_arcs(&o) && !add_funcs(&o))
		ret = 0;
out:
	attrib_free(&o.a);
	free(o.lself);
	free(o.calls);
	free(o.caller);
	free(o.map);
	return ret;
}

/* Files compared by name; no file (NULL) after every file. */
static int cmp_file(const char *x, const char *y)
{
	if (!x || !y)
		return !!y - !!x;
	return strcmp(x, y);
}

static int cmp_line(const void *a, const void *b)
{
	const struct cost_line *x = a, *y = b;
	int d;

	if (x->func != y->func)
		return x->func < y->func ? -1 : 1;
	d = cmp_file(x->file, y->file);
	if (d)
		return d;
	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static int cmp_arc(const void *a, const void *b)
{
	const struct cost_arc *x = a, *y = b;
	int d;

	if (x->caller != y->caller)
		return x->caller < y->caller ? -1 : 1;
	d = cmp_file(x->file, y->file);
	if (d)
		return d;
	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	return x->callee < y->callee ? -1 : x->callee > y->callee;
}

/* Sorts the lines and arcs and merges equal keys (lines: lowest addr). */
static void merge(struct costs *c)
{
	size_t i, j;

	if (c->nlines > 1)
		qsort(c->lines, c->nlines, sizeof(*c->lines), cmp_line);
	for (i = 0, j = 0; i < c->nlines; i++) {
		struct cost_line *p = j ? &c->lines[j - 1] : NULL;

		if (p && p->func == c->lines[i].func &&
		    !cmp_file(p->file, c->lines[i].file) &&
		    p->line == c->lines[i].line)
			p->count += c->lines[i].count;
		else
			c->lines[j++] = c->lines[i];
	}
	c->nlines = j;
	if (c->narcs > 1)
		qsort(c->arcs, c->narcs, sizeof(*c->arcs), cmp_arc);
	for (i = 0, j = 0; i < c->narcs; i++) {
		struct cost_arc *p = j ? &c->arcs[j - 1] : NULL;
		const struct cost_arc *a = &c->arcs[i];

		if (p && p->caller == a->caller && p->callee == a->callee &&
		    !cmp_file(p->file, a->file) && p->line == a->line)
			p->count += a->count;
		else
			c->arcs[j++] = *a;
	}
	c->narcs = j;
	/* A function without a line at its entry: its first line's file. */
	for (i = 0; i < c->nlines; i++) {
		struct cost_func *f = &c->funcs[c->lines[i].func];

		if (!f->file && c->lines[i].file)
			f->file = c->lines[i].file;
	}
}

int costs_build(struct costs *c, const struct profile *p,
		const struct profile_syms *syms)
{
	static const struct profile_syms none;
	size_t i;

	memset(c, 0, sizeof(*c));
	for (i = 0; i < p->ncounts; i++) {
		size_t k = p->counts[i].object;

		if (charge_object(c, &p->counts[i], k < p->nobjects ?
				  &syms[k] : &none)) {
			costs_free(c);
			errno = ENOMEM;
			return -1;
		}
	}
	merge(c);
	c->total = profile_total(p);
	return 0;
}

void costs_free(struct costs *c)
{
	free(c->funcs);
	free(c->lines);
	free(c->arcs);
	memset(c, 0, sizeof(*c));
}

int costs_hist_profile(struct profile *p, const struct hist *h,
		       const char *binary, const char *build_id)
{
	/* A view of @h that profile_merge_processes() copies: read only. */
	struct profile_object obj = {
		.path = (char *)(binary ? binary : "[unknown binary]"),
		.build_id = (char *)build_id,
	};
	struct profile_count cnt = {
		.process = PROFILE_ALL_PROCESSES, .object = 0, .hist = *h,
	};
	struct profile src = {
		.rate = h->rate, .objects = &obj, .nobjects = 1,
		.counts = &cnt, .ncounts = 1,
	};

	cnt.hist.binary = NULL;
	if (h->nranges && h->ranges[0].nbins)
		src.bin_bytes = (h->ranges[0].high_pc - h->ranges[0].low_pc) /
				h->ranges[0].nbins;
	profile_acct_unknown(&src.acct);
	return profile_merge_processes(&src, p);
}
