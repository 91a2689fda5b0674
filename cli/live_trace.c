// SPDX-License-Identifier: GPL-2.0
/*
 * profil-ctl run and attach: profile a process while tracing it.
 *
 * The process is seized with ptrace (PTRACE_SEIZE, so that job-control
 * stops are told apart from signals). At an injectable stop (after the
 * execve() of run's program, or PTRACE_INTERRUPT for attach) a buffer is
 * mapped into it and its session started; then it runs, every signal it
 * gets delivered as usual. At the end (its PTRACE_EVENT_EXIT stop, or
 * attach's end) the session is stopped, which returns only when nothing
 * writes the buffer any more, and the buffer is read.
 *
 * An execve() stops the kernel's session and takes the buffer with the
 * old image: a new buffer is set up for the new program, so the profile
 * is that of the last program the process ran.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/signalfd.h>
#include <sys/timerfd.h>
#include <sys/wait.h>
#include <unistd.h>

#include "commands.h"
#include "ctl.h"
#include "live.h"
#include "tracer.h"

/**
 * struct trace - one traced process and its profile
 * @op: "run" or "attach", for messages
 * @pid: the process
 * @attach: attach's rules: detach at the end, signals to us end it
 * @h: netlink handle
 * @o: options
 * @buf: the buffer in the process, if @have_buf
 * @need_setup: set a buffer up at the next injectable stop
 * @need_detach: unmap the buffer and detach at the next injectable stop
 * @collected: @hist and @st hold the profile
 * @done: nothing more to wait for
 * @failed: setting up or collecting failed (the message is printed)
 * @killed: run killed its program, having failed to set up
 * @execed: run's program got as far as its execve()
 * @exited, @wstatus: the process was reaped (run), and how it ended
 * @res: outcome of the injections at the current stop
 */
struct trace {
	const char *op;
	pid_t pid;
	bool attach;
	struct profil_handle *h;
	const struct live_opts *o;
	struct live_buf buf;
	bool have_buf;
	bool need_setup;
	bool need_detach;
	bool collected;
	bool done;
	bool failed;
	bool killed;
	bool execed;
	bool exited;
	int wstatus;
	struct hist hist;
	struct profil_status st;
	uint64_t missed;
	struct inject_result res;
};

static void trace_collect(struct trace *t)
{
	if (!t->have_buf || t->collected)
		return;
	if (live_collect(t->op, t->h, &t->buf, &t->hist, &t->st,
			 &t->missed) < 0)
		t->failed = true;
	else
		t->collected = true;
}

/* The process is in its exit stop: read what it left, let it go. */
static void trace_exit_stop(struct trace *t)
{
	trace_collect(t);
	t->have_buf = false;	/* it goes with the process */
	if (t->attach) {
		ptrace(PTRACE_DETACH, t->pid, 0, 0);
		t->done = true;
	} else {
		ptrace(PTRACE_CONT, t->pid, 0, 0);
	}
}

/* At an injectable stop with work to do: set up, or unmap and detach. */
static void trace_inject(struct trace *t, const struct tracer_stop *s)
{
	bool detach = false;
	int err = 0;

	memset(&t->res, 0, sizeof(t->res));
	if (t->need_setup) {
		t->need_setup = false;
		err = live_setup(t->op, t->h, t->pid, t->o, &t->buf, &t->res);
		if (!err) {
			t->have_buf = true;
		} else if (!t->res.exiting && !t->res.exited) {
			t->failed = true;
			t->need_detach = t->attach;
			if (!t->attach) {
				t->killed = true;
				kill(t->pid, SIGKILL);
				return;
			}
		}
	}
	if (!err && t->need_detach) {
		if (t->have_buf)
			inject_munmap(t->pid, t->buf.map_addr, t->buf.map_len,
				      &t->res);
		t->have_buf = false;
		detach = true;
	} else if (t->need_detach && t->failed) {
		detach = true;
	}
	if (t->res.exited) {
		t->exited = true;
		t->wstatus = t->res.wstatus;
		t->done = true;
		return;
	}
	if (t->res.exiting) {
		trace_exit_stop(t);
		return;
	}
	tracer_resume(t->pid, s, true, detach);
	inject_redeliver(t->pid, &t->res);
	if (detach)
		t->done = true;
}

