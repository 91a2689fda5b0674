// SPDX-License-Identifier: GPL-2.0
/*
 * The whole-program profile's outputs (cli/format/profile_report.c,
 * profile_file.c, profile_gmon.c) on a profile built by hand: two
 * processes and three objects (a program, a shared library whose
 * recorded build-id is not its own, a library whose file is gone):
 * - the totals header: each object's share of all user samples, the
 *   accounting, "unknown" figures, the CPU time;
 * - one [unknown] row per object, the uncovered row, the notes;
 * - --per-process, --lines, --bins over every object;
 * - JSON that python3's json module reads, with the structure
 *   Documentation/profil-ctl/whole-program.rst gives; CSV columns;
 * - the saved format: save, load, save again gives the same bytes
 *   (plain and gzip'ed); malformed files give an error with the line;
 *   no prefix of a file loads; mutated files never crash the loader;
 * - one gmon.out per object, named as documented, read by GNU gprof;
 * - "profil-ctl report FILE" on a saved profile.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "profile.h"
#include "profile_file.h"
#include "profile_report.h"
#include "report.h"
#include "symbols.h"
#include "cli_test.h"


#define SYM UNIT_OUT "/cli_sym_target"
#define SO UNIT_OUT "/cli_so_target.so"
#define GONE "/nonexistent/libgone.so"
#define WRONG_ID "0011223344556677"

static char dir[] = "/tmp/test_cli_profileXXXXXX";
static char out[65536], err[16384];

/* profil-ctl ARGS... (NULL-terminated) in a child in dir. */
#define ctl(...) cli_test_run(dir, out, sizeof(out), err, sizeof(err), __VA_ARGS__)

static void add_range(struct profile_count *c, uint64_t low, uint64_t high,
		      const uint64_t *bins, size_t n)
{
	assert_int_equal(hist_add_range(&c->hist, low, high, bins, n), 0);
}

/*
 * Objects: 0 SYM (the program), 1 SO (recorded with a wrong build-id),
 * 2 GONE. Processes: 0 pid 100 "sym", 1 pid 101 "so user".
 * Samples: (sym, SYM) 10 in target_alpha, 2 in no function; (sym, SO)
 * 3 uncovered; (so user, SO) 5 in so_work; (so user, GONE) 1 + 3.
 * Per object 12, 8, 4 of 24: 50 %, 33.33 %, 16.67 %.
 */
static void build(struct profile *p)
{
	static const struct profile_acct a0 = { 40, 2, 5, 1, 0, 0, 0, 0 };
	static const struct profile_acct a1 = { 20, 1, 3, 0, 1, 2, 1,
						PROFILE_UNKNOWN };
	const uint64_t b10[1] = { 10 }, b2[2] = { 2, 0 }, b5[2] = { 5, 0 };
	const uint64_t b13[4] = { 1, 0, 3, 0 };
	/* 4-byte bins inside the functions (gprof's are 2-byte aligned). */
	uint64_t alpha = (cli_test_func_addr(SYM, "target_alpha") + 3) & ~3ULL;
	uint64_t work = (cli_test_func_addr(SO, "so_work") + 3) & ~3ULL;
	struct profile_count *c;

	memset(p, 0, sizeof(*p));
	p->rate = 100;
	p->bin_bytes = 4;
	assert_int_equal(profile_object_add(p, SYM, NULL), 0);
	assert_int_equal(profile_object_add(p, SO, WRONG_ID), 1);
	assert_int_equal(profile_object_add(p, GONE, NULL), 2);
	assert_int_equal(profile_process_add(p, 100, 1, "sym", SYM), 0);
	assert_int_equal(profile_process_add(p, 101, 100, "so user", NULL),
			 1);
	p->processes[0].acct = a0;
	p->processes[1].acct = a1;
	p->acct = a0;
	profile_acct_add(&p->acct, &a1);
	c = profile_count_get(p, 0, 0);
	add_range(c, alpha, alpha + 4, b10, 1);
	add_range(c, 0x100, 0x108, b2, 2);
	c = profile_count_get(p, 0, 1);
	c->uncovered = 3;
	c = profile_count_get(p, 1, 1);
	add_range(c, work, work + 8, b5, 2);
	c = profile_count_get(p, 1, 2);
	add_range(c, 0x1000, 0x1010, b13, 4);
}

