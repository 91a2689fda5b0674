/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A whole program followed by the kernel for profil-ctl run, attach and
 * top: a kernel-held session (profil_collect()) started on the program's
 * first process, which the kernel extends to its threads, the processes
 * it forks and what they exec, and a loop that waits for the end (the
 * command's exit, a signal, --duration) while the commands' own fds are
 * served. Nothing is traced once the session is made: run's child
 * collects itself before it execs; attach seizes the process only for
 * as long as the kernel takes to check that profil-ctl is its tracer.
 */
#ifndef PROFIL_CTL_COLLECT_H
#define PROFIL_CTL_COLLECT_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "held.h"
#include "live.h"

/* How many fds of their own commands may have collect_loop() watch. */
#define COLLECT_MAX_WATCH 4

struct collect;

/**
 * struct collect_watch - an fd of the command's, polled by collect_loop()
 * @fd: the fd, polled for input
 * @fn: called when it is readable (or at its end); returns -1 to stop
 *	watching it, else 0
 * @arg: passed to @fn
 */
struct collect_watch {
	int fd;
	int (*fn)(struct collect *c, void *arg);
	void *arg;
};

/**
 * struct collect - one program followed
 * @op: "run", "attach", "top" or "start", for messages
 * @attach: attach's rules: a signal to profil-ctl ends it, as the
 *	process's exit does
 * @machine: record -a: the kernel's tick samples every process, a
 *	spawned command included
 * @root: run's program, or attach's process; 0 before either
 * @params: the session's parameters (rate, flags)
 * @reader: the profile's reader; @reader.h is the collector's socket
 * @root_fd: attach: a pidfd of @root, readable at its exit
 * @sig_fd, @timer_fd: the signals profil-ctl handles, the --duration timer
 *	(-1 without one)
 * @done: the end has come
 * @failed: something failed (the message is printed)
 * @root_exited, @wstatus: run's program was reaped, and how it ended
 * @watch, @nwatch: the command's own fds (collect_watch())
 * @cmd, @ncmd: the command line that names the profile, or NULL
 * @old_mask: the signal mask before collect_init() blocked its signals
 */
struct collect {
	const char *op;
	bool attach;
	bool machine;
	pid_t root;
	struct profil_collect_params params;
	struct held_reader reader;
	int root_fd;
	int sig_fd;
	int timer_fd;
	bool done;
	bool failed;
	bool root_exited;
	int wstatus;
	struct collect_watch watch[COLLECT_MAX_WATCH];
	size_t nwatch;
	char **cmd;
	size_t ncmd;
	sigset_t old_mask;
};

/**
 * collect_init() - a collector for command @op with options @o: opens the
 * netlink handle, blocks the signals profil-ctl handles and opens their
 * signalfd, and the --duration timer (@o->duration > 0), armed once the
 * program is followed
 * Return: 0, or -1 with the message printed.
 */
int collect_init(struct collect *c, const char *op, const struct live_opts *o);

/**
 * collect_set_command() - name the profile by the @n words of @argv
 * (copied): run's command, attach's process's command line
 * Return: 0, or -1 with errno ENOMEM.
 */
int collect_set_command(struct collect *c, char *const *argv, size_t n);

/**
 * collect_command_of() - name the profile by @pid's command line
 * (/proc/PID/cmdline); not knowing it (the process is gone, a kernel
 * thread) is no error
 * Return: 0, or -1 with errno ENOMEM.
 */
int collect_command_of(struct collect *c, pid_t pid);

/**
 * collect_watch() - have collect_loop() also poll @fd for input and call
 * @fn(c, @arg) when it is readable (a timer, the keyboard)
 * Return: 0, or -1 with errno ENOSPC (COLLECT_MAX_WATCH reached).
 */
int collect_watch(struct collect *c, int fd,
		  int (*fn)(struct collect *c, void *arg), void *arg);

/**
 * collect_spawn() - fork and exec @argv (run, top -- CMD, record -a --
 * CMD): the child follows itself (profil_collect() of its own pid, on
 * profil-ctl's socket; after collect_machine() the kernel follows it
 * already) and execs with the signal mask of before collect_init();
 * @stdin_null: its standard input /dev/null
 * Return: 0, or -1 with the message printed (no child left).
 */
int collect_spawn(struct collect *c, char **argv, bool stdin_null);

/**
 * collect_attach() - follow the running process @pid (attach, top -p):
 * seize one of its threads, follow it as its tracer, let it go
 * Return: 0, or -1 after printing why (EPERM: where ptrace would refuse
 * profil-ctl, with the reason).
 */
int collect_attach(struct collect *c, pid_t pid);

/**
 * collect_machine() - follow every process of the machine (record -a);
 * with @cgroup (a path, or a name under /sys/fs/cgroup) count only the
 * ticks of its threads and those below it. Until collect_spawn() names a
 * command, a signal to profil-ctl or --duration ends collect_loop().
 * Return: 0, or -1 after printing why (EPERM: CAP_PERFMON needed).
 */
int collect_machine(struct collect *c, const char *cgroup);

/**
 * collect_loop() - serve signals and watched fds until the end: run's
 * program exits (reaped: @root_exited, @wstatus), or for attach the
 * process exits, a signal comes or --duration passes
 * Return: 0, or -1 with the message printed.
 */
int collect_loop(struct collect *c);

/**
 * collect_command_status() - the exit status a shell would give for the
 * command collect_spawn() ran, once reaped (@root_exited): its own, or
 * 128 + N for signal N
 */
int collect_command_status(const struct collect *c);

/** collect_finish() - end collect_loop() at its next turn. */
void collect_finish(struct collect *c);

/**
 * collect_read() - the profile as it is now into @out (zeroed by the
 * caller, freed with profile_free()); @notes: what the report must say,
 * or NULL
 * Return: 0, or -1 after printing why.
 */
int collect_read(struct collect *c, struct profile *out,
		 struct held_notes *notes);

/**
 * collect_result() - read the profile and write its report (@o), with
 * its notes
 * Return: CTL_EXIT_OK or CTL_EXIT_FAIL.
 */
int collect_result(struct collect *c, const struct live_opts *o);

/**
 * collect_free() - close the handle (the kernel stops following and
 * frees the profile), the fds, and restore the signal mask
 */
void collect_free(struct collect *c);

#endif /* PROFIL_CTL_COLLECT_H */
