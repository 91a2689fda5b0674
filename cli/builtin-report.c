// SPDX-License-Identifier: GPL-2.0
/*
 * profil-ctl report: a gmon.out file rendered per function, per line or
 * per bin (readprofile's model, gprof's file), and the rendering entry
 * point the live commands share.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "callgraph.h"
#include "callgrind.h"
#include "costs.h"
#include "ctl.h"
#include "export.h"
#include "gmon_read.h"
#include "html.h"
#include "profile_file.h"
#include "profile_report.h"
#include "report.h"
#include "report_merge.h"
#include "symbols.h"

void report_opts_init(struct report_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->render.view = RENDER_FUNCS;
	o->render.format = RENDER_TEXT;
	o->render.sort = true;
}

void report_help_columns(void)
{
	printf("\ncolumns of the text table:\n"
	       "  count     samples (profil's ticks) in the row\n"
	       "  %%         share of all samples\n"
	       "  seconds   count / rate: CPU time\n"
	       "  calls     calls counted by a -pg program (gmon.out arcs)\n"
	       "  load      samples per byte of the function's code "
	       "(readprofile's):\n"
	       "            count / size; high: a small, hot function\n");
}

/* --percent-limit: a percentage from 0 to 100, decimals allowed. */
static int report_parse_percent(const char *arg, double *out)
{
	char *end;
	double v;

	if (!*arg || *arg == ' ' || *arg == '-' || *arg == '+')
		return -1;
	v = strtod(arg, &end);
	if (*end == '%')
		end++;
	if (*end || !(v >= 0 && v <= 100))
		return -1;
	*out = v;
	return 0;
}

int report_parse_opt(struct report_opts *o, const char *cmd, int c,
		     const char *arg)
{
	unsigned long long v;

	switch (c) {
	case REPORT_OPT_LINES:
		o->render.view = RENDER_LINES;
		return 1;
	case 'b':
		o->render.view = RENDER_BINS;
		return 1;
	case REPORT_OPT_SORT:
		if (!arg || !strcmp(arg, "samples")) {
			o->render.sort = true;
		} else if (!strcmp(arg, "address")) {
			o->render.sort = false;
		} else {
			ctl_usage_error(cmd, "--sort: unknown key '%s' (samples "
					"or address)", arg);
			return -1;
		}
		return 1;
	case REPORT_OPT_TOP:
		if (ctl_parse_u64(arg, 1, SIZE_MAX, &v)) {
			ctl_usage_error(cmd, "--top: '%s' is not a number of "
					"rows from 1", arg);
			return -1;
		}
		o->render.top = (size_t)v;
		return 1;
	case REPORT_OPT_PERCENT_LIMIT:
		if (report_parse_percent(arg, &o->render.percent_limit)) {
			ctl_usage_error(cmd, "--percent-limit: '%s' is not a "
					"percentage from 0 to 100", arg);
			return -1;
		}
		return 1;
	case 'a':
		o->render.all = true;
		return 1;
	case 'v':
		o->render.verbose = true;
		return 1;
	case REPORT_OPT_FORMAT:
		o->gmon = false;
		if (!strcmp(arg, "text")) {
			o->render.format = RENDER_TEXT;
		} else if (!strcmp(arg, "csv")) {
			o->render.format = RENDER_CSV;
		} else if (!strcmp(arg, "json")) {
			o->render.format = RENDER_JSON;
		} else if (!strcmp(arg, "pprof")) {
			o->render.format = RENDER_PPROF;
		} else if (!strcmp(arg, "folded")) {
			o->render.format = RENDER_FOLDED;
		} else if (!strcmp(arg, "gmon")) {
			o->gmon = true;
		} else if (!strcmp(arg, "callgrind")) {
			o->render.format = RENDER_CALLGRIND;
		} else if (!strcmp(arg, "html")) {
			o->render.format = RENDER_HTML;
		} else {
			ctl_usage_error(cmd, "unknown format '%s' (text, csv, "
					"json, pprof, folded, gmon, callgrind "
					"or html)", arg);
			return -1;
		}
		return 1;
	default:
		return 0;
	}
}

int report_check_opts(const struct report_opts *o, const char *cmd,
		      const char *output)
{
	(void)o;
	if (o->gmon && !output) {
		ctl_usage_error(cmd, "--format=gmon needs -o FILE");
		return -1;
	}
	return 0;
}

static int report_line_cb(void *ctx, uint64_t addr, struct sym_line *l)
{
	return symtab_line(ctx, addr, l);
}

/* Callgrind and HTML: @h as a profile of one object, @binary. */
static int report_whole_hist(FILE *out, const struct hist *h,
			     const struct report_opts *o, struct symtab *st,
			     const char *binary)
{
	struct profile_syms syms = { .st = st };
	struct profile p = { .rate = 0 };
	char id[256];
	int ret;

	if (costs_hist_profile(&p, h, binary, st && !symtab_build_id(st, id,
			       sizeof(id)) ? id : NULL))
		return -1;
	syms.samples = profile_total(&p);
	if (o->render.format == RENDER_CALLGRIND)
		ret = render_callgrind(out, &p, &syms);
	else
		ret = render_html(out, &p, &p, &syms);
	profile_free(&p);
	return ret;
}

/* @output opened with fopen() @mode, or standard output if NULL. */
static FILE *report_open(const char *cmd, const char *output,
			 const char *mode)
{
	FILE *out;

	if (!output)
		return stdout;
	out = fopen(output, mode);
	if (!out)
		ctl_errorf(cmd, "%s: %s", output, strerror(errno));
	return out;
}

