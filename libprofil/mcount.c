// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * monstartup(), moncontrol() and _mcleanup() with glibc's signatures.
 *
 * Our monstartup() keeps bins exact: scale 32768 (4 bytes of text per
 * bin), lowpc rounded down to 4, hist_size = ceil(textsize / 4) and
 * high_pc = low_pc + 4 * hist_size, so gprof's hist_scale is exactly 2.
 * No call graph is recorded: a program built with -pg keeps glibc's
 * mcount, and its gcrt1 calls glibc's __monstartup; moncontrol() and
 * _mcleanup() then pass through to glibc's, since ours was never started.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/gmon.h>

#include "profil.h"
#include "internal.h"

#define PF_BIN_BYTES	4
#define PF_SCALE	(131072 / PF_BIN_BYTES)

enum pf_mon_state {
	PF_MON_UNSET,	/* monstartup() not called: pass through to glibc */
	PF_MON_OFF,
	PF_MON_ON,
	PF_MON_ERROR,	/* set up failed; nothing is written */
	PF_MON_DONE,	/* _mcleanup() ran */
};

static struct {
	pthread_mutex_t lock;
	enum pf_mon_state state;
	uint64_t lowpc;
	uint64_t highpc;
	unsigned short *kcount;
	size_t nbins;
	uint32_t rate;
} pf_mon = { .lock = PTHREAD_MUTEX_INITIALIZER };

void pf_mcount_reset(void)
{
	pthread_mutex_lock(&pf_mon.lock);
	free(pf_mon.kcount);
	pf_mon.kcount = NULL;
	pf_mon.state = PF_MON_UNSET;
	pthread_mutex_unlock(&pf_mon.lock);
}

/* Under pf_mon.lock. */
static void pf_moncontrol_locked(int mode)
{
	int rate;

	if (pf_mon.state != PF_MON_ON && pf_mon.state != PF_MON_OFF)
		return;
	if (!mode) {
		pf_profil(NULL, 0, 0, 0);
		pf_mon.state = PF_MON_OFF;
		return;
	}
	rate = pf_profil_env_rate();
	if (pf_profil(pf_mon.kcount, pf_mon.nbins * sizeof(*pf_mon.kcount),
		      (size_t)pf_mon.lowpc, PF_SCALE) < 0) {
		fprintf(stderr, "monstartup: profil: %s\n", profil_strerror());
		pf_mon.state = PF_MON_OFF;
		return;
	}
	pf_mon.rate = pf_rate_effective(rate);
	pf_mon.state = PF_MON_ON;
}

PROFIL_EXPORT void monstartup(unsigned long lowpc, unsigned long highpc)
{
	uint64_t low = lowpc & ~(uint64_t)(PF_BIN_BYTES - 1);
	unsigned short *kcount;
	uint64_t nbins;

	pthread_mutex_lock(&pf_mon.lock);
	if (pf_mon.state != PF_MON_UNSET)
		goto out;	/* a second call is ignored, as in glibc */
	if (highpc <= lowpc) {
		fprintf(stderr, "monstartup: empty range %#lx..%#lx\n",
			lowpc, highpc);
		errno = EINVAL;
		pf_mon.state = PF_MON_ERROR;
		goto out;
	}
	nbins = (highpc - low + PF_BIN_BYTES - 1) / PF_BIN_BYTES;
	kcount = nbins <= SIZE_MAX / sizeof(*kcount) ?
		 calloc((size_t)nbins, sizeof(*kcount)) : NULL;
	if (!kcount) {
		fprintf(stderr, "monstartup: out of memory\n");
		errno = ENOMEM;
		pf_mon.state = PF_MON_ERROR;
		goto out;
	}
	pf_mon.kcount = kcount;
	pf_mon.nbins = (size_t)nbins;
	pf_mon.lowpc = low;
	pf_mon.highpc = low + PF_BIN_BYTES * nbins;
	pf_mon.state = PF_MON_OFF;
	pf_moncontrol_locked(1);
out:
	pthread_mutex_unlock(&pf_mon.lock);
}

static void *pf_next(const char *sym)
{
	return dlsym(RTLD_NEXT, sym);
}

PROFIL_EXPORT void moncontrol(int mode)
{
	void (*next)(int);

	pthread_mutex_lock(&pf_mon.lock);
	if (pf_mon.state != PF_MON_UNSET) {
		pf_moncontrol_locked(mode);
		pthread_mutex_unlock(&pf_mon.lock);
		return;
	}
	pthread_mutex_unlock(&pf_mon.lock);
	next = (void (*)(int))pf_next("moncontrol");
	if (next)
		next(mode);
}

PROFIL_EXPORT void _mcleanup(void)
{
	void (*next)(void);

	pthread_mutex_lock(&pf_mon.lock);
	if (pf_mon.state == PF_MON_UNSET) {
		pthread_mutex_unlock(&pf_mon.lock);
		next = (void (*)(void))pf_next("_mcleanup");
		if (next)
			next();
		return;
	}
	if (pf_mon.state == PF_MON_ON || pf_mon.state == PF_MON_OFF) {
		/* Once STOP is acknowledged the kernel writes no more. */
		pf_moncontrol_locked(0);
		pf_gmon_save("_mcleanup", pf_mon.lowpc, pf_mon.highpc,
			     pf_mon.kcount, pf_mon.nbins,
			     pf_mon.rate ? pf_mon.rate :
			     pf_rate_effective(pf_profil_env_rate()));
		pf_mon.state = PF_MON_DONE;
	}
	pthread_mutex_unlock(&pf_mon.lock);
}
