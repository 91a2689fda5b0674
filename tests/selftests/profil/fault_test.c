// SPDX-License-Identifier: GPL-2.0
/*
 * Fault injection (make check-debug), the request paths: every
 * allocation of START (each clock, a region set), a restart, ADD_REGIONS
 * (to a small set and to a set of 200, which takes the vmalloc
 * fallback), the dumps of the sessions and of 200 regions, and GET fails
 * once, through /proc/thread-self/fail-nth, and every failure must end
 * in a clean errno (ENOMEM with the module's extack text, or the netlink
 * core's own ENOMEM/ENOBUFS), with no session left behind, the old
 * parameters kept, and the accounting identity intact; the log must stay
 * clean and kmemleak quiet (the guest harness checks both). The walk and
 * the fixture: profil_fault_fixture.h. The attaches: fault_attach_test;
 * the writes to user memory: fault_user_test.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>

#include "profil_fault_fixture.h"

/* What a walk saw: how its injected failures ended. */
struct walk_stats {
	unsigned int injected;	/* failures injected */
	unsigned int text;	/* ENOMEM with the module's extack text */
	unsigned int core;	/* ENOMEM from the netlink core, no text */
	unsigned int nobufs;	/* ENOBUFS: a socket buffer (request or ack) */
	unsigned int done;	/* succeeded all the same (a failure it absorbs) */
};

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

PROFIL_HARNESS_MAIN
