// SPDX-License-Identifier: GPL-2.0
/*
 * The report of a whole-program profile (profile_report.h): the totals
 * header, then one render_part() per (process,) object.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "callgrind.h"
#include "ctl.h"
#include "export.h"
#include "hint.h"
#include "objsyms.h"
#include "html.h"
#include "profile_list.h"
#include "profile_report.h"
#include "render.h"
#include "symbols.h"

struct pr {
	FILE *out;
	const struct profile *p;	/* merged by object unless per process */
	const struct profile *orig;	/* as given: its processes' counts */
	const struct report_opts *o;
	struct profile_syms *objs;
	const char *cmd;		/* for messages */
	uint64_t total;
	size_t nparts;			/* parts written so far */
};

static const char *const view_names[] = { "functions", "lines", "bins" };

static void note_build_id(struct profile_syms *po,
			  const struct profile_object *o, const char *file)
{
	char id[256];

	if (!o->build_id || !po->st)
		return;
	if (file == o->path)
		file = "the file";
	if (symtab_build_id(po->st, id, sizeof(id)))
		snprintf(po->note, sizeof(po->note), "%s has no build-id, the "
			 "profile recorded %s: symbols may be wrong", file,
			 o->build_id);
	else if (strcmp(id, o->build_id))
		snprintf(po->note, sizeof(po->note), "%s has build-id %s, the "
			 "profile recorded %s: symbols may be wrong", file, id,
			 o->build_id);
}

/* @po's hint: how object @k's samples in all processes are named. */
static void hint_object(const struct profile *p, size_t k,
			struct profile_syms *po)
{
	struct sym_share sh = { 0 };
	const struct sym_func *funcs;
	char id[256];
	size_t i, n;

	funcs = symtab_funcs(po->st, &n);
	for (i = 0; i < p->ncounts; i++)
		if (p->counts[i].object == k)
			sym_share_add(&sh, &p->counts[i].hist, funcs, n);
	sym_hint(po->hint, sizeof(po->hint), &sh, p->objects[k].path,
		 !symtab_build_id(po->st, id, sizeof(id)),
		 getenv("DEBUGINFOD_URLS"));
}

struct profile_syms *profile_syms_open(const struct profile *p, bool all)
{
	const struct profile_object *o;
	struct profile_syms *objs, *po;
	const char *file;
	char err[400];
	size_t i;

	objs = calloc(p->nobjects ? p->nobjects : 1, sizeof(*objs));
	if (!objs)
		return NULL;
	for (i = 0; i < p->nobjects; i++) {
		o = &p->objects[i];
		po = &objs[i];
		po->samples = profile_object_total(p, i);
		if (!po->samples && !all)
			continue;
		file = o->symfile ? o->symfile : o->path;
		po->st = objsyms_open(o, err, sizeof(err));
		if (!po->st && !err[0]) {
			snprintf(po->note, sizeof(po->note), "no file to read "
				 "its symbols from: addresses only");
			continue;
		}
		if (!po->st) {
			snprintf(po->note, sizeof(po->note), "no symbols: %s: "
				 "%s", file, err);
			continue;
		}
		if (o->nfuncs)
			continue;	/* a JIT's: its perf map named it */
		note_build_id(po, o, file);
		hint_object(p, i, po);
	}
	return objs;
}

void profile_syms_close(const struct profile *p, struct profile_syms *objs)
{
	size_t i;

	for (i = 0; objs && i < p->nobjects; i++)
		symtab_close(objs[i].st);
	free(objs);
}

static double percent(const struct pr *r, uint64_t n)
{
	return r->total ? 100.0 * (double)n / (double)r->total : 0.0;
}

/* Indices by their key (samples), highest first, then by index. */
static int cmp_by_key(const void *a, const void *b, void *keys)
{
	const uint64_t *k = keys;
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	if (k[x] != k[y])
		return k[x] > k[y] ? -1 : 1;
	return x < y ? -1 : x > y;
}

