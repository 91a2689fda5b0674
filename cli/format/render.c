// SPDX-License-Identifier: GPL-2.0
/*
 * Renderers of struct hist (see render.h). Rows are built first, the
 * same for every format, then sorted, then written.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "attrib.h"
#include "render.h"

/* One output row of any view. */
struct row {
	const char *name;	/* function; source file in the line view */
	const char *func;	/* line and bin views: function, or NULL */
	unsigned int line;	/* line view */
	uint64_t addr, end;	/* bounds, or first bin's, or the bin's */
	double count;
	uint64_t calls;
};

struct rows {
	struct row *v;
	size_t n;
	double total;		/* every sample, *unknown* included */
	double htotal;		/* the histogram's samples: not uncovered */
	double denom;		/* what percentages are of */
	double unknown;		/* samples no row holds */
	size_t nhidden;		/* rows --top, --percent-limit left out */
	double hidden;		/* their samples */
	uint64_t bytes;		/* bytes the histogram covers */
	bool has_calls;
	struct attrib attrib;	/* the function view's: its unknown gaps */
	const struct render_syms *syms;
	const struct render_part *part;	/* render_part()'s, or a default */
};

static const char *unknown_name(const struct rows *r)
{
	return r->part->unknown ? r->part->unknown : "*unknown*";
}

/* The uncovered row is shown when there are some, or with -a. */
static bool show_uncovered(const struct rows *r, const struct render_opts *o)
{
	return r->part->uncovered_name && (r->part->uncovered || o->all);
}

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
		if (!row.func) {
			f = sym_func_find(s->funcs, s->nfuncs, row.addr);
			row.func = f ? f->name : NULL;
		}
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

