/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Attribution of a histogram's samples to functions, what the function
 * view shows; pure, no I/O. A sample counts for a function only inside
 * its bounds (struct sym_func: its ELF size or DWARF range), not, as
 * gprof and readprofile have it, anywhere up to the next function's
 * entry. A bin's count is split between the functions its address range
 * overlaps, in proportion to the overlap, as gprof does; what falls
 * outside every function is unknown, and kept per gap between functions.
 * Counts may thus be fractional where a bin straddles a bound (never
 * with libprofil's 4-byte bins and aligned functions).
 */
#ifndef PROFIL_CTL_ATTRIB_H
#define PROFIL_CTL_ATTRIB_H

#include <stddef.h>
#include <stdint.h>

#include "hist.h"
#include "symbols.h"

/**
 * struct attrib_gap - unknown samples between two functions' bounds
 * @lo: the lowest address in the gap a sample's bin covers
 * @hi: the end of the highest such bin part (exclusive)
 * @count: the samples
 * @next: the index of the first function after the gap (nfuncs: none);
 *	the function before it, @next - 1, is the one whose entry precedes
 *	the gap, which gprof would charge (none when @next is 0)
 */
struct attrib_gap {
	uint64_t lo;
	uint64_t hi;
	double count;
	size_t next;
};

/**
 * struct attrib - a profile charged to functions
 * @counts: samples of each function (as @funcs, by index)
 * @calls: calls of each function, from the hist's arcs (callee inside it)
 * @unknown: samples outside every function
 * @gprof_preceding: the part of @unknown after some function's entry,
 *	which gprof would charge to the function before it
 * @gaps: the gaps with unknown samples, in address order
 * @ngaps: their number
 */
struct attrib {
	double *counts;
	uint64_t *calls;
	double unknown;
	double gprof_preceding;
	struct attrib_gap *gaps;
	size_t ngaps;
};

/**
 * attrib_funcs() - charge @h's samples and arcs to @funcs
 * @a: filled; release with attrib_free()
 * @funcs: sorted by address, bounds disjoint (may be NULL if @nfuncs 0)
 *
 * Return: 0, or -1 with errno ENOMEM.
 */
int attrib_funcs(struct attrib *a, const struct hist *h,
		 const struct sym_func *funcs, size_t nfuncs);

/** attrib_free() - free what @a owns and zero it. */
void attrib_free(struct attrib *a);

#endif /* PROFIL_CTL_ATTRIB_H */