/* 0..n-1 ordered by @keys, highest first; NULL on ENOMEM. */
static size_t *order_by(const uint64_t *keys, size_t n)
{
	size_t *idx = malloc((n ? n : 1) * sizeof(*idx));
	size_t i;

	if (!idx)
		return NULL;
	for (i = 0; i < n; i++)
		idx[i] = i;
	qsort_r(idx, n, sizeof(*idx), cmp_by_key, (void *)keys);
	return idx;
}

/* A figure of the accounting: the number, or "unknown". */
static const char *fig(uint64_t v, char *buf, size_t len)
{
	if (v == PROFILE_UNKNOWN)
		return "unknown";
	snprintf(buf, len, "%" PRIu64, v);
	return buf;
}

static bool cpu_seconds(const struct profile *p, double *s)
{
	const struct profile_acct *a = &p->acct;

	if (!p->rate || a->ticks == PROFILE_UNKNOWN ||
	    a->missed == PROFILE_UNKNOWN)
		return false;
	*s = (double)(a->ticks + a->missed) / p->rate;
	return true;
}

/* The accounting of @a on one line (per process). */
static void acct_line(FILE *out, const struct profile_acct *a)
{
	char b[8][24];

	fprintf(out, "# ticks %s, kernel-mode %s, outside %s, deferred %s, "
		"saturated %s, lost %s, lost at exec %s, missed %s\n",
		fig(a->ticks, b[0], 24), fig(a->kernel, b[1], 24),
		fig(a->outside, b[2], 24), fig(a->deferred, b[3], 24),
		fig(a->saturated, b[4], 24), fig(a->lost, b[5], 24),
		fig(a->lost_exec, b[6], 24), fig(a->missed, b[7], 24));
}

/* ", N what" when @v is known and not 0; the separator follows. */
static void uncharged(FILE *out, uint64_t v, const char *what, bool *first)
{
	if (v == PROFILE_UNKNOWN || !v)
		return;
	fprintf(out, "%s%" PRIu64 " %s", *first ? ": not charged " : ", ", v,
		what);
	*first = false;
}

/*
 * The text's one summary line: the samples, their seconds at the rate,
 * the CPU time, and what of it no sample holds, so that the seconds
 * column's sum and the CPU time differ for a reason said.
 */
static void text_summary(struct pr *r)
{
	const struct profile *p = r->p;
	const struct profile_acct *a = &p->acct;
	FILE *out = r->out;
	bool first = true;
	double s;

	fprintf(out, "# %" PRIu64 " samples", r->total);
	if (p->rate)
		fprintf(out, ", %.3f s at %" PRIu32 " Hz", (double)r->total /
			p->rate, p->rate);
	else
		fputs(", rate unknown", out);
	if (!cpu_seconds(p, &s)) {
		fputs("; CPU time unknown (-v: the accounting)\n", out);
		return;
	}
	fprintf(out, ", of %.3f s CPU time", s);
	uncharged(out, a->kernel, "kernel-mode ticks", &first);
	uncharged(out, a->outside, "outside any mapping", &first);
	uncharged(out, a->saturated, "saturated", &first);
	uncharged(out, a->lost, "lost", &first);
	uncharged(out, a->lost_exec, "lost at exec", &first);
	uncharged(out, a->missed, "missed periods", &first);
	fputs(" (-v: the accounting)\n", out);
}

/*
 * The totals header, as "# " lines: one summary line; with -v the whole
 * accounting and the objects' samples. Hints either way.
 */
