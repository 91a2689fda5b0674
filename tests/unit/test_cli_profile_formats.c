// SPDX-License-Identifier: GPL-2.0
/*
 * The whole-program profile's formats (cli/format/profile_report.c,
 * profile_gmon.c, and profil-ctl report's HTML, callgrind and JSON) on
 * the profile cli_test_profile.c builds by hand:
 * - JSON that python3's json module reads, with the structure
 *   Documentation/profil-ctl/whole-program.rst gives; CSV columns;
 * - the default CSV, the ranked list, as Python's csv module reads it;
 * - one gmon.out per object, named as documented, read by GNU gprof;
 * - the command line that names the profile, in each format.
 * The text report: test_cli_profile.c; the saved format:
 * test_cli_profile_file.c.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profile.h"
#include "profile_file.h"
#include "profile_report.h"
#include "cli_test.h"
#include "cli_test_profile.h"

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
	if (whole_sh("python3 -c 'import json' 2>/dev/null"))
		skip();
	whole_build(&p);
	snprintf(path, sizeof(path), "%s/report.json", dir);
	snprintf(py, sizeof(py), "%s/check.py", dir);
	whole_write_file(py, check);
	for (v = 0; v < 3; v++)
		for (pp = 0; pp < 2; pp++)
			for (verbose = 0; verbose < 2; verbose++) {
				s = whole_report(&p, (enum render_view)v,
						 RENDER_JSON, pp, verbose);
				whole_write_file(path, s);
				if (whole_sh("python3 -m json.tool %s "
					     ">/dev/null && python3 %s %s %s "
					     "%s %s %s", path, py, path,
					     views[v], SYM, SO, GONE))
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
	whole_build(&p);
	for (v = 0; v < 3; v++) {
		s = whole_report(&p, (enum render_view)v, RENDER_CSV,
				 v == 0, false);
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
	s = whole_report(&p, RENDER_FUNCS, RENDER_CSV, true, false);
	cli_test_has(s, "\n100,sym," SYM ",,target_alpha,0x");
	cli_test_has(s, "\n100,sym," SYM ",,[unknown],,,2,8.3333,0.020000,0\n");
	cli_test_has(s, "\n100,sym," SO "," WRONG_ID "," PROFILE_UNCOVERED_ROW
	    ",,,3,12.5000,0.030000,0\n");
	cli_test_has(s, "\n101,so user," GONE ",,[unknown],,,4,16.6667,0.040000,0\n");
	free(s);
	s = whole_report(&p, RENDER_FUNCS, RENDER_CSV, false, false);
	cli_test_has(s, "\n,," SO "," WRONG_ID ",so_work,0x");
	free(s);
	profile_free(&p);
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
	if (whole_sh("python3 -c 'import csv' 2>/dev/null"))
		skip();
	{
		struct profile p;

		whole_build(&p);
		a = whole_save(&p);
		profile_free(&p);
	}
	snprintf(path, sizeof(path), "%s/csv.profile", dir);
	whole_write_file(path, a);
	free(a);
	expect(ctl("report", "--format=csv", path, NULL), 0, err,
	       "profil-ctl: report: note: " GONE ": no symbols");
	snprintf(path, sizeof(path), "%s/list.csv", dir);
	whole_write_file(path, out);
	snprintf(py, sizeof(py), "%s/check_csv.py", dir);
	whole_write_file(py, check);
	if (whole_sh("python3 %s %s %s", py, path, SYM))
		fail_msg("python3's csv module on:\n%s", out);
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
	if (whole_sh("gprof --version >/dev/null 2>&1"))
		skip();
	whole_build(&p);
	/* A second library of the same base name, elsewhere. */
	assert_int_equal(profile_object_add(&p, "/elsewhere/cli_so_target.so",
					    NULL), 3);
	c = profile_count_get(&p, 1, 3);
	whole_add_range(c, 0x2000, 0x2004, b, 1);
	snprintf(base, sizeof(base), "%s/gmon.out", dir);
	assert_int_equal(profile_write_gmon(base, &p, "test"), 0);
	assert_int_equal(whole_sh("test -s %s -a -s %s.cli_so_target.so -a "
				  "-s %s.libgone.so -a -s "
				  "%s.cli_so_target.so.2 -a ! -e "
				  "%s.cli_sym_target", base, base, base,
				  base, base), 0);
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
	whole_build(&p);
	assert_int_equal(profile_set_command(&p, argv, 3), 0);
	assert_string_equal(p.command, "sh -c 'sort f | wc'");
	a = whole_save(&p);
	cli_test_has(a, "\ncommand \"sh%20-c%20'sort%20f%20|%20wc'\"\n");
	memset(&q, 0, sizeof(q));
	assert_int_equal(whole_load(a, strlen(a), &q, e, sizeof(e)), 0);
	assert_string_equal(q.command, p.command);
	profile_free(&q);
	snprintf(path, sizeof(path), "%s/cmd.profile", dir);
	whole_write_file(path, a);
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_json),
		cmocka_unit_test(test_csv),
		cmocka_unit_test(test_gmon),
		cmocka_unit_test(test_csv_reader),
		cmocka_unit_test(test_command),
	};

	return cmocka_run_group_tests(tests, whole_setup, whole_teardown);
}
