// SPDX-License-Identifier: GPL-2.0
/*
 * The whole-program profile's text report (cli/format/profile_report.c,
 * profile_list.c) on the profile cli_test_profile.c builds by hand: two
 * processes and three objects (a program, a shared library whose
 * recorded build-id is not its own, a library whose file is gone):
 * - the totals header: each object's share of all user samples, the
 *   accounting, "unknown" figures, the CPU time;
 * - one [unknown] row per object, the uncovered row, the notes;
 * - --per-process, --lines, --bins over every object;
 * - one name for one function, in the function and the line views;
 * - the ranked list of "profil-ctl report FILE", its keys and filters.
 * JSON, CSV, gmon.out and the command line: test_cli_profile_formats.c;
 * the saved format and "report FILE": test_cli_profile_file.c.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "profile.h"
#include "profile_report.h"
#include "report.h"
#include "cli_test.h"
#include "cli_test_profile.h"

/* @a then @b, both in @text. */
static void before(const char *text, const char *a, const char *b)
{
	const char *x = strstr(text, a), *y = strstr(text, b);

	if (!x || !y || x >= y)
		fail_msg("\"%s\" is not before \"%s\" in:\n%s", a, b, text);
}

/* The count of the row named @name after the line holding @after. */
static double row_count(const char *text, const char *after,
			const char *name)
{
	const char *p = strstr(text, after), *q, *bol;

	if (!p || !(q = strstr(p, name)))
		fail_msg("no %s after %s in:\n%s", name, after, text);
	for (bol = q; bol > text && bol[-1] != '\n'; bol--)
		;
	return strtod(bol, NULL);
}

static void test_header(void **state)
{
	struct profile p;
	char *s;

	(void)state;
	whole_build(&p);
	/* One line: samples, seconds, CPU time, what was not charged. */
	s = whole_report(&p, RENDER_FUNCS, RENDER_TEXT, false, false);
	assert_true(!strncmp(s, "# 24 samples, 0.240 s at 100 Hz, of 0.630 s "
			     "CPU time: not charged 8 kernel-mode ticks, 1 "
			     "outside any mapping, 2 saturated, 1 lost, 3 "
			     "missed periods (-v: the accounting)\n#", 133));
	assert_null(strstr(s, "# ticks"));
	free(s);
	/* -v: the whole accounting. */
	s = whole_report(&p, RENDER_FUNCS, RENDER_TEXT, false, true);
	cli_test_has(s, "# user samples               24  (every percentage is of "
	    "all user samples)\n");
	cli_test_has(s, "# kernel-mode ticks           8  (not charged)\n");
	cli_test_has(s, "# outside (no mapping)        1\n");
	cli_test_has(s, "# deferred                    1\n");
	cli_test_has(s, "# saturated                   2\n");
	cli_test_has(s, "# lost                        1\n");
	cli_test_has(s, "# lost at exec          unknown\n");
	cli_test_has(s, "# missed periods              3\n");
	cli_test_has(s, "# ticks                      60\n");
	cli_test_has(s, "# rate                      100 Hz\n");
	cli_test_has(s, "# CPU time                0.630 s  ((ticks + missed periods) "
	    "/ rate)\n");
	cli_test_has(s, "#        12   50.00  " SYM "\n");
	cli_test_has(s, "#         8   33.33  " SO "\n");
	cli_test_has(s, "#         4   16.67  " GONE "\n");
	/* The header first, then the objects by samples. */
	before(s, "# user samples", "== " SYM);
	before(s, "== " SYM ": 12 samples, 50.00% ==", "== " SO);
	before(s, "== " SO " (build-id " WRONG_ID "): 8 samples, 33.33% ==",
	       "== " GONE ": 4 samples, 16.67% ==");
	free(s);

	/* Unknown where a source has no figure; no rate, no CPU time. */
	profile_acct_unknown(&p.acct);
	p.rate = 0;
	s = whole_report(&p, RENDER_FUNCS, RENDER_TEXT, false, false);
	cli_test_has(s, "# 24 samples, rate unknown; CPU time unknown (-v: the "
	    "accounting)\n");
	free(s);
	s = whole_report(&p, RENDER_FUNCS, RENDER_TEXT, false, true);
	cli_test_has(s, "# kernel-mode ticks     unknown");
	cli_test_has(s, "# ticks                 unknown\n");
	cli_test_has(s, "# rate                  unknown\n");
	cli_test_has(s, "# CPU time              unknown\n");
	free(s);
	profile_free(&p);
}

