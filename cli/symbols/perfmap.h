/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The names a JIT gives its code in /tmp/perf-PID.map, perf's format
 * (tools/perf/Documentation/jit-interface.txt): one line per symbol,
 *
 *	START SIZE NAME
 *
 * START and SIZE hex, with or without 0x, NAME the rest of the line
 * (spaces included). Documentation/profil-ctl/report.rst, "Symbols".
 */
#ifndef PROFIL_CTL_PERFMAP_H
#define PROFIL_CTL_PERFMAP_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "symbols.h"

/**
 * struct perfmap - a perf map's functions
 * @funcs: sorted by address, bounds disjoint, names owned
 * @n: how many
 * @ignored: lines not taken: malformed (no name, not hex), empty
 *	(SIZE 0) or past the end of the address space
 */
struct perfmap {
	struct sym_func *funcs;
	size_t n;
	size_t ignored;
};

/**
 * perfmap_parse() - read the map in @f into @pm (zero-initialised)
 *
 * Entries may overlap: a JIT reuses the memory of code it freed and
 * appends the new code's line, so a later line wins over the earlier
 * ones for the addresses it covers; what is left of an earlier entry
 * keeps its name (it may be split in two).
 *
 * Return: 0, or -1 with errno (ENOMEM, the stream's error); @pm is then
 * empty.
 */
int perfmap_parse(FILE *f, struct perfmap *pm);

/**
 * perfmap_read() - perfmap_parse() of /tmp/perf-@pid.map, if it is a
 * regular file (not a symbolic link) owned by the effective user or
 * root, as perf requires
 * Return: 0, or -1 with errno (ENOENT: the process wrote none; EPERM:
 * another user's, or not a regular file; ELOOP: a symbolic link).
 */
int perfmap_read(pid_t pid, struct perfmap *pm);

/** perfmap_find() - the function holding @addr, or NULL. */
const struct sym_func *perfmap_find(const struct perfmap *pm, uint64_t addr);

/** perfmap_free() - free what @pm owns and empty it. */
void perfmap_free(struct perfmap *pm);

#endif /* PROFIL_CTL_PERFMAP_H */
