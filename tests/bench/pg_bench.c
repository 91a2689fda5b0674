// SPDX-License-Identifier: GPL-2.0
/*
 * Cost of one mcount call on one thread, in guest ns: built with -pg
 * twice, against libprofil.a and against glibc's runtime alone. Under
 * `-icount shift=0` a guest ns is one instruction, so this is
 * instructions per call. The same leaf, called with and without the
 * mcount call gcc adds, gives the cost by difference. Contention needs
 * two vCPUs and is not measured here (make bench runs one).
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define CALLS	2000000UL
#define REPEATS	3

volatile unsigned long pg_sink;

__attribute__((noinline)) void leaf(void)
{
	pg_sink++;
}

__attribute__((noinline, no_instrument_function)) void leaf_plain(void)
{
	pg_sink++;
}

__attribute__((no_instrument_function)) static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

__attribute__((no_instrument_function)) static double run(void (*fn)(void))
{
	double t = now();
	unsigned long i;

	for (i = 0; i < CALLS; i++)
		fn();
	return now() - t;
}

__attribute__((no_instrument_function)) int main(int argc, char **argv)
{
	double best = 1e30, with, without;
	int r;

	for (r = 0; r < REPEATS; r++) {
		with = run(leaf);
		without = run(leaf_plain);
		if ((with - without) / CALLS < best)
			best = (with - without) / CALLS;
	}
	printf("# mcount, one thread, %s: %.1f guest-ns per call\n",
	       argc > 1 ? argv[1] : "?", best);
	return 0;
}
