// SPDX-License-Identifier: GPL-2.0
/*
 * profil-ctl serve's pure parts: a request's seconds, the listen
 * address, the auth file (its line, its mode) and the comparison of
 * credentials (cli/util/serve_opts.c); the cgroup paths of cgroup ids,
 * on a directory tree made here (cli/target/cgroups.c); a request's
 * baseline subtracted from a later read (cli/target/held.c).
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cgroups.h"
#include "held.h"
#include "serve_opts.h"

static void seconds(void **state)
{
	char why[256];
	unsigned int s = 0;

	(void)state;
	/* Missing: Go's 30, or the limit if lower. */
	assert_int_equal(0, serve_parse_seconds(NULL, 300, &s, why, 256));
	assert_int_equal(30, s);
	assert_int_equal(0, serve_parse_seconds(NULL, 10, &s, why, 256));
	assert_int_equal(10, s);
	assert_int_equal(0, serve_parse_seconds("2", 300, &s, why, 256));
	assert_int_equal(2, s);
	assert_int_equal(0, serve_parse_seconds("300", 300, &s, why, 256));
	assert_int_equal(300, s);
	assert_int_equal(0, serve_parse_seconds("+7", 300, &s, why, 256));
	assert_int_equal(7, s);
	/* Refused, each with its one-line reason. */
	assert_int_equal(-1, serve_parse_seconds("abc", 300, &s, why, 256));
	assert_non_null(strstr(why, "not a whole number"));
	assert_null(strchr(why, '\n'));
	assert_int_equal(-1, serve_parse_seconds("", 300, &s, why, 256));
	assert_int_equal(-1, serve_parse_seconds("1.5", 300, &s, why, 256));
	assert_int_equal(-1, serve_parse_seconds("2s", 300, &s, why, 256));
	assert_int_equal(-1, serve_parse_seconds(" 2", 300, &s, why, 256));
	assert_int_equal(-1, serve_parse_seconds("-", 300, &s, why, 256));
	assert_int_equal(-1, serve_parse_seconds("0", 300, &s, why, 256));
	assert_non_null(strstr(why, "not above 0"));
	assert_int_equal(-1, serve_parse_seconds("-5", 300, &s, why, 256));
	assert_non_null(strstr(why, "not above 0"));
	assert_int_equal(-1, serve_parse_seconds("301", 300, &s, why, 256));
	assert_non_null(strstr(why, "--max-seconds"));
	assert_int_equal(-1, serve_parse_seconds("100000", 300, &s, why,
						 256));
	/* Past any integer: still refused, never wrapped round. */
	assert_int_equal(-1, serve_parse_seconds("18446744073709551617",
						 300, &s, why, 256));
	assert_non_null(strstr(why, "--max-seconds"));
	assert_int_equal(7, s);	/* untouched by refusals */
}

static void listen_addr(void **state)
{
	char host[64];
	unsigned int port;

	(void)state;
	assert_int_equal(0, serve_parse_listen("127.0.0.1:6060", host,
					       sizeof(host), &port));
	assert_string_equal("127.0.0.1", host);
	assert_int_equal(6060, port);
	assert_int_equal(0, serve_parse_listen("[::1]:8080", host,
					       sizeof(host), &port));
	assert_string_equal("::1", host);
	assert_int_equal(8080, port);
	assert_int_equal(0, serve_parse_listen(":7000", host, sizeof(host),
					       &port));
	assert_string_equal("", host);
	assert_int_equal(0, serve_parse_listen("localhost:1", host,
					       sizeof(host), &port));
	assert_string_equal("localhost", host);
	assert_int_equal(1, port);
	assert_int_equal(-1, serve_parse_listen("127.0.0.1", host,
						sizeof(host), &port));
	assert_int_equal(-1, serve_parse_listen("127.0.0.1:0", host,
						sizeof(host), &port));
	assert_int_equal(-1, serve_parse_listen("127.0.0.1:65536", host,
						sizeof(host), &port));
	assert_int_equal(-1, serve_parse_listen("127.0.0.1:x", host,
						sizeof(host), &port));
	assert_int_equal(-1, serve_parse_listen("::1:80", host, sizeof(host),
						&port));
	assert_int_equal(-1, serve_parse_listen("[::1]80", host, sizeof(host),
						&port));
	assert_int_equal(-1, serve_parse_listen("[]:80", host, sizeof(host),
						&port));
	assert_int_equal(-1, serve_parse_listen("a-very-long-host-name-that-"
						"does-not-fit-in-sixty-four-"
						"bytes.example:80", host,
						sizeof(host), &port));
}

