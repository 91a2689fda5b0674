// SPDX-License-Identifier: GPL-2.0
/*
 * The call-graph renderer (see callgraph.h). The graph and its times
 * come from cg_build(); this file orders its entries, numbers them, and
 * writes them.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "callgraph.h"
#include "cg.h"

/* One entry of the listing: a function, or a cycle as a whole. */
struct cg_entry {
	size_t id;		/* function index, or cycle number */
	bool cycle;
	double total;		/* self + children */
	uint64_t calls;
	uint64_t addr;
	const char *name;
};

struct cg_view {
	const struct cg *g;
	const struct sym_func *funcs;
	const struct hist *h;
	struct cg_entry *e;
	size_t n;
	size_t *func_idx;	/* listing index (1, 2, ...) per function */
	size_t *cycle_idx;	/* ... per cycle, from 1 */
	size_t *by_callee;	/* arcs, by callee */
	size_t *callee_first;	/* first of each function's in @by_callee */
};

static int cmp_entry_addr(const void *a, const void *b)
{
	const struct cg_entry *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	/* A cycle as a whole before its first member. */
	return (int)y->cycle - (int)x->cycle;
}

static int cmp_entry_time(const void *a, const void *b)
{
	const struct cg_entry *x = a, *y = b;
	int c;

	if (x->total != y->total)
		return x->total > y->total ? -1 : 1;
	if (x->calls != y->calls)
		return x->calls > y->calls ? -1 : 1;
	c = strcmp(x->name, y->name);
	return c ? c : cmp_entry_addr(a, b);
}

static int view_entries(struct cg_view *v, const struct render_opts *o)
{
	const struct cg *g = v->g;
	size_t i, k;

	v->e = calloc(g->nfuncs + g->ncycles + 1, sizeof(*v->e));
	if (!v->e)
		return -1;
	for (i = 0; i < g->nfuncs; i++) {
		const struct cg_node *nd = &g->nodes[i];

		if (!nd->in_graph)
			continue;
		v->e[v->n++] = (struct cg_entry){
			.id = i, .total = nd->self + nd->child,
			.calls = nd->calls + nd->self_calls,
			.addr = v->funcs[i].addr, .name = v->funcs[i].name,
		};
	}
	for (k = 1; k <= g->ncycles; k++) {
		const struct cg_cycle *c = &g->cycles[k - 1];
		struct cg_entry *e = &v->e[v->n++];

		*e = (struct cg_entry){ .id = k, .cycle = true,
					.total = c->self + c->child,
					.calls = c->calls, .addr = UINT64_MAX,
					.name = "" };
		for (i = 0; i < g->nfuncs; i++)
			if (g->nodes[i].cycle == k && v->funcs[i].addr < e->addr)
				e->addr = v->funcs[i].addr;
	}
	if (v->n > 1)
		qsort(v->e, v->n, sizeof(*v->e),
		      o->sort ? cmp_entry_time : cmp_entry_addr);
	for (i = 0; i < v->n; i++)
		if (v->e[i].cycle)
			v->cycle_idx[v->e[i].id] = i + 1;
		else
			v->func_idx[v->e[i].id] = i + 1;
	return 0;
}

static const struct cg_arc *view_arc(const struct cg_view *v, size_t i)
{
	return &v->g->arcs[i];
}

/* @by_callee and @callee_first: each function's callers, by arc index. */
static int view_callers(struct cg_view *v)
{
	const struct cg *g = v->g;
	size_t i, *pos;

	v->by_callee = calloc(g->narcs + 1, sizeof(size_t));
	v->callee_first = calloc(g->nfuncs + 1, sizeof(size_t));
	pos = calloc(g->nfuncs + 1, sizeof(size_t));
	if (!v->by_callee || !v->callee_first || !pos) {
		free(pos);
		return -1;
	}
	for (i = 0; i < g->narcs; i++)
		v->callee_first[g->arcs[i].callee + 1]++;
	for (i = 0; i < g->nfuncs; i++)
		v->callee_first[i + 1] += v->callee_first[i];
	memcpy(pos, v->callee_first, g->nfuncs * sizeof(size_t));
	for (i = 0; i < g->narcs; i++)
		v->by_callee[pos[g->arcs[i].callee]++] = i;
	free(pos);
	return 0;
}