static void test_objects(void **state)
{
	struct profile p;
	char *s;

	(void)state;
	whole_build(&p);
	s = whole_report(&p, RENDER_FUNCS, RENDER_TEXT, false, false);
	/* Percentages of all 24 samples, in each object's table. */
	cli_test_has(s, "       10  41.67     0.100  target_alpha");
	assert_true(row_count(s, "== " SYM, "[unknown]") == 2);
	assert_true(row_count(s, "== " SO, "so_work") == 5);
	assert_true(row_count(s, "== " SO, PROFILE_UNCOVERED_ROW) == 3);
	cli_test_has(s, "        8  33.33     0.080  total");
	/* The changed file and the missing one: notes, never a failure. */
	cli_test_has(s, "# note: the file has build-id ");
	cli_test_has(s, "the profile recorded " WRONG_ID ": symbols may be wrong\n");
	cli_test_has(s, "# note: no symbols: " GONE ": ");
	assert_true(row_count(s, "== " GONE, "  [unknown]\n") == 4);
	before(s, "== " GONE, "  16.67     0.040  [unknown]");
	free(s);

	/* -v: the [unknown] samples' ranges, per object. */
	s = whole_report(&p, RENDER_FUNCS, RENDER_TEXT, false, true);
	cli_test_has(s, "0000000000001000 ");
	cli_test_has(s, "0000000000000100 ");
	free(s);
	profile_free(&p);
}

static void test_per_process(void **state)
{
	struct profile p;
	char *s;

	(void)state;
	whole_build(&p);
	s = whole_report(&p, RENDER_FUNCS, RENDER_TEXT, true, false);
	cli_test_has(s, "#        15   62.50  100     sym              " SYM "\n");
	cli_test_has(s, "#         9   37.50  101     so user          -\n");
	before(s, "==== pid 100 (sym), " SYM ": 15 samples, 62.50% ====",
	       "==== pid 101 (so user): 9 samples, 37.50% ====");
	cli_test_has(s, "# ticks 20, kernel-mode 3, outside 0, deferred 1, saturated "
	    "2, lost 1, lost at exec unknown, missed 1\n");
	/* pid 100: its program, then its 3 uncovered samples of SO. */
	before(s, "==== pid 100", "== " SYM ": 12 samples, 50.00% ==");
	before(s, "== " SYM ": 12", "== " SO " (build-id " WRONG_ID "): 3 "
	       "samples, 12.50% ==");
	before(s, "12.50% ==", "==== pid 101");
	/* pid 101: SO (5), then GONE (4). */
	before(s, "==== pid 101", "== " SO " (build-id " WRONG_ID "): 5 "
	       "samples, 20.83% ==");
	before(s, "20.83% ==", "== " GONE ": 4 samples");
	free(s);
	profile_free(&p);
}

/* --lines and --bins: one table per object, every object. */
static void test_views(void **state)
{
	struct profile p;
	char *s;

	(void)state;
	whole_build(&p);
	s = whole_report(&p, RENDER_BINS, RENDER_TEXT, false, false);
	before(s, "== " SYM, "target_alpha+0");
	before(s, "== " SO, "so_work+0");
	before(s, "== " GONE, "0000000000001000 0000000000001004         1"
	       "  [unknown]\n");
	cli_test_has(s, "0000000000001008 000000000000100c         3  [unknown]\n");
	cli_test_has(s, "         3  " PROFILE_UNCOVERED_ROW "\n");
	free(s);
	s = whole_report(&p, RENDER_LINES, RENDER_TEXT, false, false);
	before(s, "== " SYM, "cli_sym_target.c:");
	before(s, "== " SO, "cli_so_target.c:");
	assert_true(row_count(s, "== " GONE, "  [unknown]\n") == 4);
	free(s);
	profile_free(&p);
}

