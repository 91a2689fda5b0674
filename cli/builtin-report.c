// SPDX-License-Identifier: GPL-2.0
/*
 * profil-ctl report: a gmon.out file rendered per function, per line or
 * per bin (readprofile's model, gprof's file), a saved profile, several
 * merged or two compared. The command only: its options and operands;
 * the rendering is cli/format/report.c's, the merge cli/util/'s.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "ctl.h"
#include "export.h"
#include "gmon_read.h"
#include "profile_file.h"
#include "report.h"
#include "report_merge.h"
#include "symbols.h"

static const struct ctl_option report_options[] = {
	{ { "file", required_argument, NULL, 'f' }, "GMON",
	  "the profile: a gmon.out or a saved profile (default gmon.out; "
	  "- is standard input)" },
	{ { "input", required_argument, NULL, 'i' }, "FILE",
	  "the same as --file (perf's -i)" },
	{ { "exe", required_argument, NULL, 'e' }, "BINARY",
	  "the program, for its symbols (default a.out)" },
	REPORT_OPTIONS,
	{ { "callgraph", no_argument, NULL, REPORT_OPT_CALLGRAPH }, NULL,
	  "callers and callees of each function, time propagated as gprof "
	  "(a -pg program's gmon.out)" },
	{ { "per-process", no_argument, NULL, REPORT_OPT_PER_PROCESS }, NULL,
	  "a saved profile per process: pid first in the list (with "
	  "--per-object: per process, then object)" },
	{ { "diff", no_argument, NULL, REPORT_OPT_DIFF }, NULL,
	  "two profiles, BASE NEW: the change per function (or line)" },
	{ { "force", no_argument, NULL, REPORT_OPT_FORCE }, NULL,
	  "report what does not match: no program, another program's "
	  "gmon.out, files of two programs" },
	{ { "output", required_argument, NULL, 'o' }, "FILE",
	  "write there instead of standard output" },
	{ { "help", no_argument, NULL, 'h' }, NULL, "this help" },
	{ { NULL, 0, NULL, 0 }, NULL, NULL },
};

/* @path is "-" or starts as a profile does: a gmon.out or a saved one. */
static bool report_file_is_profile(const char *path)
{
	char head[sizeof(PROFILE_FILE_MAGIC) + 4];
	FILE *f;
	size_t n;

	if (!strcmp(path, "-"))
		return true;
	f = fopen(path, "rbe");
	if (!f)
		return false;
	n = fread(head, 1, sizeof(head), f);
	fclose(f);
	return profile_file_is_saved(head, n) ||
	       (n >= 4 && !memcmp(head, "gmon", 4));
}

/* A saved profile (@len bytes at @data, from @file) rendered or rewritten. */
static int report_saved(const char *cmd, const char *file, const void *data,
			size_t len, const struct report_opts *o,
			bool per_process, const char *output)
{
	struct profile p = { .rate = 0 };
	char err[512];
	int ret;

	if (profile_load_mem(data, len, &p, err, sizeof(err))) {
		ctl_errorf(cmd, "%s: %s", file, err);
		return CTL_EXIT_FAIL;
	}
	ret = report_profile_out(cmd, &p, o, per_process, output);
	profile_free(&p);
	return ret ? CTL_EXIT_FAIL : CTL_EXIT_OK;
}

/*
 * The operands: [BINARY] FILE...; the first is the BINARY unless -e
 * named one, it names no file, or its first bytes make it a profile (a
 * gmon.out, a saved profile, or "-"). -f FILE comes first among the
 * files.
 */
static size_t report_operands(int argc, char **argv, const char *file,
			      const char **binary, const char **files)
{
	size_t n = 0;

	if (file)
		files[n++] = file;
	/* A word that names no file is a FILE: its error names it. */
	if (optind < argc && !*binary && !access(argv[optind], F_OK) &&
	    !report_file_is_profile(argv[optind]))
		*binary = argv[optind++];
	while (optind < argc)
		files[n++] = argv[optind++];
	return n;
}

