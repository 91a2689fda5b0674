// SPDX-License-Identifier: GPL-2.0
/*
 * profil-ctl top's frames (top.h): on a terminal, or as plain text.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "top.h"

/* Lines of a frame on a terminal: cut to the width, stopped at the height. */
struct screen {
	FILE *f;
	int cols;
	int lines;
	int used;
};

static void __attribute__((format(printf, 2, 3)))
screen_line(struct screen *s, const char *fmt, ...)
{
	char buf[1024];
	size_t cut = s->cols > 0 && (size_t)s->cols < sizeof(buf) ?
		     (size_t)s->cols : sizeof(buf) - 1;
	va_list ap;

	if (s->used >= s->lines)
		return;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	buf[cut < strlen(buf) ? cut : strlen(buf)] = '\0';
	/* No newline after the last line: the screen must not scroll. */
	fprintf(s->f, "%s%s\033[K", s->used ? "\n" : "", buf);
	s->used++;
}

static double pct(double n, double of)
{
	return of > 0 ? 100.0 * n / of : 0.0;
}

static const char *plural(unsigned int n, const char *one, const char *many)
{
	return n == 1 ? one : many;
}

static double per_second(const struct top_frame *fr)
{
	return fr->seconds > 0 ? fr->interval / fr->seconds : 0.0;
}

#define TOP_ROW_FMT "%6.1f%% %8.0f  %6.1f%% %9.0f  "

static void screen_rows(struct screen *s, const struct top_frame *fr,
			const struct top_row *rows, size_t n, bool funcs)
{
	const struct top_row *r;
	size_t i;

	for (i = 0; i < n && s->used < s->lines; i++) {
		r = &rows[i];
		if (funcs)
			screen_line(s, TOP_ROW_FMT "%-20.20s  %s",
				    pct(r->interval, fr->interval), r->interval,
				    pct(r->total, fr->total), r->total,
				    r->object, r->name);
		else
			screen_line(s, TOP_ROW_FMT "%s",
				    pct(r->interval, fr->interval), r->interval,
				    pct(r->total, fr->total), r->total,
				    r->name);
	}
}

void top_render_screen(FILE *f, const struct top_frame *fr, int cols,
		       int lines)
{
	struct screen s = { .f = f, .cols = cols, .lines = lines };
	size_t i, nobj;

	fputs("\033[H", f);
	screen_line(&s, "profil-ctl top: %s  %u %s  %u Hz  %.0f s  %s",
		    fr->target, fr->live, plural(fr->live, "process",
						 "processes"),
		    fr->rate, fr->elapsed, fr->end ? "(ended)" : "q: quit");
	screen_line(&s, "%.1f samples/s  %.0f in the last %.1f s  %.0f in all",
		    per_second(fr), fr->interval, fr->seconds, fr->total);
	for (i = 0; i < fr->nnotes && i < 3; i++)
		screen_line(&s, "note: %s", fr->notes[i]);
	if (fr->nnotes > 3)
		screen_line(&s, "note: and %zu more", fr->nnotes - 3);
	screen_line(&s, "%s", "");
	screen_line(&s, "%-16s %-18s %s", "      INTERVAL", "       TOTAL",
		    "OBJECT");
	nobj = fr->nobjects < TOP_SCREEN_OBJECTS ? fr->nobjects :
	       TOP_SCREEN_OBJECTS;
	screen_rows(&s, fr, fr->objects, nobj, false);
	screen_line(&s, "%s", "");
	screen_line(&s, "%-16s %-18s %-20s  %s", "      INTERVAL",
		    "       TOTAL", "OBJECT", "FUNCTION");
	screen_rows(&s, fr, fr->funcs, fr->nfuncs, true);
	fputs("\033[J", f);
}

static void plain_rows(FILE *f, const struct top_frame *fr,
		       const struct top_row *rows, size_t n, bool funcs)
{
	size_t i;

	for (i = 0; i < n; i++) {
		fprintf(f, TOP_ROW_FMT, pct(rows[i].interval, fr->interval),
			rows[i].interval, pct(rows[i].total, fr->total),
			rows[i].total);
		if (funcs)
			fprintf(f, "%-20s  ", rows[i].object);
		fprintf(f, "%s\n", rows[i].name);
	}
}

void top_render_plain(FILE *f, const struct top_frame *fr, size_t max_funcs)
{
	size_t i;

	fprintf(f, "top%s: %s, %u %s, %u Hz, %.1f s: %.1f samples/s, %.0f "
		"in the last %.1f s, %.0f in all\n", fr->end ? " (end)" : "",
		fr->target, fr->live, plural(fr->live, "process", "processes"),
		fr->rate, fr->elapsed, per_second(fr), fr->interval,
		fr->seconds, fr->total);
	for (i = 0; i < fr->nnotes; i++)
		fprintf(f, "note: %s\n", fr->notes[i]);
	fprintf(f, "%-16s %-18s %s\n", "      INTERVAL", "       TOTAL",
		"OBJECT");
	plain_rows(f, fr, fr->objects, fr->nobjects, false);
	fprintf(f, "%-16s %-18s %-20s  %s\n", "      INTERVAL", "       TOTAL",
		"OBJECT", "FUNCTION");
	plain_rows(f, fr, fr->funcs, fr->nfuncs < max_funcs ? fr->nfuncs :
		   max_funcs, true);
	fprintf(f, "\n");
}