static void text_header(struct pr *r, const size_t *objs)
{
	const struct profile *p = r->p;
	const struct profile_acct *a = &p->acct;
	FILE *out = r->out;
	char b[24];
	double s;
	size_t i;

	if (!r->o->render.verbose) {
		text_summary(r);
		goto hints;
	}
	fprintf(out, "# user samples       %10" PRIu64 "  (every percentage "
		"is of all user samples)\n", r->total);
	fprintf(out, "# kernel-mode ticks  %10s  (not charged)\n",
		fig(a->kernel, b, sizeof(b)));
	fprintf(out, "# outside (no mapping) %8s\n",
		fig(a->outside, b, sizeof(b)));
	fprintf(out, "# deferred           %10s\n",
		fig(a->deferred, b, sizeof(b)));
	fprintf(out, "# saturated          %10s\n",
		fig(a->saturated, b, sizeof(b)));
	fprintf(out, "# lost               %10s\n", fig(a->lost, b, sizeof(b)));
	fprintf(out, "# lost at exec       %10s\n",
		fig(a->lost_exec, b, sizeof(b)));
	fprintf(out, "# missed periods     %10s\n",
		fig(a->missed, b, sizeof(b)));
	fprintf(out, "# ticks              %10s\n", fig(a->ticks, b, sizeof(b)));
	if (p->rate)
		fprintf(out, "# rate               %10" PRIu32 " Hz\n", p->rate);
	else
		fprintf(out, "# rate               %10s\n", "unknown");
	if (cpu_seconds(p, &s))
		fprintf(out, "# CPU time           %10.3f s  ((ticks + missed "
			"periods) / rate)\n", s);
	else
		fprintf(out, "# CPU time           %10s\n", "unknown");
	fprintf(out, "#\n# %9s %7s  %s\n", "samples", "%", "object");
	for (i = 0; i < p->nobjects; i++) {
		size_t k = objs[i];

		if (!r->objs[k].samples && !r->o->render.all)
			continue;
		fprintf(out, "# %9" PRIu64 " %7.2f  %s\n", r->objs[k].samples,
			percent(r, r->objs[k].samples), p->objects[k].path);
	}
hints:
	for (i = 0; i < p->nobjects; i++)
		if (r->objs[objs[i]].hint[0])
			fprintf(out, "# hint: %s\n", r->objs[objs[i]].hint);
}

/*
 * CSV is a plain table, which CSV readers take as it is: the notes and
 * hints the text has in its header go to standard error; the totals
 * are JSON's and the text's.
 */
static void csv_notes(struct pr *r, const size_t *objs)
{
	const struct profile *p = r->p;
	size_t i, k;

	for (i = 0; i < p->nobjects; i++) {
		k = objs[i];
		if (r->objs[k].note[0])
			ctl_errorf(r->cmd, "note: %s: %s", p->objects[k].path,
				   r->objs[k].note);
		if (r->objs[k].hint[0])
			ctl_errorf(r->cmd, "hint: %s", r->objs[k].hint);
	}
}

/* -a also shows processes and objects without samples. */
static bool shown(const struct pr *r, uint64_t samples)
{
	return samples || r->o->render.all;
}

static void text_process_header(struct pr *r, const size_t *procs)
{
	const struct profile *p = r->orig;
	size_t i, k;
	uint64_t n;

	fprintf(r->out, "#\n# %9s %7s  %-7s %-16s %s\n", "samples", "%", "pid",
		"comm", "exe");
	for (i = 0; i < p->nprocesses; i++) {
		k = procs[i];
		n = profile_process_total(p, k);
		if (!shown(r, n))
			continue;
		fprintf(r->out, "# %9" PRIu64 " %7.2f  %-7d %-16s %s\n", n,
			percent(r, n), (int)p->processes[k].pid,
			p->processes[k].comm, p->processes[k].exe ?
			p->processes[k].exe : "-");
	}
}

static void json_acct(FILE *out, const char *name, uint64_t v, bool last)
{
	fprintf(out, "\"%s\": ", name);
	if (v == PROFILE_UNKNOWN)
		fputs("null", out);
	else
		fprintf(out, "%" PRIu64, v);
	fputs(last ? "" : ", ", out);
}

static void json_acct_obj(FILE *out, const struct profile_acct *a)
{
	json_acct(out, "ticks", a->ticks, false);
	json_acct(out, "missed", a->missed, false);
	json_acct(out, "kernel", a->kernel, false);
	json_acct(out, "outside", a->outside, false);
	json_acct(out, "deferred", a->deferred, false);
	json_acct(out, "saturated", a->saturated, false);
	json_acct(out, "lost", a->lost, false);
	json_acct(out, "lost_exec", a->lost_exec, true);
}

