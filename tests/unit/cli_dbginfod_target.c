// SPDX-License-Identifier: GPL-2.0
/*
 * Named hot functions for debuginfod_test.sh, which builds this with
 * -g, serves the debug part from a real debuginfod and reports a saved
 * profile of the stripped copy: static, so that only the debug file
 * names them (stripped, they are unwind-table ranges). Their results
 * are printed so that nothing is optimised away.
 */
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) static long hot_alpha(long n)
{
	long s = 0, i;

	for (i = 0; i < n; i++)
		s += i * i ^ (s >> 3);
	return s;
}

__attribute__((noinline)) static long hot_beta(long n)
{
	long s = 1, i;

	for (i = 1; i < n; i++)
		s = s * 31 + i % 7;
	return s;
}

__attribute__((noinline)) static long hot_gamma(long n)
{
	long s = 0, i;

	for (i = 0; i < n; i++)
		s ^= (s << 5) + (s >> 2) + i;
	return s;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 1000;

	printf("%ld %ld %ld\n", hot_alpha(n), hot_beta(n), hot_gamma(n));
	return 0;
}
