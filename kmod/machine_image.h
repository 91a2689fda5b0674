/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The machine-wide profile's images (machine_image.c): made at a
 * process's first sample, ended at its exec or exit.
 */
#ifndef _PK_MACHINE_IMAGE_H
#define _PK_MACHINE_IMAGE_H

#include <linux/time64.h>
#include <linux/types.h>

struct mm_struct;
struct pk_collector;
struct task_struct;

/**
 * struct pk_image_hint - what a CPU's last attribution for a process found
 * @generation: the profile it was for (pk_collector.generation)
 * @mm: the address space of @start..@end, only ever compared
 * @start: the first address of the mapping the PC was in
 * @end: the end of that mapping, or 0 when the kernel cannot tell a
 *	changed mapping from this one (pk_mm_seq())
 * @bias: the PC less its offset in that mapping's object
 * @key: the process
 * @image: its image then
 * @object: the object of the mapping the PC was in, or 0
 * @mm_seq: @mm's count of mapping changes then (pk_mm_seq())
 * @file: @object is a file's, of the identity below
 * @ino: its inode number
 * @sdev: its file system's device, as the kernel holds it
 * @igen: its inode's generation
 * @ctime: its inode's ctime
 *
 * The next sample of a process is most often in the same mapping: the
 * hint saves the look-ups of its image and object, and, where the kernel
 * counts the changes to an address space's mappings, the mapping's own.
 * It is checked before it is used: the image against the live one (still
 * the process's, not ended), and either the mapping against the count
 * (unchanged: the same mapping, whose object was found when the hint was
 * taken) or, after a look-up, the object against its identity (device,
 * inode, generation, ctime: what pk_object_of() would find), kept here
 * as the inode has it, so that the compare converts nothing. A stale
 * hint costs only the look-ups. The machine-wide sampler's per-CPU state
 * holds PK_IMAGE_HINTS of them, by process. The common attribution
 * uses its CPU's hint in place with preemption disabled throughout; one
 * that may sleep copies it in with preemption disabled and writes it
 * back whole. Where the CPU's tick reads hints in place
 * (pk_machine_image_tick()), every write of what it reads is made with
 * interrupts off. An attribution that moves to another CPU in between
 * leaves a hint there that is checked as any other.
 */
struct pk_image_hint {
	u64 generation;
	const struct mm_struct *mm;
	unsigned long start;
	unsigned long end;
	u64 bias;
	pid_t key;
	u32 image;
	u32 object;
	u32 mm_seq;
	bool file;
	unsigned long ino;
	dev_t sdev;
	u32 igen;
	struct timespec64 ctime;
};

/*
 * Hints per CPU, one per process by its tgid's low bits: the processes a
 * CPU takes turns running (two CPU-bound ones take turns at every other
 * tick) each keep theirs.
 */
#define PK_IMAGE_HINTS 4

struct pk_image_hints {
	struct pk_image_hint by_key[PK_IMAGE_HINTS];
};

void pk_machine_image_collect(struct pk_collector *c, u64 pc, u32 missed,
			      bool system,
			      struct pk_image_hints __percpu *hints);
bool pk_machine_image_tick(struct pk_collector *c, u64 pc, u32 missed,
			   const struct pk_image_hints *hints);
void pk_machine_image_end(struct pk_collector *c, pid_t key, int reason,
			  struct task_struct *task);

#endif /* _PK_MACHINE_IMAGE_H */
