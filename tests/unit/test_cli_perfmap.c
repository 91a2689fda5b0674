// SPDX-License-Identifier: GPL-2.0
/*
 * A JIT's perf map (cli/symbols/perfmap.c): good lines with and without
 * 0x, names with spaces, CRLF; malformed lines ignored and counted, no
 * crash on any; entries that overlap (the later line wins where it
 * covers, the earlier keeps the rest, split if need be); lookups at
 * each bound; /tmp/perf-PID.map by pid, unless it is another user's or
 * a symbolic link. A kernel-held profile's
 * [anon] samples given to a "[JIT] pid PID" object that keeps the map's
 * functions holding samples (held_jit.c); those functions in the saved
 * profile (its optional funcs sections) and by name in profil-ctl
 * report of it.
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
#include <unistd.h>

#include "cli_test.h"
#include "held_jit.h"
#include "objsyms.h"
#include "perfmap.h"
#include "profile_file.h"

static void parse(const char *text, struct perfmap *pm)
{
	FILE *f = fmemopen((void *)text, strlen(text), "r");

	assert_non_null(f);
	assert_int_equal(perfmap_parse(f, pm), 0);
	fclose(f);
}

static void expect_func(const struct perfmap *pm, size_t i, uint64_t addr,
			uint64_t end, const char *name)
{
	assert_true(i < pm->n);
	assert_int_equal(pm->funcs[i].addr, addr);
	assert_int_equal(pm->funcs[i].end, end);
	assert_string_equal(pm->funcs[i].name, name);
}

static void expect_at(const struct perfmap *pm, uint64_t addr,
		      const char *name)
{
	const struct sym_func *f = perfmap_find(pm, addr);

	if (!name) {
		if (f)
			fail_msg("%#llx: %s, want none",
				 (unsigned long long)addr, f->name);
		return;
	}
	if (!f)
		fail_msg("%#llx: none, want %s", (unsigned long long)addr,
			 name);
	assert_string_equal(f->name, name);
}

static void test_good_lines(void **state)
{
	struct perfmap pm;

	(void)state;
	parse("7f0000001000 40 LazyCompile:*fib /app/fib.js:1\n"
	      "0x7f0000000100 0x20 stub\r\n"
	      "7F0000002000 8 UPPER\n"
	      "7f0000003000 10 last-without-newline", &pm);
	assert_int_equal(pm.n, 4);
	assert_int_equal(pm.ignored, 0);
	expect_func(&pm, 0, 0x7f0000000100, 0x7f0000000120, "stub");
	expect_func(&pm, 1, 0x7f0000001000, 0x7f0000001040,
		    "LazyCompile:*fib /app/fib.js:1");
	expect_func(&pm, 2, 0x7f0000002000, 0x7f0000002008, "UPPER");
	expect_func(&pm, 3, 0x7f0000003000, 0x7f0000003010,
		    "last-without-newline");
	perfmap_free(&pm);
	assert_int_equal(pm.n, 0);
	assert_null(pm.funcs);
}

/* At each bound: the first byte in, the last in, the end out. */
static void test_bounds(void **state)
{
	struct perfmap pm;

	(void)state;
	parse("1000 10 a\n1010 10 b\n1030 1 c\n", &pm);
	expect_at(&pm, 0xfff, NULL);
	expect_at(&pm, 0x1000, "a");
	expect_at(&pm, 0x100f, "a");
	expect_at(&pm, 0x1010, "b");
	expect_at(&pm, 0x101f, "b");
	expect_at(&pm, 0x1020, NULL);
	expect_at(&pm, 0x102f, NULL);
	expect_at(&pm, 0x1030, "c");
	expect_at(&pm, 0x1031, NULL);
	expect_at(&pm, UINT64_MAX, NULL);
	perfmap_free(&pm);
	/*
	 * An end at 2^64 has no exclusive bound in 64 bits: ignored, as
	 * one past it; one byte short of it is kept.
	 */
	parse("fffffffffffffff0 10 top\nfffffffffffffff0 11 wraps\n", &pm);
	assert_int_equal(pm.n, 0);
	assert_int_equal(pm.ignored, 2);
	perfmap_free(&pm);
	parse("ffffffffffffffe0 1f top\n", &pm);
	expect_at(&pm, 0xfffffffffffffffe, "top");
	expect_at(&pm, UINT64_MAX, NULL);
	perfmap_free(&pm);
}