/* profile_report() into a string, one table per object. */
static char *report_str(const struct profile *p, enum render_view view,
			enum render_format fmt, bool per_process, bool verbose)
{
	struct report_opts o;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	report_opts_init(&o);
	o.render.view = view;
	o.render.format = fmt;
	o.render.verbose = verbose;
	o.per_object = true;
	assert_int_equal(profile_report(f, p, &o, per_process, "test"), 0);
	assert_int_equal(fclose(f), 0);
	return buf;
}

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
	build(&p);
	/* One line: samples, seconds, CPU time, what was not charged. */
	s = report_str(&p, RENDER_FUNCS, RENDER_TEXT, false, false);
	assert_true(!strncmp(s, "# 24 samples, 0.240 s at 100 Hz, of 0.630 s "
			     "CPU time: not charged 8 kernel-mode ticks, 1 "
			     "outside any mapping, 2 saturated, 1 lost, 3 "
			     "missed periods (-v: the accounting)\n#", 133));
	assert_null(strstr(s, "# ticks"));
	free(s);
	/* -v: the whole accounting. */
	s = report_str(&p, RENDER_FUNCS, RENDER_TEXT, false, true);
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
	s = report_str(&p, RENDER_FUNCS, RENDER_TEXT, false, false);
	cli_test_has(s, "# 24 samples, rate unknown; CPU time unknown (-v: the "
	    "accounting)\n");
	free(s);
	s = report_str(&p, RENDER_FUNCS, RENDER_TEXT, false, true);
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
	build(&p);
	s = report_str(&p, RENDER_FUNCS, RENDER_TEXT, false, false);
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
	s = report_str(&p, RENDER_FUNCS, RENDER_TEXT, false, true);
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
	build(&p);
	s = report_str(&p, RENDER_FUNCS, RENDER_TEXT, true, false);
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
	build(&p);
	s = report_str(&p, RENDER_BINS, RENDER_TEXT, false, false);
	before(s, "== " SYM, "target_alpha+0");
	before(s, "== " SO, "so_work+0");
	before(s, "== " GONE, "0000000000001000 0000000000001004         1"
	       "  [unknown]\n");
	cli_test_has(s, "0000000000001008 000000000000100c         3  [unknown]\n");
	cli_test_has(s, "         3  " PROFILE_UNCOVERED_ROW "\n");
	free(s);
	s = report_str(&p, RENDER_LINES, RENDER_TEXT, false, false);
	before(s, "== " SYM, "cli_sym_target.c:");
	before(s, "== " SO, "cli_so_target.c:");
	assert_true(row_count(s, "== " GONE, "  [unknown]\n") == 4);
	free(s);
	profile_free(&p);
}

/* Runs @cmd (a shell command line); returns its exit status. */
static int sh(const char *fmt, ...)
{
	char *cmd;
	va_list ap;
	int st;

	va_start(ap, fmt);
	assert_true(vasprintf(&cmd, fmt, ap) > 0);
	va_end(ap);
	st = system(cmd);
	free(cmd);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static void write_file(const char *path, const char *s)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	assert_true(fputs(s, f) >= 0);
	assert_int_equal(fclose(f), 0);
}

/* Each view, merged and per process, reads in python3's json module. */
static void test_json(void **state)
{
	static const char check[] =
		"import json, sys\n"
		"d = json.load(open(sys.argv[1]))\n"
		"t = d['totals']\n"
		"assert t['user_samples'] == 24 and t['lost_exec'] is None\n"
		"assert abs(t['cpu_seconds'] - 0.63) < 1e-9, t\n"
		"assert t['ticks'] == 60 and t['kernel'] == 8\n"
		"assert d['rate'] == 100 and d['view'] == sys.argv[2]\n"
		"o = d['objects']\n"
		"assert [x['path'] for x in o] == sys.argv[3:6], o\n"
		"assert [x['samples'] for x in o] == [12, 8, 4]\n"
		"assert o[1]['build_id'] == '" WRONG_ID "' and o[1]['note']\n"
		"assert [x['pid'] for x in d['processes']] == [100, 101]\n"
		"assert d['processes'][1]['acct']['lost_exec'] is None\n"
		"parts = d['parts']\n"
		"if d['per_process']:\n"
		"    keys = [(x['pid'], x['object']) for x in parts]\n"
		"    assert keys == [(100, o[0]['path']), (100, o[1]['path']),\n"
		"                    (101, o[1]['path']), (101, o[2]['path'])]\n"
		"    assert parts[1]['uncovered']['count'] == 3\n"
		"else:\n"
		"    assert [x['object'] for x in parts] == sys.argv[3:6]\n"
		"    assert [x['pid'] for x in parts] == [None] * 3\n"
		"    assert parts[1]['uncovered']['count'] == 3\n"
		"    if sys.argv[2] == 'functions':\n"
		"        assert parts[2]['unknown']['count'] == 4\n"
		"for x in parts:\n"
		"    assert 'rows' in x and 'total' in x and 'build_id' in x\n";
	static const char *const views[] = { "functions", "lines", "bins" };
	char path[128], py[128];
	struct profile p;
	int v, pp, verbose;
	char *s;

	(void)state;
	if (sh("python3 -c 'import json' 2>/dev/null"))
		skip();
	build(&p);
	snprintf(path, sizeof(path), "%s/report.json", dir);
	snprintf(py, sizeof(py), "%s/check.py", dir);
	write_file(py, check);
	for (v = 0; v < 3; v++)
		for (pp = 0; pp < 2; pp++)
			for (verbose = 0; verbose < 2; verbose++) {
				s = report_str(&p, (enum render_view)v,
					       RENDER_JSON, pp, verbose);
				write_file(path, s);
				if (sh("python3 -m json.tool %s >/dev/null && "
				       "python3 %s %s %s %s %s %s", path, py,
				       path, views[v], SYM, SO, GONE))
					fail_msg("%s, per process %d:\n%s",
						 views[v], pp, s);
				free(s);
			}
	profile_free(&p);
}