static void json_header(struct pr *r, const size_t *objs, const size_t *procs,
			bool per_process)
{
	const struct profile *p = r->p;
	FILE *out = r->out;
	const char *sep = "";
	size_t i, k;
	uint64_t n;
	double s;

	fputs("{\n  \"command\": ", out);
	render_json_str(out, p->command);
	fputs(",\n  \"rate\": ", out);
	if (p->rate)
		fprintf(out, "%" PRIu32, p->rate);
	else
		fputs("null", out);
	fprintf(out, ",\n  \"bin_bytes\": %" PRIu64 ",\n  \"view\": \"%s\",\n"
		"  \"per_process\": %s,\n  \"totals\": {\"user_samples\": %"
		PRIu64 ", ", p->bin_bytes, view_names[r->o->render.view],
		per_process ? "true" : "false", r->total);
	json_acct_obj(out, &p->acct);
	fputs(", \"cpu_seconds\": ", out);
	if (cpu_seconds(p, &s))
		fprintf(out, "%.6f", s);
	else
		fputs("null", out);
	fputs("},\n  \"objects\": [", out);
	for (i = 0; i < p->nobjects; i++) {
		k = objs[i];
		if (!shown(r, r->objs[k].samples))
			continue;
		fprintf(out, "%s\n    {\"path\": ", sep);
		render_json_str(out, p->objects[k].path);
		fputs(", \"build_id\": ", out);
		render_json_str(out, p->objects[k].build_id);
		fprintf(out, ", \"samples\": %" PRIu64 ", \"percent\": %.4f, "
			"\"note\": ", r->objs[k].samples,
			percent(r, r->objs[k].samples));
		render_json_str(out, r->objs[k].note[0] ? r->objs[k].note :
				NULL);
		fputs(", \"hint\": ", out);
		render_json_str(out, r->objs[k].hint[0] ? r->objs[k].hint :
				NULL);
		fputc('}', out);
		sep = ",";
	}
	fputs(*sep ? "\n  ],\n  \"processes\": [" : "],\n  \"processes\": [",
	      out);
	sep = "";
	p = r->orig;
	for (i = 0; i < p->nprocesses; i++) {
		k = procs[i];
		n = profile_process_total(p, k);
		if (!shown(r, n))
			continue;
		fprintf(out, "%s\n    {\"pid\": %d, \"ppid\": %d, \"comm\": ",
			sep, (int)p->processes[k].pid,
			(int)p->processes[k].ppid);
		render_json_str(out, p->processes[k].comm);
		fputs(", \"exe\": ", out);
		render_json_str(out, p->processes[k].exe);
		fprintf(out, ", \"samples\": %" PRIu64 ", \"percent\": %.4f, "
			"\"acct\": {", n, percent(r, n));
		json_acct_obj(out, &p->processes[k].acct);
		fputs("}}", out);
		sep = ",";
	}
	fputs(*sep ? "\n  ],\n  \"parts\": [" : "],\n  \"parts\": [", out);
}

/* The CSV values, or JSON members, that say whose rows a part's are. */
static char *part_keys(const struct pr *r, const struct profile_count *c,
		       bool json)
{
	const struct profile_process *pr = c->process < r->p->nprocesses ?
		&r->p->processes[c->process] : NULL;
	const struct profile_object *ob = &r->p->objects[c->object];
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);

	if (!m)
		return NULL;
	if (json) {
		fputs("\"pid\": ", m);
		if (pr)
			fprintf(m, "%d", (int)pr->pid);
		else
			fputs("null", m);
		fputs(", \"comm\": ", m);
		render_json_str(m, pr ? pr->comm : NULL);
		fputs(", \"object\": ", m);
		render_json_str(m, ob->path);
		fputs(", \"build_id\": ", m);
		render_json_str(m, ob->build_id);
		fputs(",\n  ", m);
	} else {
		if (pr)
			fprintf(m, "%d", (int)pr->pid);
		fputc(',', m);
		render_csv_str(m, pr ? pr->comm : NULL);
		fputc(',', m);
		render_csv_str(m, ob->path);
		fputc(',', m);
		render_csv_str(m, ob->build_id);
		fputc(',', m);
	}
	if (fclose(m)) {
		free(buf);
		return NULL;
	}
	return buf;
}

static int symtab_line_cb(void *ctx, uint64_t addr, struct sym_line *l)
{
	return symtab_line(ctx, addr, l);
}

