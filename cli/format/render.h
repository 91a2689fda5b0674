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
	RENDER_PPROF,		/* export.h: not render()'s */
	RENDER_FOLDED,		/* export.h: not render()'s */
	RENDER_CALLGRIND,	/* whole profiles only: callgrind.h */
	RENDER_HTML,		/* whole profiles only: html.h */
};

/**
 * struct render_syms - what the renderers know of the program
 * @funcs: functions sorted by address, bounds disjoint (may be NULL)
 * @nfuncs: their number
 * @line: source line of an address: 0 and *l (a NULL l->func: the line
 *	view names the function of @funcs there), or -1; NULL if there is
 *	no line information
 * @ctx: passed to @line
 * @nosyms: why there are no function symbols, when no file was read
 *	(NULL: a file was, which has none: "stripped binary?")
 * @unnamed: why no sample falls in a function when there are some
 *	(NULL: "is it the program that was profiled?")
 */
struct render_syms {
	const struct sym_func *funcs;
	size_t nfuncs;
	int (*line)(void *ctx, uint64_t addr, struct sym_line *l);
	void *ctx;
	const char *nosyms;
	const char *unnamed;
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
 * @sort: by count, highest first (else: address, or file and line)
 * @all: rows with a zero count too (every function, every bin, every
 *	bin's line), and [unknown] when zero
 * @verbose: addresses (and sizes) in the text view; in the function view
 *	(text and JSON) the unknown samples' address ranges, one per gap
 *	between functions, after the function gprof would charge them to
 * @gprof: the function view says how many unknown samples gprof would
 *	charge to the function whose entry precedes them (text: a note
 *	after the table when there are any; JSON: "gprof_preceding")
 * @ticks: the kernel's accounting, or NULL
 * @top: at most this many rows, those of the highest counts (0: all);
 *	the total still counts every sample
 * @percent_limit: only rows of at least this percentage (0: all)
 *
 * Rows @top or @percent_limit leave out are counted in one line of the
 * text view ("# N more rows (--top, --percent-limit): count C, P%"), in "hidden" in JSON, and
 * nowhere in CSV.
 */
struct render_opts {
	enum render_view view;
	enum render_format format;
	bool sort;
	bool all;
	bool verbose;
	bool gprof;
	const struct render_ticks *ticks;
	size_t top;
	double percent_limit;
};

/**
 * render() - write @h to @out as @o says
 * Return: 0, or -1 with errno (ENOMEM, or the stream's error).
 */
int render(FILE *out, const struct hist *h, const struct render_syms *s,
	   const struct render_opts *o);

/**
 * struct render_part - what changes when a histogram is one part of a
 * larger report (one object of a whole-program profile, profile_report.h)
 * rather than the whole of it
 * @denom: what percentages are of (all user samples of the profile);
 *	0: the part's own total
 * @unknown: the name of the row of samples in no function, and of a
 *	bin in none ("[unknown]" if NULL)
 * @uncovered: samples known by object only, not by address: one more
 *	row named @uncovered_name (when not 0, or with @o->all), counted in
 *	the total
 * @uncovered_name: its name
 * @csv_cols: CSV: the leading columns' names, each followed by a comma
 *	("pid,comm,"), or NULL
 * @csv_vals: their values for every row, quoted and comma-terminated
 * @csv_header: CSV: write the header line
 * @json_fields: JSON: members written first in the part's object, each
 *	followed by a comma ("\"pid\": 12, "), or NULL
 *
 * JSON: the part is one object without a trailing newline, to go in an
 * array; it has an "uncovered" member. Text: the table, as render()'s.
 */
struct render_part {
	double denom;
	const char *unknown;
	uint64_t uncovered;
	const char *uncovered_name;
	const char *csv_cols;
	const char *csv_vals;
	bool csv_header;
	const char *json_fields;
};

/**
 * render_part() - render() of @h as part @part (NULL: render() itself)
 * Return: 0, or -1 with errno (ENOMEM, or the stream's error).
 */
int render_part(FILE *out, const struct hist *h, const struct render_syms *s,
		const struct render_opts *o, const struct render_part *part);

/**
 * render_collect() - the function view's rows of @h, unsorted and
 * unlimited: @fn (0, or -1 to stop) called with each function's name,
 * samples (a bin split at a function's bound in proportion, as
 * render()'s) and calls; rows without samples only with @o->all.
 * *@unknown: the samples in no function. For a list that gathers
 * several histograms' rows.
 * Return: 0, -1 with errno ENOMEM, or @fn's -1.
 */
int render_collect(const struct hist *h, const struct render_syms *s,
		   const struct render_opts *o,
		   int (*fn)(void *ctx, const char *name, double count,
			     uint64_t calls),
		   void *ctx, double *unknown);

/**
 * render_csv_str(), render_json_str() - @s quoted for a CSV field (only
 * if it needs it) or as a JSON string (NULL: nothing, null)
 */
void render_csv_str(FILE *out, const char *s);
void render_json_str(FILE *out, const char *s);

/**
 * render_put_count() - a count in @width columns: whole unless it is
 * not (a split bin's share), then with two decimals
 */
void render_put_count(FILE *out, int width, double c);

/**
 * render_put_whole() - a text view's count: whole samples, rounded,
 * unless @fractions (-v), then render_put_count()'s
 */
void render_put_whole(FILE *out, int width, double c, bool fractions);

/** render_is_split() - @c has a fraction: a split bin's share. */
bool render_is_split(double c);

/**
 * render_split_note() - the line under a text table with a split count:
 * why there are fractions (@fractions), or that counts are rounded
 */
void render_split_note(FILE *out, bool fractions);

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
 * 65535), then one CG_ARC record per arc as read (more where a count
 * passes 2^32 - 1); pointers are the host's.
 * Return: 0, or -1 with errno (EINVAL: no range, or a range too large).
 */
int render_gmon(FILE *out, const struct hist *h);

#endif /* PROFIL_CTL_RENDER_H */
