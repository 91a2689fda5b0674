// SPDX-License-Identifier: GPL-2.0
/*
 * Fault injection (make check-debug): every allocation on the module's
 * request paths fails once, through /proc/thread-self/fail-nth, and every
 * failure must end in a clean errno (ENOMEM with the module's extack text,
 * or the netlink core's own ENOMEM/ENOBUFS), with no session left behind,
 * the old parameters kept, and the accounting identity intact; the log
 * must stay clean and kmemleak quiet (the guest harness checks both).
 * Then profil.ko's own fault attribute, debugfs profil/fail_user_write,
 * fails the writes to user memory: the documented outcome of a fault.
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
 * fail-nth: each path then runs once, uninjected, with the same checks,
 * and the user-write test checks a real fault and that the module has no
 * fault attribute there.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <linux/futex.h>
#include <sys/ptrace.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
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
__attribute__((format(printf, 1, 2))) static void note(const char *fmt, ...)
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
static int knob_rw(const char *file, const char *val, char *old, size_t len)
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

/* What a walk saw: how its injected failures ended. */
struct walk_stats {
	unsigned int injected;	/* failures injected */
	unsigned int text;	/* ENOMEM with the module's extack text */
	unsigned int core;	/* ENOMEM from the netlink core, no text */
	unsigned int nobufs;	/* ENOBUFS: a socket buffer (request or ack) */
	unsigned int done;	/* succeeded all the same (a failure it absorbs) */
};

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

static void target_end(FIXTURE_DATA(fault) *self)
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
static int nth_arm(int fd, unsigned int n)
{
	char num[16];
	int len = snprintf(num, sizeof(num), "%u", n);

	return pwrite(fd, num, len, 0) == len ? 0 : -errno;
}

/* Disarm; return what was left: 0 if the failure was injected. */
static unsigned int nth_disarm(int fd)
{
	char num[16] = "";
	ssize_t len = pread(fd, num, sizeof(num) - 1, 0);

	pwrite(fd, "0", 1, 0);
	return len > 0 ? strtoul(num, NULL, 10) : 0;
}

/* Threads of the target: they only wait. */
static void *target_thread(void *arg)
{
	pause();
	return NULL;
}

/*
 * A process with NTHREADS threads besides its main one, all asleep, that
 * exits when its control pipe closes.
 */
static void target_start(struct __test_metadata *_metadata,
			 FIXTURE_DATA(fault) *self)
{
	int ready[2], ctl[2];
	pthread_t tid;
	char c;
	int i;

	ASSERT_EQ(0, pipe(ready));
	ASSERT_EQ(0, pipe(ctl));
	self->target = fork();
	ASSERT_GE(self->target, 0);
	if (!self->target) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		close(ready[0]);
		close(ctl[1]);
		for (i = 0; i < NTHREADS; i++)
			pthread_create(&tid, NULL, target_thread, NULL);
		write(ready[1], "r", 1);
		read(ctl[0], &c, 1);
		_exit(0);
	}
	close(ready[1]);
	close(ctl[0]);
	self->target_ctl = ctl[1];
	ASSERT_EQ(1, read(ready[0], &c, 1));
	close(ready[0]);
	/* Another process is controlled by its tracer only; no stop. */
	ASSERT_EQ(0, ptrace(PTRACE_SEIZE, self->target, 0, 0));
}

/* The identity on a stopped session holds exactly. */
static void expect_identity(struct __test_metadata *_metadata,
			    const struct pnl_status *st)
{
	EXPECT_EQ(st->stats[PROFIL_STAT_TICKS], pnl_accounted(st))
		TH_LOG("ticks %llu, accounted %llu",
		       (unsigned long long)st->stats[PROFIL_STAT_TICKS],
		       (unsigned long long)pnl_accounted(st));
}

/*
 * profil_nl.h's pnl_start_set() and pnl_add_regions() without malloc():
 * nothing but the request itself may allocate while fail-nth is armed.
 */
#define MAX_REGIONS 64
static char req_buf[PNL_REGIONS_BUF(MAX_REGIONS)];