/* The number of comma-separated fields of the line at @s. */
static size_t fields(const char *s)
{
	size_t n = 1;

	for (; *s && *s != '\n'; s++)
		n += *s == ',';
	return n;
}

static void test_csv(void **state)
{
	static const char *const cols[] = {
		"pid,comm,object,build_id,function,address,size,count,"
		"percent,seconds,calls\n",
		"pid,comm,object,build_id,file,line,function,address,count,"
		"percent,seconds\n",
		"pid,comm,object,build_id,low,high,function,offset,count,"
		"percent,seconds\n",
	};
	const char *line, *hdr;
	struct profile p;
	size_t rows;
	int v;
	char *s;

	(void)state;
	build(&p);
	for (v = 0; v < 3; v++) {
		s = report_str(&p, (enum render_view)v, RENDER_CSV, v == 0,
			       false);
		/* A plain table: its header row first, no comments. */
		hdr = strstr(s, cols[v]);
		if (hdr != s)
			fail_msg("not first: header %s in:\n%s", cols[v], s);
		assert_null(strstr(s, "\n#"));
		assert_null(strstr(hdr + 1, cols[v]));
		rows = 0;
		for (line = hdr; *line; line = strchr(line, '\n') + 1) {
			if (fields(line) != 11)
				fail_msg("not 11 fields: %.80s", line);
			rows++;
		}
		assert_true(rows > 4);
		free(s);
	}
	s = report_str(&p, RENDER_FUNCS, RENDER_CSV, true, false);
	cli_test_has(s, "\n100,sym," SYM ",,target_alpha,0x");
	cli_test_has(s, "\n100,sym," SYM ",,[unknown],,,2,8.3333,0.020000,0\n");
	cli_test_has(s, "\n100,sym," SO "," WRONG_ID "," PROFILE_UNCOVERED_ROW
	    ",,,3,12.5000,0.030000,0\n");
	cli_test_has(s, "\n101,so user," GONE ",,[unknown],,,4,16.6667,0.040000,0\n");
	free(s);
	s = report_str(&p, RENDER_FUNCS, RENDER_CSV, false, false);
	cli_test_has(s, "\n,," SO "," WRONG_ID ",so_work,0x");
	free(s);
	profile_free(&p);
}

static char *save_str(const struct profile *p)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(profile_save(f, p), 0);
	assert_int_equal(fclose(f), 0);
	return buf;
}

static int load_str(const char *s, size_t len, struct profile *p, char *e,
		    size_t elen)
{
	return profile_load_mem(s, len, p, e, elen);
}

/* Strings that need escaping, a merged count, unknown figures. */
static void build_odd(struct profile *p)
{
	const uint64_t b[3] = { 0, 7, UINT64_MAX - 1 };
	struct profile_count *c;

	build(p);
	assert_int_equal(profile_object_add(p, "/tmp/a b/\"q\"%/l\xc3\xa9.so",
					    "ABCDEF12"), 3);
	assert_int_equal(profile_process_add(p, 102, 0, "", "-"), 2);
	assert_int_equal(profile_process_add(p, 103, 0, "-", "\t"), 3);
	profile_acct_unknown(&p->processes[3].acct);
	c = profile_count_get(p, PROFILE_ALL_PROCESSES, 3);
	c->uncovered = 1;
	add_range(c, 0xffffffffffff0000ULL, 0xffffffffffffff00ULL, b, 3);
	c = profile_count_get(p, 3, 0);
	c->uncovered = UINT64_MAX;
}

