/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The ranked list of a whole-program profile (cli/format/profile_list.c):
 * perf report's default view, one list across every process and object,
 * its rows the samples summed per value of the --sort keys (comm, dso,
 * sym by default, as perf's), most samples first; as text, CSV or a JSON
 * member. Documentation/profil-ctl/whole-program.rst, "Whole-program
 * reports", shows it.
 */
#ifndef PROFIL_CTL_PROFILE_LIST_H
#define PROFIL_CTL_PROFILE_LIST_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "profile.h"
#include "profile_report.h"
#include "report_opts.h"

/**
 * profile_list() - the ranked list of @p to @out
 * @p: the profile as given, by process (the comm and pid keys need them)
 * @objs: profile_syms_open()'s symbols of @p's objects
 * @o: the keys (none: comm,dso,sym, or pid,dso,sym with @per_process), the filters (--comms, --dsos, --symbols), --top,
 *	--percent-limit, -a, -v, the format (text, CSV; JSON: the value of
 *	a member, an object with "keys", "rows", "hidden", "filtered")
 * @per_process: the default keys start with pid (shown as pid:comm)
 * @total: what percentages are of: every user sample of @p
 *
 * Every function with samples of every (process, object) is a row
 * before the keys sum them; an object's samples in no function are its
 * "[unknown]" row, its uncovered samples its uncovered row. Rows the
 * filters leave out are counted, as are those --top and
 * --percent-limit leave out (text: one line each; JSON: "filtered" and
 * "hidden"; CSV: not at all).
 *
 * Return: 0, or -1 with errno (ENOMEM, or the stream's error).
 */
int profile_list(FILE *out, const struct profile *p,
		 const struct profile_syms *objs, const struct report_opts *o,
		 bool per_process, uint64_t total);

#endif /* PROFIL_CTL_PROFILE_LIST_H */
