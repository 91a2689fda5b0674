// SPDX-License-Identifier: GPL-2.0
/*
 * libprofil against the real profil.ko: profil() itself, and gprof on the
 * gmon.out written by monstartup()/_mcleanup() and by monitor() for a
 * 50/30/20 workload (libprofil_workload.h), and glibc's profil() for
 * comparison; the extended API's sessions (status, exclusive start,
 * dumps and stop events, faults). Kernel-held profiles:
 * libprofil_held_test. Built twice: libprofil_test (PIE) and
 * libprofil_test_nopie (-no-pie, see Makefile).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <poll.h>
#include <sys/gmon.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "profil_harness.h"
#include "profil.h"
#include "libprofil_workload.h"

#define RATE	"1000"

extern char __executable_start[], etext[];


/* gprof's flat profile: the "% time" of @fn, or -1. */
static double gprof_pct(const char *gmon, const char *fn)
{
	char exe[4096], cmd[8300], line[512], name[256];
	double pct, best = -1;
	ssize_t n;
	FILE *p;

	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n < 0)
		return -1;
	exe[n] = '\0';
	snprintf(cmd, sizeof(cmd), "gprof -b -p '%s' '%s' 2>&1", exe, gmon);
	p = popen(cmd, "r");
	if (!p)
		return -1;
	while (fgets(line, sizeof(line), p)) {
		/* "%time cumul self [calls self/call total/call] name" */
		char *last = strrchr(line, ' ');

		if (sscanf(line, " %lf", &pct) != 1 || !last)
			continue;
		if (sscanf(last, " %255s", name) == 1 && !strcmp(name, fn))
			best = pct;
	}
	pclose(p);
	return best;
}

/*
 * Ticks in the guest are noisy (a TCG guest's clock runs on while its vCPU
 * waits for the host), so the shares get a wide margin. What must hold
 * exactly is the attribution: all time lands in the three functions, which
 * a wrong PIE bias or bin geometry would break.
 */
static void check_503020(struct __test_metadata *_metadata, const char *gmon)
{
	double a = gprof_pct(gmon, "lp_fifty");
	double b = gprof_pct(gmon, "lp_thirty");
	double c = gprof_pct(gmon, "lp_twenty");

	TH_LOG("gprof: lp_fifty %.1f%% lp_thirty %.1f%% lp_twenty %.1f%%",
	       a, b, c);
	EXPECT_GT(a + b + c, 95.0);
	EXPECT_GT(a, 35.0);
	EXPECT_LT(a, 65.0);
	EXPECT_GT(b, 15.0);
	EXPECT_LT(b, 45.0);
	EXPECT_GT(c, 5.0);
	EXPECT_LT(c, 35.0);
}

static const char *gmon_name(char *buf, size_t len, const char *prefix)
{
	snprintf(buf, len, "%s.%ld", prefix, (long)getpid());
	return buf;
}

/* End of @f: the next known function above it (at most 4 KiB on). */
static uintptr_t fn_end(uintptr_t f)
{
	const uintptr_t known[] = {
		(uintptr_t)lp_fifty, (uintptr_t)lp_thirty, (uintptr_t)lp_twenty,
		(uintptr_t)thread_cpu, (uintptr_t)unit, (uintptr_t)workload,
		(uintptr_t)spin, (uintptr_t)module_present,
	};
	uintptr_t end = f + 4096;
	size_t i;

	for (i = 0; i < sizeof(known) / sizeof(known[0]); i++)
		if (known[i] > f && known[i] < end)
			end = known[i];
	return end;
}

/* Share of the ticks in @buf (bins of 4 bytes from @low) that hit @fn. */
static double share(const unsigned short *buf, size_t n, uintptr_t low,
		    void (*fn)(unsigned long))
{
	uintptr_t f = (uintptr_t)fn, end = fn_end(f);
	unsigned long all = 0, in = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		all += buf[i];
		/* A bin straddling the start belongs to the previous one. */
		if (low + 4 * i >= f && low + 4 * i < end)
			in += buf[i];
	}
	return all ? 100.0 * in / all : -1;
}

