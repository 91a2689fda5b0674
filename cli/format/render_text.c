// SPDX-License-Identifier: GPL-2.0
/*
 * The text writer of render() (render.h): a table per view, readprofile's
 * columns, then the summary rows ([unknown], uncovered, total) and the
 * notes under them.
 */
#define _GNU_SOURCE
#include <inttypes.h>
#include <stdlib.h>

#include "render_rows.h"

/* The text views' line for the rows left out. */
static void text_hidden(FILE *out, const struct rows *r)
{
	if (!r->nhidden)
		return;
	fprintf(out, "# %zu more row%s (--top, --percent-limit): count ",
		r->nhidden, r->nhidden == 1 ? "" : "s");
	render_put_whole(out, 0, r->hidden, false);
	fprintf(out, ", %.2f%%\n", pct(r, r->hidden));
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
	render_put_whole(out, 9, c, o->verbose);
	fprintf(out, " %6.2f ", pct(r, c));
	put_seconds(out, 9, h, c);
	if (r->has_calls) {
		if (row && row->calls)
			fprintf(out, " %9" PRIu64, row->calls);
		else
			fprintf(out, " %9s", "");
	}
	if (load >= 0 && o->verbose)
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
	bool split = render_is_split(r->unknown);
	size_t i;

	if (o->verbose)
		fprintf(out, "%-16s %8s ", "address", "size");
	fprintf(out, "%9s %6s %9s", "count", "%", "seconds");
	if (r->has_calls)
		fprintf(out, " %9s", "calls");
	/* load, readprofile's samples per byte: with -v, as the sizes. */
	if (o->verbose)
		fprintf(out, "  %-32s %9s\n", "function", "load");
	else
		fprintf(out, "  %s\n", "function");
	for (i = 0; i < r->n; i++)
		split |= render_is_split(r->v[i].count);
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
		render_put_whole(out, 0, r->attrib.gprof_preceding,
				 o->verbose);
		fprintf(out, " of the %s samples (%.2f%%) to the "
			"function whose entry precedes them%s\n",
			unknown_name(r), pct(r, r->attrib.gprof_preceding),
			o->verbose ? "" : " (-v: where)");
	}
	if (split)
		render_split_note(out, o->verbose);
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

void rows_write_text(FILE *out, const struct rows *r, const struct hist *h,
		     const struct render_opts *o, const char *note)
{
	if (note)
		fprintf(out, "# %s\n", note);
	if (o->view == RENDER_FUNCS)
		text_funcs(out, r, h, o);
	else if (o->view == RENDER_LINES)
		text_lines(out, r, h, o);
	else
		text_bins(out, r, o);
}
