/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The work the examples profile: three functions doing 50, 30 and 20 % of
 * it, in five rounds, so that a stall of the machine falls on all three
 * alike. demo.c profiles it with libprofil, cli/examples/busy.c is the
 * same work with nothing of profil in it.
 */
#ifndef PROFIL_EXAMPLE_WORKLOAD_H
#define PROFIL_EXAMPLE_WORKLOAD_H

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

static void workload_run(unsigned long n)
{
	for (int round = 0; round < 5; round++) {
		hot(n);
		warm(3 * n / 5);
		cool(2 * n / 5);
	}
}

#endif /* PROFIL_EXAMPLE_WORKLOAD_H */
