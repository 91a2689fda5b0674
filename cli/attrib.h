/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Attribution of a histogram's samples to functions, what the function
 * view shows; pure, no I/O. A bin's count is split between the functions
 * its address range overlaps, in proportion to the overlap, as gprof
 * does; what falls outside every function is unknown. Counts may thus be
 * fractional where a bin straddles a function boundary (never with
 * libprofil's 4-byte bins and aligned functions).
 */
#ifndef PROFIL_CTL_ATTRIB_H
#define PROFIL_CTL_ATTRIB_H

#include <stddef.h>
#include <stdint.h>

#include "hist.h"
#include "symbols.h"

/**
 * struct attrib - a profile charged to functions
 * @counts: samples of each function (as @funcs, by index)
 * @calls: calls of each function, from the hist's arcs (callee inside it)
 * @unknown: samples outside every function
 */
struct attrib {
	double *counts;
	uint64_t *calls;
	double unknown;
};

/**
 * attrib_funcs() - charge @h's samples and arcs to @funcs
 * @a: filled; release with attrib_free()
 * @funcs: sorted by address, extents disjoint (may be NULL if @nfuncs 0)
 *
 * Return: 0, or -1 with errno ENOMEM.
 */
int attrib_funcs(struct attrib *a, const struct hist *h,
		 const struct sym_func *funcs, size_t nfuncs);

/** attrib_free() - free what @a owns and zero it. */
void attrib_free(struct attrib *a);

#endif /* PROFIL_CTL_ATTRIB_H */
