/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A whole-program profile's samples per function and per source line,
 * with the call arcs between functions: the model of the formats that
 * show all three (callgrind.c, html.c). Pure: it reads symbols and
 * writes nothing.
 *
 * Functions are each object's symbol-table functions (struct sym_func)
 * with samples or calls, then its "[unknown]" row (samples in no
 * function) and its "[not covered: ...]" row (profile.h's uncovered
 * samples). A function's @self is the function view's count (attrib.h:
 * a bin straddling a bound is split); its lines follow the line view's
 * rule (render.h): a bin whole to the line, and to the function, of its
 * first address. The two agree unless a bin straddles a function's
 * bound. Arcs come from a -pg program's gmon.out; a saved profile has
 * none.
 */
#ifndef PROFIL_CTL_COSTS_H
#define PROFIL_CTL_COSTS_H

#include <stddef.h>
#include <stdint.h>

#include "hist.h"
#include "profile.h"
#include "profile_report.h"

enum cost_kind {
	COST_FUNC,		/* a symbol-table function */
	COST_UNKNOWN,		/* samples in no function of the object */
	COST_UNCOVERED,		/* samples known by object only */
};

/**
 * struct cost_func - one function of one object
 * @object: index into the profile's objects
 * @kind: what the row is
 * @name: its name (PROFILE_UNKNOWN_ROW, PROFILE_UNCOVERED_ROW)
 * @addr: its entry (0 unless COST_FUNC)
 * @file: the source file of its entry, else of its first line with
 *	samples; NULL if DWARF names none
 * @line: the line of its entry (0: unknown)
 * @self: samples, as the function view counts them
 * @lines_self: samples of its lines (whole bins)
 * @calls: calls to it, from the arcs
 */
struct cost_func {
	size_t object;
	enum cost_kind kind;
	const char *name;
	uint64_t addr;
	const char *file;
	unsigned int line;
	double self;
	uint64_t lines_self;
	uint64_t calls;
};

/**
 * struct cost_line - the samples of one source line in one function
 * @func: index into costs.funcs
 * @file: the source file (DWARF), or NULL: no line information
 * @line: the line (0 when @file is NULL)
 * @count: samples (whole bins)
 * @addr: the lowest address of its bins
 */
struct cost_line {
	size_t func;
	const char *file;
	unsigned int line;
	uint64_t count;
	uint64_t addr;
};

/**
 * struct cost_arc - calls from one call site to one function
 * @caller: index into costs.funcs
 * @callee: index into costs.funcs
 * @file: the call site's source file, or NULL
 * @line: its line (0 when @file is NULL)
 * @count: calls
 */
struct cost_arc {
	size_t caller;
	size_t callee;
	const char *file;
	unsigned int line;
	uint64_t count;
};

/**
 * struct costs - a profile's functions, lines and arcs
 * @funcs: by object (the profile's order), then address; each object's
 *	[unknown] and [not covered] rows last
 * @lines: by function, then file, then line
 * @arcs: by caller, then call site, then callee
 * @total: every sample (the profile's user samples)
 *
 * Strings are the symbols' (valid until the syms are closed) or static.
 */
struct costs {
	struct cost_func *funcs;
	size_t nfuncs;
	struct cost_line *lines;
	size_t nlines;
	struct cost_arc *arcs;
	size_t narcs;
	uint64_t total;
};

/**
 * costs_build() - the costs of @p, a profile with one count per object
 * (profile_merge_processes()), with the symbols @syms of its objects
 * (profile_syms_open(); an object without symbols has only its
 * [unknown] and [not covered] rows)
 * @c: filled; release with costs_free()
 * Return: 0, or -1 with errno ENOMEM.
 */
int costs_build(struct costs *c, const struct profile *p,
		const struct profile_syms *syms);

/** costs_free() - free what @c owns and zero it. */
void costs_free(struct costs *c);

/**
 * costs_hist_profile() - @h, arcs included, as a profile of one object,
 * the ELF file @binary (NULL: "[unknown binary]") with @build_id (or
 * NULL): no process, the rate @h's, the accounting unknown
 * @p: zero-initialised; release with profile_free()
 * Return: 0, or -1 with errno ENOMEM.
 */
int costs_hist_profile(struct profile *p, const struct hist *h,
		       const char *binary, const char *build_id);

#endif /* PROFIL_CTL_COSTS_H */
