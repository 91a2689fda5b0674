// SPDX-License-Identifier: GPL-2.0
/*
 * Region sets (glibc's sprofil() model) through the netlink family:
 * overlap resolution, the overflow bin, ignored scales, counter widths,
 * wrap and saturate modes, replacement and extension while running with
 * exact accounting, the region dump, PROFIL_F_NO_INHERIT, and fork
 * children of a process whose buffer is shared with them.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/wait.h>

#include "profil_harness.h"
#include "profil_nl.h"
#include "profil_util.h"

#define RATE_TICK	100
#define RATE_TIMER	2000

/*
 * A loop of two known instructions, as in profil_workload.h: a tick of a
 * thread running it lands on rl_cmp (7 bytes) or rl_jmp, or once on
 * rl_ret.
 */
volatile char rl_stop;
extern const char rl_loop[], rl_cmp[], rl_jmp[], rl_ret[];
asm(".pushsection .text.rl_loop, \"ax\", @progbits\n"
    ".globl rl_loop\n"
    ".type rl_loop, @function\n"
    ".p2align 6\n"
    ".skip 64, 0xcc\n"
    "rl_loop:\n"
    "rl_cmp: cmpb $0, rl_stop(%rip)\n"
    "rl_jmp: je rl_cmp\n"
    "rl_ret: ret\n"
    ".size rl_loop, . - rl_loop\n"
    ".skip 1024, 0xcc\n"
    ".popsection\n");

static void *loop_thread(void *arg)
{
	((void (*)(void))rl_loop)();
	return NULL;
}

/*
 * Run the loop in a thread until the session took @ticks in user mode (or
 * 10 s of CPU), counted by the kernel rather than expected from the CPU
 * time: a starved vCPU's late clock takes fewer. The main thread's own
 * ticks are kernel-mode ticks of its GETs, which a KASAN kernel makes
 * long: they are left out, and it polls only every 50 ms, so that the
 * loop's share of the user-mode ticks stays near all of them.
 */
static void run_loop(struct __test_metadata *_metadata, struct pnl *nl,
		     uint64_t ticks)
{
	struct pnl_status st;
	pthread_t tid;
	double start;

	rl_stop = 0;
	ASSERT_EQ(0, pthread_create(&tid, NULL, loop_thread, NULL));
	for (start = process_cpu(); process_cpu() - start < 10.0;) {
		usleep(50000);
		ASSERT_EQ(0, pnl_get(nl, 0, &st));
		if (st.stats[PROFIL_STAT_TICKS] -
		    st.stats[PROFIL_STAT_SYSTEM_DROPPED] >= ticks)
			break;
	}
	rl_stop = 1;
	pthread_join(tid, NULL);
}

static uint64_t sum16(const uint16_t *b, size_t n)
{
	uint64_t s = 0;

	while (n--)
		s += b[n];
	return s;
}

/* Stop, then TICKS is accounted for exactly; return the status. */
static void stop_exact(struct __test_metadata *_metadata, struct pnl *nl,
		       struct pnl_status *st)
{
	ASSERT_EQ(0, pnl_stop(nl, 0));
	ASSERT_EQ(0, pnl_get(nl, 0, st));
	EXPECT_EQ(0, st->stats[PROFIL_STAT_PENDING]);
	EXPECT_EQ(st->stats[PROFIL_STAT_TICKS], pnl_accounted(st));
}

static uint64_t base(void)
{
	return (uintptr_t)rl_cmp;
}

FIXTURE(rs) {
	struct pnl nl;
	uint16_t a[256], b[256], c[256];
};

FIXTURE_SETUP(rs)
{
	int err = pnl_open(&self->nl);

	ASSERT_EQ(0, err) TH_LOG("family: %s", strerror(-err));
	memset(self->a, 0, sizeof(self->a));
	memset(self->b, 0, sizeof(self->b));
	memset(self->c, 0, sizeof(self->c));
}

