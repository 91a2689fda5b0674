// SPDX-License-Identifier: GPL-2.0
/*
 * Workloads of make bench-whole (whole.sh), each a program's worth of
 * work that profil-ctl run and perf record follow:
 *   threads N   N short threads, one after another (created, joined)
 *   spin SECS   SECS of CPU time in one thread
 *   loop N      N million iterations of a loop: a fixed amount of work,
 *               which a profiler's cost makes last longer
 *   machine N E PROGRAM
 *               two processes that each loop N million times and one
 *               that forks and execs PROGRAM E times, one after another;
 *               prints their span in ns of CLOCK_MONOTONIC (machine.sh)
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/wait.h>

static volatile unsigned long sink;

static void *short_thread(void *arg)
{
	unsigned long i, n = (unsigned long)arg;

	for (i = 0; i < n; i++)
		sink += i;
	return NULL;
}

static void loop(long n)
{
	long i;

	for (i = 0; i < n * 1000000; i++)
		sink += i;
}

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/* Fork a child that runs @fn(@arg) and exits; its pid, or -1. */
static pid_t fork_run(void (*fn)(long, const char *), long arg,
		      const char *path)
{
	pid_t pid = fork();

	if (pid == 0) {
		fn(arg, path);
		_exit(0);
	}
	return pid;
}

static void loop_child(long n, const char *path)
{
	(void)path;
	loop(n);
}

/* @n times, one after another: fork, exec @path, wait. */
static void exec_child(long n, const char *path)
{
	char *const argv[] = { "true", NULL };
	long i;
	int st;

	for (i = 0; i < n; i++) {
		pid_t pid = fork();

		if (pid == 0) {
			execv(path, argv);
			_exit(127);
		}
		if (pid < 0 || waitpid(pid, &st, 0) != pid ||
		    !WIFEXITED(st) || WEXITSTATUS(st))
			_exit(1);
	}
}

/*
 * The machine of machine.sh: the span, from the first fork to the last
 * exit, is the work and whatever a profiler took from the CPU meanwhile.
 * Nothing in it waits for a file, when @path is in memory (tmpfs): under
 * -icount sleep=off an idle vCPU's clock jumps, by however long the host
 * took to answer.
 *
 * The span starts after MACHINE_SETTLE_S seconds idle, in every mode
 * alike: what the profiler's start-up left to the kernel (RCU callbacks
 * freeing its set-up's objects, slabs refilled) is done by then, and not
 * charged to its sampling. Without it, the span of a run started right
 * after the tool's start-up was 0.1 to 0.2 ms longer than one started
 * after an idle pause (6.1, 250 Hz, counted instruction by instruction:
 * the difference was the slab allocator's slow paths), against a wait of
 * 11 s before each unprofiled run (machine.sh).
 */
#define MACHINE_SETTLE_S 2

static int machine(long n, long execs, const char *path)
{
	uint64_t t0;
	pid_t pids[3];
	int i, st, ret = 0;

	sleep(MACHINE_SETTLE_S);
	t0 = mono_ns();
	pids[0] = fork_run(loop_child, n, NULL);
	pids[1] = fork_run(loop_child, n, NULL);
	pids[2] = fork_run(exec_child, execs, path);
	for (i = 0; i < 3; i++)
		if (pids[i] < 0 || waitpid(pids[i], &st, 0) != pids[i] ||
		    !WIFEXITED(st) || WEXITSTATUS(st))
			ret = 1;
	printf("%llu\n", (unsigned long long)(mono_ns() - t0));
	return ret;
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
		loop(atol(argv[2]));
		return 0;
	}
	if (argc == 5 && !strcmp(argv[1], "machine"))
		return machine(atol(argv[2]), atol(argv[3]), argv[4]);
	fprintf(stderr,
		"usage: %s threads N | spin SECS | loop N | machine N E PROGRAM\n",
		argv[0]);
	return 2;
}
