/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A whole-program profile in the callgrind format, which
 * callgrind_annotate and KCachegrind read (Valgrind's "Callgrind Format
 * Specification", version 1): one event, Samples, per source line.
 */
#ifndef PROFIL_CTL_CALLGRIND_H
#define PROFIL_CTL_CALLGRIND_H

#include <stdio.h>

#include "costs.h"

/**
 * render_callgrind() - @p, one count per object, with the symbols @syms
 * of its objects, to @out: for each object (ob=) and function (fl=,
 * fn=), the samples of its source lines (costs.h: whole bins), fi= where
 * a line is in another file (inlined code); the function's [unknown]
 * and [not covered] samples at line 0; then its calls (cfi=, cfn=,
 * calls=COUNT LINE, then the call site's line with an inclusive cost of
 * 0: a histogram does not know it). Names are compressed ("fn=(3) name"
 * once, "fn=(3)" after).
 * Return: 0, or -1 with errno (ENOMEM, the stream's error).
 */
int render_callgrind(FILE *out, const struct profile *p,
		     const struct profile_syms *syms);

#endif /* PROFIL_CTL_CALLGRIND_H */