static int start_set(struct pnl *nl, const struct pnl_set *set)
{
	struct pnl_reply r = { .nl = nl };
	struct nlmsghdr *nlh;

	nlh = pnl_msg(req_buf, nl->family, PROFIL_CMD_START,
		      PROFIL_GENL_VERSION);
	pnl_put_regions(nlh, set->reg, set->n);
	mnl_attr_put_u32(nlh, PROFIL_ATTR_RATE, set->rate);
	if (set->pid)
		mnl_attr_put_u32(nlh, PROFIL_ATTR_PID, set->pid);
	return pnl_talk(nl, nlh, NULL, &r);
}

static int add_regions(struct pnl *nl, uint32_t pid,
		       const struct pnl_region *reg, unsigned int n)
{
	struct pnl_reply r = { .nl = nl };
	struct nlmsghdr *nlh;

	nlh = pnl_msg(req_buf, nl->family, PROFIL_CMD_ADD_REGIONS,
		      PROFIL_GENL_VERSION);
	pnl_put_regions(nlh, reg, n);
	mnl_attr_put_u32(nlh, PROFIL_ATTR_PID, pid);
	return pnl_talk(nl, nlh, NULL, &r);
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

/*
 * Classify @r, the result of an operation that had a failure injected:
 * success (absorbed), ENOMEM with the module's text, ENOMEM or ENOBUFS
 * from the netlink core. Anything else fails.
 */
static void walk_classify(struct __test_metadata *_metadata,
			  FIXTURE_DATA(fault) *self, struct walk_stats *w,
			  unsigned int n, int r)
{
	w->injected++;
	if (!r) {
		w->done++;
		return;
	}
	if (r == -ENOBUFS) {
		w->nobufs++;
		return;
	}
	ASSERT_EQ(-ENOMEM, r)
		TH_LOG("failure %u: %s (%s)", n, strerror(-r), self->nl.extack);
	if (self->nl.extack[0]) {
		EXPECT_EQ(0, strncmp(self->nl.extack, "profil: ", 8))
			TH_LOG("failure %u: extack \"%s\"", n, self->nl.extack);
		w->text++;
	} else {
		w->core++;
	}
}

static void walk(struct __test_metadata *_metadata, FIXTURE_DATA(fault) *self,
		 const struct walk_op *op)
{
	struct walk_stats w = {};
	unsigned int n, left;
	int r;

	/* Once unarmed first: the stack and the heap are in place. */
	if (self->nth < 0) {
		r = op->op(self, op->ctx);
		op->check(_metadata, self, op->ctx, r, false);
		note("%s: checked once, no failure injected", op->name);
		return;
	}
	for (n = 1; n <= WALK_MAX; n++) {
		ASSERT_EQ(0, nth_arm(self->nth, n));
		r = op->op(self, op->ctx);
		left = nth_disarm(self->nth);
		if (left) {
			ASSERT_EQ(0, r) TH_LOG("%s, uninjected: %s (%s)", op->name,
					       strerror(-r), self->nl.extack);
			op->check(_metadata, self, op->ctx, r, false);
			break;
		}
		walk_classify(_metadata, self, &w, n, r);
		/*
		 * A lost ACK (ENOBUFS: sk_err, reported before anything
		 * queued) can leave GET's reply behind: a new socket.
		 */
		if (r == -ENOBUFS) {
			pnl_close(&self->nl);
			ASSERT_EQ(0, pnl_open(&self->nl));
		}
		op->check(_metadata, self, op->ctx, r, true);
	}
	ASSERT_LE(n, WALK_MAX);
	note("%s: %u failures injected: %u ENOMEM with the module's text, %u ENOMEM and %u ENOBUFS from the netlink core, %u absorbed",
	       op->name, w.injected, w.text, w.core, w.nobufs, w.done);
	fflush(stdout);
	EXPECT_GT(w.injected, 0);
}

/* The target's session, or -ENOENT. */
static int target_get(FIXTURE_DATA(fault) *self, struct pnl_status *st)
{
	return pnl_get(&self->nl, self->target, st);
}

/* START of the target, and the check that a failed one left nothing. */
struct start_ctx {
	uint32_t rate;
	const struct pnl_region *reg;	/* a region set, or NULL */
	unsigned int nreg;
};

static int op_start(FIXTURE_DATA(fault) *self, void *ctx)
{
	const struct start_ctx *c = ctx;
	struct pnl_start s = {
		.buf = (uintptr_t)self->buf, .bufsiz = NBINS * 2,
		.offset = 0x400000, .scale = 0x8000, .rate = c->rate,
		.pid = self->target,
	};
	struct pnl_set set = {
		.reg = c->reg, .n = c->nreg, .rate = c->rate,
		.pid = self->target,
	};

	return c->reg ? start_set(&self->nl, &set) : pnl_start(&self->nl, &s);
}

static void check_start(struct __test_metadata *_metadata,
			FIXTURE_DATA(fault) *self, void *ctx, int r,
			bool injected)
{
	const struct start_ctx *c = ctx;
	struct pnl_status st;
	int err = target_get(self, &st);

	if (r && r != -ENOBUFS) {
		/* A failed START leaves no session, not even a stopped one. */
		ASSERT_EQ(-ENOENT, err) TH_LOG("session left, state %u", st.state);
		return;
	}
	/* ENOBUFS: the request or the ACK was lost; either is possible. */
	if (r && err == -ENOENT)
		return;
	ASSERT_EQ(0, err);
	EXPECT_EQ(PROFIL_STATE_ACTIVE, st.state);
	EXPECT_EQ(c->rate, st.rate);
	EXPECT_EQ(c->reg ? c->nreg : 1, st.nr_regions);
	ASSERT_EQ(0, pnl_stop(&self->nl, self->target));
	ASSERT_EQ(0, target_get(self, &st));
	EXPECT_EQ(PROFIL_STATE_STOPPED, st.state);
	expect_identity(_metadata, &st);
	/* A new target: the next START must find no session at all. */
	target_end(self);
	target_start(_metadata, self);
}

/* Four regions (an overflow bin among them, and an overlap). */
static void four_regions(FIXTURE_DATA(fault) *self, struct pnl_region *reg)
{
	reg[0] = (struct pnl_region){ (uintptr_t)self->buf, 1024, 0x400000,
				      0x8000 };
	reg[1] = (struct pnl_region){ (uintptr_t)self->buf + 1024, 1024,
				      0x400100, 0x10000 };
	reg[2] = (struct pnl_region){ (uintptr_t)self->buf + 2048, 2, 0, 2 };
	reg[3] = (struct pnl_region){ (uintptr_t)self->buf + 2050, 1024,
				      0x7f0000, 0x4000 };
}

TEST_F_TIMEOUT(fault, start, 120)
{
	struct pnl_region reg[4];
	struct start_ctx timer = { .rate = RATE_TIMER };
	struct start_ctx tick = { .rate = RATE_TICK };
	struct start_ctx set = { .rate = RATE_TIMER, .reg = reg, .nreg = 4 };
	struct walk_op ops[] = {
		{ "START, timer clock, 5 threads", op_start, check_start, &timer },
		{ "START, scheduler tick, 5 threads", op_start, check_start, &tick },
		{ "START, a set of 4 regions", op_start, check_start, &set },
	};
	unsigned int i;

	four_regions(self, reg);
	target_start(_metadata, self);
	for (i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
		walk(_metadata, self, &ops[i]);
}

/*
 * A restart replaces the parameters of an active session: a failed one
 * keeps the old ones (rate, buffer, set) and the session active.
 */
struct restart_ctx {
	struct start_ctx from, to;
	uint64_t from_buf, to_buf;
};

static int op_restart(FIXTURE_DATA(fault) *self, void *ctx)
{
	struct restart_ctx *c = ctx;

	return op_start(self, &c->to);
}

static void restart_from(struct __test_metadata *_metadata,
			 FIXTURE_DATA(fault) *self, struct restart_ctx *c)
{
	ASSERT_EQ(0, op_start(self, &c->from)) TH_LOG("%s", self->nl.extack);
}

static void check_restart(struct __test_metadata *_metadata,
			  FIXTURE_DATA(fault) *self, void *ctx, int r,
			  bool injected)
{
	struct restart_ctx *c = ctx;
	struct pnl_status st;
	bool old;

	ASSERT_EQ(0, target_get(self, &st));
	ASSERT_EQ(PROFIL_STATE_ACTIVE, st.state);
	old = st.rate == c->from.rate &&
	      st.nr_regions == (c->from.reg ? c->from.nreg : 1);
	if (r && r != -ENOBUFS)
		EXPECT_TRUE(old) TH_LOG("rate %u, %u regions after a failed restart",
					st.rate, st.nr_regions);
	if (!old) {
		EXPECT_EQ(c->to.rate, st.rate);
		EXPECT_EQ(c->to.reg ? c->to.nreg : 1, st.nr_regions);
	}
	if (injected && !old)
		restart_from(_metadata, self, c);
}

TEST_F_TIMEOUT(fault, restart, 120)
{
	struct pnl_region reg[4], reg6[6];
	struct restart_ctx clock = {
		.from = { .rate = RATE_TICK }, .to = { .rate = RATE_TIMER },
	};
	struct restart_ctx set = {
		.from = { .rate = RATE_TIMER, .reg = reg, .nreg = 4 },
		.to = { .rate = RATE_TIMER, .reg = reg6, .nreg = 6 },
	};
	struct walk_op ops[] = {
		{ "restart, scheduler tick to timer clock", op_restart,
		  check_restart, &clock },
		{ "restart, a set of 4 regions replaced by 6", op_restart,
		  check_restart, &set },
	};
	struct pnl_status st;
	unsigned int i;

	four_regions(self, reg);
	memcpy(reg6, reg, sizeof(reg));
	reg6[4] = (struct pnl_region){ (uintptr_t)self->buf2, 2048, 0x500000,
				       0x10000 };
	reg6[5] = (struct pnl_region){ (uintptr_t)self->buf2 + 2048, 2048,
				       0x400000, 0x8000 };
	target_start(_metadata, self);
	for (i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
		restart_from(_metadata, self, ops[i].ctx);
		walk(_metadata, self, &ops[i]);
		ASSERT_EQ(0, pnl_stop(&self->nl, self->target));
		ASSERT_EQ(0, target_get(self, &st));
		expect_identity(_metadata, &st);
	}
}

/*
 * A set of 200 one-counter regions on the target, in four requests (the
 * messages stay under NLMSG_GOODSIZE): big enough that the set's
 * kvzalloc() takes the vmalloc fallback when its kmalloc fails.
 */
static void set200(struct __test_metadata *_metadata,
		   FIXTURE_DATA(fault) *self)
{
	static struct pnl_region reg[50];
	struct pnl_set set = { .reg = reg, .n = 50, .rate = RATE_TIMER,
			       .pid = self->target };
	unsigned int i, j;

	for (j = 0; j < 4; j++) {
		for (i = 0; i < 50; i++)
			reg[i] = (struct pnl_region){
				(uintptr_t)self->buf + 2 * (50 * j + i) * 8, 8,
				0x400000 + 0x1000 * (50 * j + i), 0x10000 };
		if (!j) {
			ASSERT_EQ(0, start_set(&self->nl, &set));
		} else {
			ASSERT_EQ(0, add_regions(&self->nl, self->target, reg,
						 50));
		}
	}
}

/* ADD_REGIONS extends the set in one step, or not at all. */
static struct pnl_region add_reg[3];

static int op_add(FIXTURE_DATA(fault) *self, void *ctx)
{
	return add_regions(&self->nl, self->target, add_reg, 3);
}

/* @ctx: the size of the set before; set200() or the four regions. */
static void check_add(struct __test_metadata *_metadata,
		      FIXTURE_DATA(fault) *self, void *ctx, int r,
		      bool injected)
{
	uint32_t nr = *(uint32_t *)ctx;
	struct pnl_region reg[4];
	struct start_ctx set = { .rate = RATE_TIMER, .reg = reg, .nreg = 4 };
	struct pnl_status st;

	ASSERT_EQ(0, target_get(self, &st));
	ASSERT_EQ(PROFIL_STATE_ACTIVE, st.state);
	if (r && r != -ENOBUFS) {
		EXPECT_EQ(nr, st.nr_regions);
	} else if (!r) {
		EXPECT_EQ(nr + 3, st.nr_regions);
	}
	if (!injected || st.nr_regions == nr)
		return;
	/* Back to the set before, for the next failure. */
	if (nr == 4) {
		four_regions(self, reg);
		ASSERT_EQ(0, op_start(self, &set));
	} else {
		set200(_metadata, self);
	}
}

TEST_F_TIMEOUT(fault, add_regions, 240)
{
	static uint32_t four = 4, two_hundred = 200;
	struct pnl_region reg[4];
	struct start_ctx set = { .rate = RATE_TIMER, .reg = reg, .nreg = 4 };
	struct walk_op small = { "ADD_REGIONS, 3 to a set of 4", op_add,
				 check_add, &four };
	struct walk_op big = { "ADD_REGIONS, 3 to a set of 200 (vmalloc)",
			       op_add, check_add, &two_hundred };
	struct pnl_status st;
	unsigned int i;

	four_regions(self, reg);
	for (i = 0; i < 3; i++)
		add_reg[i] = (struct pnl_region){
			(uintptr_t)self->buf2 + 1024 * i, 1024,
			0x600000 + 0x10000 * i, 0x10000 };
	target_start(_metadata, self);
	ASSERT_EQ(0, op_start(self, &set));
	walk(_metadata, self, &small);
	set200(_metadata, self);
	walk(_metadata, self, &big);
	ASSERT_EQ(0, pnl_stop(&self->nl, self->target));
	ASSERT_EQ(0, target_get(self, &st));
	expect_identity(_metadata, &st);
}

/*
 * Dumps: the sessions (GET with NLM_F_DUMP) and a set of 200 regions
 * (GET_REGIONS, several messages). A failed dump leaves the socket with a
 * dump in progress: each attempt gets a fresh socket, made unarmed.
 */
struct dump_ctx {
	struct pnl nl;
	unsigned int seen;	/* the target's sessions, or regions */
	unsigned int expect;	/* what a whole dump sees */
	pid_t pid;
};

static void dump_cb(const struct pnl_status *st, void *data)
{
	struct dump_ctx *c = data;

	if (st->pid == (uint32_t)c->pid)
		c->seen++;
}

static void region_cb(const struct pnl_region *r, void *data)
{
	struct dump_ctx *c = data;

	c->seen++;
}

static int op_dump(FIXTURE_DATA(fault) *self, void *ctx)
{
	struct dump_ctx *c = ctx;

	return pnl_dump(&c->nl, dump_cb, c);
}

static int op_dump_regions(FIXTURE_DATA(fault) *self, void *ctx)
{
	struct dump_ctx *c = ctx;

	return pnl_get_regions(&c->nl, c->pid, region_cb, c, NULL, NULL);
}

static void check_dump(struct __test_metadata *_metadata,
		       FIXTURE_DATA(fault) *self, void *ctx, int r,
		       bool injected)
{
	struct dump_ctx *c = ctx;
	struct pnl_status st;

	/* A dump that ended well saw everything. */
	if (!r)
		EXPECT_EQ(c->expect, c->seen);
	/* The session is untouched by a dump, failed or not. */
	ASSERT_EQ(0, target_get(self, &st));
	ASSERT_EQ(PROFIL_STATE_ACTIVE, st.state);
	EXPECT_EQ(200, st.nr_regions);
	pnl_close(&c->nl);
	ASSERT_EQ(0, pnl_open(&c->nl));
	c->seen = 0;
}

TEST_F_TIMEOUT(fault, dumps, 120)
{
	struct dump_ctx sessions = {}, regions = {};
	struct walk_op dump = { "GET dump of the sessions", op_dump,
				check_dump, &sessions };
	struct walk_op dump_regions = { "GET_REGIONS dump of 200 regions",
					op_dump_regions, check_dump, &regions };

	target_start(_metadata, self);
	set200(_metadata, self);
	sessions.pid = regions.pid = self->target;
	sessions.expect = 1;
	regions.expect = 200;
	ASSERT_EQ(0, pnl_open(&sessions.nl));
	ASSERT_EQ(0, pnl_open(&regions.nl));
	/* Unarmed first: the walks' last, uninjected, dumps see as much. */
	ASSERT_EQ(0, op_dump(self, &sessions));
	EXPECT_EQ(1, sessions.seen);
	ASSERT_EQ(0, op_dump_regions(self, &regions));
	EXPECT_EQ(200, regions.seen);
	regions.seen = sessions.seen = 0;
	walk(_metadata, self, &dump);
	walk(_metadata, self, &dump_regions);
	pnl_close(&sessions.nl);
	pnl_close(&regions.nl);
}

/* GET: the reply is the module's allocation. */
static int op_get(FIXTURE_DATA(fault) *self, void *ctx)
{
	return target_get(self, ctx);
}

static void check_get(struct __test_metadata *_metadata,
		      FIXTURE_DATA(fault) *self, void *ctx, int r,
		      bool injected)
{
	struct pnl_status *st = ctx;

	if (!r) {
		EXPECT_EQ(PROFIL_STATE_ACTIVE, st->state);
		EXPECT_EQ(RATE_TIMER, st->rate);
	}
}

TEST_F(fault, get)
{
	struct start_ctx timer = { .rate = RATE_TIMER };
	struct pnl_status st;
	struct walk_op op = { "GET", op_get, check_get, &st };

	target_start(_metadata, self);
	ASSERT_EQ(0, op_start(self, &timer));
	walk(_metadata, self, &op);
	ASSERT_EQ(0, pnl_stop(&self->nl, self->target));
}

/*
 * A spin of about @secs of the thread's CPU time in a function of its
 * own, whose address the user-write tests count on.
 */
__attribute__((noinline, aligned(64))) static void spin(double secs)
{
	double end = thread_cpu() + secs;
	volatile unsigned long n = 0;
	int i;

	while (thread_cpu() < end)
		for (i = 0; i < 20000; i++)
			n++;
}

/* The caller's own session, counting PCs near spin() into @buf. */
static int start_self(FIXTURE_DATA(fault) *self, uint16_t *buf, uint32_t rate)
{
	struct pnl_start s = {
		.buf = (uintptr_t)buf, .bufsiz = NBINS * 2,
		.offset = ((uintptr_t)spin & ~0xfffUL) - 0x1000,
		.scale = 0x10000, .rate = rate,
	};

	return pnl_start(&self->nl, &s);
}

static pthread_t clone_tid;

static void *nop_thread(void *arg)
{
	return NULL;
}

/* A clone in a profiled process: the parent's next spare record. */
static int op_clone(FIXTURE_DATA(fault) *self, void *ctx)
{
	return -pthread_create(&clone_tid, NULL, nop_thread, NULL);
}

static void check_clone(struct __test_metadata *_metadata,
			FIXTURE_DATA(fault) *self, void *ctx, int r,
			bool injected)
{
	struct pnl_status st;

	if (!r)
		pthread_join(clone_tid, NULL);
	/* clone()'s own failure: glibc says EAGAIN. */
	if (r != -EAGAIN)
		ASSERT_TRUE(!r || r == -ENOMEM) TH_LOG("%s", strerror(-r));
	ASSERT_EQ(0, pnl_get(&self->nl, 0, &st));
	EXPECT_EQ(PROFIL_STATE_ACTIVE, st.state);
}

TEST_F_TIMEOUT(fault, thread_clone, 120)
{
	struct walk_op op = { "clone of a thread, profiled process", NULL,
			      check_clone, NULL };
	struct pnl_status st;
	unsigned int n, left, injected = 0;
	int r;

	ASSERT_EQ(0, start_self(self, self->buf, RATE_TICK));
	/* pthread_create()'s EAGAIN is not netlink's: a walk of its own. */
	if (self->nth < 0) {
		check_clone(_metadata, self, NULL, op_clone(self, NULL), false);
		note("%s: checked once, no failure injected", op.name);
	}
	for (n = 1; self->nth >= 0 && n <= WALK_MAX; n++) {
		ASSERT_EQ(0, nth_arm(self->nth, n));
		r = op_clone(self, NULL);
		left = nth_disarm(self->nth);
		check_clone(_metadata, self, NULL, r, !left);
		if (left) {
			ASSERT_EQ(0, r);
			note("%s: %u failures injected", op.name, injected);
			break;
		}
		injected++;
	}
	ASSERT_LE(n, WALK_MAX);
	ASSERT_EQ(0, pnl_stop(&self->nl, 0));
	ASSERT_EQ(0, pnl_get(&self->nl, 0, &st));
	expect_identity(_metadata, &st);
}

/*
 * The fork attach runs in the child, before its first user instruction,
 * where its own fail-nth (0 at fork) cannot be written from inside. The
 * parent, SCHED_FIFO on one CPU, writes it after fork() returns and
 * before the child (SCHED_OTHER: SCHED_RESET_ON_FORK) can run there; the
 * child stops itself at once, and the parent reads what was left. A
 * child whose attach failed is not profiled (no session), as documented;
 * one whose failure came after its attach (the SIGSTOP's siginfo) is.
 */
static pid_t fork_stopped(struct __test_metadata *_metadata, unsigned int n,
			  unsigned int *left)
{
	char path[64];
	int status, fd;
	pid_t pid;

	pid = fork();
	ASSERT_GE(pid, 0);
	if (!pid) {
		syscall(SYS_kill, syscall(SYS_getpid), SIGSTOP);
		_exit(0);
	}
	snprintf(path, sizeof(path), "/proc/%d/fail-nth", pid);
	fd = open(path, O_RDWR);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, nth_arm(fd, n));
	ASSERT_EQ(pid, waitpid(pid, &status, WUNTRACED));
	ASSERT_TRUE(WIFSTOPPED(status));
	*left = nth_disarm(fd);
	close(fd);
	return pid;
}

static void fork_reap(pid_t pid)
{
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
}

/*
 * Run on this CPU only, SCHED_FIFO (not inherited): a child or thread
 * made now does not run before this thread lets it, so that this thread
 * can write its fail-nth first. @cpus keeps the affinity to restore.
 */
static int pin_fifo(cpu_set_t *cpus)
{
	struct sched_param rt = { .sched_priority = 1 };
	cpu_set_t one;

	if (sched_getaffinity(0, sizeof(*cpus), cpus))
		return -1;
	CPU_ZERO(&one);
	CPU_SET(sched_getcpu(), &one);
	if (sched_setaffinity(0, sizeof(one), &one))
		return -1;
	return sched_setscheduler(0, SCHED_FIFO | SCHED_RESET_ON_FORK, &rt);
}

/* Back to SCHED_OTHER on the CPUs of @cpus. */
static void unpin(const cpu_set_t *cpus)
{
	struct sched_param other = {};

	sched_setscheduler(0, SCHED_OTHER, &other);
	sched_setaffinity(0, sizeof(*cpus), cpus);
}

TEST_F_TIMEOUT(fault, fork_attach, 240)
{
	unsigned int n, left, injected = 0, unprofiled = 0;
	struct pnl_status st;
	cpu_set_t cpus;
	pid_t pid;
	int err;

	ASSERT_EQ(0, start_self(self, self->buf, RATE_TICK));
	if (self->nth < 0) {
		/* The child has attached once it stops itself. */
		pid = fork();
		ASSERT_GE(pid, 0);
		if (!pid) {
			raise(SIGSTOP);
			_exit(0);
		}
		ASSERT_EQ(pid, waitpid(pid, &err, WUNTRACED));
		err = pnl_get(&self->nl, pid, &st);
		fork_reap(pid);
		ASSERT_EQ(0, err);
		EXPECT_EQ(PROFIL_STATE_ACTIVE, st.state);
		note("fork attach: checked once, no failure injected");
		return;
	}
	ASSERT_EQ(0, pin_fifo(&cpus));
	for (n = 1; n <= WALK_MAX; n++) {
		pid = fork_stopped(_metadata, n, &left);
		err = pnl_get(&self->nl, pid, &st);
		fork_reap(pid);
		if (left) {
			ASSERT_EQ(0, err);
			EXPECT_EQ(PROFIL_STATE_ACTIVE, st.state);
			EXPECT_EQ(RATE_TICK, st.rate);
			break;
		}
		injected++;
		if (err == -ENOENT) {
			unprofiled++;
			continue;
		}
		ASSERT_EQ(0, err);
		EXPECT_EQ(PROFIL_STATE_ACTIVE, st.state);
	}
	unpin(&cpus);
	ASSERT_LE(n, WALK_MAX);
	note("fork attach, in the child: %u failures injected, %u children not profiled",
	       injected, unprofiled);
	EXPECT_GT(unprofiled, 0);
	ASSERT_EQ(0, pnl_stop(&self->nl, 0));
	ASSERT_EQ(0, pnl_get(&self->nl, 0, &st));
	expect_identity(_metadata, &st);
}

/*
 * The thread attach runs in the new thread, as the fork attach does in
 * the child: a raw clone() (its tid known before it runs), the same
 * SCHED_FIFO parent on one CPU. Whether the thread was profiled shows in
 * the counters over spin(), which only the thread runs while the parent
 * sleeps: a thread whose attach failed is not profiled, as documented.
 */
static uint64_t buf_sum(const uint16_t *buf);

struct raw_thread {
	int efd;		/* the thread has spun */
	int go;			/* futex: the thread may exit */
	pid_t ctid;		/* cleared by the kernel at the thread's exit */
	char *stack;
};

static int raw_thread_fn(void *arg)
{
	struct raw_thread *rt = arg;
	uint64_t one = 1;

	spin(0.05);
	syscall(SYS_write, rt->efd, &one, sizeof(one));
	while (!__atomic_load_n(&rt->go, __ATOMIC_ACQUIRE))
		syscall(SYS_futex, &rt->go, FUTEX_WAIT_PRIVATE, 0, NULL, NULL,
			0);
	syscall(SYS_exit, 0);
	return 0;
}

#define RAW_STACK (256 * 1024)

/* Start a raw thread with fail-nth @n; return its fail-nth left. */
static unsigned int raw_thread_run(struct __test_metadata *_metadata,
				   struct raw_thread *rt, unsigned int n)
{
	int flags = CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND |
		    CLONE_THREAD | CLONE_SYSVSEM | CLONE_CHILD_CLEARTID |
		    CLONE_PARENT_SETTID;
	unsigned int left;
	char path[64];
	uint64_t val;
	pid_t tid;
	int fd;

	rt->go = 0;
	tid = clone(raw_thread_fn, rt->stack + RAW_STACK, flags, rt,
		    &rt->ctid, NULL, &rt->ctid);
	ASSERT_LT(0, tid);
	/* n = 0: no fail-nth on this kernel. */
	snprintf(path, sizeof(path), "/proc/self/task/%d/fail-nth", tid);
	fd = n ? open(path, O_RDWR) : -1;
	if (n) {
		ASSERT_LE(0, fd);
		ASSERT_EQ(0, nth_arm(fd, n));
	}
	ASSERT_EQ(sizeof(val), read(rt->efd, &val, sizeof(val)));
	left = n ? nth_disarm(fd) : 1;
	if (n)
		close(fd);
	__atomic_store_n(&rt->go, 1, __ATOMIC_RELEASE);
	syscall(SYS_futex, &rt->go, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
	while ((tid = __atomic_load_n(&rt->ctid, __ATOMIC_ACQUIRE)))
		syscall(SYS_futex, &rt->ctid, FUTEX_WAIT, tid, NULL, NULL, 0);
	return left;
}

/* The caller's session, counting only spin()'s own PCs into @buf. */
static int start_spin(FIXTURE_DATA(fault) *self, uint16_t *buf, uint32_t rate)
{
	struct pnl_start s = {
		.buf = (uintptr_t)buf, .bufsiz = 1024,
		.offset = (uintptr_t)spin, .scale = 0x10000, .rate = rate,
	};

	return pnl_start(&self->nl, &s);
}

TEST_F_TIMEOUT(fault, thread_attach, 240)
{
	unsigned int n, left, injected = 0, unprofiled = 0;
	struct raw_thread rt = {};
	uint64_t before, after;
	struct pnl_status st;
	cpu_set_t cpus;

	rt.efd = eventfd(0, 0);
	ASSERT_LE(0, rt.efd);
	rt.stack = mmap(NULL, RAW_STACK, PROT_READ | PROT_WRITE,
			MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	ASSERT_NE(MAP_FAILED, rt.stack);
	ASSERT_EQ(0, start_spin(self, self->buf, RATE_TIMER));
	if (self->nth < 0) {
		before = buf_sum(self->buf);
		raw_thread_run(_metadata, &rt, 0);
		EXPECT_LT(before, buf_sum(self->buf));
		note("thread attach: checked once, no failure injected");
		return;
	}
	ASSERT_EQ(0, pin_fifo(&cpus));
	for (n = 1; n <= WALK_MAX; n++) {
		before = buf_sum(self->buf);
		left = raw_thread_run(_metadata, &rt, n);
		after = buf_sum(self->buf);
		if (left) {
			EXPECT_LT(before, after) TH_LOG("thread not profiled");
			break;
		}
		injected++;
		unprofiled += before == after;
	}
	unpin(&cpus);
	ASSERT_LE(n, WALK_MAX);
	note("thread attach, in the thread: %u failures injected, %u threads not profiled",
	     injected, unprofiled);
	EXPECT_GT(unprofiled, 0);
	ASSERT_EQ(0, pnl_stop(&self->nl, 0));
	ASSERT_EQ(0, pnl_get(&self->nl, 0, &st));
	expect_identity(_metadata, &st);
	EXPECT_EQ(st.stats[PROFIL_STAT_IN_RANGE], buf_sum(self->buf));
}

static uint64_t buf_sum(const uint16_t *buf)
{
	uint64_t sum = 0;
	unsigned int i;

	for (i = 0; i < NBINS; i++)
		sum += buf[i];
	return sum;
}

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
