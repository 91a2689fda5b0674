/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What libprofil's guest tests share (libprofil_test, libprofil_held_test
 * and their _nopie twins): the 50/30/20 workload, lp_fifty(), lp_thirty()
 * and lp_twenty() (not static: gprof names them), calibrated once before
 * any profiling starts; spin(), CPU time in lp_fifty; and the skip when
 * profil.ko is absent. Include it once per program, after
 * profil_harness.h and profil.h.
 */
#ifndef LIBPROFIL_SELFTEST_WORKLOAD_H
#define LIBPROFIL_SELFTEST_WORKLOAD_H

#include <errno.h>
#include <time.h>

#define WORK	1.0	/* CPU seconds of the 50/30/20 workload */

static inline double thread_cpu(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

volatile unsigned long lp_sink;

/*
 * Fixed amounts of work in the ratio 5:3:2 rather than CPU-time budgets:
 * in a TCG guest the clock runs on while the vCPU is descheduled on the
 * host, so work, not time, keeps the ratio honest.
 */
#define DEFINE_SPIN(name)						\
__attribute__((noinline)) void name(unsigned long iters)		\
{									\
	unsigned long i;						\
									\
	for (i = 0; i < iters; i++)					\
		lp_sink += i;						\
}
DEFINE_SPIN(lp_fifty)
DEFINE_SPIN(lp_thirty)
DEFINE_SPIN(lp_twenty)

/*
 * Iterations per tenth of the workload, calibrated once, from the fastest
 * of five timings: a host stall only ever makes a timing slower.
 */
static inline unsigned long unit(void)
{
	static unsigned long k;
	unsigned long n = 1UL << 20;
	double t, best;
	int i;

	while (!k) {
		t = thread_cpu();
		lp_twenty(n);
		t = thread_cpu() - t;
		if (t <= 0.02) {
			n *= 2;
			continue;
		}
		for (best = t, i = 0; i < 4; i++) {
			t = thread_cpu();
			lp_twenty(n);
			t = thread_cpu() - t;
			best = t < best ? t : best;
		}
		k = (unsigned long)(n * (WORK / 10) / best);
	}
	return k;
}

/* Before any profiling starts, and once for all the forked tests. */
__attribute__((constructor)) static void calibrate(void)
{
	unit();
}

/*
 * Interleaved in 5 rounds, so that a stretch of time the host takes from
 * the vCPU (which the guest's clock still counts) falls on the three
 * functions in proportion to their shares, not all on one of them. Not
 * more: with 20 ms rounds a 100 Hz clock sampled the same two phases of
 * every round (lp_thirty got 10 % instead of 30).
 */
#define ROUNDS	5

static inline void workload(void)
{
	unsigned long k = unit() / ROUNDS;
	int i;

	for (i = 0; i < ROUNDS; i++) {
		lp_fifty(5 * k);
		lp_thirty(3 * k);
		lp_twenty(2 * k);
	}
}

/* About @secs of CPU time in lp_fifty. */
static inline void spin(double secs)
{
	lp_fifty((unsigned long)(unit() * secs * 10 / WORK));
}

/* Skips the test when the module is absent. */
#define SKIP_IF_ENOSYS(ret) do {					\
	if ((ret) < 0 && errno == ENOSYS)				\
		SKIP(return, "profil.ko not loaded");			\
} while (0)

static inline int module_present(void)
{
	struct profil_handle *h = profil_handle_open();

	if (!h)
		return errno != ENOSYS;
	profil_handle_close(h);
	return 1;
}

#endif /* LIBPROFIL_SELFTEST_WORKLOAD_H */
