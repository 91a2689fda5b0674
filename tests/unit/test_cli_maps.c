// SPDX-License-Identifier: GPL-2.0
/*
 * profil-ctl's live half, pure parts: /proc/PID/maps lines
 * (cli/target/procmaps.c), the load bias of the executable segment, and a
 * profiling buffer's range and translation to struct hist
 * (cli/target/livebuf.c).
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "hist.h"
#include "livebuf.h"
#include "procmaps.h"

static void parse_file_mapping(void **state)
{
	struct procmaps_entry e;

	(void)state;
	assert_int_equal(0, procmaps_parse_line(
		"55d0c4a00000-55d0c4a01000 r-xp 00001000 fd:01 1234567          "
		"       /usr/bin/my prog (deleted)\n", &e));
	assert_int_equal(0x55d0c4a00000ULL, e.start);
	assert_int_equal(0x55d0c4a01000ULL, e.end);
	assert_string_equal("r-xp", e.perms);
	assert_int_equal(0x1000, e.offset);
	assert_int_equal(0xfd, e.dev_major);
	assert_int_equal(1, e.dev_minor);
	assert_int_equal(1234567, e.inode);
	assert_string_equal("/usr/bin/my prog (deleted)", e.path);
}

static void parse_anonymous_and_special(void **state)
{
	struct procmaps_entry e;

	(void)state;
	assert_int_equal(0, procmaps_parse_line(
		"7f0000000000-7f0000002000 rw-p 00000000 00:00 0 \n", &e));
	assert_string_equal("", e.path);
	assert_int_equal(0, e.inode);
	assert_int_equal(0, procmaps_parse_line(
		"7ffd1b5f0000-7ffd1b5f2000 r-xp 00000000 00:00 0"
		"                  [vdso]", &e));
	assert_string_equal("[vdso]", e.path);
	assert_int_equal(0, procmaps_parse_line(
		"ffffffffff600000-ffffffffff601000 --xp 00000000 00:00 0  "
		"[vsyscall]", &e));
	assert_int_equal(0xffffffffff601000ULL, e.end);
}

static void parse_rejects_malformed(void **state)
{
	static const char *const bad[] = {
		"",
		"garbage\n",
		"1000-2000 r-xp 0 fd:01\n",		/* no inode */
		"2000-1000 r-xp 00000000 fd:01 1 /x\n",	/* start > end */
		"1000-2000 r-x 00000000 fd:01 1 /x\n",	/* 3 permissions */
		"1000-2000 r-xp 00000000 fd:01 1x /x\n",	/* junk in inode */
	};
	struct procmaps_entry e;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		errno = 0;
		assert_int_equal(-1, procmaps_parse_line(bad[i], &e));
		assert_int_equal(EINVAL, errno);
	}
}

static void parse_rejects_long_path(void **state)
{
	static char line[PATH_MAX + 128];
	struct procmaps_entry e;
	int n = snprintf(line, sizeof(line),
			 "1000-2000 r-xp 00000000 fd:01 1 /");

	(void)state;
	memset(line + n, 'a', PATH_MAX);
	line[n + PATH_MAX] = '\0';
	errno = 0;
	assert_int_equal(-1, procmaps_parse_line(line, &e));
	assert_int_equal(ENAMETOOLONG, errno);
}

static void entry(struct procmaps_entry *e, uint64_t start, uint64_t end,
		  const char *perms, uint64_t offset, const char *path)
{
	memset(e, 0, sizeof(*e));
	e->start = start;
	e->end = end;
	strcpy(e->perms, perms);
	e->offset = offset;
	strcpy(e->path, path);
}

