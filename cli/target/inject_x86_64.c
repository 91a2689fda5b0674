// SPDX-License-Identifier: GPL-2.0
/*
 * System call injection with ptrace, x86_64: inject_syscall(). The
 * Makefiles build this file on x86_64 only, inject_none.c elsewhere;
 * inject.c holds what is the same on every architecture.
 *
 * Why this way: the profiling buffer must be memory of the profiled
 * process, and it must not disturb the program. A tracer can make the
 * stopped tracee execute one `syscall` instruction with registers of its
 * choosing: save the registers, point rip at a `syscall` (0f 05) found in
 * the tracee's [vdso] (always mapped, never written to), load rax and the
 * arguments, set orig_rax to -1 so that the kernel's system call restart
 * logic leaves the registers alone on the way out of the stop,
 * single-step over the instruction, read rax, and restore every register.
 * No code is written into the tracee and no library is loaded.
 */
#if !defined(__x86_64__)
#error "profil-ctl injects system calls on x86_64 only"
#endif

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <unistd.h>

#include "inject.h"
#include "procmaps.h"

#define SYSCALL_INSN_LEN 2

static bool is_syscall_insn(const unsigned char *p)
{
	return p[0] == 0x0f && p[1] == 0x05;
}

/* Reads through /proc/PID/mem: as tracer we may, and it reads the vdso. */
static int read_mem(pid_t pid, uint64_t addr, void *buf, size_t len)
{
	char path[64];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/mem", (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = pread(fd, buf, len, (off_t)addr);
	if (n < 0)
		n = -errno;
	close(fd);
	if (n < 0)
		return (int)n;
	return (size_t)n == len ? 0 : -EIO;
}

/* Address of a `syscall` instruction in the tracee's [vdso], or 0. */
static uint64_t vdso_syscall(pid_t pid)
{
	struct procmaps_entry vdso;
	unsigned char *text;
	uint64_t found = 0;
	size_t len, i;

	if (procmaps_find_pid(pid, "[vdso]", &vdso) < 0)
		return 0;
	len = vdso.end - vdso.start;
	text = malloc(len);
	if (!text)
		return 0;
	if (!read_mem(pid, vdso.start, text, len))
		for (i = 0; i + SYSCALL_INSN_LEN <= len && !found; i++)
			if (is_syscall_insn(text + i))
				found = vdso.start + i;
	free(text);
	return found;
}

/* Without a vdso: the instruction the tracee stopped just after, if any. */
static uint64_t prev_syscall(pid_t pid, const struct user_regs_struct *r)
{
	unsigned char insn[SYSCALL_INSN_LEN];

	if ((long long)r->orig_rax < 0 || r->rip < SYSCALL_INSN_LEN ||
	    read_mem(pid, r->rip - SYSCALL_INSN_LEN, insn, sizeof(insn)))
		return 0;
	return is_syscall_insn(insn) ? r->rip - SYSCALL_INSN_LEN : 0;
}

static void defer_signal(struct inject_result *res, int sig)
{
	int i;

	for (i = 0; i < res->ndeferred; i++)
		if (res->deferred[i] == sig)
			return;	/* standard signals do not queue either */
	if (res->ndeferred < INJECT_MAX_DEFERRED)
		res->deferred[res->ndeferred++] = sig;
}

/*
 * Single-steps until the tracee is back from @site's syscall. Other stops
 * on the way: signals are held back (resumed with 0, sent again later),
 * job-control and interrupt stops are stepped through.
 */
static int step_over(pid_t pid, uint64_t site, struct user_regs_struct *out,
		     struct inject_result *res)
{
	int st, sig, event;

	for (;;) {
		if (ptrace(PTRACE_SINGLESTEP, pid, 0, 0) < 0)
			return -errno;
		if (waitpid(pid, &st, __WALL) < 0)
			return -errno;
		res->wstatus = st;
		if (WIFEXITED(st) || WIFSIGNALED(st)) {
			res->exited = true;
			return -ESRCH;
		}
		sig = WSTOPSIG(st);
		event = st >> 16;
		if (event == PTRACE_EVENT_EXIT) {
			res->exiting = true;
			return -ESRCH;
		}
		if (ptrace(PTRACE_GETREGS, pid, 0, out) < 0)
			return -errno;
		if (!event && sig == SIGTRAP && out->rip == site + SYSCALL_INSN_LEN)
			return 0;
		if (!event && sig != SIGTRAP)
			defer_signal(res, sig);
	}
}

int inject_syscall(pid_t pid, long nr, const uint64_t args[6], long *ret,
		   struct inject_result *res)
{
	struct user_regs_struct saved, r;
	uint64_t site;
	int err;

	if (ptrace(PTRACE_GETREGS, pid, 0, &saved) < 0)
		return -errno;
	site = vdso_syscall(pid);
	if (!site)
		site = prev_syscall(pid, &saved);
	if (!site)
		return -EIO;

	r = saved;
	r.rip = site;
	r.rax = (uint64_t)nr;
	r.orig_rax = (uint64_t)-1;
	r.rdi = args[0];
	r.rsi = args[1];
	r.rdx = args[2];
	r.r10 = args[3];
	r.r8 = args[4];
	r.r9 = args[5];
	if (ptrace(PTRACE_SETREGS, pid, 0, &r) < 0)
		return -errno;
	err = step_over(pid, site, &r, res);
	if (err)
		return err;	/* gone or going: its registers no longer matter */
	*ret = (long)r.rax;
	if (ptrace(PTRACE_SETREGS, pid, 0, &saved) < 0)
		return -errno;
	return 0;
}
