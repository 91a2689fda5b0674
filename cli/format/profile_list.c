// SPDX-License-Identifier: GPL-2.0
/*
 * The ranked list of a whole-program profile (profile_list.h): rows
 * gathered from every (process, object) histogram through
 * render_collect(), filtered, summed per value of the keys (sorted by
 * key, equal neighbours added), then ranked by samples and limited.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "profile_list.h"
#include "render.h"
#include "symbols.h"

/* One row: the values of every key, whichever the list sums by. */
struct entry {
	pid_t pid;
	const char *comm;
	size_t object;
	const char *sym;
	double count;
	uint64_t calls;
};

struct list {
	struct entry *v;
	size_t n, cap;
	const struct profile *p;
	const struct report_opts *o;
	enum report_key keys[REPORT_MAX_KEYS];
	size_t nkeys;
	struct entry cur;	/* the process and object being gathered */
	bool skip;		/* the filters leave them out */
	double filtered;	/* samples the filters left out */
	size_t nhidden;		/* rows --top, --percent-limit left out */
	double hidden;
	double total;
	bool has_calls;
};

/* @s is one of the comma-separated words of @list. */
static bool in_list(const char *list, const char *s)
{
	size_t len = strlen(s);
	const char *w = list, *end;

	do {
		end = strchrnul(w, ',');
		if ((size_t)(end - w) == len && !strncmp(w, s, len))
			return true;
		w = end + 1;
	} while (*end);
	return false;
}

static const char *base_name(const char *path)
{
	const char *b = strrchr(path, '/');

	return b ? b + 1 : path;
}

static int add(void *ctx, const char *sym, double count, uint64_t calls)
{
	struct list *l = ctx;
	struct entry *nv;

	if (l->o->symbols && !in_list(l->o->symbols, sym)) {
		l->filtered += count;
		return 0;
	}
	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 256;
		nv = realloc(l->v, l->cap * sizeof(*nv));
		if (!nv) {
			errno = ENOMEM;
			return -1;
		}
		l->v = nv;
	}
	l->v[l->n] = l->cur;
	l->v[l->n].sym = sym;
	l->v[l->n].count = count;
	l->v[l->n++].calls = calls;
	if (calls)
		l->has_calls = true;
	return 0;
}

/* The rows of one count, or its samples counted as filtered out. */
static int gather(struct list *l, const struct profile_count *c,
		  const struct profile_syms *po)
{
	const struct profile_process *pr = c->process < l->p->nprocesses ?
		&l->p->processes[c->process] : NULL;
	const char *path = l->p->objects[c->object].path;
	struct render_syms syms = { .funcs = NULL };
	double unknown;

	l->cur = (struct entry){ .pid = pr ? pr->pid : 0,
				 .comm = pr ? pr->comm : "-",
				 .object = c->object };
	if ((l->o->comms && !in_list(l->o->comms, l->cur.comm)) ||
	    (l->o->dsos && !in_list(l->o->dsos, path) &&
	     !in_list(l->o->dsos, base_name(path)))) {
		l->filtered += (double)profile_count_total(c);
		return 0;
	}
	if (po->st)
		syms.funcs = symtab_funcs(po->st, &syms.nfuncs);
	if (render_collect(&c->hist, &syms, &l->o->render, add, l, &unknown))
		return -1;
	if ((unknown > 0 || l->o->render.all) &&
	    add(l, PROFILE_UNKNOWN_ROW, unknown, 0))
		return -1;
	if (c->uncovered &&
	    add(l, PROFILE_UNCOVERED_ROW, (double)c->uncovered, 0))
		return -1;
	return 0;
}

static int cmp_key(const struct entry *x, const struct entry *y,
		   enum report_key k)
{
	switch (k) {
	case REPORT_KEY_PID:
		if (x->pid != y->pid)
			return x->pid < y->pid ? -1 : 1;
		return strcmp(x->comm, y->comm);
	case REPORT_KEY_COMM:
		return strcmp(x->comm, y->comm);
	case REPORT_KEY_DSO:
		return x->object < y->object ? -1 : x->object > y->object;
	default:
		return strcmp(x->sym, y->sym);
	}
}

static int cmp_keys(const void *a, const void *b, void *ctx)
{
	const struct list *l = ctx;
	size_t i;
	int c;

	for (i = 0; i < l->nkeys; i++) {
		c = cmp_key(a, b, l->keys[i]);
		if (c)
			return c;
	}
	return 0;
}

/* Most samples first; equal counts in the keys' order. */
static int cmp_rank(const void *a, const void *b, void *ctx)
{
	const struct entry *x = a, *y = b;

	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	return cmp_keys(a, b, ctx);
}

/* Rows of equal keys summed into one. */
static void sum_by_keys(struct list *l)
{
	size_t i, j;

	if (l->n > 1)
		qsort_r(l->v, l->n, sizeof(*l->v), cmp_keys, l);
	for (i = 0, j = 0; i < l->n; i++) {
		if (j && !cmp_keys(&l->v[j - 1], &l->v[i], l)) {
			l->v[j - 1].count += l->v[i].count;
			l->v[j - 1].calls += l->v[i].calls;
		} else {
			l->v[j++] = l->v[i];
		}
	}
	l->n = j;
}