static void view_free(struct cg_view *v)
{
	free(v->e);
	free(v->func_idx);
	free(v->cycle_idx);
	free(v->by_callee);
	free(v->callee_first);
}

/* Whether arc @a passes no time: a self-call, or within a cycle. */
static bool arc_internal(const struct cg *g, const struct cg_arc *a)
{
	unsigned int c = g->nodes[a->caller].cycle;

	return a->caller == a->callee ||
	       (c && g->nodes[a->callee].cycle == c);
}

/* Calls a callee's time is shared by: its own, or its cycle's. */
static uint64_t source_calls(const struct cg *g, size_t f)
{
	unsigned int c = g->nodes[f].cycle;

	return c ? g->cycles[c - 1].calls : g->nodes[f].calls;
}

static double pct(const struct cg *g, double c)
{
	return g->total > 0 ? 100.0 * c / g->total : 0.0;
}

/* ---- text ---- */

static void text_time(FILE *out, const struct hist *h, double c)
{
	if (h->rate)
		fprintf(out, " %9.3f", c / h->rate);
	else
		fprintf(out, " %9.2f", c);
}

static void text_name(FILE *out, const struct cg_view *v, size_t f)
{
	unsigned int c = v->g->nodes[f].cycle;

	fputs(v->funcs[f].name, out);
	if (c)
		fprintf(out, " <cycle %u>", c);
	fprintf(out, " [%zu]\n", v->func_idx[f]);
}

/* A caller's or callee's line: @f, the arc @a to or from it. */
static void text_arc_row(FILE *out, const struct cg_view *v,
			 const struct cg_arc *a, size_t f, uint64_t of)
{
	fprintf(out, "%-7s %6s", "", "");
	if (arc_internal(v->g, a)) {
		fprintf(out, " %9s %9s %8" PRIu64 " %8s    ", "", "",
			a->count, "");
	} else {
		text_time(out, v->h, a->self);
		text_time(out, v->h, a->child);
		fprintf(out, " %8" PRIu64 "/%-8" PRIu64 "    ", a->count, of);
	}
	text_name(out, v, f);
}

static void text_primary(FILE *out, const struct cg_view *v, size_t idx,
			 double self, double child, uint64_t calls,
			 uint64_t self_calls)
{
	char ib[24];

	snprintf(ib, sizeof(ib), "[%zu]", idx);
	fprintf(out, "%-7s %6.1f", ib, pct(v->g, self + child));
	text_time(out, v->h, self);
	text_time(out, v->h, child);
	if (calls || self_calls)
		fprintf(out, " %8" PRIu64, calls);
	else
		fprintf(out, " %8s", "");
	if (self_calls)
		fprintf(out, "+%-8" PRIu64 " ", self_calls);
	else
		fprintf(out, " %8s ", "");
}

/* Arc totals, for ordering one entry's callers and callees. */
static int cmp_arc_time(const struct cg_arc *x, const struct cg_arc *y)
{
	double tx = x->self + x->child, ty = y->self + y->child;

	if (tx != ty)
		return tx < ty ? -1 : 1;
	if (x->count != y->count)
		return x->count < y->count ? -1 : 1;
	return 0;
}

static const struct cg *sort_g;	/* qsort() has no context argument */

static int cmp_up(const void *a, const void *b)
{
	const struct cg_arc *x = &sort_g->arcs[*(const size_t *)a];
	const struct cg_arc *y = &sort_g->arcs[*(const size_t *)b];
	int c = cmp_arc_time(x, y);

	if (c)
		return c;
	return x->caller < y->caller ? -1 : x->caller > y->caller;
}

static int cmp_down(const void *a, const void *b)
{
	const struct cg_arc *x = &sort_g->arcs[*(const size_t *)a];
	const struct cg_arc *y = &sort_g->arcs[*(const size_t *)b];
	int c = cmp_arc_time(y, x);

	if (c)
		return c;
	return x->callee < y->callee ? -1 : x->callee > y->callee;
}

