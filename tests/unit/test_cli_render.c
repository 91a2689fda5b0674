// SPDX-License-Identifier: GPL-2.0
/*
 * profil-ctl's renderers (cli/format/render.c) with fake symbols: attribution
 * (whole and split bins, [unknown], its gaps and what gprof would charge
 * instead), order, totals, --sort, -a, -v, the
 * line and bin views, CSV, JSON, the reasons for an empty profile, and
 * the gmon.out rewrite read back.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gmon_read.h"
#include "hist.h"
#include "render.h"

/*
 * Three functions and a gap: alpha [0x1000, 0x1010), beta [0x1010,
 * 0x1020), nothing in [0x1020, 0x1030), gamma [0x1030, 0x1040).
 */
static const struct sym_func funcs[] = {
	{ 0x1000, 0x1010, "alpha", 0 },
	{ 0x1010, 0x1020, "beta", 0 },
	{ 0x1030, 0x1040, "gamma", 0 },
};

static const struct render_syms syms = {
	.funcs = funcs, .nfuncs = 3,
};

/* 16 bins of 4 bytes over [0x1000, 0x1040). */
static void make_hist(struct hist *h, const uint64_t bins[16], uint32_t rate)
{
	memset(h, 0, sizeof(*h));
	h->rate = rate;
	assert_int_equal(hist_add_range(h, 0x1000, 0x1040, bins, 16), 0);
}

static char *render_str(const struct hist *h, const struct render_syms *s,
			const struct render_opts *o)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(render(f, h, s, o), 0);
	assert_int_equal(fclose(f), 0);
	return buf;
}

/* The line of @text whose function column is @name, or NULL. */
static const char *row_of(const char *text, const char *name)
{
	const char *p = text;
	size_t n = strlen(name);

	while (p && *p) {
		const char *eol = strchr(p, '\n');
		const char *q = strstr(p, name);

		if (q && (!eol || q < eol) && q > p && q[-1] == ' ' &&
		    (q[n] == ' ' || q[n] == '\n' || q[n] == '\0'))
			return p;
		p = eol ? eol + 1 : NULL;
	}
	return NULL;
}

static double count_of(const char *text, const char *name)
{
	const char *row = row_of(text, name);

	if (!row)
		fail_msg("no row for %s in:\n%s", name, text);
	return strtod(row, NULL);
}

static void test_attribution_and_order(void **state)
{
	/* alpha 1+2, beta 5, gap 7, gamma 3. */
	const uint64_t bins[16] = { 1, 0, 2, 0, 5, 0, 0, 0,
				    7, 0, 0, 0, 0, 3, 0, 0 };
	struct render_opts o = { .view = RENDER_FUNCS };
	struct hist h;
	char *out;

	(void)state;
	make_hist(&h, bins, 100);
	out = render_str(&h, &syms, &o);
	assert_true(count_of(out, "alpha") == 3);
	assert_true(count_of(out, "beta") == 5);
	assert_true(count_of(out, "gamma") == 3);
	assert_true(count_of(out, "[unknown]") == 7);
	assert_true(count_of(out, "total") == 18);
	/* Address order, then [unknown], then total. */
	assert_true(row_of(out, "alpha") < row_of(out, "beta"));
	assert_true(row_of(out, "beta") < row_of(out, "gamma"));
	assert_true(row_of(out, "gamma") < row_of(out, "[unknown]"));
	assert_true(row_of(out, "[unknown]") < row_of(out, "total"));
	/* count, %, seconds at 100 Hz, name; no load without -v. */
	assert_non_null(strstr(out, "        5  27.78     0.050  beta\n"));
	assert_null(strstr(out, "load"));
	free(out);
	/* -v: load = count / 16 bytes, after the name. */
	o.verbose = true;
	out = render_str(&h, &syms, &o);
	assert_non_null(strstr(out, "   0.3125\n"));
	o.verbose = false;
	free(out);
	hist_free(&h);
}

