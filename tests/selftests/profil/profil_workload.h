/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The code the profil() selftests profile, at addresses they know: a loop
 * of two instructions (profil_loop) and two spin functions (spin_a,
 * spin_b) in sections of their own, the counters over the spin functions,
 * threads that run the loop, and the sum of a buffer's counters.
 *
 * It defines functions and data, not only declarations: include it in
 * the one source file of a program, after profil_nl.h (or profil_lib.h)
 * and profil_util.h.
 */
#ifndef PROFIL_SELFTEST_WORKLOAD_H
#define PROFIL_SELFTEST_WORKLOAD_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

/*
 * A loop of two known instructions: a tick of a thread running it lands
 * on profil_loop_cmp or profil_loop_jmp, or once on its way out on
 * profil_loop_ret, and nowhere else. Padding keeps all other code at least
 * 64 bytes before and 1 KiB after it.
 */
volatile char profil_loop_stop;
extern const char profil_loop[], profil_loop_cmp[], profil_loop_jmp[],
	profil_loop_ret[];
asm(".pushsection .text.profil_loop, \"ax\", @progbits\n"
    ".globl profil_loop\n"
    ".type profil_loop, @function\n"
    ".p2align 6\n"
    ".skip 64, 0xcc\n"
    "profil_loop:\n"
    "profil_loop_cmp: cmpb $0, profil_loop_stop(%rip)\n"
    "profil_loop_jmp: je profil_loop_cmp\n"
    "profil_loop_ret: ret\n"
    ".size profil_loop, . - profil_loop\n"
    ".skip 1024, 0xcc\n"
    ".popsection\n");

/* Two spin functions, each in a section of its own with known bounds. */
#define DEFINE_SPIN(name)						\
__attribute__((noinline, section("profil_" #name)))			\
void name(double secs)							\
{									\
	double end = thread_cpu() + secs;				\
	volatile unsigned long n = 0;					\
	int i;								\
									\
	while (thread_cpu() < end)					\
		for (i = 0; i < 20000; i++)				\
			n++;						\
}									\
/* @loops rounds and no system call: see rt_sampled_like_fair(). */	\
__attribute__((noinline, section("profil_" #name)))			\
void name##_loops(unsigned long loops)					\
{									\
	volatile unsigned long n = 0;					\
	unsigned long i;						\
									\
	for (i = 0; i < loops; i++)					\
		n++;							\
}									\
extern const char __start_profil_##name[], __stop_profil_##name[]

DEFINE_SPIN(spin_a);
DEFINE_SPIN(spin_b);

/*
 * Counters over spin_a and spin_b, 2 bytes each (scale 0x10000): @lo is
 * the offset, and [a0, a1) and [b0, b1) the counters of each function.
 */
struct spin_bins {
	uintptr_t lo;
	size_t nbins, a0, a1, b0, b1;
};

static inline struct spin_bins spin_bins(void)
{
	uintptr_t lo = (uintptr_t)__start_profil_spin_a;
	uintptr_t hi = (uintptr_t)__stop_profil_spin_b;
	struct spin_bins g;

	if (lo > (uintptr_t)__start_profil_spin_b) {
		lo = (uintptr_t)__start_profil_spin_b;
		hi = (uintptr_t)__stop_profil_spin_a;
	}
	g.lo = lo & ~1UL;
	g.nbins = (hi - g.lo) / 2 + 1;
	g.a0 = ((uintptr_t)__start_profil_spin_a - g.lo) / 2;
	g.a1 = ((uintptr_t)__stop_profil_spin_a - g.lo) / 2;
	g.b0 = ((uintptr_t)__start_profil_spin_b - g.lo) / 2;
	g.b1 = ((uintptr_t)__stop_profil_spin_b - g.lo) / 2;
	return g;
}

/*
 * Counters over spin_a and spin_b (@g), zeroed, and a request at @rate
 * that counts into them. Return: the buffer, or NULL.
 */
static inline uint16_t *spin_bins_buffer(const struct spin_bins *g,
					 uint32_t rate, struct pnl_start *req)
{
	uint16_t *buf = g->nbins < (1 << 20) ? calloc(g->nbins, 2) : NULL;

	*req = (struct pnl_start) {
		.buf = (uintptr_t)buf, .bufsiz = g->nbins * 2, .offset = g->lo,
		.scale = 0x10000, .rate = rate,
	};
	return buf;
}

static inline void *loop_thread(void *arg)
{
	void (*loop)(void) = (void (*)(void))profil_loop;

	loop();
	return NULL;
}

/* Run profil_loop in @n threads for about @secs of CPU each. */
static inline void run_loop_threads(int n, double secs)
{
	pthread_t tids[16];
	double start = process_cpu();
	int i;

	profil_loop_stop = 0;
	for (i = 0; i < n; i++)
		pthread_create(&tids[i], NULL, loop_thread, NULL);
	while (process_cpu() - start < n * secs)
		usleep(10000);
	profil_loop_stop = 1;
	for (i = 0; i < n; i++)
		pthread_join(tids[i], NULL);
}

static inline uint64_t buf_sum(const uint16_t *buf, size_t nbins)
{
	uint64_t sum = 0;
	size_t i;

	for (i = 0; i < nbins; i++)
		sum += buf[i];
	return sum;
}

#endif /* PROFIL_SELFTEST_WORKLOAD_H */
