// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * sprofil() as a drop-in for glibc's (<sys/profil.h>), on the kernel's
 * region sets: each struct prof is a region, PROF_UINT picks u32
 * counters, and counters saturate, as glibc's do. The kernel resolves
 * overlaps (the higher offset wins), ignores scales below 2 and sends PCs
 * in no region to the overflow bin (offset 0, scale 2), as glibc intends
 * (Documentation/kmod/regions.rst); where glibc's code does otherwise
 * (Documentation/libprofil.rst) this follows the intent.
 *
 * The process has one session, which profil() and sprofil() share: a call
 * while it is active, whoever started it, turns it off (glibc's rule for a
 * second sprofil() call); otherwise the regions replace whatever profil()
 * had set up.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/profil.h>
#include <sys/time.h>
#include <unistd.h>
#include <libmnl/libmnl.h>

#include "profil.h"
#include "internal.h"

struct pf_sprofil {
	struct profil_regions *set;	/* NULL: no region counts */
	int rate;			/* $PROFIL_HZ; 0 default, -1 bad */
	uint32_t period_rate;		/* out: the rate the period is of */
};

/*
 * The set of @profcnt regions at @profp. Regions glibc leaves out (a
 * scale below 2, room for no counter) are not sent; *@out stays NULL if
 * no region is left.
 */
static int pf_sprofil_set(const struct prof *profp, int profcnt,
			  unsigned int flags, struct profil_regions **out)
{
	uint64_t width = flags & PROF_UINT ? 4 : 2;
	struct profil_regions *r;
	const struct prof *p;
	int i;

	*out = NULL;
	if (profcnt < 0) {
		pf_err_set(EINVAL, "profcnt is negative");
		return -1;
	}
	if (profcnt && !profp) {
		pf_err_set(EFAULT, "profp is NULL");
		return -1;
	}
	r = profil_regions_alloc();
	if (!r)
		return -1;
	profil_regions_set_counter(r, flags & PROF_UINT ? PROFIL_COUNTER_U32 :
							  PROFIL_COUNTER_U16);
	profil_regions_set_mode(r, PROFIL_MODE_SATURATE);
	for (i = 0; i < profcnt; i++) {
		p = &profp[i];
		if (p->pr_scale < 2 || p->pr_size < width)
			continue;
		if (p->pr_scale > UINT32_MAX) {
			pf_err_set(EINVAL, "pr_scale is wider than 32 bits");
			goto err_free;
		}
		if ((uintptr_t)p->pr_base > UINTPTR_MAX - (p->pr_size - 1)) {
			pf_err_set(EFAULT, "a buffer wraps around the address space");
			goto err_free;
		}
		/* E2BIG past PROFIL_REGIONS_MAX, ENOMEM. */
		if (profil_regions_add(r, (uintptr_t)p->pr_base, p->pr_size,
				       p->pr_off, (uint32_t)p->pr_scale) < 0)
			goto err_free;
	}
	if (profil_regions_count(r))
		*out = r;
	else
		profil_regions_free(r);
	return 0;

err_free:
	profil_regions_free(r);
	return -1;
}

struct pf_sprofil_get {
	struct profil_status *st;
	bool found;
};

static int pf_sprofil_get_cb(const struct nlmsghdr *nlh, void *data)
{
	struct pf_sprofil_get *g = data;

	if (pf_nl_parse_status(nlh, g->st, NULL, 0) < 0)
		return MNL_CB_ERROR;
	g->found = true;
	return MNL_CB_OK;
}

/* 1 if the caller's session is active, 0 if not, -1 and errno. */
static int pf_sprofil_active(struct pf_nl *nl, struct profil_status *st)
{
	struct pf_sprofil_get g = { .st = st };
	struct nlmsghdr *nlh;

	nlh = pf_nl_request(nl, PROFIL_CMD_GET, NLM_F_ACK);
	if (pf_nl_talk(nl, nlh, pf_sprofil_get_cb, &g) < 0) {
		/* The kernel's own ENOENT (with its text): not profiled. */
		if (errno == ENOENT && profil_last_extack()) {
			pf_err_clear();
			return 0;
		}
		return -1;
	}
	if (!g.found) {
		pf_err_set(EPROTO, NULL);	/* an ACK without a reply */
		return -1;
	}
	return st->state == PROFIL_STATE_ACTIVE;
}

/* Under profil()'s lock: turn the session off, or start the set. */
static int pf_sprofil_locked(struct pf_nl *nl, void *arg)
{
	struct pf_sprofil *s = arg;
	struct profil_status st;
	struct nlmsghdr *nlh;
	int on = pf_sprofil_active(nl, &st);

	if (on < 0)
		return -1;
	if (on) {
		s->period_rate = st.rate;
		nlh = pf_nl_request(nl, PROFIL_CMD_STOP, NLM_F_ACK);
		return pf_nl_talk(nl, nlh, NULL, NULL);
	}
	if (s->rate < 0) {
		pf_err_set(EINVAL, "PROFIL_HZ is not an integer in 10..10000");
		return -1;
	}
	s->period_rate = pf_rate_effective(s->rate);
	if (!s->set)
		return 0;	/* glibc starts nothing either */
	return pf_nl_start_regions(nl, 0, s->set, (uint32_t)s->rate, 0);
}

PROFIL_EXPORT int sprofil(struct prof *profp, int profcnt, struct timeval *tvp,
			  unsigned int flags)
{
	int err = errno, ret;
	struct pf_sprofil s = { NULL, 0, 0 };
	long t;

	pf_err_clear();
	s.rate = pf_profil_env_rate();	/* sets errno */
	if (pf_sprofil_set(profp, profcnt, flags, &s.set) < 0)
		return -1;
	ret = pf_shared_run(pf_sprofil_locked, &s);
	err = ret ? errno : err;
	profil_regions_free(s.set);
	if (ret == 0 && tvp) {
		t = 1000000L / (long)(s.period_rate ? s.period_rate :
					  PROFIL_RATE_DEFAULT);
		tvp->tv_sec = t / 1000000L;
		tvp->tv_usec = t % 1000000L;
	}
	if (ret == 0)
		pf_err_clear();
	errno = err;	/* success leaves errno alone */
	return ret;
}
