/* SPDX-License-Identifier: GPL-2.0 */
/*
 * PROFIL_HARNESS_MAIN: kselftest_harness.h's TEST_HARNESS_MAIN, with every
 * test's timeout multiplied by $PROFIL_TIMEOUT_SCALE (default 1). The
 * guest harness sets it on a slower kernel (KASAN: make check-debug), so
 * that tests keep their counts there and only wait longer.
 */
#ifndef PROFIL_HARNESS_H
#define PROFIL_HARNESS_H

#include <stdlib.h>

#include "kselftest_harness.h"

static inline void profil_scale_timeouts(void)
{
	const char *env = getenv("PROFIL_TIMEOUT_SCALE");
	unsigned long scale = env ? strtoul(env, NULL, 0) : 1;
	struct __fixture_metadata *f;
	struct __test_metadata *t;

	for (f = __fixture_list; scale > 1 && f; f = f->next)
		for (t = f->tests; t; t = t->next)
			t->timeout *= scale;
}

#define PROFIL_HARNESS_MAIN						\
	static void __attribute__((constructor))			\
	__constructor_order_last(void)					\
	{								\
		if (!__constructor_order)				\
			__constructor_order = _CONSTRUCTOR_ORDER_BACKWARD; \
	}								\
	int main(int argc, char **argv)					\
	{								\
		profil_scale_timeouts();				\
		return test_harness_run(argc, argv);			\
	}

#endif /* PROFIL_HARNESS_H */
