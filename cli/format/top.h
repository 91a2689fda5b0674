/* SPDX-License-Identifier: GPL-2.0 */
/*
 * profil-ctl top's display: one frame per interval, drawn on a terminal
 * with plain ANSI sequences (cursor home, erase to the end of the line
 * and of the screen) or written as plain text when standard output is
 * not a terminal. Pure: the renderers write the frame they are given to
 * the FILE given, and nothing else.
 */
#ifndef PROFIL_CTL_TOP_H
#define PROFIL_CTL_TOP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/**
 * struct top_row - one function, or one object, of a frame
 * @name: the function ("[unknown]": outside every function's bounds;
 *	"[uncovered]": counted before the object had a region), or the
 *	object for an object row
 * @object: the object's base name (function rows)
 * @interval: samples in the last interval
 * @total: samples since top started
 */
struct top_row {
	const char *name;
	const char *object;
	double interval;
	double total;
};

/**
 * struct top_frame - what one refresh shows
 * @target: what is profiled ("pid 123 (comm)", "cmd ARGV0")
 * @rate: the sampling rate, Hz of CPU time
 * @elapsed: seconds since top started
 * @seconds: the interval's length, seconds
 * @live: processes profiled now
 * @interval, @total: user samples in the interval, since the start
 * @funcs, @nfuncs: functions, highest @interval first (then @total)
 * @objects, @nobjects: objects, in the same order
 * @notes, @nnotes: what happened in the interval, one line each (a
 *	region added, a process started or ended)
 * @end: the last frame: the program has ended, or top was told to stop
 */
struct top_frame {
	const char *target;
	uint32_t rate;
	double elapsed;
	double seconds;
	unsigned int live;
	double interval;
	double total;
	const struct top_row *funcs;
	size_t nfuncs;
	const struct top_row *objects;
	size_t nobjects;
	const char *const *notes;
	size_t nnotes;
	bool end;
};

/* Rows of plain output per frame, and objects shown on a terminal. */
#define TOP_PLAIN_FUNCS		20
#define TOP_SCREEN_OBJECTS	5

/**
 * top_render_screen() - @fr on a terminal of @cols columns and @lines
 * lines: from the top-left corner, each line cut to @cols and erased to
 * its end, as many functions as fit, the rest of the screen erased
 */
void top_render_screen(FILE *f, const struct top_frame *fr, int cols,
		       int lines);

/**
 * top_render_plain() - @fr as plain text: a header line, the notes, the
 * objects and up to @max_funcs functions, then an empty line
 */
void top_render_plain(FILE *f, const struct top_frame *fr, size_t max_funcs);

#endif /* PROFIL_CTL_TOP_H */
