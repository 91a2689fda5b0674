/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The report options every command shares (cli/util/report_opts.c):
 * struct report_opts, their getopt_long table entries, parsing, checks.
 */
#ifndef PROFIL_CTL_REPORT_OPTS_H
#define PROFIL_CTL_REPORT_OPTS_H

#include <stdbool.h>

#include "ctl.h"
#include "render.h"

/**
 * struct report_opts - the rendering options of every command
 * @render: view, format, sort, all, verbose, ticks (render.h)
 * @gmon: --format=gmon: write a gmon.out instead of a table
 * @binary: the ELF file for symbols; NULL: the hist's own @binary
 * @callgraph: report --callgraph: callers and callees (callgraph.h)
 */
struct report_opts {
	struct render_opts render;
	bool gmon;
	const char *binary;
	bool callgraph;
};

/* Option codes above any character, for getopt_long's table. */
enum {
	REPORT_OPT_LINES = 0x100,
	REPORT_OPT_SORT,
	REPORT_OPT_FORMAT,
	REPORT_OPT_PER_PROCESS,
	REPORT_OPT_CALLGRAPH,
	REPORT_OPT_TOP,
	REPORT_OPT_PERCENT_LIMIT,
	REPORT_OPT_DIFF,
};

/*
 * The shared options with their help, to put in a command's struct
 * ctl_option table: --lines, -b/--bins, --sort[=samples|address],
 * --top, --percent-limit, -a/--all, -v/--verbose,
 * --format=text|csv|json|pprof|folded|gmon.
 */
#define REPORT_OPTIONS							\
	{ { "lines", no_argument, NULL, REPORT_OPT_LINES }, NULL,	\
	  "one row per source file:line (DWARF)" },			\
	{ { "bins", no_argument, NULL, 'b' }, NULL,			\
	  "one row per histogram bin" },				\
	{ { "sort", optional_argument, NULL, REPORT_OPT_SORT }, "KEY",	\
	  "samples: highest count first (the default); address: "	\
	  "address (or file:line) order" },				\
	{ { "top", required_argument, NULL, REPORT_OPT_TOP }, "N",	\
	  "only the N rows of the most samples" },			\
	{ { "percent-limit", required_argument, NULL,			\
	    REPORT_OPT_PERCENT_LIMIT }, "P",				\
	  "only rows of at least P percent" },				\
	{ { "all", no_argument, NULL, 'a' }, NULL,			\
	  "rows with a zero count too" },				\
	{ { "verbose", no_argument, NULL, 'v' }, NULL,			\
	  "addresses and sizes" },					\
	{ { "format", required_argument, NULL, REPORT_OPT_FORMAT }, "FMT", \
	  "text (default), csv, json, pprof, folded, gmon (needs -o), "	\
	  "callgrind or html" }

/** report_opts_init() - defaults: functions, text, most samples first. */
void report_opts_init(struct report_opts *o);

/**
 * report_parse_opt() - apply one getopt_long result @c (argument @arg)
 * @cmd: the command's name, for messages
 *
 * Return: 1 if @c was a shared option and is applied, 0 if it is not
 * one of them, -1 on a bad value (the message is printed: return
 * CTL_EXIT_USAGE).
 */
int report_parse_opt(struct report_opts *o, const char *cmd, int c,
		     const char *arg);

/**
 * report_check_opts() - the checks once all options are in (--lines
 * with -b, --format=gmon without an output file @output)
 * Return: 0, or -1 with the message printed (exit CTL_EXIT_USAGE).
 */
int report_check_opts(const struct report_opts *o, const char *cmd,
		      const char *output);

/**
 * report_help_columns() - what the text table's columns mean, for a
 * command's --help (after its options)
 */
void report_help_columns(void);

#endif /* PROFIL_CTL_REPORT_OPTS_H */