/*
 * The ranked list, perf report's default view: one list across objects
 * and processes, rows per --sort keys (comm,dso,sym by default), --top
 * and --percent-limit over it, the filters, -i, "--opt VAL".
 */
static void test_ranked_list(void **state)
{
	static const char head[] = "    count      %   seconds  command  "
		"object            symbol\n";
	static const char alpha[] = "       10  41.67     0.100  sym      "
		"cli_sym_target    target_alpha\n";
	static const char work[] = "        5  20.83     0.050  so user  "
		"cli_so_target.so  so_work\n";
	static const char gone[] = "        4  16.67     0.040  so user  "
		"libgone.so        [unknown]\n";
	static const char unc[] = "        3  12.50     0.030  sym      "
		"cli_so_target.so  " PROFILE_UNCOVERED_ROW "\n";
	static const char unk[] = "        2   8.33     0.020  sym      "
		"cli_sym_target    [unknown]\n";
	char path[128], gm[160];
	struct profile p;

	(void)state;
	whole_build(&p);
	whole_save_as(&p, "list.profile", path, sizeof(path));
	profile_free(&p);
	/* Every row across objects, most samples first, then the total. */
	expect(ctl("report", path, NULL), 0, out, head);
	before(out, head, alpha);
	before(out, alpha, work);
	before(out, work, gone);
	before(out, gone, unc);
	before(out, unc, unk);
	before(out, unk, "       24 100.00     0.240  total\n");
	assert_null(strstr(out, "== "));
	/* --top and --percent-limit: of the list, not of each object. */
	expect(ctl("report", "--top", "2", "-i", path, NULL), 0, out, work);
	assert_null(strstr(out, gone));
	expect(0, 0, out, "# 3 more rows (--top, --percent-limit): count 9, "
	       "37.50%\n");
	expect(ctl("report", "--percent-limit", "15", path, NULL), 0, out,
	       gone);
	assert_null(strstr(out, unc));
	expect(0, 0, out, "# 2 more rows (--top, --percent-limit): count 5, "
	       "20.83%\n");
	/* Keys: one, another, in the order given. */
	expect(ctl("report", "--sort", "dso", path, NULL), 0, out,
	       "    count      %   seconds  object\n");
	before(out, "       12  50.00     0.120  cli_sym_target\n",
	       "        8  33.33     0.080  cli_so_target.so\n");
	expect(ctl("report", "--sort=sym", path, NULL), 0, out,
	       "        6  25.00     0.060  [unknown]\n");
	expect(ctl("report", "--sort", "comm", path, NULL), 0, out,
	       "       15  62.50     0.150  sym\n");
	expect(ctl("report", "--sort", "sym,dso", "--top=3", path, NULL), 0, out,
	       "    count      %   seconds  symbol        object\n");
	expect(0, 0, out, "        4  16.67     0.040  [unknown]     "
	       "libgone.so\n");
	expect(ctl("report", "--per-process", path, NULL), 0, out,
	       "        5  20.83     0.050  101:so user  cli_so_target.so  "
	       "so_work\n");
	/* Filters: the rest is counted out. */
	expect(ctl("report", "--comms", "so user", path, NULL), 0, out, work);
	assert_null(strstr(out, alpha));
	expect(0, 0, out, "# filtered out (--comms, --dsos, --symbols): "
	       "count 15, 62.50%\n");
	expect(ctl("report", "--dsos=libgone.so," SYM, path, NULL), 0, out,
	       "     0.040  so user  libgone.so      [unknown]\n");
	expect(0, 0, out, "     0.100  sym      cli_sym_target  target_alpha\n");
	assert_null(strstr(out, "so_work"));
	expect(ctl("report", "--symbols", "so_work", path, NULL), 0, out,
	       "  so_work\n");
	assert_null(strstr(out, "target_alpha"));
	/* CSV and JSON: the same rows. */
	expect(ctl("report", "--format", "csv", path, NULL), 0, out,
	       "pid,comm,object,build_id,function,count,percent,seconds,"
	       "calls\n,sym," SYM ",,target_alpha,10,41.6667,0.100000,0\n");
	assert_true(!strncmp(out, "pid,", 4));
	expect(0, 0, out, "\n,so user," GONE ",,[unknown],4,16.6667,0.040000,"
	       "0\n");
	expect(ctl("report", "--format=json", "--top=1", path, NULL), 0, out,
	       "\"list\": {\"keys\": [\"comm\", \"dso\", \"sym\"],");
	expect(0, 0, out, "\"function\": \"target_alpha\", \"count\": 10, ");
	expect(0, 0, out, "\"hidden\": {\"rows\": 4, \"count\": 14, ");
	/* Bad keys; keys and filters of a gmon.out, which has neither. */
	expect(ctl("report", "--sort", "size", path, NULL), 2, err,
	       "--sort: unknown key 'size'");
	expect(ctl("report", "--sort=sym,sym", path, NULL), 2, err,
	       "--sort: key 'sym' given twice");
	snprintf(gm, sizeof(gm), "%s/list.gmon", dir);
	expect(ctl("report", path, "--format=gmon", "-o", gm, NULL), 0, err,
	       "list.gmon");
	expect(ctl("report", "--sort", "dso", SYM, gm, NULL), 2, err,
	       "--sort with pid, comm, dso or sym: ");
	expect(ctl("report", "--comms", "sym", SYM, gm, NULL), 2, err,
	       "--comms: ");
	/* A bare --sort before an operand leaves it an operand. */
	expect(ctl("report", "--sort", path, NULL), 0, out, head);
}