/*
 * The arcs into the function @f (or, with @cycle, into cycle @cycle
 * from outside it) in @buf, most time last, as gprof lists callers.
 */
static size_t callers_of(const struct cg_view *v, size_t f,
			 unsigned int cycle, size_t *buf)
{
	const struct cg *g = v->g;
	size_t i, j, n = 0;

	for (i = 0; i < g->nfuncs; i++) {
		if (cycle ? g->nodes[i].cycle != cycle : i != f)
			continue;
		for (j = v->callee_first[i]; j < v->callee_first[i + 1]; j++) {
			const struct cg_arc *a = view_arc(v, v->by_callee[j]);

			if (cycle && g->nodes[a->caller].cycle == cycle)
				continue;
			buf[n++] = v->by_callee[j];
		}
		if (!cycle)
			break;
	}
	sort_g = g;
	if (n > 1)
		qsort(buf, n, sizeof(*buf), cmp_up);
	return n;
}

/* The arcs out of @f in @buf, most time first. */
static size_t callees_of(const struct cg_view *v, size_t f, size_t *buf)
{
	const struct cg *g = v->g;
	size_t i, n = 0;

	for (i = 0; i < g->narcs; i++)
		if (g->arcs[i].caller == f)
			buf[n++] = i;
	sort_g = g;
	if (n > 1)
		qsort(buf, n, sizeof(*buf), cmp_down);
	return n;
}

static void text_spontaneous(FILE *out)
{
	fprintf(out, "%-7s %6s %9s %9s %17s    <spontaneous>\n", "", "", "",
		"", "");
}

static void text_func(FILE *out, const struct cg_view *v, size_t f,
		      size_t *buf)
{
	const struct cg *g = v->g;
	const struct cg_node *nd = &g->nodes[f];
	const struct cg_arc *a;
	size_t i, n;

	if (nd->spontaneous)
		text_spontaneous(out);
	n = callers_of(v, f, 0, buf);
	for (i = 0; i < n; i++) {
		a = view_arc(v, buf[i]);
		text_arc_row(out, v, a, a->caller, source_calls(g, f));
	}
	text_primary(out, v, v->func_idx[f], nd->self, nd->child, nd->calls,
		     nd->self_calls);
	text_name(out, v, f);
	n = callees_of(v, f, buf);
	for (i = 0; i < n; i++) {
		a = view_arc(v, buf[i]);
		text_arc_row(out, v, a, a->callee, source_calls(g, a->callee));
	}
}

static void text_cycle(FILE *out, const struct cg_view *v, unsigned int k,
		       size_t *buf)
{
	const struct cg *g = v->g;
	const struct cg_cycle *c = &g->cycles[k - 1];
	const struct cg_arc *a;
	size_t i, n;

	n = callers_of(v, 0, k, buf);
	if (!n)
		text_spontaneous(out);
	for (i = 0; i < n; i++) {
		a = view_arc(v, buf[i]);
		text_arc_row(out, v, a, a->caller, c->calls);
	}
	text_primary(out, v, v->cycle_idx[k], c->self, c->child, c->calls,
		     c->internal_calls);
	fprintf(out, "<cycle %u as a whole> [%zu]\n", k, v->cycle_idx[k]);
	for (i = 0; i < v->n; i++) {
		const struct cg_node *nd;
		size_t f = v->e[i].id;

		if (v->e[i].cycle || g->nodes[f].cycle != k)
			continue;
		nd = &g->nodes[f];
		fprintf(out, "%-7s %6s", "", "");
		text_time(out, v->h, nd->self);
		text_time(out, v->h, nd->child);
		fprintf(out, " %8" PRIu64, nd->calls);
		if (nd->self_calls)
			fprintf(out, "+%-8" PRIu64 "    ", nd->self_calls);
		else
			fprintf(out, " %8s    ", "");
		text_name(out, v, f);
	}
}