static double pct(const struct rows *r, double c)
{
	return r->denom > 0 ? 100.0 * c / r->denom : 0.0;
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

/* The text views' line for the rows left out. */
static void text_hidden(FILE *out, const struct rows *r)
{
	if (!r->nhidden)
		return;
	fprintf(out, "# %zu more row%s (--top, --percent-limit): count ",
		r->nhidden, r->nhidden == 1 ? "" : "s");
	render_put_count(out, 0, r->hidden);
	fprintf(out, ", %.2f%%\n", pct(r, r->hidden));
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

static void put_seconds(FILE *out, int width, const struct hist *h,
			double c)
{
	if (h->rate)
		fprintf(out, "%*.3f", width, c / h->rate);
	else
		fprintf(out, "%*s", width, "-");
}

static void text_func_row(FILE *out, const struct rows *r,
			  const struct hist *h, const struct render_opts *o,
			  const char *name, const struct row *row, double c,
			  double load)
{
	if (o->verbose) {
		if (row)
			fprintf(out, "%016" PRIx64 " %8" PRIu64 " ", row->addr,
				row->end - row->addr);
		else
			fprintf(out, "%16s %8s ", "", "");
	}
	render_put_count(out, 9, c);
	fprintf(out, " %6.2f ", pct(r, c));
	put_seconds(out, 9, h, c);
	if (r->has_calls) {
		if (row && row->calls)
			fprintf(out, " %9" PRIu64, row->calls);
		else
			fprintf(out, " %9s", "");
	}
	if (load >= 0)
		fprintf(out, "  %-32s %9.4f\n", name, load);
	else
		fprintf(out, "  %s\n", name);
}

/* Where an unknown gap is: after the function gprof would charge. */
static void gap_label(FILE *out, const struct rows *r,
		      const struct attrib_gap *g)
{
	const struct render_syms *s = r->syms;

	if (g->next)
		fprintf(out, "after %s+%#" PRIx64, s->funcs[g->next - 1].name,
			g->lo - s->funcs[g->next - 1].addr);
	else if (s->nfuncs)
		fprintf(out, "before %s", s->funcs[0].name);
	else
		fputs("no function symbols", out);
}

/* -v: one row per gap between functions with unknown samples. */
static void text_gaps(FILE *out, const struct rows *r, const struct hist *h,
		      const struct render_opts *o)
{
	const struct attrib_gap *g;
	char *name = NULL;
	size_t i, len;
	FILE *mem;

	for (i = 0; i < r->attrib.ngaps; i++) {
		g = &r->attrib.gaps[i];
		mem = open_memstream(&name, &len);
		if (!mem)
			return;
		fputs("  ", mem);
		gap_label(mem, r, g);
		if (fclose(mem))
			return;
		text_func_row(out, r, h, o, name, &(struct row){
			.addr = g->lo, .end = g->hi }, g->count, -1);
		free(name);
		name = NULL;
	}
}

static void text_funcs(FILE *out, const struct rows *r, const struct hist *h,
		       const struct render_opts *o)
{
	size_t i;

	if (o->verbose)
		fprintf(out, "%-16s %8s ", "address", "size");
	fprintf(out, "%9s %6s %9s", "count", "%", "seconds");
	if (r->has_calls)
		fprintf(out, " %9s", "calls");
	fprintf(out, "  %-32s %9s\n", "function", "load");
	for (i = 0; i < r->n; i++)
		text_func_row(out, r, h, o, r->v[i].name, &r->v[i],
			      r->v[i].count, r->v[i].end > r->v[i].addr ?
			      r->v[i].count /
			      (double)(r->v[i].end - r->v[i].addr) : 0);
	text_hidden(out, r);
	if (r->unknown > 0 || o->all)
		text_func_row(out, r, h, o, unknown_name(r), NULL, r->unknown,
			      -1);
	if (o->verbose)
		text_gaps(out, r, h, o);
	if (show_uncovered(r, o))
		text_func_row(out, r, h, o, r->part->uncovered_name, NULL,
			      (double)r->part->uncovered, -1);
	text_func_row(out, r, h, o, "total", NULL, r->total,
		      r->bytes ? r->total / (double)r->bytes : 0);
	if (o->gprof && r->attrib.gprof_preceding > 0) {
		fputs("# gprof would charge ", out);
		render_put_count(out, 0, r->attrib.gprof_preceding);
		fprintf(out, " of the %s samples (%.2f%%) to the "
			"function whose entry precedes them%s\n",
			unknown_name(r), pct(r, r->attrib.gprof_preceding),
			o->verbose ? "" : " (-v: where)");
	}
}

/* One line of the line view: @row's file:line, or @name's summary row. */
static void text_line_row(FILE *out, const struct rows *r,
			  const struct hist *h, const struct render_opts *o,
			  const char *name, const struct row *row, double c)
{
	if (o->verbose && row)
		fprintf(out, "%016" PRIx64 " ", row->addr);
	else if (o->verbose)
		fprintf(out, "%16s ", "");
	render_put_count(out, 9, c);
	fprintf(out, " %6.2f ", pct(r, c));
	put_seconds(out, 9, h, c);
	if (!row)
		fprintf(out, "  %s\n", name);
	else if (row->func)
		fprintf(out, "  %s:%u (%s)\n", row->name, row->line, row->func);
	else
		fprintf(out, "  %s:%u\n", row->name, row->line);
}

static void text_lines(FILE *out, const struct rows *r, const struct hist *h,
		       const struct render_opts *o)
{
	size_t i;

	if (o->verbose)
		fprintf(out, "%-16s ", "address");
	fprintf(out, "%9s %6s %9s  %s\n", "count", "%", "seconds",
		"file:line (function)");
	for (i = 0; i < r->n; i++)
		text_line_row(out, r, h, o, NULL, &r->v[i], r->v[i].count);
	text_hidden(out, r);
	if (r->unknown > 0 || o->all)
		text_line_row(out, r, h, o, unknown_name(r), NULL, r->unknown);
	if (show_uncovered(r, o))
		text_line_row(out, r, h, o, r->part->uncovered_name, NULL,
			      (double)r->part->uncovered);
	text_line_row(out, r, h, o, "total", NULL, r->total);
}

static void text_bins(FILE *out, const struct rows *r,
		      const struct render_opts *o)
{
	size_t i;

	fprintf(out, "%-16s %-16s %9s  %s\n", "low", "high", "count",
		"function+offset");
	for (i = 0; i < r->n; i++) {
		fprintf(out, "%016" PRIx64 " %016" PRIx64 " ", r->v[i].addr,
			r->v[i].end);
		render_put_count(out, 9, r->v[i].count);
		if (r->v[i].func)
			fprintf(out, "  %s+%#x\n", r->v[i].func, r->v[i].line);
		else
			fprintf(out, "  %s\n", unknown_name(r));
	}
	text_hidden(out, r);
	if (show_uncovered(r, o)) {
		fprintf(out, "%33s ", "");
		render_put_count(out, 9, (double)r->part->uncovered);
		fprintf(out, "  %s\n", r->part->uncovered_name);
	}
	fprintf(out, "%33s ", "");
	render_put_count(out, 9, r->total);
	fprintf(out, "  total\n");
}

void render_csv_str(FILE *out, const char *s)
{
	if (!s)
		return;
	if (!strpbrk(s, ",\"\r\n")) {
		fputs(s, out);
		return;
	}
	fputc('"', out);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', out);
		fputc(*s, out);
	}
	fputc('"', out);
}

static void csv_num(FILE *out, const struct rows *r, const struct hist *h,
		    double c)
{
	render_put_count(out, 0, c);
	fprintf(out, ",%.4f,", pct(r, c));
	if (h->rate)
		fprintf(out, "%.6f", c / h->rate);
}

/* A row of no address: *unknown*, the uncovered samples. */
static void csv_summary(FILE *out, const struct rows *r, const struct hist *h,
			const struct render_opts *o, const char *name,
			double c)
{
	static const char *const empty[] = {
		[RENDER_FUNCS] = ",,,", [RENDER_LINES] = ",,,,",
		[RENDER_BINS] = ",,",
	};

	if (r->part->csv_vals)
		fputs(r->part->csv_vals, out);
	if (o->view == RENDER_BINS)
		fputs(",,", out);
	render_csv_str(out, name);
	fputs(empty[o->view], out);
	csv_num(out, r, h, c);
	fputs(o->view == RENDER_FUNCS ? ",0\n" : "\n", out);
}

static void csv_header(FILE *out, const struct rows *r,
		       const struct render_opts *o)
{
	if (r->part->csv_cols)
		fputs(r->part->csv_cols, out);
	switch (o->view) {
	case RENDER_FUNCS:
		fprintf(out, "function,address,size,count,percent,seconds,"
			"calls\n");
		break;
	case RENDER_LINES:
		fprintf(out, "file,line,function,address,count,percent,"
			"seconds\n");
		break;
	case RENDER_BINS:
		fprintf(out, "low,high,function,offset,count,percent,"
			"seconds\n");
		break;
	}
}

static void csv(FILE *out, const struct rows *r, const struct hist *h,
		const struct render_opts *o)
{
	const char *vals = r->part->csv_vals ? r->part->csv_vals : "";
	size_t i;

	if (r->part->csv_header)
		csv_header(out, r, o);
	for (i = 0; i < r->n; i++) {
		const struct row *w = &r->v[i];

		fputs(vals, out);
		if (o->view == RENDER_FUNCS) {
			render_csv_str(out, w->name);
			fprintf(out, ",0x%" PRIx64 ",%" PRIu64 ",", w->addr,
				w->end - w->addr);
		} else if (o->view == RENDER_LINES) {
			render_csv_str(out, w->name);
			fprintf(out, ",%u,", w->line);
			render_csv_str(out, w->func);
			fprintf(out, ",0x%" PRIx64 ",", w->addr);
		} else {
			fprintf(out, "0x%" PRIx64 ",0x%" PRIx64 ",", w->addr,
				w->end);
			render_csv_str(out, w->func ? w->func : unknown_name(r));
			fprintf(out, ",%u,", w->func ? w->line : 0);
		}
		csv_num(out, r, h, w->count);
		if (o->view == RENDER_FUNCS)
			fprintf(out, ",%" PRIu64, w->calls);
		fputc('\n', out);
	}
	if (o->view != RENDER_BINS && (r->unknown > 0 || o->all))
		csv_summary(out, r, h, o, unknown_name(r), r->unknown);
	if (show_uncovered(r, o))
		csv_summary(out, r, h, o, r->part->uncovered_name,
			    (double)r->part->uncovered);
}

void render_json_str(FILE *out, const char *s)
{
	if (!s) {
		fputs("null", out);
		return;
	}
	fputc('"', out);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(out, "\\%c", c);
		else if (c < 0x20)
			fprintf(out, "\\u%04x", c);
		else
			fputc(c, out);
	}
	fputc('"', out);
}

