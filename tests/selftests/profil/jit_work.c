// SPDX-License-Identifier: GPL-2.0
/*
 * A JIT in miniature, for jit_test.sh: copies a counting loop into
 * anonymous executable memory, names it in /tmp/perf-PID.map as a JIT
 * does (perf's format: START SIZE NAME, hex), and runs it for SECS
 * seconds of CPU time. x86-64 only (the loop is its machine code);
 * exits 4 elsewhere.
 *
 *	jit_work SECS
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

/* The name jit_test.sh looks for. */
#define JIT_NAME "jit_spin_loop [jitted]"

#if defined(__x86_64__)
/*
 * long f(long n): dec %rdi; jnz back to it; mov %rdi,%rax; ret. Padded
 * with int3 to 16 bytes, the size the map gives.
 */
static const unsigned char loop_code[16] = {
	0x48, 0xff, 0xcf,	/* dec %rdi */
	0x75, 0xfb,		/* jnz -5 */
	0x48, 0x89, 0xf8,	/* mov %rdi, %rax */
	0xc3,			/* ret */
	0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc,
};
#endif

static double cpu_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* The map line for @code, as a JIT writes it when it makes the code. */
static int write_map(const void *code, size_t size)
{
	char path[64];
	FILE *f;

	snprintf(path, sizeof(path), "/tmp/perf-%d.map", (int)getpid());
	f = fopen(path, "w");
	if (!f)
		return -1;
	fprintf(f, "%lx %zx %s\n", (unsigned long)(uintptr_t)code, size,
		JIT_NAME);
	return fclose(f);
}

int main(int argc, char **argv)
{
#if defined(__x86_64__)
	double secs = argc > 1 ? atof(argv[1]) : 0.5, t0;
	long (*fn)(long);
	void *mem;

	mem = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (mem == MAP_FAILED)
		return 1;
	memcpy(mem, loop_code, sizeof(loop_code));
	if (mprotect(mem, 4096, PROT_READ | PROT_EXEC) ||
	    write_map(mem, sizeof(loop_code)))
		return 1;
	fn = (long (*)(long))mem;
	t0 = cpu_seconds();
	while (cpu_seconds() - t0 < secs)
		if (fn(1000000) != 0)
			return 1;
	printf("jit_work: %s at %p\n", JIT_NAME, mem);
	return 0;
#else
	(void)argc;
	(void)argv;
	fprintf(stderr, "jit_work: x86-64 only\n");
	return 4;
#endif
}