static void test_sort_all_verbose(void **state)
{
	const uint64_t bins[16] = { 1, 0, 0, 0, 5, 0, 0, 0,
				    0, 0, 0, 0, 9, 0, 0, 0 };
	struct render_opts o = { .view = RENDER_FUNCS, .sort = true };
	struct hist h;
	char *out;

	(void)state;
	make_hist(&h, bins, 100);
	out = render_str(&h, &syms, &o);
	assert_true(row_of(out, "gamma") < row_of(out, "beta"));
	assert_true(row_of(out, "beta") < row_of(out, "alpha"));
	free(out);

	/* beta without samples: only -a shows it. */
	h.ranges[0].bins[4] = 0;
	o = (struct render_opts){ .view = RENDER_FUNCS };
	out = render_str(&h, &syms, &o);
	assert_null(row_of(out, "beta"));
	assert_null(row_of(out, "[unknown]"));
	free(out);
	o.all = true;
	out = render_str(&h, &syms, &o);
	assert_true(count_of(out, "beta") == 0);
	assert_true(count_of(out, "[unknown]") == 0);
	free(out);
	/* -v: address and size first. */
	o.verbose = true;
	out = render_str(&h, &syms, &o);
	assert_non_null(strstr(out, "0000000000001010       16         0"));
	free(out);
	hist_free(&h);
}

/* A bin over two functions is split by overlap, as gprof does. */
static void test_split_bin(void **state)
{
	static const struct sym_func odd[] = {
		{ 0x1000, 0x1002, "left", 0 },
		{ 0x1002, 0x1006, "right", 0 },
	};
	const struct render_syms s = { .funcs = odd, .nfuncs = 2 };
	const uint64_t bins[2] = { 4, 8 };	/* [0x1000,4) [0x1004,8) */
	struct render_opts o = { .view = RENDER_FUNCS };
	struct hist h = { .rate = 10 };
	char *out;

	(void)state;
	assert_int_equal(hist_add_range(&h, 0x1000, 0x1008, bins, 2), 0);
	out = render_str(&h, &s, &o);
	/* left: half of bin 0; right: half of bin 0, half of bin 1. */
	assert_true(count_of(out, "left") == 2);
	assert_true(count_of(out, "right") == 2 + 4);
	assert_true(count_of(out, "[unknown]") == 4);
	assert_true(count_of(out, "total") == 12);
	free(out);
	/* -v: the unknown half of bin 1, after right's bounds. */
	o.verbose = true;
	out = render_str(&h, &s, &o);
	assert_non_null(strstr(out, "0000000000001006        2         4  "
				    "33.33     0.400    after right+0x4\n"));
	free(out);
	hist_free(&h);
}

/*
 * The text shows whole samples: a bin split across a function's bound
 * gives fractions, rounded without -v and said so; -v shows them and
 * says why.
 */
static void test_whole_counts(void **state)
{
	static const struct sym_func odd[] = {
		{ 0x1000, 0x1002, "left", 0 },
		{ 0x1002, 0x1006, "right", 0 },
	};
	const struct render_syms s = { .funcs = odd, .nfuncs = 2 };
	const uint64_t bins[2] = { 5, 8 };	/* left 2.5, right 6.5 */
	struct render_opts o = { .view = RENDER_FUNCS, .sort = true };
	struct hist h = { .rate = 10 };
	char *out;

	(void)state;
	assert_int_equal(hist_add_range(&h, 0x1000, 0x1008, bins, 2), 0);
	out = render_str(&h, &s, &o);
	assert_non_null(strstr(out, "        6  50.00     0.650  right\n"));
	assert_non_null(strstr(out, "        2  19.23     0.250  left\n"));
	assert_non_null(strstr(out, "# counts rounded to whole samples: bins "
				    "that straddle a function's bound are "
				    "split (-v: the fractions)\n"));
	free(out);
	o.verbose = true;
	out = render_str(&h, &s, &o);
	assert_non_null(strstr(out, "     6.50  50.00     0.650  right "));
	assert_non_null(strstr(out, "# fractions: a bin that straddles a "
				    "function's bound is split"));
	free(out);
	hist_free(&h);
}

/*
 * Unknown samples by gap (-v), named after the function gprof would
 * charge: before alpha (nothing precedes: not gprof's), in [0x1020,
 * 0x1030) after beta, past gamma. --sort orders the gaps by count too;
 * the gprof note counts all but the first.
 */
