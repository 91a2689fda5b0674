// SPDX-License-Identifier: GPL-2.0
/*
 * Cost per sample of profil.ko and of glibc's SIGPROF profil(), in guest
 * nanoseconds. Meant for a guest under `-icount shift=0,sleep=off` with one
 * vCPU, where guest time counts instructions and runs repeat to 0.002 %:
 * cost = (time with profiling - time without) / samples taken.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../selftests/profil/profil_nl.h"

#define REPEATS 3

static unsigned short hist[1 << 16];

__attribute__((noinline, aligned(64))) static void work(unsigned long n)
{
	volatile unsigned long x = 0;

	while (n--)
		x++;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static double timed_work(unsigned long n)
{
	double t = now();

	work(n);
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

static double base_time(unsigned long n)
{
	double best = 1e300, t;
	int i;

	for (i = 0; i < REPEATS; i++) {
		t = timed_work(n);
		if (t < best)
			best = t;
	}
	return best;
}

static void report(const char *what, unsigned int rate, double base,
		   double best, uint64_t samples)
{
	printf("# %-18s %6u Hz: %8lu samples, %+.3f%% time, %7.0f guest-ns/sample\n",
	       what, rate, (unsigned long)samples, 100 * (best - base) / base,
	       samples ? (best - base) / samples : 0.0);
}

static int bench_kmod(struct pnl *nl, unsigned int rate, unsigned long n,
		      double base)
{
	struct pnl_start req = {
		.buf = (uintptr_t)hist, .bufsiz = sizeof(hist),
		.offset = (uintptr_t)work, .scale = 0x10000, .rate = rate,
	};
	struct pnl_status st;
	double best = 1e300, t;
	uint64_t samples = 0;
	int i, err;

	for (i = 0; i < REPEATS; i++) {
		memset(hist, 0, sizeof(hist));
		err = pnl_start(nl, &req);
		if (err)
			return err;
		t = timed_work(n);
		pnl_stop(nl, 0);
		err = pnl_get(nl, 0, &st);
		if (err)
			return err;
		if (t < best) {
			best = t;
			samples = st.stats[PROFIL_STAT_TICKS];
		}
	}
	report("profil.ko", rate, base, best, samples);
	return 0;
}

static void bench_glibc(unsigned long n, double base)
{
	/* NULL is glibc's off switch, though its prototype says nonnull. */
	unsigned short *volatile off = NULL;
	double best = 1e300, t;
	uint64_t samples = 0;
	int i;

	for (i = 0; i < REPEATS; i++) {
		memset(hist, 0, sizeof(hist));
		profil(hist, sizeof(hist), (uintptr_t)work, 0x10000);
		t = timed_work(n);
		profil(off, 0, 0, 0);
		if (t < best) {
			best = t;
			samples = hist_sum();
		}
	}
	report("glibc profil()", 100, base, best, samples);
}

int main(void)
{
	static const unsigned int rates[] = { 100, 1000, 10000 };
	unsigned long n = calibrate(1e9);
	double base = base_time(n);
	struct pnl nl;
	unsigned int i;
	int err;

	printf("# work: %lu iterations, %.0f guest-ns unprofiled\n", n, base);
	err = pnl_open(&nl);
	if (err) {
		printf("# profil family: %s\n", strerror(-err));
		return 1;
	}
	for (i = 0; i < sizeof(rates) / sizeof(rates[0]); i++) {
		err = bench_kmod(&nl, rates[i], n, base);
		if (err) {
			printf("# start: %s %s\n", strerror(-err), nl.extack);
			return 1;
		}
	}
	bench_glibc(n, base);
	pnl_close(&nl);
	return 0;
}
