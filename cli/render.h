/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Pure renderers of a struct hist: per function, per source line, raw
 * bins; as text, CSV or JSON; and back to gmon.out. They do no I/O but
 * to the FILE given, and learn symbols only through struct render_syms,
 * so unit tests feed them fake ones.
 *
 * The function view charges samples to functions as attrib.h says; the
 * per-line view charges a whole bin to the line of its first address,
 * one row per file, line and function (inlined code names the function
 * inlined and where).
 */
#ifndef PROFIL_CTL_RENDER_H
#define PROFIL_CTL_RENDER_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "hist.h"
#include "symbols.h"

enum render_view {
	RENDER_FUNCS,		/* one row per function (readprofile) */
	RENDER_LINES,		/* one row per source file:line */
	RENDER_BINS,		/* one row per bin (readprofile -b) */
};

enum render_format {
	RENDER_TEXT,
	RENDER_CSV,
	RENDER_JSON,
};

/**
 * struct render_syms - what the renderers know of the program
 * @funcs: functions sorted by address, bounds disjoint (may be NULL)
 * @nfuncs: their number
 * @line: source line of an address: 0 and *l (a NULL l->func: the line
 *	view names the function of @funcs there), or -1; NULL if there is
 *	no line information
 * @ctx: passed to @line
 */
struct render_syms {
	const struct sym_func *funcs;
	size_t nfuncs;
	int (*line)(void *ctx, uint64_t addr, struct sym_line *l);
	void *ctx;
};

/**
 * struct render_ticks - the kernel's accounting of a live session, when
 * known: it tells why a profile is empty (a gmon.out does not keep it)
 * @ticks: all ticks of the session
 * @out_of_range: ticks whose PC fell outside the buffer's range
 * @system_dropped: ticks in kernel mode, not charged
 */
struct render_ticks {
	uint64_t ticks;
	uint64_t out_of_range;
	uint64_t system_dropped;
};

/**
 * struct render_opts - what to show
 * @view: functions, lines or bins
 * @format: text, CSV or JSON
 * @sort: by count, highest first (default: address, or file and line)
 * @all: rows with a zero count too (every function, every bin, every
 *	bin's line), and *unknown* when zero
 * @verbose: addresses (and sizes) in the text view; in the function view
 *	(text and JSON) the unknown samples' address ranges, one per gap
 *	between functions, after the function gprof would charge them to
 * @gprof: the function view says how many unknown samples gprof would
 *	charge to the function whose entry precedes them (text: a note
 *	after the table when there are any; JSON: "gprof_preceding")
 * @ticks: the kernel's accounting, or NULL
 */
struct render_opts {
	enum render_view view;
	enum render_format format;
	bool sort;
	bool all;
	bool verbose;
	bool gprof;
	const struct render_ticks *ticks;
};

/**
 * render() - write @h to @out as @o says
 * Return: 0, or -1 with errno (ENOMEM, or the stream's error).
 */
int render(FILE *out, const struct hist *h, const struct render_syms *s,
	   const struct render_opts *o);

/**
 * render_zero_reason() - why @h has no samples, in one sentence
 * Return: the sentence in @buf, or NULL if @h has samples.
 */
const char *render_zero_reason(const struct hist *h,
			       const struct render_ticks *t, char *buf,
			       size_t len);

/**
 * render_gmon() - @h as a gmon.out file gprof reads, through libprofil's
 * writer: one TIME_HIST record per range (and more where a count passes
 * 65535); arcs are not written, and pointers are the host's.
 * Return: 0, or -1 with errno (EINVAL: no range, or a range too large).
 */
int render_gmon(FILE *out, const struct hist *h);

#endif /* PROFIL_CTL_RENDER_H */
