// SPDX-License-Identifier: GPL-2.0
/*
 * profil-ctl report: a gmon.out file rendered per function, per line or
 * per bin (readprofile's model, gprof's file), and the rendering entry
 * point the live commands share.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ctl.h"
#include "gmon_read.h"
#include "report.h"
#include "symbols.h"

void report_opts_init(struct report_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->render.view = RENDER_FUNCS;
	o->render.format = RENDER_TEXT;
}

int report_parse_opt(struct report_opts *o, const char *cmd, int c,
		     const char *arg)
{
	switch (c) {
	case REPORT_OPT_LINES:
		o->render.view = RENDER_LINES;
		return 1;
	case 'b':
		o->render.view = RENDER_BINS;
		return 1;
	case REPORT_OPT_SORT:
		o->render.sort = true;
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
		} else if (!strcmp(arg, "gmon")) {
			o->gmon = true;
		} else {
			ctl_usage_error(cmd, "unknown format '%s' (text, csv, "
					"json or gmon)", arg);
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
	if (st) {
		syms.funcs = symtab_funcs(st, &syms.nfuncs);
		syms.line = report_line_cb;
		syms.ctx = st;
	}
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
	  "the profile (default gmon.out; - is standard input)" },
	{ { "exe", required_argument, NULL, 'e' }, "BINARY",
	  "the program, for its symbols (default a.out)" },
	REPORT_OPTIONS,
	{ { "output", required_argument, NULL, 'o' }, "FILE",
	  "write there instead of standard output" },
	{ { "help", no_argument, NULL, 'h' }, NULL, "this help" },
	{ { NULL, 0, NULL, 0 }, NULL, NULL },
};

int cmd_report(int argc, char **argv)
{
	const char *gmon = NULL, *binary = NULL, *output = NULL;
	struct hist h = { .rate = 0 };
	struct symtab *st = NULL;
	struct report_opts o;
	char err[512];
	FILE *out = stdout;
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
		case 'h':
			ctl_help(argv[0], report_options);
			return CTL_EXIT_OK;
		case ':':
			return ctl_usage_error(argv[0], "option '%s' needs an "
					       "argument", argv[optind - 1]);
		default:
			return ctl_usage_error(argv[0], "unknown option '%s'",
					       argv[optind - 1]);
		}
	}
	/* gprof's positional form: [BINARY [GMON]]. */
	if (optind < argc && !binary)
		binary = argv[optind++];
	if (optind < argc && !gmon)
		gmon = argv[optind++];
	if (optind < argc)
		return ctl_usage_error(argv[0], "unexpected argument '%s'",
				       argv[optind]);
	if (report_check_opts(&o, argv[0], output))
		return CTL_EXIT_USAGE;
	if (!gmon)
		gmon = "gmon.out";
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
			return CTL_EXIT_FAIL;
		}
	}
	if (gmon_read_file(gmon, st ? symtab_ptr_size(st) : sizeof(void *),
			   &h, err, sizeof(err))) {
		ctl_errorf(argv[0], "%s: %s", gmon, err);
		goto out;
	}
	if (binary && !(h.binary = strdup(binary))) {
		ctl_perror(argv[0]);
		goto out;
	}
	if (output) {
		out = fopen(output, o.gmon ? "wbe" : "we");
		if (!out) {
			ctl_errorf(argv[0], "%s: %s", output, strerror(errno));
			goto out;
		}
	}
	ret = report_render_symtab(argv[0], &h, &o, st, out);
	if (output && fclose(out) && !ret) {
		ctl_errorf(argv[0], "%s: %s", output, strerror(errno));
		ret = -1;
	}
	if (ret && output)
		unlink(output);
out:
	symtab_close(st);
	hist_free(&h);
	return ret ? CTL_EXIT_FAIL : CTL_EXIT_OK;
}
