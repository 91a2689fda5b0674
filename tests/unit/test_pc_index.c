// SPDX-License-Identifier: GPL-2.0
/*
 * profil_pc_to_index(), the PC to counter mapping the guest tests expect
 * profil.ko to follow (tests/selftests/profil/profil_index.h), against
 * glibc's LP64 rule: the ABI stated with PROFIL_ATTR_SCALE in
 * include/uapi/linux/profil.h.
 */
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "profil_index.h"

#define OFFSET	0x400000ULL
#define HUGE	UINT64_MAX	/* bufsiz that bounds nothing */

struct vector {
	__u32 scale;
	__u64 d;	/* pc - offset */
	__u64 idx;
};

/* The reference vectors (scale, d) -> idx. */
static const struct vector vectors[] = {
	{ 65536, 3, 1 },
	{ 65535, 3, 0 },
	{ 32768, 7, 1 },
	{ 1, 131071, 0 },
	{ 65537, 131072, 65537 },
};

static int map(__u64 pc, __u64 offset, __u32 scale, __u64 bufsiz,
	       __u64 *idx)
{
	*idx = 0xdeadbeef;
	return profil_pc_to_index(pc, offset, scale, bufsiz, idx);
}

static void test_reference_vectors(void **state)
{
	const __u64 offsets[] = { 0, 1, OFFSET, UINT64_MAX - 131072 };
	size_t i, j;
	__u64 idx;

	(void)state;
	for (i = 0; i < sizeof(vectors) / sizeof(vectors[0]); i++) {
		for (j = 0; j < sizeof(offsets) / sizeof(offsets[0]); j++) {
			assert_int_equal(1, map(offsets[j] + vectors[i].d,
						offsets[j], vectors[i].scale,
						HUGE, &idx));
			assert_int_equal(vectors[i].idx, idx);
		}
	}
}

/* floor(floor(d / 2) * scale / 65536), exactly, in 128 bits. */
static void test_matches_exact_formula(void **state)
{
	const __u32 scales[] = { 1, 2, 3, 255, 32767, 32768, 65535, 65536,
				 65537, 131072, 0x7fffffff, 0xffffffff };
	const __u64 ds[] = { 0, 1, 2, 3, 65535, 65536, 131071, 131072,
			     131073, 0x123456789ULL, 1ULL << 40,
			     (1ULL << 47) + 12345 };
	size_t i, j;

	(void)state;
	for (i = 0; i < sizeof(scales) / sizeof(scales[0]); i++) {
		for (j = 0; j < sizeof(ds) / sizeof(ds[0]); j++) {
			unsigned __int128 want =
				((unsigned __int128)(ds[j] >> 1) * scales[i]) >> 16;
			__u64 idx;
			int in = map(OFFSET + ds[j], OFFSET, scales[i], HUGE,
				     &idx);

			if (want < HUGE / 2) {
				assert_int_equal(1, in);
				assert_int_equal((__u64)want, idx);
			} else {
				assert_int_equal(0, in);
			}
		}
	}
}

/* pc < offset is dropped, also where glibc's LP64 arithmetic would wrap. */
static void test_below_offset_dropped(void **state)
{
	const __u32 scales[] = { 1, 65536, 65537, 131072, 0xffffffff };
	size_t i;
	__u64 idx;

	(void)state;
	for (i = 0; i < sizeof(scales) / sizeof(scales[0]); i++) {
		assert_int_equal(0, map(OFFSET - 1, OFFSET, scales[i], HUGE,
					&idx));
		assert_int_equal(0, map(OFFSET - 2, OFFSET, scales[i], HUGE,
					&idx));
		assert_int_equal(0, map(0, OFFSET, scales[i], HUGE, &idx));
		assert_int_equal(0, map(0, UINT64_MAX, scales[i], HUGE, &idx));
	}
	assert_int_equal(1, map(OFFSET, OFFSET, 65536, 2, &idx));
	assert_int_equal(0, idx);
}

/* Only idx < bufsiz / 2 counts: an odd last byte is unused. */
static void test_bufsiz_bounds(void **state)
{
	__u64 idx;

	(void)state;
	/* scale 65536: one counter per two bytes of text, idx = d / 2 */
	assert_int_equal(1, map(OFFSET + 6, OFFSET, 65536, 8, &idx));
	assert_int_equal(3, idx);
	assert_int_equal(1, map(OFFSET + 7, OFFSET, 65536, 8, &idx));
	assert_int_equal(3, idx);
	assert_int_equal(0, map(OFFSET + 8, OFFSET, 65536, 8, &idx));
	/* odd size: the ninth byte holds no counter */
	assert_int_equal(1, map(OFFSET + 7, OFFSET, 65536, 9, &idx));
	assert_int_equal(3, idx);
	assert_int_equal(0, map(OFFSET + 8, OFFSET, 65536, 9, &idx));
	/* fewer than two bytes: no counter at all */
	assert_int_equal(0, map(OFFSET, OFFSET, 65536, 1, &idx));
	assert_int_equal(0, map(OFFSET, OFFSET, 65536, 0, &idx));
	assert_int_equal(1, map(OFFSET + 1, OFFSET, 65536, 2, &idx));
	assert_int_equal(0, idx);
	assert_int_equal(0, map(OFFSET + 2, OFFSET, 65536, 2, &idx));
	/* the largest buffer still bounds */
	assert_int_equal(1, map(UINT64_MAX, 0, 1, UINT64_MAX, &idx));
	assert_int_equal((UINT64_MAX >> 1) >> 16, idx);
}

/* A product or sum that does not fit in 64 bits is out of range. */
static void test_overflow_dropped(void **state)
{
	/* high = (2^32 + 1)(2^32 - 1) = 2^64 - 1, then low > 0: sum overflows */
	const __u64 half = ((0x100000001ULL) << 16) | 0xffff;
	__u64 idx;

	(void)state;
	/* (half >> 16) * scale overflows */
	assert_int_equal(0, map(UINT64_MAX, 0, 0xffffffff, HUGE, &idx));
	assert_int_equal(0, map(UINT64_MAX, 0, 65537, HUGE, &idx));
	/* the product fits, the sum does not */
	assert_int_equal(0, map(half << 1, 0, 0xffffffff, HUGE, &idx));
	/* the last index that fits in 64 bits is still beyond any buffer */
	assert_int_equal(0, map((half & ~0xffffULL) << 1, 0, 0xffffffff,
				HUGE, &idx));
}

/* glibc does not special-case scale 0: everything maps to bin 0. */
static void test_scale_zero_bin0(void **state)
{
	__u64 idx;

	(void)state;
	assert_int_equal(1, map(OFFSET + 12345, OFFSET, 0, 2, &idx));
	assert_int_equal(0, idx);
	assert_int_equal(1, map(UINT64_MAX, 0, 0, 2, &idx));
	assert_int_equal(0, idx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reference_vectors),
		cmocka_unit_test(test_matches_exact_formula),
		cmocka_unit_test(test_below_offset_dropped),
		cmocka_unit_test(test_bufsiz_bounds),
		cmocka_unit_test(test_overflow_dropped),
		cmocka_unit_test(test_scale_zero_bin0),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
