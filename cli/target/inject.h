/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Make a ptrace-stopped process run one system call of our choosing: how
 * profil-ctl maps the profiling buffer into the process it profiles (the
 * kernel writes the counters from the target's own context, so they must
 * live in the target's address space) and unmaps it again.
 */
#ifndef PROFIL_CTL_INJECT_H
#define PROFIL_CTL_INJECT_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define INJECT_MAX_DEFERRED 8

/**
 * struct inject_result - what happened to the tracee around an injection
 * @exited: the tracee was reaped while we waited: @wstatus is its status
 * @exiting: the tracee is in its PTRACE_EVENT_EXIT stop (it was killed)
 * @wstatus: the last wait status seen
 * @ndeferred: signals that arrived during the injection and were held
 *	back; inject_redeliver() sends them again
 * @deferred: their numbers
 */
struct inject_result {
	bool exited;
	bool exiting;
	int wstatus;
	int ndeferred;
	int deferred[INJECT_MAX_DEFERRED];
};

/**
 * inject_syscall() - run syscall @nr(@args) in the tracee @pid
 * @pid: a tracee (PTRACE_SEIZE) in a stop taken on the way back to user
 *	mode: PTRACE_EVENT_STOP (PTRACE_INTERRUPT or group-stop) or a
 *	signal-delivery-stop. Not a PTRACE_EVENT_EXEC stop: there execve()
 *	has yet to store its return value in rax, which would overwrite
 *	ours.
 * @nr: system call number
 * @args: its six arguments
 * @ret: the raw return value (-errno on failure)
 * @res: exit, exit stop, deferred signals; zero it before the first of
 *	a series of injections, which add their deferred signals to it
 *
 * The registers are restored afterwards, orig_rax included, so that an
 * interrupted system call of the tracee restarts as if nothing happened.
 * The tracee is left stopped in a SIGTRAP signal-delivery-stop: resume it
 * with the signal the original stop would have delivered (0 if none).
 *
 * Only x86_64 has an injector (inject_x86_64.c); elsewhere this is
 * inject_none.c's, which returns -EOPNOTSUPP.
 *
 * Return: 0 (the call ran; its outcome is in *@ret), or -errno: ESRCH
 * (the tracee exited or is exiting, see @res), EIO (no syscall
 * instruction found), EOPNOTSUPP (no injector for this architecture),
 * or the errno of ptrace()/waitpid().
 */
int inject_syscall(pid_t pid, long nr, const uint64_t args[6], long *ret,
		   struct inject_result *res);

/**
 * inject_mmap() - map @len bytes of fresh anonymous read-write memory in
 * the tracee; *@addr receives its address. Same contract as
 * inject_syscall(); the mmap() failure is returned as -errno.
 */
int inject_mmap(pid_t pid, size_t len, uint64_t *addr,
		struct inject_result *res);

/** inject_munmap() - unmap [@addr, @addr + @len) in the tracee. */
int inject_munmap(pid_t pid, uint64_t addr, size_t len,
		  struct inject_result *res);

/**
 * inject_strerror() - the message for inject_syscall()'s -errno @err:
 * EIO and EOPNOTSUPP (no injector on this architecture) get their own
 */
const char *inject_strerror(int err);

/**
 * inject_redeliver() - send the signals @res deferred back to @pid
 * (tgkill(); their siginfo is lost). Call after the final resume.
 */
void inject_redeliver(pid_t pid, const struct inject_result *res);

#endif /* PROFIL_CTL_INJECT_H */
