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
#include <stdarg.h>
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
	PF_MON_ERROR,	/* monstartup() failed; nothing is written */
	PF_MON_DONE,	/* _mcleanup() ran */
};

#define PF_WHY_MAX	256

static struct {
	pthread_mutex_t lock;
	enum pf_mon_state state;
	uint64_t lowpc;
	uint64_t highpc;
	unsigned short *kcount;
	size_t nbins;
	uint32_t rate;
	char why[PF_WHY_MAX];	/* PF_MON_ERROR: what monstartup() said */
} pf_mon = { .lock = PTHREAD_MUTEX_INITIALIZER };

static pthread_once_t pf_mon_atfork_once = PTHREAD_ONCE_INIT;

/*
 * pf_mon.lock is held across pf_profil()'s kernel round trip: fork()
 * takes it first, as pf_lock (see pf_profil_atfork()), so a child never
 * inherits it locked and its moncontrol() or _mcleanup() cannot hang.
 */
static void pf_mon_take(void)
{
	pthread_mutex_lock(&pf_mon.lock);
}

static void pf_mon_release(void)
{
	pthread_mutex_unlock(&pf_mon.lock);
}

static void pf_mon_atfork_register(void)
{
	pf_profil_atfork();	/* first: its prepare runs after ours */
	pthread_atfork(pf_mon_take, pf_mon_release, pf_mon_release);
}

static void pf_mon_lock(void)
{
	pthread_once(&pf_mon_atfork_once, pf_mon_atfork_register);
	pthread_mutex_lock(&pf_mon.lock);
}

void pf_mcount_reset(void)
{
	pf_mon_lock();
	free(pf_mon.kcount);
	pf_mon.kcount = NULL;
	pf_mon.state = PF_MON_UNSET;
	pf_mon.why[0] = '\0';
	pthread_mutex_unlock(&pf_mon.lock);
}

/* Under pf_mon.lock: monstartup() failed; say why now and at _mcleanup(). */
static void pf_mon_fail_locked(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));
static void pf_mon_fail_locked(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(pf_mon.why, sizeof(pf_mon.why), fmt, ap);
	va_end(ap);
	fprintf(stderr, "monstartup: %s\n", pf_mon.why);
	free(pf_mon.kcount);
	pf_mon.kcount = NULL;
	pf_mon.state = PF_MON_ERROR;
}

/* Under pf_mon.lock: profil() into the histogram. 0, or -1 with errno. */
static int pf_mon_start_locked(void)
{
	int rate = pf_profil_env_rate();

	if (pf_profil(pf_mon.kcount, pf_mon.nbins * sizeof(*pf_mon.kcount),
		      (size_t)pf_mon.lowpc, PF_SCALE) < 0)
		return -1;
	pf_mon.rate = pf_rate_effective(rate);
	pf_mon.state = PF_MON_ON;
	return 0;
}

/* The CLI's hint, for the errno of a missing module. */
static const char *pf_hint(int err)
{
	return err == ENOSYS ? " (is profil.ko loaded?)" : "";
}

/* Under pf_mon.lock. */
static void pf_moncontrol_locked(int mode)
{
	int err;

	if (pf_mon.state != PF_MON_ON && pf_mon.state != PF_MON_OFF)
		return;
	if (!mode) {
		pf_profil(NULL, 0, 0, 0);
		pf_mon.state = PF_MON_OFF;
		return;
	}
	if (pf_mon_start_locked() < 0) {
		err = errno;
		/* What was counted so far is kept for _mcleanup(). */
		fprintf(stderr, "moncontrol: profil: %s%s\n", profil_strerror(),
			pf_hint(err));
		pf_mon.state = PF_MON_OFF;
		errno = err;
	}
}

PROFIL_EXPORT void monstartup(unsigned long lowpc, unsigned long highpc)
{
	uint64_t low = lowpc & ~(uint64_t)(PF_BIN_BYTES - 1);
	unsigned short *kcount;
	uint64_t nbins;
	int err;

	pf_mon_lock();
	if (pf_mon.state != PF_MON_UNSET)
		goto out;	/* a second call is ignored, as in glibc */
	if (highpc <= lowpc) {
		pf_mon_fail_locked("empty range %#lx..%#lx", lowpc, highpc);
		pf_err_set(EINVAL, NULL);
		goto out;
	}
	nbins = (highpc - low + PF_BIN_BYTES - 1) / PF_BIN_BYTES;
	kcount = nbins <= SIZE_MAX / sizeof(*kcount) ?
		 calloc((size_t)nbins, sizeof(*kcount)) : NULL;
	if (!kcount) {
		pf_mon_fail_locked("out of memory");
		pf_err_set(ENOMEM, NULL);
		goto out;
	}
	pf_mon.kcount = kcount;
	pf_mon.nbins = (size_t)nbins;
	pf_mon.lowpc = low;
	pf_mon.highpc = low + PF_BIN_BYTES * nbins;
	/*
	 * Nothing can be counted if this fails (no module, say): ERROR, as
	 * glibc's GMON_PROF_ERROR, so _mcleanup() leaves an old gmon.out
	 * alone instead of replacing it with zeros.
	 */
	if (pf_mon_start_locked() < 0) {
		err = errno;
		pf_mon_fail_locked("profil: %s%s", profil_strerror(),
				   pf_hint(err));
		errno = err;
	}
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

	pf_mon_lock();
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

	pf_mon_lock();
	if (pf_mon.state == PF_MON_UNSET) {
		pthread_mutex_unlock(&pf_mon.lock);
		next = (void (*)(void))pf_next("_mcleanup");
		if (next)
			next();
		return;
	}
	if (pf_mon.state == PF_MON_ERROR) {
		char name[PF_WHY_MAX];

		if (pf_gmon_filename(name, sizeof(name)) < 0)
			snprintf(name, sizeof(name), "%s", "gmon.out");
		fprintf(stderr,
			"_mcleanup: %s: not written, monstartup failed: %s\n",
			name, pf_mon.why);
		pf_mon.state = PF_MON_DONE;
	} else if (pf_mon.state == PF_MON_ON || pf_mon.state == PF_MON_OFF) {
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
