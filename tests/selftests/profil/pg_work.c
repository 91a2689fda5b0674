// SPDX-License-Identifier: GPL-2.0
/*
 * A -pg program for pg_test: built with libprofil (-lprofil, and
 * -mfentry with libprofil.a) and without it (glibc's runtime). Each mode
 * does a known number of calls and prints the arcs it made, one line each:
 *   arc <caller> <callee> <count>
 * (childarc: the forked child's). pg_test compares them with gprof -q.
 *
 *   threads     8 threads, each calls mid() PG_ITERS times; mid() calls
 *               leaf_a() once and leaf_b() twice
 *   recurse     rec(PG_DEPTH) PG_ROUNDS times: a self-recursive function
 *   fork        mid() calls, a fork() in the middle; the child calls
 *               leaf_a() alone and exits through exit()
 *   signal      mid() calls while a timer's handler calls sig_leaf()
 *   flat        the 50/30/20 workload (flat_fifty, flat_thirty, flat_twenty)
 *   spread      64 callees: with a small PROFIL_ARCS the table overflows
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

/*
 * Helpers that must not appear in the graph are not instrumented; the
 * rest are noinline, so that every call is one the source shows.
 */
#define PG_QUIET	__attribute__((no_instrument_function))
#define PG_FN		__attribute__((noinline))

#define PG_THREADS	8
#define PG_ITERS	200000
#define PG_DEPTH	40
#define PG_ROUNDS	1000

volatile unsigned long pg_sink;

PG_FN void leaf_a(void)
{
	pg_sink++;
}

PG_FN void leaf_b(void)
{
	pg_sink += 2;
}

PG_FN void mid(void)
{
	leaf_a();
	leaf_b();
	leaf_b();
}

PG_FN static void *worker(void *arg)
{
	unsigned long i, n = (unsigned long)arg;

	for (i = 0; i < n; i++)
		mid();
	return NULL;
}

PG_QUIET static void print_mid_arcs(const char *tag, const char *caller,
			   unsigned long n)
{
	printf("%s %s mid %lu\n", tag, caller, n);
	printf("%s mid leaf_a %lu\n", tag, n);
	printf("%s mid leaf_b %lu\n", tag, 2 * n);
}

PG_FN static int run_threads(unsigned long iters)
{
	pthread_t t[PG_THREADS];
	int i;

	printf("arc main run_threads 1\n");
	for (i = 0; i < PG_THREADS; i++)
		if (pthread_create(&t[i], NULL, worker, (void *)iters))
			return 1;
	for (i = 0; i < PG_THREADS; i++)
		pthread_join(t[i], NULL);
	/* worker() is called by libc's thread start: spontaneous. */
	print_mid_arcs("arc", "worker", PG_THREADS * iters);
	return 0;
}

PG_FN int rec(int n)
{
	return n > 1 ? rec(n - 1) + 1 : 1;
}

PG_FN static int run_recurse(void)
{
	unsigned long sum = 0;
	int i;

	for (i = 0; i < PG_ROUNDS; i++)
		sum += (unsigned long)rec(PG_DEPTH);
	printf("arc main run_recurse 1\n");	printf("arc run_recurse rec %d\n", PG_ROUNDS);
	printf("arc rec rec %d\n", PG_ROUNDS * (PG_DEPTH - 1));
	return sum != (unsigned long)PG_ROUNDS * PG_DEPTH;
}

PG_FN void child_work(unsigned long n)
{
	unsigned long i;

	for (i = 0; i < n; i++)
		leaf_a();
}

PG_FN static int run_fork(void)
{
	unsigned long before = 30000, after = 20000, in_child = 7000;
	pid_t pid;
	int st;

	worker((void *)before);
	fflush(stdout);
	pid = fork();
	if (pid < 0)
		return 1;
	if (!pid) {
		child_work(in_child);
		printf("child %ld\n", (long)getpid());
		printf("childarc run_fork child_work 1\n");
		printf("childarc child_work leaf_a %lu\n", in_child);
		exit(0);	/* atexit: _mcleanup() writes the child's file */
	}
	if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st) ||
	    WEXITSTATUS(st))
		return 1;
	worker((void *)after);
	printf("arc main run_fork 1\n");
	printf("arc run_fork worker 2\n");
	print_mid_arcs("arc", "worker", before + after);
	return 0;
}

/* The handler's calls, and where it interrupted the program. */
#define PG_PCS	65536
static volatile unsigned long sig_calls;
static unsigned long sig_pc[PG_PCS];

PG_FN void sig_leaf(void)
{
	sig_calls++;
}

static void sig_handler(int sig, siginfo_t *si, void *uc)
{
	unsigned long n = sig_calls;

	(void)sig;
	(void)si;
	if (n < PG_PCS)
		sig_pc[n] = (unsigned long)
			((ucontext_t *)uc)->uc_mcontext.gregs[REG_RIP];
	sig_leaf();
}

