// SPDX-License-Identifier: GPL-2.0
/*
 * profil-ctl against GNU gprof on one gmon.out: a glibc -pg program
 * (cli_pg_target.c) writes it on the host, then gprof -b -p and
 * profil-ctl's reader, symbols and renderer read the same file.
 * - per function, the seconds agree to gprof's two decimals (gprof
 *   credits a bin by its nominal width, we by its real one: glibc's
 *   bins are not exactly 4 bytes, so the third decimal may differ)
 *   and the call counts are equal;
 * - profil-ctl's gmon.out rewrite reads in gprof exactly as the
 *   original does.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "gmon_read.h"
#include "hist.h"
#include "render.h"
#include "symbols.h"

#define TARGET UNIT_OUT "/cli_pg_target"
#define MAXF 64

struct frow {
	char name[128];
	double seconds;
	unsigned long long calls;
};

struct flat {
	struct frow r[MAXF];
	size_t n;
};

static char dir[] = "/tmp/test_cli_gprofXXXXXX";
static char gmon[64], rewrite[64];

/* Runs the target in @dir, where it leaves gmon.out. */
static int setup(void **state)
{
	pid_t pid;
	int st;

	(void)state;
	if (!mkdtemp(dir))
		return -1;
	snprintf(gmon, sizeof(gmon), "%s/gmon.out", dir);
	snprintf(rewrite, sizeof(rewrite), "%s/rewrite.out", dir);
	pid = fork();
	if (pid < 0)
		return -1;
	if (!pid) {
		if (chdir(dir))
			_exit(127);
		execl(TARGET, TARGET, (char *)NULL);
		_exit(127);
	}
	if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st) ||
	    WEXITSTATUS(st))
		return -1;
	return access(gmon, R_OK);
}

static int teardown(void **state)
{
	(void)state;
	unlink(gmon);
	unlink(rewrite);
	return rmdir(dir);
}

/* gprof's flat profile of @file: rows "%time cum self [calls s/c t/c] name". */
static void gprof_flat(const char *file, struct flat *fl)
{
	char cmd[512], line[512], name[128];
	double pct, cum, self;
	unsigned long long calls;
	FILE *p;
	int n;

	snprintf(cmd, sizeof(cmd), "gprof -b -p '%s' '%s' 2>&1", TARGET,
		 file);
	p = popen(cmd, "r");
	assert_non_null(p);
	fl->n = 0;
	while (fgets(line, sizeof(line), p)) {
		calls = 0;
		n = sscanf(line, "%lf %lf %lf %llu %*f %*f %127s", &pct, &cum,
			   &self, &calls, name);
		if (n != 5) {
			calls = 0;
			n = sscanf(line, "%lf %lf %lf %127s", &pct, &cum,
				   &self, name);
			if (n != 4)
				continue;
		}
		assert_true(fl->n < MAXF);
		snprintf(fl->r[fl->n].name, sizeof(fl->r[0].name), "%s", name);
		fl->r[fl->n].seconds = self;
		fl->r[fl->n].calls = calls;
		fl->n++;
	}
	assert_int_equal(pclose(p), 0);
}

/* profil-ctl's view of @file, through its CSV. */
static void ctl_flat(const char *file, struct flat *fl)
{
	struct render_opts o = { .view = RENDER_FUNCS,
				 .format = RENDER_CSV };
	struct render_syms s = { .funcs = NULL };
	struct hist h = { .rate = 0 };
	char err[256], *buf = NULL, *line, *save;
	struct symtab *st;
	size_t len = 0;
	FILE *f;

	st = symtab_open(TARGET, err, sizeof(err));
	if (!st)
		fail_msg("%s: %s", TARGET, err);
	if (gmon_read_file(file, symtab_ptr_size(st), &h, err, sizeof(err)))
		fail_msg("%s: %s", file, err);
	s.funcs = symtab_funcs(st, &s.nfuncs);
	f = open_memstream(&buf, &len);
	assert_non_null(f);
	assert_int_equal(render(f, &h, &s, &o), 0);
	assert_int_equal(fclose(f), 0);
	fl->n = 0;
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		struct frow *r = &fl->r[fl->n];
		double count, pct;

		if (!strncmp(line, "function,", 9) ||
		    !strncmp(line, "[unknown]", 9))
			continue;
		assert_true(fl->n < MAXF);
		assert_int_equal(sscanf(line, "%127[^,],%*[^,],%*[^,],%lf,%lf,"
					"%lf,%llu", r->name, &count, &pct,
					&r->seconds, &r->calls), 5);
		fl->n++;
	}
	free(buf);
	hist_free(&h);
	symtab_close(st);
}

static const struct frow *find(const struct flat *fl, const char *name)
{
	size_t i;

	for (i = 0; i < fl->n; i++)
		if (!strcmp(fl->r[i].name, name))
			return &fl->r[i];
	return NULL;
}

static void test_flat_profile(void **state)
{
	struct flat g, c;
	const struct frow *r;
	size_t i;

	(void)state;
	gprof_flat(gmon, &g);
	ctl_flat(gmon, &c);
	/* The three workers, at least, have time. */
	assert_non_null(find(&g, "pg_fifty"));
	assert_non_null(find(&g, "pg_thirty"));
	assert_non_null(find(&g, "pg_twenty"));
	for (i = 0; i < g.n; i++) {
		r = find(&c, g.r[i].name);
		if (!r)
			fail_msg("gprof has %s, profil-ctl not", g.r[i].name);
		if (fabs(r->seconds - g.r[i].seconds) > 0.005 + 1e-9)
			fail_msg("%s: gprof %.2f s, profil-ctl %.6f s",
				 g.r[i].name, g.r[i].seconds, r->seconds);
		assert_int_equal(r->calls, g.r[i].calls);
	}
	/* And nothing gprof would show is missing from its list. */
	for (i = 0; i < c.n; i++)
		if (c.r[i].seconds >= 0.005 || c.r[i].calls)
			assert_non_null(find(&g, c.r[i].name));
	/* main calls each worker four times. */
	assert_int_equal(find(&c, "pg_fifty")->calls, 4);
}

static void test_rewrite_reads_the_same(void **state)
{
	struct hist h = { .rate = 0 };
	struct flat a, b;
	char err[256];
	size_t i;
	FILE *f;

	(void)state;
	assert_int_equal(gmon_read_file(gmon, sizeof(void *), &h, err,
					sizeof(err)), 0);
	f = fopen(rewrite, "w");
	assert_non_null(f);
	assert_int_equal(render_gmon(f, &h), 0);
	assert_int_equal(fclose(f), 0);
	hist_free(&h);
	gprof_flat(gmon, &a);
	gprof_flat(rewrite, &b);
	assert_int_equal(a.n, b.n);
	assert_true(a.n >= 3);
	for (i = 0; i < a.n; i++) {
		assert_string_equal(a.r[i].name, b.r[i].name);
		assert_true(a.r[i].seconds == b.r[i].seconds);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_flat_profile),
		cmocka_unit_test(test_rewrite_reads_the_same),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
