/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Who may profile what (access.c): the switches a start checks, in a
 * request and in the fork probe, and the rights over another process.
 */
#ifndef _PK_ACCESS_H
#define _PK_ACCESS_H

#include <linux/types.h>

struct task_struct;

bool pk_start_allowed(bool audit);
bool pk_timer_clock_allowed(bool audit);
bool pk_machine_allowed(void);
bool pk_may_access(struct task_struct *task, bool audit);
bool pk_may_control(struct task_struct *task);

#endif /* _PK_ACCESS_H */
