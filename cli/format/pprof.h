/* SPDX-License-Identifier: GPL-2.0 */
/*
 * --format=pprof: a profile as pprof's profile.proto (profile.proto
 * here, compiled by protoc-c), gzip-compressed, which go tool pprof,
 * Pyroscope, Parca and Grafana read.
 * Documentation/profil-ctl/whole-program.rst, "pprof and folded
 * stacks", gives the mapping of our model onto it.
 */
#ifndef PROFIL_CTL_PPROF_H
#define PROFIL_CTL_PPROF_H

#include <stdio.h>

#include "export.h"
#include "profile.h"
#include "render.h"

/* The sample types, in this order; calls only when there are arcs. */
#define PPROF_SAMPLES "samples"
#define PPROF_CPU "cpu"
#define PPROF_CALLS "calls"

/**
 * render_pprof() - write @p as a gzip'ed profile.proto to @out
 * @syms: one per object of @p (an empty one: no symbols)
 *
 * Return: 0, or -1 with errno (ENOMEM, EFBIG past 4 GiB of message, the
 * stream's error).
 */
int render_pprof(FILE *out, const struct profile *p,
		 const struct render_syms *syms, const struct export_opts *o);

#endif /* PROFIL_CTL_PPROF_H */
