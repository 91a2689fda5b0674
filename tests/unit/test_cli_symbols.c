// SPDX-License-Identifier: GPL-2.0
/*
 * profil-ctl's symbolizer (cli/symbols.c): this driver itself (PIE, so
 * the load bias is subtracted), a -g program built by the Makefile
 * (cli_sym_target.c, which prints its own addresses), its copy stripped
 * to .dynsym, a copy with no symbols at all, and files that are not ELF.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "symbols.h"

#define TARGET UNIT_OUT "/cli_sym_target"
#define TARGET_SRC UNIT_SRC "/cli_sym_target.c"

/* Declarator, body and __LINE__ on one line: the entry's line. */
__attribute__((noinline)) int known_function(int x) { return x ^ 0x5a; } static const unsigned int known_line = __LINE__;

static int bias_cb(struct dl_phdr_info *info, size_t size, void *data)
{
	(void)size;
	*(uint64_t *)data = info->dlpi_addr;	/* the main program */
	return 1;
}

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

static const struct sym_func *find_name(struct symtab *st, const char *name)
{
	const struct sym_func *f;
	size_t n, i;

	f = symtab_funcs(st, &n);
	for (i = 0; i < n; i++)
		if (!strcmp(f[i].name, name))
			return &f[i];
	return NULL;
}

static struct symtab *open_ok(const char *path)
{
	char err[256] = "";
	struct symtab *st = symtab_open(path, err, sizeof(err));

	if (!st)
		fail_msg("%s: %s", path, err);
	return st;
}

/* This very driver: link-time = run-time address - load bias. */
static void test_self_pie(void **state)
{
	uint64_t bias = 0, addr;
	const struct sym_func *f;
	struct symtab *st;
	const char *file;
	unsigned int line;
	size_t n;
	int (*volatile fn)(int) = known_function;

	(void)state;
	assert_int_equal(fn(0), 0x5a);
	dl_iterate_phdr(bias_cb, &bias);
	addr = (uint64_t)(uintptr_t)known_function - bias;
	st = open_ok("/proc/self/exe");
	assert_int_equal(symtab_ptr_size(st), sizeof(void *));
	f = find_name(st, "known_function");
	assert_non_null(f);
	assert_int_equal(f->addr, addr);
	assert_true(f->end > f->addr);
	f = symtab_funcs(st, &n);
	assert_string_equal(sym_func_find(f, n, addr + 1)->name,
			    "known_function");
	assert_int_equal(symtab_line(st, addr, &file, &line), 0);
	assert_string_equal(base_name(file), "test_cli_symbols.c");
	assert_int_equal(line, known_line);
	symtab_close(st);
}

/* The line of the marker comment @marker in cli_sym_target.c. */
static unsigned int marker_line(const char *marker)
{
	FILE *f = fopen(TARGET_SRC, "r");
	unsigned int n = 0;
	char buf[512];

	assert_non_null(f);
	while (fgets(buf, sizeof(buf), f)) {
		n++;
		if (strstr(buf, marker)) {
			fclose(f);
			return n;
		}
	}
	fclose(f);
	fail_msg("no %s in %s", marker, TARGET_SRC);
	return 0;
}

/* The addresses the target prints of its two functions. */
static void target_addrs(uint64_t *alpha, uint64_t *beta)
{
	FILE *p = popen(TARGET, "r");
	unsigned long long a = 0, b = 0;

	assert_non_null(p);
	assert_int_equal(fscanf(p, "target_alpha %llx target_beta %llx",
				&a, &b), 2);
	assert_int_equal(pclose(p), 0);
	*alpha = a;
	*beta = b;
}

