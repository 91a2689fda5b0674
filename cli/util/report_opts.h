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

/*
 * The keys of a whole-program profile's ranked list (perf report's
 * --sort keys of the same names): the rows are the samples summed per
 * distinct value of the keys given, in their order.
 */
enum report_key {
	REPORT_KEY_PID,		/* the process: pid (and its comm) */
	REPORT_KEY_COMM,	/* the command: the process's comm */
	REPORT_KEY_DSO,		/* the object (shared object) */
	REPORT_KEY_SYM,		/* the function */
};

#define REPORT_MAX_KEYS 4

/**
 * struct report_opts - the rendering options of every command
 * @render: view, format, sort, all, verbose, ticks (render.h)
 * @gmon: --format=gmon: write a gmon.out instead of a table
 * @binary: the ELF file for symbols; NULL: the hist's own @binary
 * @callgraph: report --callgraph: callers and callees (callgraph.h)
 * @keys: --sort's keys of the ranked list, in order; @nkeys 0: the
 *	default, comm,dso,sym (pid,comm,dso,sym per process)
 * @nkeys: their number
 * @per_object: --per-object: one table per object (per process, then
 *	object, with --per-process) instead of the ranked list
 * @comms: --comms: a comma-separated list of commands, or NULL: only
 *	their samples are listed
 * @dsos: --dsos: the same of objects (a path or its base name)
 * @symbols: --symbols: the same of function names
 * @format_given: --format was given (a second one is refused)
 * @force: report --force: go on where the input does not match (no
 *	program, another program, files of two programs)
 */
struct report_opts {
	struct render_opts render;
	bool gmon;
	const char *binary;
	bool callgraph;
	enum report_key keys[REPORT_MAX_KEYS];
	size_t nkeys;
	bool per_object;
	const char *comms;
	const char *dsos;
	const char *symbols;
	bool format_given;
	bool force;
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
	REPORT_OPT_PER_OBJECT,
	REPORT_OPT_COMMS,
	REPORT_OPT_DSOS,
	REPORT_OPT_SYMBOLS,
	REPORT_OPT_FORCE,
};

/*
 * The shared options with their help, to put in a command's struct
 * ctl_option table: --lines, -b/--bins, --sort[=KEYS], --top,
 * --percent-limit, -a/--all, -v/--verbose, --format=FMT, and for
 * whole-program profiles --per-object, --comms, --dsos, --symbols.
 * --sort takes its keys as "--sort=KEYS" or "--sort KEYS"
 * (ctl_optarg_next()).
 */
#define REPORT_OPTIONS							\
	{ { "lines", no_argument, NULL, REPORT_OPT_LINES }, NULL,	\
	  "one row per source file:line (DWARF)" },			\
	{ { "bins", no_argument, NULL, 'b' }, NULL,			\
	  "one row per histogram bin" },				\
	{ { "sort", optional_argument, NULL, REPORT_OPT_SORT }, "KEYS",	\
	  "comm,dso,sym in any combination (and pid): the ranked "	\
	  "list's rows; samples: highest count first (the default); "	\
	  "address: address (or file:line) order" },			\
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
	  "callgrind or html" },					\
	{ { "per-object", no_argument, NULL, REPORT_OPT_PER_OBJECT },	\
	  NULL, "a whole program: one table per object, not one "	\
	  "ranked list" },						\
	{ { "comms", required_argument, NULL, REPORT_OPT_COMMS },	\
	  "LIST", "a whole program: only these commands' samples" },	\
	{ { "dsos", required_argument, NULL, REPORT_OPT_DSOS }, "LIST",	\
	  "a whole program: only these objects' samples (path or "	\
	  "base name)" },						\
	{ { "symbols", required_argument, NULL, REPORT_OPT_SYMBOLS },	\
	  "LIST", "a whole program: only these functions' samples" }

/**
 * report_whole_only() - the option of @o that only a whole-program
 * profile takes (--sort with pid, comm, dso or sym; --per-object,
 * --comms, --dsos, --symbols), or NULL: for a command or input that
 * renders one binary's histogram to refuse it
 */
const char *report_whole_only(const struct report_opts *o);

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

/** report_format_name() - @o's --format, as the option spells it. */
const char *report_format_name(const struct report_opts *o);

/**
 * report_format_is_table() - @o's format is a table's (text, csv,
 * json), which the views, keys, filters and limits shape
 */
bool report_format_is_table(const struct report_opts *o);

/**
 * report_check_opts() - the checks once all options are in:
 * --format=gmon without an output file @output; with a format that is
 * not a table's, --top, --percent-limit, --lines, -b, keys and filters,
 * which it would drop
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