/*
 * Close what report_open() gave, after a render that returned @ret: a
 * failed write or close removes the file. Return: @ret, or -1.
 */
static int report_close(const char *cmd, const char *output, FILE *out,
			int ret)
{
	if (!output)
		return ret;
	if (fclose(out) && !ret) {
		ctl_errorf(cmd, "%s: %s", output, strerror(errno));
		ret = -1;
	}
	if (ret)
		unlink(output);
	return ret;
}

/* Renders @h with the symbols of @st (NULL: none). */
static int report_render_symtab(const char *cmd, const struct hist *h,
				const struct report_opts *o,
				struct symtab *st, FILE *out)
{
	struct render_syms syms = { .funcs = NULL };
	int ret;

	if (o->gmon) {
		if (render_gmon(out, h)) {
			ctl_errorf(cmd, "writing gmon.out: %s", errno == EINVAL
				   && !h->nranges ? "the profile has no "
				   "histogram" : strerror(errno));
			return -1;
		}
		return 0;
	}
	if (export_format(o->render.format))
		return export_hist(out, h, st, o, cmd);
	if (st) {
		syms.funcs = symtab_funcs(st, &syms.nfuncs);
		syms.line = report_line_cb;
		syms.ctx = st;
	}
	if (o->callgraph)
		ret = render_callgraph(out, h, &syms, &o->render);
	else if (o->render.format == RENDER_CALLGRIND ||
		 o->render.format == RENDER_HTML)
		ret = report_whole_hist(out, h, o, st, o->binary ? o->binary :
					h->binary);
	else
		ret = render(out, h, &syms, &o->render);
	if (ret)
		ctl_perror(cmd);
	return ret;
}

int report_render_cmd(const char *cmd, const struct hist *h,
		      const struct report_opts *o, FILE *out)
{
	const char *binary = o->binary ? o->binary : h->binary;
	struct symtab *st = NULL;
	char err[256];
	int ret;

	if (binary && !o->gmon) {
		st = symtab_open(binary, err, sizeof(err));
		if (!st) {
			ctl_errorf(cmd, "%s: %s", binary, err);
			return -1;
		}
	}
	ret = report_render_symtab(cmd, h, o, st, out);
	symtab_close(st);
	return ret;
}

int report_render(const struct hist *h, const struct report_opts *o,
		  FILE *out)
{
	return report_render_cmd("report", h, o, out);
}

static const struct ctl_option report_options[] = {
	{ { "file", required_argument, NULL, 'f' }, "GMON",
	  "the profile: a gmon.out or a saved profile (default gmon.out; "
	  "- is standard input)" },
	{ { "exe", required_argument, NULL, 'e' }, "BINARY",
	  "the program, for its symbols (default a.out)" },
	REPORT_OPTIONS,
	{ { "callgraph", no_argument, NULL, REPORT_OPT_CALLGRAPH }, NULL,
	  "callers and callees of each function, time propagated as gprof "
	  "(a -pg program's gmon.out)" },
	{ { "per-process", no_argument, NULL, REPORT_OPT_PER_PROCESS }, NULL,
	  "a saved profile per process (pid, comm), then per object" },
	{ { "diff", no_argument, NULL, REPORT_OPT_DIFF }, NULL,
	  "two profiles, BASE NEW: the change per function (or line)" },
	{ { "output", required_argument, NULL, 'o' }, "FILE",
	  "write there instead of standard output" },
	{ { "help", no_argument, NULL, 'h' }, NULL, "this help" },
	{ { NULL, 0, NULL, 0 }, NULL, NULL },
};

bool report_file_is_profile(const char *path)
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

int report_profile_out(const char *cmd, const struct profile *p,
		       const struct report_opts *o, bool per_process,
		       const char *output)
{
	FILE *out;

	if (o->gmon)
		return profile_write_gmon(output, p, cmd);
	out = report_open(cmd, output, "we");
	if (!out)
		return -1;
	return report_close(cmd, output, out,
			    profile_report(out, p, o, per_process, cmd));
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

int report_hist_out(const char *cmd, const struct hist *h,
		    const struct report_opts *o, struct symtab *st,
		    const char *output)
{
	FILE *out = report_open(cmd, output, o->gmon ? "wbe" : "we");

	if (!out)
		return -1;
	return report_close(cmd, output, out,
			    report_render_symtab(cmd, h, o, st, out));
}

/*
 * The operands: [BINARY] FILE...; the first is the BINARY unless -e
 * named one or its first bytes make it a profile (a gmon.out, a saved
 * profile, or "-"). -f FILE comes first among the files.
 */
static size_t report_operands(int argc, char **argv, const char *file,
			      const char **binary, const char **files)
{
	size_t n = 0;

	if (file)
		files[n++] = file;
	if (optind < argc && !*binary && !report_file_is_profile(argv[optind]))
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
	if (per_process) {
		free(data);
		return ctl_usage_error(argv[0], "--per-process: %s is not a "
				       "saved profile", gmon);
	}
	if (!binary && !o.gmon) {
		/* gprof's default; without it, addresses only. */
		if (access("a.out", R_OK) == 0)
			binary = "a.out";
		else
			ctl_errorf(argv[0], "a.out: %s: no symbols (name the "
				   "program with -e)", strerror(errno));
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
	ret = report_hist_out(argv[0], &h, &o, st, output);
out:
	free(data);
	symtab_close(st);
	hist_free(&h);
	return ret ? CTL_EXIT_FAIL : CTL_EXIT_OK;
}