static void test_save_load(void **state)
{
	struct profile p, q;
	char e[256], *a, *b, path[128], gz[160];
	FILE *f;

	(void)state;
	build_odd(&p);
	a = save_str(&p);
	assert_true(!strncmp(a, "profil-ctl-profile 1\nrate 100\n", 30));
	cli_test_has(a, "\nobject 3 ABCDEF12 \"/tmp/a%20b/%22q%22%25/l%C3%A9.so\"\n");
	cli_test_has(a, "\nprocess 2 102 0 \"\" \"-\" ");
	cli_test_has(a, "\nprocess 3 103 0 \"-\" \"%09\" - - - - - - - -\n");
	cli_test_has(a, "\nprocess 1 101 100 \"so%20user\" - 20 1 3 0 1 2 1 -\n");
	cli_test_has(a, "\ncount * 3 1 1\nrange 0xffffffffffff0000 0xffffffffffffff00 "
	    "3 2\nbin 1 7\nbin 2 18446744073709551614\n");
	cli_test_has(a, "\ncount 1 2 0 1\nrange 0x1000 0x1010 4 2\nbin 0 1\nbin 2 3\n");
	cli_test_has(a, "\ncount 3 0 18446744073709551615 0\n");
	assert_int_equal(load_str(a, strlen(a), &q, e, sizeof(e)), 0);
	b = save_str(&q);
	assert_string_equal(a, b);
	/* What the report reads: the same numbers. */
	assert_int_equal(q.nobjects, 4);
	assert_string_equal(q.objects[3].path, "/tmp/a b/\"q\"%/l\xc3\xa9.so");
	assert_string_equal(q.processes[1].comm, "so user");
	assert_null(q.processes[1].exe);
	assert_string_equal(q.processes[2].exe, "-");
	assert_int_equal(q.processes[1].acct.lost_exec, PROFILE_UNKNOWN);
	assert_int_equal(profile_total(&q), profile_total(&p));
	assert_int_equal(q.counts[0].hist.rate, 100);
	free(b);
	profile_free(&q);

	/* gzip'ed: the same profile. */
	snprintf(path, sizeof(path), "%s/saved", dir);
	snprintf(gz, sizeof(gz), "%s.gz", path);
	write_file(path, a);
	assert_int_equal(sh("gzip -kf %s", path), 0);
	f = fopen(gz, "r");
	assert_non_null(f);
	assert_int_equal(profile_load(f, &q, e, sizeof(e)), 0);
	fclose(f);
	b = save_str(&q);
	assert_string_equal(a, b);
	free(b);
	profile_free(&q);
	free(a);
	profile_free(&p);
}

/* @text with line @n (from 1) replaced by @line. */
static char *with_line(const char *text, int n, const char *line)
{
	const char *s = text, *e;
	char *r;

	while (--n > 0)
		s = strchr(s, '\n') + 1;
	e = strchr(s, '\n');
	assert_true(asprintf(&r, "%.*s%s%s", (int)(s - text), text, line,
			     e) > 0);
	return r;
}

/* The smallest saved profile with a count, and its variants. */
static const char mini[] =
	"profil-ctl-profile 1\n"			/* 1 */
	"rate 100\n"					/* 2 */
	"bin-bytes 4\n"					/* 3 */
	"acct 1 0 0 0 0 0 0 0\n"			/* 4 */
	"objects 1\n"					/* 5 */
	"object 0 - \"/bin/x\"\n"			/* 6 */
	"processes 1\n"					/* 7 */
	"process 0 1 0 \"x\" - 1 0 0 0 0 0 0 0\n"	/* 8 */
	"counts 1\n"					/* 9 */
	"count 0 0 0 1\n"				/* 10 */
	"range 0x1000 0x1010 4 1\n"			/* 11 */
	"bin 3 1\n"					/* 12 */
	"end\n";					/* 13 */

