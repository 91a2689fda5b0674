// SPDX-License-Identifier: GPL-2.0
/*
 * Semantics of profil.ko through its netlink family (profil_test) and
 * through libprofil (profil_test_lib): the counter index,
 * the classic on/off rules, exact tick accounting, fork, exec, faults,
 * the deferred write path, no signals, system-mode ticks, the rate,
 * permissions, stop, and unload with a live session.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <linux/io_uring.h>
#include <linux/sched.h>

#include "profil_harness.h"
#ifdef PROFIL_TEST_VIA_LIBPROFIL
#include "profil_lib.h"
#else
#include "profil_nl.h"
#endif
#include "profil_index.h"
#include "profil_util.h"

#define RATE_FAST	1000
/* Rates for each clock: at or below any HZ, and above any HZ. */
#define RATE_TICK	100
#define RATE_TIMER	2000

/*
 * A loop of two known instructions: a tick of a thread running it lands
 * on profil_loop_cmp or profil_loop_jmp, or once on its way out on
 * profil_loop_ret, and nowhere else. Padding keeps all other code at least
 * 64 bytes before and 1 KiB after it.
 */
volatile char profil_loop_stop;
extern const char profil_loop[], profil_loop_cmp[], profil_loop_jmp[],
	profil_loop_ret[];
asm(".pushsection .text.profil_loop, \"ax\", @progbits\n"
    ".globl profil_loop\n"
    ".type profil_loop, @function\n"
    ".p2align 6\n"
    ".skip 64, 0xcc\n"
    "profil_loop:\n"
    "profil_loop_cmp: cmpb $0, profil_loop_stop(%rip)\n"
    "profil_loop_jmp: je profil_loop_cmp\n"
    "profil_loop_ret: ret\n"
    ".size profil_loop, . - profil_loop\n"
    ".skip 1024, 0xcc\n"
    ".popsection\n");