/* The ticks the kernel has counted into @buf, @n counters, so far. */
static unsigned long buf_total(const unsigned short *buf, size_t n)
{
	unsigned long sum = 0;
	size_t i;

	for (i = 0; i < n; i++)
		sum += buf[i];
	return sum;
}

TEST(profil_counts_and_stops)
{
	uintptr_t low = (uintptr_t)__executable_start & ~3UL;
	size_t n = ((uintptr_t)etext - low) / 4 + 1, i;
	unsigned short *buf = calloc(n, 2), *copy = calloc(n, 2);
	unsigned long sum = 0, in_fn = 0;
	uintptr_t fn = (uintptr_t)lp_fifty;
	double t0;

	ASSERT_NE(NULL, buf);
	setenv("PROFIL_HZ", RATE, 1);
	errno = 0;
	SKIP_IF_ENOSYS(profil(buf, n * 2, low, 32768));
	ASSERT_EQ(0, profil(buf, n * 2, low, 32768)) {
		TH_LOG("profil: %s", profil_strerror());
	}
	/*
	 * About 300 ticks at 1000 Hz, and on until the buffer holds the
	 * ticks the share below needs, counted by the kernel rather than
	 * expected from the CPU time: a starved vCPU's late clock takes
	 * fewer. 10 s of CPU at most.
	 */
	spin(0.3);
	for (t0 = thread_cpu(); buf_total(buf, n) <= 20 &&
	     thread_cpu() - t0 < 10.0;)
		spin(0.05);
	ASSERT_EQ(0, profil(buf, n * 2, low, 0));	/* off */
	for (i = 0; i < n; i++) {
		sum += buf[i];
		if (low + 4 * i >= fn && low + 4 * i < fn_end(fn))
			in_fn += buf[i];
	}
	TH_LOG("%lu ticks, %lu in lp_fifty", sum, in_fn);
	EXPECT_GT(sum, 20UL);
	EXPECT_GT(in_fn * 10, sum * 9);

	/* Off means off: nothing is written any more. */
	memcpy(copy, buf, n * 2);
	spin(0.1);
	EXPECT_EQ(0, memcmp(copy, buf, n * 2));
}

TEST(profil_bad_rate)
{
	unsigned short buf[8];

	if (!module_present())
		SKIP(return, "profil.ko not loaded");
	setenv("PROFIL_HZ", "5", 1);
	EXPECT_EQ(-1, profil(buf, sizeof(buf), 0, 65536));
	EXPECT_EQ(EINVAL, errno);
}

TEST(profil_kernel_rejects_buffer)
{
	if (!module_present())
		SKIP(return, "profil.ko not loaded");
	unsetenv("PROFIL_HZ");
	/* A kernel address: the kernel refuses it with an extack message. */
	EXPECT_EQ(-1, profil((unsigned short *)(uintptr_t)0xffff888000000000ULL,
			     4096, 0, 65536));
	EXPECT_EQ(EFAULT, errno);
	TH_LOG("extack: %s", profil_strerror());
	EXPECT_NE(NULL, profil_last_extack());
}

TEST(monstartup_gprof)
{
	char name[64];

	if (!module_present())
		SKIP(return, "profil.ko not loaded");
	setenv("PROFIL_HZ", RATE, 1);
	setenv("GMON_OUT_PREFIX", "lp-monstartup", 1);
	monstartup((unsigned long)__executable_start, (unsigned long)etext);
	workload();
	_mcleanup();
	check_503020(_metadata, gmon_name(name, sizeof(name), "lp-monstartup"));
}

