/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What would name an object's unnamed samples: a pure function of how
 * its samples fall (named functions, FDE ranges, nothing) and of what
 * the object is, for the report's header. Documentation/profil-ctl/report.rst,
 * "Symbols".
 */
#ifndef PROFIL_CTL_HINT_H
#define PROFIL_CTL_HINT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hist.h"
#include "symbols.h"

/**
 * struct sym_share - an object's samples by how their function is named
 * @named: in a symbol's function
 * @fde: in an FDE range only (SYM_FUNC_FDE)
 * @unknown: in no function
 */
struct sym_share {
	uint64_t named;
	uint64_t fde;
	uint64_t unknown;
};

/**
 * sym_share_add() - add @h's samples to @sh, each bin whole by the
 * function holding its first address (as the line view charges it)
 * @funcs: sorted, as symtab_funcs() gives them (may be NULL if @n is 0)
 */
void sym_share_add(struct sym_share *sh, const struct hist *h,
		   const struct sym_func *funcs, size_t n);

/**
 * sym_hint() - the hint for the object @path when more than half of its
 * samples in @sh are unnamed (FDE ranges and unknown): the share, then
 * what would name them: its -dbgsym package for a system file (under
 * /usr or /lib), DEBUGINFOD_URLS when @debuginfod_urls is unset or
 * empty and the file has a build-id (@has_build_id), else rebuilding
 * with -g
 * @buf: the hint, "" when none (@len bytes, NUL included)
 *
 * Return: true if there is a hint.
 */
bool sym_hint(char *buf, size_t len, const struct sym_share *sh,
	      const char *path, bool has_build_id,
	      const char *debuginfod_urls);

#endif /* PROFIL_CTL_HINT_H */