/* One object's table (of one process, or of all). */
static int render_count(struct pr *r, const struct profile_count *c)
{
	const struct profile_object *ob = &r->p->objects[c->object];
	const struct profile_syms *po = &r->objs[c->object];
	enum render_format fmt = r->o->render.format;
	struct render_syms syms = { .funcs = NULL };
	struct render_part part = {
		.denom = (double)r->total, .unknown = PROFILE_UNKNOWN_ROW,
		.uncovered = c->uncovered,
		.uncovered_name = PROFILE_UNCOVERED_ROW,
		.csv_cols = "pid,comm,object,build_id,",
		.csv_header = r->nparts == 0,
	};
	struct hist h = c->hist;
	char *keys = NULL;
	int ret;

	if (r->p->rate)
		h.rate = r->p->rate;
	h.binary = ob->path;
	if (po->st) {
		syms.funcs = symtab_funcs(po->st, &syms.nfuncs);
		syms.line = symtab_line_cb;
		syms.ctx = po->st;
		/* Its build-id is the one recorded: the right file. */
		if (ob->build_id && !po->note[0])
			syms.unnamed = "no symbol of the file covers a "
				       "sample, and it is the file profiled "
				       "(its build-id matches): stripped";
	} else {
		syms.nosyms = "no symbols: its file was not read (the note "
			      "above)";
	}
	if (fmt != RENDER_TEXT) {
		keys = part_keys(r, c, fmt == RENDER_JSON);
		if (!keys)
			return -1;
		part.csv_vals = keys;
		part.json_fields = keys;
	}
	if (fmt == RENDER_JSON)
		fputs(r->nparts ? ",\n" : "\n", r->out);
	if (fmt == RENDER_TEXT) {
		fprintf(r->out, "\n== %s", ob->path);
		if (ob->build_id)
			fprintf(r->out, " (build-id %s)", ob->build_id);
		fprintf(r->out, ": %" PRIu64 " samples, %.2f%% ==\n",
			profile_count_total(c),
			percent(r, profile_count_total(c)));
		if (po->note[0])
			fprintf(r->out, "# note: %s\n", po->note);
	}
	ret = render_part(r->out, &h, &syms, &r->o->render, &part);
	free(keys);
	r->nparts++;
	return ret;
}

/* The counts of process @proc (or every count), by samples. */
static int render_counts(struct pr *r, size_t proc, bool any)
{
	const struct profile *p = r->p;
	uint64_t *keys = calloc(p->ncounts ? p->ncounts : 1, sizeof(*keys));
	size_t *idx = NULL, i;
	int ret = -1;

	if (!keys)
		return -1;
	for (i = 0; i < p->ncounts; i++)
		if (any || p->counts[i].process == proc)
			keys[i] = profile_count_total(&p->counts[i]) + 1;
	idx = order_by(keys, p->ncounts);
	if (!idx)
		goto out;
	for (i = 0; i < p->ncounts; i++) {
		const struct profile_count *c = &p->counts[idx[i]];

		if (!keys[idx[i]] || !shown(r, profile_count_total(c)))
			continue;
		if (render_count(r, c))
			goto out;
	}
	ret = 0;
out:
	free(idx);
	free(keys);
	return ret;
}

static void text_process_head(struct pr *r, size_t k)
{
	const struct profile_process *pr = &r->p->processes[k];
	uint64_t n = profile_process_total(r->p, k);

	fprintf(r->out, "\n==== pid %d (%s)%s%s: %" PRIu64 " samples, "
		"%.2f%% ====\n", (int)pr->pid, pr->comm, pr->exe ? ", " : "",
		pr->exe ? pr->exe : "", n, percent(r, n));
	acct_line(r->out, &pr->acct);
}

/* Per process, by samples; then the counts of no process, if any. */
static int render_processes(struct pr *r, const size_t *procs)
{
	const struct profile *p = r->p;
	size_t i;

	for (i = 0; i < p->nprocesses; i++) {
		if (!shown(r, profile_process_total(p, procs[i])))
			continue;
		if (r->o->render.format == RENDER_TEXT)
			text_process_head(r, procs[i]);
		if (render_counts(r, procs[i], false))
			return -1;
	}
	for (i = 0; i < p->ncounts; i++)
		if (p->counts[i].process >= p->nprocesses)
			break;
	if (i == p->ncounts)
		return 0;
	if (r->o->render.format == RENDER_TEXT)
		fprintf(r->out, "\n==== no process recorded ====\n");
	return render_counts(r, PROFILE_ALL_PROCESSES, false);
}

