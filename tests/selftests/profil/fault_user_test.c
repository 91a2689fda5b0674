// SPDX-License-Identifier: GPL-2.0
/*
 * Fault injection (make check-debug), the writes to user memory:
 * profil.ko's own fault attribute, debugfs profil/fail_user_write, fails
 * them: once (the tick defers and the deferred write adds the count),
 * then every time (the documented outcome of a fault: FAULTED, the
 * session stopped with the counter's address). And a fault-in short of
 * memory (fail_page_alloc, this thread only) is not a fault: its ticks
 * are given up, the session goes on. Without fault injection there is
 * no attribute: a real fault (a read-only buffer) is checked instead,
 * and the page is faulted in at once. The fixture:
 * profil_fault_fixture.h.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

#include "profil_fault_fixture.h"

/* Spin until @self's own session has @stat at @min or more, or stopped. */
static void spin_until(struct __test_metadata *_metadata,
		       FIXTURE_DATA(fault) *self, int stat, uint64_t min,
		       struct pnl_status *st)
{
	double end = thread_cpu() + 10;

	do {
		spin(0.02);
		ASSERT_EQ(0, pnl_get(&self->nl, 0, st));
	} while (st->stats[stat] < min && st->state == PROFIL_STATE_ACTIVE &&
		 thread_cpu() < end);
}

/*
 * A real fault: a read-only buffer. The tick cannot write it and defers;
 * the deferred writer cannot fault it in: FAULTED, and the session stops
 * with PROFIL_STOP_FAULT and the counter's address.
 */
static void expect_fault_stop(struct __test_metadata *_metadata,
			      FIXTURE_DATA(fault) *self, uint16_t *buf,
			      uint64_t sum)
{
	struct pnl_status st;

	spin_until(_metadata, self, PROFIL_STAT_FAULTED, 1, &st);
	ASSERT_EQ(0, pnl_stop(&self->nl, 0));
	ASSERT_EQ(0, pnl_get(&self->nl, 0, &st));
	EXPECT_EQ(PROFIL_STATE_STOPPED, st.state);
	EXPECT_EQ(PROFIL_STOP_FAULT, st.reason);
	EXPECT_GE(st.fault_addr, (uintptr_t)buf);
	EXPECT_LT(st.fault_addr, (uintptr_t)buf + NBINS * 2);
	EXPECT_GE(st.stats[PROFIL_STAT_FAULTED], 1);
	EXPECT_EQ(0, st.stats[PROFIL_STAT_IN_RANGE]);
	EXPECT_EQ(sum, buf_sum(buf));
	expect_identity(_metadata, &st);
}

