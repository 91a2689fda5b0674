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

/**
 * struct pk_image_hint - what a CPU's last attribution found
 * @generation: the profile it was for (pk_collector.generation)
 * @key: the process
 * @image: its image then
 * @object: the file object its PC was in, or 0
 *
 * The next sample on a CPU is most often of the same process, in the same
 * file: the hint saves the look-ups of its image and object. It is
 * checked against the live image (still the process's, not ended) and
 * against the object's identity (device, inode, generation, ctime: what
 * pk_object_of() would find) before it is used, so a stale hint costs
 * only the look-ups. Read and written with preemption disabled (the
 * machine-wide sampler's per-CPU state holds it); an attribution that
 * moves to another CPU in between leaves a hint there that is checked as
 * any other.
 */
struct pk_image_hint {
	u64 generation;
	pid_t key;
	u32 image;
	u32 object;
};

void pk_machine_image_collect(struct pk_collector *c, u64 pc, u32 missed,
			      bool system,
			      struct pk_image_hint __percpu *hints);
void pk_machine_image_end(struct pk_collector *c, pid_t key, int reason,
			  struct task_struct *task);

#endif /* _PK_MACHINE_IMAGE_H */
