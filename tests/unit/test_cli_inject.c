// SPDX-License-Identifier: GPL-2.0
/*
 * profil-ctl's system call injection (cli/target/inject.c, cli/target/tracer.c) and
 * process inspection (cli/target/target.c) on a child of this test: mmap() and
 * munmap() run in it, its memory is read and written, and it goes on
 * unharmed: its nanosleep()s never fail and a handled signal that
 * arrives while it is stopped is still delivered. Skipped where ptrace
 * is not allowed.
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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "inject.h"
#include "procmaps.h"
#include "target.h"
#include "tracer.h"

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

static bool mapped(pid_t pid, uint64_t addr, const char *perms)
{
	struct procmaps_entry *v;
	bool found = false;
	size_t n, i;

	if (procmaps_load(pid, &v, &n) < 0)
		return false;
	for (i = 0; i < n; i++)
		if (v[i].start <= addr && addr < v[i].end)
			found = !strcmp(v[i].perms, perms);
	free(v);
	return found;
}

/* A child, seized once it naps; the test skips where ptrace is refused. */
static pid_t spawn_seized(void)
{
	pid_t pid = spawn();
	int err;

	assert_true(pid > 0);
	usleep(20000);
	err = tracer_seize(pid, 0);
	if (err == -EPERM) {
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		skip();
	}
	assert_int_equal(0, err);
	return pid;
}

static void mmap_write_read_munmap(void **state)
{
	struct inject_result res = { .exited = false };
	const char msg[] = "written by the tracer";
	char back[sizeof(msg)];
	struct tracer_stop s;
	uint64_t addr = 0;
	pid_t pid = spawn_seized();
	int st;

	(void)state;
	assert_int_equal(0, tracer_interrupt(pid, &s));
	assert_true(tracer_injectable(s.wstatus));
	assert_int_equal(0, inject_mmap(pid, 3 * 4096, &addr, &res));
	assert_true(addr && !(addr & 4095));
	assert_true(mapped(pid, addr, "rw-p"));
	assert_true(mapped(pid, addr + 2 * 4096, "rw-p"));
	assert_int_equal(0, target_write(pid, addr + 100, msg, sizeof(msg)));
	assert_int_equal(0, target_read(pid, addr + 100, back, sizeof(back)));
	assert_string_equal(msg, back);
	/* A failing call returns its errno: no memory for 2^60 bytes. */
	assert_int_equal(-ENOMEM, inject_mmap(pid, 1ULL << 60, &addr, &res));
	assert_int_equal(0, inject_munmap(pid, addr, 3 * 4096, &res));
	assert_false(mapped(pid, addr, "rw-p"));
	assert_int_equal(-EFAULT, target_read(pid, addr, back, 1));
	assert_false(res.exited || res.exiting);
	assert_int_equal(0, tracer_resume(pid, &s, true, true));
	inject_redeliver(pid, &res);

	/* Its naps went on unbroken; it still handles its signals. */
	usleep(50000);
	kill(pid, SIGUSR1);
	assert_int_equal(pid, waitpid(pid, &st, 0));
	assert_true(WIFEXITED(st));
	assert_int_equal(0, WEXITSTATUS(st));
}

/* A signal that arrives at the stop is delivered after the injection. */
static void signal_at_the_stop_is_delivered(void **state)
{
	struct inject_result res = { .exited = false };
	struct tracer_stop s;
	uint64_t addr = 0;
	pid_t pid = spawn_seized();
	int st;

	(void)state;
	kill(pid, SIGUSR1);
	assert_int_equal(pid, waitpid(pid, &st, __WALL));
	tracer_stop_get(pid, st, &s);
	assert_int_equal(SIGUSR1, s.sig);	/* a signal-delivery-stop */
	assert_true(tracer_injectable(st));
	assert_int_equal(0, inject_mmap(pid, 4096, &addr, &res));
	assert_int_equal(0, inject_munmap(pid, addr, 4096, &res));
	assert_int_equal(0, tracer_resume(pid, &s, true, true));
	inject_redeliver(pid, &res);
	assert_int_equal(pid, waitpid(pid, &st, 0));
	assert_true(WIFEXITED(st));
	assert_int_equal(0, WEXITSTATUS(st));	/* its handler ran */
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
		cmocka_unit_test(mmap_write_read_munmap),
		cmocka_unit_test(signal_at_the_stop_is_delivered),
		cmocka_unit_test(text_of_a_child),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
