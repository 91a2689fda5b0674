// SPDX-License-Identifier: GPL-2.0
/*
 * Region sets through libprofil: the extended API (a set larger than one
 * 32 KiB message, extension while running, the round trip of GET and
 * GET_REGIONS) and the sprofil() drop-in (PROF_UINT, the overflow bin,
 * saturation, the period through tvp, a call while on turns it off, its
 * sharing of the session with profil()), including where it parts from
 * glibc's sprofil(): each hit in its own region, no wrap below the first
 * region, a third call that starts again.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/profil.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "profil_harness.h"
#include "profil.h"	/* libprofil's */

#define N_SMALL	700	/* 700 * 48 bytes: more than one 32 KiB message */

/*
 * Two loops of two known instructions, as in regions_test, in sections
 * of their own: a tick of a thread running one lands on its cmp (7
 * bytes) or its jmp, or once on its ret.
 */
volatile char sp_stop;
extern const char sp_loop[], sp_cmp[], sp_loop2[], sp_cmp2[];
asm(".pushsection .text.sp_loop, \"ax\", @progbits\n"
    ".globl sp_loop\n"
    ".type sp_loop, @function\n"
    ".p2align 6\n"
    ".skip 64, 0xcc\n"
    "sp_loop:\n"
    "sp_cmp: cmpb $0, sp_stop(%rip)\n"
    "je sp_cmp\n"
    "ret\n"
    ".size sp_loop, . - sp_loop\n"
    ".skip 1024, 0xcc\n"
    ".p2align 6\n"
    ".skip 64, 0xcc\n"
    ".globl sp_loop2\n"
    ".type sp_loop2, @function\n"
    "sp_loop2:\n"
    "sp_cmp2: cmpb $0, sp_stop(%rip)\n"
    "je sp_cmp2\n"
    "ret\n"
    ".size sp_loop2, . - sp_loop2\n"
    ".skip 1024, 0xcc\n"
    ".popsection\n");

static void *loop_thread(void *arg)
{
	((void (*)(void))arg)();
	return NULL;
}

