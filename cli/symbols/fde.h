/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Function bounds from an ELF file's unwind tables: each FDE of its
 * .eh_frame or .debug_frame covers one function, or one part of a
 * function that the compiler split (a hot and a cold part are two FDEs),
 * whether or not a symbol names it. Internal to the symbols layer.
 */
#ifndef PROFIL_CTL_FDE_H
#define PROFIL_CTL_FDE_H

#include <stdint.h>
#include <sys/types.h>
#include <gelf.h>

/**
 * struct fde_range - the code an FDE covers
 * @lo: its initial location (link-time)
 * @hi: @lo plus its address range (exclusive)
 */
struct fde_range {
	uint64_t lo;
	uint64_t hi;
};

/**
 * fde_ranges() - the FDE ranges of @elf, from its .eh_frame and its
 * .debug_frame (one range once), walked with libdw's dwarf_next_cfi()
 * @out: a malloc'ed array, sorted by @lo; left out: empty ranges,
 *	overlapping ones (which no linker output has), and those of PLT
 *	sections (a table of stubs, not a function); NULL when none
 *
 * An FDE whose encoding cannot be read is skipped, as is a table that
 * libdw cannot walk past (its entries up to there are kept): a file
 * without unwind tables has no ranges, which is not an error.
 *
 * Return: the number of ranges, or -1 with errno ENOMEM.
 */
ssize_t fde_ranges(Elf *elf, struct fde_range **out);

#endif /* PROFIL_CTL_FDE_H */