static void test_malformed(void **state)
{
	static const char *const bad[] = {
		"\n", "1000\n", "1000 10\n", "1000 10 \n", "1000 0 zero\n",
		"x1000 10 nothex\n", "1000 1g name\n", " 1000 10 lead\n",
		"1000  10 twospaces\n", "1000\t10 tab\n", "-1000 10 minus\n",
		"0x 10 nodigits\n", "10000000000000000 10 overflow\n",
		"1000 10000000000000000 bigsize\n", "1000 10\tname\n",
	};
	struct perfmap pm;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		parse(bad[i], &pm);
		if (pm.n)
			fail_msg("'%s' made %s", bad[i], pm.funcs[0].name);
		perfmap_free(&pm);
	}
	/* Among good ones: skipped, counted; the good kept. */
	parse("1000 10 a\ngarbage\n\n2000 0 empty\n3000 8 b\n", &pm);
	assert_int_equal(pm.n, 2);
	assert_int_equal(pm.ignored, 3);
	expect_func(&pm, 0, 0x1000, 0x1010, "a");
	expect_func(&pm, 1, 0x3000, 0x3008, "b");
	perfmap_free(&pm);
}

/* A NUL in a line, and a line far longer than any buffer. */
static void test_odd_bytes(void **state)
{
	static const char nul[] = "1000 10 a\0b\n2000 10 c\n";
	size_t len = 1 << 20;
	char *big = malloc(len + 32);
	struct perfmap pm;
	FILE *f;

	(void)state;
	f = fmemopen((void *)nul, sizeof(nul) - 1, "r");
	assert_non_null(f);
	assert_int_equal(perfmap_parse(f, &pm), 0);
	fclose(f);
	expect_at(&pm, 0x1000, "a");
	expect_at(&pm, 0x2000, "c");
	perfmap_free(&pm);

	assert_non_null(big);
	memcpy(big, "4000 10 ", 8);
	memset(big + 8, 'n', len);
	strcpy(big + 8 + len, "\n5000 4 d\n");
	parse(big, &pm);
	assert_int_equal(pm.n, 2);
	assert_int_equal(strlen(pm.funcs[0].name), len);
	expect_at(&pm, 0x5003, "d");
	perfmap_free(&pm);
	free(big);
}

/*
 * Overlaps: code freed and its memory reused, the new line appended.
 * old [0x1000, 0x1100) is cut by new [0x1040, 0x1080): old, new, old.
 * Same start: the later wins. An earlier entry inside a later one is
 * gone. A later small one at the very start and end of an older one.
 */
static void test_overlap(void **state)
{
	struct perfmap pm;

	(void)state;
	parse("1000 100 old\n1040 40 new\n", &pm);
	assert_int_equal(pm.n, 3);
	expect_func(&pm, 0, 0x1000, 0x1040, "old");
	expect_func(&pm, 1, 0x1040, 0x1080, "new");
	expect_func(&pm, 2, 0x1080, 0x1100, "old");
	perfmap_free(&pm);

	parse("2000 20 first\n2000 10 second\n", &pm);
	assert_int_equal(pm.n, 2);
	expect_func(&pm, 0, 0x2000, 0x2010, "second");
	expect_func(&pm, 1, 0x2010, 0x2020, "first");
	perfmap_free(&pm);

	parse("3010 8 inner\n3000 40 outer\n", &pm);
	assert_int_equal(pm.n, 1);
	expect_func(&pm, 0, 0x3000, 0x3040, "outer");
	perfmap_free(&pm);

	parse("4000 40 big\n4000 4 head\n403c 4 tail\n5000 10 x\n"
	      "5008 10 y\n", &pm);
	expect_at(&pm, 0x4000, "head");
	expect_at(&pm, 0x4003, "head");
	expect_at(&pm, 0x4004, "big");
	expect_at(&pm, 0x403b, "big");
	expect_at(&pm, 0x403c, "tail");
	expect_at(&pm, 0x403f, "tail");
	expect_at(&pm, 0x4040, NULL);
	expect_at(&pm, 0x5007, "x");
	expect_at(&pm, 0x5008, "y");
	expect_at(&pm, 0x5017, "y");
	expect_at(&pm, 0x5018, NULL);
	perfmap_free(&pm);
}

/* Sorted and disjoint, whatever the input: 2000 random entries. */
static void test_overlap_random(void **state)
{
	size_t cap = 2000 * 40, len = 0, i;
	char *text = malloc(cap);
	struct perfmap pm;

	(void)state;
	assert_non_null(text);
	srand(21);
	for (i = 0; i < 2000; i++)
		len += (size_t)snprintf(text + len, cap - len, "%x %x f%zu\n",
					0x10000 + rand() % 0x4000,
					1 + rand() % 0x100, i);
	parse(text, &pm);
	assert_true(pm.n > 0);
	for (i = 0; i < pm.n; i++) {
		assert_true(pm.funcs[i].addr < pm.funcs[i].end);
		if (i)
			assert_true(pm.funcs[i - 1].end <= pm.funcs[i].addr);
	}
	perfmap_free(&pm);
	free(text);
}