static void text_notes(FILE *out, const struct cg_view *v)
{
	const struct cg *g = v->g;

	if (!g->narcs)
		fputs("# no call arcs: not a -pg program's gmon.out (only "
		      "samples are shown)\n", out);
	if (g->outside_calls)
		fprintf(out, "# %" PRIu64 " calls from call sites in no "
			"function are not shown (their callees are "
			"<spontaneous>)\n", g->outside_calls);
	if (g->lost_calls)
		fprintf(out, "# %" PRIu64 " calls to addresses in no function "
			"are not shown\n", g->lost_calls);
	if (g->unknown > 0)
		fprintf(out, "# %.0f samples in no function ([unknown]) are "
			"in no entry\n", g->unknown);
}

static int text(FILE *out, const struct cg_view *v)
{
	size_t i, *buf;

	buf = calloc(v->g->narcs + 1, sizeof(*buf));
	if (!buf)
		return -1;
	text_notes(out, v);
	fprintf(out, "%-7s %6s %9s %9s %8s %8s %s\n", "index", "%time",
		"self", "children", "called", "", "function");
	if (!v->h->rate)
		fputs("# the rate is 0 Hz: self and children are in samples\n",
		      out);
	for (i = 0; i < v->n; i++) {
		fputs("--------\n", out);
		if (v->e[i].cycle)
			text_cycle(out, v, (unsigned int)v->e[i].id, buf);
		else
			text_func(out, v, v->e[i].id, buf);
	}
	free(buf);
	return 0;
}

/* ---- csv ---- */

static void csv_time(FILE *out, const struct hist *h, double c)
{
	fputc(',', out);
	if (h->rate)
		fprintf(out, "%.6f", c / h->rate);
}

static void csv(FILE *out, const struct cg_view *v)
{
	const struct cg *g = v->g;
	const struct cg_arc *a;
	size_t i, f;

	fputs("caller,callee,count,self,children\n", out);
	for (i = 0; i < v->n; i++) {
		f = v->e[i].id;
		if (v->e[i].cycle || !g->nodes[f].spontaneous)
			continue;
		fputs("<spontaneous>,", out);
		render_csv_str(out, v->funcs[f].name);
		fputs(",0", out);
		csv_time(out, v->h, g->nodes[f].self);
		csv_time(out, v->h, g->nodes[f].child);
		fputc('\n', out);
	}
	for (i = 0; i < g->narcs; i++) {
		a = &g->arcs[i];
		render_csv_str(out, v->funcs[a->caller].name);
		fputc(',', out);
		render_csv_str(out, v->funcs[a->callee].name);
		fprintf(out, ",%" PRIu64, a->count);
		csv_time(out, v->h, a->self);
		csv_time(out, v->h, a->child);
		fputc('\n', out);
	}
}

/* ---- json ---- */

static void json_time(FILE *out, const struct hist *h, const char *key,
		      double c)
{
	fprintf(out, ", \"%s_samples\": %.4f, \"%s\": ", key, c, key);
	if (h->rate)
		fprintf(out, "%.6f", c / h->rate);
	else
		fputs("null", out);
}

static void json_func(FILE *out, const struct cg_view *v, size_t f)
{
	const struct cg_node *nd = &v->g->nodes[f];

	fprintf(out, "    {\"index\": %zu, \"function\": ", v->func_idx[f]);
	render_json_str(out, v->funcs[f].name);
	fprintf(out, ", \"address\": %" PRIu64 ", \"percent\": %.4f",
		v->funcs[f].addr, pct(v->g, nd->self + nd->child));
	json_time(out, v->h, "self", nd->self);
	json_time(out, v->h, "children", nd->child);
	fprintf(out, ", \"calls\": %" PRIu64 ", \"self_calls\": %" PRIu64
		", \"spontaneous\": %s, \"cycle\": ", nd->calls,
		nd->self_calls, nd->spontaneous ? "true" : "false");
	if (nd->cycle)
		fprintf(out, "%u}", nd->cycle);
	else
		fputs("null}", out);
}

