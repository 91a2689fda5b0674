// SPDX-License-Identifier: GPL-2.0
/*
 * The whole-program profile the test_cli_profile*.c drivers share
 * (cli_test_profile.h): built by hand, reported and saved into strings,
 * and a scratch directory for profil-ctl's runs.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "profile.h"
#include "profile_file.h"
#include "profile_report.h"
#include "report.h"
#include "cli_test.h"
#include "cli_test_profile.h"

char dir[] = "/tmp/test_cli_profileXXXXXX";
char out[65536], err[16384];

void whole_add_range(struct profile_count *c, uint64_t low, uint64_t high,
		     const uint64_t *bins, size_t n)
{
	assert_int_equal(hist_add_range(&c->hist, low, high, bins, n), 0);
}

void whole_build(struct profile *p)
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
	whole_add_range(c, alpha, alpha + 4, b10, 1);
	whole_add_range(c, 0x100, 0x108, b2, 2);
	c = profile_count_get(p, 0, 1);
	c->uncovered = 3;
	c = profile_count_get(p, 1, 1);
	whole_add_range(c, work, work + 8, b5, 2);
	c = profile_count_get(p, 1, 2);
	whole_add_range(c, 0x1000, 0x1010, b13, 4);
}

void whole_build_odd(struct profile *p)
{
	const uint64_t b[3] = { 0, 7, UINT64_MAX - 1 };
	struct profile_count *c;

	whole_build(p);
	assert_int_equal(profile_object_add(p, "/tmp/a b/\"q\"%/l\xc3\xa9.so",
					    "ABCDEF12"), 3);
	assert_int_equal(profile_process_add(p, 102, 0, "", "-"), 2);
	assert_int_equal(profile_process_add(p, 103, 0, "-", "\t"), 3);
	profile_acct_unknown(&p->processes[3].acct);
	c = profile_count_get(p, PROFILE_ALL_PROCESSES, 3);
	c->uncovered = 1;
	whole_add_range(c, 0xffffffffffff0000ULL, 0xffffffffffffff00ULL, b, 3);
	c = profile_count_get(p, 3, 0);
	c->uncovered = UINT64_MAX;
}

char *whole_report(const struct profile *p, enum render_view view,
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

char *whole_save(const struct profile *p)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(profile_save(f, p), 0);
	assert_int_equal(fclose(f), 0);
	return buf;
}

int whole_load(const char *s, size_t len, struct profile *p, char *e,
	       size_t elen)
{
	return profile_load_mem(s, len, p, e, elen);
}

void whole_save_as(const struct profile *p, const char *name, char *path,
		   size_t len)
{
	char *a = whole_save(p);

	snprintf(path, len, "%s/%s", dir, name);
	whole_write_file(path, a);
	free(a);
}

void expect(int code, int want, const char *buf, const char *msg)
{
	if (code != want || !strstr(buf, msg))
		fail_msg("exit %d (want %d), no \"%s\" in:\n%s\n--\n%s", code,
			 want, msg, out, err);
}

int whole_sh(const char *fmt, ...)
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

void whole_write_file(const char *path, const char *s)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	assert_true(fputs(s, f) >= 0);
	assert_int_equal(fclose(f), 0);
}

int whole_setup(void **state)
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

int whole_teardown(void **state)
{
	(void)state;
	return nftw(dir, rm_entry, 8, FTW_DEPTH | FTW_PHYS);
}
