/* SPDX-License-Identifier: GPL-2.0 */
/*
 * report with several files: "report [BINARY] FILE..." merges saved
 * profiles and gmon.out files of one program, "report --diff BASE NEW"
 * compares two (cli/util/report_merge.c).
 */
#ifndef PROFIL_CTL_REPORT_MERGE_H
#define PROFIL_CTL_REPORT_MERGE_H

#include <stdbool.h>
#include <stddef.h>

#include "hist.h"
#include "profile.h"
#include "report.h"
#include "symbols.h"

/**
 * report_merge_files() - merge @files (@n of them, 2 or more) and render
 * the result as one profile
 * @binary: the program the gmon.out files are of (NULL: a.out)
 *
 * gmon.out files alone are summed as gprof -s sums them (histograms and
 * arcs) and shown as one gmon.out is. With a saved profile among them,
 * every file becomes part of one whole-program profile: saved profiles'
 * processes side by side and their objects matched by build-id; a
 * gmon.out a process of its own (pid 0) in the object @binary.
 *
 * Errors name the files: one unreadable; two of different programs
 * (the main executables' build-ids differ, or a gmon.out's ranges do
 * not fit another's), of different rates or bin sizes.
 *
 * Return: CTL_EXIT_OK, CTL_EXIT_FAIL or CTL_EXIT_USAGE.
 */
int report_merge_files(const char *cmd, const char **files, size_t n,
		       const char *binary, const struct report_opts *o,
		       bool per_process, const char *output);

/**
 * report_diff_files() - "--diff BASE NEW": @files must be two; each is
 * read as report_merge_files() reads one, then the samples per function
 * (per line with --lines) of both are shown side by side with the
 * change in samples and in share, the largest change of share first
 * Return: CTL_EXIT_OK, CTL_EXIT_FAIL or CTL_EXIT_USAGE.
 */
int report_diff_files(const char *cmd, const char **files, size_t n,
		      const char *binary, const struct report_opts *o,
		      const char *output);

#endif /* PROFIL_CTL_REPORT_MERGE_H */
