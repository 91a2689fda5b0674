// SPDX-License-Identifier: GPL-2.0
/*
 * profil-ctl run and attach: profile a whole program (trace.h), run from
 * here or attached to, and show its report.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/wait.h>
#include <unistd.h>

#include "commands.h"
#include "ctl.h"
#include "trace.h"
#include "tracer.h"

static int run_status(int wstatus)
{
	if (WIFEXITED(wstatus))
		return WEXITSTATUS(wstatus);
	if (WIFSIGNALED(wstatus))
		return 128 + WTERMSIG(wstatus);
	return CTL_EXIT_FAIL;
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
	int first, fds[3] = { -1, -1, -1 }, err, ret;
	struct tproc *p;
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
	t.attach = true;
	t.root = o.pid;
	if (trace_fds(&t, o.duration, fds, &old)) {
		ctl_perror(argv[0]);
		return CTL_EXIT_FAIL;
	}
	p = trace_proc_new(&t, o.pid, 0);
	err = p ? trace_attach_threads(&t, p) : -ENOMEM;
	if (err) {
		ctl_errorf(argv[0], "process %d: ptrace: %s", (int)o.pid,
			   tracer_strerror(err));
		trace_finish(&t);
		trace_loop(&t, fds);
		profil_handle_close(t.x.h);
		trace_free(&t);
		return CTL_EXIT_FAIL;
	}
	trace_task_ids(o.pid, &(pid_t){ 0 }, &p->ppid);
	p->need_setup = true;
	p->cleaned = true;
	/* Set up at the first stop of any thread: the leader may be gone. */
	if (!t.ntasks || ptrace(PTRACE_INTERRUPT, t.tasks[0].tid, 0, 0) < 0) {
		ctl_errorf(argv[0], "process %d: ptrace: %s", (int)o.pid,
			   tracer_strerror(-errno));
		trace_finish(&t);
	}
	trace_loop(&t, fds);
	profil_handle_close(t.x.h);
	ret = t.failed ? CTL_EXIT_FAIL : trace_result(&t, &o);
	trace_free(&t);
	return ret;
}
