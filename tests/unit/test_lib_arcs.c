// SPDX-License-Identifier: GPL-2.0
/*
 * The -pg runtime's arc table (libprofil/arcs.c) and arc records: keys
 * that collide, a full table, concurrent claims of one new arc merging
 * into one slot with exact counts, the calls that are counted but not
 * graphed, the fork reset, and the gmon.out CG_ARC records.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profil.h"
#include "internal.h"

#define LOW	0x400000ULL
#define TEXT	0x10000ULL
#define PTR	sizeof(void *)
#define ARC_LEN	(1 + 2 * PTR + 4)

static uint64_t key(uint64_t from, uint64_t self)
{
	return from << 32 | self;
}

/* The slot a key hashes to first, as arcs.c computes it. */
static uint64_t home(const struct pf_arcs *a, uint64_t k)
{
	return (k * 0x9e3779b97f4a7c15ULL) >> a->shift;
}

static uint64_t count_of(const struct pf_arcs *a, uint64_t k)
{
	size_t i;

	for (i = 0; i < a->nslots; i++)
		if (a->slot[i].key == k)
			return a->slot[i].count;
	return 0;
}

static size_t used(const struct pf_arcs *a)
{
	size_t i, n = 0;

	for (i = 0; i < a->nslots; i++)
		n += a->slot[i].key != 0;
	return n;
}

static void test_init(void **state)
{
	struct pf_arcs a = { 0 };

	(void)state;
	assert_int_equal(pf_arcs_init(&a, LOW, LOW, 16), -1);
	assert_int_equal(errno, EINVAL);
	assert_int_equal(pf_arcs_init(&a, LOW, LOW + (1ULL << 32), 16), -1);
	assert_int_equal(pf_arcs_init(&a, LOW, LOW + TEXT, 20), 0);
	assert_int_equal(a.nslots, 32);	/* rounded up to a power of two */
	assert_int_equal(a.shift, 64 - 5);
	assert_int_equal(a.limit, 0);	/* off */
	pf_arcs_free(&a);
	assert_int_equal(pf_arcs_slots(0), PF_ARCS_DEF_SLOTS);
	assert_int_equal(pf_arcs_slots(1ULL << 40), PF_ARCS_MAX_SLOTS);
}

/* Keys with one home slot take the slots after it, counts kept apart. */
static void test_collisions(void **state)
{
	struct pf_arcs a = { 0 };
	uint64_t k[6], h, self = 1, i;
	int n = 0, j;

	(void)state;
	assert_int_equal(pf_arcs_init(&a, LOW, LOW + TEXT, 64), 0);
	h = home(&a, key(0x100, 1));
	for (; n < 6 && self < TEXT; self++)
		if (home(&a, key(0x100, self)) == h)
			k[n++] = key(0x100, self);
	assert_int_equal(n, 6);
	for (j = 0; j < n; j++)
		for (i = 0; i <= (uint64_t)j; i++)
			assert_int_equal(pf_arcs_add(&a, k[j], 1), 0);
	for (j = 0; j < n; j++) {
		assert_int_equal(count_of(&a, k[j]), j + 1);
		assert_int_equal(a.slot[(h + j) & a.mask].key, k[j]);
	}
	assert_int_equal(used(&a), 6);
	assert_int_equal(a.lost, 0);
	pf_arcs_free(&a);
}

/* A full table loses new arcs, counted, and still counts the old ones. */
static void test_overflow(void **state)
{
	struct pf_arcs a = { 0 };
	uint64_t self;

	(void)state;
	assert_int_equal(pf_arcs_init(&a, LOW, LOW + TEXT, 16), 0);
	for (self = 1; self <= 16; self++)
		assert_int_equal(pf_arcs_add(&a, key(8, self), 1), 0);
	assert_int_equal(used(&a), 16);
	assert_int_equal(pf_arcs_add(&a, key(8, 17), 5), -1);
	assert_int_equal(pf_arcs_add(&a, key(9, 1), 2), -1);
	assert_int_equal(a.lost, 7);
	assert_int_equal(pf_arcs_add(&a, key(8, 3), 1), 0);
	assert_int_equal(count_of(&a, key(8, 3)), 2);
	assert_int_equal(count_of(&a, key(8, 17)), 0);
	pf_arcs_free(&a);
}

#define THREADS	8
#define KEYS	200
#define ROUNDS	500

static struct pf_arcs shared;
static pthread_barrier_t start;

static void *adder(void *arg)
{
	int r, i;

	(void)arg;
	pthread_barrier_wait(&start);
	for (r = 0; r < ROUNDS; r++)
		for (i = 1; i <= KEYS; i++)
			pf_arcs_record(&shared, LOW + 0x10 * i, LOW + i);
	return NULL;
}

/*
 * Threads racing to claim the same new arcs: each arc ends in one slot
 * (the merge of every thread's calls), with every call counted.
 */
