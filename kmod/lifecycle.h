/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The scheduler's tracepoints (lifecycle.c): fork, exec and exit of
 * profiled processes, and the scheduler-tick probe, registered while a
 * session uses it.
 */
#ifndef _PK_LIFECYCLE_H
#define _PK_LIFECYCLE_H

int pk_lifecycle_init(void);
void pk_lifecycle_exit(void);
#include <linux/types.h>

extern unsigned int pk_tick_sessions;

int pk_tick_clock_get(bool session);
void pk_tick_clock_put(bool session);

#endif /* _PK_LIFECYCLE_H */
