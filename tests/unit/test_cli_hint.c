// SPDX-License-Identifier: GPL-2.0
/*
 * The "what is missing" hint (cli/symbols/hint.c): samples counted by
 * how their function is named (a symbol's, an FDE range, none), the
 * 50 % threshold, and the remedy for a system file with and without
 * DEBUGINFOD_URLS, for one's own program, and for a file without a
 * build-id (which no server can look up).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "hint.h"

/* A symbol's function, an FDE range, a gap, another FDE range. */
static const struct sym_func funcs[] = {
	{ 0x1000, 0x1010, "named", 0 },
	{ 0x1010, 0x1020, "lib.so+0x1010", SYM_FUNC_FDE },
	{ 0x1030, 0x1040, "lib.so+0x1030", SYM_FUNC_FDE },
};

static void test_share(void **state)
{
	/* 4-byte bins from 0x1000: 2 named, 3 + 4 FDE, 5 in the gap. */
	uint64_t bins[16] = { 0 };
	struct sym_share sh = { 0 };
	struct hist h = { 0 };

	(void)state;
	bins[1] = 2;
	bins[5] = 3;
	bins[13] = 4;
	bins[9] = 5;
	assert_int_equal(hist_add_range(&h, 0x1000, 0x1040, bins, 16), 0);
	sym_share_add(&sh, &h, funcs, 3);
	assert_int_equal(sh.named, 2);
	assert_int_equal(sh.fde, 7);
	assert_int_equal(sh.unknown, 5);
	/* Added, not set: a second process's samples sum. */
	sym_share_add(&sh, &h, funcs, 3);
	assert_int_equal(sh.fde, 14);
	/* No symbols at all: every sample unknown. */
	memset(&sh, 0, sizeof(sh));
	sym_share_add(&sh, &h, NULL, 0);
	assert_int_equal(sh.unknown, 14);
	hist_free(&h);
}

static void test_threshold(void **state)
{
	struct sym_share half = { .named = 5, .fde = 3, .unknown = 2 };
	struct sym_share more = { .named = 4, .fde = 3, .unknown = 3 };
	struct sym_share none = { 0 };
	char buf[512];

	(void)state;
	assert_false(sym_hint(buf, sizeof(buf), &half, "/usr/bin/x", true,
			      NULL));
	assert_string_equal(buf, "");
	assert_false(sym_hint(buf, sizeof(buf), &none, "/usr/bin/x", true,
			      NULL));
	assert_true(sym_hint(buf, sizeof(buf), &more, "/usr/bin/x", true,
			     NULL));
	assert_string_equal(buf, "/usr/bin/x: 60.0% of its samples are in "
			    "unnamed code (unwind-table ranges 30.0%, "
			    "[unknown] 30.0%): install its -dbgsym package, "
			    "or set DEBUGINFOD_URLS="
			    "https://debuginfod.debian.net");
}

static void test_remedies(void **state)
{
	struct sym_share sh = { .named = 1, .fde = 98, .unknown = 1 };
	char buf[512];

	(void)state;
	/* A server is set already: the package is what is left. */
	assert_true(sym_hint(buf, sizeof(buf), &sh,
			     "/lib/x86_64-linux-gnu/liblzma.so.5", true,
			     "https://debuginfod.debian.net"));
	assert_non_null(strstr(buf, ": install its -dbgsym package"));
	assert_null(strstr(buf, "DEBUGINFOD_URLS"));
	/* One's own program: -g, or a server that has its debug info. */
	assert_true(sym_hint(buf, sizeof(buf), &sh, "/home/u/prog", true, ""));
	assert_non_null(strstr(buf, ": rebuild it with -g, or set "
			       "DEBUGINFOD_URLS"));
	/* No build-id: no server can find it. */
	assert_true(sym_hint(buf, sizeof(buf), &sh, "/home/u/prog", false,
			     NULL));
	assert_non_null(strstr(buf, ": rebuild it with -g"));
	assert_null(strstr(buf, "DEBUGINFOD_URLS"));
	assert_true(sym_hint(buf, sizeof(buf), &sh, "/usr/bin/x", false,
			     NULL));
	assert_null(strstr(buf, "DEBUGINFOD_URLS"));
	/* Cut to the buffer, NUL-terminated. */
	assert_true(sym_hint(buf, 8, &sh, "/usr/bin/x", true, NULL));
	assert_string_equal(buf, "/usr/bi");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_share),
		cmocka_unit_test(test_threshold),
		cmocka_unit_test(test_remedies),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