static void test_concurrent_merge(void **state)
{
	pthread_t t[THREADS];
	uint64_t i;
	int j;

	(void)state;
	assert_int_equal(pf_arcs_init(&shared, LOW, LOW + TEXT, 1024), 0);
	pf_arcs_set_on(&shared, true);
	pthread_barrier_init(&start, NULL, THREADS);
	for (j = 0; j < THREADS; j++)
		assert_int_equal(pthread_create(&t[j], NULL, adder, NULL), 0);
	for (j = 0; j < THREADS; j++)
		pthread_join(t[j], NULL);
	pthread_barrier_destroy(&start);
	assert_int_equal(used(&shared), KEYS);
	for (i = 1; i <= KEYS; i++)
		assert_int_equal(count_of(&shared, key(0x10 * i, i)),
				 THREADS * ROUNDS);
	assert_int_equal(shared.lost, 0);
	pf_arcs_free(&shared);
}

/* Off records nothing; outside callers and callees are only counted. */
static void test_record(void **state)
{
	struct profil_gmon_arc out[4];
	struct pf_arcs_totals t;
	struct pf_arcs a = { 0 };

	(void)state;
	assert_int_equal(pf_arcs_init(&a, LOW, LOW + TEXT, 64), 0);
	pf_arcs_record(&a, LOW + 0x20, LOW + 0x40);
	assert_int_equal(used(&a), 0);
	pf_arcs_set_on(&a, true);
	pf_arcs_record(&a, LOW + 0x20, LOW + 0x40);
	pf_arcs_record(&a, LOW + 0x20, LOW + 0x40);
	pf_arcs_record(&a, 0x7f0000001000ULL, LOW + 0x40);	/* libc */
	pf_arcs_record(&a, LOW - 1, LOW + 0x80);
	pf_arcs_record(&a, LOW + 0x20, LOW + TEXT);		/* a library */
	pf_arcs_record(&a, LOW + 0x20, LOW - 0x10);
	assert_int_equal(pf_arcs_collect(&a, out, 4, &t), 1);
	assert_int_equal(out[0].from_pc, LOW + 0x20);
	assert_int_equal(out[0].self_pc, LOW + 0x40);
	assert_int_equal(out[0].count, 2);
	assert_int_equal(t.arcs, 1);
	assert_int_equal(t.calls, 2);
	assert_int_equal(t.spontaneous, 2);
	assert_int_equal(t.foreign, 2);
	assert_int_equal(t.lost, 0);

	/* Off again: nothing, not even the outside calls. */
	pf_arcs_set_on(&a, false);
	pf_arcs_record(&a, LOW + 0x20, LOW + 0x40);
	pf_arcs_record(&a, LOW + 0x20, LOW + TEXT);
	assert_int_equal(pf_arcs_collect(&a, out, 4, &t), 1);
	assert_int_equal(out[0].count, 2);
	assert_int_equal(t.foreign, 2);
	pf_arcs_set_on(&a, true);

	/* What a forked child starts from. */
	pf_arcs_clear(&a);
	assert_int_equal(pf_arcs_collect(&a, out, 4, &t), 0);
	assert_int_equal(t.spontaneous + t.foreign + t.calls, 0);
	pf_arcs_record(&a, LOW + 0x20, LOW + 0x44);
	assert_int_equal(pf_arcs_collect(&a, out, 4, &t), 1);
	assert_int_equal(out[0].self_pc, LOW + 0x44);
	pf_arcs_free(&a);
}

/* CG_ARC records: tag 1, from, self, u32 count; big counts split. */
static void test_gmon_arcs(void **state)
{
	const struct profil_gmon_arc arcs[] = {
		{ 0x1010, 0x2020, 7 },
		{ 0x1030, 0x2040, 0 },				/* left out */
		{ 0x1050, 0x2060, (uint64_t)UINT32_MAX + 3 },	/* split */
	};
	const uint32_t want[] = { 7, UINT32_MAX, 3 };
	const uint64_t from[] = { 0x1010, 0x1050, 0x1050 };
	unsigned char *p;
	char *buf = NULL;
	size_t len = 0;
	uintptr_t pc;
	uint32_t c;
	FILE *f;
	int i;

	(void)state;
	f = open_memstream(&buf, &len);
	assert_non_null(f);
	assert_int_equal(profil_gmon_write_arcs(f, arcs, 3), 0);
	assert_int_equal(profil_gmon_write_arcs(f, NULL, 0), 0);
	assert_int_equal(fclose(f), 0);
	assert_int_equal(len, 3 * ARC_LEN);
	for (i = 0, p = (unsigned char *)buf; i < 3; i++, p += ARC_LEN) {
		assert_int_equal(p[0], 1);
		memcpy(&pc, p + 1, PTR);
		assert_int_equal(pc, from[i]);
		memcpy(&c, p + 1 + 2 * PTR, 4);
		assert_int_equal(c, want[i]);
	}
	free(buf);
	assert_int_equal(profil_gmon_write_arcs(NULL, arcs, 1), -1);
	assert_int_equal(errno, EINVAL);
	f = open_memstream(&buf, &len);
	assert_int_equal(profil_gmon_write_arcs(f, NULL, 1), -1);
	assert_int_equal(errno, EINVAL);
	fclose(f);
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_init),
		cmocka_unit_test(test_collisions),
		cmocka_unit_test(test_overflow),
		cmocka_unit_test(test_concurrent_merge),
		cmocka_unit_test(test_record),
		cmocka_unit_test(test_gmon_arcs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
