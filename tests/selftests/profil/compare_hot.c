// SPDX-License-Identifier: GPL-2.0
/*
 * The hot code of compare_dlopen, in a shared object it dlopen()s after
 * profiling has begun: three functions doing 50, 30 and 20 % of the work.
 */
#include <stdint.h>

#define HOT_FN(name)							\
	__attribute__((noinline)) uint64_t name(uint64_t n, uint64_t x)	\
	{								\
		uint64_t i;						\
									\
		for (i = 0; i < n; i++) {				\
			x ^= x << 13;					\
			x ^= x >> 7;					\
			x ^= x << 17;					\
			__asm__ volatile("" : "+r"(x));			\
		}							\
		return x;						\
	}

HOT_FN(hot_fifty)
HOT_FN(hot_thirty)
HOT_FN(hot_twenty)

uint64_t hot_run(uint64_t units)
{
	uint64_t x = 88172645463325252ULL;

	x = hot_fifty(units * 5, x);
	x = hot_thirty(units * 3, x);
	return hot_twenty(units * 2, x);
}