static void test_malformed(void **state)
{
	static const struct {
		int line;
		const char *text, *msg;
	} cases[] = {
		{ 1, "profil-ctl-profile 2", "line 1: version '2'" },
		{ 1, "gmon", "line 1: not a saved profile" },
		{ 2, "rate abc", "line 2: rate: 'abc' is not a number" },
		{ 2, "rate -1", "line 2: rate: '-1' is not a number" },
		{ 2, "rate 4294967296", "line 2: rate: 4294967296 is out of "
		  "range" },
		{ 2, "rate  100", "line 2: an empty field" },
		{ 2, "rate 100 ", "line 2: an empty field" },
		{ 2, "rat 100", "line 2: 'rate' expected, not 'rat'" },
		{ 4, "acct 1 0 0", "line 4: 'acct' has 8 fields, not 3" },
		{ 4, "acct 1 0 0 0 0 0 0 18446744073709551615",
		  "line 4: lost_exec: 18446744073709551615 is out of range" },
		{ 5, "objects 2", "line 7: 'object' expected, not 'processes'" },
		{ 6, "object 1 - \"/bin/x\"", "line 6: index 1 where 0 was "
		  "expected" },
		{ 6, "object 0 xyz \"/bin/x\"", "line 6: build-id: 'xyz' is "
		  "not hex" },
		{ 6, "object 0 - /bin/x", "line 6: path: not a string in "
		  "double quotes" },
		{ 6, "object 0 - \"/bin/%zz\"", "line 6: path: '%' not "
		  "followed by two hex digits" },
		{ 6, "object 0 - \"/bin/%00\"", "line 6: path: a NUL byte" },
		{ 6, "object 0 - \"\"", "line 6: an object needs a path" },
		{ 8, "process 0 1 0 \"0123456789abcdef\" - 1 0 0 0 0 0 0 0",
		  "line 8: comm: a string of at most 15 bytes" },
		{ 8, "process 0 2147483648 0 \"x\" - 1 0 0 0 0 0 0 0",
		  "line 8: pid: 2147483648 is out of range" },
		{ 10, "count 1 0 0 1", "line 10: process 1: out of range "
		  "(there are 1)" },
		{ 10, "count 0 7 0 1", "line 10: object 7: out of range "
		  "(there are 1)" },
		{ 10, "count 0 0 0 2", "line 13: 'range' expected, not 'end'" },
		{ 11, "range 0x1010 0x1000 4 1", "line 11: range 0x1010-0x1000:"
		  " empty" },
		{ 11, "range 1000 0x1010 4 1", "line 11: low: '1000' is not "
		  "0x hex" },
		{ 11, "range 0x1000 0x1010 17 1", "line 11: range: 17 bins for "
		  "16 bytes" },
		{ 11, "range 0x1000 0x1010 4 5", "line 11: bins set: 5 is out "
		  "of range (at most 4)" },
		{ 11, "range 0x1000 0x1010 67108865 1", "line 11: bins: "
		  "67108865 is out of range" },
		{ 12, "bin 4 1", "line 12: bin 4: not in [0, 4)" },
		{ 12, "bin 3 0", "line 12: bin 3: a zero count" },
		{ 12, "bin 3 1x", "line 12: bin count: '1x' is not a number" },
		{ 13, "end x", "line 13: 'end' has 0 fields, not 1" },
		{ 13, "end\nmore", "line 14: more after 'end'" },
	};
	struct profile p;
	char e[256], *t;
	size_t i, n;

	(void)state;
	assert_int_equal(load_str(mini, strlen(mini), &p, e, sizeof(e)), 0);
	assert_int_equal(profile_total(&p), 1);
	profile_free(&p);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		t = with_line(mini, cases[i].line, cases[i].text);
		e[0] = '\0';
		if (!load_str(t, strlen(t), &p, e, sizeof(e)) ||
		    strncmp(e, cases[i].msg, strlen(cases[i].msg)))
			fail_msg("case %zu: \"%s\", not \"%s\"", i, e,
				 cases[i].msg);
		assert_int_equal(errno, EINVAL);
		assert_int_equal(p.nobjects + p.ncounts, 0);
		free(t);
	}
	/* A second count of the same pair, counts out of order. */
	t = NULL;
	assert_true(asprintf(&t, "%.*scounts 2\ncount 0 0 0 0\ncount 0 0 0 "
			     "0\nend\n", (int)(strstr(mini, "counts") - mini),
			     mini) > 0);
	assert_int_equal(load_str(t, strlen(t), &p, e, sizeof(e)), -1);
	cli_test_has(e, "line 11: count 0 0: counts go up by process, then object");
	free(t);
	/* Bins going down. */
	t = with_line(mini, 11, "range 0x1000 0x1010 4 2\nbin 3 1\nbin 1 1");
	assert_int_equal(load_str(t, strlen(t), &p, e, sizeof(e)), -1);
	cli_test_has(e, "line 13: bin 1: not in [4, 4)");
	free(t);
	/* Overlapping ranges. */
	t = with_line(mini, 10, "count 0 0 0 2\nrange 0x1000 0x1010 4 0\n"
		      "range 0x1008 0x1010 2 0");
	assert_int_equal(load_str(t, strlen(t), &p, e, sizeof(e)), -1);
	cli_test_has(e, "line 12: range 0x1008-0x1010: empty, or not above");
	free(t);
	/* Every proper prefix fails, with a line number; never a crash. */
	for (n = 0; n < strlen(mini); n++) {
		if (!load_str(mini, n, &p, e, sizeof(e)))
			fail_msg("a prefix of %zu bytes loads", n);
		if (strncmp(e, "line ", 5))
			fail_msg("prefix %zu: \"%s\"", n, e);
	}
	/* gzip's magic, then garbage. */
	assert_int_equal(load_str("\x1f\x8bxxxxxxxxxxxx", 14, &p, e,
				  sizeof(e)), -1);
	cli_test_has(e, "gzip: ");
}

/* Random single-byte changes of a real saved profile: no crash. */
static void test_mutations(void **state)
{
	struct profile p, q;
	char e[256], *a;
	size_t len, i, k;

	(void)state;
	build_odd(&p);
	a = save_str(&p);
	len = strlen(a);
	srand(1);
	for (i = 0; i < 3000; i++) {
		char *m = malloc(len);

		assert_non_null(m);
		memcpy(m, a, len);
		for (k = 0; k < 1 + (size_t)rand() % 3; k++)
			m[(size_t)rand() % len] = "0 9\n-x\"%*fF\x01"
				[rand() % 13];
		if (!load_str(m, len, &q, e, sizeof(e)))
			profile_free(&q);
		else
			assert_true(!strncmp(e, "line ", 5));
		free(m);
	}
	free(a);
	profile_free(&p);
}

