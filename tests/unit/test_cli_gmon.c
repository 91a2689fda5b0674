// SPDX-License-Identifier: GPL-2.0
/*
 * profil-ctl's gmon.out reader (cli/profile/gmon_read.c): files from libprofil's
 * writer, hand-built files in both byte orders and pointer widths, and
 * malformed files, each refused with its own located message.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "profil.h"
#include "gmon_read.h"
#include "hist.h"

/* A gmon.out image under construction. */
struct img {
	unsigned char b[4096];
	size_t n;
	unsigned int ptr;	/* 4 or 8 */
	bool be;
};

static void put(struct img *m, uint64_t v, size_t n)
{
	size_t i;

	assert_true(m->n + n <= sizeof(m->b));
	for (i = 0; i < n; i++)
		m->b[m->n + (m->be ? n - 1 - i : i)] = (unsigned char)(v >> (8 * i));
	m->n += n;
}

static void put_bytes(struct img *m, const void *p, size_t n)
{
	assert_true(m->n + n <= sizeof(m->b));
	memcpy(m->b + m->n, p, n);
	m->n += n;
}

static void img_init(struct img *m, unsigned int ptr, bool be)
{
	memset(m, 0, sizeof(*m));
	m->ptr = ptr;
	m->be = be;
	put_bytes(m, "gmon", 4);
	put(m, 1, 4);
	put(m, 0, 4);
	put(m, 0, 4);
	put(m, 0, 4);
}

static void hist_hdr(struct img *m, uint64_t low, uint64_t high,
		     uint32_t nbins, uint32_t rate, const char *dimen)
{
	char d[15] = { 0 };

	memcpy(d, dimen, strnlen(dimen, sizeof(d)));
	put(m, 0, 1);
	put(m, low, m->ptr);
	put(m, high, m->ptr);
	put(m, nbins, 4);
	put(m, rate, 4);
	put_bytes(m, d, 15);
	put(m, dimen[0], 1);
}

/* A TIME_HIST record whose bin i holds base + i. */
static void hist_rec(struct img *m, uint64_t low, uint64_t high,
		     uint32_t nbins, uint32_t rate, unsigned int base)
{
	uint32_t i;

	hist_hdr(m, low, high, nbins, rate, "seconds");
	for (i = 0; i < nbins; i++)
		put(m, base + i, 2);
}

static void arc_rec(struct img *m, uint64_t from, uint64_t self,
		    uint32_t count)
{
	put(m, 1, 1);
	put(m, from, m->ptr);
	put(m, self, m->ptr);
	put(m, count, 4);
}

static void read_ok(const struct img *m, struct hist *h)
{
	char err[256] = "";
	int ret;

	memset(h, 0, sizeof(*h));
	ret = gmon_read_mem(m->b, m->n, m->ptr, h, err, sizeof(err));
	if (ret)
		fail_msg("unexpected error: %s", err);
}

/* The read must fail, and its message hold @want. */
static void read_bad(const struct img *m, const char *want)
{
	char err[256] = "";
	struct hist h = { .rate = 0 };

	assert_int_equal(gmon_read_mem(m->b, m->n, m->ptr, &h, err,
				       sizeof(err)), -1);
	assert_int_equal(errno, EINVAL);
	if (!strstr(err, want))
		fail_msg("message \"%s\" lacks \"%s\"", err, want);
	/* A failed read leaves nothing allocated. */
	assert_int_equal(h.nranges, 0);
	assert_null(h.ranges);
	assert_null(h.arcs);
}

