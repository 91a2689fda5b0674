/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A whole-program profile as one self-contained HTML page, in the style
 * of NYTProf's nytprofhtml: a summary, a chart of the top functions, a
 * sortable function table and the source files annotated per line. No
 * network: the style, the script and the SVG chart are inline.
 *
 * The page is bounded: the limits below cap what it shows, and it says
 * so where it leaves rows out.
 */
#ifndef PROFIL_CTL_HTML_H
#define PROFIL_CTL_HTML_H

#include <stdio.h>

#include "costs.h"

#define HTML_MAX_ROWS		100	/* objects, processes */
#define HTML_MAX_FUNCS		1000	/* rows of the function table */
#define HTML_CHART_FUNCS	10	/* bars of the chart */
#define HTML_MAX_FILES		20	/* source files shown */
#define HTML_MAX_FILE_LINES	1000	/* lines shown of each */
#define HTML_CONTEXT		5	/* lines around a line with samples */
#define HTML_MAX_LINE_CHARS	160	/* bytes of each source line */
#define HTML_MAX_SOURCE		(8 << 20)	/* larger files are not read */

/**
 * render_html() - the page of @p (as collected: its processes' counts)
 * and @merged (@p with one count per object, profile_merge_processes();
 * may be @p itself) with the symbols @syms of @merged's objects, to @out
 *
 * Source files are read from the paths DWARF gives; a file that cannot
 * be read gets a note and a table of its lines with samples instead.
 *
 * Return: 0, or -1 with errno (ENOMEM, the stream's error).
 */
int render_html(FILE *out, const struct profile *p,
		const struct profile *merged, const struct profile_syms *syms);

#endif /* PROFIL_CTL_HTML_H */
