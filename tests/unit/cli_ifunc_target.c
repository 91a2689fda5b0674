// SPDX-License-Identifier: GPL-2.0
/*
 * A shared library that calls its own IFUNCs through the PLT, between
 * calls to libc's functions, as libc.so.6 calls its own strlen: a hidden
 * IFUNC's stub jumps through a slot an R_X86_64_IRELATIVE fills, with no
 * symbol and the resolver's address as its addend (test_cli_symbols).
 */
#include <stdio.h>
#include <string.h>

static int add_one(int a)
{
	return a + 1;
}

static int add_two(int a)
{
	return a + 2;
}

static int (*resolve_add_one(void))(int)
{
	return add_one;
}

static int (*resolve_add_two(void))(int)
{
	return add_two;
}

__attribute__((visibility("hidden"))) int ifunc_one(int)
	__attribute__((ifunc("resolve_add_one")));
__attribute__((visibility("hidden"))) int ifunc_two(int)
	__attribute__((ifunc("resolve_add_two")));

int ifunc_lib_entry(const char *s)
{
	int n = ifunc_one((int)strlen(s));

	puts(s);
	n = ifunc_two(n);
	printf("%d\n", n);
	return ifunc_one(n);
}
