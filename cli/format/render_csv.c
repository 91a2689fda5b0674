// SPDX-License-Identifier: GPL-2.0
/*
 * The CSV writer of render() (render.h): a header line, one line per
 * row, then [unknown] and the uncovered samples; and render_csv_str(),
 * the quoting the other CSV outputs share.
 */
#include <inttypes.h>
#include <string.h>

#include "render_rows.h"

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

/* A row of no address: [unknown], the uncovered samples. */
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

void rows_write_csv(FILE *out, const struct rows *r, const struct hist *h,
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
