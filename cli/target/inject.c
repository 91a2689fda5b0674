// SPDX-License-Identifier: GPL-2.0
/*
 * System calls run in a tracee, the part that is the same on every
 * architecture: mmap(), munmap(), and the signals held back meanwhile.
 * inject_syscall() itself is per architecture: inject_x86_64.c, or
 * inject_none.c where there is none yet (the offline commands build and
 * run there; the live ones fail with EOPNOTSUPP).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "inject.h"

int inject_mmap(pid_t pid, size_t len, uint64_t *addr,
		struct inject_result *res)
{
	const uint64_t args[6] = {
		0, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		(uint64_t)-1, 0,
	};
	long ret;
	int err;

	err = inject_syscall(pid, SYS_mmap, args, &ret, res);
	if (err)
		return err;
	/* The kernel returns -4095..-1 for errors, anything else is an address. */
	if ((unsigned long)ret >= (unsigned long)-4095)
		return (int)ret;
	*addr = (uint64_t)ret;
	return 0;
}

int inject_munmap(pid_t pid, uint64_t addr, size_t len,
		  struct inject_result *res)
{
	const uint64_t args[6] = { addr, len };
	long ret;
	int err;

	err = inject_syscall(pid, SYS_munmap, args, &ret, res);
	if (err)
		return err;
	return ret < 0 ? (int)ret : 0;
}

void inject_redeliver(pid_t pid, const struct inject_result *res)
{
	int i;

	for (i = 0; i < res->ndeferred; i++)
		syscall(SYS_tgkill, pid, pid, res->deferred[i]);
}

const char *inject_strerror(int err)
{
	if (err == -EIO)
		return "no syscall instruction found";
	if (err == -EOPNOTSUPP)
		return "profil-ctl maps buffers into processes on x86_64 only "
		       "(report and the offline views work here)";
	return strerror(-err);
}