FIXTURE_TEARDOWN(rs)
{
	pnl_stop(&self->nl, 0);
	pnl_close(&self->nl);
}

static struct pnl_region reg(const void *buf, uint64_t size, uint64_t offset,
			     uint32_t scale)
{
	return (struct pnl_region){ (uintptr_t)buf, size, offset, scale };
}

/*
 * Where regions overlap, the higher offset wins; at equal offsets the one
 * given first. H covers [cmp, cmp + 8) and owns cmp and jmp; E, same
 * offset, given after it, gets nothing; L, lower, keeps only what H leaves.
 */
TEST_F(rs, higher_offset_wins)
{
	struct pnl_region r[] = {
		reg(self->a, sizeof(self->a), base() - 64, 0x10000),	/* L */
		reg(self->b, 8, base(), 0x10000),			/* H */
		reg(self->c, 8, base(), 0x10000),			/* E */
	};
	struct pnl_set set = { .reg = r, .n = 3, .rate = RATE_TICK };
	struct pnl_status st;

	ASSERT_EQ(0, pnl_start_set(&self->nl, &set)) TH_LOG("%s",
							   self->nl.extack);
	run_loop(_metadata, &self->nl, 60);
	stop_exact(_metadata, &self->nl, &st);
	EXPECT_EQ(0, self->a[32]);		/* cmp: H's */
	EXPECT_EQ(0, self->a[35]);		/* jmp: H's */
	EXPECT_GE(self->b[0] + self->b[3], 50);
	EXPECT_EQ(0, sum16(self->c, 256));
	EXPECT_EQ(3, st.nr_regions);
	EXPECT_EQ(st.stats[PROFIL_STAT_IN_RANGE],
		  sum16(self->a, 256) + sum16(self->b, 256));
}

/*
 * A lower region fills the gaps around higher ones: H1 ends below the
 * loop and H2 starts above it, so the loop's ticks go to L, between them.
 * (Under TCG every tick of the loop lands on rl_cmp, the start of its
 * translation block.)
 */
TEST_F(rs, lower_region_fills_gaps)
{
	struct pnl_region r[] = {
		reg(self->b, 2, base() - 32, 0x10000),			/* H1 */
		reg(self->c, 2, base() + 16, 0x10000),			/* H2 */
		reg(self->a, sizeof(self->a), base() - 64, 0x10000),	/* L */
	};
	struct pnl_set set = { .reg = r, .n = 3, .rate = RATE_TICK };
	struct pnl_status st;

	ASSERT_EQ(0, pnl_start_set(&self->nl, &set));
	run_loop(_metadata, &self->nl, 60);
	stop_exact(_metadata, &self->nl, &st);
	EXPECT_GE(self->a[32] + self->a[35], 50);	/* cmp, jmp: L's */
	EXPECT_EQ(0, self->b[0]);
	EXPECT_EQ(0, self->c[0]);
	EXPECT_EQ(st.stats[PROFIL_STAT_IN_RANGE],
		  sum16(self->a, 256) + self->b[0] + self->c[0]);
}

/*
 * PCs in no region go to the overflow bin (offset 0, scale 2), counted in
 * OVERFLOW; a region with a scale below 2 is ignored.
 */
TEST_F(rs, overflow_bin_and_small_scales)
{
	struct pnl_region r[] = {
		reg(self->a, sizeof(self->a), base() - 64, 1),	/* ignored */
		reg(self->b, sizeof(self->b), base() + 4096, 0x10000),
		reg(self->c, 2, 0, 2),				/* overflow */
	};
	struct pnl_set set = { .reg = r, .n = 3, .rate = RATE_TICK };
	struct pnl_status st;

	ASSERT_EQ(0, pnl_start_set(&self->nl, &set));
	run_loop(_metadata, &self->nl, 60);
	stop_exact(_metadata, &self->nl, &st);
	EXPECT_EQ(0, sum16(self->a, 256));
	EXPECT_GE(self->c[0], 50);
	EXPECT_EQ(self->c[0], st.stats[PROFIL_STAT_OVERFLOW]);
	EXPECT_EQ(0, st.stats[PROFIL_STAT_OUT_OF_RANGE]);
	EXPECT_EQ(st.stats[PROFIL_STAT_IN_RANGE],
		  sum16(self->b, 256) + self->c[0]);
}

