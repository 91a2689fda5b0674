// SPDX-License-Identifier: GPL-2.0
/*
 * profil-ctl run and attach: profile a whole program, run from here or
 * attached to, followed by the kernel (collect.h), and show its report.
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
#include "collect.h"

static int run_status(int wstatus)
{
	if (WIFEXITED(wstatus))
		return WEXITSTATUS(wstatus);
	if (WIFSIGNALED(wstatus))
		return 128 + WTERMSIG(wstatus);
	return CTL_EXIT_FAIL;
}

/*
 * @c's command: @pid's /proc/PID/cmdline, NUL-separated words. Not
 * knowing it (the process is gone, a kernel thread) is not an error.
 */
static int attach_command(struct collect *c, pid_t pid)
{
	char path[64], buf[4096], *words[256];
	size_t len, n = 0, i;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/cmdline", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return 0;
	len = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[len] = '\0';
	for (i = 0; i < len && n < sizeof(words) / sizeof(words[0]);
	     i += strlen(buf + i) + 1)
		words[n++] = buf + i;
	return n ? collect_set_command(c, words, n) : 0;
}

int cmd_run(int argc, char **argv)
{
	struct live_opts o;
	struct collect c;
	int first, ret = CTL_EXIT_FAIL;

	first = live_parse_opts(argc, argv, LIVE_OPTS_PROFILE |
				LIVE_OPTS_REPORT | LIVE_OPTS_COMMAND |
				LIVE_OPTS_WHOLE, &o);
	if (first < 0)
		return live_parse_exit(first);
	if (first >= argc)
		return ctl_usage_error(argv[0], "no program to run");
	if (collect_init(&c, argv[0], &o) < 0)
		goto out;
	/* The command line names the profile (HTML, callgrind, pprof). */
	if (collect_set_command(&c, argv + first, (size_t)(argc - first))) {
		ctl_perror(argv[0]);
		goto out;
	}
	if (collect_spawn(&c, argv + first, false) < 0)
		goto out;
	if (collect_loop(&c) < 0) {
		kill(c.root, SIGKILL);
		goto out;
	}
	ret = collect_result(&c, &o);
out:
	collect_free(&c);
	if (!c.root_exited)
		return CTL_EXIT_FAIL;
	/* The program's status first; ours only if it succeeded. */
	return run_status(c.wstatus) ? run_status(c.wstatus) : ret;
}

int cmd_attach(int argc, char **argv)
{
	struct live_opts o;
	struct collect c;
	int first, ret = CTL_EXIT_FAIL;

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
	if (collect_init(&c, argv[0], &o) < 0)
		goto out;
	if (attach_command(&c, o.pid)) {
		ctl_perror(argv[0]);
		goto out;
	}
	if (!collect_attach(&c, o.pid) && !collect_loop(&c))
		ret = collect_result(&c, &o);
out:
	collect_free(&c);
	return ret;
}