static uint64_t *totals_of(const struct profile *p, bool objects)
{
	size_t n = objects ? p->nobjects : p->nprocesses, i;
	uint64_t *v = calloc(n ? n : 1, sizeof(*v));

	for (i = 0; v && i < n; i++)
		v[i] = objects ? profile_object_total(p, i) :
			profile_process_total(p, i);
	return v;
}

static int report(struct pr *r, bool per_process)
{
	uint64_t *okeys = totals_of(r->p, true);
	uint64_t *pkeys = totals_of(r->orig, false);
	size_t *objs = NULL, *procs = NULL;
	enum render_format fmt = r->o->render.format;
	/* The ranked list: functions, unless --per-object. */
	bool list = !r->o->per_object && r->o->render.view == RENDER_FUNCS;
	int ret = -1;

	if (!okeys || !pkeys)
		goto out;
	objs = order_by(okeys, r->p->nobjects);
	procs = order_by(pkeys, r->p->nprocesses);
	if (!objs || !procs)
		goto out;
	r->objs = profile_syms_open(r->p, r->o->render.all);
	if (!r->objs)
		goto out;
	if (fmt == RENDER_JSON) {
		json_header(r, objs, procs, per_process);
	} else if (fmt == RENDER_CSV) {
		csv_notes(r, objs);
	} else {
		text_header(r, objs);
		if (per_process)
			text_process_header(r, procs);
		if (!r->total)
			fputs("# no user samples\n", r->out);
	}
	if (list && fmt != RENDER_JSON)
		ret = profile_list(r->out, r->orig, r->objs, r->o, per_process,
				   r->total);
	else
		ret = per_process ? render_processes(r, procs) :
			render_counts(r, 0, true);
	if (!ret && fmt == RENDER_JSON)
		fputs(r->nparts ? "\n  ]" : "]", r->out);
	if (!ret && fmt == RENDER_JSON && list) {
		fputs(",\n  \"list\": ", r->out);
		ret = profile_list(r->out, r->orig, r->objs, r->o, per_process,
				   r->total);
	}
	if (!ret && fmt == RENDER_JSON)
		fputs("\n}\n", r->out);
out:
	profile_syms_close(r->p, r->objs);
	free(objs);
	free(procs);
	free(okeys);
	free(pkeys);
	return ret;
}

/* The formats of a whole profile in one piece: callgrind, HTML. */
static int report_whole(FILE *out, const struct profile *p,
			const struct profile *merged,
			const struct report_opts *o)
{
	struct profile_syms *syms = profile_syms_open(merged, false);
	int ret;

	if (!syms)
		return -1;
	if (o->render.format == RENDER_CALLGRIND)
		ret = render_callgrind(out, merged, syms);
	else
		ret = render_html(out, p, merged, syms);
	profile_syms_close(merged, syms);
	return ret;
}

int profile_report(FILE *out, const struct profile *p,
		   const struct report_opts *o, bool per_process,
		   const char *cmd)
{
	struct profile merged = { .rate = 0 };
	struct pr r = { .out = out, .p = p, .orig = p, .o = o, .cmd = cmd };
	enum render_format fmt = o->render.format;
	bool whole = fmt == RENDER_CALLGRIND || fmt == RENDER_HTML;
	int ret;

	if (export_format(o->render.format))
		return export_profile(out, p, o, per_process, cmd);
	if (!per_process || whole) {
		if (profile_merge_processes(p, &merged)) {
			ctl_perror(cmd);
			return -1;
		}
		r.p = &merged;
	}
	r.total = profile_total(r.p);
	errno = 0;
	ret = whole ? report_whole(out, p, &merged, o) :
		report(&r, per_process);
	if (!ret && (ferror(out) || fflush(out)))
		ret = -1;
	if (ret) {
		if (!errno)
			errno = EIO;
		ctl_perror(cmd);
	}
	profile_free(&merged);
	return ret;
}