static void trace_stop(struct trace *t, int st)
{
	struct tracer_stop s;

	switch (tracer_event(st)) {
	case PTRACE_EVENT_EXEC:
		t->execed = true;
		if (t->have_buf) {
			live_buf_free(&t->buf);	/* went with the old image */
			t->have_buf = false;
		}
		t->need_setup = !t->need_detach;
		/* The exec stop is too early to inject: stop again later. */
		ptrace(PTRACE_INTERRUPT, t->pid, 0, 0);
		ptrace(PTRACE_CONT, t->pid, 0, 0);
		return;
	case PTRACE_EVENT_EXIT:
		trace_exit_stop(t);
		return;
	case 0:
	case PTRACE_EVENT_STOP:
		tracer_stop_get(t->pid, st, &s);
		if (t->need_setup || t->need_detach)
			trace_inject(t, &s);
		else
			tracer_resume(t->pid, &s, false, false);
		return;
	default:
		ptrace(PTRACE_CONT, t->pid, 0, 0);
	}
}

static void trace_reap(struct trace *t)
{
	int st;
	pid_t r = 0;

	while (!t->done && (r = waitpid(t->pid, &st, __WALL | WNOHANG)) > 0) {
		if (WIFEXITED(st) || WIFSIGNALED(st)) {
			t->exited = true;
			t->wstatus = st;
			t->done = true;
		} else {
			trace_stop(t, st);
		}
	}
	if (r < 0 && errno == ECHILD && !t->done) {
		t->done = true;	/* attach: it exited after we detached */
	}
}

/* The end of attach: collect now, unmap and detach at the next stop. */
static void trace_finish(struct trace *t)
{
	if (t->need_detach)
		return;
	trace_collect(t);
	t->need_setup = false;
	t->need_detach = true;
	if (ptrace(PTRACE_INTERRUPT, t->pid, 0, 0) < 0)
		t->done = true;
}

/* A signal to profil-ctl itself. */
static void trace_signal(struct trace *t, const struct signalfd_siginfo *si)
{
	int sig = (int)si->ssi_signo;

	if (sig == SIGCHLD)
		return;
	if (t->attach) {
		trace_finish(t);
		return;
	}
	/*
	 * run: the terminal sent ^C or ^\ to the whole foreground group,
	 * the program has it already; anything else is passed on.
	 */
	if ((sig == SIGINT || sig == SIGQUIT) && si->ssi_code == SI_KERNEL)
		return;
	kill(t->pid, sig);
}

static int trace_fds(double duration, int *sfd, int *tfd, sigset_t *old)
{
	struct itimerspec its = { { 0, 0 }, { 0, 0 } };
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGCHLD);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	sigaddset(&set, SIGQUIT);
	if (sigprocmask(SIG_BLOCK, &set, old) < 0)
		return -1;
	*sfd = signalfd(-1, &set, SFD_CLOEXEC);
	if (*sfd < 0)
		return -1;
	*tfd = -1;
	if (duration > 0) {
		*tfd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC);
		if (*tfd < 0)
			return -1;
		its.it_value.tv_sec = (time_t)duration;
		its.it_value.tv_nsec = (long)((duration - (double)its.it_value
					       .tv_sec) * 1e9);
		if (!its.it_value.tv_sec && !its.it_value.tv_nsec)
			its.it_value.tv_nsec = 1;
		if (timerfd_settime(*tfd, 0, &its, NULL) < 0)
			return -1;
	}
	return 0;
}

/* Wait for events until done. */
static int trace_loop(struct trace *t, int sfd, int tfd)
{
	struct pollfd fds[2] = { { .fd = sfd, .events = POLLIN },
				 { .fd = tfd, .events = POLLIN } };
	struct signalfd_siginfo si;
	uint64_t expirations;

	trace_reap(t);
	while (!t->done) {
		if (poll(fds, tfd >= 0 ? 2 : 1, -1) < 0) {
			if (errno == EINTR)
				continue;
			ctl_perror(t->op);
			return -1;
		}
		if (fds[0].revents & POLLIN &&
		    read(sfd, &si, sizeof(si)) == sizeof(si))
			trace_signal(t, &si);
		if (tfd >= 0 && fds[1].revents & POLLIN &&
		    read(tfd, &expirations, sizeof(expirations)) > 0)
			trace_finish(t);
		trace_reap(t);
	}
	return 0;
}