static void test_unknown_gaps(void **state)
{
	const uint64_t bins[8] = { 1, 0, 0, 0, 0, 0, 0, 0 };
	const uint64_t more[16] = { 0, 0, 0, 0, 0, 0, 0, 0,
				    3, 0, 4, 0, 0, 0, 0, 0 };
	const uint64_t tail[2] = { 8, 2 };
	struct render_opts o = { .view = RENDER_FUNCS, .verbose = true,
				 .gprof = true };
	struct hist h = { .rate = 100 };
	char *out;

	(void)state;
	/* 1 at [0xfe0, 0xfe4); 3 + 4 in the gap; 8 + 2 past gamma. */
	assert_int_equal(hist_add_range(&h, 0xfe0, 0x1000, bins, 8), 0);
	assert_int_equal(hist_add_range(&h, 0x1000, 0x1040, more, 16), 0);
	assert_int_equal(hist_add_range(&h, 0x1040, 0x1048, tail, 2), 0);
	out = render_str(&h, &syms, &o);
	assert_true(count_of(out, "[unknown]") == 1 + 7 + 10);
	assert_non_null(strstr(out, "0000000000000fe0        4         1   "
				    "5.56     0.010    before alpha\n"));
	assert_non_null(strstr(out, "0000000000001020       12         7  "
				    "38.89     0.070    after beta+0x10\n"));
	assert_non_null(strstr(out, "0000000000001040        8        10  "
				    "55.56     0.100    after gamma+0x10\n"));
	assert_non_null(strstr(out, "# gprof would charge 17 of the "
				    "[unknown] samples (94.44%) to the "
				    "function whose entry precedes them\n"));
	/* Address order, after [unknown], before total. */
	assert_true(row_of(out, "[unknown]") < strstr(out, "before alpha"));
	assert_true(strstr(out, "before alpha") < strstr(out, "after beta"));
	assert_true(strstr(out, "after gamma") < row_of(out, "total"));
	free(out);

	o.sort = true;
	out = render_str(&h, &syms, &o);
	assert_true(strstr(out, "after gamma") < strstr(out, "after beta"));
	assert_true(strstr(out, "after beta") < strstr(out, "before alpha"));
	free(out);

	/* Without -v: the sum only; the note says where to look. */
	o = (struct render_opts){ .view = RENDER_FUNCS, .gprof = true };
	out = render_str(&h, &syms, &o);
	assert_null(strstr(out, "after beta"));
	assert_non_null(strstr(out, "precedes them (-v: where)\n"));
	free(out);
	/* Not report's: no note. */
	o.gprof = false;
	out = render_str(&h, &syms, &o);
	assert_null(strstr(out, "gprof"));
	free(out);

	o = (struct render_opts){ .view = RENDER_FUNCS, .verbose = true,
				  .gprof = true, .format = RENDER_JSON };
	out = render_str(&h, &syms, &o);
	assert_non_null(strstr(out,
		"  \"unknown\": {\"count\": 18, \"percent\": 100.0000, "
		"\"seconds\": 0.180000, \"ranges\": [\n"
		"    {\"low\": 4064, \"high\": 4068, \"count\": 1, "
		"\"percent\": 5.5556, \"seconds\": 0.010000, \"after\": "
		"null, \"offset\": 0},\n"
		"    {\"low\": 4128, \"high\": 4140, \"count\": 7, "));
	assert_non_null(strstr(out, "\"after\": \"beta\", \"offset\": 16},"));
	assert_non_null(strstr(out, "  \"gprof_preceding\": {\"count\": 17, "));
	free(out);
	hist_free(&h);
}

/* No symbols at all: one gap, and nothing gprof could charge. */
static void test_unknown_no_symbols(void **state)
{
	const uint64_t bins[16] = { 0, 2, 0, 3 };
	struct render_opts o = { .view = RENDER_FUNCS, .verbose = true,
				 .gprof = true };
	struct hist h;
	char *out;

	(void)state;
	make_hist(&h, bins, 100);
	out = render_str(&h, NULL, &o);
	assert_non_null(strstr(out, "0000000000001004       12         5 "
				    "100.00     0.050    no function "
				    "symbols\n"));
	assert_null(strstr(out, "gprof would"));
	free(out);
	hist_free(&h);
}