static void test_read_pid(void **state)
{
	char path[64];
	struct perfmap pm;
	pid_t pid = getpid();
	FILE *f;

	(void)state;
	snprintf(path, sizeof(path), "/tmp/perf-%d.map", (int)pid);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("7f00 10 jitted\n", f);
	fclose(f);
	assert_int_equal(perfmap_read(pid, &pm), 0);
	unlink(path);
	expect_at(&pm, 0x7f0f, "jitted");
	perfmap_free(&pm);
	errno = 0;
	assert_int_equal(perfmap_read(pid, &pm), -1);
	assert_int_equal(errno, ENOENT);
	assert_int_equal(pm.n, 0);
}

/*
 * Another user's map, or a symbolic link, in everyone's /tmp: not
 * believed. (Giving a file away needs root: skipped otherwise.)
 */
static void test_read_not_ours(void **state)
{
	char path[64], target[80];
	struct perfmap pm;
	pid_t pid = getpid();
	FILE *f;

	(void)state;
	snprintf(path, sizeof(path), "/tmp/perf-%d.map", (int)pid);
	snprintf(target, sizeof(target), "%s.target", path);
	f = fopen(target, "w");
	assert_non_null(f);
	fputs("7f00 10 planted\n", f);
	fclose(f);
	assert_int_equal(symlink(target, path), 0);
	errno = 0;
	assert_int_equal(perfmap_read(pid, &pm), -1);
	assert_int_equal(errno, ELOOP);
	unlink(path);
	if (geteuid() || chown(target, 65534, 65534)) {
		unlink(target);
		skip();
	}
	assert_int_equal(rename(target, path), 0);
	errno = 0;
	assert_int_equal(perfmap_read(pid, &pm), -1);
	assert_int_equal(errno, EPERM);
	assert_int_equal(pm.n, 0);
	assert_int_equal(chown(path, 0, 0), 0);
	assert_int_equal(perfmap_read(pid, &pm), 0);
	unlink(path);
	expect_at(&pm, 0x7f00, "planted");
	perfmap_free(&pm);
}

static void write_map(pid_t pid, const char *text)
{
	char path[64];
	FILE *f;

	snprintf(path, sizeof(path), "/tmp/perf-%d.map", (int)pid);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

static void remove_map(pid_t pid)
{
	char path[64];

	snprintf(path, sizeof(path), "/tmp/perf-%d.map", (int)pid);
	unlink(path);
}

/* A pid no process has: no map. */
#define NO_MAP_PID 0x7ffffffe

/*
 * Samples in [anon]: of a process with a map, its JIT object's, which
 * keeps the functions holding a sample or a sample's 32-byte bin start;
 * of one without, [anon]'s.
 */
static void test_held_jit(void **state)
{
	struct held_jits j = { .bin_bytes = 32 };
	struct profile p = { 0 };
	pid_t pid = getpid();
	const struct profile_object *o;
	char name[40];
	ssize_t anon, k;

	(void)state;
	remove_map(NO_MAP_PID);
	write_map(pid, "1000 10 jit_a\n1010 10 jit_b\n1100 20 jit_cold\n"
		  "2000 8 jit_c\n");
	anon = profile_object_add(&p, "[anon]", NULL);
	assert_int_equal(anon, 0);
	k = held_jit_object(&j, &p, pid, 0x1018, anon);
	assert_int_equal(k, 1);
	assert_int_equal(held_jit_object(&j, &p, pid, 0x2004, anon), k);
	assert_int_equal(held_jit_object(&j, &p, pid, 0x3000, anon), k);
	assert_int_equal(held_jit_object(&j, &p, NO_MAP_PID, 0x1018, anon),
			 anon);
	remove_map(pid);
	assert_int_equal(held_jit_finish(&j, &p), 0);
	assert_int_equal(j.n, 0);
	assert_int_equal(p.nobjects, 2);
	o = &p.objects[k];
	snprintf(name, sizeof(name), "[JIT] pid %d", (int)pid);
	assert_string_equal(o->path, name);
	assert_int_equal(o->nfuncs, 3);
	assert_string_equal(o->funcs[0].name, "jit_a");
	assert_string_equal(o->funcs[1].name, "jit_b");
	assert_int_equal(o->funcs[1].addr, 0x1010);
	assert_int_equal(o->funcs[1].end, 0x1020);
	assert_string_equal(o->funcs[2].name, "jit_c");
	assert_int_equal(p.objects[anon].nfuncs, 0);
	profile_free(&p);
}

/* One process, a JIT object of two functions, 7 and 5 samples in them. */
static void jit_profile(struct profile *p)
{
	uint64_t bins[2] = { 7, 5 };
	struct profile_count *c;

	memset(p, 0, sizeof(*p));
	p->rate = 250;
	p->bin_bytes = 16;
	profile_acct_unknown(&p->acct);
	assert_int_equal(profile_object_add(p, "[JIT] pid 42", NULL), 0);
	assert_int_equal(profile_object_add_func(p, 0, 0x7f0000001000,
						 0x7f0000001010, "jit \"a\""),
			 0);
	assert_int_equal(profile_object_add_func(p, 0, 0x7f0000001010,
						 0x7f0000001020, "Lj:b"), 0);
	assert_int_equal(profile_process_add(p, 42, 1, "node", NULL), 0);
	profile_acct_unknown(&p->processes[0].acct);
	c = profile_count_get(p, 0, 0);
	assert_non_null(c);
	assert_int_equal(hist_add_range(&c->hist, 0x7f0000001000,
					 0x7f0000001020, bins, 2), 0);
}

static char *save(const struct profile *p, size_t *len)
{
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);

	assert_non_null(f);
	assert_int_equal(profile_save(f, p), 0);
	fclose(f);
	return buf;
}