TEST(monitor_gprof)
{
	static unsigned short buf[1 << 16];
	char name[64];

	if (!module_present())
		SKIP(return, "profil.ko not loaded");
	setenv("PROFIL_HZ", RATE, 1);
	setenv("GMON_OUT_PREFIX", "lp-monitor", 1);
	monitor((int (*)(void))__executable_start, (int (*)(void))etext,
		buf, sizeof(buf) / sizeof(buf[0]), 0);
	workload();
	monitor(NULL, NULL, NULL, 0, 0);
	check_503020(_metadata, gmon_name(name, sizeof(name), "lp-monitor"));
}

TEST(glibc_comparison)
{
	int (*glibc_profil)(unsigned short *, size_t, size_t, unsigned int);
	uintptr_t low = (uintptr_t)__executable_start & ~3UL;
	size_t n = ((uintptr_t)etext - low) / 4 + 1;
	unsigned short *ours = calloc(n, 2), *theirs = calloc(n, 2);
	void (*fns[3])(unsigned long) = { lp_fifty, lp_thirty, lp_twenty };
	int i, runs[2];

	if (!module_present())
		SKIP(return, "profil.ko not loaded");
	glibc_profil = (int (*)(unsigned short *, size_t, size_t,
				unsigned int))dlsym(RTLD_NEXT, "profil");
	if (!glibc_profil)
		SKIP(return, "glibc's profil not found");
	ASSERT_NE(NULL, ours);
	ASSERT_NE(NULL, theirs);
	unsetenv("PROFIL_HZ");	/* 100 Hz, as glibc's */
	/*
	 * A workload each, about 100 ticks at 100 Hz, and more, up to four
	 * in all, while the buffer holds fewer than 80: the shares' margin
	 * is for about 100 samples, and a starved vCPU's late clock takes
	 * fewer (glibc's too). Counted in the buffers, not expected from
	 * the CPU time.
	 */
	ASSERT_EQ(0, profil(ours, n * 2, low, 32768));
	for (runs[0] = 0; runs[0] < 4 && (!runs[0] || buf_total(ours, n) < 80);
	     runs[0]++)
		workload();
	ASSERT_EQ(0, profil(ours, n * 2, low, 0));
	ASSERT_EQ(0, glibc_profil(theirs, n * 2, low, 32768));
	for (runs[1] = 0;
	     runs[1] < 4 && (!runs[1] || buf_total(theirs, n) < 80);
	     runs[1]++)
		workload();
	glibc_profil(NULL, 0, 0, 0);
	TH_LOG("libprofil %lu samples in %d workloads, glibc %lu in %d",
	       buf_total(ours, n), runs[0], buf_total(theirs, n), runs[1]);
	for (i = 0; i < 3; i++) {
		double a = share(ours, n, low, fns[i]);
		double b = share(theirs, n, low, fns[i]);

		TH_LOG("function %d: libprofil %.1f%%, glibc %.1f%%", i, a, b);
		EXPECT_GT(a, 0.0);
		EXPECT_GT(b, 0.0);
		EXPECT_LT(a - b, 20.0);
		EXPECT_LT(b - a, 20.0);
	}
}

