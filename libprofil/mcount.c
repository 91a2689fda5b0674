// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The -pg runtime with glibc's signatures: monstartup() (and
 * __monstartup(), which a -pg program's gcrt1.o calls), moncontrol() and
 * _mcleanup(); the mcount entry points are in mcount_x86_64.S and the
 * arc table in arcs.c.
 *
 * Our monstartup() keeps bins exact: scale 32768 (4 bytes of text per
 * bin), lowpc rounded down to 4, hist_size = ceil(textsize / 4) and
 * high_pc = low_pc + 4 * hist_size, so gprof's hist_scale is exactly 2.
 * The histogram comes from profil.ko, the arcs from mcount. If our
 * monstartup() was never called (a program that calls glibc's directly),
 * moncontrol() and _mcleanup() pass through to glibc's.
 *
 * fork(): the child starts from empty counts (histogram, arcs, totals)
 * and writes its own file, $GMON_OUT_PREFIX.<pid> or gmon.out.<pid>.
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
	bool arcs;		/* pf_pg_arcs is set up */
	bool forked;		/* a child forked after monstartup() */
	char why[PF_WHY_MAX];	/* PF_MON_ERROR: what monstartup() said */
} pf_mon = { .lock = PTHREAD_MUTEX_INITIALIZER };

/* What the mcount stubs record into; off until monstartup() succeeds. */
struct pf_arcs pf_pg_arcs;

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

/*
 * The child's profile holds only the child's counts: the kernel counts on
 * into the child's copy of the histogram, which starts from zero, and so
 * does the arc table. Only this thread runs in the child.
 */
static void pf_mon_child(void)
{
	if (pf_mon.state == PF_MON_ON || pf_mon.state == PF_MON_OFF) {
		memset(pf_mon.kcount, 0, pf_mon.nbins * sizeof(*pf_mon.kcount));
		if (pf_mon.arcs)
			pf_arcs_clear(&pf_pg_arcs);
		pf_mon.forked = true;
	}
	pthread_mutex_unlock(&pf_mon.lock);
}

static void pf_mon_atfork_register(void)
{
	pf_profil_atfork();	/* first: its prepare runs after ours */
	pthread_atfork(pf_mon_take, pf_mon_release, pf_mon_child);
}

static void pf_mon_lock(void)
{
	pthread_once(&pf_mon_atfork_once, pf_mon_atfork_register);
	pthread_mutex_lock(&pf_mon.lock);
}

void pf_mcount_reset(void)
{
	pf_mon_lock();
	pf_arcs_free(&pf_pg_arcs);
	pf_mon.arcs = false;
	pf_mon.forked = false;
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
	pf_arcs_free(&pf_pg_arcs);
	pf_mon.arcs = false;
	free(pf_mon.kcount);
	pf_mon.kcount = NULL;
	pf_mon.state = PF_MON_ERROR;
}

