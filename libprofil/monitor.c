// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * monitor(3C) of Solaris (classically monitor(3) of V7):
 *   monitor(lowpc, highpc, buffer, bufsize, nfunc) starts profiling,
 *   monitor(NULL, ...) stops it and writes gmon.out (prof(1) and mon.out
 *   do not exist on Linux; GNU gprof reads gmon.out).
 *
 * @buffer holds, in order: a header (lowpc, highpc, nfunc as u64), nfunc
 * call-count slots (pc, count as u64) and the u16 histogram in the rest.
 * The slots are left zero: libprofil records no calls.
 *
 * The histogram uses a power-of-two number of bytes per bin, the smallest
 * that lets the bins cover [lowpc, highpc), so gprof's bins are exact.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "profil.h"
#include "internal.h"

#define PF_MON_HDR_BYTES	(3 * sizeof(uint64_t))
#define PF_MON_CNT_BYTES	(2 * sizeof(uint64_t))
#define PF_MAX_BIN_BYTES	131072	/* scale 1 */

static struct {
	pthread_mutex_t lock;
	bool on;
	struct pf_geometry g;
	unsigned short *hist;
	uint32_t rate;
} pf_monitor = { .lock = PTHREAD_MUTEX_INITIALIZER };

static pthread_once_t pf_monitor_atfork_once = PTHREAD_ONCE_INIT;

/* Held across pf_profil()'s round trip: see mcount.c's pf_mon_take(). */
static void pf_monitor_take(void)
{
	pthread_mutex_lock(&pf_monitor.lock);
}

static void pf_monitor_release(void)
{
	pthread_mutex_unlock(&pf_monitor.lock);
}

static void pf_monitor_atfork_register(void)
{
	pf_profil_atfork();	/* first: its prepare runs after ours */
	pthread_atfork(pf_monitor_take, pf_monitor_release,
		       pf_monitor_release);
}

static void pf_monitor_lock(void)
{
	pthread_once(&pf_monitor_atfork_once, pf_monitor_atfork_register);
	pthread_mutex_lock(&pf_monitor.lock);
}

void pf_monitor_reset(void)
{
	pf_monitor_lock();
	pf_monitor.on = false;
	pf_monitor.hist = NULL;
	pthread_mutex_unlock(&pf_monitor.lock);
}

int pf_geometry(uint64_t lowpc, uint64_t highpc, size_t maxbins,
		struct pf_geometry *g)
{
	uint64_t low = lowpc & ~(uint64_t)3, range, bpb = 2, n;

	if (highpc <= lowpc || !maxbins) {
		errno = EINVAL;
		return -1;
	}
	range = highpc - low;
	while (bpb < PF_MAX_BIN_BYTES && (range + bpb - 1) / bpb > maxbins)
		bpb *= 2;
	n = (range + bpb - 1) / bpb;
	if (n > maxbins)
		n = maxbins;	/* even scale 1 cannot cover it: truncate */
	g->low_pc = low;
	g->high_pc = low + n * bpb;
	g->scale = (uint32_t)(131072 / bpb);
	g->nbins = (size_t)n;
	return 0;
}

static void pf_monitor_stop_locked(void)
{
	if (!pf_monitor.on)
		return;
	pf_profil(NULL, 0, 0, 0);
	pf_monitor.on = false;
	pf_gmon_save("monitor", pf_monitor.g.low_pc, pf_monitor.g.high_pc,
		     pf_monitor.hist, pf_monitor.g.nbins, pf_monitor.rate);
}

static void pf_put_u64(unsigned short *at, uint64_t v)
{
	memcpy(at, &v, sizeof(v));	/* @at is only 2-byte aligned */
}

PROFIL_EXPORT void monitor(int (*lowpc)(void), int (*highpc)(void),
			   unsigned short *buffer, size_t bufsize,
			   size_t nfunc)
{
	uint64_t low = (uintptr_t)lowpc, high = (uintptr_t)highpc;
	size_t skip;
	struct pf_geometry g;
	int rate;

	pf_monitor_lock();
	if (!lowpc) {
		pf_monitor_stop_locked();
		goto out;
	}
	if (!buffer || nfunc > (SIZE_MAX - PF_MON_HDR_BYTES) /
			       PF_MON_CNT_BYTES) {
		pf_err_set(EINVAL, NULL);
		fprintf(stderr, "monitor: %s\n", strerror(EINVAL));
		goto out;
	}
	skip = (PF_MON_HDR_BYTES + nfunc * PF_MON_CNT_BYTES) /
	       sizeof(*buffer);
	if (bufsize <= skip || pf_geometry(low, high, bufsize - skip, &g) < 0) {
		pf_err_set(EINVAL, NULL);
		fprintf(stderr, "monitor: %s\n", bufsize <= skip ?
			"buffer too small" : "empty range");
		goto out;
	}
	/* Restarting discards the previous profile, as classic monitor(). */
	if (pf_monitor.on)
		pf_profil(NULL, 0, 0, 0);
	pf_monitor.on = false;
	memset(buffer, 0, bufsize * sizeof(*buffer));
	pf_put_u64(buffer, g.low_pc);
	pf_put_u64(buffer + 4, g.high_pc);
	pf_put_u64(buffer + 8, nfunc);
	rate = pf_profil_env_rate();
	if (pf_profil(buffer + skip, g.nbins * sizeof(*buffer),
		      (size_t)g.low_pc, g.scale) < 0) {
		int err = errno;

		fprintf(stderr, "monitor: profil: %s\n", profil_strerror());
		errno = err;
		goto out;
	}
	pf_monitor.g = g;
	pf_monitor.hist = buffer + skip;
	pf_monitor.rate = pf_rate_effective(rate);
	pf_monitor.on = true;
out:
	pthread_mutex_unlock(&pf_monitor.lock);
}
