// SPDX-License-Identifier: GPL-2.0
/*
 * profil-ctl's process inspection (cli/target/target.c) on a child of
 * this test: its executable's text, found in its maps and ELF headers.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <link.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "target.h"

static volatile sig_atomic_t usr1;

static void on_usr1(int sig)
{
	(void)sig;
	usr1 = 1;
}

/* The child: sleeps in short naps; exit 5 if one fails, 0 after SIGUSR1. */
static void child(void)
{
	const struct timespec nap = { 0, 5 * 1000 * 1000 };
	struct sigaction sa = { .sa_handler = on_usr1 };

	sigaction(SIGUSR1, &sa, NULL);
	while (!usr1)
		if (nanosleep(&nap, NULL) < 0 && !usr1)
			_exit(5);
	_exit(0);
}

static pid_t spawn(void)
{
	pid_t pid = fork();

	if (!pid)
		child();
	return pid;
}

static int first_object(struct dl_phdr_info *info, size_t size, void *data)
{
	(void)size;
	*(uint64_t *)data = info->dlpi_addr;
	return 1;
}

/* A forked child runs this very executable: same text, same bias. */
static void text_of_a_child(void **state)
{
	struct target_text t;
	uint64_t bias = 1, fn = (uint64_t)(uintptr_t)&child;
	char self[4096];
	ssize_t n;
	pid_t pid = spawn();

	(void)state;
	assert_true(pid > 0);
	dl_iterate_phdr(first_object, &bias);
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	assert_true(n > 0);
	self[n] = '\0';
	assert_int_equal(0, target_text(pid, &t));
	assert_string_equal(self, t.exe);
	assert_int_equal(bias, t.bias);
	assert_true(t.start <= fn && fn < t.end);
	target_text_free(&t);
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	assert_int_equal(-ESRCH, target_text(pid, &t));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(text_of_a_child),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