/* Without an overflow bin, they are OUT_OF_RANGE. */
TEST_F(rs, no_overflow_bin)
{
	struct pnl_region r[] = {
		reg(self->b, sizeof(self->b), base() + 4096, 0x10000),
	};
	struct pnl_set set = { .reg = r, .n = 1, .rate = RATE_TICK };
	struct pnl_status st;

	ASSERT_EQ(0, pnl_start_set(&self->nl, &set));
	run_loop(_metadata, &self->nl, 60);
	stop_exact(_metadata, &self->nl, &st);
	EXPECT_EQ(0, st.stats[PROFIL_STAT_OVERFLOW]);
	EXPECT_GE(st.stats[PROFIL_STAT_OUT_OF_RANGE], 50);
	EXPECT_EQ(st.stats[PROFIL_STAT_IN_RANGE], sum16(self->b, 256));
}

/* With u32 counters the index divides by 4: cmp - 8 puts cmp in bin 2. */
TEST_F(rs, u32_index)
{
	static uint32_t buf[64];
	struct pnl_region r[] = { reg(buf, sizeof(buf), base() - 8, 0x10000) };
	struct pnl_set set = { .reg = r, .n = 1, .rate = RATE_TICK,
			       .counter = PROFIL_COUNTER_U32 };
	struct pnl_status st;
	uint64_t sum = 0;
	int i;

	memset(buf, 0, sizeof(buf));
	ASSERT_EQ(0, pnl_start_set(&self->nl, &set));
	ASSERT_EQ(0, pnl_get(&self->nl, 0, &st));
	EXPECT_EQ(PROFIL_COUNTER_U32, st.counter);
	run_loop(_metadata, &self->nl, 60);
	stop_exact(_metadata, &self->nl, &st);
	for (i = 0; i < 64; i++) {
		sum += buf[i];
		if (i < 2 || i > 4) {
			EXPECT_EQ(0, buf[i]) TH_LOG("bin %d", i);
		}
	}
	EXPECT_LE(buf[4], 1);			/* the ret, once */
	EXPECT_GE(buf[2] + buf[3], 50);
	EXPECT_EQ(st.stats[PROFIL_STAT_IN_RANGE], sum);
}

/*
 * One counter (scale 2) over the loop, one below its maximum: saturate
 * stops it there and counts the rest in SATURATED; wrap goes round.
 */
FIXTURE(mode) {
	struct pnl nl;
};

FIXTURE_VARIANT(mode) {
	uint32_t counter, mode;
};

FIXTURE_VARIANT_ADD(mode, u16_saturate) {
	.counter = PROFIL_COUNTER_U16, .mode = PROFIL_MODE_SATURATE };
FIXTURE_VARIANT_ADD(mode, u32_saturate) {
	.counter = PROFIL_COUNTER_U32, .mode = PROFIL_MODE_SATURATE };
FIXTURE_VARIANT_ADD(mode, u16_wrap) {
	.counter = PROFIL_COUNTER_U16, .mode = PROFIL_MODE_WRAP };
FIXTURE_VARIANT_ADD(mode, u32_wrap) {
	.counter = PROFIL_COUNTER_U32, .mode = PROFIL_MODE_WRAP };

FIXTURE_SETUP(mode)
{
	ASSERT_EQ(0, pnl_open(&self->nl));
}

FIXTURE_TEARDOWN(mode)
{
	pnl_stop(&self->nl, 0);
	pnl_close(&self->nl);
}