static void auth_line(void **state)
{
	struct serve_auth a;
	char why[256];

	(void)state;
	assert_int_equal(0, serve_auth_parse("user:pass\n", &a, why, 256));
	assert_string_equal("user", a.user);
	assert_string_equal("pass", a.password);
	/* The password may hold colons; CRLF and trailing blank lines. */
	assert_int_equal(0, serve_auth_parse("u:p:a:s\r\n\n", &a, why, 256));
	assert_string_equal("u", a.user);
	assert_string_equal("p:a:s", a.password);
	assert_int_equal(0, serve_auth_parse("u:p", &a, why, 256));
	assert_string_equal("p", a.password);
	assert_int_equal(-1, serve_auth_parse("userpass\n", &a, why, 256));
	assert_int_equal(-1, serve_auth_parse(":pass\n", &a, why, 256));
	assert_non_null(strstr(why, "user name"));
	assert_int_equal(-1, serve_auth_parse("user:\n", &a, why, 256));
	assert_non_null(strstr(why, "password"));
	assert_int_equal(-1, serve_auth_parse("", &a, why, 256));
	assert_int_equal(-1, serve_auth_parse("a:b\nc:d\n", &a, why, 256));
	assert_non_null(strstr(why, "more than one line"));
	assert_int_equal(-1, serve_auth_parse("a:b\rc\n", &a, why, 256));
}

/* @text into a new file of mode @mode under @dir; its path in @path. */
static void auth_file_at(const char *dir, const char *text, mode_t mode,
			 char *path, size_t len)
{
	static int n;
	int fd;

	snprintf(path, len, "%s/auth%d", dir, n++);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	assert_true(fd >= 0);
	assert_int_equal((ssize_t)strlen(text), write(fd, text, strlen(text)));
	close(fd);
	assert_int_equal(0, chmod(path, mode));
}

static void auth_file(void **state)
{
	char dir[] = "/tmp/test_cli_serve.XXXXXX", path[256], why[512];
	struct serve_auth a;

	(void)state;
	assert_non_null(mkdtemp(dir));
	auth_file_at(dir, "me:secret\n", 0600, path, sizeof(path));
	assert_int_equal(0, serve_auth_load(path, &a, why, sizeof(why)));
	assert_string_equal("me", a.user);
	assert_string_equal("secret", a.password);
	unlink(path);
	auth_file_at(dir, "me:secret\n", 0640, path, sizeof(path));
	assert_int_equal(0, serve_auth_load(path, &a, why, sizeof(why)));
	unlink(path);
	/* Any bit for others is refused: read, write, even execute. */
	auth_file_at(dir, "me:secret\n", 0644, path, sizeof(path));
	assert_int_equal(-1, serve_auth_load(path, &a, why, sizeof(why)));
	assert_non_null(strstr(why, "0644"));
	assert_non_null(strstr(why, "chmod o="));
	assert_null(strstr(why, "secret"));
	unlink(path);
	auth_file_at(dir, "me:secret\n", 0602, path, sizeof(path));
	assert_int_equal(-1, serve_auth_load(path, &a, why, sizeof(why)));
	unlink(path);
	auth_file_at(dir, "me:secret\n", 0601, path, sizeof(path));
	assert_int_equal(-1, serve_auth_load(path, &a, why, sizeof(why)));
	unlink(path);
	/* A bad line names the file, never the password. */
	auth_file_at(dir, "me:secret\nyou:other\n", 0600, path, sizeof(path));
	assert_int_equal(-1, serve_auth_load(path, &a, why, sizeof(why)));
	assert_non_null(strstr(why, path));
	assert_null(strstr(why, "secret"));
	unlink(path);
	auth_file_at(dir, "", 0600, path, sizeof(path));
	assert_int_equal(-1, serve_auth_load(path, &a, why, sizeof(why)));
	unlink(path);
	/* Missing; a directory. */
	assert_int_equal(-1, serve_auth_load(path, &a, why, sizeof(why)));
	assert_non_null(strstr(why, "No such file"));
	assert_int_equal(-1, serve_auth_load(dir, &a, why, sizeof(why)));
	assert_non_null(strstr(why, "not a regular file"));
	assert_int_equal(0, rmdir(dir));
}

