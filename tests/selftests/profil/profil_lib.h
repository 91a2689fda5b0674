/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The selftests' client API (see profil_nl.h) on top of libprofil, so that
 * the _lib twins of profil_semantics_test, profil_clocks_test and
 * profil_threads_test run their tests through the library: plain
 * requests through the profil() drop-in (PROFIL_HZ carries the rate), the
 * rest through the extended API.
 */
#ifndef PROFIL_SELFTEST_LIB_H
#define PROFIL_SELFTEST_LIB_H

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/profil.h>
#include "profil.h"	/* libprofil's */

struct pnl {
	struct profil_handle *h;
	char extack[256];
};

struct pnl_start {
	uint64_t buf, bufsiz, offset;
	uint32_t scale, rate, flags;
	uint32_t pid;		/* 0: the caller */
	bool no_rate;		/* leave the rate to the kernel */
};

struct pnl_status {
	uint32_t pid, scale, rate, flags, state, reason;
	uint64_t buf, bufsiz, offset, fault_addr;
	uint64_t stats[PROFIL_STAT_MAX + 1];
};

/* 0 or -errno, keeping the extack text of a failure. */
static inline int pnl_result(struct pnl *nl, int ret)
{
	const char *msg;

	nl->extack[0] = '\0';
	if (!ret)
		return 0;
	ret = -errno;
	msg = profil_last_extack();
	if (msg)
		snprintf(nl->extack, sizeof(nl->extack), "%s", msg);
	return ret;
}

static inline int pnl_open(struct pnl *nl)
{
	memset(nl, 0, sizeof(*nl));
	nl->h = profil_handle_open();
	return nl->h ? 0 : -errno;
}

static inline void pnl_close(struct pnl *nl)
{
	if (nl->h)
		profil_handle_close(nl->h);
	nl->h = NULL;
}

static inline bool pnl_plain(const struct pnl_start *s)
{
	return !s->flags && !s->pid &&
	       (s->no_rate || (s->rate >= PROFIL_RATE_MIN &&
			       s->rate <= PROFIL_RATE_MAX));
}

static inline int pnl_start(struct pnl *nl, const struct pnl_start *s)
{
	struct profil_params p = {
		.buf = s->buf, .bufsiz = s->bufsiz, .offset = s->offset,
		.scale = s->scale, .rate = s->no_rate ? 0 : s->rate,
		.flags = s->flags, .pid = s->pid,
	};
	char hz[16];

	if (!pnl_plain(s))
		return pnl_result(nl, profil_session_start(nl->h, &p));
	if (s->no_rate) {
		unsetenv("PROFIL_HZ");
	} else {
		snprintf(hz, sizeof(hz), "%u", s->rate);
		setenv("PROFIL_HZ", hz, 1);
	}
	return pnl_result(nl, profil((unsigned short *)(uintptr_t)s->buf,
				     s->bufsiz, s->offset, s->scale));
}

static inline int pnl_stop(struct pnl *nl, uint32_t pid)
{
	/* NULL turns profil() off, whatever glibc's prototype says. */
	unsigned short *volatile off = NULL;

	if (pid)
		return pnl_result(nl, profil_session_stop(nl->h, pid));
	return pnl_result(nl, profil(off, 0, 0, 0));
}

static inline int pnl_get(struct pnl *nl, uint32_t pid, struct pnl_status *st)
{
	struct profil_status ps;
	int ret;

	memset(st, 0, sizeof(*st));
	ret = pnl_result(nl, profil_session_get(nl->h, pid, &ps));
	if (ret)
		return ret;
	st->pid = ps.pid;
	st->buf = ps.buf;
	st->bufsiz = ps.bufsiz;
	st->offset = ps.offset;
	st->scale = ps.scale;
	st->rate = ps.rate;
	st->flags = ps.flags;
	st->state = ps.state;
	st->reason = ps.reason;
	st->fault_addr = ps.fault_addr;
	/* One snapshot of every counter, PROFIL_STAT_MISSED included. */
	return pnl_result(nl, profil_session_get_stats(nl->h, pid, st->stats,
						       PROFIL_STAT_MAX + 1));
}

#endif /* PROFIL_SELFTEST_LIB_H */