static void test_libprofil_writer(void **state)
{
	/* Counts above 65535 make the writer emit three records. */
	const uint64_t counts[4] = { 1, 70000, 0, 200000 };
	struct profil_gmon_hist g = {
		.low_pc = 0x1000, .high_pc = 0x1010, .hist_size = 4,
		.prof_rate = 1000, .counts = counts, .width = 8,
	};
	char *buf = NULL, err[256];
	struct hist h = { .rate = 0 };
	size_t len = 0, i;
	FILE *f;

	(void)state;
	f = open_memstream(&buf, &len);
	assert_non_null(f);
	assert_int_equal(profil_gmon_write(f, &g), 0);
	assert_int_equal(fclose(f), 0);
	assert_int_equal(gmon_read_mem(buf, len, sizeof(void *), &h, err,
				       sizeof(err)), 0);
	assert_int_equal(h.rate, 1000);
	assert_int_equal(h.nranges, 1);
	assert_int_equal(h.ranges[0].low_pc, 0x1000);
	assert_int_equal(h.ranges[0].high_pc, 0x1010);
	assert_int_equal(h.ranges[0].nbins, 4);
	for (i = 0; i < 4; i++)
		assert_int_equal(h.ranges[0].bins[i], counts[i]);
	assert_int_equal(hist_total(&h), 270001);
	hist_free(&h);
	free(buf);
}

/* The same file in both byte orders and pointer widths reads the same. */
static void test_orders_and_widths(void **state)
{
	unsigned int ptr;
	int be;

	(void)state;
	for (ptr = 4; ptr <= 8; ptr += 4) {
		for (be = 0; be <= 1; be++) {
			struct img m;
			struct hist h;

			img_init(&m, ptr, be);
			hist_rec(&m, 0x400000, 0x400010, 4, 100, 0x0101);
			arc_rec(&m, 0x400004, 0x400008, 7);
			read_ok(&m, &h);
			assert_int_equal(h.rate, 100);
			assert_int_equal(h.nranges, 1);
			assert_int_equal(h.ranges[0].low_pc, 0x400000);
			assert_int_equal(h.ranges[0].bins[0], 0x0101);
			assert_int_equal(h.ranges[0].bins[3], 0x0104);
			assert_int_equal(h.narcs, 1);
			assert_int_equal(h.arcs[0].from_pc, 0x400004);
			assert_int_equal(h.arcs[0].self_pc, 0x400008);
			assert_int_equal(h.arcs[0].count, 7);
			hist_free(&h);
		}
	}
}

/* Identical ranges sum (gprof); others are kept sorted by address. */
static void test_sum_and_sort(void **state)
{
	struct img m;
	struct hist h;

	(void)state;
	img_init(&m, 8, false);
	hist_rec(&m, 0x2000, 0x2008, 2, 100, 10);
	hist_rec(&m, 0x1000, 0x1008, 2, 100, 1);
	hist_rec(&m, 0x2000, 0x2008, 2, 100, 65534);
	read_ok(&m, &h);
	assert_int_equal(h.nranges, 2);
	assert_int_equal(h.ranges[0].low_pc, 0x1000);
	assert_int_equal(h.ranges[0].bins[0], 1);
	assert_int_equal(h.ranges[1].low_pc, 0x2000);
	assert_int_equal(h.ranges[1].bins[0], 10 + 65534);
	assert_int_equal(h.ranges[1].bins[1], 11 + 65535);
	hist_free(&h);
}

/* Only a header; BB_COUNT records are skipped. */
static void test_empty_and_bb(void **state)
{
	struct img m;
	struct hist h;

	(void)state;
	img_init(&m, 8, false);
	read_ok(&m, &h);
	assert_int_equal(h.nranges, 0);
	assert_int_equal(h.rate, 0);
	hist_free(&h);

	put(&m, 2, 1);		/* BB_COUNT, 2 blocks */
	put(&m, 2, 4);
	put(&m, 0x1000, 8);
	put(&m, 5, 8);
	put(&m, 0x1004, 8);
	put(&m, 6, 8);
	hist_rec(&m, 0x1000, 0x1008, 2, 60, 3);
	read_ok(&m, &h);
	assert_int_equal(h.nranges, 1);
	assert_int_equal(h.rate, 60);
	assert_int_equal(hist_total(&h), 3 + 4);
	hist_free(&h);
}

