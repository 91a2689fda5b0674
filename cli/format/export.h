/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A profile exported for other tools: pprof's profile.proto (pprof.h)
 * and folded stacks for flame graphs (folded.h). Both take a whole
 * profile (profile.h); a gmon.out is one with a single object and no
 * process. Both charge a bin's samples whole to the function and source
 * line of its first address, as the line view does; the function view
 * splits a bin that straddles a function's bound, which with 4-byte
 * bins and aligned functions never happens, so their counts are the
 * text report's.
 *
 * The renderers are pure: they learn symbols only through one struct
 * render_syms per object. export_profile() and export_hist() read the
 * symbols and call them.
 */
#ifndef PROFIL_CTL_EXPORT_H
#define PROFIL_CTL_EXPORT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "profile.h"
#include "render.h"
#include "report_opts.h"
#include "symbols.h"

/**
 * struct export_opts - what an export names and how it groups
 * @unknown: the function of samples in no function ("[unknown]", in a
 *	whole profile's report as in a gmon.out's)
 * @uncovered: the function of an object's uncovered samples (profile.h)
 * @per_process: folded: a first frame "COMM-PID" per process (pprof
 *	always labels samples with pid and comm)
 */
struct export_opts {
	const char *unknown;
	const char *uncovered;
	bool per_process;
};

/**
 * struct export_site - where an address is
 * @func: the function whose bounds hold it (sym_func_find()), or NULL
 * @file: its source file (DWARF), or NULL if there is no line there
 * @line: its line (when @file)
 */
struct export_site {
	const struct sym_func *func;
	const char *file;
	unsigned int line;
};

/** export_site() - where @addr is, by the symbols @s (may be empty). */
void export_site(const struct render_syms *s, uint64_t addr,
		 struct export_site *site);

/** export_format() - whether @f is an export's (pprof or folded). */
bool export_format(enum render_format f);

/**
 * export_profile() - @p as @o->render.format says (pprof or folded)
 * @per_process: folded: one first frame per process
 * @cmd: the command, for messages on stderr; NULL: none (serve's
 *	requests, which answer with errno)
 *
 * Each object's symbols are read once, from its @symfile, else its @path,
 * as profile_report() reads them; an object without symbols, or whose
 * build-id is not the recorded one, gets a note on stderr, never a
 * failure.
 *
 * Return: 0, or -1 with errno and the error printed (ENOMEM, the
 * stream's error).
 */
int export_profile(FILE *out, const struct profile *p,
		   const struct report_opts *o, bool per_process,
		   const char *cmd);

/**
 * export_hist() - @h, a gmon.out's histogram and arcs, as one object
 * (@h->binary, with @st's symbols and build-id; @st may be NULL)
 * Return: as export_profile().
 */
int export_hist(FILE *out, const struct hist *h, struct symtab *st,
		const struct report_opts *o, const char *cmd);

#endif /* PROFIL_CTL_EXPORT_H */
