/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The tracer behind profil-ctl run and attach: every thread of every
 * process of a program, under ptrace, each process image covered by
 * profil (coverage.h) from its first stop until its last thread's exit
 * stop. trace.c says how; the commands are builtin-run.c.
 */
#ifndef PROFIL_CTL_TRACE_H
#define PROFIL_CTL_TRACE_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "coverage.h"
#include "live.h"

/**
 * struct tproc - one traced process
 * @pid, @ppid: its ids
 * @cov: its counters and session
 * @born_ns: when its image was set up (CLOCK_MONOTONIC)
 * @next_poll_ns: when to look at its mappings again
 * @need_setup: set up at its next injectable stop
 * @shares_mm: a vfork (or CLONE_VM) child: nothing until it execs
 * @known: how it was made (fork, vfork, clone) is known: @shares_mm is
 *	right; a child's first stop may come before its creator's event
 * @held, @held_tid: that first stop, waiting for the creator's event
 * @finishing: collect, clean up and detach at the next stops
 * @cleaned: the counters are read and the mapping is gone
 * @threads: tasks of ours in it
 */
struct tproc {
	pid_t pid;
	pid_t ppid;
	struct coverage cov;
	long long born_ns;
	long long next_poll_ns;
	bool need_setup;
	bool shares_mm;
	bool known;
	int held;
	pid_t held_tid;
	bool finishing;
	bool cleaned;
	int threads;
};

/**
 * struct ttask - one traced thread
 * @tid: its id
 * @proc: its process
 * @exiting: it is past its exit stop
 */
struct ttask {
	pid_t tid;
	struct tproc *proc;
	bool exiting;
};

struct trace;

/* How many fds of their own commands may have trace_loop() watch. */
#define TRACE_MAX_WATCH 4

/**
 * struct trace_watch - an fd of the command's, polled by trace_loop()
 * @fd: the fd, polled for input
 * @fn: called when it is readable (or at its end); returns -1 to stop
 *	watching it, else 0
 * @arg: passed to @fn
 */
struct trace_watch {
	int fd;
	int (*fn)(struct trace *t, void *arg);
	void *arg;
};

/**
 * struct trace - the whole traced program
 * @op: "run" or "attach", for messages
 * @attach: attach's rules: detach at the end, signals to us end it
 * @root: run's program, or attach's process
 * @options: the ptrace options
 * @x: what the coverage of every process shares (the profile)
 * @procs, @nprocs; @tasks, @ntasks: what is traced
 * @births, @nbirths: children whose creator's event came before their
 *	first stop, and that event (PTRACE_EVENT_FORK, _VFORK, _CLONE)
 * @finishing: the end has come: every process is being let go
 * @failed: something failed (the message is printed)
 * @killed: run killed its program, having failed to set up
 * @root_exited, @wstatus: run's program was reaped, and how it ended
 * @lost: processes that ended before their profile could be read
 * @watch, @nwatch: the command's own fds (trace_watch())
 */
struct trace {
	const char *op;
	bool attach;
	pid_t root;
	long options;
	struct coverage_ctx x;
	struct tproc **procs;
	size_t nprocs;
	struct ttask *tasks;
	size_t ntasks;
	struct trace_birth {
		pid_t pid;
		int event;
	} *births;
	size_t nbirths;
	bool finishing;
	bool failed;
	bool killed;
	bool root_exited;
	int wstatus;
	unsigned int lost;
	long long duration_ns;		/* --duration, until it is armed */
	struct trace_watch watch[TRACE_MAX_WATCH];
	size_t nwatch;
};

/**
 * trace_init() - an empty trace for command @op with options @o, its
 * profile going to @profile; opens the netlink handle (t->x.h)
 * Return: 0, or -1 with the message printed.
 */
int trace_init(struct trace *t, const char *op, const struct live_opts *o,
	       struct profile *profile);

/**
 * trace_fds() - block the signals profil-ctl handles (the old mask in
 * *@old), and open fds[0] their signalfd, fds[1] the mappings' poll
 * timer, fds[2] the --duration timer (-1 without @duration). That timer
 * is armed when @t's root process is set up, so that @duration counts
 * seconds of profiling, not of profil-ctl's start-up.
 * Return: 0, or -1 with errno.
 */
int trace_fds(struct trace *t, double duration, int fds[3], sigset_t *old);

/**
 * trace_watch() - have trace_loop() also poll @fd for input and call
 * @fn(t, @arg) when it is readable (a timer, the keyboard)
 * Return: 0, or -1 with errno ENOSPC (TRACE_MAX_WATCH reached).
 */
int trace_watch(struct trace *t, int fd, int (*fn)(struct trace *t, void *arg),
		void *arg);

/**
 * trace_spawn() - fork and exec @argv as the traced program's root (run
 * and top -- CMD), seized before it execs, with the signal mask @mask
 * (trace_fds()'s old one); @stdin_null: its standard input /dev/null
 * Return: 0, or -1 with the message printed (no child left).
 */
int trace_spawn(struct trace *t, char **argv, const sigset_t *mask,
		bool stdin_null);

/** trace_proc_new(), trace_task_new() - a traced process, a thread of it. */
struct tproc *trace_proc_new(struct trace *t, pid_t pid, pid_t ppid);
struct ttask *trace_task_new(struct trace *t, pid_t tid, struct tproc *p);

/**
 * trace_attach() - make the running process @pid @t's root (attach, top
 * -p): refuse it if it is profiled already (live_check_unprofiled()),
 * seize every thread of it, and ask for the stop it is set up at. On
 * failure, what was seized is being let go: trace_loop() finishes that.
 * Return: 0, or -1 after printing why.
 */
int trace_attach(struct trace *t, pid_t pid);

/** trace_loop() - handle events until nothing is traced. Return: 0, -1. */
int trace_loop(struct trace *t, int fds[3]);

/** trace_finish() - let every process go: read each, then detach. */
void trace_finish(struct trace *t);

/**
 * trace_result() - the report of the profile collected, its messages
 * Return: CTL_EXIT_OK or CTL_EXIT_FAIL.
 */
int trace_result(struct trace *t, const struct live_opts *o);

/** trace_free() - free the trace and its profile. */
void trace_free(struct trace *t);

#endif /* PROFIL_CTL_TRACE_H */
