/* SPDX-License-Identifier: GPL-2.0 */
/*
 * --format=folded: one line per "OBJECT;FUNCTION;FILE:LINE COUNT", the
 * collapsed stacks flamegraph.pl, inferno and speedscope read. A sample
 * without a source line has no third frame; the uncovered samples of an
 * object are "OBJECT;<uncovered name>". With --per-process the first
 * frame is "COMM-PID". A ';' inside a name becomes '_'. Lines are sorted
 * and each key is written once.
 */
#ifndef PROFIL_CTL_FOLDED_H
#define PROFIL_CTL_FOLDED_H

#include <stdio.h>

#include "export.h"
#include "profile.h"
#include "render.h"

/**
 * render_folded() - write @p as folded stacks to @out
 * @syms: one per object of @p (an empty one: no symbols)
 *
 * Return: 0, or -1 with errno (ENOMEM, the stream's error).
 */
int render_folded(FILE *out, const struct profile *p,
		  const struct render_syms *syms, const struct export_opts *o);

/**
 * folded_work() - the keys render_folded() has made as text so far: one
 * per distinct (process, object, function, file:line), never one per
 * bin (the test of its cost, counted rather than timed)
 */
unsigned long long folded_work(void);

#endif /* PROFIL_CTL_FOLDED_H */
