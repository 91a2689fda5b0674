/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The report every profil-ctl command prints (cli/format/report.c): a
 * struct hist, the ELF file's symbols, or a whole-program profile,
 * rendered as the options (report_opts.h) say. "report" reads the hist
 * from a gmon.out; run, attach and show build it from a live buffer and
 * call report_render() the same way.
 */
#ifndef PROFIL_CTL_REPORT_H
#define PROFIL_CTL_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "hist.h"
#include "profile.h"
#include "report_opts.h"
#include "symbols.h"

/**
 * report_render() - render @h to @out with the symbols of @o->binary
 * (or @h->binary; none if both are NULL)
 *
 * Errors go to stderr as "profil-ctl: <cmd>: ..." with @cmd "report"
 * unless the caller names itself through report_render_cmd().
 *
 * Return: 0, or -1 (symbols unreadable, output error).
 */
int report_render(const struct hist *h, const struct report_opts *o,
		  FILE *out);

/** report_render_cmd() - report_render() with @cmd in its messages. */
int report_render_cmd(const char *cmd, const struct hist *h,
		      const struct report_opts *o, FILE *out);

/**
 * report_profile_out() - @p rendered (or written as gmon.out files) to
 * @output, standard output if NULL. Return: 0, or -1 after printing why.
 */
int report_profile_out(const char *cmd, const struct profile *p,
		       const struct report_opts *o, bool per_process,
		       const char *output);

/**
 * report_hist_out() - @h rendered with the symbols of @st (NULL: none),
 * or written as a gmon.out, to @output (standard output if NULL)
 * Return: 0, or -1 after printing why.
 */
int report_hist_out(const char *cmd, const struct hist *h,
		    const struct report_opts *o, struct symtab *st,
		    const char *output);

/**
 * report_hist_fits() - whether @h (read from @gmon) is of @binary's code,
 * whose symbols are @st: a bin with samples in one of its functions at
 * least, or no sample at all. If not, its report would be 100%
 * [unknown] and lose the call counts: the error is printed, naming
 * both files, and the answer is @force (report anyway).
 */
bool report_hist_fits(const char *cmd, const char *gmon, const char *binary,
		      const struct hist *h, const struct symtab *st,
		      bool force);

#endif /* PROFIL_CTL_REPORT_H */
