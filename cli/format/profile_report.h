/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The report of a whole-program profile (profile.h): the totals header,
 * then one table per object (per process, then object, with
 * --per-process), as text, CSV or JSON; and one gmon.out per object.
 * Documentation/profil-ctl/whole-program.rst, "Whole-program reports",
 * describes the layout; these functions only write to the FILE or files
 * they are given.
 */
#ifndef PROFIL_CTL_PROFILE_REPORT_H
#define PROFIL_CTL_PROFILE_REPORT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "profile.h"
#include "report_opts.h"

/* The row names of the function, line and bin views of every object. */
#define PROFILE_UNKNOWN_ROW "[unknown]"
#define PROFILE_UNCOVERED_ROW "[not covered: mapped after profil-ctl last looked]"

/**
 * struct profile_syms - the symbols of one object of a profile, read once
 * for every part of a report that shows it
 * @st: its symbols, or NULL (none readable: @note says why)
 * @note: why symbols are missing or suspect (a build-id that is not the
 *	recorded one), or ""
 * @hint: what would name its samples, when more than half of them are
 *	in no symbol's function (sym_hint()), or ""
 * @samples: the object's samples, all processes
 */
struct profile_syms {
	struct symtab *st;
	char note[512];
	char hint[640];
	uint64_t samples;
};

/**
 * profile_syms_open() - the symbols of every object of @p with samples
 * (@all: of every object), one per object, by index: from its @symfile,
 * else its @path; an object without a file to read, whose file cannot be
 * read, or whose build-id is not the recorded one gets a note; one with
 * most of its samples unnamed, a hint (DEBUGINFOD_URLS read here)
 * Return: the array, or NULL with errno ENOMEM.
 */
struct profile_syms *profile_syms_open(const struct profile *p, bool all);

/** profile_syms_close() - free @objs, profile_syms_open()'s of @p. */
void profile_syms_close(const struct profile *p, struct profile_syms *objs);

/**
 * profile_report() - render @p to @out as @o says
 * @o: view, format, sort, all, verbose (@o->render); @o->gmon and
 *	@o->binary are not used (profile_write_gmon() writes gmon.out)
 * @per_process: one section per process (pid, comm), then per object;
 *	else one per object, its processes summed
 * @cmd: the command, for messages on stderr
 *
 * Each object's symbols are read once, from its @symfile, else its
 * @path. An object whose file cannot be read, or whose build-id is not
 * the recorded one, gets a note in the report, and its samples go to
 * its "[unknown]" row (functions) or stay raw addresses (bins): never a
 * failure of the report.
 *
 * Return: 0, or -1 with the error printed (ENOMEM, the stream's error).
 */
int profile_report(FILE *out, const struct profile *p,
		   const struct report_opts *o, bool per_process,
		   const char *cmd);

/**
 * profile_write_gmon() - one gmon.out per object of @p with a histogram,
 * its processes summed: the main executable of the first process (the
 * object whose path is its @exe) to @path itself, every other object to
 * @path.<its base name>; a name already taken by an earlier object (in
 * the profile's order, the main executable first) gets ".2", ".3", ...
 * appended. An object with no histogram (only uncovered samples) is not
 * written; a note says so.
 * @cmd: the command, for messages (on stderr, one per file written)
 *
 * Return: 0, or -1 with the error printed (a file is left out).
 */
int profile_write_gmon(const char *path, const struct profile *p,
		       const char *cmd);

#endif /* PROFIL_CTL_PROFILE_REPORT_H */