static void credentials(void **state)
{
	struct serve_auth a = { .user = "user", .password = "p4ss" };

	(void)state;
	assert_true(serve_equal("", ""));
	assert_true(serve_equal("abc", "abc"));
	assert_false(serve_equal("abd", "abc"));
	assert_false(serve_equal("ab", "abc"));
	assert_false(serve_equal("abcd", "abc"));
	assert_false(serve_equal("", "abc"));
	assert_false(serve_equal("abc", ""));
	assert_true(serve_auth_check(&a, "user", "p4ss"));
	assert_false(serve_auth_check(&a, "user", "p4sS"));
	assert_false(serve_auth_check(&a, "usr", "p4ss"));
	assert_false(serve_auth_check(&a, NULL, NULL));
	assert_false(serve_auth_check(&a, "user", NULL));
	assert_false(serve_auth_check(&a, NULL, "p4ss"));
	serve_auth_clear(&a);
	assert_string_equal("", a.password);
}

static uint64_t ino_of(const char *path)
{
	struct stat st;

	assert_int_equal(0, stat(path, &st));
	return (uint64_t)st.st_ino;
}

static void cgroup_paths(void **state)
{
	char root[] = "/tmp/test_cli_cgroups.XXXXXX", p[256];
	static const char *const dirs[] = {
		"system.slice", "system.slice/ssh.service", "user.slice",
		"user.slice/user-1000.slice",
		"user.slice/user-1000.slice/session-2.scope",
	};
	struct cgroups cg = { 0 };
	size_t i;
	int fd;

	(void)state;
	assert_non_null(mkdtemp(root));
	for (i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		snprintf(p, sizeof(p), "%s/%s", root, dirs[i]);
		assert_int_equal(0, mkdir(p, 0755));
	}
	/* Files, as a cgroup's interface files, are no cgroups. */
	snprintf(p, sizeof(p), "%s/system.slice/cgroup.procs", root);
	fd = open(p, O_WRONLY | O_CREAT, 0644);
	assert_true(fd >= 0);
	close(fd);
	/* Nor is a symbolic link to a directory. */
	snprintf(p, sizeof(p), "%s/link", root);
	assert_int_equal(0, symlink("user.slice", p));

	assert_int_equal(0, cgroups_load(&cg, root));
	assert_int_equal(6, cg.n);
	assert_string_equal("/", cgroups_find(&cg, ino_of(root)));
	for (i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		char want[256];

		snprintf(p, sizeof(p), "%s/%s", root, dirs[i]);
		snprintf(want, sizeof(want), "/%s", dirs[i]);
		assert_string_equal(want, cgroups_find(&cg, ino_of(p)));
	}
	snprintf(p, sizeof(p), "%s/system.slice/cgroup.procs", root);
	assert_null(cgroups_find(&cg, ino_of(p)));
	assert_null(cgroups_find(&cg, 0));

	/* Loaded again: what was removed is gone. */
	snprintf(p, sizeof(p), "%s/system.slice/ssh.service", root);
	assert_int_equal(0, rmdir(p));
	assert_int_equal(0, cgroups_load(&cg, root));
	assert_int_equal(5, cg.n);
	/* A root that does not exist: none, and no error. */
	assert_int_equal(0, cgroups_load(&cg, "/nonexistent/cgroup"));
	assert_int_equal(0, cg.n);
	cgroups_free(&cg);

	snprintf(p, sizeof(p), "rm -rf '%s'", root);
	assert_int_equal(0, system(p));
}

