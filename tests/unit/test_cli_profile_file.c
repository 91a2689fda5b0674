// SPDX-License-Identifier: GPL-2.0
/*
 * The whole-program profile's saved file (cli/profile/profile_file.c)
 * and "profil-ctl report FILE" on it, with the profile
 * cli_test_profile.c builds by hand:
 * - save, load, save again gives the same bytes (plain and gzip'ed);
 * - malformed files give an error with the line; no prefix of a file
 *   loads; mutated files never crash the loader;
 * - "profil-ctl report FILE" on a saved profile, gzip'ed, as gmon.out;
 * - "report FILE FILE...": saved profiles merged, or refused by name.
 * The text report: test_cli_profile.c; JSON, CSV and gmon.out:
 * test_cli_profile_formats.c.
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

#include "profile.h"
#include "profile_file.h"
#include "cli_test.h"
#include "cli_test_profile.h"

static void test_save_load(void **state)
{
	struct profile p, q;
	char e[256], *a, *b, path[128], gz[160];
	FILE *f;

	(void)state;
	whole_build_odd(&p);
	a = whole_save(&p);
	assert_true(!strncmp(a, "profil-ctl-profile 1\nrate 100\n", 30));
	cli_test_has(a, "\nobject 3 ABCDEF12 \"/tmp/a%20b/%22q%22%25/l%C3%A9.so\"\n");
	cli_test_has(a, "\nprocess 2 102 0 \"\" \"-\" ");
	cli_test_has(a, "\nprocess 3 103 0 \"-\" \"%09\" - - - - - - - -\n");
	cli_test_has(a, "\nprocess 1 101 100 \"so%20user\" - 20 1 3 0 1 2 1 -\n");
	cli_test_has(a, "\ncount * 3 1 1\nrange 0xffffffffffff0000 0xffffffffffffff00 "
	    "3 2\nbin 1 7\nbin 2 18446744073709551614\n");
	cli_test_has(a, "\ncount 1 2 0 1\nrange 0x1000 0x1010 4 2\nbin 0 1\nbin 2 3\n");
	cli_test_has(a, "\ncount 3 0 18446744073709551615 0\n");
	assert_int_equal(whole_load(a, strlen(a), &q, e, sizeof(e)), 0);
	b = whole_save(&q);
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
	whole_write_file(path, a);
	assert_int_equal(whole_sh("gzip -kf %s", path), 0);
	f = fopen(gz, "r");
	assert_non_null(f);
	assert_int_equal(profile_load(f, &q, e, sizeof(e)), 0);
	fclose(f);
	b = whole_save(&q);
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
	assert_int_equal(whole_load(mini, strlen(mini), &p, e, sizeof(e)), 0);
	assert_int_equal(profile_total(&p), 1);
	profile_free(&p);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		t = with_line(mini, cases[i].line, cases[i].text);
		e[0] = '\0';
		if (!whole_load(t, strlen(t), &p, e, sizeof(e)) ||
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
	assert_int_equal(whole_load(t, strlen(t), &p, e, sizeof(e)), -1);
	cli_test_has(e, "line 11: count 0 0: counts go up by process, then object");
	free(t);
	/* Bins going down. */
	t = with_line(mini, 11, "range 0x1000 0x1010 4 2\nbin 3 1\nbin 1 1");
	assert_int_equal(whole_load(t, strlen(t), &p, e, sizeof(e)), -1);
	cli_test_has(e, "line 13: bin 1: not in [4, 4)");
	free(t);
	/* Overlapping ranges. */
	t = with_line(mini, 10, "count 0 0 0 2\nrange 0x1000 0x1010 4 0\n"
		      "range 0x1008 0x1010 2 0");
	assert_int_equal(whole_load(t, strlen(t), &p, e, sizeof(e)), -1);
	cli_test_has(e, "line 12: range 0x1008-0x1010: empty, or not above");
	free(t);
	/* Every proper prefix fails, with a line number; never a crash. */
	for (n = 0; n < strlen(mini); n++) {
		if (!whole_load(mini, n, &p, e, sizeof(e)))
			fail_msg("a prefix of %zu bytes loads", n);
		if (strncmp(e, "line ", 5))
			fail_msg("prefix %zu: \"%s\"", n, e);
	}
	/* gzip's magic, then garbage. */
	assert_int_equal(whole_load("\x1f\x8bxxxxxxxxxxxx", 14, &p, e,
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
	whole_build_odd(&p);
	a = whole_save(&p);
	len = strlen(a);
	srand(1);
	for (i = 0; i < 3000; i++) {
		char *m = malloc(len);

		assert_non_null(m);
		memcpy(m, a, len);
		for (k = 0; k < 1 + (size_t)rand() % 3; k++)
			m[(size_t)rand() % len] = "0 9\n-x\"%*fF\x01"
				[rand() % 13];
		if (!whole_load(m, len, &q, e, sizeof(e)))
			profile_free(&q);
		else
			assert_true(!strncmp(e, "line ", 5));
		free(m);
	}
	free(a);
	profile_free(&p);
}

static void test_report_cmd(void **state)
{
	char path[128], gz[160], gm[160];
	struct profile p;
	char *a;

	(void)state;
	whole_build(&p);
	a = whole_save(&p);
	snprintf(path, sizeof(path), "%s/whole.profile", dir);
	whole_write_file(path, a);
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
	assert_int_equal(whole_sh("gzip -kf %s", path), 0);
	expect(ctl("report", "-b", gz, NULL), 0, out, "target_alpha+0");
	/* --format=gmon: one file per object. */
	snprintf(gm, sizeof(gm), "%s/g.out", dir);
	expect(ctl("report", path, "--format=gmon", "-o", gm, NULL), 0, err,
	       "g.out.cli_so_target.so: gmon.out of " SO);
	assert_int_equal(whole_sh("test -s %s -a -s %s.libgone.so", gm, gm), 0);
	/* Usage: a binary with a saved profile; --per-process, gmon.out. */
	expect(ctl("report", "-e", SYM, "-f", path, NULL), 2, err,
	       "is a saved profile, which names its objects: no BINARY");
	expect(ctl("report", "--per-process", "-e", SYM, "-f", gm, NULL), 2,
	       err, "--per-process: " );
	expect(ctl("report", "--callgraph", path, NULL), 2, err,
	       "is a saved profile, which has no call arcs");
	/* A broken one: the line. */
	whole_write_file(path, "profil-ctl-profile 1\nrate x\n");
	expect(ctl("report", path, NULL), 1, err, "whole.profile: line 2: "
	       "rate: 'x' is not a number");
	profile_free(&p);
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
	whole_build(&p);
	whole_save_as(&p, "a.profile", a, sizeof(a));
	whole_save_as(&p, "b.profile", b, sizeof(b));
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
	whole_save_as(&p, "x.profile", a, sizeof(a));
	free(p.objects[0].build_id);
	p.objects[0].build_id = strdup("eeff0011");
	whole_save_as(&p, "y.profile", other, sizeof(other));
	snprintf(msg, sizeof(msg), "profil-ctl: report: %s and %s: not "
		 "profiles of one program (build-id aabbccdd and eeff0011)",
		 a, other);
	expect(ctl("report", a, other, NULL), 1, err, msg);
	/* Other rates, other bins. */
	p.rate = 1000;
	whole_save_as(&p, "rate.profile", rate, sizeof(rate));
	snprintf(msg, sizeof(msg), "%s and %s: rates differ (100 and 1000 "
		 "Hz)", other, rate);
	expect(ctl("report", other, rate, NULL), 1, err, msg);
	p.rate = 100;
	p.bin_bytes = 8;
	whole_save_as(&p, "bins.profile", rate, sizeof(rate));
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
	whole_save_as(&p, "other.profile", rate, sizeof(rate));
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
	whole_save_as(&p, "renamed.profile", rate, sizeof(rate));
	expect(ctl("report", b, rate, NULL), 0, out, "# 48 samples, ");
	/* --diff of a profile with itself: no change anywhere. */
	expect(ctl("report", "--diff", b, b, NULL), 0, out,
	       "       10        10        +0   41.67   41.67    +0.00  "
	       "target_alpha\n");
	expect(0, 0, out, "so_work (cli_so_target.so)\n");
	profile_free(&p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_save_load),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_mutations),
		cmocka_unit_test(test_report_cmd),
		cmocka_unit_test(test_report_merge),
	};

	return cmocka_run_group_tests(tests, whole_setup, whole_teardown);
}
