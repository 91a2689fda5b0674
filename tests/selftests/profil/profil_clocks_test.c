// SPDX-License-Identifier: GPL-2.0
/*
 * profil.ko's clocks through its netlink family (profil_clocks_test) and
 * through libprofil (profil_clocks_test_lib): the first period's floor on
 * the timer clock, ticks without signals, system-mode ticks dropped or
 * charged, the rate against CPU time, the default rate, and a restart
 * that moves to the other clock.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "profil_harness.h"
#ifdef PROFIL_TEST_VIA_LIBPROFIL
#include "profil_lib.h"
#else
#include "profil_nl.h"
#endif
#include "profil_util.h"
#include "profil_workload.h"
#include "profil_clock_fixture.h"

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

PROFIL_OPEN_TIMER_CLOCK
PROFIL_HARNESS_MAIN