TEST_F(mode, full_counter)
{
	static union { uint16_t u16; uint32_t u32; } ctr;
	bool u32 = variant->counter == PROFIL_COUNTER_U32;
	uint64_t max = u32 ? 0xffffffffULL : 0xffff, got;
	struct pnl_region r[] = {
		reg(&ctr, u32 ? 4 : 2, base() - 64, 2),
	};
	struct pnl_set set = { .reg = r, .n = 1, .rate = RATE_TICK,
			       .counter = variant->counter,
			       .mode = variant->mode };
	struct pnl_status st;

	if (u32)
		ctr.u32 = max - 1;
	else
		ctr.u16 = max - 1;
	ASSERT_EQ(0, pnl_start_set(&self->nl, &set));
	run_loop(_metadata, &self->nl, 30);
	stop_exact(_metadata, &self->nl, &st);
	EXPECT_EQ(variant->mode, st.mode);
	got = u32 ? ctr.u32 : ctr.u16;
	EXPECT_GE(st.stats[PROFIL_STAT_TICKS], 30);
	if (variant->mode == PROFIL_MODE_SATURATE) {
		EXPECT_EQ(max, got);
		EXPECT_EQ(1, st.stats[PROFIL_STAT_IN_RANGE]);
		EXPECT_GE(st.stats[PROFIL_STAT_SATURATED], 20);
	} else {
		EXPECT_EQ(0, st.stats[PROFIL_STAT_SATURATED]);
		EXPECT_GE(st.stats[PROFIL_STAT_IN_RANGE], 20);
		EXPECT_EQ((st.stats[PROFIL_STAT_IN_RANGE] + max - 1) & max,
			  got);
	}
}

/*
 * A running set is replaced (START) and extended (ADD_REGIONS) over and
 * over while a thread ticks: every tick lands in one set, so the
 * accounting stays exact and the buffers hold IN_RANGE.
 */
FIXTURE(replace) {
	struct pnl nl;
};

FIXTURE_VARIANT(replace) {
	uint32_t rate;
};

FIXTURE_VARIANT_ADD(replace, tick_clock) { .rate = RATE_TICK };
FIXTURE_VARIANT_ADD(replace, timer_clock) { .rate = RATE_TIMER };

FIXTURE_SETUP(replace)
{
	ASSERT_EQ(0, pnl_open(&self->nl));
}

FIXTURE_TEARDOWN(replace)
{
	pnl_stop(&self->nl, 0);
	pnl_close(&self->nl);
}

TEST_F(replace, while_running)
{
	static uint16_t bufs[4][256], ovf[2];
	struct pnl_region r[3];
	struct pnl_set set = { .reg = r, .n = 2, .rate = variant->rate };
	struct pnl_status st;
	uint64_t sum = 0;
	pthread_t tid;
	double start;
	int i, rounds;

	memset(bufs, 0, sizeof(bufs));
	memset(ovf, 0, sizeof(ovf));
	rl_stop = 0;
	ASSERT_EQ(0, pthread_create(&tid, NULL, loop_thread, NULL));
	/*
	 * 60 rounds of 10 ms of the process's CPU, and on until the clock
	 * has accounted for 20 periods and the extended sets have ticks,
	 * counted by the kernel rather than expected from the CPU time: the
	 * first tick after each restart only resynchronises, so the periods
	 * a starved vCPU's late clock skipped go uncounted in MISSED. 10 s
	 * of CPU at most.
	 */
	for (i = 0, start = process_cpu();; i++) {
		if (i >= 60 && i % 2 == 0) {
			ASSERT_EQ(0, pnl_get(&self->nl, 0, &st));
			if ((pnl_periods(&st) > 20 &&
			     sum16(bufs[2], 256) + sum16(bufs[3], 256) > 0) ||
			    process_cpu() - start > 10.0)
				break;
		}
		/* Alternate sets; the even ones get extended. */
		r[0] = reg(bufs[i % 2], 512, base() + 4096, 0x10000);
		r[1] = reg(&ovf[i % 2], 2, 0, 2);
		ASSERT_EQ(0, pnl_start_set(&self->nl, &set));
		usleep(2000);
		if (i % 2 == 0) {
			r[2] = reg(bufs[2 + (i / 2) % 2], 512, base() - 64,
				   0x10000);
			ASSERT_EQ(0, pnl_add_regions(&self->nl, 0, &r[2], 1));
		}
		while (process_cpu() - start < (i + 1) * 0.01)
			;
	}
	rounds = i;
	rl_stop = 1;
	pthread_join(tid, NULL);
	stop_exact(_metadata, &self->nl, &st);
	for (i = 0; i < 4; i++)
		sum += sum16(bufs[i], 256);
	sum += ovf[0] + ovf[1];
	EXPECT_GT(pnl_periods(&st), 20)
		TH_LOG("%llu ticks and %llu missed in %d rounds",
		       (unsigned long long)st.stats[PROFIL_STAT_TICKS],
		       (unsigned long long)st.stats[PROFIL_STAT_MISSED], rounds);
	EXPECT_EQ(st.stats[PROFIL_STAT_IN_RANGE], sum);
	EXPECT_EQ(sum16(bufs[2], 256) + sum16(bufs[3], 256) > 0, 1);
}

