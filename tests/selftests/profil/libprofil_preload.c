// SPDX-License-Identifier: GPL-2.0
/*
 * An unmodified glibc program (this one links no libprofil) calls profil()
 * and sprofil(); with LD_PRELOAD=libprofil.so.1 and PROFIL_HZ the kernel
 * counts instead of glibc's SIGPROF handler (both are unversioned in
 * libprofil, so they beat profil@GLIBC_2.2.5 and sprofil@GLIBC_2.2.5). The program re-executes itself with that
 * environment; LIBPROFIL_SO, set at build time, locates the library.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/profil.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "kselftest.h"

#ifndef LIBPROFIL_SO
#define LIBPROFIL_SO "libprofil.so.1"
#endif

extern char __executable_start[], etext[];
volatile unsigned long pl_sink;

static double thread_cpu(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

__attribute__((noinline)) static void spin(double secs)
{
	double end = thread_cpu() + secs;
	unsigned long i;

	do {
		for (i = 0; i < 100000; i++)
			pl_sink += i;
	} while (thread_cpu() < end);
}

/* The ticks counted so far in @buf, @n counters of u16 or (@u32) u32. */
static unsigned long counted(const unsigned short *buf, size_t n, bool u32)
{
	unsigned long sum = 0;
	size_t i;

	for (i = 0; i < n; i++)
		sum += u32 ? ((const unsigned int *)buf)[i] : buf[i];
	return sum;
}

/*
 * 0.3 s of CPU, about 300 ticks at 1000 Hz, and on until @buf holds more
 * than 20, counted by the kernel rather than expected from the CPU time:
 * a starved vCPU's late clock takes fewer. 10 s of CPU at most.
 */
static void spin_counted(const unsigned short *buf, size_t n, bool u32)
{
	double start = thread_cpu();

	spin(0.3);
	while (counted(buf, n, u32) <= 20 && thread_cpu() - start < 10.0)
		spin(0.05);
}

static int preloaded(void)
{
	const char *p = getenv("LD_PRELOAD");

	return p && strstr(p, "libprofil");
}

int main(int argc, char **argv)
{
	uintptr_t low = (uintptr_t)__executable_start & ~3UL;
	size_t n = ((uintptr_t)etext - low) / 4 + 1, i;
	struct sigaction sa;
	unsigned long sum = 0;
	unsigned short *buf;
	struct timeval tv = { 0, 0 };
	struct prof p;

	(void)argc;
	if (!preloaded()) {
		if (access(LIBPROFIL_SO, R_OK)) {
			ksft_print_header();
			ksft_exit_skip("%s: %s\n", LIBPROFIL_SO, strerror(errno));
		}
		setenv("LD_PRELOAD", LIBPROFIL_SO, 1);
		setenv("PROFIL_HZ", "1000", 1);
		execv("/proc/self/exe", argv);
		ksft_exit_fail_msg("execv: %s\n", strerror(errno));
	}

	ksft_print_header();
	buf = calloc(n, 2);
	if (!buf)
		ksft_exit_fail_msg("calloc\n");
	if (profil(buf, n * 2, low, 32768) < 0) {
		if (errno == ENOSYS)
			ksft_exit_skip("profil.ko not loaded\n");
		ksft_exit_fail_msg("profil: %s\n", strerror(errno));
	}
	ksft_set_plan(4);
	spin_counted(buf, n, false);
	/* glibc's profil() would have installed a SIGPROF handler. */
	sigaction(SIGPROF, NULL, &sa);
	ksft_test_result(sa.sa_handler == SIG_DFL,
			 "SIGPROF left alone under LD_PRELOAD\n");
	profil(buf, n * 2, low, 0);
	for (i = 0; i < n; i++)
		sum += buf[i];
	ksft_print_msg("%lu ticks counted\n", sum);
	ksft_test_result(sum > 20, "the kernel counted ticks\n");

	/* sprofil(): on, then off by a second call; u32 counters. */
	memset(buf, 0, n * 2);
	p = (struct prof){ buf, n * 2, low, 0x8000 };
	if (sprofil(&p, 1, &tv, PROF_UINT) < 0)
		ksft_exit_fail_msg("sprofil: %s\n", strerror(errno));
	spin_counted(buf, n / 2, true);
	sigaction(SIGPROF, NULL, &sa);
	ksft_test_result(sa.sa_handler == SIG_DFL && tv.tv_usec == 1000,
			 "sprofil: SIGPROF left alone, a 1000 us period\n");
	if (sprofil(&p, 1, NULL, PROF_UINT) < 0)
		ksft_exit_fail_msg("sprofil off: %s\n", strerror(errno));
	for (i = 0, sum = 0; i < n / 2; i++)
		sum += ((unsigned int *)buf)[i];
	ksft_print_msg("sprofil: %lu ticks counted\n", sum);
	ksft_test_result(sum > 20, "sprofil: the kernel counted ticks\n");
	ksft_finished();
}