static void test_target(void **state)
{
	const struct sym_func *fa, *fb, *all;
	uint64_t alpha, beta;
	struct symtab *st;
	const char *file;
	unsigned int line;
	size_t n;

	(void)state;
	target_addrs(&alpha, &beta);
	st = open_ok(TARGET);
	fa = find_name(st, "target_alpha");
	fb = find_name(st, "target_beta");
	assert_non_null(fa);
	assert_non_null(fb);
	assert_int_equal(fa->addr, alpha);
	assert_int_equal(fb->addr, beta);
	/* alpha's extent runs up to beta, gprof's rule. */
	assert_int_equal(fa->end, beta);
	all = symtab_funcs(st, &n);
	assert_ptr_equal(sym_func_find(all, n, beta - 1), fa);
	assert_ptr_equal(sym_func_find(all, n, beta), fb);
	/* Sorted, disjoint. */
	for (size_t i = 1; i < n; i++)
		assert_true(all[i - 1].end <= all[i].addr);

	assert_int_equal(symtab_line(st, alpha, &file, &line), 0);
	assert_string_equal(base_name(file), "cli_sym_target.c");
	assert_int_equal(line, marker_line("TARGET_ALPHA_LINE"));
	assert_int_equal(symtab_line(st, beta, &file, &line), 0);
	assert_int_equal(line, marker_line("TARGET_BETA_LINE"));
	/* No line below the text. */
	assert_int_equal(symtab_line(st, 0x10, &file, &line), -1);
	symtab_close(st);
}

/* Stripped to .dynsym: names remain (exported), lines do not. */
static void test_dynsym_only(void **state)
{
	const struct sym_func *f;
	uint64_t alpha, beta;
	struct symtab *st;
	const char *file;
	unsigned int line;

	(void)state;
	target_addrs(&alpha, &beta);
	st = open_ok(TARGET ".dynsym");
	f = find_name(st, "target_alpha");
	assert_non_null(f);
	assert_int_equal(f->addr, alpha);
	assert_null(find_name(st, "known_function"));
	assert_int_equal(symtab_line(st, alpha, &file, &line), -1);
	symtab_close(st);
}

/* No symbols at all: an empty table, not an error. */
static void test_no_symbols(void **state)
{
	struct symtab *st;
	const char *file;
	unsigned int line;
	size_t n = 99;

	(void)state;
	st = open_ok(TARGET ".nosyms");
	symtab_funcs(st, &n);
	assert_int_equal(n, 0);
	assert_int_equal(symtab_line(st, 0x401000, &file, &line), -1);
	assert_int_equal(symtab_ptr_size(st), 8);
	symtab_close(st);
}

static void test_not_elf(void **state)
{
	char err[256] = "";

	(void)state;
	assert_null(symtab_open("/nonexistent/a.out", err, sizeof(err)));
	assert_string_equal(err, strerror(ENOENT));
	err[0] = '\0';
	assert_null(symtab_open(TARGET_SRC, err, sizeof(err)));
	assert_true(err[0] != '\0');
	symtab_close(NULL);
}

static void test_find_edges(void **state)
{
	static const struct sym_func f[] = {
		{ 0x10, 0x20, "a" }, { 0x20, 0x28, "b" }, { 0x30, 0x40, "c" },
	};

	(void)state;
	assert_null(sym_func_find(f, 3, 0x0f));
	assert_ptr_equal(sym_func_find(f, 3, 0x10), &f[0]);
	assert_ptr_equal(sym_func_find(f, 3, 0x1f), &f[0]);
	assert_ptr_equal(sym_func_find(f, 3, 0x20), &f[1]);
	assert_null(sym_func_find(f, 3, 0x28));
	assert_null(sym_func_find(f, 3, 0x2f));
	assert_ptr_equal(sym_func_find(f, 3, 0x3f), &f[2]);
	assert_null(sym_func_find(f, 3, 0x40));
	assert_null(sym_func_find(f, 0, 0x10));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_self_pie),
		cmocka_unit_test(test_target),
		cmocka_unit_test(test_dynsym_only),
		cmocka_unit_test(test_no_symbols),
		cmocka_unit_test(test_not_elf),
		cmocka_unit_test(test_find_edges),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