/* gprof -b -p @bin @gmon: its flat profile. */
static char *gprof(const char *bin, const char *gmon)
{
	char *cmd, *buf = NULL;
	size_t len = 0, n;
	char chunk[4096];
	FILE *f, *m;

	assert_true(asprintf(&cmd, "gprof -b -p %s %s 2>&1", bin, gmon) > 0);
	f = popen(cmd, "r");
	assert_non_null(f);
	m = open_memstream(&buf, &len);
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
		fwrite(chunk, 1, n, m);
	pclose(f);
	fclose(m);
	free(cmd);
	return buf;
}

static void test_gmon(void **state)
{
	const uint64_t b[1] = { 2 };
	struct profile p;
	char base[128], *s;
	struct profile_count *c;

	(void)state;
	if (sh("gprof --version >/dev/null 2>&1"))
		skip();
	build(&p);
	/* A second library of the same base name, elsewhere. */
	assert_int_equal(profile_object_add(&p, "/elsewhere/cli_so_target.so",
					    NULL), 3);
	c = profile_count_get(&p, 1, 3);
	add_range(c, 0x2000, 0x2004, b, 1);
	snprintf(base, sizeof(base), "%s/gmon.out", dir);
	assert_int_equal(profile_write_gmon(base, &p, "test"), 0);
	assert_int_equal(sh("test -s %s -a -s %s.cli_so_target.so -a -s "
			    "%s.libgone.so -a -s %s.cli_so_target.so.2 -a ! "
			    "-e %s.cli_sym_target", base, base, base, base,
			    base), 0);
	/* gprof reads the program's and the library's. */
	s = gprof(SYM, base);
	cli_test_has(s, " 83.33      0.10     0.10                             "
	    "target_alpha");
	free(s);
	snprintf(base + strlen(base), sizeof(base) - strlen(base),
		 ".cli_so_target.so");
	s = gprof(SO, base);
	cli_test_has(s, "100.00      0.05     0.05                             so_work");
	free(s);
	profile_free(&p);
}

static void expect(int code, int want, const char *buf, const char *msg)
{
	if (code != want || !strstr(buf, msg))
		fail_msg("exit %d (want %d), no \"%s\" in:\n%s\n--\n%s", code,
			 want, msg, out, err);
}

static void test_report_cmd(void **state)
{
	char path[128], gz[160], gm[160];
	struct profile p;
	char *a;

	(void)state;
	build(&p);
	a = save_str(&p);
	snprintf(path, sizeof(path), "%s/whole.profile", dir);
	write_file(path, a);
	free(a);
	/* report FILE, report -f FILE, report -f - */
	expect(ctl("report", "--per-object", path, NULL), 0, out,
	       "# 24 samples, ");
	expect(0, 0, out, "== " SYM ": 12 samples, 50.00% ==");
	assert_string_equal(err, "");
	expect(ctl("report", "-f", path, "--per-process", "--per-object",
		   NULL), 0, out, "==== pid 101 (so user)");
	expect(ctl("report", "--format=json", path, NULL), 0, out,
	       "\"parts\": [");
	snprintf(gz, sizeof(gz), "%s.gz", path);
	assert_int_equal(sh("gzip -kf %s", path), 0);
	expect(ctl("report", "-b", gz, NULL), 0, out, "target_alpha+0");
	/* --format=gmon: one file per object. */
	snprintf(gm, sizeof(gm), "%s/g.out", dir);
	expect(ctl("report", path, "--format=gmon", "-o", gm, NULL), 0, err,
	       "g.out.cli_so_target.so: gmon.out of " SO);
	assert_int_equal(sh("test -s %s -a -s %s.libgone.so", gm, gm), 0);
	/* Usage: a binary with a saved profile; --per-process, gmon.out. */
	expect(ctl("report", "-e", SYM, "-f", path, NULL), 2, err,
	       "is a saved profile, which names its objects: no BINARY");
	expect(ctl("report", "--per-process", "-e", SYM, "-f", gm, NULL), 2,
	       err, "--per-process: " );
	expect(ctl("report", "--callgraph", path, NULL), 2, err,
	       "is a saved profile, which has no call arcs");
	/* A broken one: the line. */
	write_file(path, "profil-ctl-profile 1\nrate x\n");
	expect(ctl("report", path, NULL), 1, err, "whole.profile: line 2: "
	       "rate: 'x' is not a number");
	profile_free(&p);
}

/* Saves @p to @dir/@name; the path in @path. */
static void save_as(const struct profile *p, const char *name, char *path,
		    size_t len)
{
	char *a = save_str(p);

	snprintf(path, len, "%s/%s", dir, name);
	write_file(path, a);
	free(a);
}

