// SPDX-License-Identifier: GPL-2.0
/*
 * ptrace stops of a seized process (see ptrace(2), "Stopped states").
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/wait.h>

#include "tracer.h"

int tracer_event(int wstatus)
{
	return WIFSTOPPED(wstatus) ? (unsigned int)wstatus >> 16 : 0;
}

static bool is_stop_signal(int sig)
{
	return sig == SIGSTOP || sig == SIGTSTP || sig == SIGTTIN ||
	       sig == SIGTTOU;
}

/* The stop an interrupt waits for: a signal-delivery or PTRACE_EVENT_STOP. */
static bool interrupt_stop(int wstatus)
{
	int event = tracer_event(wstatus);

	return WIFSTOPPED(wstatus) && (!event || event == PTRACE_EVENT_STOP);
}

void tracer_stop_get(int wstatus, struct tracer_stop *s)
{
	int event = tracer_event(wstatus);

	memset(s, 0, sizeof(*s));
	s->wstatus = wstatus;
	if (!WIFSTOPPED(wstatus))
		return;
	if (event == PTRACE_EVENT_STOP)
		s->group_stop = is_stop_signal(WSTOPSIG(wstatus));
	else if (!event)
		s->sig = WSTOPSIG(wstatus);
}

int tracer_resume(pid_t pid, const struct tracer_stop *s, bool detach)
{
	enum __ptrace_request req = detach ? PTRACE_DETACH : PTRACE_CONT;

	/* A detached tracee in group-stop stays stopped by itself. */
	if (s->group_stop && !detach)
		req = PTRACE_LISTEN;
	if (ptrace(req, pid, 0, (long)s->sig) < 0)
		return -errno;
	return 0;
}

int tracer_seize(pid_t pid, long options)
{
	if (ptrace(PTRACE_SEIZE, pid, 0, options) < 0)
		return -errno;
	return 0;
}

int tracer_interrupt(pid_t pid, struct tracer_stop *s)
{
	int st, event;

	if (ptrace(PTRACE_INTERRUPT, pid, 0, 0) < 0)
		return -errno;
	for (;;) {
		if (waitpid(pid, &st, __WALL) < 0)
			return -errno;
		tracer_stop_get(st, s);
		if (!WIFSTOPPED(st))
			return -ESRCH;
		if (interrupt_stop(st))
			return 0;
		event = tracer_event(st);
		if (event == PTRACE_EVENT_EXIT)
			return -ESRCH;
		/* Another event stop (exec): the interrupt is still due. */
		if (ptrace(PTRACE_CONT, pid, 0, 0) < 0)
			return -errno;
	}
}

/* Yama's kernel.yama.ptrace_scope, or -1 without Yama. */
static int yama_ptrace_scope(void)
{
	FILE *f = fopen("/proc/sys/kernel/yama/ptrace_scope", "re");
	int scope = -1;

	if (f) {
		if (fscanf(f, "%d", &scope) != 1)
			scope = -1;
		fclose(f);
	}
	return scope;
}

const char *tracer_strerror(int err)
{
	switch (-err) {
	case EPERM:
		/* What gdb -p would run into, in Yama's words (yama.rst). */
		switch (yama_ptrace_scope()) {
		case 1:
			return "Operation not permitted (kernel.yama.ptrace_scope"
			       " is 1: only a descendant may be traced, or with"
			       " CAP_SYS_PTRACE; profil-ctl run starts the"
			       " program as its child)";
		case 2:
			return "Operation not permitted (kernel.yama.ptrace_scope"
			       " is 2: only CAP_SYS_PTRACE may attach)";
		case 3:
			return "Operation not permitted (kernel.yama.ptrace_scope"
			       " is 3: no process may be traced, until reboot)";
		}
		return "Operation not permitted (ptrace access to the process"
		       " is needed: the same user and no ptrace restriction,"
		       " or CAP_SYS_PTRACE; or it is traced already)";
	case ESRCH:
		return "No such process";
	default:
		return strerror(-err);
	}
}
