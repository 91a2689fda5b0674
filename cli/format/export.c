// SPDX-License-Identifier: GPL-2.0
/*
 * The exports' entry points (export.h): symbols read once per object,
 * then the pure renderer of pprof.h or folded.h.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ctl.h"
#include "export.h"
#include "folded.h"
#include "pprof.h"
#include "profile_report.h"

void export_site(const struct render_syms *s, uint64_t addr,
		 struct export_site *site)
{
	struct sym_line l;

	site->func = sym_func_find(s->funcs, s->nfuncs, addr);
	site->file = NULL;
	site->line = 0;
	if (s->line && !s->line(s->ctx, addr, &l) && l.file) {
		site->file = l.file;
		site->line = l.line;
	}
}

bool export_format(enum render_format f)
{
	return f == RENDER_PPROF || f == RENDER_FOLDED;
}

/*
 * The exports name a bin by its function's symbol and its file:line:
 * the line table only (symtab_src()), never the DWARF scopes that
 * symtab_line() also walks for the inlined function's name, which made
 * them 100 times slower than csv on a large profile.
 */
static int line_cb(void *ctx, uint64_t addr, struct sym_line *l)
{
	return symtab_src(ctx, addr, l);
}

static void syms_of(struct render_syms *s, struct symtab *st)
{
	memset(s, 0, sizeof(*s));
	if (!st)
		return;
	s->funcs = symtab_funcs(st, &s->nfuncs);
	s->line = line_cb;
	s->ctx = st;
}

static int run(FILE *out, const struct profile *p,
	       const struct render_syms *syms, const struct report_opts *o,
	       const struct export_opts *eo, const char *cmd)
{
	int ret;

	errno = 0;
	if (o->render.format == RENDER_PPROF)
		ret = render_pprof(out, p, syms, eo);
	else
		ret = render_folded(out, p, syms, eo);
	if (!ret && (ferror(out) || fflush(out)))
		ret = -1;
	if (ret) {
		if (!errno)
			errno = EIO;
		if (cmd)
			ctl_perror(cmd);
	}
	return ret;
}

int export_profile(FILE *out, const struct profile *p,
		   const struct report_opts *o, bool per_process,
		   const char *cmd)
{
	const struct export_opts eo = {
		.unknown = PROFILE_UNKNOWN_ROW,
		.uncovered = PROFILE_UNCOVERED_ROW,
		.per_process = per_process,
	};
	struct profile_syms *objs = profile_syms_open(p, false);
	struct render_syms *syms;
	int ret = -1, err;
	size_t i;

	syms = calloc(p->nobjects ? p->nobjects : 1, sizeof(*syms));
	if (!objs || !syms) {
		if (cmd)
			ctl_perror(cmd);
		goto out;
	}
	for (i = 0; i < p->nobjects; i++) {
		if (cmd && objs[i].note[0])
			ctl_errorf(cmd, "note: %s: %s", p->objects[i].path,
				   objs[i].note);
		syms_of(&syms[i], objs[i].st);
	}
	ret = run(out, p, syms, o, &eo, cmd);
out:
	err = errno;
	profile_syms_close(p, objs);
	free(syms);
	errno = err;
	return ret;
}

int export_hist(FILE *out, const struct hist *h, struct symtab *st,
		const struct report_opts *o, const char *cmd)
{
	const struct export_opts eo = { .unknown = "[unknown]" };
	char id[256];
	struct profile_object ob = {
		.path = h->binary ? h->binary : "a.out",
		.build_id = st && !symtab_build_id(st, id, sizeof(id)) ?
			id : NULL,
	};
	struct profile_count c = {
		.process = PROFILE_ALL_PROCESSES, .hist = *h,
	};
	struct profile p = {
		.rate = h->rate, .objects = &ob, .nobjects = 1,
		.counts = &c, .ncounts = 1,
	};
	struct render_syms syms;

	profile_acct_unknown(&p.acct);
	syms_of(&syms, st);
	return run(out, &p, &syms, o, &eo, cmd);
}