/* Calls come from the arcs whose callee falls in the function. */
static void test_calls(void **state)
{
	const uint64_t bins[16] = { 1 };
	struct render_opts o = { .view = RENDER_FUNCS };
	struct hist h;
	char *out;

	(void)state;
	make_hist(&h, bins, 100);
	assert_int_equal(hist_add_arc(&h, 0x1034, 0x1012, 3), 0);
	assert_int_equal(hist_add_arc(&h, 0x1038, 0x1014, 4), 0);
	assert_int_equal(hist_add_arc(&h, 0x1000, 0x9999, 5), 0);
	out = render_str(&h, &syms, &o);
	assert_non_null(strstr(out, "calls"));
	/* beta: no samples, 7 calls, listed all the same. */
	assert_non_null(strstr(out, "        0   0.00     0.000         7  "
				    "beta"));
	free(out);
	hist_free(&h);
}

static void test_zero_reasons(void **state)
{
	const uint64_t zero[16] = { 0 };
	struct render_ticks t = { .ticks = 0 };
	struct hist h = { .rate = 100 };
	char why[256];

	(void)state;
	assert_non_null(render_zero_reason(&h, NULL, why, sizeof(why)));
	assert_non_null(strstr(why, "no histogram"));

	make_hist(&h, zero, 100);
	assert_non_null(render_zero_reason(&h, NULL, why, sizeof(why)));
	assert_non_null(strstr(why, "16 bins, all zero"));
	assert_non_null(strstr(why, "less than one tick (1/100 s)"));

	h.rate = 0;
	render_zero_reason(&h, NULL, why, sizeof(why));
	assert_non_null(strstr(why, "rate is 0 Hz"));

	render_zero_reason(&h, &t, why, sizeof(why));
	assert_non_null(strstr(why, "counted no tick"));

	t = (struct render_ticks){ .ticks = 50, .out_of_range = 40,
				   .system_dropped = 10 };
	render_zero_reason(&h, &t, why, sizeof(why));
	assert_non_null(strstr(why, "all 40 user-mode ticks fell outside"));

	t = (struct render_ticks){ .ticks = 50, .system_dropped = 50 };
	render_zero_reason(&h, &t, why, sizeof(why));
	assert_non_null(strstr(why, "kernel mode"));

	h.ranges[0].bins[0] = 1;
	assert_null(render_zero_reason(&h, NULL, why, sizeof(why)));
	hist_free(&h);
}

/* The text view prints the reason first; JSON carries it. */
static void test_zero_in_output(void **state)
{
	const uint64_t zero[16] = { 0 };
	struct render_opts o = { .view = RENDER_FUNCS };
	struct hist h;
	char *out;

	(void)state;
	make_hist(&h, zero, 100);
	out = render_str(&h, &syms, &o);
	assert_memory_equal(out, "# no samples: 16 bins, all zero", 31);
	assert_true(count_of(out, "total") == 0);
	free(out);
	o.format = RENDER_JSON;
	out = render_str(&h, &syms, &o);
	assert_non_null(strstr(out, "\"reason\": \"no samples: 16 bins"));
	free(out);
	hist_free(&h);
}

/* No symbols at all: everything is [unknown], and the text says why. */
static void test_stripped(void **state)
{
	const uint64_t bins[16] = { 2, 3 };
	struct render_opts o = { .view = RENDER_FUNCS };
	struct hist h;
	char *out;

	(void)state;
	make_hist(&h, bins, 100);
	out = render_str(&h, NULL, &o);
	assert_non_null(strstr(out, "# no function symbols"));
	assert_true(count_of(out, "[unknown]") == 5);
	free(out);
	hist_free(&h);
}

static const char *const fake_files[] = { "b.c", "a.c" };

/* Fake lines: [0x1000, 0x1020) is b.c, 4 bytes a line from line 10;
 * [0x1030, 0x1040) is a.c:1; the gap has none. */
static int fake_line(void *ctx, uint64_t addr, struct sym_line *l)
{
	(void)ctx;
	l->func = NULL;
	if (addr < 0x1020) {
		l->file = fake_files[0];
		l->line = 10 + (unsigned int)(addr - 0x1000) / 8;
		return 0;
	}
	if (addr >= 0x1030 && addr < 0x1040) {
		l->file = fake_files[1];
		l->line = 1;
		return 0;
	}
	return -1;
}

static const struct render_syms line_syms = {
	.funcs = funcs, .nfuncs = 3, .line = fake_line,
};

