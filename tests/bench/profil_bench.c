// SPDX-License-Identifier: GPL-2.0
/*
 * Cost per sample of profil.ko and of glibc's SIGPROF profil(), in guest
 * nanoseconds. Meant for a guest under `-icount shift=0,sleep=off` with one
 * vCPU, where guest time counts instructions and runs repeat to 0.002 %:
 * cost = (time with profiling - time without) / samples taken.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../selftests/profil/profil_nl.h"
#include "bench_util.h"

#define REPEATS 3

static unsigned short hist[1 << 16];

/*
 * 64 KiB of straight-line code run round: its samples spread evenly over
 * 1024 regions of 64 bytes, so that successive samples fall in different
 * regions and no last-region cache could hold.
 */
#define WIDE_REGIONS	1024
#define WIDE_BYTES	(64 * 1024)
extern char bench_wide[];
asm(".pushsection .text.bench_wide, \"ax\", @progbits\n"
    ".p2align 12\n"
    "bench_wide:\n"
    "1:\n"
    ".rept 16384\n"
    "nopl 0(%rax)\n"
    ".endr\n"
    "dec %rdi\n"
    "jnz 1b\n"
    "ret\n"
    ".popsection\n");

/* What the runs time: work(), or bench_wide() for the region rows. */
static void (*work_fn)(unsigned long n) = work;

static void wide(unsigned long n)
{
	((void (*)(unsigned long))bench_wide)(n / 16384 + 1);
}

static double timed_work(unsigned long n)
{
	double t = now();

	work_fn(n);
	return now() - t;
}

static uint64_t hist_sum(void)
{
	uint64_t sum = 0;
	size_t i;

	for (i = 0; i < sizeof(hist) / sizeof(hist[0]); i++)
		sum += hist[i];
	return sum;
}

/* Iterations that take about @ns of guest time. */
static unsigned long calibrate(double ns)
{
	unsigned long n = 1000000;
	double t = timed_work(n);

	return (unsigned long)(n * ns / t);
}

/* One way of profiling the work: turn on, turn off, count samples. */
struct profiler {
	const char *name;
	int (*start)(struct pnl *nl, unsigned int rate);
	void (*stop)(struct pnl *nl);
	uint64_t (*samples)(struct pnl *nl);
};

static int kmod_start(struct pnl *nl, unsigned int rate)
{
	struct pnl_start req = {
		.buf = (uintptr_t)hist, .bufsiz = sizeof(hist),
		.offset = (uintptr_t)work, .scale = 0x10000, .rate = rate,
	};

	return pnl_start(nl, &req);
}

static void kmod_stop(struct pnl *nl)
{
	pnl_stop(nl, 0);
}

static uint64_t kmod_samples(struct pnl *nl)
{
	struct pnl_status st;

	return pnl_get(nl, 0, &st) ? 0 : st.stats[PROFIL_STAT_TICKS];
}

static int glibc_start(struct pnl *nl, unsigned int rate)
{
	return profil(hist, sizeof(hist), (uintptr_t)work, 0x10000);
}

static void glibc_stop(struct pnl *nl)
{
	/* NULL is glibc's off switch, though its prototype says nonnull. */
	unsigned short *volatile off = NULL;

	profil(off, 0, 0, 0);
}

static uint64_t glibc_samples(struct pnl *nl)
{
	return hist_sum();
}

static const struct profiler kmod = {
	"profil.ko", kmod_start, kmod_stop, kmod_samples,
};

/*
 * The kernel-held kind on the same work: each sample is attributed on
 * the return to user mode (a mapping lookup and a table add) instead of
 * a counter add in the tick. A stopped session is replaced by the next
 * COLLECT; the profile's entries stay and are counted again.
 */
static int held_start(struct pnl *nl, unsigned int rate)
{
	return pnl_collect(nl, 0, rate);
}

static void held_stop(struct pnl *nl)
{
	pnl_stop_kind(nl, 0, PROFIL_KIND_HELD);
}

static uint64_t held_samples(struct pnl *nl)
{
	struct pnl_status st;

	return pnl_get_kind(nl, 0, PROFIL_KIND_HELD, &st) ?
		       0 :
		       st.stats[PROFIL_STAT_TICKS];
}

static const struct profiler held = {
	"profil.ko, kernel-held", held_start, held_stop, held_samples,
};

static const struct profiler glibc = {
	"glibc profil()", glibc_start, glibc_stop, glibc_samples,
};

/* bench_wide under a set of @n regions of 64 bytes each, u16 counters. */
/*
 * The floor: tests/bench/floor/pk_floor.ko, a task-clock event on this
 * thread whose handler only counts, loaded for each run.
 */
