/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the profil selftests share beyond the protocol client: the
 * monotonic and CPU-time clocks (a process's and a thread's too), a
 * process's state, the accounting identity every session must satisfy,
 * Yama's ptrace scope, user-mode time in the program's own text, and a
 * number read from a file.
 * Include it after profil_nl.h (or profil_lib.h).
 */
#ifndef PROFIL_SELFTEST_UTIL_H
#define PROFIL_SELFTEST_UTIL_H

#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <stdio.h>
#include <sys/ptrace.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* The number a file (in /proc or /sys) starts with, or -1. */
static inline long read_long(const char *path)
{
	FILE *f = fopen(path, "r");
	long v = -1;

	if (f) {
		if (fscanf(f, "%ld", &v) != 1)
			v = -1;
		fclose(f);
	}
	return v;
}

/* Yama's kernel.yama.ptrace_scope, 0 without Yama. */
static inline int ptrace_scope(void)
{
	FILE *f = fopen("/proc/sys/kernel/yama/ptrace_scope", "r");
	int scope = 0;

	if (f) {
		if (fscanf(f, "%d", &scope) != 1)
			scope = 0;
		fclose(f);
	}
	return scope;
}

static inline double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static inline double thread_cpu(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static inline double process_cpu(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* The CPU time on @clock (a thread's), in seconds; -1 on error. */
static inline double clock_cpu(clockid_t clock)
{
	struct timespec ts;

	if (clock_gettime(clock, &ts))
		return -1;
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * User-mode time in the including program's text: each program has its
 * own copy, whose address TEXT_OFFSET rounds down so that scale 1 (128
 * KiB per counter) from there covers the program's text.
 */
static inline void user_spin(double secs)
{
	double end = process_cpu() + secs;
	volatile unsigned long n = 0;
	int i;

	while (process_cpu() < end)
		for (i = 0; i < 100000; i++)
			n++;
}

#define TEXT_OFFSET	((uintptr_t)user_spin & ~0x1ffffULL)

/* The CPU time process @pid has used, in seconds; -1 when it is gone. */
static inline double pid_cpu(pid_t pid)
{
	struct timespec ts;
	clockid_t clock;

	if (clock_getcpuclockid(pid, &clock) ||
	    clock_gettime(clock, &ts))
		return -1;
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* The state letter in /proc/@pid/stat, or 0. */
static inline char proc_state(pid_t pid)
{
	char path[64], state = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	f = fopen(path, "r");
	if (!f)
		return 0;
	if (fscanf(f, "%*d (%*[^)]) %c", &state) != 1)
		state = 0;
	fclose(f);
	return state;
}

/* TICKS must equal this: every tick lands in exactly one category. */
static inline uint64_t pnl_accounted(const struct pnl_status *st)
{
	return st->stats[PROFIL_STAT_IN_RANGE] +
	       st->stats[PROFIL_STAT_OUT_OF_RANGE] +
	       st->stats[PROFIL_STAT_SYSTEM_DROPPED] +
	       st->stats[PROFIL_STAT_PENDING] +
	       st->stats[PROFIL_STAT_DISCARDED] +
	       st->stats[PROFIL_STAT_FAULTED] +
	       st->stats[PROFIL_STAT_SATURATED];
}

#define UNPRIVILEGED_TIMER_CLOCK \
	"/sys/module/profil/parameters/unprivileged_timer_clock"

/* Write @val to the module parameter at @path; 0 or -1. */
static inline int write_param(const char *path, const char *val)
{
	FILE *f = fopen(path, "w");
	int ok;

	if (!f)
		return -1;
	ok = fputs(val, f) >= 0;
	return fclose(f) || !ok ? -1 : 0;
}

/*
 * For a program that checks what a user may do on both clocks, rates
 * above HZ included: run as root, it opens the timer clock to every user
 * (unprivileged_timer_clock, the administrator's switch) for its run,
 * and closes it again at the end, as the module loads. control_test and
 * bad_input_test check the switch itself, closed.
 */
#define PROFIL_OPEN_TIMER_CLOCK						\
	static pid_t timer_clock_opener;				\
	static void __attribute__((constructor)) open_timer_clock(void) \
	{								\
		if (!geteuid() &&					\
		    !write_param(UNPRIVILEGED_TIMER_CLOCK, "Y"))	\
			timer_clock_opener = getpid();			\
	}								\
	static void __attribute__((destructor)) close_timer_clock(void) \
	{								\
		if (timer_clock_opener == getpid())			\
			write_param(UNPRIVILEGED_TIMER_CLOCK, "N");	\
	}

/* A thread of process @pid other than its leader, or 0. */
static inline pid_t other_thread(pid_t pid)
{
	char path[64];
	struct dirent *de;
	pid_t tid = 0;
	DIR *dir;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	dir = opendir(path);
	if (!dir)
		return 0;
	while (!tid && (de = readdir(dir)))
		if (atoi(de->d_name) > 0 && atoi(de->d_name) != pid)
			tid = atoi(de->d_name);
	closedir(dir);
	return tid;
}

/*
 * GET of another process with its addresses (BUF, OFFSET, FAULT_ADDR),
 * which only its tracer is told: @pid is seized for the request, without
 * a stop, then detached (PTRACE_DETACH needs a ptrace-stop).
 */
static inline int pnl_get_traced(struct pnl *nl, pid_t pid,
				 struct pnl_status *st)
{
	int err;

	if (ptrace(PTRACE_SEIZE, pid, 0, 0))
		return -errno;
	err = pnl_get(nl, pid, st);
	if (!ptrace(PTRACE_INTERRUPT, pid, 0, 0) &&
	    waitpid(pid, NULL, __WALL) == pid)
		ptrace(PTRACE_DETACH, pid, 0, 0);
	return err;
}

/*
 * The sampling periods the clock has accounted for: those it took a tick
 * in and those it came too late for. Over a stretch of CPU time this is
 * the CPU time in periods, whatever a starved vCPU did to the timers.
 */
static inline uint64_t pnl_periods(const struct pnl_status *st)
{
	return st->stats[PROFIL_STAT_TICKS] + st->stats[PROFIL_STAT_MISSED];
}

#endif /* PROFIL_SELFTEST_UTIL_H */