/* Two spin functions, each in a section of its own with known bounds. */
#define DEFINE_SPIN(name)						\
__attribute__((noinline, section("profil_" #name)))			\
void name(double secs)							\
{									\
	double end = thread_cpu() + secs;				\
	volatile unsigned long n = 0;					\
	int i;								\
									\
	while (thread_cpu() < end)					\
		for (i = 0; i < 20000; i++)				\
			n++;						\
}									\
/* @loops rounds and no system call: see rt_sampled_like_fair(). */	\
__attribute__((noinline, section("profil_" #name)))			\
void name##_loops(unsigned long loops)					\
{									\
	volatile unsigned long n = 0;					\
	unsigned long i;						\
									\
	for (i = 0; i < loops; i++)					\
		n++;							\
}									\
extern const char __start_profil_##name[], __stop_profil_##name[]

DEFINE_SPIN(spin_a);
DEFINE_SPIN(spin_b);

/*
 * Counters over spin_a and spin_b, 2 bytes each (scale 0x10000): @lo is
 * the offset, and [a0, a1) and [b0, b1) the counters of each function.
 */
struct spin_bins {
	uintptr_t lo;
	size_t nbins, a0, a1, b0, b1;
};

static struct spin_bins spin_bins(void)
{
	uintptr_t lo = (uintptr_t)__start_profil_spin_a;
	uintptr_t hi = (uintptr_t)__stop_profil_spin_b;
	struct spin_bins g;

	if (lo > (uintptr_t)__start_profil_spin_b) {
		lo = (uintptr_t)__start_profil_spin_b;
		hi = (uintptr_t)__stop_profil_spin_a;
	}
	g.lo = lo & ~1UL;
	g.nbins = (hi - g.lo) / 2 + 1;
	g.a0 = ((uintptr_t)__start_profil_spin_a - g.lo) / 2;
	g.a1 = ((uintptr_t)__stop_profil_spin_a - g.lo) / 2;
	g.b0 = ((uintptr_t)__start_profil_spin_b - g.lo) / 2;
	g.b1 = ((uintptr_t)__stop_profil_spin_b - g.lo) / 2;
	return g;
}

/*
 * Counters over spin_a and spin_b (@g), zeroed, and a request at @rate
 * that counts into them. Return: the buffer, or NULL.
 */
static uint16_t *spin_bins_buffer(const struct spin_bins *g, uint32_t rate,
				  struct pnl_start *req)
{
	uint16_t *buf = g->nbins < (1 << 20) ? calloc(g->nbins, 2) : NULL;

	*req = (struct pnl_start) {
		.buf = (uintptr_t)buf, .bufsiz = g->nbins * 2, .offset = g->lo,
		.scale = 0x10000, .rate = rate,
	};
	return buf;
}

static void *loop_thread(void *arg)
{
	void (*loop)(void) = (void (*)(void))profil_loop;

	loop();
	return NULL;
}

/* Run profil_loop in @n threads for about @secs of CPU each. */
static void run_loop_threads(int n, double secs)
{
	pthread_t tids[16];
	double start = process_cpu();
	int i;

	profil_loop_stop = 0;
	for (i = 0; i < n; i++)
		pthread_create(&tids[i], NULL, loop_thread, NULL);
	while (process_cpu() - start < n * secs)
		usleep(10000);
	profil_loop_stop = 1;
	for (i = 0; i < n; i++)
		pthread_join(tids[i], NULL);
}
/*
 * One window of a rate measurement: the clock's accounted periods
 * (pnl_periods()) against the process's CPU time, as both the kernel and
 * the test measure them.
 * @cpu_in: CPU time of the work alone, all inside the window: the
 *	periods cover at least this
 * @cpu_out: CPU time from before the first GET to after the last: the
 *	periods cover at most this, plus what the clock had still to account
 *	for before the window began
 * @periods: pnl_periods() at the end minus at the beginning
 */
struct rate_window {
	double cpu_in, cpu_out;
	uint64_t periods;
};

/*
 * Spin @secs of CPU time between two GETs of @nl's session at @rate.
 * Three periods of CPU time on each side let the clock fire after the
 * first GET's tail and after the work (even a late clock fires as soon
 * as the vCPU runs again), so that every period of the work is accounted
 * for, as a tick or as missed, by the second GET.
 */
static void rate_window(struct __test_metadata *_metadata, struct pnl *nl,
			uint32_t rate, double secs, struct rate_window *w)
{
	double settle = 3.0 / rate, before, start, end;
	struct pnl_status st;
	uint64_t p0;

	spin_a(settle);
	before = process_cpu();
	ASSERT_EQ(0, pnl_get(nl, 0, &st));
	p0 = pnl_periods(&st);
	start = process_cpu();
	spin_a(secs);
	end = process_cpu();
	spin_a(settle);
	ASSERT_EQ(0, pnl_get(nl, 0, &st));
	w->cpu_out = process_cpu() - before;
	w->cpu_in = end - start;
	w->periods = pnl_periods(&st) - p0;
	ASSERT_EQ(rate, st.rate);
	printf("# %u Hz: %llu periods (%llu missed in all) for %.3f-%.3f s\n",
	       rate, (unsigned long long)w->periods,
	       (unsigned long long)st.stats[PROFIL_STAT_MISSED], w->cpu_in,
	       w->cpu_out);
	fflush(stdout);	/* the harness's child ends in _exit() */
}

/*
 * The periods of a window follow the CPU time at @rate. The lower bound
 * is exact up to the phase of the first and last points (2) and 5 % for
 * the timers' own granularity; the upper one also allows what the clock
 * had not yet accounted for when the window opened (10 %, about 25 ms of
 * a starved vCPU at the rates used here). No wall-clock time enters.
 */
#define EXPECT_RATE(w, rate)						\
	do {								\
		EXPECT_GE((w).periods, (w).cpu_in * (rate) * 0.95 - 2)	\
			TH_LOG("%llu periods for %.3f s at %u Hz",	\
			       (unsigned long long)(w).periods,		\
			       (w).cpu_in, (rate));			\
		EXPECT_LE((w).periods, (w).cpu_out * (rate) * 1.1 + 2)	\
			TH_LOG("%llu periods for %.3f s at %u Hz",	\
			       (unsigned long long)(w).periods,		\
			       (w).cpu_out, (rate));			\
	} while (0)

static uint64_t buf_sum(const uint16_t *buf, size_t nbins)
{
	uint64_t sum = 0;
	size_t i;

	for (i = 0; i < nbins; i++)
		sum += buf[i];
	return sum;
}

static uint64_t idx_of(const char *pc, uint64_t offset, uint32_t scale)
{
	__u64 idx = ~0ULL;

	profil_pc_to_index((uintptr_t)pc, offset, scale, ~0ULL, &idx);
	return idx;
}

FIXTURE(profil) {
	struct pnl nl;
};

FIXTURE_SETUP(profil)
{
	int err = pnl_open(&self->nl);

	ASSERT_EQ(0, err) TH_LOG("family %s: %s", PROFIL_GENL_NAME,
				 strerror(-err));
}

FIXTURE_TEARDOWN(profil)
{
	pnl_stop(&self->nl, 0);
	pnl_close(&self->nl);
}

FIXTURE_VARIANT(profil)
{
	uint32_t scale;
};

FIXTURE_VARIANT_ADD(profil, scale_0x10000) { .scale = 0x10000 };
FIXTURE_VARIANT_ADD(profil, scale_0x8000) { .scale = 0x8000 };
FIXTURE_VARIANT_ADD(profil, scale_0x4000) { .scale = 0x4000 };
FIXTURE_VARIANT_ADD(profil, scale_65535) { .scale = 65535 };

/*
 * Ticks of the two-instruction loop land exactly on the bins glibc's rule
 * gives. offset = cmp - 3 makes scale 65535 put the cmp in bin 0, where
 * BSD's rule would put it in bin 1.
 */
TEST_F(profil, index_formula)
{
	uint64_t offset = (uintptr_t)profil_loop_cmp - 3;
	uint64_t bin_cmp = idx_of(profil_loop_cmp, offset, variant->scale);
	uint64_t bin_jmp = idx_of(profil_loop_jmp, offset, variant->scale);
	uint64_t bin_ret = idx_of(profil_loop_ret, offset, variant->scale);
	uint16_t buf[64] = { 0 };
	struct pnl_start req = {
		.buf = (uintptr_t)buf, .bufsiz = sizeof(buf),
		.offset = offset, .scale = variant->scale, .rate = RATE_FAST,
	};
	struct pnl_status st;
	uint64_t in_loop = 0, sum;
	pthread_t loop;
	double start;
	size_t i;

	if (variant->scale == 65535) {
		ASSERT_EQ(0, bin_cmp);
	}
	ASSERT_EQ(0, pnl_start(&self->nl, &req)) TH_LOG("%s", self->nl.extack);
	/*
	 * Enough ticks in the buffer to mean something, counted by the
	 * kernel rather than expected from the CPU time: a starved vCPU's
	 * late timer takes fewer. The buffer covers the loop alone, so
	 * IN_RANGE counts the loop thread's ticks only (the main thread's,
	 * long GETs on a KASAN kernel, fall outside). One run of the loop,
	 * 10 s of CPU at most.
	 */
	profil_loop_stop = 0;
	ASSERT_EQ(0, pthread_create(&loop, NULL, loop_thread, NULL));
	for (start = process_cpu(); process_cpu() - start < 10.0;) {
		usleep(50000);
		ASSERT_EQ(0, pnl_get(&self->nl, 0, &st));
		if (st.stats[PROFIL_STAT_IN_RANGE] >= 100)
			break;
	}
	profil_loop_stop = 1;
	pthread_join(loop, NULL);
	ASSERT_EQ(0, pnl_stop(&self->nl, 0));
	ASSERT_EQ(0, pnl_get(&self->nl, 0, &st));

	for (i = 0; i < 64; i++) {
		if (i == bin_cmp || i == bin_jmp)
			in_loop += buf[i];
		else if (i != bin_ret) {
			EXPECT_EQ(0, buf[i]) TH_LOG("bin %zu", i);
		}
	}
	sum = buf_sum(buf, 64);
	/*
	 * The ret runs once, but TCG takes interrupts at block boundaries:
	 * a tick whose handler outlasts the next period (KASAN, a starved
	 * vCPU) returns to the ret and takes the next one there before it
	 * runs. A few (4 once, on the debug kernel under a CI's load), not
	 * a share of the loop's, which a wrong bin would draw: a third or
	 * a half.
	 */
	EXPECT_LE(sum - in_loop, 3 + in_loop / 10)
		TH_LOG("the ret runs once: %lu ticks there, %lu in the loop",
		       sum - in_loop, in_loop);
	EXPECT_EQ(sum, st.stats[PROFIL_STAT_IN_RANGE]);
	/* At least 100 ticks of the loop, all but the ret's on cmp or jmp. */
	EXPECT_GE(in_loop + 1, 100)
		TH_LOG("only %lu ticks in the loop", in_loop);
	EXPECT_EQ(st.stats[PROFIL_STAT_TICKS], pnl_accounted(&st));
}

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

static void expect_stopped(struct __test_metadata *_metadata, struct pnl *nl,
			   uint32_t reason, struct pnl_status *st)
{
	ASSERT_EQ(0, pnl_get(nl, 0, st));
	EXPECT_EQ(PROFIL_STATE_STOPPED, st->state);
	EXPECT_EQ(reason, st->reason);
}

TEST_F(nl, scale0_turns_off)
{
	struct pnl_status st;
	uint64_t sum;

	ASSERT_EQ(0, pnl_start(&self->nl, &self->req));
	run_loop_threads(1, 0.05);
	self->req.scale = 0;
	ASSERT_EQ(0, pnl_start(&self->nl, &self->req));
	expect_stopped(_metadata, &self->nl, PROFIL_STOP_SCALE0, &st);
	sum = buf_sum(self->buf, 4096);
	run_loop_threads(1, 0.05);
	EXPECT_EQ(sum, buf_sum(self->buf, 4096));
}

TEST_F(nl, null_buf_turns_off)
{
	struct pnl_status st;
	uint64_t sum;

	ASSERT_EQ(0, pnl_start(&self->nl, &self->req));
	run_loop_threads(1, 0.05);
	self->req.buf = 0;
	ASSERT_EQ(0, pnl_start(&self->nl, &self->req));
	expect_stopped(_metadata, &self->nl, PROFIL_STOP_REQUEST, &st);
	sum = buf_sum(self->buf, 4096);
	run_loop_threads(1, 0.05);
	EXPECT_EQ(sum, buf_sum(self->buf, 4096));
}

TEST_F(nl, bufsiz0_counts_nothing)
{
	struct pnl_status st;

	self->req.bufsiz = 0;
	ASSERT_EQ(0, pnl_start(&self->nl, &self->req));
	run_loop_threads(1, 0.1);
	ASSERT_EQ(0, pnl_get(&self->nl, 0, &st));
	EXPECT_EQ(PROFIL_STATE_ACTIVE, st.state);
	EXPECT_GT(st.stats[PROFIL_STAT_TICKS], 0);
	EXPECT_EQ(0, st.stats[PROFIL_STAT_IN_RANGE]);
	EXPECT_EQ(0, buf_sum(self->buf, 4096));
}

static void check_identity(struct __test_metadata *_metadata, struct pnl *nl,
			   const uint16_t *buf, size_t nbins)
{
	struct pnl_status st;

	ASSERT_EQ(0, pnl_stop(nl, 0));
	ASSERT_EQ(0, pnl_get(nl, 0, &st));
	EXPECT_GT(st.stats[PROFIL_STAT_TICKS], 0);
	EXPECT_EQ(0, st.stats[PROFIL_STAT_PENDING]);
	EXPECT_EQ(st.stats[PROFIL_STAT_TICKS], pnl_accounted(&st));
	EXPECT_EQ(st.stats[PROFIL_STAT_IN_RANGE], buf_sum(buf, nbins));
}

TEST_F(nl, identity_one_thread)
{
	ASSERT_EQ(0, pnl_start(&self->nl, &self->req));
	spin_a(0.2);
	run_loop_threads(1, 0.2);
	check_identity(_metadata, &self->nl, self->buf, 4096);
}

TEST_F(nl, identity_eight_threads)
{
	ASSERT_EQ(0, pnl_start(&self->nl, &self->req));
	run_loop_threads(8, 0.08);
	check_identity(_metadata, &self->nl, self->buf, 4096);
}

/* Pages never touched: every first write goes through the deferred path. */
TEST_F(nl, untouched_pages_deferred)
{
	size_t size = 1 << 20;
	uint16_t *buf = mmap(NULL, size, PROT_READ | PROT_WRITE,
			     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	struct pnl_status st;
	unsigned char resident;

	ASSERT_NE(MAP_FAILED, buf);
	/*
	 * Else a thread stack's huge page next to it may populate it.
	 * EINVAL: a kernel without THP (PREEMPT_RT's).
	 */
	if (madvise(buf, size, MADV_NOHUGEPAGE)) {
		ASSERT_EQ(EINVAL, errno);
	}
	ASSERT_EQ(0, mincore(buf, 4096, &resident));
	ASSERT_EQ(0, resident & 1);
	self->req.buf = (uintptr_t)buf;
	self->req.bufsiz = size;
	ASSERT_EQ(0, pnl_start(&self->nl, &self->req));
	run_loop_threads(1, 0.1);
	ASSERT_EQ(0, pnl_get(&self->nl, 0, &st));
	EXPECT_EQ(PROFIL_STATE_ACTIVE, st.state);
	EXPECT_GT(st.stats[PROFIL_STAT_DEFERRED], 0);
	check_identity(_metadata, &self->nl, buf, size / 2);
	EXPECT_GT(buf_sum(buf, size / 2), 0);
	munmap(buf, size);
}

/*
 * The buffer goes away under a running thread. The thread is started
 * first, so that its stack cannot be mapped where the buffer was.
 */
static void fault_case(struct __test_metadata *_metadata, struct pnl *nl,
		       struct pnl_start *req, bool unmap)
{
	size_t size = 1 << 16;
	uint16_t *buf = mmap(NULL, size, PROT_READ | PROT_WRITE,
			     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	struct pnl_status st;
	pthread_t tid;

	ASSERT_NE(MAP_FAILED, buf);
	memset(buf, 0, size);
	req->buf = (uintptr_t)buf;
	req->bufsiz = size;
	profil_loop_stop = 0;
	ASSERT_EQ(0, pthread_create(&tid, NULL, loop_thread, NULL));
	ASSERT_EQ(0, pnl_start(nl, req));
	spin_b(0.02);
	if (unmap) {
		ASSERT_EQ(0, munmap(buf, size));
	} else {
		ASSERT_EQ(0, mprotect(buf, size, PROT_READ));
	}
	spin_b(0.1);
	profil_loop_stop = 1;
	pthread_join(tid, NULL);

	expect_stopped(_metadata, nl, PROFIL_STOP_FAULT, &st);
	EXPECT_GE(st.fault_addr, (uintptr_t)buf);
	EXPECT_LT(st.fault_addr, (uintptr_t)buf + size);
	EXPECT_GT(st.stats[PROFIL_STAT_FAULTED], 0);
	EXPECT_EQ(st.stats[PROFIL_STAT_TICKS], pnl_accounted(&st));
	if (!unmap)
		munmap(buf, size);
}

TEST_F(nl, munmap_faults_off)
{
	fault_case(_metadata, &self->nl, &self->req, true);
}

TEST_F(nl, mprotect_faults_off)
{
	fault_case(_metadata, &self->nl, &self->req, false);
}

/* The CPU time on @clock (a thread's), in seconds; -1 on error. */
static double clock_cpu(clockid_t clock)
{
	struct timespec ts;

	if (clock_gettime(clock, &ts))
		return -1;
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * Nothing is written once STOP returns. The loop thread's ticks are the
 * buffer's (spin_a lies outside it), so the test waits for 0.1 s of the
 * loop's own CPU time, not of its own, and counts what the clock made of
 * it as the rate tests do: every period is a tick or MISSED (a late clock,
 * a starved vCPU). At least one of them must be a tick in the buffer: a
 * late clock samples once when it fires.
 */
TEST_F(nl, stop_means_no_more_writes)
{
	uint16_t snapshot[4096];
	struct pnl_status st;
	double loop_cpu = 0, start;
	clockid_t loop_clock;
	pthread_t tid;

	profil_loop_stop = 0;
	ASSERT_EQ(0, pnl_start(&self->nl, &self->req));
	ASSERT_EQ(0, pthread_create(&tid, NULL, loop_thread, NULL));
	ASSERT_EQ(0, pthread_getcpuclockid(tid, &loop_clock));
	/* However the vCPUs share out; 30 s of this thread's CPU at most. */
	start = thread_cpu();
	while (loop_cpu < 0.1 && thread_cpu() - start < 30) {
		spin_a(0.01);
		loop_cpu = clock_cpu(loop_clock);
	}
	ASSERT_EQ(0, pnl_stop(&self->nl, 0));
	memcpy(snapshot, self->buf, sizeof(snapshot));
	spin_a(0.2);
	profil_loop_stop = 1;
	pthread_join(tid, NULL);
	EXPECT_EQ(0, memcmp(snapshot, self->buf, sizeof(snapshot)));
	expect_stopped(_metadata, &self->nl, PROFIL_STOP_REQUEST, &st);
	printf("# %u Hz: %llu in the buffer, %llu ticks and %llu missed in all, for %.3f s of the loop\n",
	       variant->rate, (unsigned long long)buf_sum(self->buf, 4096),
	       (unsigned long long)st.stats[PROFIL_STAT_TICKS],
	       (unsigned long long)st.stats[PROFIL_STAT_MISSED], loop_cpu);
	fflush(stdout);	/* the harness's child ends in _exit() */
	ASSERT_GE(loop_cpu, 0.1) TH_LOG("the loop ran %.3f s", loop_cpu);
	EXPECT_GE(pnl_periods(&st), loop_cpu * variant->rate * 0.95 - 2);
	EXPECT_GT(buf_sum(self->buf, 4096), 0)
		TH_LOG("%llu ticks, %llu missed: none of the loop's",
		       (unsigned long long)st.stats[PROFIL_STAT_TICKS],
		       (unsigned long long)st.stats[PROFIL_STAT_MISSED]);
}

#ifndef PROFIL_TEST_VIA_LIBPROFIL
#define TRACEFS		"/sys/kernel/tracing"
#define HRTIMER_START	TRACEFS "/events/timer/hrtimer_start"
/* kmod/sampler.c's PK_FIRST_MIN_NS: the period at the highest rate. */
#define FIRST_MIN_NS	(1000000000ULL / PROFIL_RATE_MAX)
#define READERS		2

static int write_str(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY | O_TRUNC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = write(fd, s, strlen(s));
	close(fd);
	return n == (ssize_t)strlen(s) ? 0 : -EIO;
}

static long read_long(const char *path)
{
	FILE *f = fopen(path, "r");
	long v = -1;

	if (f) {
		if (fscanf(f, "%ld", &v) != 1)
			v = -1;
		fclose(f);
	}
	return v;
}

struct reader {
	volatile int *stop;
	int index;
	int tid;	/* set by the thread */
	clockid_t clock;
};

static char reader_buf[READERS][1 << 20];

/* Long system calls: 1 MiB reads of /dev/zero, nearly all kernel time. */
static void *reader_thread(void *arg)
{
	struct reader *r = arg;
	char *buf = reader_buf[r->index];
	int fd = open("/dev/zero", O_RDONLY);

	__atomic_store_n(&r->tid, (int)syscall(SYS_gettid), __ATOMIC_RELEASE);
	while (fd >= 0 && !*r->stop)
		if (read(fd, buf, sizeof(reader_buf[0])) < 0)
			break;
	if (fd >= 0)
		close(fd);
	return NULL;
}

#define STEP_SLOTS	4096

/*
 * The thread a trace line was recorded on: "<comm>-<pid> [<cpu>] ...",
 * where a comm may hold '-' and spaces, so the PID is the number just
 * before the first " [". 0 if there is none.
 */
static unsigned long trace_line_pid(const char *line)
{
	const char *end = strstr(line, " [");
	const char *p = end;

	while (p && p > line && p[-1] == ' ')
		p--;
	end = p;
	while (p && p > line && p[-1] >= '0' && p[-1] <= '9')
		p--;
	if (!p || p == end || p == line || p[-1] != '-')
		return 0;
	return strtoul(p, NULL, 10);
}

/*
 * The shortest step of the perf task-clock hrtimers in @trace: each
 * restart from its own handler (mode ABS) moves the expiry by a whole
 * number of the event's periods from its last start, so a step shorter
 * than FIRST_MIN_NS is a period shorter than that. A thread has one
 * task-clock event at a time, each begun by a relative start, and its
 * handler runs on that thread: the timers are told apart by the thread
 * (the hrtimer= pointer may be hashed, or "(____ptrval____)" on a kernel
 * whose random pool is not ready yet, as in the debug guest).
 */
static uint64_t shortest_step(FILE *trace, unsigned int *steps)
{
	static struct { unsigned long pid; unsigned long long expires; }
		last[STEP_SLOTS];
	unsigned long long expires, soft;
	char line[512], fn[96], mode[64];
	uint64_t min = UINT64_MAX;
	unsigned long pid;
	const char *p;
	unsigned int i;

	memset(last, 0, sizeof(last));
	*steps = 0;
	while (fgets(line, sizeof(line), trace)) {
		p = strstr(line, "hrtimer_start: ");
		if (!p || sscanf(p, "hrtimer_start: hrtimer=%*s function=%95s expires=%llu softexpires=%llu mode=%63s",
				 fn, &expires, &soft, mode) != 4 ||
		    strcmp(fn, "perf_swevent_hrtimer"))
			continue;
		pid = trace_line_pid(line);
		if (!pid)
			continue;
		/* Open addressing on the thread. */
		for (i = pid % STEP_SLOTS; last[i].pid && last[i].pid != pid;)
			i = (i + 1) % STEP_SLOTS;
		if (last[i].pid && !strcmp(mode, "ABS") &&
		    expires > last[i].expires) {
			if (expires - last[i].expires < min)
				min = expires - last[i].expires;
			++*steps;
		}
		last[i].pid = pid;
		last[i].expires = expires;
	}
	return min;
}

FIXTURE(first_period) {
	struct pnl nl;
	struct reader readers[READERS];
	pthread_t tids[READERS];
	int nreaders;
	volatile int stop;
	long size0;
};

FIXTURE_SETUP(first_period)
{
	self->size0 = read_long(TRACEFS "/buffer_size_kb");
}

FIXTURE_TEARDOWN(first_period)
{
	char size[32];
	int i;

	self->stop = 1;
	for (i = 0; i < self->nreaders; i++)
		pthread_join(self->tids[i], NULL);

	write_str(TRACEFS "/tracing_on", "0");
	write_str(HRTIMER_START "/enable", "0");
	write_str(HRTIMER_START "/filter", "0");
	write_str(TRACEFS "/trace", "");
	if (self->size0 > 0) {
		snprintf(size, sizeof(size), "%ld", self->size0);
		write_str(TRACEFS "/buffer_size_kb", size);
	}
}

/*
 * Many starts on the timer clock while threads sit in long system calls.
 * Each start gives every thread an event whose first period is random and
 * restored to the real one only at the thread's return to user mode: until
 * then perf re-arms it with the first period. That period must never be
 * shorter than the shortest real one (100 us), which perf leaves alone: at
 * 10 us, perf's own floor, an event stuck in the kernel took 400
 * overflows a tick, where perf throttles it at the default
 * perf_event_max_sample_rate and below it at any lower one.
 *
 * The witness is the kernel's own record of the hrtimers perf arms for
 * the task clock (timer:hrtimer_start, the threads of this process only):
 * every restart's step is a whole number of periods. Before the floor,
 * steps of 10 to 100 us came in about one start in five. perf's
 * throttling itself is in no log (it lowers perf_event_max_sample_rate,
 * with "perf: interrupt took too long", only for a PMU's NMIs), but that
 * rate and the log are checked too.
 */
TEST_F_TIMEOUT(first_period, never_below_floor, 240)
{
	const int cycles = 200;
	struct pnl_start req;
	struct pnl_status st;
	uint16_t buf[64];
	char filter[160], line[512];
	unsigned int steps;
	double cpu, mark;
	FILE *trace;
	int i, j, kmsg;
	long rate0;
	uint64_t min;

	if (geteuid() || access(HRTIMER_START "/enable", W_OK))
		SKIP(return, "needs root and tracefs's timer:hrtimer_start");
	rate0 = read_long("/proc/sys/kernel/perf_event_max_sample_rate");
	kmsg = open("/dev/kmsg", O_RDONLY | O_NONBLOCK);
	if (kmsg >= 0)
		lseek(kmsg, 0, SEEK_END);

	ASSERT_EQ(0, pnl_open(&self->nl));
	for (i = 0; i < READERS; i++) {
		self->readers[i].stop = &self->stop;
		self->readers[i].index = i;
		ASSERT_EQ(0, pthread_create(&self->tids[i], NULL, reader_thread,
					    &self->readers[i]));
		self->nreaders++;
		ASSERT_EQ(0, pthread_getcpuclockid(self->tids[i],
						   &self->readers[i].clock));
		while (!__atomic_load_n(&self->readers[i].tid, __ATOMIC_ACQUIRE))
			usleep(1000);
	}
	ASSERT_EQ(0, write_str(TRACEFS "/tracing_on", "0"));
	ASSERT_EQ(0, write_str(TRACEFS "/buffer_size_kb", "8192"));
	ASSERT_EQ(0, write_str(TRACEFS "/trace", ""));
	snprintf(filter, sizeof(filter),
		 "common_pid == %d || common_pid == %d || common_pid == %d",
		 getpid(), self->readers[0].tid, self->readers[1].tid);
	ASSERT_EQ(0, write_str(HRTIMER_START "/filter", filter));
	ASSERT_EQ(0, write_str(HRTIMER_START "/enable", "1"));
	ASSERT_EQ(0, write_str(TRACEFS "/tracing_on", "1"));

	req = (struct pnl_start) {
		.buf = (uintptr_t)buf, .bufsiz = sizeof(buf),
		.offset = (uintptr_t)profil_loop, .scale = 0x10000,
		.rate = RATE_TIMER,
	};
	for (i = 0; i < cycles; i++) {
		ASSERT_EQ(0, pnl_start(&self->nl, &req));
		/* 2 ms of the readers' CPU time: past every first point. */
		for (mark = 0, j = 0; j < READERS; j++)
			mark += clock_cpu(self->readers[j].clock);
		do {
			usleep(500);
			for (cpu = 0, j = 0; j < READERS; j++)
				cpu += clock_cpu(self->readers[j].clock);
		} while (cpu - mark < 0.002);
		ASSERT_EQ(0, pnl_stop(&self->nl, 0));
	}
	ASSERT_EQ(0, pnl_get(&self->nl, 0, &st));
	ASSERT_EQ(0, write_str(TRACEFS "/tracing_on", "0"));
	pnl_close(&self->nl);

	trace = fopen(TRACEFS "/trace", "r");
	ASSERT_NE(NULL, trace);
	min = shortest_step(trace, &steps);
	fclose(trace);
	printf("# %d starts: %u restarts of the task clock, the shortest %llu ns; the last session %llu ticks, %llu missed\n",
	       cycles, steps, (unsigned long long)min,
	       (unsigned long long)st.stats[PROFIL_STAT_TICKS],
	       (unsigned long long)st.stats[PROFIL_STAT_MISSED]);
	fflush(stdout);	/* the harness's child ends in _exit() */
	EXPECT_GT(steps, cycles);
	EXPECT_GE(min, FIRST_MIN_NS)
		TH_LOG("a task clock re-armed %llu ns on",
		       (unsigned long long)min);
	EXPECT_EQ(rate0,
		  read_long("/proc/sys/kernel/perf_event_max_sample_rate"));
	while (kmsg >= 0 && read(kmsg, line, sizeof(line) - 1) > 0) {
		line[sizeof(line) - 1] = 0;
		EXPECT_EQ(NULL, strstr(line, "perf: interrupt took too long"))
			TH_LOG("%s", line);
	}
	if (kmsg >= 0)
		close(kmsg);
}
#endif

static int sigprof_count;

static void on_sigprof(int sig)
{
	sigprof_count++;
}

/* Ticks arrive without a signal: a blocking read is not interrupted. */
TEST_F(nl, no_sigprof_no_eintr)
{
	struct sigaction sa = { .sa_handler = on_sigprof };
	struct pnl_status st;
	int fds[2];
	pid_t writer;
	pthread_t tid;
	char c;

	ASSERT_EQ(0, sigaction(SIGPROF, &sa, NULL));
	ASSERT_EQ(0, pipe(fds));
	ASSERT_EQ(0, pnl_start(&self->nl, &self->req));
	profil_loop_stop = 0;
	pthread_create(&tid, NULL, loop_thread, NULL);
	writer = fork();
	ASSERT_GE(writer, 0);
	if (!writer) {
		/* Write once the loop has run 0.2 s of CPU (a minute at most). */
		double start = pid_cpu(getppid()), cpu = start;

		for (int i = 0; i < 60000 && cpu >= 0 && cpu < start + 0.2; i++) {
			usleep(1000);
			cpu = pid_cpu(getppid());
		}
		_exit(write(fds[1], "x", 1) != 1);
	}
	EXPECT_EQ(1, read(fds[0], &c, 1)) TH_LOG("read: %s", strerror(errno));
	profil_loop_stop = 1;
	pthread_join(tid, NULL);
	waitpid(writer, NULL, 0);
	ASSERT_EQ(0, pnl_get(&self->nl, 0, &st));
	EXPECT_GT(st.stats[PROFIL_STAT_TICKS], 0);
	EXPECT_EQ(0, sigprof_count);
}

/* Time spent copying in read(2) is kernel time. */
static void syscall_loop(double secs)
{
	static char big[1 << 20];
	double end = thread_cpu() + secs;
	int fd = open("/dev/zero", O_RDONLY);

	while (thread_cpu() < end)
		if (read(fd, big, sizeof(big)) < 0)
			break;
	close(fd);
}

TEST_F(nl, system_ticks_dropped_by_default)
{
	struct pnl_status st;

	ASSERT_EQ(0, pnl_start(&self->nl, &self->req));
	syscall_loop(0.2);
	ASSERT_EQ(0, pnl_get(&self->nl, 0, &st));
	EXPECT_GT(st.stats[PROFIL_STAT_SYSTEM_DROPPED], 0);
	EXPECT_EQ(0, st.stats[PROFIL_STAT_SYSTEM_CHARGED]);
	check_identity(_metadata, &self->nl, self->buf, 4096);
}

TEST_F(nl, system_ticks_charged_with_flag)
{
	struct pnl_status st;

	self->req.flags = PROFIL_F_SYSTEM_TICKS;
	ASSERT_EQ(0, pnl_start(&self->nl, &self->req));
	syscall_loop(0.2);
	ASSERT_EQ(0, pnl_get(&self->nl, 0, &st));
	EXPECT_EQ(PROFIL_F_SYSTEM_TICKS, st.flags);
	EXPECT_EQ(0, st.stats[PROFIL_STAT_SYSTEM_DROPPED]);
	EXPECT_GT(st.stats[PROFIL_STAT_SYSTEM_CHARGED],
		  st.stats[PROFIL_STAT_TICKS] / 2);
	check_identity(_metadata, &self->nl, self->buf, 4096);
}

/* Ticks follow CPU time: about cpu seconds * rate. */
TEST_F(nl, rate_follows_cpu_time)
{
	struct rate_window w;

	ASSERT_EQ(0, pnl_start(&self->nl, &self->req));
	rate_window(_metadata, &self->nl, variant->rate,
		    variant->rate == RATE_TICK ? 1.0 : 0.5, &w);
	EXPECT_RATE(w, variant->rate);
	check_identity(_metadata, &self->nl, self->buf, 4096);
}

TEST_F(nl, default_rate_is_100)
{
	struct pnl_status st;

	self->req.no_rate = true;
	ASSERT_EQ(0, pnl_start(&self->nl, &self->req));
	ASSERT_EQ(0, pnl_get(&self->nl, 0, &st));
	EXPECT_EQ(PROFIL_RATE_DEFAULT, st.rate);
	EXPECT_EQ(PROFIL_STATE_ACTIVE, st.state);
}

/*
 * A restart replaces the parameters, moving to the other clock, and leaves
 * the counters alone; ticks then follow the new rate.
 */
TEST_F(nl, restart_replaces_params)
{
	uint32_t other = variant->rate == RATE_TICK ? RATE_TIMER : RATE_TICK;
	struct rate_window w;
	struct pnl_status st;
	uint64_t before;

	ASSERT_EQ(0, pnl_start(&self->nl, &self->req));
	run_loop_threads(1, 0.05);
	before = buf_sum(self->buf, 4096);
	self->req.rate = other;
	self->req.scale = 0x8000;
	ASSERT_EQ(0, pnl_start(&self->nl, &self->req));
	ASSERT_EQ(0, pnl_get(&self->nl, 0, &st));
	EXPECT_EQ(other, st.rate);
	EXPECT_EQ(0x8000, st.scale);
	EXPECT_EQ(PROFIL_STATE_ACTIVE, st.state);
	EXPECT_GE(buf_sum(self->buf, 4096), before);

	/* After a change of clock its first tick only resynchronises. */
	rate_window(_metadata, &self->nl, other,
		    other == RATE_TICK ? 1.0 : 0.25, &w);
	EXPECT_RATE(w, other);
	check_identity(_metadata, &self->nl, self->buf, 4096);
}

/* fork: both keep counting, each into its own copy of the buffer. */
TEST_F(nl, fork_counts_each_own_work)
{
	const struct spin_bins g = spin_bins();
	const size_t nbins = g.nbins, a0 = g.a0, a1 = g.a1, b0 = g.b0,
		     b1 = g.b1;
	uint16_t *buf, *at_fork;
	int status;
	pid_t child;

	ASSERT_LT(nbins, 1 << 20);
	buf = calloc(nbins, 2);
	at_fork = calloc(nbins, 2);

	self->req.buf = (uintptr_t)buf;
	self->req.bufsiz = nbins * 2;
	self->req.offset = g.lo;
	ASSERT_EQ(0, pnl_start(&self->nl, &self->req));
	spin_a(0.05);
	spin_b(0.05);
	memcpy(at_fork, buf, nbins * 2);

	child = fork();
	ASSERT_GE(child, 0);
	if (!child) {
		struct pnl_status st;
		struct pnl cnl;
		uint64_t da = 0, db = 0;
		size_t i;

		spin_b(0.3);
		for (i = a0; i < a1; i++)
			da += (uint16_t)(buf[i] - at_fork[i]);
		for (i = b0; i < b1; i++)
			db += (uint16_t)(buf[i] - at_fork[i]);
		if (pnl_open(&cnl) || pnl_get(&cnl, 0, &st))
			_exit(10);
		if (st.state != PROFIL_STATE_ACTIVE)
			_exit(11);
		_exit(da ? 12 : db ? 0 : 13);
	}
	spin_a(0.3);
	ASSERT_EQ(child, waitpid(child, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status)) TH_LOG("child check %d",
						 WEXITSTATUS(status));
	{
		uint64_t da = 0, db = 0;
		size_t i;

		for (i = a0; i < a1; i++)
			da += (uint16_t)(buf[i] - at_fork[i]);
		for (i = b0; i < b1; i++)
			db += (uint16_t)(buf[i] - at_fork[i]);
		EXPECT_GT(da, 0);
		EXPECT_EQ(0, db);
	}
	free(buf);
	free(at_fork);
}

/*
 * A relay: a chain of threads, each spinning @secs of CPU in @spin, then
 * cloning the next and exiting; the chain ends once @stop is set.
 */
struct relay {
	void (*spin)(double secs);
	double secs;
	void (*spin_loops)(unsigned long loops);	/* quiet_link()'s */
	unsigned long loops;
	int policy;		/* each link's, if not SCHED_OTHER */
	volatile int stop;
	volatile int done;
	volatile int policy_err;	/* errno of setting it */
	uint64_t cpu_ns;	/* CPU of the finished links */
};

/*
 * Make the calling thread SCHED_FIFO or SCHED_DEADLINE: a 5 ms budget,
 * more than a link spins, every 100 ms, so that the bandwidth of the
 * links before it, held until their deadline, leaves room (else EBUSY).
 * Reset on fork, as a deadline thread may not create another otherwise.
 */
static int set_policy(int policy)
{
	/* <linux/sched/types.h>'s, which clashes with glibc's sched_param */
	struct sched_attr {
		uint32_t size, sched_policy;
		uint64_t sched_flags;
		int32_t sched_nice;
		uint32_t sched_priority;
		uint64_t sched_runtime, sched_deadline, sched_period;
	} a = {
		.size = sizeof(a), .sched_policy = policy,
		.sched_flags = SCHED_FLAG_RESET_ON_FORK,
	};

	if (policy == SCHED_FIFO)
		a.sched_priority = 1;
	if (policy == SCHED_DEADLINE) {
		a.sched_runtime = 5 * 1000 * 1000;
		a.sched_deadline = a.sched_period = 100 * 1000 * 1000;
	}
	return syscall(SYS_sched_setattr, 0, &a, 0) ? errno : 0;
}

/* Clone @r's next link, running @link, unless @r is to stop: then done. */
static void relay_next(struct relay *r, void *(*link)(void *))
{
	pthread_attr_t attr;
	pthread_t next;

	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	if (r->stop || pthread_create(&next, &attr, link, r))
		r->done = 1;
	pthread_attr_destroy(&attr);
}

static void *relay_link(void *arg)
{
	struct relay *r = arg;
	double t0;

	if (r->policy != SCHED_OTHER) {
		r->policy_err = set_policy(r->policy);
		if (r->policy_err) {
			r->done = 1;
			return NULL;
		}
	}
	t0 = thread_cpu();
	r->spin(r->secs);
	__atomic_add_fetch(&r->cpu_ns, (uint64_t)((thread_cpu() - t0) * 1e9),
			   __ATOMIC_RELAXED);
	relay_next(r, relay_link);
	return NULL;
}

static uint64_t relay_cpu_ns(struct relay *r)
{
	return __atomic_load_n(&r->cpu_ns, __ATOMIC_RELAXED);
}

/*
 * Threads cloned while a start is attaching the process's threads are
 * profiled: one cloned by a thread the start has not reached yet is found
 * by another pass, so no chain of threads escapes. An escaped relay would
 * collect at most what the link straddling the start collects alone; each
 * must collect more, after every start. The timer clock only: under TCG
 * the tick clock loses whole rounds after the probe's code patch.
 */
TEST(start_while_threads_clone)
{
	const struct spin_bins g = spin_bins();
	const size_t lim[2][2] = { { g.a0, g.a1 }, { g.b0, g.b1 } };
	const double secs = 0.002, most = 2 * secs * RATE_TIMER;
	struct relay relays[2] = {
		{ .spin = spin_a, .secs = secs },
		{ .spin = spin_b, .secs = secs },
	};
	struct pnl_start req;
	struct pnl_status st;
	uint16_t *buf;
	pthread_t first;
	struct pnl nl;
	int round, i;

	ASSERT_EQ(0, pnl_open(&nl));
	buf = spin_bins_buffer(&g, RATE_TIMER, &req);
	ASSERT_NE(NULL, buf);

	for (i = 0; i < 2; i++) {
		ASSERT_EQ(0, pthread_create(&first, NULL, relay_link,
					    &relays[i]));
		pthread_detach(first);
	}
	for (round = 0; round < 6; round++) {
		uint64_t mark[2], sum[2];
		double cpu[2];
		bool more;

		memset(buf, 0, g.nbins * 2);
		ASSERT_EQ(0, pnl_start(&nl, &req));
		/*
		 * From the start's return: under TCG a start that switches
		 * perf's context-switch hooks on (text patching) took longer
		 * than 150 ms of the relays' CPU, and a mark taken before it
		 * left no time to sample (2 and 3 samples, on 6.12).
		 */
		for (i = 0; i < 2; i++)
			mark[i] = relay_cpu_ns(&relays[i]);
		/*
		 * 150 ms of each relay's CPU, and on until each has more
		 * samples than an escaped relay could, counted in the buffer
		 * rather than expected from the CPU time: a starved vCPU's
		 * late clock takes fewer, and the session's MISSED cannot say
		 * whose periods it missed. An escaped relay never gets there:
		 * 1.5 s of its CPU at most (3000 periods).
		 */
		do {
			usleep(5000);
			for (more = false, i = 0; i < 2; i++) {
				sum[i] = buf_sum(buf + lim[i][0],
						 lim[i][1] - lim[i][0]);
				cpu[i] = (relay_cpu_ns(&relays[i]) - mark[i]) /
					 1e9;
				more |= cpu[i] < 0.15 ||
					(sum[i] <= most && cpu[i] < 1.5);
			}
		} while (more);
		ASSERT_EQ(0, pnl_stop(&nl, 0));
		ASSERT_EQ(0, pnl_get(&nl, 0, &st));
		for (i = 0; i < 2; i++)
			sum[i] = buf_sum(buf + lim[i][0], lim[i][1] - lim[i][0]);
		printf("# round %d: %llu and %llu samples for %.3f and %.3f s, %llu periods missed\n",
		       round, (unsigned long long)sum[0],
		       (unsigned long long)sum[1], cpu[0], cpu[1],
		       (unsigned long long)st.stats[PROFIL_STAT_MISSED]);
		fflush(stdout);	/* the harness's child ends in _exit() */
		for (i = 0; i < 2; i++) {
			EXPECT_GT(sum[i], most)
				TH_LOG("round %d, relay %d: %llu samples for %.3f s",
				       round, i, (unsigned long long)sum[i],
				       cpu[i]);
		}
	}
	for (i = 0; i < 2; i++)
		relays[i].stop = 1;
	while (!relays[0].done || !relays[1].done)
		usleep(1000);
	free(buf);
	pnl_close(&nl);
}

/*
 * Threads shorter than a sampling period are sampled in proportion to
 * their CPU time: a relay of threads of 0.4 periods each, where each
 * thread's first sampling point would otherwise lie past its end. On the
 * tick clock the first point is a random sampling time; on the timer
 * clock the event's first period is random and the real one restored.
 * Real-time and deadline threads too: before 6.8 their scheduler classes
 * fire the tick's tracepoint before they count the tick's CPU time, and
 * a tick clock that read only the count missed every thread that lives
 * a tick or less (no samples at all).
 */
static void short_threads(struct __test_metadata *_metadata, uint32_t rate,
			  int policy)
{
	const struct spin_bins g = spin_bins();
	struct relay relay = {
		.spin = spin_a, .secs = 0.4 / rate, .policy = policy,
	};
	struct pnl_start req;
	struct pnl_status st;
	uint64_t mark, sum = 0;
	double cpu, want = rate == RATE_TICK ? 1.0 : 0.1;
	uint16_t *buf;
	pthread_t first;
	struct pnl nl;
	size_t b;

	ASSERT_EQ(0, pnl_open(&nl));
	buf = spin_bins_buffer(&g, rate, &req);
	ASSERT_NE(NULL, buf);
	ASSERT_EQ(0, pnl_start(&nl, &req));
	mark = relay_cpu_ns(&relay);
	ASSERT_EQ(0, pthread_create(&first, NULL, relay_link, &relay));
	pthread_detach(first);
	while (relay_cpu_ns(&relay) - mark < want * 1e9 && !relay.done)
		usleep(10000);
	relay.stop = 1;
	while (!relay.done)
		usleep(1000);
	ASSERT_EQ(0, pnl_stop(&nl, 0));
	ASSERT_EQ(0, pnl_get(&nl, 0, &st));
	if (relay.policy_err) {
		free(buf);
		pnl_close(&nl);
		SKIP(return, "policy %d: %s", policy, strerror(relay.policy_err));
	}
	cpu = (relay_cpu_ns(&relay) - mark) / 1e9;
	for (b = g.a0; b < g.a1; b++)
		sum += buf[b];
	printf("# %u Hz: %llu samples and %llu missed for %.3f s of %.2f ms threads\n",
	       rate, (unsigned long long)sum,
	       (unsigned long long)st.stats[PROFIL_STAT_MISSED], cpu,
	       relay.secs * 1e3);
	fflush(stdout);	/* the harness's child ends in _exit() */
	/*
	 * Each thread meets a point with probability 0.4: at most cpu * rate
	 * samples, about 100 or 200, or periods MISSED where a starved vCPU's
	 * clock came late. Under TCG fewer come: the tick clock samples only
	 * at a scheduler tick (4 ms at HZ=250), which a 4 ms thread meets
	 * about once, and a thread's first spin overlaps its clock's start;
	 * measured 50 to 72 samples at 100 Hz, 120 to 138 at 2000 Hz.
	 * Without a random first point: 4 at 2000 Hz, about none.
	 */
	EXPECT_GT(sum + st.stats[PROFIL_STAT_MISSED], cpu * rate * 0.25)
		TH_LOG("%llu samples and %llu missed for %.3f s of %.2f ms threads",
		       (unsigned long long)sum,
		       (unsigned long long)st.stats[PROFIL_STAT_MISSED], cpu,
		       relay.secs * 1e3);
	EXPECT_EQ(st.stats[PROFIL_STAT_TICKS], pnl_accounted(&st));
	free(buf);
	pnl_close(&nl);
}

TEST(short_threads_sampled)
{
	short_threads(_metadata, RATE_TICK, SCHED_OTHER);
}

TEST(short_threads_sampled_timer_clock)
{
	short_threads(_metadata, RATE_TIMER, SCHED_OTHER);
}

TEST(short_rt_threads_sampled)
{
	short_threads(_metadata, RATE_TICK, SCHED_FIFO);
}

TEST(short_deadline_threads_sampled)
{
	short_threads(_metadata, RATE_TICK, SCHED_DEADLINE);
}

/*
 * A link of a quiet relay: no system call from its first instruction to
 * the end of its spin, so that only the scheduler tick brings its CPU
 * count up to date meanwhile. Its policy is its creator's (inherited, as
 * pthread_create() does by default), its CPU time the whole thread's.
 */
static void *quiet_link(void *arg)
{
	struct relay *r = arg;

	r->spin_loops(r->loops);
	__atomic_add_fetch(&r->cpu_ns, (uint64_t)(thread_cpu() * 1e9),
			   __ATOMIC_RELAXED);
	relay_next(r, quiet_link);
	return NULL;
}

/*
 * Real-time threads are sampled like the others. Before 6.8 the rt and
 * deadline scheduler classes fire the tick's tracepoint before they add
 * the tick's CPU time to the thread's count, the fair class after: a
 * sampler reading the count alone sees a real-time thread a tick late,
 * and one that lives less than a tick not at all.
 *
 * Two quiet relays of links of 0.2 periods (half a tick at HZ=250) take
 * turns in one session, one fair (in spin_a), one SCHED_FIFO (in spin_b);
 * both must be sampled at about the same rate per CPU second. A system
 * call in a link (reading its CPU clock, setting its policy) would bring
 * its count up to date between ticks and hide the lag: hence quiet links,
 * and SCHED_FIFO, which the links inherit; a deadline thread cannot
 * create one (short_deadline_threads_sampled covers that class, which
 * takes the same path in the module). Comparing the two relays, in
 * turns, cancels what TCG and a busy host do to both; half a tick leaves
 * room for a link slower than its calibration said, which must not last
 * to a second tick.
 */
TEST(rt_threads_sampled_like_fair)
{
	const struct spin_bins g = spin_bins();
	struct relay relays[2] = {
		{ .spin_loops = spin_a_loops, .policy = SCHED_OTHER },
		{ .spin_loops = spin_b_loops, .policy = SCHED_FIFO },
	};
	const size_t lim[2][2] = { { g.a0, g.a1 }, { g.b0, g.b1 } };
	struct sched_param prio = { .sched_priority = 1 };
	uint64_t sum[2] = { 0, 0 };
	double t0, cpu[2], per_sec[2];
	struct pnl_start req;
	unsigned long loops;
	pthread_attr_t attr;
	pthread_t first;
	struct pnl nl;
	uint16_t *buf;
	int turn, i, err;
	size_t b;

	/* Loops for 0.2 periods of CPU time (at RATE_TICK), both relays. */
	t0 = thread_cpu();
	spin_a_loops(1000000);
	loops = 1000000 * (0.2 / RATE_TICK) / (thread_cpu() - t0);
	relays[0].loops = relays[1].loops = loops;

	ASSERT_EQ(0, pnl_open(&nl));
	buf = spin_bins_buffer(&g, RATE_TICK, &req);
	ASSERT_NE(NULL, buf);
	ASSERT_EQ(0, pnl_start(&nl, &req));
	/*
	 * Sixteen turns of 0.4 s of CPU each, one relay at a time, and more
	 * pairs of turns, up to 32 in all, until the fair relay has the
	 * samples the comparison needs, counted in the buffer rather than
	 * expected from its CPU time: a starved vCPU's late ticks take
	 * fewer, and the session's MISSED cannot say whose periods it
	 * missed.
	 */
	for (turn = 0; turn < 16 || (turn < 32 && ((turn & 1) ||
			buf_sum(buf + lim[0][0], lim[0][1] - lim[0][0]) <= 15));
	     turn++) {
		struct relay *r = &relays[turn & 1];
		uint64_t mark = relay_cpu_ns(r);

		r->stop = 0;
		r->done = 0;
		pthread_attr_init(&attr);
		pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
		if (r->policy != SCHED_OTHER) {
			pthread_attr_setinheritsched(&attr,
						     PTHREAD_EXPLICIT_SCHED);
			pthread_attr_setschedpolicy(&attr, r->policy);
			pthread_attr_setschedparam(&attr, &prio);
		}
		err = pthread_create(&first, &attr, quiet_link, r);
		pthread_attr_destroy(&attr);
		if (err == EPERM) {
			pnl_stop(&nl, 0);
			free(buf);
			pnl_close(&nl);
			SKIP(return, "SCHED_FIFO: %s", strerror(err));
		}
		ASSERT_EQ(0, err);
		while (relay_cpu_ns(r) - mark < 400000000 && !r->done)
			usleep(10000);
		r->stop = 1;
		while (!r->done)
			usleep(1000);
	}
	ASSERT_EQ(0, pnl_stop(&nl, 0));
	for (i = 0; i < 2; i++) {
		for (b = lim[i][0]; b < lim[i][1]; b++)
			sum[i] += buf[b];
		cpu[i] = relay_cpu_ns(&relays[i]) / 1e9;
		per_sec[i] = sum[i] / cpu[i];
	}
	printf("# %lu loops a link, %d turns: fair %llu samples in %.3f s, FIFO %llu in %.3f s\n",
	       loops, turn, (unsigned long long)sum[0], cpu[0],
	       (unsigned long long)sum[1], cpu[1]);
	fflush(stdout);	/* the harness's child ends in _exit() */
	/*
	 * A link meets a tick with probability 0.5 and is then sampled with
	 * probability 0.1 on average (its random first point): some 25
	 * samples a CPU second at 100 Hz for either relay. Measured under
	 * TCG on 6.1, in 2.4 s of each: fair 66, 70, 68, 37, FIFO 65, 68,
	 * 43, 34 (FIFO/fair 0.63 to 1.0); with the tick's runtime left
	 * out, FIFO 2 and 0 against 32 and 45 (0.06 and 0).
	 */
	ASSERT_GT(sum[0], 15)
		TH_LOG("the fair relay is barely sampled in %d turns", turn);
	EXPECT_GT(per_sec[1], per_sec[0] * 0.25)
		TH_LOG("SCHED_FIFO: %.1f samples a CPU second, fair: %.1f",
		       per_sec[1], per_sec[0]);
	free(buf);
	pnl_close(&nl);
}

/*
 * A minimal io_uring, raw system calls: reads from /dev/zero forced to
 * io-wq (IOSQE_ASYNC), whose workers (PF_IO_WORKER threads of this
 * process, made by create_io_thread()) spend the CPU time copying.
 */
struct zero_ring {
	int fd, zero;
	void *ring, *sqes_map;
	size_t ring_len, sqes_len;
	unsigned int *sq_tail, *sq_mask, *sq_array, *cq_head, *cq_tail,
		*cq_mask;
	struct io_uring_sqe *sqes;
	struct io_uring_cqe *cqes;
};

static int zero_ring_open(struct zero_ring *r, unsigned int entries)
{
	struct io_uring_params p = { 0 };
	size_t sq_len, cq_len;
	char *ring;

	memset(r, 0, sizeof(*r));
	r->fd = syscall(__NR_io_uring_setup, entries, &p);
	if (r->fd < 0)
		return -errno;
	if (!(p.features & IORING_FEAT_SINGLE_MMAP))
		return -EOPNOTSUPP;
	sq_len = p.sq_off.array + p.sq_entries * sizeof(unsigned int);
	cq_len = p.cq_off.cqes + p.cq_entries * sizeof(struct io_uring_cqe);
	r->ring_len = sq_len > cq_len ? sq_len : cq_len;
	r->sqes_len = p.sq_entries * sizeof(struct io_uring_sqe);
	r->ring = mmap(NULL, r->ring_len, PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_POPULATE, r->fd, IORING_OFF_SQ_RING);
	r->sqes_map = mmap(NULL, r->sqes_len, PROT_READ | PROT_WRITE,
			   MAP_SHARED | MAP_POPULATE, r->fd, IORING_OFF_SQES);
	r->zero = open("/dev/zero", O_RDONLY);
	if (r->ring == MAP_FAILED || r->sqes_map == MAP_FAILED || r->zero < 0)
		return -errno;
	ring = r->ring;
	r->sq_tail = (unsigned int *)(ring + p.sq_off.tail);
	r->sq_mask = (unsigned int *)(ring + p.sq_off.ring_mask);
	r->sq_array = (unsigned int *)(ring + p.sq_off.array);
	r->cq_head = (unsigned int *)(ring + p.cq_off.head);
	r->cq_tail = (unsigned int *)(ring + p.cq_off.tail);
	r->cq_mask = (unsigned int *)(ring + p.cq_off.ring_mask);
	r->cqes = (struct io_uring_cqe *)(ring + p.cq_off.cqes);
	r->sqes = r->sqes_map;
	return 0;
}

/* @n reads of @len bytes into @buf, on io-wq; 0 when all completed. */
static int zero_ring_reads(struct zero_ring *r, unsigned int n, void *buf,
			   unsigned int len)
{
	unsigned int tail = *r->sq_tail, head, i, idx;
	struct io_uring_sqe *sqe;
	int bad = 0;

	for (i = 0; i < n; i++, tail++) {
		idx = tail & *r->sq_mask;
		sqe = &r->sqes[idx];
		memset(sqe, 0, sizeof(*sqe));
		sqe->opcode = IORING_OP_READ;
		sqe->flags = IOSQE_ASYNC;
		sqe->fd = r->zero;
		sqe->addr = (uintptr_t)buf;
		sqe->len = len;
		r->sq_array[idx] = idx;
	}
	__atomic_store_n(r->sq_tail, tail, __ATOMIC_RELEASE);
	if (syscall(__NR_io_uring_enter, r->fd, n, n, IORING_ENTER_GETEVENTS,
		    NULL, 0) != n)
		return -errno;
	head = *r->cq_head;
	tail = __atomic_load_n(r->cq_tail, __ATOMIC_ACQUIRE);
	for (; head != tail; head++)
		bad |= r->cqes[head & *r->cq_mask].res != (int)len;
	__atomic_store_n(r->cq_head, head, __ATOMIC_RELEASE);
	return bad ? -EIO : 0;
}

static void zero_ring_close(struct zero_ring *r)
{
	if (r->ring && r->ring != MAP_FAILED)
		munmap(r->ring, r->ring_len);
	if (r->sqes_map && r->sqes_map != MAP_FAILED)
		munmap(r->sqes_map, r->sqes_len);
	if (r->zero > 0)
		close(r->zero);
	if (r->fd > 0)
		close(r->fd);
}

/*
 * io_uring's workers are threads of the process, so their CPU time is
 * sampled: all of it kernel time, SYSTEM_DROPPED by default. They are made
 * by create_io_thread(), which skips sched_process_fork; the module
 * attaches them from task_newtask. Made after the start here, by the
 * first reads; they attach when their work loop first runs task_work, so
 * the reads come in rounds. Without the attach the ticks follow only the
 * submitting thread's CPU time: a few percent of the process's.
 *
 * With PROFIL_F_SYSTEM_TICKS (@flags) the workers' ticks are still
 * dropped: they never entered the kernel from user mode, and their saved
 * user registers have PC 0 (copy_thread()), which offset 0 puts in counter
 * 0. Charged there, counter 0 took about all the ticks of the process.
 */
static void io_uring_workers(struct __test_metadata *_metadata, uint32_t rate,
			     uint32_t flags)
{
	const unsigned int len = 1 << 20;
	struct zero_ring r;
	struct pnl_start req;
	struct pnl_status st;
	uint64_t ticks, kernel, periods;
	uint16_t counters[64] = { 0 };
	double cpu, start;
	struct pnl nl;
	int rounds = 0;
	void *buf;
	int err;

	buf = malloc(len);
	ASSERT_NE(NULL, buf);
	err = zero_ring_open(&r, 8);
	if (err) {
		zero_ring_close(&r);
		free(buf);
		SKIP(return, "io_uring: %s", strerror(-err));
	}
	ASSERT_EQ(0, pnl_open(&nl));
	req = (struct pnl_start) {
		.buf = (uintptr_t)counters, .bufsiz = sizeof(counters),
		.offset = 0, .scale = 2, .rate = rate, .flags = flags,
	};
	ASSERT_EQ(0, pnl_start(&nl, &req));
	start = process_cpu();
	while (process_cpu() - start < 1.0 && rounds < 20000) {
		ASSERT_EQ(0, zero_ring_reads(&r, 8, buf, len));
		rounds++;
	}
	ASSERT_EQ(0, pnl_stop(&nl, 0));
	cpu = process_cpu() - start;
	ASSERT_EQ(0, pnl_get(&nl, 0, &st));
	ticks = st.stats[PROFIL_STAT_TICKS];
	kernel = st.stats[PROFIL_STAT_SYSTEM_DROPPED];
	periods = pnl_periods(&st);
	printf("# %u Hz: %llu ticks (%llu in the kernel dropped, %llu charged; counter 0: %u) and %llu missed for %.3f s of CPU, %d rounds of 8 reads of 1 MiB\n",
	       rate, (unsigned long long)ticks, (unsigned long long)kernel,
	       (unsigned long long)st.stats[PROFIL_STAT_SYSTEM_CHARGED],
	       counters[0], (unsigned long long)st.stats[PROFIL_STAT_MISSED],
	       cpu, rounds);
	fflush(stdout);	/* the harness's child ends in _exit() */
	/*
	 * The periods the clock accounted for, as ticks or as missed (a
	 * starved vCPU's late clock skips periods), cover the process's CPU
	 * time but for the workers' first round and their start (86 to 97 %
	 * of it measured, loaded or not): without the workers' attach, only
	 * the submitting thread's few percent. At most the CPU time, within
	 * a period at each end of each thread (the submitter and up to 8
	 * workers, one per read in flight) and the timers' granularity.
	 */
	EXPECT_GT(periods, cpu * rate * 0.5)
		TH_LOG("%llu periods for %.3f s at %u Hz",
		       (unsigned long long)periods, cpu, rate);
	EXPECT_LE(periods, cpu * rate * 1.1 + 2 * 9)
		TH_LOG("%llu periods for %.3f s at %u Hz",
		       (unsigned long long)periods, cpu, rate);
	/*
	 * The ticks are kernel-mode ticks: the workers', always dropped,
	 * and the submitter's in io_uring_enter(), charged with the flag (a
	 * third of them on a debug kernel, whose syscalls are slow).
	 */
	EXPECT_GT(kernel + st.stats[PROFIL_STAT_SYSTEM_CHARGED], ticks * 0.8)
		TH_LOG("%llu of %llu ticks in the kernel",
		       (unsigned long long)kernel, (unsigned long long)ticks);
	EXPECT_GT(kernel, ticks * 0.5)
		TH_LOG("%llu of %llu ticks dropped",
		       (unsigned long long)kernel, (unsigned long long)ticks);
	EXPECT_EQ(ticks, pnl_accounted(&st));
	/* No user PC lies below 64 KiB (vm.mmap_min_addr): nothing here. */
	EXPECT_EQ(0, counters[0]);
	zero_ring_close(&r);
	free(buf);
	pnl_close(&nl);
}

TEST(io_uring_workers_sampled)
{
	io_uring_workers(_metadata, RATE_TICK, 0);
}

TEST(io_uring_workers_sampled_timer_clock)
{
	io_uring_workers(_metadata, RATE_TIMER, 0);
}

TEST(io_uring_workers_system_ticks_dropped)
{
	io_uring_workers(_metadata, RATE_TICK, PROFIL_F_SYSTEM_TICKS);
}

TEST(io_uring_workers_system_ticks_dropped_timer_clock)
{
	io_uring_workers(_metadata, RATE_TIMER, PROFIL_F_SYSTEM_TICKS);
}

#define EXEC_ADDR	((void *)0x5e0000000000UL)
#define EXEC_SIZE	(1 << 16)

/*
 * The image exec'd by exec_turns_off: it maps memory where the old buffer
 * was and checks that nothing writes there, and that its status says why.
 */
__attribute__((constructor)) static void exec_child(void)
{
	struct pnl_status st;
	struct pnl nl;
	uint16_t *buf;
	size_t i;

	if (!getenv("PROFIL_EXEC_CHILD"))
		return;
	buf = mmap(EXEC_ADDR, EXEC_SIZE, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
	if (buf != EXEC_ADDR)
		_exit(20);
	memset(buf, 0, EXEC_SIZE);
	spin_a(0.2);
	for (i = 0; i < EXEC_SIZE / 2; i++)
		if (buf[i])
			_exit(21);
	if (pnl_open(&nl) || pnl_get(&nl, 0, &st))
		_exit(22);
	if (st.state != PROFIL_STATE_STOPPED || st.reason != PROFIL_STOP_EXEC)
		_exit(23);
	_exit(0);
}

TEST_F(nl, exec_turns_off)
{
	int status;
	pid_t child = fork();

	ASSERT_GE(child, 0);
	if (!child) {
		char *argv[] = { "profil_test", NULL };
		uint16_t *buf;

		buf = mmap(EXEC_ADDR, EXEC_SIZE, PROT_READ | PROT_WRITE,
			   MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE,
			   -1, 0);
		if (buf != EXEC_ADDR)
			_exit(30);
		self->req.buf = (uintptr_t)buf;
		self->req.bufsiz = EXEC_SIZE;
		self->req.offset = (uintptr_t)__start_profil_spin_a & ~1UL;
		if (pnl_start(&self->nl, &self->req))
			_exit(31);
		spin_a(0.05);
		setenv("PROFIL_EXEC_CHILD", "1", 1);
		execv("/proc/self/exe", argv);
		_exit(32);
	}
	ASSERT_EQ(child, waitpid(child, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
}

TEST_F(nl, other_users_process_refused)
{
	int status;
	pid_t target, intruder;

	if (geteuid())
		SKIP(return, "needs root to create two users");
	target = fork();
	ASSERT_GE(target, 0);
	if (!target) {
		pause();
		_exit(0);
	}
	intruder = fork();
	ASSERT_GE(intruder, 0);
	if (!intruder) {
		struct pnl_start req = self->req;
		struct pnl_status st;
		struct pnl nl;
		int ret;

		if (setgid(65534) || setuid(65534) || pnl_open(&nl))
			_exit(40);
		req.pid = target;
		if (pnl_get(&nl, target, &st) != -EPERM || !nl.extack[0])
			_exit(41);
		if (pnl_stop(&nl, target) != -EPERM)
			_exit(42);
		if (pnl_start(&nl, &req) != -EPERM)
			_exit(43);
		/* Its own process needs no privilege. */
		req.pid = 0;
		if (pnl_start(&nl, &req) || pnl_stop(&nl, 0))
			_exit(44);
		/*
		 * Its own user's process: status reads, but start writes into
		 * it, and start and stop control it: they take tracing it.
		 */
		prctl(PR_SET_DUMPABLE, 1);	/* setuid() cleared it */
		req.pid = fork();
		if (!req.pid) {
			pause();
			_exit(0);
		}
		ret = 0;
		if (pnl_get(&nl, req.pid, &st) != -ENOENT ||
		    pnl_stop(&nl, req.pid) != -EPERM)
			ret = 45;
		else if (pnl_start(&nl, &req) != -EPERM || !nl.extack[0])
			ret = 46;
		/* Its tracer may: ptrace checked the access already. */
		else if (ptrace(PTRACE_SEIZE, req.pid, 0, 0))
			ret = 47;
		else if (pnl_start(&nl, &req) || pnl_stop(&nl, req.pid))
			ret = 48;
		else if (ptrace(PTRACE_INTERRUPT, req.pid, 0, 0) ||
			 waitpid(req.pid, NULL, 0) != (pid_t)req.pid ||
			 ptrace(PTRACE_DETACH, req.pid, 0, 0) ||
			 pnl_start(&nl, &req) != -EPERM)
			ret = 49;
		kill(req.pid, SIGKILL);
		_exit(ret);
	}
	ASSERT_EQ(intruder, waitpid(intruder, &status, 0));
	kill(target, SIGKILL);
	waitpid(target, NULL, 0);
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
}

/* A live session pins the module; after stop the module can go. */
TEST_F(nl, rmmod_refused_while_active)
{
	struct stat sb;

	if (system("command -v rmmod >/dev/null 2>&1"))
		SKIP(return, "no rmmod");
	ASSERT_EQ(0, pnl_start(&self->nl, &self->req));
	EXPECT_NE(0, system("rmmod profil 2>/dev/null"));
	EXPECT_EQ(0, stat("/sys/module/profil", &sb));
	ASSERT_EQ(0, pnl_stop(&self->nl, 0));
}

/* Bad input gets an errno and, where the kernel can say, an extack. */
TEST_F(nl, bad_input)
{
	struct pnl_start req = self->req;

	req.rate = 5;
	EXPECT_EQ(-ERANGE, pnl_start(&self->nl, &req));
	EXPECT_NE(0, self->nl.extack[0]);
	req = self->req;
	req.flags = 0x80;
	EXPECT_EQ(-EINVAL, pnl_start(&self->nl, &req));
	EXPECT_NE(0, self->nl.extack[0]);
	req = self->req;
	req.buf = 0xffff888000000000ULL;
	EXPECT_EQ(-EFAULT, pnl_start(&self->nl, &req));
	EXPECT_NE(0, self->nl.extack[0]);
	req = self->req;
	req.bufsiz = ~0ULL;
	EXPECT_EQ(-EFAULT, pnl_start(&self->nl, &req));
	req = self->req;
	req.pid = 0x3fffffff;
	EXPECT_EQ(-ESRCH, pnl_start(&self->nl, &req));
	EXPECT_NE(0, self->nl.extack[0]);
}

/* A process that exited but is not reaped yet has nothing to profile. */
TEST_F(nl, zombie_target_refused)
{
	struct pnl_start req = self->req;
	siginfo_t info;
	pid_t child = fork();

	ASSERT_GE(child, 0);
	if (!child) {
		pause();
		_exit(0);
	}
	/* Traced, so that the START gets past the permission check. */
	ASSERT_EQ(0, ptrace(PTRACE_SEIZE, child, 0, 0));
	ASSERT_EQ(0, kill(child, SIGKILL));
	ASSERT_EQ(0, waitid(P_PID, child, &info, WEXITED | WNOWAIT));
	req.pid = child;
	EXPECT_EQ(-ESRCH, pnl_start(&self->nl, &req));
	EXPECT_NE(0, self->nl.extack[0]);
	waitpid(child, NULL, 0);
}

static uint16_t leaderless_buf[4096];

/* A process whose leader exited but whose threads run is profiled by PID. */
TEST_F(nl, leaderless_process_by_pid)
{
	struct pnl_start req = self->req;
	struct pnl_status st;
	double start, end;
	pid_t child, tid;
	int status;

	profil_loop_stop = 0;
	child = fork();
	ASSERT_GE(child, 0);
	if (!child) {
		pthread_t tid;

		pthread_create(&tid, NULL, loop_thread, NULL);
		pthread_exit(NULL);
	}
	/* The leader gone (a zombie) while its thread runs on. */
	for (end = now() + 60; proc_state(child) != 'Z' && now() < end;)
		usleep(10000);
	ASSERT_EQ('Z', proc_state(child));
	/* Only its tracer may start it; the zombie leader cannot be traced. */
	tid = other_thread(child);
	ASSERT_LT(0, tid);
	ASSERT_EQ(0, ptrace(PTRACE_SEIZE, tid, 0, 0));
	req.pid = child;
	req.buf = (uintptr_t)leaderless_buf;
	req.bufsiz = sizeof(leaderless_buf);
	ASSERT_EQ(0, pnl_start(&self->nl, &req)) TH_LOG("%s", self->nl.extack);
	/* 0.3 s of its CPU time: 30 ticks at 100 Hz. */
	start = pid_cpu(child);
	for (end = now() + 60; pid_cpu(child) < start + 0.3 && now() < end;)
		usleep(10000);
	ASSERT_EQ(0, pnl_get(&self->nl, child, &st));
	EXPECT_EQ(PROFIL_STATE_ACTIVE, st.state);
	EXPECT_GT(st.stats[PROFIL_STAT_IN_RANGE], 0);
	EXPECT_EQ(0, pnl_stop(&self->nl, child));
	kill(child, SIGKILL);
	/* The traced thread is reaped before its process can be. */
	waitpid(tid, NULL, __WALL);
	ASSERT_EQ(child, waitpid(child, &status, 0));
}

TEST_F(nl, status_of_unprofiled_process)
{
	struct pnl_status st;

	EXPECT_EQ(-ENOENT, pnl_get(&self->nl, 0, &st));
	EXPECT_NE(0, self->nl.extack[0]);
	EXPECT_EQ(0, pnl_stop(&self->nl, 0));
}

#ifndef PROFIL_TEST_VIA_LIBPROFIL
/* One part of a dump, read with a 4 KiB buffer: the kernel fills no more. */
struct dump_parts {
	unsigned int msgs, intr;
	bool done;
};

static int dump_part(struct mnl_socket *sock, uint32_t seq,
		     struct dump_parts *d)
{
	char buf[4096];
	const struct nlmsghdr *nlh;
	int len = mnl_socket_recvfrom(sock, buf, sizeof(buf));

	if (len < 0)
		return -errno;
	for (nlh = (void *)buf; mnl_nlmsg_ok(nlh, len);
	     nlh = mnl_nlmsg_next(nlh, &len)) {
		if (nlh->nlmsg_seq != seq)
			continue;
		if (nlh->nlmsg_flags & NLM_F_DUMP_INTR)
			d->intr++;
		if (nlh->nlmsg_type == NLMSG_DONE ||
		    nlh->nlmsg_type == NLMSG_ERROR)
			d->done = true;
		else
			d->msgs++;
	}
	return 0;
}

/* A session dump of family @family on a socket of its own, from seq @seq. */
static struct mnl_socket *dump_begin(uint16_t family, uint32_t seq)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct mnl_socket *sock = mnl_socket_open(NETLINK_GENERIC);
	struct nlmsghdr *nlh;

	if (!sock)
		return NULL;
	nlh = pnl_msg(buf, family, PROFIL_CMD_GET, PROFIL_GENL_VERSION);
	nlh->nlmsg_flags |= NLM_F_DUMP;
	nlh->nlmsg_seq = seq;
	if (mnl_socket_bind(sock, 0, MNL_SOCKET_AUTOPID) < 0 ||
	    mnl_socket_sendto(sock, nlh, nlh->nlmsg_len) < 0) {
		mnl_socket_close(sock);
		return NULL;
	}
	return sock;
}

/*
 * A session dump comes in parts; a session forgotten between two parts
 * moves the positions the dump resumes from, and what follows carries
 * NLM_F_DUMP_INTR. A dump during which nothing changes carries none.
 */
TEST(dump_flags_table_change)
{
	enum { KIDS = 40 };
	static uint16_t buf[256];
	struct pnl_start req = {
		.buf = (uintptr_t)buf, .bufsiz = sizeof(buf), .scale = 0x8000,
		.rate = 100,
	};
	struct dump_parts d = {}, calm = {};
	struct mnl_socket *sock;
	pid_t kids[KIDS];
	int fds[2], i;
	struct pnl nl;
	char c;

	ASSERT_EQ(0, pnl_open(&nl));
	ASSERT_EQ(0, pipe(fds));
	for (i = 0; i < KIDS; i++) {
		kids[i] = fork();
		ASSERT_LE(0, kids[i]);
		if (!kids[i]) {
			struct pnl cnl;

			c = pnl_open(&cnl) || pnl_start(&cnl, &req) ? 'F' : 'S';
			if (write(fds[1], &c, 1) != 1 || c != 'S')
				_exit(1);
			for (;;)
				pause();
		}
	}
	for (i = 0; i < KIDS; i++) {
		ASSERT_EQ(1, read(fds[0], &c, 1));
		ASSERT_EQ('S', c);
	}

	sock = dump_begin(nl.family, 1);
	ASSERT_NE(NULL, sock);
	ASSERT_EQ(0, dump_part(sock, 1, &d));
	ASSERT_FALSE(d.done) TH_LOG("the dump came in one part");
	EXPECT_EQ(0, d.intr);
	/* Its exit probe forgets its session before the parent reaps it. */
	kill(kids[KIDS - 1], SIGKILL);
	ASSERT_EQ(kids[KIDS - 1], waitpid(kids[KIDS - 1], NULL, 0));
	while (!d.done)
		ASSERT_EQ(0, dump_part(sock, 1, &d));
	mnl_socket_close(sock);
	EXPECT_NE(0, d.intr) TH_LOG("no NLM_F_DUMP_INTR after a change");

	sock = dump_begin(nl.family, 2);
	ASSERT_NE(NULL, sock);
	while (!calm.done)
		ASSERT_EQ(0, dump_part(sock, 2, &calm));
	mnl_socket_close(sock);
	EXPECT_EQ(0, calm.intr);
	EXPECT_LE(KIDS - 1, calm.msgs);

	for (i = 0; i < KIDS - 1; i++) {
		kill(kids[i], SIGKILL);
		waitpid(kids[i], NULL, 0);
	}
	pnl_close(&nl);
}
#endif

PROFIL_OPEN_TIMER_CLOCK
PROFIL_HARNESS_MAIN
