// SPDX-License-Identifier: GPL-2.0
/*
 * Functions for the FDE range test (test_cli_fde.c): built with -O2
 * and unwind tables, then stripped. fde_split() has a cold path that
 * gcc moves out into fde_split.cold, a second FDE of its own; the
 * others are one FDE each. Their results are printed so that nothing is
 * optimised away.
 */
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) static int fde_small(int x)
{
	return x * 3 + 1;
}

__attribute__((noinline)) static long fde_loop(int n)
{
	long s = 0;
	int i;

	for (i = 0; i < n; i++)
		s += (long)i * i ^ (s >> 3);
	return s;
}

__attribute__((cold, noinline)) static void fde_fail(const char *what, int v)
{
	fprintf(stderr, "fde_target: %s %d\n", what, v);
	exit(2);
}

__attribute__((noinline)) static int fde_split(int x)
{
	if (__builtin_expect(x < 0, 0)) {
		fprintf(stderr, "negative %d\n", x);
		fde_fail("split", x);
	}
	return x / 7 + fde_small(x);
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 10;

	if (n > 1000000)
		fde_fail("too many", n);
	printf("%d %ld\n", fde_split(n), fde_loop(n));
	(void)argv;
	return 0;
}