/*
 * One name for one function: the line view names a function as the
 * function view does (the symbols' so_aa_alias), not by DWARF's name of
 * its definition (so_impl_zz); a compat alias (so_a_old@SO_1, as glibc's
 * cfree@GLIBC_2.2.5) never names it.
 */
static void test_one_name(void **state)
{
	const uint64_t b[1] = { 7 };
	uint64_t at = (cli_test_func_addr(SO, "so_aa_alias") + 3) & ~3ULL;
	struct profile p = { .rate = 100, .bin_bytes = 4 };
	struct profile_count *c;
	char *s;

	(void)state;
	assert_int_equal(profile_object_add(&p, SO, NULL), 0);
	assert_int_equal(profile_process_add(&p, 1, 0, "so", SO), 0);
	c = profile_count_get(&p, 0, 0);
	assert_non_null(c);
	assert_int_equal(hist_add_range(&c->hist, at, at + 4, b, 1), 0);
	s = whole_report(&p, RENDER_FUNCS, RENDER_TEXT, false, false);
	cli_test_has(s, "  so_aa_alias\n");
	free(s);
	s = whole_report(&p, RENDER_LINES, RENDER_TEXT, false, false);
	cli_test_has(s, "cli_so_target.c:");
	cli_test_has(s, " (so_aa_alias)\n");
	assert_null(strstr(s, "so_impl_zz"));
	free(s);
	profile_free(&p);

	/* A compat alias (name@VERSION) is not the function's name. */
	memset(&p, 0, sizeof(p));
	p.rate = 100;
	p.bin_bytes = 4;
	at = (cli_test_func_addr(SO, "so_b_new") + 3) & ~3ULL;
	assert_int_equal(profile_object_add(&p, SO, NULL), 0);
	assert_int_equal(profile_process_add(&p, 1, 0, "so", SO), 0);
	c = profile_count_get(&p, 0, 0);
	assert_non_null(c);
	assert_int_equal(hist_add_range(&c->hist, at, at + 4, b, 1), 0);
	s = whole_report(&p, RENDER_FUNCS, RENDER_TEXT, false, false);
	cli_test_has(s, "  so_b_new\n");
	assert_null(strstr(s, "@SO_1"));
	free(s);
	profile_free(&p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_header),
		cmocka_unit_test(test_objects),
		cmocka_unit_test(test_per_process),
		cmocka_unit_test(test_views),
		cmocka_unit_test(test_ranked_list),
		cmocka_unit_test(test_one_name),
	};

	return cmocka_run_group_tests(tests, whole_setup, whole_teardown);
}