/* Under pf_mon.lock: profil() into the histogram. 0, or -1 with errno. */
static int pf_mon_start_locked(void)
{
	int rate = pf_profil_env_rate();

	/* Not over a session on another buffer (another tool's): EBUSY. */
	if (pf_profil_own(pf_mon.kcount, pf_mon.nbins * sizeof(*pf_mon.kcount),
			  (size_t)pf_mon.lowpc, PF_SCALE) < 0)
		return -1;
	pf_mon.rate = pf_rate_effective(rate);
	pf_mon.state = PF_MON_ON;
	if (pf_mon.arcs)
		pf_arcs_set_on(&pf_pg_arcs, true);
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
		pf_arcs_set_on(&pf_pg_arcs, false);
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

/* Slots for the arc table: $PROFIL_ARCS if set, else from the text size. */
static size_t pf_mon_arc_slots(uint64_t textsize)
{
	const char *s = getenv("PROFIL_ARCS");
	unsigned long n;
	char *end;

	if (s && *s) {
		errno = 0;
		n = strtoul(s, &end, 10);
		if (!errno && !*end && n >= 1 && n <= PF_ARCS_MAX_SLOTS)
			return n;
		fprintf(stderr, "monstartup: PROFIL_ARCS=%s: not a number of "
			"slots in 1..%lu, ignored\n", s, PF_ARCS_MAX_SLOTS);
	}
	return pf_arcs_slots(textsize);
}

/* Under pf_mon.lock: the arc table; without one, only the histogram. */
static void pf_mon_arcs_locked(void)
{
	size_t n = pf_mon_arc_slots(pf_mon.highpc - pf_mon.lowpc);

	if (pf_arcs_init(&pf_pg_arcs, pf_mon.lowpc, pf_mon.highpc, n) < 0) {
		fprintf(stderr, "monstartup: no call graph: %s\n",
			strerror(errno));
		return;
	}
	pf_mon.arcs = true;
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
	pf_mon_arcs_locked();
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

/* What a -pg program's gcrt1.o calls; glibc's monstartup is its alias. */
PROFIL_EXPORT void __monstartup(unsigned long lowpc, unsigned long highpc)
	__attribute__((alias("monstartup")));

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

static unsigned long long pf_ull(uint64_t v)
{
	return (unsigned long long)v;
}

/* The arc table's losses, always; everything with $PROFIL_STATS. */
static void pf_mon_report(const char *name, const struct pf_arcs_totals *t)
{
	const char *stats = getenv("PROFIL_STATS");

	if (t->lost)
		fprintf(stderr, "_mcleanup: %s: call graph incomplete: %llu "
			"calls lost, the arc table (%zu slots) was full; set "
			"PROFIL_ARCS to more\n", name, pf_ull(t->lost),
			pf_pg_arcs.nslots);
	if (stats && *stats && strcmp(stats, "0"))
		fprintf(stderr, "_mcleanup: %s: %llu arcs, %llu calls; %llu "
			"calls from outside the text and %llu to functions "
			"outside it not graphed; %llu lost\n", name,
			pf_ull(t->arcs), pf_ull(t->calls),
			pf_ull(t->spontaneous), pf_ull(t->foreign),
			pf_ull(t->lost));
}

/* Under pf_mon.lock, profiling off: the histogram and the arcs. */
static void pf_mon_save_locked(void)
{
	struct pf_gmon_out o = {
		.lowpc = pf_mon.lowpc, .highpc = pf_mon.highpc,
		.bins = pf_mon.kcount, .nbins = pf_mon.nbins,
		.rate = pf_mon.rate ? pf_mon.rate :
			pf_rate_effective(pf_profil_env_rate()),
		.forked = pf_mon.forked,
	};
	struct pf_arcs_totals t = { 0 };
	char name[PF_WHY_MAX];

	if (pf_mon.arcs) {
		/* Twice: the first pass counts, the second copies. */
		pf_arcs_collect(&pf_pg_arcs, NULL, 0, &t);
		o.arcs = calloc(t.arcs ? t.arcs : 1, sizeof(*o.arcs));
		if (o.arcs)
			o.narcs = pf_arcs_collect(&pf_pg_arcs, o.arcs, t.arcs,
						  &t);
		else
			fprintf(stderr, "_mcleanup: no call graph: %s\n",
				strerror(ENOMEM));
	}
	if (pf_gmon_name(name, sizeof(name), pf_mon.forked) < 0)
		snprintf(name, sizeof(name), "%s", "gmon.out");
	pf_gmon_save_out("_mcleanup", &o);
	free(o.arcs);
	pf_mon_report(name, &t);
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

		if (pf_gmon_name(name, sizeof(name), pf_mon.forked) < 0)
			snprintf(name, sizeof(name), "%s", "gmon.out");
		fprintf(stderr,
			"_mcleanup: %s: not written, monstartup failed: %s\n",
			name, pf_mon.why);
		pf_mon.state = PF_MON_DONE;
	} else if (pf_mon.state == PF_MON_ON || pf_mon.state == PF_MON_OFF) {
		/* Once STOP is acknowledged the kernel writes no more. */
		pf_moncontrol_locked(0);
		pf_mon_save_locked();
		pf_mon.state = PF_MON_DONE;
	}
	pthread_mutex_unlock(&pf_mon.lock);
}
