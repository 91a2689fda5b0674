/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The scheduler's tracepoints (lifecycle.c): fork, exec and exit of
 * profiled processes, and the scheduler-tick probe, registered while a
 * session or the machine-wide profile uses it.
 */
#ifndef _PK_LIFECYCLE_H
#define _PK_LIFECYCLE_H

#include <linux/compiler.h>
#include <linux/types.h>

extern unsigned int pk_tick_sessions;

int pk_lifecycle_init(void);
void pk_lifecycle_exit(void);
int pk_tick_clock_get(bool session);
void pk_tick_clock_put(bool session);

/*
 * Whether a session is on the scheduler-tick clock: its probe looks for
 * thread records only then. Context: the probe (a racy read: see
 * lifecycle.c).
 */
static inline bool pk_tick_sessions_active(void)
{
	return READ_ONCE(pk_tick_sessions);
}

#endif /* _PK_LIFECYCLE_H */