TEST(session_status)
{
	static unsigned short buf[1 << 15];
	struct profil_params p = {
		.buf = (uintptr_t)buf, .bufsiz = sizeof(buf),
		.offset = (uintptr_t)__executable_start, .scale = 32768,
		.rate = 1000,
	};
	struct profil_handle *h = profil_handle_open();
	uint64_t stats[PROFIL_STAT_MAX + 1];
	struct profil_status st;

	if (!h && errno == ENOSYS)
		SKIP(return, "profil.ko not loaded");
	ASSERT_NE(NULL, h);
	ASSERT_EQ(0, profil_session_start(h, &p)) {
		TH_LOG("start: %s", profil_strerror());
	}
	spin(0.2);
	ASSERT_EQ(0, profil_session_get(h, 0, &st));
	ASSERT_EQ(0, profil_session_get_stats(h, 0, stats,
					      PROFIL_STAT_MAX + 1));
	EXPECT_EQ(getpid(), st.pid);
	EXPECT_EQ((uint32_t)PROFIL_STATE_ACTIVE, st.state);
	EXPECT_EQ(1000U, st.rate);
	EXPECT_EQ(32768U, st.scale);
	/*
	 * 0.2 s of CPU at 1000 Hz: about 200 periods, as ticks or as
	 * periods a starved vCPU's late clock missed.
	 */
	EXPECT_GT(stats[PROFIL_STAT_TICKS] + stats[PROFIL_STAT_MISSED], 50ULL)
		TH_LOG("%llu ticks, %llu missed",
		       (unsigned long long)stats[PROFIL_STAT_TICKS],
		       (unsigned long long)stats[PROFIL_STAT_MISSED]);
	ASSERT_EQ(0, profil_session_stop(h, 0));
	ASSERT_EQ(0, profil_session_get(h, 0, &st));
	EXPECT_EQ((uint32_t)PROFIL_STATE_STOPPED, st.state);
	EXPECT_EQ((uint32_t)PROFIL_STOP_REQUEST, st.reason);
	EXPECT_EQ(st.stats.ticks, st.stats.in_range + st.stats.out_of_range +
		  st.stats.system_dropped + st.stats.pending +
		  st.stats.discarded + st.stats.faulted);
	profil_handle_close(h);
}

struct find {
	pid_t pid;
	struct profil_status st;
	int seen;
};

static int find_cb(const struct profil_status *st, void *data)
{
	struct find *f = data;

	if (st->pid != f->pid)
		return 0;
	f->st = *st;
	f->seen++;
	return 0;
}

/* Waits up to @ms for a stop event of this process. */
static int read_stop_event(struct profil_handle *h, struct profil_status *st,
			   int ms)
{
	struct pollfd pfd = { .fd = profil_event_fd(h), .events = POLLIN };

	while (poll(&pfd, 1, ms) == 1) {
		if (profil_event_read(h, st) < 0)
			return -1;
		if (st->pid == getpid())
			return 0;
	}
	return -1;
}

/*
 * PROFIL_START_EXCL (PROFIL_ATTR_EXCL) leaves an active session alone: EEXIST
 * with the kernel's reason, the session unchanged; a stopped session, or
 * none, is no obstacle. Both START calls and the region-set one.
 */
TEST(start_excl_leaves_active_session)
{
	static unsigned short buf[1 << 15], other[1 << 15];
	struct profil_params p = {
		.buf = (uintptr_t)buf, .bufsiz = sizeof(buf),
		.offset = (uintptr_t)__executable_start, .scale = 32768,
		.rate = 1000,
	};
	struct profil_params q = p;
	struct profil_handle *h = profil_handle_open();
	struct profil_regions *r = profil_regions_alloc();
	struct profil_status st;

	if (!h && errno == ENOSYS)
		SKIP(return, "profil.ko not loaded");
	ASSERT_NE(NULL, h);
	ASSERT_NE(NULL, r);
	ASSERT_EQ(0, profil_regions_add(r, (uintptr_t)other, sizeof(other),
					(uintptr_t)__executable_start, 32768));
	q.buf = (uintptr_t)other;
	q.flags = PROFIL_START_EXCL;
	/* None: EXCL starts it. */
	ASSERT_EQ(0, profil_session_start(h, &q)) {
		TH_LOG("start: %s", profil_strerror());
	}
	ASSERT_EQ(0, profil_session_start(h, &p));	/* replaced, as ever */
	errno = 0;
	EXPECT_EQ(-1, profil_session_start(h, &q));
	EXPECT_EQ(EEXIST, errno);
	EXPECT_NE(NULL, strstr(profil_strerror(), "active session"))
		TH_LOG("%s", profil_strerror());
	errno = 0;
	EXPECT_EQ(-1, profil_session_start_regions(h, 0, r, 1000,
						   PROFIL_START_EXCL));
	EXPECT_EQ(EEXIST, errno);
	spin(0.1);
	ASSERT_EQ(0, profil_session_get(h, 0, &st));
	EXPECT_EQ((uint32_t)PROFIL_STATE_ACTIVE, st.state);
	EXPECT_EQ((uintptr_t)buf, st.buf);
	EXPECT_EQ(0U, st.flags);	/* EXCL is no session flag */
	ASSERT_EQ(0, profil_session_stop(h, 0));
	/* Stopped: EXCL replaces it. */
	EXPECT_EQ(0, profil_session_start_regions(h, 0, r, 1000,
						  PROFIL_START_EXCL))
		TH_LOG("%s", profil_strerror());
	ASSERT_EQ(0, profil_session_stop(h, 0));
	profil_regions_free(r);
	profil_handle_close(h);
}