int cmd_report(int argc, char **argv)
{
	const char *gmon = NULL, *binary = NULL, *output = NULL, **files;
	bool per_process = false, diff = false;
	struct hist h = { .rate = 0 };
	unsigned char *data = NULL;
	struct symtab *st = NULL;
	struct report_opts o;
	char err[512];
	size_t len, nfiles;
	int c, ret = -1;

	report_opts_init(&o);
	optind = 1;
	opterr = 0;
	while ((c = ctl_getopt(argc, argv, "", report_options)) != -1) {
		ret = report_parse_opt(&o, argv[0], c, optarg);
		if (ret < 0)
			return CTL_EXIT_USAGE;
		if (ret)
			continue;
		switch (c) {
		case 'f':
		case 'i':
			gmon = optarg;
			break;
		case 'e':
			binary = optarg;
			break;
		case 'o':
			output = optarg;
			break;
		case REPORT_OPT_PER_PROCESS:
			per_process = true;
			break;
		case REPORT_OPT_CALLGRAPH:
			o.callgraph = true;
			break;
		case REPORT_OPT_DIFF:
			diff = true;
			break;
		case REPORT_OPT_FORCE:
			o.force = true;
			break;
		case 'h':
			ctl_help(argv[0], report_options);
			report_help_columns();
			return CTL_EXIT_OK;
		case ':':
			return ctl_usage_error(argv[0], "option '%s' needs an "
					       "argument", argv[optind - 1]);
		default:
			return ctl_usage_error(argv[0], "unknown option '%s'",
					       argv[optind - 1]);
		}
	}
	if (report_check_opts(&o, argv[0], output))
		return CTL_EXIT_USAGE;
	if (o.callgraph && (o.render.view != RENDER_FUNCS || o.gmon ||
			    export_format(o.render.format) ||
			    o.render.format == RENDER_CALLGRIND ||
			    o.render.format == RENDER_HTML))
		return ctl_usage_error(argv[0], "--callgraph is a view of "
				       "its own: text, csv or json; not with "
				       "--lines or -b");
	if (o.callgraph && diff)
		return ctl_usage_error(argv[0], "--callgraph: not with --diff");
	if (diff && !o.gmon && !report_format_is_table(&o))
		return ctl_usage_error(argv[0], "--diff: text, csv or json, not "
				       "--format=%s", report_format_name(&o));
	if (diff && per_process)
		return ctl_usage_error(argv[0], "--diff: the functions of two "
				       "profiles, not --per-process");
	/* gprof's positional form [BINARY [GMON]], or [BINARY] FILE... */
	files = calloc((size_t)argc + 1, sizeof(*files));
	if (!files) {
		ctl_perror(argv[0]);
		return CTL_EXIT_FAIL;
	}
	nfiles = report_operands(argc, argv, gmon, &binary, files);
	if (diff || nfiles > 1) {
		ret = diff ? report_diff_files(argv[0], files, nfiles, binary,
					       &o, output) :
			report_merge_files(argv[0], files, nfiles, binary, &o,
					   per_process, output);
		free(files);
		return ret;
	}
	gmon = nfiles ? files[0] : "gmon.out";
	free(files);
	if (gmon_read_whole(gmon, &data, &len, err, sizeof(err))) {
		ctl_errorf(argv[0], "%s: %s", gmon, err);
		return CTL_EXIT_FAIL;
	}
	if (profile_file_is_saved(data, len)) {
		ret = binary ? ctl_usage_error(argv[0], "%s is a saved profile, "
					       "which names its objects: no "
					       "BINARY", gmon) :
			o.callgraph ? ctl_usage_error(argv[0], "--callgraph: "
						      "%s is a saved profile, "
						      "which has no call arcs",
						      gmon) :
			report_saved(argv[0], gmon, data, len, &o,
				     per_process, output);
		free(data);
		return ret;
	}
	if (per_process || report_whole_only(&o)) {
		free(data);
		return ctl_usage_error(argv[0], "%s: %s is not a saved profile "
				       "(a gmon.out has one program and no "
				       "process)", per_process ? "--per-process" :
				       report_whole_only(&o), gmon);
	}
	if (!binary && !o.gmon) {
		/* gprof's default; without it, addresses only (--force). */
		if (access("a.out", R_OK) == 0) {
			binary = "a.out";
		} else {
			ctl_errorf(argv[0], "no program to name %s's addresses: "
				   "a.out: %s (name it: report BINARY GMON, or "
				   "-e BINARY%s)", gmon, strerror(errno),
				   o.force ? "; --force: addresses only" :
				   "; --force for addresses only");
			if (!o.force) {
				free(data);
				return CTL_EXIT_FAIL;
			}
		}
	}

	/*
	 * The binary is read once, for its pointer width and its symbols
	 * (a second read would look for its debuginfo again, debuginfod
	 * included). --format=gmon needs only the width: a binary it
	 * cannot read leaves the host's.
	 */
	ret = -1;
	o.render.gprof = true;	/* a gmon.out is gprof's: compare */
	if (binary) {
		st = symtab_open(binary, err, sizeof(err));
		if (!st && !o.gmon) {
			ctl_errorf(argv[0], "%s: %s", binary, err);
			free(data);
			return CTL_EXIT_FAIL;
		}
	}
	if (gmon_read_mem(data, len, st ? symtab_ptr_size(st) : sizeof(void *),
			  &h, err, sizeof(err))) {
		ctl_errorf(argv[0], "%s: %s", gmon, err);
		goto out;
	}
	if (binary && !(h.binary = strdup(binary))) {
		ctl_perror(argv[0]);
		goto out;
	}
	if (st && !o.gmon && !report_hist_fits(argv[0], gmon, binary, &h, st,
					       o.force))
		goto out;
	ret = report_hist_out(argv[0], &h, &o, st, output);
out:
	free(data);
	symtab_close(st);
	hist_free(&h);
	return ret ? CTL_EXIT_FAIL : CTL_EXIT_OK;
}
