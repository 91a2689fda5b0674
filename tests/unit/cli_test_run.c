// SPDX-License-Identifier: GPL-2.0
/* cli_test_run(): profil-ctl's main() in a child (cli_test.h). */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli_test.h"

/* Up to @len - 1 bytes from the start of @fd into @buf, NUL-terminated. */
static void read_all(int fd, char *buf, size_t len)
{
	size_t have = 0;
	ssize_t n;

	while (have + 1 < len &&
	       (n = pread(fd, buf + have, len - 1 - have, (off_t)have)) > 0)
		have += (size_t)n;
	buf[have] = '\0';
	close(fd);
}

int cli_test_run(const char *dir, char *out, size_t outlen, char *err,
		 size_t errlen, const char *arg0, ...)
{
	char *argv[16] = { "profil-ctl" };
	int argc = 1, st, fo, fe;
	const char *a;
	va_list ap;
	pid_t pid;

	va_start(ap, arg0);
	for (a = arg0; a; a = va_arg(ap, const char *)) {
		assert_true(argc < 15);
		argv[argc++] = (char *)a;
	}
	va_end(ap);
	fo = open(dir, O_TMPFILE | O_RDWR, 0600);
	fe = open(dir, O_TMPFILE | O_RDWR, 0600);
	assert_true(fo >= 0 && fe >= 0);
	fflush(NULL);
	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		if (chdir(dir) || dup2(fo, 1) < 0 || dup2(fe, 2) < 0)
			_exit(99);
		st = profil_ctl_main(argc, argv);
		fflush(NULL);
		_exit(st);
	}
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st));
	read_all(fo, out, outlen);
	read_all(fe, err, errlen);
	return WEXITSTATUS(st);
}
