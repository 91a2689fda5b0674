// SPDX-License-Identifier: GPL-2.0
/*
 * inject_syscall() where profil-ctl has no injector: every architecture
 * but x86_64 (the Makefiles pick this file or inject_x86_64.c). report
 * and the offline views need none; run, attach, start and stop say
 * that they cannot map a buffer here.
 */
#define _GNU_SOURCE
#include <errno.h>

#include "inject.h"

int inject_syscall(pid_t pid, long nr, const uint64_t args[6], long *ret,
		   struct inject_result *res)
{
	(void)pid;
	(void)nr;
	(void)args;
	(void)ret;
	(void)res;
	return -EOPNOTSUPP;
}
