// SPDX-License-Identifier: GPL-2.0
/*
 * profil-ctl run and attach: profile a whole program (trace.h), run from
 * here or attached to, and show its report.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
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

/* The child: wait until seized, then become the program. */
static void run_child(int gate, const sigset_t *mask, char **argv)
{
	char c;

	sigprocmask(SIG_SETMASK, mask, NULL);
	if (read(gate, &c, 1) != 0)
		_exit(127);	/* the parent gave up */
	execvp(argv[0], argv);
	ctl_errorf("run", "%s: %s", argv[0], strerror(errno));
	_exit(errno == ENOENT ? 127 : 126);
}

int cmd_run(int argc, char **argv)
{
	struct profile profile;
	struct live_opts o;
	struct trace t;
	int first, gate[2], fds[3] = { -1, -1, -1 }, ret, err;
	struct tproc *p;
	sigset_t old;
	pid_t pid;

	first = live_parse_opts(argc, argv, LIVE_OPTS_PROFILE |
				LIVE_OPTS_REPORT | LIVE_OPTS_COMMAND |
				LIVE_OPTS_WHOLE, &o);
	if (first < 0)
		return live_parse_exit(first);
	if (first >= argc)
		return ctl_usage_error(argv[0], "no program to run");
	if (trace_init(&t, argv[0], &o, &profile) < 0)
		return CTL_EXIT_FAIL;
	t.options |= PTRACE_O_EXITKILL;
	if (pipe2(gate, O_CLOEXEC) < 0 || trace_fds(0, fds, &old)) {
		ctl_perror(argv[0]);
		return CTL_EXIT_FAIL;
	}
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		ctl_perror(argv[0]);
		return CTL_EXIT_FAIL;
	}
	if (!pid) {
		close(gate[1]);
		run_child(gate[0], &old, argv + first);
	}
	close(gate[0]);
	t.root = pid;
	err = tracer_seize(pid, t.options);
	p = err ? NULL : trace_proc_new(&t, pid, getpid());
	if (!p || !trace_task_new(&t, pid, p)) {
		ctl_errorf(argv[0], "ptrace: %s", tracer_strerror(err ? err :
								  -ENOMEM));
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		return CTL_EXIT_FAIL;
	}
	p->cleaned = true;	/* set up after its execve() */
	close(gate[1]);		/* the child execs */
	if (trace_loop(&t, fds) < 0)
		kill(pid, SIGKILL);
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
	if (trace_fds(o.duration, fds, &old)) {
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