struct collect {
	struct pnl_region *r;
	unsigned int n, max;
};

static void collect_cb(const struct pnl_region *r, void *data)
{
	struct collect *c = data;

	if (c->n < c->max)
		c->r[c->n] = *r;
	c->n++;
}

/* ADD_REGIONS appends; GET counts and GET_REGIONS lists them in order. */
TEST_F(rs, add_regions_then_list)
{
	struct pnl_region r[] = {
		reg(self->b, sizeof(self->b), base() + 4096, 0x10000),
		reg(self->c, 2, 0, 2),
		reg(self->a, sizeof(self->a), base() - 64, 0x8000),
	}, got[4];
	struct pnl_set set = { .reg = r, .n = 2, .rate = RATE_TICK };
	struct collect c = { got, 0, 4 };
	struct pnl_status st;
	int i;

	ASSERT_EQ(0, pnl_start_set(&self->nl, &set));
	ASSERT_EQ(0, pnl_add_regions(&self->nl, 0, &r[2], 1))
		TH_LOG("%s", self->nl.extack);
	ASSERT_EQ(0, pnl_get(&self->nl, 0, &st));
	EXPECT_EQ(3, st.nr_regions);
	EXPECT_EQ(r[0].buf, st.buf);
	ASSERT_EQ(0, pnl_get_regions(&self->nl, 0, collect_cb, &c, NULL,
				     NULL));
	ASSERT_EQ(3, c.n);
	for (i = 0; i < 3; i++) {
		EXPECT_EQ(r[i].buf, got[i].buf);
		EXPECT_EQ(r[i].size, got[i].size);
		EXPECT_EQ(r[i].offset, got[i].offset);
		EXPECT_EQ(r[i].scale, got[i].scale);
	}
	run_loop(_metadata, &self->nl, 60);
	stop_exact(_metadata, &self->nl, &st);
	EXPECT_GE(self->a[16] + self->a[17], 50);	/* (cmp - lo) / 4 */
	EXPECT_EQ(st.stats[PROFIL_STAT_IN_RANGE],
		  sum16(self->a, 256) + sum16(self->b, 256) + self->c[0]);
}

/*
 * The largest set: 4096 regions, listed in several messages and in
 * order; one more is refused, by START and by ADD_REGIONS.
 */
