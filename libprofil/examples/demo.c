// SPDX-License-Identifier: GPL-2.0
/*
 * libprofil's complete example, and what `make demo` runs: three functions
 * doing 50, 30 and 20 % of the work, profiled by the kernel's clock into a
 * gmon.out that GNU gprof reads, with the kernel's own accounting of the
 * ticks next to it.
 *
 *   cc -O2 -g demo.c $(pkg-config --cflags --libs libprofil) -o demo
 *   PROFIL_HZ=1000 ./demo && gprof -b -p demo gmon.out
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/gmon.h>

#include <profil.h>

#include "workload.h"

extern char __executable_start[], etext[];

int main(int argc, char **argv)
{
	unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 0) : 40000000;
	struct profil_handle *h;
	struct profil_status st;

	/* Kernel ticks into a histogram of the program's text. */
	monstartup((unsigned long)__executable_start, (unsigned long)etext);
	workload_run(n);

	/* What the kernel counted, before _mcleanup() stops it. */
	h = profil_handle_open();
	if (!h || profil_session_get(h, 0, &st) < 0) {
		fprintf(stderr, "demo: status: %s\n", profil_strerror());
		return 1;
	}
	printf("kernel: %lu Hz, %llu ticks: %llu in range, %llu outside, "
	       "%llu in the kernel, %llu deferred\n", (unsigned long)st.rate,
	       (unsigned long long)st.stats.ticks,
	       (unsigned long long)st.stats.in_range,
	       (unsigned long long)st.stats.out_of_range,
	       (unsigned long long)st.stats.system_dropped,
	       (unsigned long long)st.stats.deferred);
	profil_handle_close(h);

	_mcleanup();	/* stops profiling and writes gmon.out */
	return 0;
}