/* How many of the handler's runs interrupted the library's mcount. */
PG_QUIET static unsigned long in_mcount(unsigned long n)
{
	void *mc = dlsym(RTLD_DEFAULT, "mcount");
	Dl_info lib, at;
	unsigned long i, hits = 0;

	if (!mc || !dladdr(mc, &lib))
		return 0;
	for (i = 0; i < n && i < PG_PCS; i++)
		if (dladdr((void *)sig_pc[i], &at) &&
		    at.dli_fbase == lib.dli_fbase &&
		    strstr(lib.dli_fname, "libprofil"))
			hits++;
	return hits;
}

PG_FN static int run_signal(unsigned long iters)
{
	struct sigevent sev = {
		.sigev_notify = SIGEV_SIGNAL, .sigev_signo = SIGUSR1,
	};
	struct itimerspec its = {
		.it_interval = { 0, 100000 }, .it_value = { 0, 100000 },
	};
	struct sigaction sa = { .sa_sigaction = sig_handler,
				.sa_flags = SA_SIGINFO | SA_RESTART };
	unsigned long n;
	sigset_t usr1;
	timer_t tm;

	sigaction(SIGUSR1, &sa, NULL);
	if (timer_create(CLOCK_MONOTONIC, &sev, &tm))
		return 1;
	timer_settime(tm, 0, &its, NULL);
	worker((void *)iters);
	timer_delete(tm);
	sigemptyset(&usr1);
	sigaddset(&usr1, SIGUSR1);
	sigprocmask(SIG_BLOCK, &usr1, NULL);
	n = sig_calls;
	printf("arc main run_signal 1\n");
	printf("arc run_signal worker 1\n");
	print_mid_arcs("arc", "worker", iters);
	printf("arc sig_handler sig_leaf %lu\n", n);
	printf("# %lu signals, %lu of them inside libprofil\n", n,
	       in_mcount(n));
	return n == 0;
}

#define DEFINE_SPIN(name)						\
PG_FN void name(unsigned long iters)		\
{									\
	unsigned long i;						\
									\
	for (i = 0; i < iters; i++)					\
		pg_sink += i;						\
}
DEFINE_SPIN(flat_fifty)
DEFINE_SPIN(flat_thirty)
DEFINE_SPIN(flat_twenty)

PG_QUIET static double cpu_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* About @secs of CPU time shared 5:3:2, in five interleaved rounds. */
PG_FN static int run_flat(double secs)
{
	unsigned long n = 1UL << 18, k, calib = 0;
	double t;
	int i;

	do {
		calib++;
		n *= 2;
		t = cpu_now();
		flat_twenty(n);
		t = cpu_now() - t;
	} while (t < 0.02);
	k = (unsigned long)(n * secs / t / 50);
	for (i = 0; i < 5; i++) {
		flat_fifty(5 * k);
		flat_thirty(3 * k);
		flat_twenty(2 * k);
	}
	printf("arc main run_flat 1\n");
	printf("arc run_flat flat_fifty 5\n");
	printf("arc run_flat flat_thirty 5\n");
	printf("arc run_flat flat_twenty %lu\n", calib + 5);
	return 0;
}

#define DEFINE_TINY(n)							\
PG_FN void tiny##n(void) { pg_sink += n; }
#define TINY8(n) DEFINE_TINY(n##0) DEFINE_TINY(n##1) DEFINE_TINY(n##2) \
	DEFINE_TINY(n##3) DEFINE_TINY(n##4) DEFINE_TINY(n##5)		\
	DEFINE_TINY(n##6) DEFINE_TINY(n##7)
TINY8(1) TINY8(2) TINY8(3) TINY8(4) TINY8(5) TINY8(6) TINY8(7) TINY8(8)

#define CALL8(n) tiny##n##0(); tiny##n##1(); tiny##n##2(); tiny##n##3(); \
	tiny##n##4(); tiny##n##5(); tiny##n##6(); tiny##n##7();

/* 64 arcs of 10 calls each, and main -> run_spread -> spread. */
PG_FN void spread(void)
{
	int i;

	for (i = 0; i < 10; i++) {
		CALL8(1) CALL8(2) CALL8(3) CALL8(4)
		CALL8(5) CALL8(6) CALL8(7) CALL8(8)
	}
}

PG_FN static int run_spread(void)
{
	spread();
	printf("calls 642\n");
	return 0;
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";
	unsigned long iters = argc > 2 ? strtoul(argv[2], NULL, 0) : PG_ITERS;
	int ret = 2;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (!strcmp(mode, "threads"))
		ret = run_threads(iters);
	else if (!strcmp(mode, "recurse"))
		ret = run_recurse();
	else if (!strcmp(mode, "fork"))
		ret = run_fork();
	else if (!strcmp(mode, "signal"))
		ret = run_signal(iters);
	else if (!strcmp(mode, "flat"))
		ret = run_flat(argc > 2 ? strtod(argv[2], NULL) : 1.0);
	else if (!strcmp(mode, "spread"))
		ret = run_spread();
	else
		fprintf(stderr, "usage: %s threads|recurse|fork|signal|flat|"
			"spread [n]\n", argv[0]);
	return ret;
}
