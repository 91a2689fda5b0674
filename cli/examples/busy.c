// SPDX-License-Identifier: GPL-2.0
/*
 * An ordinary program for profil-ctl to profile: three functions doing
 * 50, 30 and 20 % of the work, and nothing of profil in it. `make demo`
 * runs it under `profil-ctl run`.
 */
#include <stdlib.h>

static volatile unsigned long sink;

/* Distinct constants keep the compiler from folding them into one. */
#define DEFINE_WORK(name, k)					\
__attribute__((noinline)) static void name(unsigned long n)	\
{								\
	for (unsigned long i = 0; i < n; i++)			\
		sink += i * (k);				\
}

DEFINE_WORK(hot, 3)
DEFINE_WORK(warm, 5)
DEFINE_WORK(cool, 7)

int main(int argc, char **argv)
{
	unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 0) : 40000000;

	/* In rounds: a stall of the machine falls on all three alike. */
	for (int round = 0; round < 5; round++) {
		hot(n);
		warm(3 * n / 5);
		cool(2 * n / 5);
	}
	return 0;
}
