// SPDX-License-Identifier: GPL-2.0
/*
 * The threads of a profiled process through profil.ko's netlink family
 * (profil_threads_test) and through libprofil (profil_threads_test_lib):
 * threads cloned while a start attaches the process's, threads shorter
 * than a sampling period (fair, real-time, deadline), real-time threads
 * sampled like fair ones, and io_uring's workers.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <linux/io_uring.h>
#include <linux/sched.h>

#include "profil_harness.h"
#ifdef PROFIL_TEST_VIA_LIBPROFIL
#include "profil_lib.h"
#else
#include "profil_nl.h"
#endif
#include "profil_util.h"
#include "profil_workload.h"

/*
 * Rates for each clock: at or below any HZ, and above any HZ (those of
 * profil_clock_fixture.h, whose fixture this program does not use).
 */
#define RATE_TICK	100
#define RATE_TIMER	2000

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
	unsigned long loops, calib;
	pthread_attr_t attr;
	pthread_t first;
	struct pnl nl;
	uint16_t *buf;
	int turn, i, err;
	size_t b;

	/*
	 * Loops for 0.2 periods of CPU time (at RATE_TICK), both relays,
	 * timed over a millisecond at least: a guest whose TSC is unstable
	 * clamps its scheduler clock to a tick past the last one, so a
	 * starved vCPU's thread clock can stand still over a short spin.
	 */
	calib = 1000000;
	for (;;) {
		t0 = thread_cpu();
		spin_a_loops(calib);
		t0 = thread_cpu() - t0;
		if (t0 >= 1e-3 || calib >= 1UL << 30)
			break;
		calib *= 4;
	}
	ASSERT_LT(0, t0) TH_LOG("the thread's CPU clock stood still");
	loops = calib * (0.2 / RATE_TICK) / t0;
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

PROFIL_OPEN_TIMER_CLOCK
PROFIL_HARNESS_MAIN