static void expect_load_fails(const char *text, const char *msg)
{
	struct profile q = { 0 };
	char err[256];

	assert_int_equal(profile_load_mem(text, strlen(text), &q, err,
					  sizeof(err)), -1);
	if (!strstr(err, msg))
		fail_msg("'%s', want '%s'", err, msg);
	profile_free(&q);
}

/* The funcs section: written, read back, the same bytes; its errors. */
static void test_saved_funcs(void **state)
{
	struct profile p, q = { 0 };
	char *a, *b, err[256], *bad;
	size_t alen, blen;

	(void)state;
	jit_profile(&p);
	a = save(&p, &alen);
	cli_test_has(a, "\nobject 0 - \"[JIT]%20pid%2042\"\nfuncs 0 2\n"
		     "func 0x7f0000001000 0x7f0000001010 \"jit%20%22a%22\"\n"
		     "func 0x7f0000001010 0x7f0000001020 \"Lj:b\"\n"
		     "processes 1\n");
	assert_int_equal(profile_load_mem(a, alen, &q, err, sizeof(err)), 0);
	assert_int_equal(q.objects[0].nfuncs, 2);
	assert_string_equal(q.objects[0].funcs[0].name, "jit \"a\"");
	assert_int_equal(q.objects[0].funcs[1].end, 0x7f0000001020);
	b = save(&q, &blen);
	assert_int_equal(alen, blen);
	assert_memory_equal(a, b, alen);
	free(b);

	bad = strdup(a);
	assert_non_null(bad);
	memcpy(strstr(bad, "funcs 0 2"), "funcs 1 2", 9);
	expect_load_fails(bad, "object 1: out of range");
	memcpy(strstr(bad, "funcs 1 2"), "funcs 0 3", 9);
	expect_load_fails(bad, "'func' expected, not 'processes'");
	memcpy(strstr(bad, "funcs 0 3"), "funcs 0 0", 9);
	expect_load_fails(bad, "functions empty, or again");
	free(bad);
	bad = strdup(a);
	assert_non_null(bad);
	memcpy(strstr(bad, "0x7f0000001010 0x7f0000001020"),
	       "0x7f0000001008 0x7f0000001020", 29);
	expect_load_fails(bad, "not above the one before");
	free(bad);
	profile_free(&q);
	free(a);
	profile_free(&p);
}

/* profil-ctl report of the saved profile names the JIT's functions. */
static void test_report_names(void **state)
{
	char dir[] = "/tmp/test_cli_perfmapXXXXXX", path[64], out[8192];
	char err[4096];
	struct profile p;
	size_t len;
	char *a;
	FILE *f;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/saved", dir);
	jit_profile(&p);
	a = save(&p, &len);
	f = fopen(path, "w");
	assert_non_null(f);
	assert_int_equal(fwrite(a, 1, len, f), len);
	fclose(f);
	assert_int_equal(cli_test_run(dir, out, sizeof(out), err, sizeof(err),
				      "report", path, NULL), 0);
	cli_test_has(out, "jit \"a\"\n");
	cli_test_has(out, "Lj:b\n");
	cli_test_has(out, "   7 ");
	if (strstr(out, "[unknown]") || strstr(err, "hint"))
		fail_msg("%s%s", out, err);
	unlink(path);
	rmdir(dir);
	free(a);
	profile_free(&p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_good_lines),
		cmocka_unit_test(test_bounds),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_odd_bytes),
		cmocka_unit_test(test_overlap),
		cmocka_unit_test(test_overlap_random),
		cmocka_unit_test(test_read_pid),
		cmocka_unit_test(test_read_not_ours),
		cmocka_unit_test(test_held_jit),
		cmocka_unit_test(test_saved_funcs),
		cmocka_unit_test(test_report_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
