// SPDX-License-Identifier: GPL-2.0
/*
 * profil-ctl run and attach: profile a whole program, run from here or
 * attached to, followed by the kernel (collect.h), and show its report.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "commands.h"
#include "ctl.h"
#include "collect.h"

int cmd_run(int argc, char **argv)
{
	struct live_opts o;
	struct collect c;
	int first, ret = CTL_EXIT_FAIL;

	first = live_parse_opts(argc, argv, LIVE_OPTS_PROFILE |
				LIVE_OPTS_REPORT | LIVE_OPTS_COMMAND |
				LIVE_OPTS_WHOLE | LIVE_OPTS_INHERIT, &o);
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
	return collect_command_status(&c) ? collect_command_status(&c) : ret;
}

int cmd_attach(int argc, char **argv)
{
	struct live_opts o;
	struct collect c;
	int first, ret = CTL_EXIT_FAIL;

	first = live_parse_opts(argc, argv, LIVE_OPTS_PID | LIVE_OPTS_PROFILE |
				LIVE_OPTS_REPORT | LIVE_OPTS_DURATION |
				LIVE_OPTS_WHOLE | LIVE_OPTS_INHERIT, &o);
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
	if (collect_command_of(&c, o.pid)) {
		ctl_perror(argv[0]);
		goto out;
	}
	if (!collect_attach(&c, o.pid) && !collect_loop(&c))
		ret = collect_result(&c, &o);
out:
	collect_free(&c);
	return ret;
}