static double pct(const struct list *l, double c)
{
	return l->total > 0 ? 100.0 * c / l->total : 0.0;
}

/* --percent-limit, then --top, on the ranked rows. */
static void limit(struct list *l)
{
	const struct render_opts *o = &l->o->render;
	size_t i, j;

	for (i = 0, j = 0; i < l->n; i++) {
		if (o->percent_limit <= 0 ||
		    pct(l, l->v[i].count) >= o->percent_limit) {
			l->v[j++] = l->v[i];
			continue;
		}
		l->nhidden++;
		l->hidden += l->v[i].count;
	}
	l->n = j;
	if (!o->top || l->n <= o->top)
		return;
	for (i = o->top; i < l->n; i++)
		l->hidden += l->v[i].count;
	l->nhidden += l->n - o->top;
	l->n = o->top;
}

/* Key @k of @e as text ("-v": an object by its path, else base name). */
static const char *key_text(const struct list *l, const struct entry *e,
			    enum report_key k, char *buf, size_t len)
{
	const char *path;

	switch (k) {
	case REPORT_KEY_PID:
		snprintf(buf, len, "%d:%s", (int)e->pid, e->comm);
		return buf;
	case REPORT_KEY_COMM:
		return e->comm;
	case REPORT_KEY_DSO:
		path = l->p->objects[e->object].path;
		return l->o->render.verbose ? path : base_name(path);
	default:
		return e->sym;
	}
}

static const char *const key_heads[] = {
	[REPORT_KEY_PID] = "pid:command",
	[REPORT_KEY_COMM] = "command",
	[REPORT_KEY_DSO] = "object",
	[REPORT_KEY_SYM] = "symbol",
};

/* The keys as --sort spells them. */
static const char *const key_ids[] = {
	[REPORT_KEY_PID] = "pid",
	[REPORT_KEY_COMM] = "comm",
	[REPORT_KEY_DSO] = "dso",
	[REPORT_KEY_SYM] = "sym",
};

static void put_seconds(FILE *out, const struct list *l, double c)
{
	if (l->p->rate)
		fprintf(out, " %9.3f", c / l->p->rate);
	else
		fprintf(out, " %9s", "-");
}

static void text_row(FILE *out, const struct list *l, const struct entry *e,
		     const int *width)
{
	char buf[64];
	size_t i;

	render_put_whole(out, 9, e->count, l->o->render.verbose);
	fprintf(out, " %6.2f", pct(l, e->count));
	put_seconds(out, l, e->count);
	if (l->has_calls && e->calls)
		fprintf(out, " %9" PRIu64, e->calls);
	else if (l->has_calls)
		fprintf(out, " %9s", "");
	for (i = 0; i < l->nkeys; i++)
		fprintf(out, i + 1 < l->nkeys ? "  %-*s" : "  %*s\n",
			i + 1 < l->nkeys ? width[i] : 0,
			key_text(l, e, l->keys[i], buf, sizeof(buf)));
}

static void write_text(FILE *out, const struct list *l)
{
	int width[REPORT_MAX_KEYS];
	char buf[64];
	size_t i, k;

	for (k = 0; k < l->nkeys; k++) {
		width[k] = (int)strlen(key_heads[l->keys[k]]);
		for (i = 0; i < l->n; i++) {
			int w = (int)strlen(key_text(l, &l->v[i], l->keys[k],
						     buf, sizeof(buf)));

			if (w > width[k])
				width[k] = w;
		}
	}
	fprintf(out, "\n%9s %6s %9s", "count", "%", "seconds");
	if (l->has_calls)
		fprintf(out, " %9s", "calls");
	for (k = 0; k < l->nkeys; k++)
		fprintf(out, k + 1 < l->nkeys ? "  %-*s" : "  %*s\n",
			k + 1 < l->nkeys ? width[k] : 0, key_heads[l->keys[k]]);
	for (i = 0; i < l->n; i++)
		text_row(out, l, &l->v[i], width);
	if (l->nhidden) {
		fprintf(out, "# %zu more row%s (--top, --percent-limit): "
			"count ", l->nhidden, l->nhidden == 1 ? "" : "s");
		render_put_whole(out, 0, l->hidden, false);
		fprintf(out, ", %.2f%%\n", pct(l, l->hidden));
	}
	if (l->filtered > 0) {
		fputs("# filtered out (--comms, --dsos, --symbols): count ",
		      out);
		render_put_whole(out, 0, l->filtered, false);
		fprintf(out, ", %.2f%%\n", pct(l, l->filtered));
	}
	render_put_count(out, 9, l->total);
	fprintf(out, " %6.2f", pct(l, l->total));
	put_seconds(out, l, l->total);
	fprintf(out, "%s  total\n", l->has_calls ? "          " : "");
	for (i = 0; i < l->n && !render_is_split(l->v[i].count); i++)
		;
	if (i < l->n)
		render_split_note(out, l->o->render.verbose);
}

