// SPDX-License-Identifier: GPL-2.0
/*
 * profil-ctl record -a: every process of the machine (or of a cgroup,
 * -G) followed by the kernel until interrupted, --duration, or the end
 * of a command given after "--", as perf record -a; then the report,
 * as run's.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <sys/wait.h>

#include "commands.h"
#include "ctl.h"
#include "collect.h"

/* record's rate when none is given: a prime, out of step with timers. */
#define RECORD_DEFAULT_RATE 97

int cmd_record(int argc, char **argv)
{
	struct live_opts o;
	struct collect c;
	int first, ret = CTL_EXIT_FAIL;

	first = live_parse_opts(argc, argv, LIVE_OPTS_MACHINE |
				LIVE_OPTS_PROFILE | LIVE_OPTS_REPORT |
				LIVE_OPTS_DURATION | LIVE_OPTS_WHOLE |
				LIVE_OPTS_COMMAND, &o);
	if (first < 0)
		return live_parse_exit(first);
	if (!o.all)
		return ctl_usage_error(argv[0], "record samples every process: "
				       "-a, or -G CGROUP (\"run\" follows "
				       "one program)");
	if (!o.rate)
		o.rate = RECORD_DEFAULT_RATE;
	if (collect_init(&c, argv[0], &o) < 0)
		goto out;
	if (collect_machine(&c, o.cgroup) < 0)
		goto out;
	if (first < argc) {
		if (collect_set_command(&c, argv + first,
					(size_t)(argc - first))) {
			ctl_perror(argv[0]);
			goto out;
		}
		if (collect_spawn(&c, argv + first, false) < 0)
			goto out;
	}
	if (!collect_loop(&c))
		ret = collect_result(&c, &o);
	if (c.root && !c.root_exited)
		kill(c.root, SIGKILL);
out:
	collect_free(&c);
	/* A command's status first, as run's; ours only if it succeeded. */
	if (c.root_exited && collect_command_status(&c))
		return collect_command_status(&c);
	return ret;
}