static void json_cycle(FILE *out, const struct cg_view *v, unsigned int k)
{
	const struct cg_cycle *c = &v->g->cycles[k - 1];
	size_t i, m = 0;

	fprintf(out, "    {\"index\": %zu, \"cycle\": %u, \"percent\": %.4f",
		v->cycle_idx[k], k, pct(v->g, c->self + c->child));
	json_time(out, v->h, "self", c->self);
	json_time(out, v->h, "children", c->child);
	fprintf(out, ", \"calls\": %" PRIu64 ", \"internal_calls\": %" PRIu64
		", \"members\": [", c->calls, c->internal_calls);
	for (i = 0; i < v->g->nfuncs; i++) {
		if (v->g->nodes[i].cycle != k)
			continue;
		fputs(m++ ? ", " : "", out);
		render_json_str(out, v->funcs[i].name);
	}
	fputs("]}", out);
}

static void json_arcs(FILE *out, const struct cg_view *v)
{
	const struct cg_arc *a;
	size_t i;

	fputs("  \"arcs\": [", out);
	for (i = 0; i < v->g->narcs; i++) {
		a = &v->g->arcs[i];
		fputs(i ? ",\n    {\"caller\": " : "\n    {\"caller\": ", out);
		render_json_str(out, v->funcs[a->caller].name);
		fputs(", \"callee\": ", out);
		render_json_str(out, v->funcs[a->callee].name);
		fprintf(out, ", \"caller_index\": %zu, \"callee_index\": %zu, "
			"\"count\": %" PRIu64, v->func_idx[a->caller],
			v->func_idx[a->callee], a->count);
		json_time(out, v->h, "self", a->self);
		json_time(out, v->h, "children", a->child);
		fputc('}', out);
	}
	fputs(v->g->narcs ? "\n  ],\n" : "],\n", out);
}

static void json(FILE *out, const struct cg_view *v)
{
	const struct cg *g = v->g;
	size_t i, n = 0;

	fputs("{\n  \"binary\": ", out);
	render_json_str(out, v->h->binary);
	fprintf(out, ",\n  \"rate\": %u,\n  \"view\": \"callgraph\",\n"
		"  \"total_samples\": %.4f,\n  \"unknown_samples\": %.4f,\n"
		"  \"outside_calls\": %" PRIu64 ",\n  \"lost_calls\": %" PRIu64
		",\n  \"functions\": [", v->h->rate, g->total, g->unknown,
		g->outside_calls, g->lost_calls);
	for (i = 0; i < v->n; i++) {
		if (v->e[i].cycle)
			continue;
		fputs(n++ ? ",\n" : "\n", out);
		json_func(out, v, v->e[i].id);
	}
	fputs(n ? "\n  ],\n  \"cycles\": [" : "],\n  \"cycles\": [", out);
	for (i = 0, n = 0; i < v->n; i++) {
		if (!v->e[i].cycle)
			continue;
		fputs(n++ ? ",\n" : "\n", out);
		json_cycle(out, v, (unsigned int)v->e[i].id);
	}
	fputs(n ? "\n  ],\n" : "],\n", out);
	json_arcs(out, v);
	fputs("  \"reason\": ", out);
	render_json_str(out, g->narcs ? NULL : "no call arcs: not a -pg "
			"program's gmon.out");
	fputs("\n}\n", out);
}

int render_callgraph(FILE *out, const struct hist *h,
		     const struct render_syms *s, const struct render_opts *o)
{
	struct cg_view v = { .h = h, .funcs = s ? s->funcs : NULL };
	struct cg g;
	int ret = -1;

	if (cg_build(&g, h, v.funcs, s ? s->nfuncs : 0))
		return -1;
	v.g = &g;
	v.func_idx = calloc(g.nfuncs + 1, sizeof(size_t));
	v.cycle_idx = calloc(g.ncycles + 1, sizeof(size_t));
	if (!v.func_idx || !v.cycle_idx || view_callers(&v) ||
	    view_entries(&v, o))
		goto nomem;
	if (o->format == RENDER_JSON)
		json(out, &v);
	else if (o->format == RENDER_CSV)
		csv(out, &v);
	else if (text(out, &v))
		goto nomem;
	ret = 0;
	if (ferror(out) || fflush(out)) {
		if (!errno)
			errno = EIO;
		ret = -1;
	}
	goto out;
nomem:
	errno = ENOMEM;
out:
	view_free(&v);
	cg_free(&g);
	return ret;
}