static void test_lines(void **state)
{
	/* b.c:10 = 1 + 2, b.c:11 = 4, gap 7, a.c:1 = 3 + 5. */
	const uint64_t bins[16] = { 1, 2, 0, 4, 0, 0, 0, 0,
				    7, 0, 0, 0, 3, 0, 5, 0 };
	struct render_opts o = { .view = RENDER_LINES };
	struct hist h;
	char *out;

	(void)state;
	make_hist(&h, bins, 100);
	out = render_str(&h, &line_syms, &o);
	assert_true(count_of(out, "a.c:1") == 8);
	assert_true(count_of(out, "b.c:10") == 3);
	assert_true(count_of(out, "b.c:11") == 4);
	assert_true(count_of(out, "[unknown]") == 7);
	assert_true(count_of(out, "total") == 22);
	/* File, then line order; the function is named. */
	assert_true(row_of(out, "a.c:1") < row_of(out, "b.c:10"));
	assert_true(row_of(out, "b.c:10") < row_of(out, "b.c:11"));
	assert_non_null(strstr(out, "b.c:11 (alpha)"));
	free(out);
	o.sort = true;
	out = render_str(&h, &line_syms, &o);
	assert_true(row_of(out, "a.c:1") < row_of(out, "b.c:11"));
	assert_true(row_of(out, "b.c:11") < row_of(out, "b.c:10"));
	free(out);
	hist_free(&h);
}

/* Zero rows are hidden, [unknown] too; -a shows every bin's line. */
static void test_lines_all(void **state)
{
	/* b.c:10 = 1 + 2, a.c:1 = 3: nothing [unknown]. */
	const uint64_t bins[16] = { 1, 2, 0, 0, 0, 0, 0, 0,
				    0, 0, 0, 0, 3, 0, 0, 0 };
	struct render_opts o = { .view = RENDER_LINES };
	struct hist h;
	char *out;

	(void)state;
	make_hist(&h, bins, 100);
	out = render_str(&h, &line_syms, &o);
	assert_true(count_of(out, "b.c:10") == 3);
	assert_true(count_of(out, "a.c:1") == 3);
	assert_null(row_of(out, "b.c:11"));
	assert_null(row_of(out, "[unknown]"));
	free(out);
	o.all = true;
	out = render_str(&h, &line_syms, &o);
	assert_true(count_of(out, "b.c:10") == 3);
	assert_true(count_of(out, "b.c:11") == 0);
	assert_true(count_of(out, "b.c:13") == 0);
	assert_true(count_of(out, "[unknown]") == 0);
	assert_true(count_of(out, "total") == 6);
	assert_true(row_of(out, "b.c:11") < row_of(out, "b.c:13"));
	free(out);
	hist_free(&h);
}

/* The same line inlined into two functions: one row each. */
static int inline_line(void *ctx, uint64_t addr, struct sym_line *l)
{
	(void)ctx;
	l->file = "h.h";
	l->line = 7;
	l->func = addr < 0x1020 ? "h inlined at a.c:3 in alpha" :
				  "h inlined at b.c:9 in gamma";
	return 0;
}

static void test_lines_inlined(void **state)
{
	const uint64_t bins[16] = { 1, 2, 0, 0, 0, 0, 0, 0,
				    0, 0, 0, 0, 4, 0, 0, 0 };
	const struct render_syms s = {
		.funcs = funcs, .nfuncs = 3, .line = inline_line,
	};
	struct render_opts o = { .view = RENDER_LINES };
	struct hist h;
	char *out;

	(void)state;
	make_hist(&h, bins, 100);
	out = render_str(&h, &s, &o);
	assert_non_null(strstr(out, "        3  42.86     0.030  h.h:7 (h "
				    "inlined at a.c:3 in alpha)\n"));
	assert_non_null(strstr(out, "        4  57.14     0.040  h.h:7 (h "
				    "inlined at b.c:9 in gamma)\n"));
	free(out);
	hist_free(&h);
}

