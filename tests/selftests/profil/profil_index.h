/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The PC to counter mapping of include/uapi/linux/profil.h
 * (%PROFIL_ATTR_SCALE), as the tests predict it: the index the kernel
 * must have incremented for a PC (profil_semantics_test.c), checked against
 * glibc's values (tests/unit/test_pc_index.c).
 */
#ifndef PROFIL_INDEX_H
#define PROFIL_INDEX_H

#include <linux/types.h>

/**
 * profil_pc_to_index() - map a PC to a counter index, as glibc's profil()
 * @pc: sampled user program counter
 * @offset: lowest PC counted
 * @scale: 16.16 fixed-point scale
 * @bufsiz: buffer size in bytes (an odd last byte is unused)
 * @idx: on success, the index of the u16 counter to increment
 *
 * idx = floor(floor((pc - offset) / 2) * scale / 65536), exact in 64 bits,
 * computed in glibc's LP64 form. This mapping is part of the ABI: a buffer
 * filled by the kernel reads the same as one filled by glibc.
 *
 * Return: 1 if the PC maps inside the buffer, 0 if it does not.
 */
static inline int profil_pc_to_index(__u64 pc, __u64 offset, __u32 scale,
				     __u64 bufsiz, __u64 *idx)
{
	__u64 half, high, low;

	if (pc < offset)
		return 0;
	half = (pc - offset) >> 1;
	low = ((half & 0xffff) * scale) >> 16;
	if (__builtin_mul_overflow(half >> 16, (__u64)scale, &high) ||
	    __builtin_add_overflow(high, low, idx))
		return 0;
	return *idx < bufsiz / 2;
}

#endif /* PROFIL_INDEX_H */
