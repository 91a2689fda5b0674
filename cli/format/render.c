// SPDX-License-Identifier: GPL-2.0
/*
 * Renderers of struct hist (see render.h): the row model and render()'s
 * dispatch. Rows are built first, the same for every format, then sorted
 * and limited, then written by the format's writer (render_rows.h):
 * render_text.c, render_csv.c, render_json.c. render_gmon.c writes a
 * gmon.out instead.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "attrib.h"
#include "render_rows.h"

static int rows_add(struct rows *r, const struct row *row)
{
	struct row *nv;

	if (!(r->n & (r->n + 1)) || !r->v) {
		nv = realloc(r->v, (2 * r->n + 2) * sizeof(*nv));
		if (!nv)
			return -1;
		r->v = nv;
	}
	r->v[r->n++] = *row;
	return 0;
}

/* A walk over the bins of a hist, in address order. */
struct bin_walk {
	const struct hist *h;
	size_t range, bin;
};

/* The next bin with samples (any bin, if @all): its extent and count. */
static bool next_bin(struct bin_walk *w, bool all, uint64_t *lo,
		     uint64_t *hi, double *count)
{
	const struct hist_range *rg;

	for (; w->range < w->h->nranges; w->range++, w->bin = 0) {
		rg = &w->h->ranges[w->range];
		while (w->bin < rg->nbins) {
			if (!rg->bins[w->bin] && !all) {
				w->bin++;
				continue;
			}
			*count = (double)rg->bins[w->bin];
			hist_bin_range(rg, w->bin++, lo, hi);
			return true;
		}
	}
	return false;
}

/* --sort: unknown gaps by count too (they are in address order). */
static int cmp_gap(const void *a, const void *b)
{
	const struct attrib_gap *x = a, *y = b;

	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	return x->lo < y->lo ? -1 : x->lo > y->lo;
}

static void rows_totals(struct rows *r, const struct hist *h)
{
	size_t i;

	r->htotal = (double)hist_total(h);
	r->total = r->htotal + (double)r->part->uncovered;
	r->denom = r->part->denom > 0 ? r->part->denom : r->total;
	for (i = 0; i < h->nranges; i++)
		r->bytes += h->ranges[i].high_pc - h->ranges[i].low_pc;
}

static int build_funcs(struct rows *r, const struct hist *h,
		       const struct render_syms *s, const struct render_opts *o)
{
	struct attrib *a = &r->attrib;
	size_t i;

	if (attrib_funcs(a, h, s->funcs, s->nfuncs))
		return -1;
	r->unknown = a->unknown;
	r->has_calls = h->narcs > 0;
	for (i = 0; i < s->nfuncs; i++) {
		struct row row = {
			.name = s->funcs[i].name, .addr = s->funcs[i].addr,
			.end = s->funcs[i].end, .count = a->counts[i],
			.calls = a->calls[i],
		};

		if ((o->all || a->counts[i] > 0 || a->calls[i]) &&
		    rows_add(r, &row))
			return -1;
	}
	if (o->sort && a->ngaps > 1)
		qsort(a->gaps, a->ngaps, sizeof(*a->gaps), cmp_gap);
	return 0;
}

static int build_bins(struct rows *r, const struct hist *h,
		      const struct render_syms *s, const struct render_opts *o)
{
	struct bin_walk w = { .h = h };
	const struct sym_func *f;
	struct row row = { .name = NULL };

	while (next_bin(&w, o->all, &row.addr, &row.end, &row.count)) {
		f = sym_func_find(s->funcs, s->nfuncs, row.addr);
		row.func = f ? f->name : NULL;
		row.line = f ? (unsigned int)(row.addr - f->addr) : 0;
		if (rows_add(r, &row))
			return -1;
	}
	return 0;
}

/* Functions in the line view: NULL (none named) first. */
static int cmp_func_name(const char *x, const char *y)
{
	if (!x || !y)
		return !!x - !!y;
	return strcmp(x, y);
}

/* File, line, function (a line inlined in two places is two rows). */
static int cmp_line_key(const struct row *x, const struct row *y)
{
	int c = strcmp(x->name, y->name);

	if (c)
		return c;
	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	return cmp_func_name(x->func, y->func);
}

