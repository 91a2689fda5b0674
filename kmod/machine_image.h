/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The machine-wide profile's images (machine_image.c): made at a
 * process's first sample, ended at its exec or exit.
 */
#ifndef _PK_MACHINE_IMAGE_H
#define _PK_MACHINE_IMAGE_H

#include <linux/types.h>

struct pk_collector;
struct task_struct;

void pk_machine_image_collect(struct pk_collector *c, u64 pc, u32 missed,
			      bool system);
void pk_machine_image_end(struct pk_collector *c, pid_t key, int reason,
			  struct task_struct *task);

#endif /* _PK_MACHINE_IMAGE_H */