static void json_num(FILE *out, const struct rows *r, const struct hist *h,
		     double c)
{
	fputs("\"count\": ", out);
	render_put_count(out, 0, c);
	fprintf(out, ", \"percent\": %.4f, \"seconds\": ", pct(r, c));
	if (h->rate)
		fprintf(out, "%.6f", c / h->rate);
	else
		fputs("null", out);
}

static void json_row(FILE *out, const struct rows *r, const struct hist *h,
		     const struct render_opts *o, const struct row *w)
{
	fputs("    {", out);
	if (o->view == RENDER_FUNCS) {
		fputs("\"function\": ", out);
		render_json_str(out, w->name);
		fprintf(out, ", \"address\": %" PRIu64 ", \"size\": %" PRIu64
			", \"calls\": %" PRIu64 ", ", w->addr,
			w->end - w->addr, w->calls);
	} else if (o->view == RENDER_LINES) {
		fputs("\"file\": ", out);
		render_json_str(out, w->name);
		fprintf(out, ", \"line\": %u, \"function\": ", w->line);
		render_json_str(out, w->func);
		fprintf(out, ", \"address\": %" PRIu64 ", ", w->addr);
	} else {
		fprintf(out, "\"low\": %" PRIu64 ", \"high\": %" PRIu64
			", \"function\": ", w->addr, w->end);
		render_json_str(out, w->func);
		fprintf(out, ", \"offset\": %u, ", w->func ? w->line : 0);
	}
	json_num(out, r, h, w->count);
	fputc('}', out);
}

