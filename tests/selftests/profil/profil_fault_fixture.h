/* SPDX-License-Identifier: GPL-2.0 */
/*
 * FIXTURE(fault): what the fault-injection programs share (make
 * check-debug): fault_test (the request paths), fault_attach_test (the
 * attaches of a clone, a fork, a thread) and fault_user_test (the
 * writes to user memory).
 *
 * The walk (the kernel's Documentation/fault-injection/fault-injection.rst,
 * "Systematic faults using fail-nth"): for n = 1, 2, ... write n to
 * fail-nth, do the operation, read fail-nth back: 0 means the n-th
 * should_fail() call of the operation failed; a positive value means the
 * operation made fewer calls, succeeded without an injected failure, and
 * the walk is over. The failslab and fail_page_alloc knobs are set so
 * that sleeping allocations are eligible (ignore-gfp-wait N) and nothing
 * but fail-nth injects (probability 0, task-filter Y).
 *
 * On a kernel without fault injection (Debian's: make check) there is no
 * fail-nth (self->nth is -1): each path then runs once, uninjected, with
 * the same checks.
 *
 * The fixture: a netlink socket, two buffers of NBINS counters, the
 * fail-nth file and the knobs it set (restored at teardown), and a
 * target process of fault_test's. spin() and the sessions over it are
 * the attach and user-write programs'.
 */
#ifndef PROFIL_SELFTEST_FAULT_FIXTURE_H
#define PROFIL_SELFTEST_FAULT_FIXTURE_H

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/wait.h>

#include "profil_harness.h"
#include "profil_nl.h"
#include "profil_util.h"

#define DEBUGFS		"/sys/kernel/debug"
#define USER_WRITE	DEBUGFS "/profil/fail_user_write"
/* A walk that does not end by then is a failure. */
#define WALK_MAX	4000
#define RATE_TICK	100
#define RATE_TIMER	2000
#define NTHREADS	4
#define NBINS		4096

/*
 * The knobs of the kernel's fault attributes that fail-nth goes through.
 * fail-nth overrides probability, interval, times and task-filter, but not
 * these per-capability filters; ignore-gfp-highmem stays Y, so user pages
 * (the buffers, the test's own page faults) never fail: the subject is the
 * module's allocations, not the page fault path.
 */
static const struct knob_set {
	const char *file, *val;
} knob_set[] = {
	{ "failslab/ignore-gfp-wait", "N" },
	{ "failslab/verbose", "0" },
	{ "failslab/probability", "0" },
	{ "failslab/task-filter", "Y" },
	{ "fail_page_alloc/ignore-gfp-wait", "N" },
	{ "fail_page_alloc/ignore-gfp-highmem", "Y" },
	{ "fail_page_alloc/min-order", "0" },
	{ "fail_page_alloc/verbose", "0" },
	{ "fail_page_alloc/probability", "0" },
	{ "fail_page_alloc/task-filter", "Y" },
};

#define NKNOBS (sizeof(knob_set) / sizeof(knob_set[0]))

/* A TAP comment, out before the harness's _exit(). */
static inline __attribute__((format(printf, 1, 2))) void
note(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	printf("# ");
	vprintf(fmt, ap);
	printf("\n");
	va_end(ap);
	fflush(stdout);
}

/*
 * Read the knob @file into @old (if given), then write @val. Two opens:
 * the simple attributes are nonseekable (no pread()/pwrite()).
 */
static inline int knob_rw(const char *file, const char *val, char *old,
			  size_t len)
{
	char path[256];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), DEBUGFS "/%s", file);
	if (old) {
		fd = open(path, O_RDONLY);
		if (fd < 0)
			return -errno;
		n = read(fd, old, len - 1);
		old[n > 0 ? n : 0] = '\0';
		old[strcspn(old, "\n")] = '\0';
		close(fd);
	}
	fd = open(path, O_WRONLY);
	if (fd < 0)
		return -errno;
	n = write(fd, val, strlen(val));
	close(fd);
	if (n < 0)
		return -errno;
	return n == (ssize_t)strlen(val) ? 0 : -EIO;
}

FIXTURE(fault) {
	struct pnl nl;
	int nth;		/* /proc/thread-self/fail-nth, or -1 */
	char old[NKNOBS][32];
	bool set[NKNOBS];
	pid_t target;
	int target_ctl;		/* write end: closing it ends the target */
	uint16_t *buf, *buf2;
};