/*
 * report FILE FILE...: saved profiles side by side, objects matched by
 * build-id, a gmon.out of the program with them; a profile of another
 * program (build-id), rate or bin size is refused by name.
 */
static void test_report_merge(void **state)
{
	char a[128], b[128], other[128], rate[128], gm[160], msg[512];
	struct profile p;

	(void)state;
	build(&p);
	save_as(&p, "a.profile", a, sizeof(a));
	save_as(&p, "b.profile", b, sizeof(b));
	/* Twice the samples, the same shares; four processes. */
	expect(ctl("report", "--per-object", a, b, NULL), 0, out,
	       "# 48 samples, 0.480 s at 100 Hz, of 1.260 s CPU time");
	expect(0, 0, out, "== " SYM ": 24 samples, 50.00% ==");
	expect(0, 0, out, "== " SO " (build-id " WRONG_ID "): 16 samples, "
	       "33.33% ==");
	expect(ctl("report", "--per-process", "--per-object", a, b, NULL), 0,
	       out, "==== pid 101 (so user)");
	if (strstr(strstr(out, "==== pid 101") + 1, "==== pid 101") == NULL)
		fail_msg("pid 101 once only:\n%s", out);
	expect(ctl("report", "-e", SYM, a, b, NULL), 2, err,
	       "saved profiles name their objects: no BINARY");
	/* The program's gmon.out (profil-ctl's own rewrite) joins them. */
	snprintf(gm, sizeof(gm), "%s/g.out", dir);
	expect(ctl("report", a, "--format=gmon", "-o", gm, NULL), 0, err,
	       "g.out");
	expect(ctl("report", "--per-object", SYM, a, gm, NULL), 0, out,
	       "== " SYM ": 24 samples,");
	expect(0, 0, out, "# 36 samples, ");

	/* Another program: the main executable's build-ids differ. */
	p.objects[0].build_id = strdup("aabbccdd");
	save_as(&p, "x.profile", a, sizeof(a));
	free(p.objects[0].build_id);
	p.objects[0].build_id = strdup("eeff0011");
	save_as(&p, "y.profile", other, sizeof(other));
	snprintf(msg, sizeof(msg), "profil-ctl: report: %s and %s: not "
		 "profiles of one program (build-id aabbccdd and eeff0011)",
		 a, other);
	expect(ctl("report", a, other, NULL), 1, err, msg);
	/* Other rates, other bins. */
	p.rate = 1000;
	save_as(&p, "rate.profile", rate, sizeof(rate));
	snprintf(msg, sizeof(msg), "%s and %s: rates differ (100 and 1000 "
		 "Hz)", other, rate);
	expect(ctl("report", other, rate, NULL), 1, err, msg);
	p.rate = 100;
	p.bin_bytes = 8;
	save_as(&p, "bins.profile", rate, sizeof(rate));
	snprintf(msg, sizeof(msg), "%s and %s: bins of 4 and 8 bytes", other,
		 rate);
	expect(ctl("report", other, rate, NULL), 1, err, msg);
	/*
	 * Another program by path, one of them without a build-id: refused
	 * by merge and diff alike, unless --force.
	 */
	p.bin_bytes = 4;
	free(p.objects[0].build_id);
	p.objects[0].build_id = NULL;
	free(p.objects[0].path);
	p.objects[0].path = strdup("/elsewhere/other");
	free(p.processes[0].exe);
	p.processes[0].exe = strdup("/elsewhere/other");
	save_as(&p, "other.profile", rate, sizeof(rate));
	snprintf(msg, sizeof(msg), "%s and %s: not profiles of one program "
		 "(" SYM " and /elsewhere/other, one without a build-id): "
		 "--force to combine them anyway", b, rate);
	expect(ctl("report", b, rate, NULL), 1, err, msg);
	expect(ctl("report", "--diff", b, rate, NULL), 1, err, msg);
	expect(ctl("report", "--force", b, rate, NULL), 0, out,
	       "# 48 samples, ");
	/* One file by another name is the same program. */
	free(p.objects[0].path);
	p.objects[0].path = strdup(UNIT_OUT "/../unit/cli_sym_target");
	free(p.processes[0].exe);
	p.processes[0].exe = strdup(UNIT_OUT "/../unit/cli_sym_target");
	save_as(&p, "renamed.profile", rate, sizeof(rate));
	expect(ctl("report", b, rate, NULL), 0, out, "# 48 samples, ");
	/* --diff of a profile with itself: no change anywhere. */
	expect(ctl("report", "--diff", b, b, NULL), 0, out,
	       "       10        10        +0   41.67   41.67    +0.00  "
	       "target_alpha\n");
	expect(0, 0, out, "so_work (cli_so_target.so)\n");
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
	build(&p);
	save_as(&p, "list.profile", path, sizeof(path));
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
	s = report_str(&p, RENDER_FUNCS, RENDER_TEXT, false, false);
	cli_test_has(s, "  so_aa_alias\n");
	free(s);
	s = report_str(&p, RENDER_LINES, RENDER_TEXT, false, false);
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
	s = report_str(&p, RENDER_FUNCS, RENDER_TEXT, false, false);
	cli_test_has(s, "  so_b_new\n");
	assert_null(strstr(s, "@SO_1"));
	free(s);
	profile_free(&p);
}