/* -v: the unknown gaps, after the function gprof would charge. */
static void json_gaps(FILE *out, const struct rows *r, const struct hist *h)
{
	const struct sym_func *before;
	const struct attrib_gap *g;
	size_t i;

	fputs(", \"ranges\": [", out);
	for (i = 0; i < r->attrib.ngaps; i++) {
		g = &r->attrib.gaps[i];
		before = g->next ? &r->syms->funcs[g->next - 1] : NULL;
		fprintf(out, "%s\n    {\"low\": %" PRIu64 ", \"high\": %"
			PRIu64 ", ", i ? "," : "", g->lo, g->hi);
		json_num(out, r, h, g->count);
		fputs(", \"after\": ", out);
		render_json_str(out, before ? before->name : NULL);
		fprintf(out, ", \"offset\": %" PRIu64 "}",
			before ? g->lo - before->addr : 0);
	}
	fputs(r->attrib.ngaps ? "\n  ]" : "]", out);
}

/*
 * A -pg program's call arcs, as read: call site and callee addresses,
 * the functions holding them (null outside every function), the count.
 */
static void json_arcs(FILE *out, const struct hist *h,
		      const struct render_syms *s)
{
	const struct sym_func *from, *self;
	size_t i;

	fputs(",\n  \"arcs\": [", out);
	for (i = 0; i < h->narcs; i++) {
		from = s ? sym_func_find(s->funcs, s->nfuncs,
					 h->arcs[i].from_pc) : NULL;
		self = s ? sym_func_find(s->funcs, s->nfuncs,
					 h->arcs[i].self_pc) : NULL;
		fprintf(out, "%s\n    {\"from_pc\": %" PRIu64 ", \"self_pc\": %"
			PRIu64 ", \"caller\": ", i ? "," : "",
			h->arcs[i].from_pc, h->arcs[i].self_pc);
		render_json_str(out, from ? from->name : NULL);
		fputs(", \"callee\": ", out);
		render_json_str(out, self ? self->name : NULL);
		fprintf(out, ", \"count\": %" PRIu64 "}", h->arcs[i].count);
	}
	fputs(h->narcs ? "\n  ]" : "]", out);
}

