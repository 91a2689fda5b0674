// SPDX-License-Identifier: GPL-2.0
/*
 * profil-ctl run and attach: profile a whole program (trace.h), run from
 * here or attached to, and show its report.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "commands.h"
#include "ctl.h"
#include "trace.h"

static int run_status(int wstatus)
{
	if (WIFEXITED(wstatus))
		return WEXITSTATUS(wstatus);
	if (WIFSIGNALED(wstatus))
		return 128 + WTERMSIG(wstatus);
	return CTL_EXIT_FAIL;
}

/*
 * @p's command: @pid's /proc/PID/cmdline, NUL-separated words. Not
 * knowing it (the process is gone, a kernel thread) is not an error.
 */
static void attach_command(struct profile *p, pid_t pid)
{
	char path[64], buf[4096], *words[256];
	size_t len, n = 0, i;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/cmdline", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return;
	len = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[len] = '\0';
	for (i = 0; i < len && n < sizeof(words) / sizeof(words[0]);
	     i += strlen(buf + i) + 1)
		words[n++] = buf + i;
	if (n)
		profile_set_command(p, words, n);
}

int cmd_run(int argc, char **argv)
{
	struct profile profile;
	struct live_opts o;
	struct trace t;
	int first, fds[3] = { -1, -1, -1 }, ret;
	sigset_t old;

	first = live_parse_opts(argc, argv, LIVE_OPTS_PROFILE |
				LIVE_OPTS_REPORT | LIVE_OPTS_COMMAND |
				LIVE_OPTS_WHOLE, &o);
	if (first < 0)
		return live_parse_exit(first);
	if (first >= argc)
		return ctl_usage_error(argv[0], "no program to run");
	if (trace_init(&t, argv[0], &o, &profile) < 0)
		return CTL_EXIT_FAIL;
	/* The command line names the profile (HTML, callgrind, pprof). */
	if (profile_set_command(&profile, argv + first,
				(size_t)(argc - first))) {
		ctl_perror(argv[0]);
		trace_free(&t);
		return CTL_EXIT_FAIL;
	}
	if (trace_fds(&t, 0, fds, &old)) {
		ctl_perror(argv[0]);
		return CTL_EXIT_FAIL;
	}
	if (trace_spawn(&t, argv + first, &old, false) < 0)
		return CTL_EXIT_FAIL;
	if (trace_loop(&t, fds) < 0)
		kill(t.root, SIGKILL);
	profil_handle_close(t.x.h);
	if (!t.root_exited || t.killed) {
		trace_free(&t);
		return CTL_EXIT_FAIL;
	}
	ret = trace_result(&t, &o);
	trace_free(&t);
	/* The program's status first; ours only if it succeeded. */
	return run_status(t.wstatus) ? run_status(t.wstatus) : ret;
}

int cmd_attach(int argc, char **argv)
{
	struct profile profile;
	struct live_opts o;
	struct trace t;
	int first, fds[3] = { -1, -1, -1 }, ret;
	bool attached;
	sigset_t old;

	first = live_parse_opts(argc, argv, LIVE_OPTS_PID | LIVE_OPTS_PROFILE |
				LIVE_OPTS_REPORT | LIVE_OPTS_DURATION |
				LIVE_OPTS_WHOLE, &o);
	if (first < 0)
		return live_parse_exit(first);
	if (first < argc)
		return ctl_usage_error(argv[0], "unexpected argument '%s'",
				       argv[first]);
	if (!o.pid)
		return ctl_usage_error(argv[0], "no PID given");
	if (o.pid == getpid())
		return ctl_usage_error(argv[0], "cannot attach to itself");
	if (trace_init(&t, argv[0], &o, &profile) < 0)
		return CTL_EXIT_FAIL;
	if (trace_fds(&t, o.duration, fds, &old)) {
		ctl_perror(argv[0]);
		return CTL_EXIT_FAIL;
	}
	attach_command(&profile, o.pid);
	attached = trace_attach(&t, o.pid) == 0;
	trace_loop(&t, fds);
	profil_handle_close(t.x.h);
	ret = !attached || t.failed ? CTL_EXIT_FAIL : trace_result(&t, &o);
	trace_free(&t);
	return ret;
}
