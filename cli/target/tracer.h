/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ptrace stops of a seized process, as profil-ctl meets them: which stops
 * a system call can be injected at, and how to resume from each so that
 * the program sees the signals and job-control stops it would have seen
 * without us.
 */
#ifndef PROFIL_CTL_TRACER_H
#define PROFIL_CTL_TRACER_H

#include <signal.h>
#include <stdbool.h>
#include <sys/types.h>

/**
 * struct tracer_stop - one ptrace stop
 * @wstatus: its wait status
 * @sig: the signal to deliver when resuming: that of a
 *	signal-delivery-stop, 0 for the others
 * @group_stop: a job-control stop (PTRACE_EVENT_STOP with SIGSTOP,
 *	SIGTSTP, SIGTTIN or SIGTTOU)
 * @have_info, @info: the signal's siginfo, put back when resuming after
 *	an injection (which leaves a SIGTRAP's in its place)
 */
struct tracer_stop {
	int wstatus;
	int sig;
	bool group_stop;
	bool have_info;
	siginfo_t info;
};

/** tracer_event() - the PTRACE_EVENT_* of a stop's wait status (0: none). */
int tracer_event(int wstatus);

/**
 * tracer_injectable() - whether a system call can be injected at this
 * stop: a signal-delivery-stop or a PTRACE_EVENT_STOP (interrupt or
 * group-stop), taken on the way back to user mode. Not the exec, exit or
 * other event stops.
 */
bool tracer_injectable(int wstatus);

/** tracer_stop_get() - describe the stop @wstatus of @pid. */
void tracer_stop_get(pid_t pid, int wstatus, struct tracer_stop *s);

/**
 * tracer_resume() - let @pid go on from @s
 * @injected: a system call was injected since @s (the tracee now sits in
 *	a SIGTRAP signal-delivery-stop)
 * @detach: PTRACE_DETACH instead of PTRACE_CONT
 *
 * Delivers @s->sig (with its siginfo) from a signal-delivery-stop; keeps a
 * group-stop stopped (PTRACE_LISTEN, or, after an injection, by
 * delivering the stop signal again); an interrupt trap resumes with 0.
 *
 * Return: 0, or -errno of ptrace().
 */
int tracer_resume(pid_t pid, const struct tracer_stop *s, bool injected,
		  bool detach);

/**
 * tracer_seize() - PTRACE_SEIZE @pid with @options
 * Return: 0, or -errno: ESRCH, EPERM (no ptrace access, or traced
 * already).
 */
int tracer_seize(pid_t pid, long options);

/**
 * tracer_interrupt() - PTRACE_INTERRUPT @pid and wait for the stop that
 * follows, or an earlier signal-delivery-stop
 * @s: out: the stop, injectable on success
 *
 * Return: 0, or -errno: ESRCH if it exited or is exiting (@s->wstatus
 * tells which), or of ptrace()/waitpid().
 */
int tracer_interrupt(pid_t pid, struct tracer_stop *s);

/** tracer_strerror() - a message for @err (-errno) from ptrace on @pid. */
const char *tracer_strerror(int err);

#endif /* PROFIL_CTL_TRACER_H */