static void json(FILE *out, const struct rows *r, const struct hist *h,
		 const struct render_syms *s, const struct render_opts *o,
		 const char *reason)
{
	static const char *const views[] = { "functions", "lines", "bins" };
	size_t i;

	fputs("{\n  ", out);
	if (r->part->json_fields)
		fputs(r->part->json_fields, out);
	fputs("\"binary\": ", out);
	render_json_str(out, h->binary);
	fprintf(out, ",\n  \"rate\": %u,\n  \"view\": \"%s\",\n  \"ranges\": "
		"[", h->rate, views[o->view]);
	for (i = 0; i < h->nranges; i++)
		fprintf(out, "%s{\"low\": %" PRIu64 ", \"high\": %" PRIu64
			", \"bins\": %zu}", i ? ", " : "",
			h->ranges[i].low_pc, h->ranges[i].high_pc,
			h->ranges[i].nbins);
	fputs("],\n  \"rows\": [", out);
	for (i = 0; i < r->n; i++) {
		fputs(i ? ",\n" : "\n", out);
		json_row(out, r, h, o, &r->v[i]);
	}
	fputs(r->n ? "\n  ],\n  \"unknown\": {" : "],\n  \"unknown\": {", out);
	json_num(out, r, h, r->unknown);
	if (o->view == RENDER_FUNCS && o->verbose)
		json_gaps(out, r, h);
	if (r->part->uncovered_name) {
		fputs("},\n  \"uncovered\": {", out);
		json_num(out, r, h, (double)r->part->uncovered);
	}
	if (r->nhidden) {
		fprintf(out, "},\n  \"hidden\": {\"rows\": %zu, ",
			r->nhidden);
		json_num(out, r, h, r->hidden);
	}
	fputs("},\n  \"total\": {", out);
	json_num(out, r, h, r->total);
	if (o->view == RENDER_FUNCS && o->gprof) {
		fputs("},\n  \"gprof_preceding\": {", out);
		json_num(out, r, h, r->attrib.gprof_preceding);
	}
	fputs("},\n  \"reason\": ", out);
	render_json_str(out, reason);
	if (h->narcs)
		json_arcs(out, h, s);
	fputs(r->part->json_fields || r->part->uncovered_name ? "\n}" :
	      "\n}\n", out);
}

/* A note on what is missing, for the text view; NULL if nothing. */
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
		snprintf(buf, len, "no function symbols (stripped binary?): "
			 "every sample is %s; -b shows addresses",
			 unknown_name(r));
		return buf;
	}
	if (o->view == RENDER_FUNCS)
		return "no sample falls in a function of the binary: is it "
		       "the program that was profiled?";
	return NULL;
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

	if (o->format == RENDER_JSON) {
		json(out, &r, h, s, o, reason ? reason : note);
	} else if (o->format == RENDER_CSV) {
		csv(out, &r, h, o);
	} else {
		if (reason || note)
			fprintf(out, "# %s\n", reason ? reason : note);
		if (o->view == RENDER_FUNCS)
			text_funcs(out, &r, h, o);
		else if (o->view == RENDER_LINES)
			text_lines(out, &r, h, o);
		else
			text_bins(out, &r, o);
	}
	free(r.v);
	attrib_free(&r.attrib);
	if (ferror(out) || fflush(out)) {
		if (!errno)
			errno = EIO;
		return -1;
	}
	return 0;
}