static void test_bad_short(void **state)
{
	struct img m;

	(void)state;
	img_init(&m, 8, false);
	m.n = 0;
	read_bad(&m, "offset 0: too short for a gmon.out header: 0 bytes");
	img_init(&m, 8, false);
	m.n = 19;
	read_bad(&m, "too short for a gmon.out header: 19 bytes, need 20");
}

static void test_bad_magic(void **state)
{
	struct img m;

	(void)state;
	img_init(&m, 8, false);
	m.b[0] = 'G';
	read_bad(&m, "offset 0: bad magic");
}

static void test_bad_version(void **state)
{
	struct img m;

	(void)state;
	img_init(&m, 8, false);
	m.b[4] = 2;
	read_bad(&m, "offset 4: unsupported version 0x2");
}

static void test_bad_tag(void **state)
{
	struct img m;

	(void)state;
	img_init(&m, 8, false);
	hist_rec(&m, 0x1000, 0x1004, 1, 100, 1);
	put(&m, 7, 1);
	read_bad(&m, "offset 63: unknown record tag 7");
}

static void test_bad_hist_header_truncated(void **state)
{
	struct img m;

	(void)state;
	img_init(&m, 8, false);
	hist_hdr(&m, 0x1000, 0x1008, 2, 100, "seconds");
	m.n -= 3;
	read_bad(&m, "offset 20: TIME_HIST record truncated: needs 40 "
		 "bytes, 37 left");
}

static void test_bad_bins_truncated(void **state)
{
	struct img m;

	(void)state;
	img_init(&m, 8, false);
	hist_hdr(&m, 0x1000, 0x1010, 4, 100, "seconds");
	put(&m, 1, 2);
	read_bad(&m, "hist_size 4 needs 8 bytes of bins, 2 left");
}

/* A hist_size of 2^32-1 in a small file is refused before any malloc. */
static void test_bad_huge_hist_size(void **state)
{
	struct img m;

	(void)state;
	img_init(&m, 8, false);
	hist_hdr(&m, 0, UINT64_MAX, UINT32_MAX, 100, "seconds");
	read_bad(&m, "hist_size 4294967295 needs 8589934590 bytes of bins, "
		 "0 left");
}

static void test_bad_empty_range(void **state)
{
	struct img m;

	(void)state;
	img_init(&m, 8, false);
	hist_rec(&m, 0x2000, 0x1000, 1, 100, 1);
	read_bad(&m, "offset 20: TIME_HIST record: empty range [0x2000, "
		 "0x1000)");
	img_init(&m, 8, false);
	hist_rec(&m, 0x2000, 0x2000, 1, 100, 1);
	read_bad(&m, "empty range");
}

static void test_bad_no_bins(void **state)
{
	struct img m;

	(void)state;
	img_init(&m, 8, false);
	hist_rec(&m, 0x1000, 0x1008, 0, 100, 1);
	read_bad(&m, "no bins (hist_size 0)");
}

static void test_bad_more_bins_than_bytes(void **state)
{
	struct img m;

	(void)state;
	img_init(&m, 8, false);
	hist_rec(&m, 0x1000, 0x1002, 3, 100, 1);
	read_bad(&m, "3 bins for 2 bytes");
}

static void test_bad_overlap(void **state)
{
	struct img m;

	(void)state;
	img_init(&m, 8, false);
	hist_rec(&m, 0x1000, 0x1010, 4, 100, 1);
	hist_rec(&m, 0x1008, 0x1018, 4, 100, 1);
	read_bad(&m, "offset 69: TIME_HIST record: range [0x1008, 0x1018) "
		 "partially overlaps an earlier record's");
}

static void test_bad_scale(void **state)
{
	struct img m;

	(void)state;
	img_init(&m, 8, false);
	hist_rec(&m, 0x1000, 0x1010, 4, 100, 1);
	hist_rec(&m, 0x2000, 0x2010, 2, 100, 1);
	read_bad(&m, "scale 8 bytes per bin differs from 4 of the record at "
		 "offset 20");
}

