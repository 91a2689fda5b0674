/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The machine-wide profile (machine.c): the tick samples every process
 * of the machine, or of one cgroup, into one collector.
 */
#ifndef _PK_MACHINE_H
#define _PK_MACHINE_H

#include <linux/types.h>

struct pk_collector;
struct task_struct;

int pk_machine_init(void);
void pk_machine_exit(void);
int pk_machine_claim(struct pk_collector *c, u32 rate, u32 flags);
void pk_machine_release(struct pk_collector *c);
void pk_machine_runtime(struct task_struct *task, u64 delta);
void pk_machine_exec(struct task_struct *task);
void pk_machine_exit_task(struct task_struct *task);

#endif /* _PK_MACHINE_H */