static int cmp_line(const void *a, const void *b)
{
	const struct row *x = a, *y = b;
	int c = cmp_line_key(x, y);

	if (c)
		return c;
	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* With @o->all, every bin's line, samples or not (zero bins only name it). */
static int build_lines(struct rows *r, const struct hist *h,
		       const struct render_syms *s, const struct render_opts *o)
{
	struct bin_walk w = { .h = h };
	const struct sym_func *f;
	struct row row = { .name = NULL };
	struct sym_line l;
	uint64_t hi;
	size_t i, j;

	while (next_bin(&w, o->all && s->line, &row.addr, &hi, &row.count)) {
		if (!s->line || s->line(s->ctx, row.addr, &l)) {
			r->unknown += row.count;
			continue;
		}
		row.name = l.file;
		row.line = l.line;
		row.func = l.func;
		/*
		 * The function view's name when DWARF names the function
		 * itself, not code inlined into it: one name for one thing
		 * (DWARF's __strxfrm_l is the symbols' strxfrm_l).
		 */
		f = sym_func_find(s->funcs, s->nfuncs, row.addr);
		if (f && (!row.func || (!(f->flags & SYM_FUNC_FDE) &&
					!strstr(row.func, " inlined at "))))
			row.func = f->name;
		if (rows_add(r, &row))
			return -1;
	}
	/* One row per file:line and function, at its lowest address. */
	if (r->n > 1)
		qsort(r->v, r->n, sizeof(*r->v), cmp_line);
	for (i = 0, j = 0; i < r->n; i++) {
		if (j && !cmp_line_key(&r->v[j - 1], &r->v[i]))
			r->v[j - 1].count += r->v[i].count;
		else
			r->v[j++] = r->v[i];
	}
	r->n = j;
	return 0;
}

static int cmp_count(const void *a, const void *b)
{
	const struct row *x = a, *y = b;

	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static int cmp_addr(const void *a, const void *b)
{
	const struct row *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/*
 * --percent-limit, then --top: the rows left out are counted in
 * @r->nhidden and @r->hidden; the others keep their order.
 */
static void rows_limit(struct rows *r, const struct render_opts *o)
{
	size_t i, j;

	for (i = 0, j = 0; o->percent_limit > 0 && i < r->n; i++) {
		if (pct(r, r->v[i].count) >= o->percent_limit) {
			r->v[j++] = r->v[i];
			continue;
		}
		r->nhidden++;
		r->hidden += r->v[i].count;
	}
	if (o->percent_limit > 0)
		r->n = j;
	if (!o->top || r->n <= o->top)
		return;
	if (!o->sort)
		qsort(r->v, r->n, sizeof(*r->v), cmp_count);
	for (i = o->top; i < r->n; i++)
		r->hidden += r->v[i].count;
	r->nhidden += r->n - o->top;
	r->n = o->top;
	if (!o->sort)
		qsort(r->v, r->n, sizeof(*r->v),
		      o->view == RENDER_LINES ? cmp_line : cmp_addr);
}

const char *render_zero_reason(const struct hist *h,
			       const struct render_ticks *t, char *buf,
			       size_t len)
{
	size_t nbins = 0, i;

	if (hist_total(h))
		return NULL;
	for (i = 0; i < h->nranges; i++)
		nbins += h->ranges[i].nbins;
	if (!h->nranges)
		snprintf(buf, len, "no histogram: the profile has no "
			 "TIME_HIST record (gprof: \"missing histogram\")");
	else if (t && !t->ticks)
		snprintf(buf, len, "no samples: the kernel counted no tick: "
			 "the process used no CPU time while profiled");
	else if (t && t->out_of_range && t->out_of_range + t->system_dropped
		 >= t->ticks)
		snprintf(buf, len, "no samples: all %" PRIu64 " user-mode "
			 "ticks fell outside the profiled range (wrong "
			 "offset or load bias?)", t->out_of_range);
	else if (t && t->system_dropped >= t->ticks)
		snprintf(buf, len, "no samples: all %" PRIu64 " ticks were in "
			 "kernel mode, which is not charged by default",
			 t->system_dropped);
	else if (!h->rate)
		snprintf(buf, len, "no samples: %zu bins, all zero, and the "
			 "rate is 0 Hz: the profiling clock never ran",
			 nbins);
	else
		snprintf(buf, len, "no samples: %zu bins, all zero: the "
			 "program used less than one tick (1/%u s) of CPU "
			 "time, or every sample fell outside the range (a "
			 "gmon.out does not count those)", nbins, h->rate);
	return buf;
}

/* Counts are whole unless a bin was split; show fractions only then. */
void render_put_count(FILE *out, int width, double c)
{
	if (c == floor(c) && c < 9007199254740992.0)
		fprintf(out, "%*.0f", width, c);
	else
		fprintf(out, "%*.2f", width, c);
}

void render_put_whole(FILE *out, int width, double c, bool fractions)
{
	if (fractions)
		render_put_count(out, width, c);
	else
		fprintf(out, "%*.0f", width, c);
}

bool render_is_split(double c)
{
	return c != floor(c);
}

void render_split_note(FILE *out, bool fractions)
{
	if (fractions)
		fputs("# fractions: a bin that straddles a function's bound is "
		      "split between the functions in proportion to its bytes\n",
		      out);
	else
		fputs("# counts rounded to whole samples: bins that straddle "
		      "a function's bound are split (-v: the fractions)\n", out);
}

/* What is missing, as the text's first line or JSON's "reason"; or NULL. */
static const char *text_note(const struct rows *r,
			     const struct render_syms *s,
			     const struct render_opts *o, char *buf,
			     size_t len)
{
	if (r->htotal <= 0 || r->unknown < r->htotal)
		return NULL;
	if (o->view == RENDER_LINES)
		return "no line information for any sample (built without "
		       "-g, or another binary?)";
	if (o->view == RENDER_FUNCS && !s->nfuncs) {
		snprintf(buf, len, "%s: every sample is %s; -b shows "
			 "addresses", s->nosyms ? s->nosyms : "no function "
			 "symbols (stripped binary?)", unknown_name(r));
		return buf;
	}
	if (o->view == RENDER_FUNCS && s->unnamed)
		return s->unnamed;
	if (o->view == RENDER_FUNCS)
		return "no sample falls in a function of the binary: is it "
		       "the program that was profiled?";
	return NULL;
}

int render_collect(const struct hist *h, const struct render_syms *s,
		   const struct render_opts *o,
		   int (*fn)(void *ctx, const char *name, double count,
			     uint64_t calls),
		   void *ctx, double *unknown)
{
	static const struct render_part whole = { .csv_header = true };
	static const struct render_syms none;
	struct rows r = { .v = NULL };
	size_t i;
	int ret;

	if (!s)
		s = &none;
	r.syms = s;
	r.part = &whole;
	rows_totals(&r, h);
	ret = build_funcs(&r, h, s, o);
	if (ret)
		errno = ENOMEM;
	for (i = 0; !ret && i < r.n; i++)
		ret = fn(ctx, r.v[i].name, r.v[i].count, r.v[i].calls);
	*unknown = fabs(r.unknown) < 1e-6 ? 0 : r.unknown;
	free(r.v);
	attrib_free(&r.attrib);
	return ret;
}

int render(FILE *out, const struct hist *h, const struct render_syms *s,
	   const struct render_opts *o)
{
	return render_part(out, h, s, o, NULL);
}

int render_part(FILE *out, const struct hist *h, const struct render_syms *s,
		const struct render_opts *o, const struct render_part *part)
{
	static const struct render_part whole = { .csv_header = true };
	static const struct render_syms none;
	struct rows r = { .v = NULL };
	const char *reason, *note;
	char why[256], nbuf[128];
	int ret;

	if (!s)
		s = &none;
	r.syms = s;
	r.part = part ? part : &whole;
	rows_totals(&r, h);
	if (o->view == RENDER_FUNCS)
		ret = build_funcs(&r, h, s, o);
	else if (o->view == RENDER_LINES)
		ret = build_lines(&r, h, s, o);
	else
		ret = build_bins(&r, h, s, o);
	if (ret) {
		free(r.v);
		attrib_free(&r.attrib);
		errno = ENOMEM;
		return -1;
	}
	/* Floating-point dust from split bins is not a sample. */
	if (fabs(r.unknown) < 1e-6)
		r.unknown = 0;
	if (fabs(r.attrib.gprof_preceding) < 1e-6)
		r.attrib.gprof_preceding = 0;
	if (o->sort && r.n > 1)
		qsort(r.v, r.n, sizeof(*r.v), cmp_count);
	rows_limit(&r, o);
	reason = r.total > 0 ? NULL :
		 render_zero_reason(h, o->ticks, why, sizeof(why));
	note = text_note(&r, s, o, nbuf, sizeof(nbuf));

	if (o->format == RENDER_JSON)
		rows_write_json(out, &r, h, s, o, reason ? reason : note);
	else if (o->format == RENDER_CSV)
		rows_write_csv(out, &r, h, o);
	else
		rows_write_text(out, &r, h, o, reason ? reason : note);
	free(r.v);
	attrib_free(&r.attrib);
	if (ferror(out) || fflush(out)) {
		if (!errno)
			errno = EIO;
		return -1;
	}
	return 0;
}
