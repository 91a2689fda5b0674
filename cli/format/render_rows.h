/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Internal to render(): the rows render.c builds from a struct hist (one
 * model for every view), and the writers that print them, one file per
 * format: render_text.c, render_csv.c, render_json.c. Nothing outside
 * format/render*.c includes this; the public interface is render.h.
 */
#ifndef PROFIL_CTL_RENDER_ROWS_H
#define PROFIL_CTL_RENDER_ROWS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "attrib.h"
#include "hist.h"
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

/* The rows of one render() call, and what its summary rows need. */
struct rows {
	struct row *v;
	size_t n;
	double total;		/* every sample, [unknown] included */
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

/* The name of the row of samples in no function (and of a bin in none). */
static inline const char *unknown_name(const struct rows *r)
{
	return r->part->unknown ? r->part->unknown : "[unknown]";
}

/* The uncovered row is shown when there are some, or with -a. */
static inline bool show_uncovered(const struct rows *r,
				  const struct render_opts *o)
{
	return r->part->uncovered_name && (r->part->uncovered || o->all);
}

/* @c as a percentage of what percentages are of (0 if that is 0). */
static inline double pct(const struct rows *r, double c)
{
	return r->denom > 0 ? 100.0 * c / r->denom : 0.0;
}

/*
 * The writers: @r's rows in @o->view, then the summary rows.
 * rows_write_text() - the table, after "# @note" when @note is not NULL
 * rows_write_csv() - a header line if @r->part asks for it, then a line
 *	per row
 * rows_write_json() - one object; @reason: why it is empty, or NULL;
 *	@s: names the call arcs' functions
 */
void rows_write_text(FILE *out, const struct rows *r, const struct hist *h,
		     const struct render_opts *o, const char *note);
void rows_write_csv(FILE *out, const struct rows *r, const struct hist *h,
		    const struct render_opts *o);
void rows_write_json(FILE *out, const struct rows *r, const struct hist *h,
		     const struct render_syms *s, const struct render_opts *o,
		     const char *reason);

#endif /* PROFIL_CTL_RENDER_ROWS_H */