static double process_cpu(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static uint64_t base(void)
{
	return (uintptr_t)sp_cmp;
}

static uint64_t base2(void)
{
	return (uintptr_t)sp_cmp2;
}

static void get_stats(struct __test_metadata *_metadata,
		      struct profil_handle *h, uint64_t *st)
{
	ASSERT_EQ(0, profil_session_get_stats(h, 0, st, PROFIL_STAT_MAX + 1))
		TH_LOG("%s", profil_strerror());
}

/*
 * Run @nloops loops, each in a thread, until the session took @ticks in
 * user mode (or 10 s of CPU), counted by the kernel, polling every 50 ms
 * (regions_test's run_loop()).
 */
static void run_loops(struct __test_metadata *_metadata,
		      struct profil_handle *h, int nloops, uint64_t ticks)
{
	void (*fn[2])(void) = { (void (*)(void))sp_loop,
				(void (*)(void))sp_loop2 };
	uint64_t st[PROFIL_STAT_MAX + 1];
	pthread_t tid[2];
	double start;
	int i;

	sp_stop = 0;
	for (i = 0; i < nloops; i++)
		ASSERT_EQ(0, pthread_create(&tid[i], NULL, loop_thread,
					    (void *)fn[i]));
	for (start = process_cpu(); process_cpu() - start < 10.0;) {
		usleep(50000);
		get_stats(_metadata, h, st);
		if (st[PROFIL_STAT_TICKS] - st[PROFIL_STAT_SYSTEM_DROPPED] >=
		    ticks)
			break;
	}
	sp_stop = 1;
	for (i = 0; i < nloops; i++)
		pthread_join(tid[i], NULL);
}

/* Run the loop in a thread for @secs of the process's CPU time. */
static void run_loop_cpu(struct __test_metadata *_metadata, double secs)
{
	pthread_t tid;
	double start;

	sp_stop = 0;
	ASSERT_EQ(0, pthread_create(&tid, NULL, loop_thread, (void *)sp_loop));
	for (start = process_cpu(); process_cpu() - start < secs;)
		usleep(10000);
	sp_stop = 1;
	pthread_join(tid, NULL);
}

static void run_loop(struct __test_metadata *_metadata,
		     struct profil_handle *h, uint64_t ticks)
{
	run_loops(_metadata, h, 1, ticks);
}

/* The stats of a stopped session: every tick accounted for. */
static void stopped_stats(struct __test_metadata *_metadata,
			  struct profil_handle *h, uint64_t *st)
{
	struct profil_status s;

	ASSERT_EQ(0, profil_session_get(h, 0, &s));
	EXPECT_EQ(PROFIL_STATE_STOPPED, s.state);
	get_stats(_metadata, h, st);
	EXPECT_EQ(0, st[PROFIL_STAT_PENDING]);
	EXPECT_EQ(st[PROFIL_STAT_TICKS],
		  st[PROFIL_STAT_IN_RANGE] + st[PROFIL_STAT_OUT_OF_RANGE] +
		  st[PROFIL_STAT_SYSTEM_DROPPED] + st[PROFIL_STAT_PENDING] +
		  st[PROFIL_STAT_DISCARDED] + st[PROFIL_STAT_FAULTED] +
		  st[PROFIL_STAT_SATURATED]);
}

static uint64_t sum16(const uint16_t *b, size_t n)
{
	uint64_t s = 0;

	while (n--)
		s += b[n];
	return s;
}

static uint64_t sum32(const uint32_t *b, size_t n)
{
	uint64_t s = 0;

	while (n--)
		s += b[n];
	return s;
}

static struct prof prof(const void *buf, size_t size, uint64_t off,
			unsigned long scale)
{
	return (struct prof){ (void *)buf, size, (size_t)off, scale };
}

/* sprofil() that must succeed. */
#define SPROFIL(p, n, tv, flags)					\
	ASSERT_EQ(0, sprofil((p), (n), (tv), (flags)))			\
		TH_LOG("sprofil: %s", profil_strerror())

FIXTURE(sp) {
	struct profil_handle *h;
};

FIXTURE_SETUP(sp)
{
	unsetenv("PROFIL_HZ");
	self->h = profil_handle_open();
	/* The harness runs the test after a SKIP here: end the child. */
	if (!self->h && errno == ENOSYS)
		SKIP(_exit(255), "profil.ko not loaded");
	ASSERT_NE(NULL, self->h);
}

FIXTURE_TEARDOWN(sp)
{
	if (!self->h)
		return;
	profil_session_stop(self->h, 0);
	profil_handle_close(self->h);
}

/* Whether sets @a and @b hold the same regions in the same order. */
static int same_regions(const struct profil_regions *a,
			const struct profil_regions *b)
{
	uint64_t b1, s1, o1, b2, s2, o2;
	uint32_t c1, c2;
	size_t i, bad = 0;

	if (profil_regions_count(a) != profil_regions_count(b))
		return 0;
	for (i = 0; i < profil_regions_count(a); i++) {
		profil_regions_get(a, i, &b1, &s1, &o1, &c1);
		profil_regions_get(b, i, &b2, &s2, &o2, &c2);
		bad += b1 != b2 || s1 != s2 || o1 != o2 || c1 != c2;
	}
	return !bad;
}

/*
 * 701 regions in one START (33 KiB, more than the library's 32 KiB
 * buffer), read back in order over several GET_REGIONS messages with the
 * set's counter and mode; the loop's ticks land in the last one.
 */
TEST_F(sp, start_regions_sized_request)
{
	static uint16_t small[N_SMALL], a[256];
	struct profil_regions *r = profil_regions_alloc(), *got;
	uint64_t st[PROFIL_STAT_MAX + 1];
	int i;

	ASSERT_NE(NULL, r);
	for (i = 0; i < N_SMALL; i++)
		ASSERT_EQ(0, profil_regions_add(r, (uintptr_t)&small[i], 2,
						base() + 4096 + 64 * i,
						0x10000));
	ASSERT_EQ(0, profil_regions_add(r, (uintptr_t)a, sizeof(a),
					base() - 64, 0x10000));
	ASSERT_EQ(0, profil_regions_set_mode(r, PROFIL_MODE_SATURATE));
	ASSERT_EQ(0, profil_session_start_regions(self->h, 0, r, 100, 0))
		TH_LOG("%s", profil_strerror());

	got = profil_regions_alloc();
	ASSERT_EQ(0, profil_session_get_regions(self->h, 0, got))
		TH_LOG("%s", profil_strerror());
	EXPECT_EQ(N_SMALL + 1, profil_regions_count(got));
	EXPECT_TRUE(same_regions(r, got));
	EXPECT_EQ(PROFIL_COUNTER_U16, profil_regions_counter(got));
	EXPECT_EQ(PROFIL_MODE_SATURATE, profil_regions_mode(got));

	run_loop(_metadata, self->h, 60);
	ASSERT_EQ(0, profil_session_stop(self->h, 0));
	stopped_stats(_metadata, self->h, st);
	EXPECT_GE(a[32] + a[35], 50);		/* cmp, jmp */
	EXPECT_EQ(st[PROFIL_STAT_IN_RANGE],
		  sum16(a, 256) + sum16(small, N_SMALL));
	profil_regions_free(got);
	profil_regions_free(r);
}

/*
 * ADD_REGIONS on a running set: the new region counts, the set lists the
 * old regions then the new, and keeps its counter and mode. Without a
 * session, ENOENT; on a profil() session, EINVAL.
 */
TEST_F(sp, add_regions_while_running)
{
	static uint32_t a[64], b[256], ovf[1];
	struct profil_regions *r = profil_regions_alloc();
	struct profil_regions *more = profil_regions_alloc();
	struct profil_regions *got = profil_regions_alloc();
	static uint16_t pbuf[64];
	uint64_t st[PROFIL_STAT_MAX + 1], v;

	ASSERT_EQ(0, profil_regions_add(r, (uintptr_t)b, sizeof(b),
					base() + 4096, 0x10000));
	ASSERT_EQ(0, profil_regions_add(r, (uintptr_t)ovf, 4, 0, 2));
	ASSERT_EQ(0, profil_regions_set_counter(r, PROFIL_COUNTER_U32));
	ASSERT_EQ(0, profil_regions_set_mode(r, PROFIL_MODE_SATURATE));
	ASSERT_EQ(0, profil_regions_add(more, (uintptr_t)a, sizeof(a),
					base() - 8, 0x10000));

	EXPECT_EQ(-1, profil_session_add_regions(self->h, 0, more));
	EXPECT_EQ(ENOENT, errno);
	ASSERT_EQ(0, profil(pbuf, sizeof(pbuf), base(), 0x10000));
	EXPECT_EQ(-1, profil_session_add_regions(self->h, 0, more));
	EXPECT_EQ(EINVAL, errno);

	ASSERT_EQ(0, profil_session_start_regions(self->h, 0, r, 100, 0));
	ASSERT_EQ(0, profil_session_add_regions(self->h, 0, more))
		TH_LOG("%s", profil_strerror());
	ASSERT_EQ(0, profil_session_get_regions(self->h, 0, got));
	ASSERT_EQ(3, profil_regions_count(got));
	ASSERT_EQ(0, profil_regions_get(got, 2, &v, NULL, NULL, NULL));
	EXPECT_EQ((uintptr_t)a, v);
	ASSERT_EQ(0, profil_regions_get(got, 1, &v, NULL, NULL, NULL));
	EXPECT_EQ((uintptr_t)ovf, v);
	EXPECT_EQ(PROFIL_COUNTER_U32, profil_regions_counter(got));
	EXPECT_EQ(PROFIL_MODE_SATURATE, profil_regions_mode(got));

	run_loop(_metadata, self->h, 60);
	ASSERT_EQ(0, profil_session_stop(self->h, 0));
	stopped_stats(_metadata, self->h, st);
	EXPECT_GE(a[2] + a[3], 50);		/* (cmp - lo) / 4 */
	EXPECT_EQ(ovf[0], st[PROFIL_STAT_OVERFLOW]);
	EXPECT_EQ(st[PROFIL_STAT_IN_RANGE],
		  sum32(a, 64) + sum32(b, 256) + ovf[0]);
	profil_regions_free(got);
	profil_regions_free(more);
	profil_regions_free(r);
}

/*
 * sprofil() with PROF_UINT: the index divides by 4, counters are u32 and
 * saturate, a region of scale 1 is left out; a call while on turns it off.
 */
TEST_F(sp, sprofil_prof_uint)
{
	static uint32_t a[64], ovf[1];
	static uint16_t ignored[256];
	struct prof p[] = {
		prof(ignored, sizeof(ignored), base() - 64, 1),
		prof(a, sizeof(a), base() - 8, 0x10000),
		prof(ovf, sizeof(ovf), 0, 2),
	};
	struct profil_regions *got = profil_regions_alloc();
	uint64_t st[PROFIL_STAT_MAX + 1], v;
	int i;

	SPROFIL(p, 3, NULL, PROF_UINT);
	ASSERT_EQ(0, profil_session_get_regions(self->h, 0, got));
	EXPECT_EQ(2, profil_regions_count(got));	/* scale 1 left out */
	ASSERT_EQ(0, profil_regions_get(got, 0, &v, NULL, NULL, NULL));
	EXPECT_EQ((uintptr_t)a, v);
	EXPECT_EQ(PROFIL_COUNTER_U32, profil_regions_counter(got));
	EXPECT_EQ(PROFIL_MODE_SATURATE, profil_regions_mode(got));
	run_loop(_metadata, self->h, 60);
	SPROFIL(p, 3, NULL, PROF_UINT);		/* off */
	stopped_stats(_metadata, self->h, st);
	for (i = 0; i < 64; i++)
		if (i < 2 || i > 4)
			EXPECT_EQ(0, a[i]) TH_LOG("bin %d", i);
	EXPECT_LE(a[4], 1);			/* the ret, once */
	EXPECT_GE(a[2] + a[3], 50);
	EXPECT_EQ(0, sum16(ignored, 256));
	EXPECT_EQ(ovf[0], st[PROFIL_STAT_OVERFLOW]);
	EXPECT_EQ(st[PROFIL_STAT_IN_RANGE], sum32(a, 64) + ovf[0]);
	profil_regions_free(got);
}

/* PCs in no region go to the overflow bin's u32 counter. */
TEST_F(sp, sprofil_overflow_bin)
{
	static uint32_t b[64], ovf[2];
	struct prof p[] = {
		prof(ovf, sizeof(ovf), 0, 2),
		prof(b, sizeof(b), base() + 4096, 0x10000),
	};
	uint64_t st[PROFIL_STAT_MAX + 1];

	SPROFIL(p, 2, NULL, PROF_UINT);
	run_loop(_metadata, self->h, 60);
	SPROFIL(p, 2, NULL, PROF_UINT);
	stopped_stats(_metadata, self->h, st);
	EXPECT_GE(ovf[0], 50);
	EXPECT_EQ(0, ovf[1]);
	EXPECT_EQ(ovf[0], st[PROFIL_STAT_OVERFLOW]);
	EXPECT_EQ(0, st[PROFIL_STAT_OUT_OF_RANGE]);
	EXPECT_EQ(st[PROFIL_STAT_IN_RANGE], sum32(b, 64) + ovf[0]);
}

/*
 * glibc counts a binary-search hit with the overflow region's offset and
 * scale (a PIE's PC then maps far past the region: the overflow counter
 * gets it). Here two threads tick in two regions of different offsets and
 * scales at once, and each hit lands in its own region's bins.
 */
TEST_F(sp, hits_use_their_own_region)
{
	static uint32_t r1[64], r2[64], ovf[1];
	struct prof p[] = {
		prof(ovf, sizeof(ovf), 0, 2),
		prof(r1, sizeof(r1), base() - 8, 0x10000),
		prof(r2, sizeof(r2), base2() - 16, 0x8000),
	};
	uint64_t st[PROFIL_STAT_MAX + 1];
	int i;

	SPROFIL(p, 3, NULL, PROF_UINT);
	run_loops(_metadata, self->h, 2, 120);
	SPROFIL(p, 3, NULL, PROF_UINT);
	stopped_stats(_metadata, self->h, st);
	for (i = 0; i < 64; i++) {
		if (i < 2 || i > 4)
			EXPECT_EQ(0, r1[i]) TH_LOG("r1 bin %d", i);
		if (i < 2 || i > 3)	/* (16..25) / 4 / 2 */
			EXPECT_EQ(0, r2[i]) TH_LOG("r2 bin %d", i);
	}
	TH_LOG("r1 %llu, r2 %llu, overflow %u of %llu ticks",
	       (unsigned long long)sum32(r1, 64),
	       (unsigned long long)sum32(r2, 64), ovf[0],
	       (unsigned long long)st[PROFIL_STAT_TICKS]);
	EXPECT_GE(r1[2] + r1[3], 30);
	EXPECT_GE(r2[2], 30);
	EXPECT_LE(ovf[0] * 10, st[PROFIL_STAT_IN_RANGE]);
	EXPECT_EQ(ovf[0], st[PROFIL_STAT_OVERFLOW]);
	EXPECT_EQ(st[PROFIL_STAT_IN_RANGE],
		  sum32(r1, 64) + sum32(r2, 64) + ovf[0]);
}

/*
 * glibc's search does hi = mid - 1 at mid 0 when the PC is below every
 * region and no overflow bin exists: it wraps and reads past the array.
 * Here such ticks are OUT_OF_RANGE.
 */
TEST_F(sp, below_every_region)
{
	static uint16_t b[64];
	struct prof p[] = { prof(b, sizeof(b), base() + 4096, 0x10000) };
	uint64_t st[PROFIL_STAT_MAX + 1];

	SPROFIL(p, 1, NULL, 0);
	run_loop(_metadata, self->h, 60);
	SPROFIL(p, 1, NULL, 0);
	stopped_stats(_metadata, self->h, st);
	EXPECT_GE(st[PROFIL_STAT_OUT_OF_RANGE], 50);
	EXPECT_EQ(0, st[PROFIL_STAT_OVERFLOW]);
	EXPECT_EQ(st[PROFIL_STAT_IN_RANGE], sum16(b, 64));
}

/*
 * The period through tvp is the sampling period: PROFIL_HZ=1000 gives
 * 1000 us, and the ticks over a stretch of CPU time follow it (bounds of
 * profil_clocks_test's EXPECT_RATE). The call that turns profiling off returns
 * the period of the rate that ran, not PROFIL_HZ's new value.
 */
TEST_F(sp, tvp_is_the_period)
{
	static uint16_t b[64];
	struct prof p[] = { prof(b, sizeof(b), base() + 4096, 0x10000) };
	uint64_t st[PROFIL_STAT_MAX + 1], p0, periods;
	struct timeval tv = { 7, 7 };
	double before, start, end, settle, out, rate;

	setenv("PROFIL_HZ", "1000", 1);
	SPROFIL(p, 1, &tv, 0);
	EXPECT_EQ(0, tv.tv_sec);
	ASSERT_EQ(1000, tv.tv_usec);
	rate = 1e6 / tv.tv_usec;
	settle = 3.0 / rate;

	for (start = process_cpu(); process_cpu() - start < settle;)
		;
	before = process_cpu();
	get_stats(_metadata, self->h, st);
	p0 = st[PROFIL_STAT_TICKS] + st[PROFIL_STAT_MISSED];
	start = process_cpu();
	while (process_cpu() - start < 0.5)
		;
	end = process_cpu();
	while (process_cpu() - end < settle)
		;
	get_stats(_metadata, self->h, st);
	out = process_cpu() - before;
	periods = st[PROFIL_STAT_TICKS] + st[PROFIL_STAT_MISSED] - p0;
	TH_LOG("%llu periods for %.3f-%.3f s at %.0f Hz",
	       (unsigned long long)periods, end - start, out, rate);
	EXPECT_GE(periods, (end - start) * rate * 0.95 - 2);
	EXPECT_LE(periods, out * rate * 1.1 + 2);

	setenv("PROFIL_HZ", "500", 1);
	tv.tv_usec = 7;
	SPROFIL(p, 1, &tv, 0);			/* off */
	EXPECT_EQ(0, tv.tv_sec);
	EXPECT_EQ(1000, tv.tv_usec);
	unsetenv("PROFIL_HZ");
	SPROFIL(p, 1, &tv, 0);			/* on, at the default */
	EXPECT_EQ(10000, tv.tv_usec);
}

/*
 * The second call turns profiling off, whatever its arguments, and
 * nothing is written after it; the third starts again with its own
 * regions (glibc's third call frees the regions a second time).
 */
TEST_F(sp, second_call_off_third_on)
{
	static uint16_t a[256], b[256], copy[256];
	struct prof pa[] = { prof(a, sizeof(a), base() - 64, 0x10000) };
	struct prof pb[] = { prof(b, sizeof(b), base() - 64, 0x10000) };
	struct profil_regions *got = profil_regions_alloc();
	struct profil_status s;
	uint64_t v;

	SPROFIL(pa, 1, NULL, 0);
	run_loop(_metadata, self->h, 30);
	SPROFIL(pb, 1, NULL, 0);		/* off: pb is not looked at */
	ASSERT_EQ(0, profil_session_get(self->h, 0, &s));
	EXPECT_EQ(PROFIL_STATE_STOPPED, s.state);
	EXPECT_EQ(PROFIL_STOP_REQUEST, s.reason);
	EXPECT_GE(a[32] + a[35], 20);
	memcpy(copy, a, sizeof(a));
	run_loop_cpu(_metadata, 0.3);
	EXPECT_EQ(0, memcmp(copy, a, sizeof(a)));
	EXPECT_EQ(0, sum16(b, 256));

	SPROFIL(pb, 1, NULL, 0);		/* third: on again */
	ASSERT_EQ(0, profil_session_get(self->h, 0, &s));
	EXPECT_EQ(PROFIL_STATE_ACTIVE, s.state);
	ASSERT_EQ(0, profil_session_get_regions(self->h, 0, got));
	ASSERT_EQ(1, profil_regions_count(got));
	ASSERT_EQ(0, profil_regions_get(got, 0, &v, NULL, NULL, NULL));
	EXPECT_EQ((uintptr_t)b, v);
	run_loop(_metadata, self->h, 30);
	SPROFIL(pb, 1, NULL, 0);		/* fourth: off */
	EXPECT_GE(b[32] + b[35], 20);
	EXPECT_EQ(0, memcmp(copy, a, sizeof(a)));
	profil_regions_free(got);
}

/* Only regions glibc ignores: nothing starts, and the next call starts. */
TEST_F(sp, nothing_to_count)
{
	static uint16_t a[256];
	struct prof p[] = { prof(a, sizeof(a), base() - 64, 1),
			    prof(a, 1, base() - 64, 0x10000) };
	struct profil_status s;

	SPROFIL(p, 2, NULL, 0);
	EXPECT_EQ(-1, profil_session_get(self->h, 0, &s));
	EXPECT_EQ(ENOENT, errno);
	p[0].pr_scale = 0x10000;
	SPROFIL(p, 2, NULL, 0);
	ASSERT_EQ(0, profil_session_get(self->h, 0, &s));
	EXPECT_EQ(PROFIL_STATE_ACTIVE, s.state);
}

/*
 * profil() and sprofil() share the one session: sprofil() while profil()
 * runs turns it off (and starts nothing); profil() while sprofil() runs
 * replaces the set with its one region, u16 and wrapping.
 */
TEST_F(sp, shared_with_profil)
{
	static uint16_t a[256], b[256];
	struct prof p[] = { prof(a, sizeof(a), base() - 64, 0x10000) };
	struct profil_regions *got = profil_regions_alloc();
	struct profil_status s;
	uint64_t v;

	ASSERT_EQ(0, profil(b, sizeof(b), base() - 64, 0x10000));
	SPROFIL(p, 1, NULL, PROF_UINT);
	ASSERT_EQ(0, profil_session_get(self->h, 0, &s));
	EXPECT_EQ(PROFIL_STATE_STOPPED, s.state);
	EXPECT_EQ((uintptr_t)b, s.buf);

	SPROFIL(p, 1, NULL, PROF_UINT);
	ASSERT_EQ(0, profil(b, sizeof(b), base() - 64, 0x10000));
	ASSERT_EQ(0, profil_session_get_regions(self->h, 0, got));
	ASSERT_EQ(1, profil_regions_count(got));
	ASSERT_EQ(0, profil_regions_get(got, 0, &v, NULL, NULL, NULL));
	EXPECT_EQ((uintptr_t)b, v);
	EXPECT_EQ(PROFIL_COUNTER_U16, profil_regions_counter(got));
	EXPECT_EQ(PROFIL_MODE_WRAP, profil_regions_mode(got));
	run_loop(_metadata, self->h, 30);
	ASSERT_EQ(0, profil(b, sizeof(b), base() - 64, 0));
	EXPECT_GE(b[32] + b[35], 20);
	EXPECT_EQ(0, sum16(a, 256));
	profil_regions_free(got);
}

/*
 * sprofil()'s counters saturate: one counter over the loop, one below its
 * maximum, stops there; the rest is SATURATED.
 */
FIXTURE(sat) {
	struct profil_handle *h;
};

FIXTURE_VARIANT(sat) {
	unsigned int flags;
};

FIXTURE_VARIANT_ADD(sat, prof_ushort) { .flags = PROF_USHORT };
FIXTURE_VARIANT_ADD(sat, prof_uint) { .flags = PROF_UINT };

FIXTURE_SETUP(sat)
{
	unsetenv("PROFIL_HZ");
	self->h = profil_handle_open();
	/* The harness runs the test after a SKIP here: end the child. */
	if (!self->h && errno == ENOSYS)
		SKIP(_exit(255), "profil.ko not loaded");
	ASSERT_NE(NULL, self->h);
}

FIXTURE_TEARDOWN(sat)
{
	if (!self->h)
		return;
	profil_session_stop(self->h, 0);
	profil_handle_close(self->h);
}

TEST_F(sat, full_counter)
{
	static union { uint16_t u16; uint32_t u32; } ctr;
	bool u32 = variant->flags & PROF_UINT;
	uint64_t max = u32 ? 0xffffffffULL : 0xffff, got;
	struct prof p[] = { prof(&ctr, u32 ? 4 : 2, base() - 64, 2) };
	uint64_t st[PROFIL_STAT_MAX + 1];

	if (u32)
		ctr.u32 = max - 1;
	else
		ctr.u16 = max - 1;
	SPROFIL(p, 1, NULL, variant->flags);
	run_loop(_metadata, self->h, 30);
	SPROFIL(p, 1, NULL, variant->flags);
	stopped_stats(_metadata, self->h, st);
	got = u32 ? ctr.u32 : ctr.u16;
	EXPECT_EQ(max, got);
	EXPECT_GE(st[PROFIL_STAT_TICKS], 30);
	EXPECT_EQ(1, st[PROFIL_STAT_IN_RANGE]);
	EXPECT_GE(st[PROFIL_STAT_SATURATED], 20);
}

PROFIL_HARNESS_MAIN