static int trace_result(struct trace *t)
{
	if (t->collected)
		return live_report(t->op, &t->hist, &t->st, t->missed,
				   t->o);
	if (!t->failed && (t->attach || t->execed))
		ctl_errorf(t->op, "process %d ended before its profile could "
			   "be read: no profile", (int)t->pid);
	return CTL_EXIT_FAIL;
}

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
	struct trace t = { .op = argv[0] };
	struct live_opts o;
	int first, gate[2], sfd = -1, tfd = -1, ret, err;
	sigset_t old;

	first = live_parse_opts(argc, argv, LIVE_OPTS_PROFILE |
				LIVE_OPTS_REPORT | LIVE_OPTS_COMMAND, &o);
	if (first < 0)
		return live_parse_exit(first);
	if (first >= argc)
		return ctl_usage_error(argv[0], "no program to run");
	t.o = &o;
	t.h = live_open(argv[0]);
	if (!t.h)
		return CTL_EXIT_FAIL;
	if (pipe2(gate, O_CLOEXEC) < 0 || trace_fds(0, &sfd, &tfd, &old)) {
		ctl_perror(argv[0]);
		return CTL_EXIT_FAIL;
	}
	fflush(NULL);
	t.pid = fork();
	if (t.pid < 0) {
		ctl_perror(argv[0]);
		return CTL_EXIT_FAIL;
	}
	if (!t.pid) {
		close(gate[1]);
		run_child(gate[0], &old, argv + first);
	}
	close(gate[0]);
	err = tracer_seize(t.pid, PTRACE_O_TRACEEXEC | PTRACE_O_TRACEEXIT |
			   PTRACE_O_EXITKILL);
	if (err) {
		ctl_errorf(argv[0], "ptrace: %s", tracer_strerror(err));
		kill(t.pid, SIGKILL);
		waitpid(t.pid, NULL, 0);
		return CTL_EXIT_FAIL;
	}
	close(gate[1]);	/* the child execs */
	if (trace_loop(&t, sfd, tfd) < 0)
		kill(t.pid, SIGKILL);
	profil_handle_close(t.h);
	if (!t.exited || t.killed)
		return CTL_EXIT_FAIL;
	ret = t.failed ? CTL_EXIT_FAIL : trace_result(&t);
	if (t.have_buf)
		live_buf_free(&t.buf);
	hist_free(&t.hist);
	/* The program's status first; ours only if it succeeded. */
	return run_status(t.wstatus) ? run_status(t.wstatus) : ret;
}

int cmd_attach(int argc, char **argv)
{
	struct trace t = { .op = argv[0], .attach = true };
	struct live_opts o;
	int first, sfd = -1, tfd = -1, err, ret;
	sigset_t old;

	first = live_parse_opts(argc, argv, LIVE_OPTS_PID | LIVE_OPTS_PROFILE |
				LIVE_OPTS_REPORT | LIVE_OPTS_DURATION, &o);
	if (first < 0)
		return live_parse_exit(first);
	if (first < argc)
		return ctl_usage_error(argv[0], "unexpected argument '%s'",
				       argv[first]);
	if (!o.pid)
		return ctl_usage_error(argv[0], "no PID given");
	if (o.pid == getpid())
		return ctl_usage_error(argv[0], "cannot attach to itself");
	t.o = &o;
	t.pid = o.pid;
	t.h = live_open(argv[0]);
	if (!t.h)
		return CTL_EXIT_FAIL;
	if (trace_fds(o.duration, &sfd, &tfd, &old)) {
		ctl_perror(argv[0]);
		return CTL_EXIT_FAIL;
	}
	err = tracer_seize(t.pid, PTRACE_O_TRACEEXEC | PTRACE_O_TRACEEXIT);
	if (err) {
		ctl_errorf(argv[0], "process %d: ptrace: %s", (int)t.pid,
			   tracer_strerror(err));
		profil_handle_close(t.h);
		return CTL_EXIT_FAIL;
	}
	t.need_setup = true;
	if (ptrace(PTRACE_INTERRUPT, t.pid, 0, 0) < 0) {
		ctl_errorf(argv[0], "process %d: ptrace: %s", (int)t.pid,
			   tracer_strerror(-errno));
		profil_handle_close(t.h);
		return CTL_EXIT_FAIL;
	}
	trace_loop(&t, sfd, tfd);
	profil_handle_close(t.h);
	ret = t.failed ? CTL_EXIT_FAIL : trace_result(&t);
	if (t.have_buf)
		live_buf_free(&t.buf);
	hist_free(&t.hist);
	return ret;
}