TEST_F(rs, largest_set)
{
	static struct pnl_region r[PROFIL_REGIONS_MAX + 1], got[PROFIL_REGIONS_MAX];
	static uint16_t buf[PROFIL_REGIONS_MAX + 1];
	struct pnl_set set = { .reg = r, .n = PROFIL_REGIONS_MAX + 1 };
	struct collect c = { got, 0, PROFIL_REGIONS_MAX };
	struct pnl_status st;
	unsigned int msgs, i, bad = 0;
	bool intr;

	for (i = 0; i <= PROFIL_REGIONS_MAX; i++)
		r[i] = reg(&buf[i], 2, base() + 4096 + 64 * i, 0x10000);
	EXPECT_EQ(-E2BIG, pnl_start_set(&self->nl, &set));
	EXPECT_NE(NULL, strstr(self->nl.extack, "too many regions"));
	set.n = PROFIL_REGIONS_MAX;
	ASSERT_EQ(0, pnl_start_set(&self->nl, &set)) TH_LOG("%s",
							   self->nl.extack);
	ASSERT_EQ(0, pnl_get(&self->nl, 0, &st));
	EXPECT_EQ(PROFIL_REGIONS_MAX, st.nr_regions);
	EXPECT_EQ(-E2BIG, pnl_add_regions(&self->nl, 0, &r[PROFIL_REGIONS_MAX],
					  1));
	ASSERT_EQ(0, pnl_get_regions(&self->nl, 0, collect_cb, &c, &msgs,
				     &intr));
	ASSERT_EQ(PROFIL_REGIONS_MAX, c.n);
	EXPECT_GT(msgs, 1);
	EXPECT_FALSE(intr);
	for (i = 0; i < PROFIL_REGIONS_MAX; i++)
		bad += got[i].buf != r[i].buf || got[i].offset != r[i].offset;
	EXPECT_EQ(0, bad);
}