TEST(dump_and_stop_event)
{
	static unsigned short buf[1 << 12];
	struct profil_params p = {
		.buf = (uintptr_t)buf, .bufsiz = sizeof(buf),
		.offset = (uintptr_t)__executable_start, .scale = 32768,
	};
	struct profil_handle *h = profil_handle_open();
	struct find f = { .pid = getpid() };
	struct profil_status st;

	if (!h && errno == ENOSYS)
		SKIP(return, "profil.ko not loaded");
	ASSERT_NE(NULL, h);
	if (profil_event_subscribe(h) < 0 && errno == EPERM)
		SKIP(return, "events need CAP_NET_ADMIN");
	ASSERT_LE(0, profil_event_fd(h));
	ASSERT_EQ(0, profil_session_start(h, &p));
	ASSERT_EQ(0, profil_session_dump(h, find_cb, &f));
	EXPECT_EQ(1, f.seen);
	EXPECT_EQ(PROFIL_STATE_ACTIVE, f.st.state);
	EXPECT_EQ((uintptr_t)buf, f.st.buf);
	EXPECT_EQ(PROFIL_RATE_DEFAULT, f.st.rate);
	ASSERT_EQ(0, profil_session_stop(h, 0));
	ASSERT_EQ(0, read_stop_event(h, &st, 2000)) {
		TH_LOG("no stop event: %s", profil_strerror());
	}
	EXPECT_EQ(PROFIL_STATE_STOPPED, st.state);
	EXPECT_EQ(PROFIL_STOP_REQUEST, st.reason);
	/* Events carry no addresses: their listeners are no tracers. */
	EXPECT_EQ(0, st.buf);
	profil_handle_close(h);
}

TEST(fault_is_reported)
{
	struct profil_handle *h = profil_handle_open();
	struct profil_status st;
	struct profil_params p = {
		.bufsiz = 4096, .offset = (uintptr_t)__executable_start,
		.scale = 65536, .rate = 1000,
	};
	unsigned short *ro;

	if (!h && errno == ENOSYS)
		SKIP(return, "profil.ko not loaded");
	ASSERT_NE(NULL, h);
	ro = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, ro);
	p.buf = (uintptr_t)ro;
	p.offset = (uintptr_t)lp_fifty;	/* every tick hits the buffer */
	ASSERT_EQ(0, profil_session_start(h, &p));
	spin(0.2);
	ASSERT_EQ(0, profil_session_get(h, 0, &st));
	EXPECT_EQ(PROFIL_STATE_STOPPED, st.state);
	EXPECT_EQ(PROFIL_STOP_FAULT, st.reason);
	EXPECT_LE((uintptr_t)ro, st.fault_addr);
	EXPECT_GT((uintptr_t)ro + 4096, st.fault_addr);
	EXPECT_LT(0, st.stats.faulted);
	TH_LOG("fault at %#llx, %llu ticks, %llu faulted",
	       (unsigned long long)st.fault_addr,
	       (unsigned long long)st.stats.ticks,
	       (unsigned long long)st.stats.faulted);
	profil_handle_close(h);
}

PROFIL_HARNESS_MAIN