static void test_bad_rate(void **state)
{
	struct img m;

	(void)state;
	img_init(&m, 8, false);
	hist_rec(&m, 0x1000, 0x1010, 4, 100, 1);
	hist_rec(&m, 0x1000, 0x1010, 4, 200, 1);
	read_bad(&m, "rate 200 Hz differs from 100 Hz");
}

static void test_bad_dimension(void **state)
{
	struct img m;

	(void)state;
	img_init(&m, 8, false);
	hist_rec(&m, 0x1000, 0x1010, 4, 100, 1);
	hist_hdr(&m, 0x2000, 0x2010, 4, 100, "cycles");
	put(&m, 0, 8);
	read_bad(&m, "dimension 'cycles' ('c') differs from 'seconds' ('s')");
}

static void test_bad_arc_truncated(void **state)
{
	struct img m;

	(void)state;
	img_init(&m, 8, false);
	arc_rec(&m, 1, 2, 3);
	m.n--;
	read_bad(&m, "offset 20: CG_ARC record truncated: needs 20 bytes, "
		 "19 left");
}

static void test_bad_bb_truncated(void **state)
{
	struct img m;

	(void)state;
	img_init(&m, 8, false);
	put(&m, 2, 1);
	put(&m, 0, 2);
	read_bad(&m, "offset 20: BB_COUNT record truncated: needs 4 bytes");
	img_init(&m, 8, false);
	put(&m, 2, 1);
	put(&m, 1000000, 4);
	put(&m, 0, 16);
	read_bad(&m, "BB_COUNT record truncated: 1000000 blocks need "
		 "16000000 bytes, 16 left");
}

/* A 64-bit file read as 32-bit goes wrong at once, and says so. */
static void test_bad_pointer_width(void **state)
{
	struct img m;

	(void)state;
	img_init(&m, 8, false);
	hist_rec(&m, 0x1000, 0x1010, 4, 100, 1);
	m.ptr = 4;
	read_bad(&m, "empty range [0x1000, 0)");
	m.ptr = 3;
	read_bad(&m, "pointer size 3: not 4 or 8");
}

static void test_file_errors(void **state)
{
	char err[256], path[] = "/tmp/test_cli_gmonXXXXXX";
	struct hist h = { .rate = 0 };
	struct img m;
	int fd;

	(void)state;
	assert_int_equal(gmon_read_file("/nonexistent/gmon.out", 8, &h, err,
					sizeof(err)), -1);
	assert_int_equal(errno, ENOENT);
	assert_string_equal(err, strerror(ENOENT));
	assert_int_equal(gmon_read_file("/", 8, &h, err, sizeof(err)), -1);
	assert_int_equal(errno, EISDIR);

	fd = mkstemp(path);
	assert_true(fd >= 0);
	img_init(&m, 8, false);
	hist_rec(&m, 0x1000, 0x1010, 4, 100, 1);
	assert_int_equal(write(fd, m.b, m.n), (ssize_t)m.n);
	close(fd);
	assert_int_equal(gmon_read_file(path, 8, &h, err, sizeof(err)), 0);
	assert_int_equal(hist_total(&h), 1 + 2 + 3 + 4);
	hist_free(&h);
	unlink(path);
}

/*
 * A large image: @n TIME_HIST records of 16 bytes and 4 bins each, every
 * range twice (summed); @stride 1: in address order, else visited
 * (i * stride) mod n, a permutation for a stride prime to n.
 */
