// SPDX-License-Identifier: GPL-2.0
/*
 * The JSON writer of render() (render.h): one object per histogram with
 * its ranges, rows, summaries, the reason it is empty and the call arcs;
 * and render_json_str(), the quoting the other JSON outputs share.
 */
#include <inttypes.h>

#include "render_rows.h"

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

void rows_write_json(FILE *out, const struct rows *r, const struct hist *h,
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