TEST_F_TIMEOUT(fault, user_write, 120)
{
	struct pnl_status st;
	uint16_t *ro;
	uint64_t sum;

	if (access(USER_WRITE, F_OK)) {
		/* Built without CONFIG_FAULT_INJECTION: no attribute. */
		ASSERT_GT(0, self->nth) TH_LOG("fail-nth but no " USER_WRITE);
		ro = mmap(NULL, NBINS * 2, PROT_READ,
			  MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
		ASSERT_NE(MAP_FAILED, ro);
		ASSERT_EQ(0, start_self(self, ro, RATE_TIMER));
		expect_fault_stop(_metadata, self, ro, 0);
		note("no %s: a real fault checked instead", USER_WRITE);
		munmap(ro, NBINS * 2);
		return;
	}
	ASSERT_EQ(0, knob_rw("profil/fail_user_write/verbose", "0", NULL, 0));
	ASSERT_EQ(0, knob_rw("profil/fail_user_write/task-filter", "N", NULL, 0));
	ASSERT_EQ(0, knob_rw("profil/fail_user_write/interval", "1", NULL, 0));

	/*
	 * One failure: the tick's add fails, as at a missing page, and
	 * defers; the deferred write then adds it. Nothing is lost.
	 */
	ASSERT_EQ(0, knob_rw("profil/fail_user_write/times", "1", NULL, 0));
	ASSERT_EQ(0, knob_rw("profil/fail_user_write/probability", "100",
			     NULL, 0));
	ASSERT_EQ(0, start_self(self, self->buf, RATE_TIMER));
	spin_until(_metadata, self, PROFIL_STAT_DEFERRED, 1, &st);
	ASSERT_EQ(0, pnl_stop(&self->nl, 0));
	ASSERT_EQ(0, knob_rw("profil/fail_user_write/probability", "0", NULL, 0));
	ASSERT_EQ(0, pnl_get(&self->nl, 0, &st));
	EXPECT_EQ(PROFIL_STOP_REQUEST, st.reason);
	EXPECT_EQ(1, st.stats[PROFIL_STAT_DEFERRED]);
	EXPECT_EQ(0, st.stats[PROFIL_STAT_FAULTED]);
	EXPECT_EQ(0, st.stats[PROFIL_STAT_PENDING]);
	EXPECT_LT(0, st.stats[PROFIL_STAT_IN_RANGE]);
	EXPECT_EQ(st.stats[PROFIL_STAT_IN_RANGE], buf_sum(self->buf));
	expect_identity(_metadata, &st);
	note("fail_user_write, times 1: %llu ticks, 1 deferred, %llu counted",
	       (unsigned long long)st.stats[PROFIL_STAT_TICKS],
	       (unsigned long long)st.stats[PROFIL_STAT_IN_RANGE]);

	/*
	 * Every write fails: the tick defers, the deferred writer's fault-in
	 * fails: the documented outcome of a fault, as with a real one.
	 */
	sum = buf_sum(self->buf2);
	ASSERT_EQ(0, knob_rw("profil/fail_user_write/times", "-1", NULL, 0));
	ASSERT_EQ(0, knob_rw("profil/fail_user_write/probability", "100",
			     NULL, 0));
	ASSERT_EQ(0, start_self(self, self->buf2, RATE_TIMER));
	spin_until(_metadata, self, PROFIL_STAT_FAULTED, 1, &st);
	ASSERT_EQ(0, knob_rw("profil/fail_user_write/probability", "0", NULL, 0));
	expect_fault_stop(_metadata, self, self->buf2, sum);
	note("fail_user_write, every write: stopped, fault at %#llx",
	       (unsigned long long)st.fault_addr);
}

/*
 * A fault-in short of memory is not a fault. The deferred writer's
 * fault-in of an untouched page fails with -ENOMEM where the page (or its
 * page table) cannot be had: a memory cgroup at its memory.max whose
 * out-of-memory killer finds nothing to kill, here the kernel's
 * fail_page_alloc, for this thread only (make-it-fail, task-filter), four
 * times: one deferred write's four attempts. Those ticks are given up and
 * counted in NOMEM (and DISCARDED), the session stays active, and the next
 * tick's deferred write faults the page in. Before, the first -ENOMEM
 * stopped the session with PROFIL_STOP_FAULT. (A cgroup cannot stand in:
 * its out-of-memory path logs a stack trace, which the harness fails.)
 * Without fault injection, the same page is faulted in at once.
 */
TEST_F_TIMEOUT(fault, fault_in_nomem, 120)
{
	uint16_t *buf = mmap(NULL, NBINS * 2, PROT_READ | PROT_WRITE,
			     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char times0[32] = "";
	struct pnl_status st;
	int prob = -1, mif = -1;

	ASSERT_NE(MAP_FAILED, buf);
	if (self->nth >= 0) {
		ASSERT_EQ(0, knob_rw("fail_page_alloc/ignore-gfp-highmem", "N",
				     NULL, 0));
		ASSERT_EQ(0, knob_rw("fail_page_alloc/times", "4", times0,
				     sizeof(times0)));
		/* Opened first: nothing may allocate once armed. */
		mif = open("/proc/thread-self/make-it-fail", O_WRONLY);
		prob = open(DEBUGFS "/fail_page_alloc/probability", O_WRONLY);
		ASSERT_LE(0, mif);
		ASSERT_LE(0, prob);
	}
	ASSERT_EQ(0, start_spin(self, buf, RATE_TIMER));
	if (self->nth >= 0) {
		ASSERT_EQ(1, write(mif, "1", 1));
		ASSERT_EQ(3, write(prob, "100", 3));
		/* Only user code and the CPU clock: no allocation but ours. */
		spin(0.2);
		write(prob, "0", 1);
		write(mif, "0", 1);
		close(prob);
		close(mif);
		knob_rw("fail_page_alloc/times", times0, NULL, 0);
	}
	spin_until(_metadata, self, PROFIL_STAT_IN_RANGE, 1, &st);
	note("%llu ticks: %llu deferred, %llu counted, %llu given up for memory, %llu faulted; %s",
	     (unsigned long long)st.stats[PROFIL_STAT_TICKS],
	     (unsigned long long)st.stats[PROFIL_STAT_DEFERRED],
	     (unsigned long long)st.stats[PROFIL_STAT_IN_RANGE],
	     (unsigned long long)st.stats[PROFIL_STAT_NOMEM],
	     (unsigned long long)st.stats[PROFIL_STAT_FAULTED],
	     st.state == PROFIL_STATE_ACTIVE ? "active" : "stopped");
	EXPECT_EQ(PROFIL_STATE_ACTIVE, st.state);
	EXPECT_EQ(PROFIL_STOP_NONE, st.reason);
	EXPECT_EQ(0, st.stats[PROFIL_STAT_FAULTED]);
	EXPECT_LE(1, st.stats[PROFIL_STAT_IN_RANGE]);
	if (self->nth >= 0) {
		EXPECT_LE(1, st.stats[PROFIL_STAT_NOMEM]);
	} else {
		EXPECT_EQ(0, st.stats[PROFIL_STAT_NOMEM]);
	}
	EXPECT_LE(st.stats[PROFIL_STAT_NOMEM],
		  st.stats[PROFIL_STAT_DISCARDED]);
	ASSERT_EQ(0, pnl_stop(&self->nl, 0));
	ASSERT_EQ(0, pnl_get(&self->nl, 0, &st));
	expect_identity(_metadata, &st);
	EXPECT_EQ(st.stats[PROFIL_STAT_IN_RANGE], buf_sum(buf));
	munmap(buf, NBINS * 2);
}

PROFIL_HARNESS_MAIN
