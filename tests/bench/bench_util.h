/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the guest benches share: the loop they time, in each program's
 * own text (sessions map its address), and guest time in nanoseconds.
 */
#ifndef PROFIL_BENCH_UTIL_H
#define PROFIL_BENCH_UTIL_H

#include <time.h>

__attribute__((noinline, aligned(64))) static void work(unsigned long n)
{
	volatile unsigned long x = 0;

	while (n--)
		x++;
}

static inline double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

#endif /* PROFIL_BENCH_UTIL_H */