static void test_bins(void **state)
{
	const uint64_t bins[16] = { 0, 6, 0, 0, 0, 0, 0, 0, 2 };
	struct render_opts o = { .view = RENDER_BINS };
	struct hist h;
	char *out;

	(void)state;
	make_hist(&h, bins, 100);
	out = render_str(&h, &syms, &o);
	assert_non_null(strstr(out, "0000000000001004 0000000000001008"
				    "         6  alpha+0x4\n"));
	assert_non_null(strstr(out, "0000000000001020 0000000000001024"
				    "         2  [unknown]\n"));
	assert_null(strstr(out, "0000000000001000 "));
	free(out);
	o.all = true;
	out = render_str(&h, &syms, &o);
	assert_non_null(strstr(out, "0000000000001000 0000000000001004"
				    "         0  alpha+0\n"));
	free(out);
	hist_free(&h);
}

static void test_csv(void **state)
{
	static const struct sym_func q[] = {
		{ 0x1000, 0x1020, "op,\"x\"", 0 },
	};
	const struct render_syms s = { .funcs = q, .nfuncs = 1 };
	const uint64_t bins[16] = { 1, 0, 0, 0, 0, 0, 0, 0, 3 };
	struct render_opts o = { .view = RENDER_FUNCS,
				 .format = RENDER_CSV };
	struct hist h;
	char *out;

	(void)state;
	make_hist(&h, bins, 100);
	out = render_str(&h, &s, &o);
	assert_string_equal(out,
		"function,address,size,count,percent,seconds,calls\n"
		"\"op,\"\"x\"\"\",0x1000,32,1,25.0000,0.010000,0\n"
		"[unknown],,,3,75.0000,0.030000,0\n");
	free(out);
	hist_free(&h);
}

static void test_json(void **state)
{
	static const struct sym_func q[] = {
		{ 0x1000, 0x1040, "a\"b\\c\n", 0 },
	};
	const struct render_syms s = { .funcs = q, .nfuncs = 1 };
	const uint64_t bins[16] = { 4 };
	struct render_opts o = { .view = RENDER_FUNCS,
				 .format = RENDER_JSON };
	struct hist h;
	char *out;

	(void)state;
	make_hist(&h, bins, 0);
	out = render_str(&h, &s, &o);
	assert_string_equal(out,
		"{\n"
		"  \"binary\": null,\n"
		"  \"rate\": 0,\n"
		"  \"view\": \"functions\",\n"
		"  \"ranges\": [{\"low\": 4096, \"high\": 4160, \"bins\": 16}],\n"
		"  \"rows\": [\n"
		"    {\"function\": \"a\\\"b\\\\c\\u000a\", \"address\": 4096, "
		"\"size\": 64, \"calls\": 0, \"count\": 4, \"percent\": 100.0000, "
		"\"seconds\": null}\n"
		"  ],\n"
		"  \"unknown\": {\"count\": 0, \"percent\": 0.0000, "
		"\"seconds\": null},\n"
		"  \"total\": {\"count\": 4, \"percent\": 100.0000, "
		"\"seconds\": null},\n"
		"  \"reason\": null\n"
		"}\n");
	free(out);
	hist_free(&h);
}

/*
 * A -pg program's arcs in the JSON function view: each as read, with the
 * functions its call site and its callee are in (null: in none).
 */
static void test_json_arcs(void **state)
{
	const uint64_t bins[16] = { 1 };
	struct render_opts o = { .view = RENDER_FUNCS,
				 .format = RENDER_JSON };
	struct hist h;
	char *out;

	(void)state;
	make_hist(&h, bins, 100);
	assert_int_equal(hist_add_arc(&h, 0x1034, 0x1012, 3), 0);
	assert_int_equal(hist_add_arc(&h, 0x9000, 0x1014, 5), 0);
	out = render_str(&h, &syms, &o);
	assert_non_null(strstr(out,
		",\n  \"arcs\": [\n"
		"    {\"from_pc\": 4148, \"self_pc\": 4114, \"caller\": "
		"\"gamma\", \"callee\": \"beta\", \"count\": 3},\n"
		"    {\"from_pc\": 36864, \"self_pc\": 4116, \"caller\": null, "
		"\"callee\": \"beta\", \"count\": 5}\n  ]\n}\n"));
	free(out);
	hist_free(&h);
}

