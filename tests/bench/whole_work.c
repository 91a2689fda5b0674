// SPDX-License-Identifier: GPL-2.0
/*
 * Workloads of make bench-whole (whole.sh), each a program's worth of
 * work that profil-ctl run and perf record follow:
 *   threads N   N short threads, one after another (created, joined)
 *   spin SECS   SECS of CPU time in one thread
 *   loop N      N million iterations of a loop: a fixed amount of work,
 *               which a profiler's cost makes last longer (machine.sh)
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static volatile unsigned long sink;

static void *short_thread(void *arg)
{
	unsigned long i, n = (unsigned long)arg;

	for (i = 0; i < n; i++)
		sink += i;
	return NULL;
}

static double cpu_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	pthread_t t;
	double end;
	long i, n;

	if (argc == 3 && !strcmp(argv[1], "threads")) {
		n = atol(argv[2]);
		for (i = 0; i < n; i++)
			if (pthread_create(&t, NULL, short_thread,
					   (void *)10000UL) ||
			    pthread_join(t, NULL))
				return 1;
		return 0;
	}
	if (argc == 3 && !strcmp(argv[1], "spin")) {
		end = cpu_now() + atof(argv[2]);
		while (cpu_now() < end)
			for (i = 0; i < 100000; i++)
				sink += i;
		return 0;
	}
	if (argc == 3 && !strcmp(argv[1], "loop")) {
		n = atol(argv[2]);
		for (i = 0; i < n * 1000000; i++)
			sink += i;
		return 0;
	}
	fprintf(stderr, "usage: %s threads N | spin SECS | loop N\n",
		argv[0]);
	return 2;
}
