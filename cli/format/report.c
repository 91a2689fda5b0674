// SPDX-License-Identifier: GPL-2.0
/*
 * The report every command prints: a struct hist with the ELF file's
 * symbols, or a whole-program profile, rendered as the options say to
 * standard output or a file. "report" reads the hist from a gmon.out;
 * run, attach and show build it from a live buffer and call
 * report_render() the same way.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "callgraph.h"
#include "callgrind.h"
#include "costs.h"
#include "ctl.h"
#include "export.h"
#include "html.h"
#include "profile_file.h"
#include "profile_report.h"
#include "report.h"
#include "symbols.h"

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
	} else {
		syms.nosyms = "no program read for symbols (name it: "
			      "BINARY GMON, or -e)";
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

bool report_hist_fits(const char *cmd, const char *gmon,
			const char *binary, const struct hist *h,
			const struct symtab *st, bool force)
{
	const struct sym_func *funcs;
	const struct hist_range *rg;
	uint64_t lo, hi, total = hist_total(h);
	size_t n, i, b;

	funcs = symtab_funcs(st, &n);
	for (i = 0; i < h->nranges; i++) {
		rg = &h->ranges[i];
		for (b = 0; b < rg->nbins; b++) {
			if (!rg->bins[b])
				continue;
			hist_bin_range(rg, b, &lo, &hi);
			if (sym_func_find(funcs, n, lo))
				return true;
		}
	}
	if (!total)
		return true;
	if (!n)
		ctl_errorf(cmd, "%s: no function symbols and no unwind tables: "
			   "stripped? Its %" PRIu64 " samples would all be "
			   "[unknown]%s", binary, total, force ? "" :
			   " (--force: report them)");
	else
		ctl_errorf(cmd, "%s: none of its %" PRIu64 " samples is in a "
			   "function of %s: is that the program that wrote "
			   "it?%s", gmon, total, binary, force ? "" :
			   " (--force: report them as [unknown])");
	return force;
}