static const char *floor_ko;
static uint64_t floor_overflows;

static int floor_start(struct pnl *nl, unsigned int rate)
{
	char cmd[4096];

	snprintf(cmd, sizeof(cmd), "insmod %s pid=%d rate=%u", floor_ko,
		 (int)getpid(), rate);
	return system(cmd) ? -EIO : 0;
}

static void floor_stop(struct pnl *nl)
{
	FILE *f = fopen("/sys/module/pk_floor/parameters/overflows", "r");
	unsigned long long n = 0;

	if (f) {
		if (fscanf(f, "%llu", &n) != 1)
			n = 0;
		fclose(f);
	}
	floor_overflows = n;
	if (system("rmmod pk_floor"))
		floor_overflows = 0;
}

static uint64_t floor_samples(struct pnl *nl)
{
	return floor_overflows;
}

static const struct profiler floor_event = {
	"floor (empty)", floor_start, floor_stop, floor_samples,
};

static int regions_start(struct pnl *nl, unsigned int rate, unsigned int n)
{
	static struct pnl_region reg[WIDE_REGIONS];
	struct pnl_set set = { .reg = reg, .n = n, .rate = rate };
	unsigned int i, bytes = WIDE_BYTES / n;

	for (i = 0; i < n; i++) {
		reg[i].buf = (uintptr_t)hist + i * bytes;
		reg[i].size = bytes;
		reg[i].offset = (uintptr_t)bench_wide + i * bytes;
		reg[i].scale = 0x10000;
	}
	return pnl_start_set(nl, &set);
}

static int one_region_start(struct pnl *nl, unsigned int rate)
{
	return regions_start(nl, rate, 1);
}

static int wide_regions_start(struct pnl *nl, unsigned int rate)
{
	return regions_start(nl, rate, WIDE_REGIONS);
}

static const struct profiler one_region = {
	"1 region", one_region_start, kmod_stop, kmod_samples,
};

static const struct profiler wide_regions = {
	"1024 regions", wide_regions_start, kmod_stop, kmod_samples,
};

/* The cost per sample bench() printed last. */
static double last_cost;

/*
 * Runs with and without profiling, interleaved. The cost per sample is
 * the difference of the fastest of each over the samples taken; the
 * spread of the unprofiled runs over the samples bounds its error.
 */
static int bench(struct pnl *nl, const struct profiler *prof,
		 unsigned int rate, double seconds)
{
	unsigned long n = calibrate(seconds * 1e9);
	double base = 1e300, base_max = 0, best = 1e300, t;
	uint64_t samples = 0;
	int i, err;

	for (i = 0; i < REPEATS; i++) {
		t = timed_work(n);
		base = t < base ? t : base;
		base_max = t > base_max ? t : base_max;

		memset(hist, 0, sizeof(hist));
		err = prof->start(nl, rate);
		if (err)
			return err;
		t = timed_work(n);
		prof->stop(nl);
		if (t < best) {
			best = t;
			samples = prof->samples(nl);
		}
	}
	last_cost = samples ? (best - base) / samples : 0.0;
	printf("# %-15s %5u Hz, %4.1f s: %6lu samples, %+.4f%% time, %5.0f +- %4.0f guest-ns/sample\n",
	       prof->name, rate, seconds, (unsigned long)samples,
	       100 * (best - base) / base,
	       samples ? (best - base) / samples : 0.0,
	       samples ? (base_max - base) / samples : 0.0);
	return 0;
}

/*
 * What an unprofiled program pays for the module being loaded: context
 * switches (the scheduler-tick clock's probe) and fork/exit (the lifecycle
 * probes), in a fixed amount of work.
 */
static double idle_pipe(void)
{
	int j, up[2], down[2];
	char c = 0;
	double t;
	pid_t pid;

	if (pipe(up) || pipe(down))
		return -1;
	t = now();
	pid = fork();
	if (!pid) {
		close(down[1]);
		close(up[0]);
		while (read(down[0], &c, 1) == 1 && write(up[1], &c, 1) == 1)
			;
		_exit(0);
	}
	for (j = 0; j < 20000; j++)
		if (write(down[1], &c, 1) != 1 || read(up[0], &c, 1) != 1)
			return -1;
	close(down[1]);
	waitpid(pid, NULL, 0);
	t = now() - t;
	close(down[0]);
	close(up[0]);
	close(up[1]);
	return t;
}

static double idle_fork(void)
{
	double t = now();
	pid_t pid;
	int j;

	for (j = 0; j < 300; j++) {
		pid = fork();
		if (!pid)
			_exit(0);
		waitpid(pid, NULL, 0);
	}
	return now() - t;
}

