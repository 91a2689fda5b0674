// SPDX-License-Identifier: GPL-2.0
/*
 * profil-ctl top's frames (cli/format/top.c): the plain frame's header,
 * notes, rows and percentages; the terminal frame cut to the width and
 * stopped at the height, never scrolling, every line erased to its end.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "top.h"

static const struct top_row funcs[] = {
	{ "hot_dso", "profil_ctl_dso.so", 75, 300 },
	{ "hot_a", "profil_ctl_work", 20, 600 },
	{ "a_function_with_a_name_long_enough_to_be_cut_at_the_edge",
	  "profil_ctl_work", 5, 100 },
};

static const struct top_row objects[] = {
	{ "profil_ctl_dso.so", NULL, 75, 300 },
	{ "profil_ctl_work", NULL, 25, 700 },
};

static const char *const notes[] = {
	"region added: process 42, profil_ctl_dso.so",
};

static struct top_frame frame(void)
{
	return (struct top_frame){
		.target = "profil_ctl_work", .rate = 100, .elapsed = 10.0,
		.seconds = 1.0, .live = 1, .interval = 100, .total = 1000,
		.funcs = funcs, .nfuncs = 3, .objects = objects, .nobjects = 2,
		.notes = notes, .nnotes = 1,
	};
}

static char *plain(const struct top_frame *fr, size_t max)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	top_render_plain(f, fr, max);
	assert_int_equal(fclose(f), 0);
	return buf;
}

static char *screen(const struct top_frame *fr, int cols, int lines)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	top_render_screen(f, fr, cols, lines);
	assert_int_equal(fclose(f), 0);
	return buf;
}

static void test_plain(void **state)
{
	struct top_frame fr = frame();
	char *s;

	(void)state;
	s = plain(&fr, 20);
	assert_non_null(strstr(s, "top: profil_ctl_work, 1 process, 100 Hz, "
			       "10.0 s: 100.0 samples/s, 100 in the last "
			       "1.0 s, 1000 in all\n"));
	assert_non_null(strstr(s, "\nnote: region added: process 42, "
			       "profil_ctl_dso.so\n"));
	/* 75 of 100 in the interval, 300 of 1000 in all. */
	assert_non_null(strstr(s, "  75.0%       75    30.0%       300  "
			       "profil_ctl_dso.so     hot_dso\n"));
	assert_non_null(strstr(s, "  25.0%       25    70.0%       700  "
			       "profil_ctl_work\n"));
	assert_null(strchr(s, '\033'));
	assert_int_equal(s[strlen(s) - 1], '\n');
	assert_int_equal(s[strlen(s) - 2], '\n');
	free(s);

	/* At most max functions; the end says so. */
	fr.end = true;
	fr.live = 0;
	s = plain(&fr, 1);
	assert_non_null(strstr(s, "top (end): profil_ctl_work, 0 processes"));
	assert_non_null(strstr(s, "hot_dso"));
	assert_null(strstr(s, "hot_a"));
	free(s);
}

/* Lines of a terminal frame: the text between the home sequence and \033[J. */
static size_t screen_lines(char *s, size_t *widest)
{
	char *p, *eol;
	size_t n = 0, w;

	assert_memory_equal(s, "\033[H", 3);
	p = strstr(s, "\033[J");
	assert_non_null(p);
	assert_string_equal(p, "\033[J");	/* nothing after it */
	*p = '\0';
	*widest = 0;
	for (p = s + 3; p; p = eol ? eol + 1 : NULL) {
		eol = strchr(p, '\n');
		if (eol)
			*eol = '\0';
		w = strlen(p);
		assert_true(w >= 3);
		assert_string_equal(p + w - 3, "\033[K");
		if (w - 3 > *widest)
			*widest = w - 3;
		n++;
	}
	return n;
}

static void test_screen(void **state)
{
	struct top_frame fr = frame();
	size_t n, widest;
	char *s;

	(void)state;
	/* Room for everything: 12 lines, the last with no newline. */
	s = screen(&fr, 200, 40);
	assert_non_null(strstr(s, "profil-ctl top: profil_ctl_work  1 process"
			       "  100 Hz  10 s  q: quit"));
	assert_non_null(strstr(s, "note: region added: process 42"));
	assert_non_null(strstr(s, "a_function_with_a_name_long_enough_to_be_"
			       "cut_at_the_edge\033[K"));
	assert_int_not_equal(s[strlen(s) - 4], '\n');
	n = screen_lines(s, &widest);
	assert_int_equal(n, 12);
	free(s);

	/* 60 x 9: cut to the width, stopped at the height. */
	s = screen(&fr, 60, 9);
	assert_null(strstr(s, "cut_at_the_edge"));
	n = screen_lines(s, &widest);
	assert_int_equal(n, 9);
	assert_true(widest <= 60);
	free(s);

	/* The end. */
	fr.end = true;
	s = screen(&fr, 80, 24);
	assert_non_null(strstr(s, "(ended)"));
	free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plain),
		cmocka_unit_test(test_screen),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
