// SPDX-License-Identifier: GPL-2.0
/*
 * A glibc -pg program for test_cli_gprof: three functions doing 50, 30
 * and 20 parts of some CPU work, so its gmon.out holds samples and arcs
 * for gprof and profil-ctl to read.
 */
#include <stdio.h>
#include <stdlib.h>

static volatile double sink;

__attribute__((noinline)) static void pg_fifty(long n)
{
	for (long i = 0; i < 5 * n; i++)
		sink += (double)i * 0.5;
}

__attribute__((noinline)) void pg_thirty(long n)
{
	for (long i = 0; i < 3 * n; i++)
		sink += (double)i * 0.5;
}

__attribute__((noinline)) void pg_twenty(long n)
{
	for (long i = 0; i < 2 * n; i++)
		sink += (double)i * 0.5;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 4000000;

	for (int r = 0; r < 4; r++) {
		pg_fifty(n);
		pg_thirty(n);
		pg_twenty(n);
	}
	return sink < 0;
}