/* PROFIL_F_NO_INHERIT: a fork child is not profiled; the parent is. */
TEST_F(rs, no_inherit)
{
	struct pnl_start req = {
		.buf = (uintptr_t)self->a, .bufsiz = sizeof(self->a),
		.offset = base() - 64, .scale = 0x10000, .rate = RATE_TICK,
		.flags = PROFIL_F_NO_INHERIT,
	};
	struct pnl_status st;
	int status;
	pid_t child;

	ASSERT_EQ(0, pnl_start(&self->nl, &req));
	child = fork();
	ASSERT_GE(child, 0);
	if (!child) {
		uint16_t before = self->a[32] + self->a[35];
		double start = process_cpu();
		struct pnl cnl;
		pthread_t tid;

		rl_stop = 0;
		if (pthread_create(&tid, NULL, loop_thread, NULL))
			_exit(9);
		while (process_cpu() - start < 0.3)
			usleep(10000);
		rl_stop = 1;
		pthread_join(tid, NULL);
		if (pnl_open(&cnl))
			_exit(10);
		if (pnl_get(&cnl, 0, &st) != -ENOENT)
			_exit(11);
		_exit(self->a[32] + self->a[35] != before ? 12 : 0);
	}
	ASSERT_EQ(child, waitpid(child, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
	ASSERT_EQ(0, pnl_get(&self->nl, 0, &st));
	EXPECT_EQ(PROFIL_STATE_ACTIVE, st.state);
	EXPECT_EQ(PROFIL_F_NO_INHERIT, st.flags);
}

/*
 * The buffer's mapping at fork: a private one is copied, and the child
 * profiles itself into its copy; a shared one (MAP_SHARED, a memfd) is
 * the parent's too, and the child is not profiled: else it would go on
 * counting into the parent's buffer after the parent's STOP returned.
 * For a region set, one shared buffer among private ones is enough.
 */
enum buf_kind { BUF_PRIVATE, BUF_SHARED, BUF_MEMFD };

FIXTURE(shared) {
	struct pnl nl;
	uint16_t *buf;		/* 256 counters over the loop */
	uint16_t other[256];	/* a private region over nothing */
};

FIXTURE_VARIANT(shared) {
	enum buf_kind kind;
	bool set;		/* a region set: BUF/other, else profil()'s */
	bool inherited;
};

FIXTURE_VARIANT_ADD(shared, private_anon) {
	.kind = BUF_PRIVATE, .inherited = true,
};
FIXTURE_VARIANT_ADD(shared, shared_anon) { .kind = BUF_SHARED };
FIXTURE_VARIANT_ADD(shared, shared_memfd) { .kind = BUF_MEMFD };
FIXTURE_VARIANT_ADD(shared, set_one_shared) {
	.kind = BUF_SHARED, .set = true,
};
FIXTURE_VARIANT_ADD(shared, set_all_private) {
	.kind = BUF_PRIVATE, .set = true, .inherited = true,
};

FIXTURE_SETUP(shared)
{
	int err = pnl_open(&self->nl), fd = -1, flags = MAP_PRIVATE;

	ASSERT_EQ(0, err) TH_LOG("family: %s", strerror(-err));
	if (variant->kind == BUF_MEMFD) {
		fd = memfd_create("profil-buf", 0);
		ASSERT_LE(0, fd);
		ASSERT_EQ(0, ftruncate(fd, 4096));
	}
	if (variant->kind != BUF_PRIVATE)
		flags = MAP_SHARED;
	if (fd < 0)
		flags |= MAP_ANONYMOUS;
	self->buf = mmap(NULL, 4096, PROT_READ | PROT_WRITE, flags, fd, 0);
	ASSERT_NE(MAP_FAILED, self->buf);
	if (fd >= 0)
		close(fd);
	memset(self->other, 0, sizeof(self->other));
}

FIXTURE_TEARDOWN(shared)
{
	pnl_stop(&self->nl, 0);
	pnl_close(&self->nl);
	munmap(self->buf, 4096);
}

/* The child: run the loop for 0.3 s of CPU, then say if it is profiled. */
static int __attribute__((noreturn)) shared_child(bool inherited)
{
	double start = process_cpu();
	struct pnl_status st;
	struct pnl cnl;
	pthread_t tid;
	int err;

	rl_stop = 0;
	if (pthread_create(&tid, NULL, loop_thread, NULL))
		_exit(9);
	while (process_cpu() - start < 0.3)
		usleep(10000);
	rl_stop = 1;
	pthread_join(tid, NULL);
	if (pnl_open(&cnl))
		_exit(10);
	err = pnl_get(&cnl, 0, &st);
	if (inherited)
		_exit(!err && st.state == PROFIL_STATE_ACTIVE ? 0 : 11);
	_exit(err == -ENOENT ? 0 : 12);
}

TEST_F(shared, fork_child)
{
	struct pnl_region r[2] = {
		reg(self->other, sizeof(self->other), base() + (1 << 20),
		    0x10000),
		reg(self->buf, 512, base() - 64, 0x10000),
	};
	struct pnl_set set = { .reg = r, .n = 2, .rate = RATE_TICK };
	struct pnl_start req = {
		.buf = (uintptr_t)self->buf, .bufsiz = 512,
		.offset = base() - 64, .scale = 0x10000, .rate = RATE_TICK,
	};
	uint64_t at_stop;
	int status, err;
	pid_t child;

	err = variant->set ? pnl_start_set(&self->nl, &set) :
			     pnl_start(&self->nl, &req);
	ASSERT_EQ(0, err) TH_LOG("%s", self->nl.extack);
	child = fork();
	ASSERT_GE(child, 0);
	if (!child)
		shared_child(variant->inherited);
	ASSERT_EQ(0, pnl_stop(&self->nl, 0));
	at_stop = sum16(self->buf, 256);
	ASSERT_EQ(child, waitpid(child, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status))
		TH_LOG("child %s", WEXITSTATUS(status) == 12 ?
			"profiled over a shared buffer" : "check failed");
	/* Nothing written to the parent's buffer after its STOP returned. */
	EXPECT_EQ(at_stop, sum16(self->buf, 256));
}

PROFIL_HARNESS_MAIN
