/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the whole-program profile's drivers share (test_cli_profile.c,
 * the text report; test_cli_profile_formats.c, JSON, CSV, gmon.out and
 * the command line; test_cli_profile_file.c, the saved file and "report
 * FILE"): a profile built by hand, its report and saved text in a
 * string, and a scratch directory where profil-ctl runs. Built into
 * libclitest.a (Makefile) with the other cli_test_*.c.
 *
 * The profile: two processes and three objects, a program (SYM), a
 * shared library whose recorded build-id is not its own (SO, WRONG_ID),
 * a library whose file is gone (GONE).
 */
#ifndef CLI_TEST_PROFILE_H
#define CLI_TEST_PROFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "profile.h"
#include "render.h"

#define SYM UNIT_OUT "/cli_sym_target"
#define SO UNIT_OUT "/cli_so_target.so"
#define GONE "/nonexistent/libgone.so"
#define WRONG_ID "0011223344556677"

/* The scratch directory (whole_setup()); profil-ctl's output in it. */
extern char dir[];
extern char out[65536], err[16384];

/* profil-ctl ARGS... (NULL-terminated) in a child in dir. */
#define ctl(...) cli_test_run(dir, out, sizeof(out), err, sizeof(err), __VA_ARGS__)

/** whole_setup() - cmocka group setup: make dir */
int whole_setup(void **state);

/** whole_teardown() - cmocka group teardown: remove dir */
int whole_teardown(void **state);

/** whole_add_range() - add @n bins over [@low, @high) to @c, or fail */
void whole_add_range(struct profile_count *c, uint64_t low, uint64_t high,
		     const uint64_t *bins, size_t n);

/**
 * whole_build() - the profile, in @p
 *
 * Objects: 0 SYM (the program), 1 SO (recorded with a wrong build-id),
 * 2 GONE. Processes: 0 pid 100 "sym", 1 pid 101 "so user".
 * Samples: (sym, SYM) 10 in target_alpha, 2 in no function; (sym, SO)
 * 3 uncovered; (so user, SO) 5 in so_work; (so user, GONE) 1 + 3.
 * Per object 12, 8, 4 of 24: 50 %, 33.33 %, 16.67 %.
 */
void whole_build(struct profile *p);

/**
 * whole_build_odd() - whole_build()'s profile, and strings that need
 * escaping, a merged count, unknown figures
 */
void whole_build_odd(struct profile *p);

/**
 * whole_report() - profile_report() of @p into a string, one table per
 * object
 * Return: the report, to free().
 */
char *whole_report(const struct profile *p, enum render_view view,
		   enum render_format fmt, bool per_process, bool verbose);

/** whole_save() - profile_save() of @p into a string, to free() */
char *whole_save(const struct profile *p);

/** whole_load() - profile_load_mem(): the saved text @s of @len bytes */
int whole_load(const char *s, size_t len, struct profile *p, char *e,
	       size_t elen);

/** whole_save_as() - save @p to dir/@name; its path in @path */
void whole_save_as(const struct profile *p, const char *name, char *path,
		   size_t len);

/**
 * expect() - fail unless profil-ctl exited @want (@code) and @msg is in
 * @buf (out or err)
 */
void expect(int code, int want, const char *buf, const char *msg);

/** whole_sh() - run a shell command line, printf-style; its exit status */
int whole_sh(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/** whole_write_file() - write @s to @path, or fail */
void whole_write_file(const char *path, const char *s);

#endif /* CLI_TEST_PROFILE_H */