static bool has_key(const struct list *l, enum report_key k)
{
	size_t i;

	for (i = 0; i < l->nkeys; i++)
		if (l->keys[i] == k)
			return true;
	return false;
}

static void write_csv(FILE *out, const struct list *l)
{
	bool pid = has_key(l, REPORT_KEY_PID);
	bool comm = pid || has_key(l, REPORT_KEY_COMM);
	bool dso = has_key(l, REPORT_KEY_DSO);
	bool sym = has_key(l, REPORT_KEY_SYM);
	const struct entry *e;
	size_t i;

	fputs("pid,comm,object,build_id,function,count,percent,seconds,"
	      "calls\n", out);
	for (i = 0; i < l->n; i++) {
		e = &l->v[i];
		if (pid)
			fprintf(out, "%d", (int)e->pid);
		fputc(',', out);
		render_csv_str(out, comm ? e->comm : NULL);
		fputc(',', out);
		render_csv_str(out, dso ? l->p->objects[e->object].path : NULL);
		fputc(',', out);
		render_csv_str(out, dso ? l->p->objects[e->object].build_id :
			       NULL);
		fputc(',', out);
		render_csv_str(out, sym ? e->sym : NULL);
		fprintf(out, ",%.6g,%.4f,", e->count, pct(l, e->count));
		if (l->p->rate)
			fprintf(out, "%.6f", e->count / l->p->rate);
		fprintf(out, ",%" PRIu64 "\n", e->calls);
	}
}

static void json_count(FILE *out, const struct list *l, double c)
{
	fprintf(out, "\"count\": %.6g, \"percent\": %.4f", c, pct(l, c));
}

static void json_row(FILE *out, const struct list *l, const struct entry *e)
{
	bool pid = has_key(l, REPORT_KEY_PID);
	bool dso = has_key(l, REPORT_KEY_DSO);

	fputs("{\"pid\": ", out);
	if (pid)
		fprintf(out, "%d", (int)e->pid);
	else
		fputs("null", out);
	fputs(", \"comm\": ", out);
	render_json_str(out, pid || has_key(l, REPORT_KEY_COMM) ? e->comm :
			NULL);
	fputs(", \"object\": ", out);
	render_json_str(out, dso ? l->p->objects[e->object].path : NULL);
	fputs(", \"build_id\": ", out);
	render_json_str(out, dso ? l->p->objects[e->object].build_id : NULL);
	fputs(", \"function\": ", out);
	render_json_str(out, has_key(l, REPORT_KEY_SYM) ? e->sym : NULL);
	fputs(", ", out);
	json_count(out, l, e->count);
	fputs(", \"seconds\": ", out);
	if (l->p->rate)
		fprintf(out, "%.6f", e->count / l->p->rate);
	else
		fputs("null", out);
	fprintf(out, ", \"calls\": %" PRIu64 "}", e->calls);
}

static void write_json(FILE *out, const struct list *l)
{
	size_t i;

	fputs("{\"keys\": [", out);
	for (i = 0; i < l->nkeys; i++)
		fprintf(out, "%s\"%s\"", i ? ", " : "",
			key_ids[l->keys[i]]);
	fputs("],\n    \"rows\": [", out);
	for (i = 0; i < l->n; i++) {
		fputs(i ? ",\n      " : "\n      ", out);
		json_row(out, l, &l->v[i]);
	}
	fprintf(out, "%s],\n    \"hidden\": {\"rows\": %zu, ",
		l->n ? "\n    " : "", l->nhidden);
	json_count(out, l, l->hidden);
	fputs("},\n    \"filtered\": {", out);
	json_count(out, l, l->filtered);
	fputs("}}", out);
}

static void set_keys(struct list *l, bool per_process)
{
	size_t i;

	if (l->o->nkeys) {
		l->nkeys = l->o->nkeys;
		for (i = 0; i < l->nkeys; i++)
			l->keys[i] = l->o->keys[i];
		return;
	}
	/* perf's comm,dso,sym; per process pid,dso,sym (pid:comm). */
	l->keys[0] = per_process ? REPORT_KEY_PID : REPORT_KEY_COMM;
	l->keys[1] = REPORT_KEY_DSO;
	l->keys[2] = REPORT_KEY_SYM;
	l->nkeys = 3;
}

int profile_list(FILE *out, const struct profile *p,
		 const struct profile_syms *objs, const struct report_opts *o,
		 bool per_process, uint64_t total)
{
	struct list l = { .p = p, .o = o, .total = (double)total };
	size_t i;

	set_keys(&l, per_process);
	for (i = 0; i < p->ncounts; i++)
		if (gather(&l, &p->counts[i], &objs[p->counts[i].object])) {
			free(l.v);
			return -1;
		}
	if (fabs(l.filtered) < 1e-6)
		l.filtered = 0;
	sum_by_keys(&l);
	if (l.n > 1)
		qsort_r(l.v, l.n, sizeof(*l.v), cmp_rank, &l);
	limit(&l);
	if (o->render.format == RENDER_JSON)
		write_json(out, &l);
	else if (o->render.format == RENDER_CSV)
		write_csv(out, &l);
	else
		write_text(out, &l);
	free(l.v);
	return 0;
}