/* A PIE as Debian's ld lays it out (-z separate-code), and a non-PIE. */
static void text_bias(void **state)
{
	struct procmaps_entry v[5];
	const struct procmaps_segment pie = { .vaddr = 0x1000,
		.offset = 0x1000, .memsz = 0x351 };
	const struct procmaps_segment nopie = { .vaddr = 0x401000,
		.offset = 0x1000, .memsz = 0x200 };
	uint64_t bias = 0;

	(void)state;
	entry(&v[0], 0x555555554000, 0x555555555000, "r--p", 0, "/bin/w");
	entry(&v[1], 0x555555555000, 0x555555556000, "r-xp", 0x1000, "/bin/w");
	/* Same file offset page, not executable: never the text. */
	entry(&v[2], 0x555555556000, 0x555555557000, "r--p", 0x1000, "/bin/w");
	entry(&v[3], 0x7f0000001000, 0x7f0000002000, "r-xp", 0x1000,
	      "/lib/libc.so.6");
	entry(&v[4], 0x401000, 0x402000, "r-xp", 0x1000, "/bin/static");
	assert_int_equal(0, procmaps_text_bias(v, 5, "/bin/w", &pie, 4096,
					       &bias));
	assert_int_equal(0x555555554000ULL, bias);
	assert_int_equal(0, procmaps_text_bias(v, 5, "/bin/static", &nopie,
					       4096, &bias));
	assert_int_equal(0, bias);
	/* The segment's page, not its exact offset, is mapped. */
	{
		const struct procmaps_segment odd = { .vaddr = 0x1234,
			.offset = 0x1234, .memsz = 0x10 };

		assert_int_equal(0, procmaps_text_bias(v, 5, "/bin/w", &odd,
						       4096, &bias));
		assert_int_equal(0x555555554000ULL, bias);
	}
	errno = 0;
	assert_int_equal(-1, procmaps_text_bias(v, 5, "/bin/other", &pie,
						4096, &bias));
	assert_int_equal(ENOENT, errno);
	errno = 0;
	assert_int_equal(-1, procmaps_text_bias(v, 5, "/bin/w", &pie, 3000,
						&bias));
	assert_int_equal(EINVAL, errno);
}

static void bin_bytes_valid(void **state)
{
	(void)state;
	assert_true(livebuf_bin_bytes_valid(2));
	assert_true(livebuf_bin_bytes_valid(4));
	assert_true(livebuf_bin_bytes_valid(131072));
	assert_false(livebuf_bin_bytes_valid(0));
	assert_false(livebuf_bin_bytes_valid(1));
	assert_false(livebuf_bin_bytes_valid(6));
	assert_false(livebuf_bin_bytes_valid(262144));
}

/* The end of the range agrees with the kernel's PC-to-counter rule. */
static void range_end(void **state)
{
	static const uint32_t scales[] = { 65536, 32768, 65535, 1000, 3, 1 };
	uint64_t end, half;
	size_t i, nbins = 37;

	(void)state;
	for (i = 0; i < sizeof(scales) / sizeof(scales[0]); i++) {
		assert_int_equal(0, livebuf_range_end(0x1000, nbins, scales[i],
						      &end));
		/* The last PC of the range maps to the last counter... */
		half = (end - 1 - 0x1000) / 2;
		assert_int_equal(nbins - 1, half * scales[i] / 65536);
		/* ...and the first PC past it to none of them. */
		half = (end - 0x1000) / 2;
		assert_int_equal(nbins, half * scales[i] / 65536);
	}
	errno = 0;
	assert_int_equal(-1, livebuf_range_end(0x1000, 1, 0, &end));
	assert_int_equal(EINVAL, errno);
	errno = 0;
	assert_int_equal(-1, livebuf_range_end(UINT64_MAX - 4, 16, 65536,
					       &end));
	assert_int_equal(EOVERFLOW, errno);
	assert_int_equal(-1, livebuf_range_end(0, SIZE_MAX, 65536, &end));
}

static void to_hist(void **state)
{
	const uint16_t counts[4] = { 0, 65535, 7, 1 };
	struct hist h = { .rate = 0 };

	(void)state;
	/* Runtime 0x555555555000, bias 0x555555554000: link-time 0x1000. */
	assert_int_equal(0, livebuf_to_hist(counts, 4, 0x555555555000ULL,
					    32768, 0x555555554000ULL, &h));
	assert_int_equal(1, h.nranges);
	assert_int_equal(0x1000, h.ranges[0].low_pc);
	assert_int_equal(0x1010, h.ranges[0].high_pc);
	assert_int_equal(4, h.ranges[0].nbins);
	assert_int_equal(65535, h.ranges[0].bins[1]);
	assert_int_equal(65543, hist_total(&h));
	hist_free(&h);
	errno = 0;
	assert_int_equal(-1, livebuf_to_hist(counts, 4, 0x1000, 32768, 0x2000,
					     &h));
	assert_int_equal(EINVAL, errno);
	assert_int_equal(-1, livebuf_to_hist(counts, 0, 0x1000, 32768, 0, &h));
	assert_int_equal(-1, livebuf_to_hist(counts, 4, 0x1000, 0, 0, &h));
	assert_int_equal(0, h.nranges);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(parse_file_mapping),
		cmocka_unit_test(parse_anonymous_and_special),
		cmocka_unit_test(parse_rejects_malformed),
		cmocka_unit_test(parse_rejects_long_path),
		cmocka_unit_test(text_bias),
		cmocka_unit_test(bin_bytes_valid),
		cmocka_unit_test(range_end),
		cmocka_unit_test(to_hist),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