static int bench_idle(void)
{
	double pipe_best = 1e300, fork_best = 1e300, t;
	int i;

	for (i = 0; i < REPEATS; i++) {
		t = idle_pipe();
		if (t < 0)
			return 1;
		pipe_best = t < pipe_best ? t : pipe_best;
		t = idle_fork();
		fork_best = t < fork_best ? t : fork_best;
	}
	printf("# unprofiled: 20000 pipe round trips %.0f guest-ns, 300 fork+exit+wait %.0f guest-ns\n",
	       pipe_best, fork_best);
	return 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/*
 * What a START costs the requester, in guest microseconds: the request's
 * round trip, with the session made and its one thread attached. The
 * first one on the scheduler tick's clock also registers its probe (the
 * module was loaded just before); each start is followed by an untimed
 * STOP. The median of STARTS for each clock.
 */
#define STARTS 51

static int bench_start(struct pnl *nl)
{
	static const unsigned int rates[] = { 100, 1000 };
	double t[STARTS];
	unsigned int r;
	int i, err;

	t[0] = now();
	err = kmod_start(nl, 100);
	t[0] = now() - t[0];
	if (err)
		return err;
	kmod_stop(nl);
	printf("# START, first on the tick clock (registers its probe): %.1f guest-us\n",
	       t[0] / 1e3);
	for (r = 0; r < sizeof(rates) / sizeof(rates[0]); r++) {
		for (i = 0; i < STARTS; i++) {
			t[i] = now();
			err = kmod_start(nl, rates[r]);
			t[i] = now() - t[i];
			if (err)
				return err;
			kmod_stop(nl);
		}
		qsort(t, STARTS, sizeof(t[0]), cmp_double);
		printf("# START at %5u Hz (%s clock): median %.1f guest-us, min %.1f, max %.1f (%d starts)\n",
		       rates[r], rates[r] > 250 ? "timer" : "tick",
		       t[STARTS / 2] / 1e3, t[0] / 1e3, t[STARTS - 1] / 1e3,
		       STARTS);
	}
	return 0;
}

int main(int argc, char **argv)
{
	/* Low rates take few samples: run longer to see their cost. */
	static const struct { unsigned int rate; double seconds; } cases[] = {
		{ 100, 6 }, { 250, 3 }, { 1000, 1 }, { 10000, 1 },
	};
	const char *mode = argc > 1 ? argv[1] : "";
	bool kmod_only, timer_only;
	struct pnl nl;
	unsigned int i;
	double cost;
	int err;

	if (!strcmp(mode, "--idle"))
		return bench_idle();
	/*
	 * --floor KO: every row, with the floor's beside the timer clock's;
	 * --timer KO: only those; --kmod: only the module's rows (for the
	 * PK_WRITE_ON_RETURN variant).
	 */
	timer_only = !strcmp(mode, "--timer");
	if (argc > 2 && (timer_only || !strcmp(mode, "--floor")))
		floor_ko = argv[2];
	kmod_only = timer_only || !strcmp(mode, "--kmod");
	err = pnl_open(&nl);
	if (err) {
		printf("# profil family: %s\n", strerror(-err));
		return 1;
	}
	if (!strcmp(mode, "--start")) {
		err = bench_start(&nl);
		if (err)
			printf("# start: %s %s\n", strerror(-err), nl.extack);
		return !!err;
	}
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		if (timer_only && cases[i].rate < 1000)
			continue;
		err = bench(&nl, &kmod, cases[i].rate, cases[i].seconds);
		cost = last_cost;
		if (!err)
			err = bench(&nl, &held, cases[i].rate, cases[i].seconds);
		if (err) {
			printf("# start: %s %s\n", strerror(-err), nl.extack);
			return 1;
		}
		/* The timer clock's rates: the floor too, and the ratio. */
		if (!floor_ko || cases[i].rate < 1000)
			continue;
		if (bench(&nl, &floor_event, cases[i].rate, cases[i].seconds)) {
			printf("# floor: %s did not load\n", floor_ko);
			return 1;
		}
		printf("# timer clock at %u Hz: %.3f times the floor\n",
		       cases[i].rate, cost / last_cost);
	}
	if (kmod_only)
		return 0;
	bench(&nl, &glibc, 100, 2);
	/* A region set on each clock: one region, then 1024, same work. */
	work_fn = wide;
	for (i = 0; i < 2; i++) {
		unsigned int rate = i ? 10000 : 100;
		double secs = i ? 1 : 6;

		err = bench(&nl, &one_region, rate, secs) ?:
		      bench(&nl, &wide_regions, rate, secs);
		if (err) {
			printf("# regions: %s %s\n", strerror(-err), nl.extack);
			return 1;
		}
	}
	pnl_close(&nl);
	return 0;
}
