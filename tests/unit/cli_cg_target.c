// SPDX-License-Identifier: GPL-2.0
/*
 * A glibc -pg program for test_cli_callgraph: a call graph of known
 * shape and counts, with CPU time in its leaves.
 *   chain      main -> cg_chain_a -> cg_chain_b -> cg_chain_c (10 each)
 *   diamond    main -> cg_top; cg_top -> cg_left, cg_right (3 each);
 *              cg_left and cg_right -> cg_bottom (3 each)
 *   recursion  main -> cg_rec (5), cg_rec -> cg_rec (5 * 7)
 *   cycle      main -> cg_ping (2); cg_ping -> cg_pong, cg_pong ->
 *              cg_ping, 4 times each per call from main
 *   spontaneous cg_thread, a thread's start: called from libc
 * Only one thread runs -pg code at a time: glibc's mcount drops arcs
 * under contention.
 */
#include <pthread.h>
#include <stdlib.h>

static volatile double sink;

#define CG_FN __attribute__((noinline))

CG_FN static void spin(long n)
{
	for (long i = 0; i < n; i++)
		sink += (double)i * 0.5;
}

static long work;

CG_FN void cg_chain_c(void)
{
	spin(4 * work);
}

CG_FN void cg_chain_b(void)
{
	spin(work);
	cg_chain_c();
}

CG_FN void cg_chain_a(void)
{
	cg_chain_b();
}

CG_FN void cg_bottom(void)
{
	spin(2 * work);
}

CG_FN void cg_left(void)
{
	cg_bottom();
}

CG_FN void cg_right(void)
{
	spin(work);
	cg_bottom();
}

CG_FN void cg_top(void)
{
	for (int i = 0; i < 3; i++) {
		cg_left();
		cg_right();
	}
}

CG_FN void cg_rec(int depth)
{
	spin(work / 2);
	if (depth)
		cg_rec(depth - 1);
}

CG_FN void cg_pong(int n);

CG_FN void cg_ping(int n)
{
	spin(work / 2);
	if (n)
		cg_pong(n - 1);
}

CG_FN void cg_pong(int n)
{
	spin(work / 2);
	if (n)
		cg_ping(n - 1);
}

CG_FN static void *cg_thread(void *arg)
{
	(void)arg;
	spin(4 * work);
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t t;
	int i;

	work = argc > 1 ? atol(argv[1]) : 400000;
	for (i = 0; i < 10; i++)
		cg_chain_a();
	cg_top();
	for (i = 0; i < 5; i++)
		cg_rec(7);
	for (i = 0; i < 2; i++)
		cg_ping(8);
	if (pthread_create(&t, NULL, cg_thread, NULL) || pthread_join(t, NULL))
		return 1;
	return sink < 0;
}