static unsigned char *big_image(size_t n, size_t stride, size_t *len)
{
	const size_t rec = 1 + 8 + 8 + 4 + 4 + 15 + 1 + 2 * 4;
	unsigned char *buf = calloc(1, 20 + 2 * n * rec), *p;
	size_t i, k, j, b;

	assert_non_null(buf);
	memcpy(buf, "gmon\1\0\0\0", 8);
	p = buf + 20;
	for (k = 0; k < 2 * n; k++) {
		uint64_t low = 0x400000 + (k / 2 * stride % n) * 32;
		uint64_t f[4] = { low, low + 16, 4, 100 };
		size_t w[4] = { 8, 8, 4, 4 };

		*p++ = 0;
		for (j = 0; j < 4; j++)
			for (b = 0; b < w[j]; b++)
				*p++ = (unsigned char)(f[j] >> (8 * b));
		memcpy(p, "seconds", 7);
		p += 15;
		*p++ = 's';
		for (i = 0; i < 4; i++, p += 2)
			*p = 1;
	}
	*len = (size_t)(p - buf);
	return buf;
}

static unsigned long long big_read_work(size_t n, size_t stride)
{
	struct hist h = { .rate = 0 };
	unsigned char *buf;
	char err[256];
	size_t len;

	buf = big_image(n, stride, &len);
	if (gmon_read_mem(buf, len, 8, &h, err, sizeof(err)))
		fail_msg("unexpected error: %s", err);
	assert_int_equal(h.nranges, n);
	assert_int_equal(hist_total(&h), 8 * n);
	assert_true(h.ranges[0].low_pc == 0x400000);
	assert_true(h.ranges[n - 1].low_pc == 0x400000 + (n - 1) * 32);
	hist_free(&h);
	free(buf);
	return gmon_read_work();
}

/*
 * The reader's work grows linearly with the records, in order and
 * shuffled: ten times the records, at most ten times the work (plus a
 * margin for the sort's fixed cost per pass). Counted, not timed.
 */
static void test_linear_work(void **state)
{
	static const size_t strides[] = { 1, 7919 };
	unsigned long long w[3];
	size_t s, i, n;

	(void)state;
	for (s = 0; s < 2; s++) {
		for (i = 0, n = 1000; i < 3; i++, n *= 10)
			w[i] = big_read_work(n, strides[s]);
		for (i = 1; i < 3; i++)
			if (w[i] > 10 * w[i - 1] + 10 * 8 * 256 ||
			    w[i] < 9 * w[i - 1])
				fail_msg("stride %zu: work %llu for %zu "
					 "records, %llu for ten times as many",
					 strides[s], w[i - 1],
					 (size_t)(1000 * (i == 1 ? 1 : 10)),
					 w[i]);
		print_message("stride %zu: work %llu, %llu, %llu for 10^3, "
			      "10^4, 10^5 records (each twice)\n", strides[s],
			      w[0], w[1], w[2]);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_libprofil_writer),
		cmocka_unit_test(test_orders_and_widths),
		cmocka_unit_test(test_sum_and_sort),
		cmocka_unit_test(test_empty_and_bb),
		cmocka_unit_test(test_bad_short),
		cmocka_unit_test(test_bad_magic),
		cmocka_unit_test(test_bad_version),
		cmocka_unit_test(test_bad_tag),
		cmocka_unit_test(test_bad_hist_header_truncated),
		cmocka_unit_test(test_bad_bins_truncated),
		cmocka_unit_test(test_bad_huge_hist_size),
		cmocka_unit_test(test_bad_empty_range),
		cmocka_unit_test(test_bad_no_bins),
		cmocka_unit_test(test_bad_more_bins_than_bytes),
		cmocka_unit_test(test_bad_overlap),
		cmocka_unit_test(test_bad_scale),
		cmocka_unit_test(test_bad_rate),
		cmocka_unit_test(test_bad_dimension),
		cmocka_unit_test(test_bad_arc_truncated),
		cmocka_unit_test(test_bad_bb_truncated),
		cmocka_unit_test(test_bad_pointer_width),
		cmocka_unit_test(test_file_errors),
		cmocka_unit_test(test_linear_work),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
