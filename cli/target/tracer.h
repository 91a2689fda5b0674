/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ptrace stops of a seized process, as profil-ctl meets them: the brief
 * stop of attach, start, show and stop (the kernel wants the tracer of
 * another process), and how to resume from it so that the program sees
 * the signals and job-control stops it would have seen without us.
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
 */
struct tracer_stop {
	int wstatus;
	int sig;
	bool group_stop;
};

/** tracer_event() - the PTRACE_EVENT_* of a stop's wait status (0: none). */
int tracer_event(int wstatus);

/** tracer_stop_get() - describe the stop @wstatus. */
void tracer_stop_get(int wstatus, struct tracer_stop *s);

/**
 * tracer_resume() - let @pid go on from @s
 * @detach: PTRACE_DETACH instead of PTRACE_CONT
 *
 * Delivers @s->sig from a signal-delivery-stop; keeps a group-stop
 * stopped (PTRACE_LISTEN, or, detached, by itself); an interrupt trap
 * resumes with 0.
 *
 * Return: 0, or -errno of ptrace().
 */
int tracer_resume(pid_t pid, const struct tracer_stop *s, bool detach);

/**
 * tracer_seize() - PTRACE_SEIZE @pid with @options
 * Return: 0, or -errno: ESRCH, EPERM (no ptrace access, or traced
 * already).
 */
int tracer_seize(pid_t pid, long options);

/**
 * tracer_interrupt() - PTRACE_INTERRUPT @pid and wait for the stop that
 * follows, or an earlier signal-delivery-stop
 * @s: out: the stop, on success
 *
 * Return: 0, or -errno: ESRCH if it exited or is exiting (@s->wstatus
 * tells which), or of ptrace()/waitpid().
 */
int tracer_interrupt(pid_t pid, struct tracer_stop *s);

/** tracer_strerror() - a message for @err (-errno) from ptrace on @pid. */
const char *tracer_strerror(int err);

#endif /* PROFIL_CTL_TRACER_H */