/*
 * The command line names the profile: kept by save and load, the HTML
 * page's title, callgrind's cmd:, JSON's "command" (pprof's comment:
 * pprof_test.sh, through go tool pprof -comments).
 */
static void test_command(void **state)
{
	char *const argv[] = { "sh", "-c", "sort f | wc" };
	char path[128];
	struct profile p, q;
	char e[256], *a;

	(void)state;
	build(&p);
	assert_int_equal(profile_set_command(&p, argv, 3), 0);
	assert_string_equal(p.command, "sh -c 'sort f | wc'");
	a = save_str(&p);
	cli_test_has(a, "\ncommand \"sh%20-c%20'sort%20f%20|%20wc'\"\n");
	memset(&q, 0, sizeof(q));
	assert_int_equal(load_str(a, strlen(a), &q, e, sizeof(e)), 0);
	assert_string_equal(q.command, p.command);
	profile_free(&q);
	snprintf(path, sizeof(path), "%s/cmd.profile", dir);
	write_file(path, a);
	free(a);
	profile_free(&p);
	expect(ctl("report", "--format=html", path, NULL), 0, out,
	       "<title>profil-ctl: sh -c ");
	expect(0, 0, out, "Profile of <code>sh -c ");
	expect(ctl("report", "--format=callgrind", path, NULL), 0, out,
	       "\ncmd: sh -c 'sort f | wc'\n");
	expect(ctl("report", "--format=json", path, NULL), 0, out,
	       "\"command\": \"sh -c 'sort f | wc'\"");
}

/*
 * The default CSV, the ranked list, read by Python's csv module as
 * most CSV readers read a file: no comment lines, one header row, then
 * a row per entry, most samples first; notes on standard error.
 */
static void test_csv_reader(void **state)
{
	static const char check[] =
		"import csv, sys\n"
		"rows = list(csv.DictReader(open(sys.argv[1], newline='')))\n"
		"assert [r['function'] for r in rows[:2]] == "
		"['target_alpha', 'so_work'], rows\n"
		"assert rows[0]['comm'] == 'sym' and rows[0]['object'] == "
		"sys.argv[2], rows[0]\n"
		"assert rows[0]['count'] == '10' and rows[0]['percent'] == "
		"'41.6667', rows[0]\n"
		"assert sum(float(r['count']) for r in rows) == 24, rows\n"
		"assert all(r['pid'] == '' for r in rows), rows\n";
	char path[128], py[128];
	char *a;

	(void)state;
	if (sh("python3 -c 'import csv' 2>/dev/null"))
		skip();
	{
		struct profile p;

		build(&p);
		a = save_str(&p);
		profile_free(&p);
	}
	snprintf(path, sizeof(path), "%s/csv.profile", dir);
	write_file(path, a);
	free(a);
	expect(ctl("report", "--format=csv", path, NULL), 0, err,
	       "profil-ctl: report: note: " GONE ": no symbols");
	snprintf(path, sizeof(path), "%s/list.csv", dir);
	write_file(path, out);
	snprintf(py, sizeof(py), "%s/check_csv.py", dir);
	write_file(py, check);
	if (sh("python3 %s %s %s", py, path, SYM))
		fail_msg("python3's csv module on:\n%s", out);
}

static int setup(void **state)
{
	(void)state;
	return mkdtemp(dir) ? 0 : -1;
}

static int rm_entry(const char *path, const struct stat *sb, int flag,
		    struct FTW *ftw)
{
	(void)sb;
	(void)flag;
	(void)ftw;
	return remove(path);
}

static int teardown(void **state)
{
	(void)state;
	return nftw(dir, rm_entry, 8, FTW_DEPTH | FTW_PHYS);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_header),
		cmocka_unit_test(test_objects),
		cmocka_unit_test(test_per_process),
		cmocka_unit_test(test_views),
		cmocka_unit_test(test_json),
		cmocka_unit_test(test_csv),
		cmocka_unit_test(test_save_load),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_mutations),
		cmocka_unit_test(test_gmon),
		cmocka_unit_test(test_report_cmd),
		cmocka_unit_test(test_report_merge),
		cmocka_unit_test(test_ranked_list),
		cmocka_unit_test(test_csv_reader),
		cmocka_unit_test(test_one_name),
		cmocka_unit_test(test_command),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