/* render_gmon() output reads back the same, ranges and counts > 65535. */
static void test_gmon_roundtrip(void **state)
{
	const uint64_t a[4] = { 1, 70000, 0, 3 }, b[2] = { 65535, 65536 };
	struct hist h = { .rate = 250 }, back = { .rate = 0 };
	char *buf = NULL, err[256];
	size_t len = 0, i, k;
	FILE *f;

	(void)state;
	assert_int_equal(hist_add_range(&h, 0x5000, 0x5008, b, 2), 0);
	assert_int_equal(hist_add_range(&h, 0x1000, 0x1010, a, 4), 0);
	f = open_memstream(&buf, &len);
	assert_non_null(f);
	assert_int_equal(render_gmon(f, &h), 0);
	assert_int_equal(fclose(f), 0);
	assert_int_equal(gmon_read_mem(buf, len, sizeof(void *), &back, err,
				       sizeof(err)), 0);
	assert_int_equal(back.rate, 250);
	assert_int_equal(back.nranges, 2);
	for (i = 0; i < 2; i++) {
		assert_int_equal(back.ranges[i].low_pc, h.ranges[i].low_pc);
		assert_int_equal(back.ranges[i].high_pc, h.ranges[i].high_pc);
		assert_int_equal(back.ranges[i].nbins, h.ranges[i].nbins);
		for (k = 0; k < h.ranges[i].nbins; k++)
			assert_int_equal(back.ranges[i].bins[k],
					 h.ranges[i].bins[k]);
	}
	free(buf);
	hist_free(&back);

	/* Nothing to write is an error, not an empty file gprof rejects. */
	hist_free(&h);
	f = open_memstream(&buf, &len);
	assert_int_equal(render_gmon(f, &h), -1);
	assert_int_equal(errno, EINVAL);
	fclose(f);
	free(buf);
}

/* hist_add_range(): order, sums, and refusals. */
static void test_hist_add_range(void **state)
{
	const uint64_t one[2] = { 1, 1 };
	struct hist h = { .rate = 0 };
	uint64_t lo, hi;

	(void)state;
	assert_int_equal(hist_add_range(&h, 0x3000, 0x3008, one, 2), 0);
	assert_int_equal(hist_add_range(&h, 0x1000, 0x1008, one, 2), 0);
	assert_int_equal(hist_add_range(&h, 0x2000, 0x2008, one, 2), 0);
	assert_int_equal(h.ranges[0].low_pc, 0x1000);
	assert_int_equal(h.ranges[1].low_pc, 0x2000);
	assert_int_equal(h.ranges[2].low_pc, 0x3000);
	assert_int_equal(hist_add_range(&h, 0x2000, 0x2008, one, 2), 0);
	assert_int_equal(h.ranges[1].bins[1], 2);
	assert_int_equal(hist_add_range(&h, 0x2004, 0x200c, one, 2), -1);
	assert_int_equal(errno, EEXIST);
	assert_int_equal(hist_add_range(&h, 0x0, 0x5000, one, 2), -1);
	assert_int_equal(errno, EEXIST);
	assert_int_equal(hist_add_range(&h, 0x2000, 0x2008, one, 1), -1);
	assert_int_equal(errno, EDOM);
	assert_int_equal(hist_add_range(&h, 0x9000, 0x9000, one, 1), -1);
	assert_int_equal(errno, EINVAL);
	assert_int_equal(h.nranges, 3);
	assert_int_equal(hist_total(&h), 8);
	hist_bin_range(&h.ranges[2], 1, &lo, &hi);
	assert_int_equal(lo, 0x3004);
	assert_int_equal(hi, 0x3008);
	hist_free(&h);
	assert_int_equal(h.nranges, 0);
	assert_null(h.ranges);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_attribution_and_order),
		cmocka_unit_test(test_sort_all_verbose),
		cmocka_unit_test(test_split_bin),
		cmocka_unit_test(test_whole_counts),
		cmocka_unit_test(test_unknown_gaps),
		cmocka_unit_test(test_unknown_no_symbols),
		cmocka_unit_test(test_calls),
		cmocka_unit_test(test_zero_reasons),
		cmocka_unit_test(test_zero_in_output),
		cmocka_unit_test(test_stripped),
		cmocka_unit_test(test_lines),
		cmocka_unit_test(test_lines_all),
		cmocka_unit_test(test_lines_inlined),
		cmocka_unit_test(test_bins),
		cmocka_unit_test(test_csv),
		cmocka_unit_test(test_json),
		cmocka_unit_test(test_json_arcs),
		cmocka_unit_test(test_gmon_roundtrip),
		cmocka_unit_test(test_hist_add_range),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
