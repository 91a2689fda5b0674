/* SPDX-License-Identifier: GPL-2.0 */
/*
 * FIXTURE(nl): a session over profil_loop (profil_workload.h) on each of
 * the module's clocks, the scheduler tick (RATE_TICK) and the timer
 * (RATE_TIMER), with the checks its tests share: a session stopped for a
 * given reason, and the accounting identity once stopped. Shared by
 * profil_semantics_test and profil_clocks_test (and their _lib twins).
 * Include it after profil_workload.h.
 */
#ifndef PROFIL_SELFTEST_CLOCK_FIXTURE_H
#define PROFIL_SELFTEST_CLOCK_FIXTURE_H

#include <string.h>

/* Rates for each clock: at or below any HZ, and above any HZ. */
#define RATE_TICK	100
#define RATE_TIMER	2000

FIXTURE(nl) {
	struct pnl nl;
	uint16_t buf[4096];
	struct pnl_start req;
};

/* Every semantic holds on both clocks: the scheduler tick and the timer. */
FIXTURE_VARIANT(nl)
{
	uint32_t rate;
};

FIXTURE_VARIANT_ADD(nl, tick_clock) { .rate = RATE_TICK };
FIXTURE_VARIANT_ADD(nl, timer_clock) { .rate = RATE_TIMER };

FIXTURE_SETUP(nl)
{
	int err = pnl_open(&self->nl);

	ASSERT_EQ(0, err) TH_LOG("family %s: %s", PROFIL_GENL_NAME,
				 strerror(-err));
	memset(self->buf, 0, sizeof(self->buf));
	self->req = (struct pnl_start) {
		.buf = (uintptr_t)self->buf, .bufsiz = sizeof(self->buf),
		.offset = (uintptr_t)profil_loop & ~0xfULL, .scale = 0x10000,
		.rate = variant->rate,
	};
}

FIXTURE_TEARDOWN(nl)
{
	pnl_stop(&self->nl, 0);
	pnl_close(&self->nl);
}

static inline void expect_stopped(struct __test_metadata *_metadata,
				  struct pnl *nl, uint32_t reason,
				  struct pnl_status *st)
{
	ASSERT_EQ(0, pnl_get(nl, 0, st));
	EXPECT_EQ(PROFIL_STATE_STOPPED, st->state);
	EXPECT_EQ(reason, st->reason);
}

static inline void check_identity(struct __test_metadata *_metadata,
				  struct pnl *nl, const uint16_t *buf,
				  size_t nbins)
{
	struct pnl_status st;

	ASSERT_EQ(0, pnl_stop(nl, 0));
	ASSERT_EQ(0, pnl_get(nl, 0, &st));
	EXPECT_GT(st.stats[PROFIL_STAT_TICKS], 0);
	EXPECT_EQ(0, st.stats[PROFIL_STAT_PENDING]);
	EXPECT_EQ(st.stats[PROFIL_STAT_TICKS], pnl_accounted(&st));
	EXPECT_EQ(st.stats[PROFIL_STAT_IN_RANGE], buf_sum(buf, nbins));
}

#endif /* PROFIL_SELFTEST_CLOCK_FIXTURE_H */