static void baseline(void **state)
{
	const struct profil_sample before[] = {
		{ .image = 1, .object = 1, .offset = 0x1000, .count = 10 },
		{ .image = 1, .object = 2, .offset = 0x1000, .count = 4 },
		{ .image = 2, .object = 1, .offset = 0x2000, .count = 7 },
		{ .image = 1, .object = 1, .offset = 0x1004, .count = 1 },
	};
	struct profil_sample s;
	struct held_baseline b = { 0 };
	struct profile_acct a, base;
	size_t i;

	(void)state;
	/* Empty: subtracts nothing. */
	s = (struct profil_sample){ .image = 1, .object = 1,
				    .offset = 0x1000, .count = 12 };
	assert_int_equal(12, held_baseline_since(&b, &s));
	for (i = 0; i < sizeof(before) / sizeof(before[0]); i++)
		assert_int_equal(0, held_baseline_add(&b, &before[i]));
	held_baseline_sort(&b);
	/* The counts since: the same (image, object, offset) only. */
	assert_int_equal(2, held_baseline_since(&b, &s));
	s.count = 10;
	assert_int_equal(0, held_baseline_since(&b, &s));
	s.offset = 0x1004;
	s.count = 5;
	assert_int_equal(4, held_baseline_since(&b, &s));
	s = (struct profil_sample){ .image = 1, .object = 2,
				    .offset = 0x1000, .count = 4 };
	assert_int_equal(0, held_baseline_since(&b, &s));
	s = (struct profil_sample){ .image = 2, .object = 1,
				    .offset = 0x2000, .count = 9 };
	assert_int_equal(2, held_baseline_since(&b, &s));
	/* New image, object or offset: all of it is new. */
	s = (struct profil_sample){ .image = 3, .object = 1,
				    .offset = 0x2000, .count = 9 };
	assert_int_equal(9, held_baseline_since(&b, &s));
	s = (struct profil_sample){ .image = 2, .object = 2,
				    .offset = 0x2000, .count = 3 };
	assert_int_equal(3, held_baseline_since(&b, &s));
	s = (struct profil_sample){ .image = 2, .object = 1,
				    .offset = 0x2004, .count = 3 };
	assert_int_equal(3, held_baseline_since(&b, &s));
	/* Never below zero (a saturated counter, another profile's). */
	s = (struct profil_sample){ .image = 1, .object = 1,
				    .offset = 0x1000, .count = 3 };
	assert_int_equal(0, held_baseline_since(&b, &s));
	held_baseline_free(&b);
	assert_int_equal(0, b.n);
	assert_null(b.v);

	/* Many, in any order: the search finds each. */
	for (i = 0; i < 5000; i++) {
		s = (struct profil_sample){ .image = (uint32_t)(i % 7 + 1),
					    .object = (uint32_t)(i % 3 + 1),
					    .offset = (i * 7919) % 100003,
					    .count = i };
		assert_int_equal(0, held_baseline_add(&b, &s));
	}
	held_baseline_sort(&b);
	for (i = 0; i < 5000; i += 37) {
		s = (struct profil_sample){ .image = (uint32_t)(i % 7 + 1),
					    .object = (uint32_t)(i % 3 + 1),
					    .offset = (i * 7919) % 100003,
					    .count = i + 5 };
		assert_int_equal(5, held_baseline_since(&b, &s));
	}
	held_baseline_free(&b);

	/* The accounting: field by field, unknown stays unknown. */
	a = (struct profile_acct){ .ticks = 100, .missed = 3, .kernel = 20,
				   .lost = PROFILE_UNKNOWN, .saturated = 1 };
	base = (struct profile_acct){ .ticks = 40, .missed = 5, .kernel = 20,
				      .lost = 2 };
	held_acct_since(&a, &base);
	assert_int_equal(60, a.ticks);
	assert_int_equal(0, a.missed);
	assert_int_equal(0, a.kernel);
	assert_true(a.lost == PROFILE_UNKNOWN);
	assert_int_equal(1, a.saturated);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(seconds),
		cmocka_unit_test(listen_addr),
		cmocka_unit_test(auth_line),
		cmocka_unit_test(auth_file),
		cmocka_unit_test(credentials),
		cmocka_unit_test(cgroup_paths),
		cmocka_unit_test(baseline),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