FIXTURE_SETUP(fault)
{
	unsigned int i;
	int err;

	self->target = 0;
	self->target_ctl = -1;
	err = pnl_open(&self->nl);
	ASSERT_EQ(0, err) TH_LOG("family: %s", strerror(-err));
	self->buf = mmap(NULL, 2 * NBINS * 2, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	ASSERT_NE(MAP_FAILED, self->buf);
	self->buf2 = self->buf + NBINS;
	memset(self->buf, 0, 2 * NBINS * 2);

	self->nth = open("/proc/thread-self/fail-nth", O_RDWR);
	if (self->nth < 0) {
		ASSERT_EQ(ENOENT, errno);
		note("no fail-nth (no CONFIG_FAULT_INJECTION): each path runs once, uninjected");
		return;
	}
	for (i = 0; i < NKNOBS; i++) {
		err = knob_rw(knob_set[i].file, knob_set[i].val, self->old[i],
			      sizeof(self->old[i]));
		if (err == -ENOENT)
			SKIP(return, "fail-nth but no %s (FAILSLAB, FAIL_PAGE_ALLOC, debugfs)",
			     knob_set[i].file);
		ASSERT_EQ(0, err) TH_LOG("%s: %s", knob_set[i].file, strerror(-err));
		self->set[i] = true;
	}
}

static inline void target_end(FIXTURE_DATA(fault) *self)
{
	if (self->target <= 0)
		return;
	kill(self->target, SIGKILL);
	waitpid(self->target, NULL, 0);
	close(self->target_ctl);
	self->target = 0;
	self->target_ctl = -1;
}

FIXTURE_TEARDOWN(fault)
{
	unsigned int i;

	if (self->nth >= 0)
		pwrite(self->nth, "0", 1, 0);
	target_end(self);
	pnl_stop(&self->nl, 0);
	for (i = 0; i < NKNOBS; i++)
		if (self->set[i])
			knob_rw(knob_set[i].file, self->old[i], NULL, 0);
	knob_rw("profil/fail_user_write/probability", "0", NULL, 0);
	pnl_close(&self->nl);
}

/* fail-nth: make the @n-th should_fail() call of this thread fail. */
static inline int nth_arm(int fd, unsigned int n)
{
	char num[16];
	int len = snprintf(num, sizeof(num), "%u", n);

	return pwrite(fd, num, len, 0) == len ? 0 : -errno;
}

/* Disarm; return what was left: 0 if the failure was injected. */
static inline unsigned int nth_disarm(int fd)
{
	char num[16] = "";
	ssize_t len = pread(fd, num, sizeof(num) - 1, 0);

	pwrite(fd, "0", 1, 0);
	return len > 0 ? strtoul(num, NULL, 10) : 0;
}


/* One operation of a walk, and the check of what it left. */
struct walk_op {
	const char *name;
	int (*op)(FIXTURE_DATA(fault) *self, void *ctx);
	/* @r: the operation's result; @injected: a failure was injected. */
	void (*check)(struct __test_metadata *_metadata,
		      FIXTURE_DATA(fault) *self, void *ctx, int r,
		      bool injected);
	void *ctx;
};

/* The identity on a stopped session holds exactly. */
static inline void expect_identity(struct __test_metadata *_metadata,
				   const struct pnl_status *st)
{
	EXPECT_EQ(st->stats[PROFIL_STAT_TICKS], pnl_accounted(st))
		TH_LOG("ticks %llu, accounted %llu",
		       (unsigned long long)st->stats[PROFIL_STAT_TICKS],
		       (unsigned long long)pnl_accounted(st));
}

/*
 * A spin of about @secs of the thread's CPU time in a function of its
 * own, whose address the user-write tests count on.
 */
static __attribute__((noinline, aligned(64), unused)) void spin(double secs)
{
	double end = thread_cpu() + secs;
	volatile unsigned long n = 0;
	int i;

	while (thread_cpu() < end)
		for (i = 0; i < 20000; i++)
			n++;
}

/* The caller's own session, counting PCs near spin() into @buf. */
static inline int start_self(FIXTURE_DATA(fault) *self, uint16_t *buf,
			     uint32_t rate)
{
	struct pnl_start s = {
		.buf = (uintptr_t)buf, .bufsiz = NBINS * 2,
		.offset = ((uintptr_t)spin & ~0xfffUL) - 0x1000,
		.scale = 0x10000, .rate = rate,
	};

	return pnl_start(&self->nl, &s);
}

/* The caller's session, counting only spin()'s own PCs into @buf. */
static inline int start_spin(FIXTURE_DATA(fault) *self, uint16_t *buf,
			     uint32_t rate)
{
	struct pnl_start s = {
		.buf = (uintptr_t)buf, .bufsiz = 1024,
		.offset = (uintptr_t)spin, .scale = 0x10000, .rate = rate,
	};

	return pnl_start(&self->nl, &s);
}

static inline uint64_t buf_sum(const uint16_t *buf)
{
	uint64_t sum = 0;
	unsigned int i;

	for (i = 0; i < NBINS; i++)
		sum += buf[i];
	return sum;
}

#endif /* PROFIL_SELFTEST_FAULT_FIXTURE_H */
