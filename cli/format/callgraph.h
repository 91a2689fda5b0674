/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The call-graph view of a -pg program's gmon.out (report --callgraph):
 * per function its callers and callees with call counts, and time
 * propagated as gprof does (symbols/cg.h); a pure renderer, as render.h's.
 */
#ifndef PROFIL_CTL_CALLGRAPH_H
#define PROFIL_CTL_CALLGRAPH_H

#include <stdio.h>

#include "hist.h"
#include "render.h"

/**
 * render_callgraph() - the call graph of @h over @s->funcs to @out
 * @o: @o->format text, csv or json; @o->sort: gprof's order (most
 *	time, self and children, first; then most calls; then name), else
 *	address order. Other members are not used.
 *
 * Text: one entry per function (and per cycle, as a whole), gprof -q's
 * layout: the callers, the function's own line with its index, the
 * callees. CSV: the arcs, one row each (caller, callee, count, and the
 * seconds the callee passes up along it), a "<spontaneous>" row for
 * each function nothing calls. JSON: functions, cycles and arcs.
 *
 * Return: 0, or -1 with errno (ENOMEM, or the stream's error).
 */
int render_callgraph(FILE *out, const struct hist *h,
		     const struct render_syms *s, const struct render_opts *o);

#endif /* PROFIL_CTL_CALLGRAPH_H */
