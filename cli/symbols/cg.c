// SPDX-License-Identifier: GPL-2.0
/*
 * The call graph and gprof's time propagation (see cg.h).
 *
 * The functions that call each other are found as the strongly
 * connected components of the graph (Tarjan's algorithm, without
 * recursion: a call chain is as deep as the program has functions).
 * Tarjan's algorithm completes a component only after every component
 * it calls, which is the order propagation needs: when a component's
 * time is summed, its callees' is final.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "attrib.h"
#include "cg.h"

static int cmp_arc(const void *a, const void *b)
{
	const struct cg_arc *x = a, *y = b;

	if (x->caller != y->caller)
		return x->caller < y->caller ? -1 : 1;
	return x->callee < y->callee ? -1 : x->callee > y->callee;
}

/* The hist's arcs by function, call sites merged, into @g->arcs. */
static int cg_arcs(struct cg *g, const struct hist *h,
		   const struct sym_func *funcs, size_t nfuncs)
{
	const struct sym_func *p, *c;
	size_t i, n = 0;

	g->arcs = calloc(h->narcs ? h->narcs : 1, sizeof(*g->arcs));
	if (!g->arcs)
		return -1;
	for (i = 0; i < h->narcs; i++) {
		if (!h->arcs[i].count)
			continue;
		c = sym_func_find(funcs, nfuncs, h->arcs[i].self_pc);
		p = sym_func_find(funcs, nfuncs, h->arcs[i].from_pc);
		if (!c) {
			g->lost_calls += h->arcs[i].count;
			continue;
		}
		if (!p) {
			g->outside_calls += h->arcs[i].count;
			continue;
		}
		g->arcs[n++] = (struct cg_arc){ .caller = (size_t)(p - funcs),
						.callee = (size_t)(c - funcs),
						.count = h->arcs[i].count };
	}
	if (n > 1)
		qsort(g->arcs, n, sizeof(*g->arcs), cmp_arc);
	g->narcs = 0;
	for (i = 0; i < n; i++) {
		struct cg_arc *last = g->narcs ? &g->arcs[g->narcs - 1] : NULL;

		if (last && last->caller == g->arcs[i].caller &&
		    last->callee == g->arcs[i].callee)
			last->count += g->arcs[i].count;
		else
			g->arcs[g->narcs++] = g->arcs[i];
	}
	return 0;
}

/* Calls, self-calls, who is in the graph and who is spontaneous. */
static void cg_count_calls(struct cg *g)
{
	struct cg_arc *a;
	size_t i;

	for (i = 0; i < g->narcs; i++) {
		a = &g->arcs[i];
		if (a->caller == a->callee)
			g->nodes[a->callee].self_calls += a->count;
		else
			g->nodes[a->callee].calls += a->count;
		g->nodes[a->caller].in_graph = true;
		g->nodes[a->callee].in_graph = true;
	}
	for (i = 0; i < g->nfuncs; i++) {
		if (g->nodes[i].self > 0)
			g->nodes[i].in_graph = true;
		g->nodes[i].spontaneous = g->nodes[i].in_graph &&
					  !g->nodes[i].calls;
	}
}

/* What a callee passes up: its own, or its cycle's, time and calls. */
static void cg_source(const struct cg *g, size_t f, double *self,
		      double *child, uint64_t *calls)
{
	const struct cg_node *n = &g->nodes[f];
	const struct cg_cycle *c;

	if (n->cycle) {
		c = &g->cycles[n->cycle - 1];
		*self = c->self;
		*child = c->child;
		*calls = c->calls;
	} else {
		*self = n->self;
		*child = n->child;
		*calls = n->calls;
	}
}

/* Time of @f's callees outside its component passed to @f; returned. */
static double cg_gather(struct cg *g, size_t f, const size_t *first)
{
	unsigned int cyc = g->nodes[f].cycle;
	double self, child, sum = 0;
	struct cg_arc *a;
	uint64_t calls;
	size_t i;

	for (i = first[f]; i < first[f + 1]; i++) {
		a = &g->arcs[i];
		if (a->callee == f || (cyc && g->nodes[a->callee].cycle == cyc))
			continue;
		cg_source(g, a->callee, &self, &child, &calls);
		if (!calls)
			continue;
		a->self = self * (double)a->count / (double)calls;
		a->child = child * (double)a->count / (double)calls;
		sum += a->self + a->child;
	}
	g->nodes[f].child += sum;
	return sum;
}

/* One component, @members[0..n), its callees' time final: propagate. */
static int cg_component(struct cg *g, const size_t *members, size_t n,
			const size_t *first)
{
	struct cg_cycle *c, *nc;
	size_t i, j, f;

	if (n == 1) {
		cg_gather(g, members[0], first);
		return 0;
	}
	nc = realloc(g->cycles, (g->ncycles + 1) * sizeof(*nc));
	if (!nc)
		return -1;
	g->cycles = nc;
	c = &g->cycles[g->ncycles++];
	memset(c, 0, sizeof(*c));
	c->nmembers = n;
	for (i = 0; i < n; i++)
		g->nodes[members[i]].cycle = (unsigned int)g->ncycles;
	for (i = 0; i < n; i++) {
		f = members[i];
		c->self += g->nodes[f].self;
		c->calls += g->nodes[f].calls;
		for (j = first[f]; j < first[f + 1]; j++)
			if (g->arcs[j].callee != f &&
			    g->nodes[g->arcs[j].callee].cycle ==
			    g->nodes[f].cycle)
				c->internal_calls += g->arcs[j].count;
	}
	c->calls -= c->internal_calls;
	for (i = 0; i < n; i++)
		c->child += cg_gather(g, members[i], first);
	return 0;
}

/* Tarjan's bookkeeping, one slot per function. */
struct scc {
	size_t *index;		/* 0: not visited yet */
	size_t *low;
	size_t *stack;		/* the component being built */
	size_t nstack;
	size_t *frame;		/* the walk: functions ... */
	size_t *next;		/* ... and the next arc of each */
	size_t nframe;
	bool *on_stack;
	size_t counter;
};

static void scc_push(struct scc *s, const size_t *first, size_t v)
{
	s->index[v] = s->low[v] = ++s->counter;
	s->stack[s->nstack++] = v;
	s->on_stack[v] = true;
	s->frame[s->nframe] = v;
	s->next[s->nframe++] = first[v];
}

/* Pops the component of @v off the stack and propagates it. */
static int scc_pop(struct cg *g, struct scc *s, size_t v, const size_t *first)
{
	size_t n = 0;

	do {
		n++;
		s->on_stack[s->stack[s->nstack - n]] = false;
	} while (s->stack[s->nstack - n] != v);
	s->nstack -= n;
	return cg_component(g, &s->stack[s->nstack], n, first);
}

static int scc_walk(struct cg *g, struct scc *s, const size_t *first,
		    size_t root)
{
	size_t v, w, u;

	scc_push(s, first, root);
	while (s->nframe) {
		v = s->frame[s->nframe - 1];
		if (s->next[s->nframe - 1] < first[v + 1]) {
			w = g->arcs[s->next[s->nframe - 1]++].callee;
			if (!s->index[w])
				scc_push(s, first, w);
			else if (s->on_stack[w] && s->index[w] < s->low[v])
				s->low[v] = s->index[w];
			continue;
		}
		s->nframe--;
		if (s->low[v] == s->index[v] && scc_pop(g, s, v, first))
			return -1;
		if (s->nframe) {
			u = s->frame[s->nframe - 1];
			if (s->low[v] < s->low[u])
				s->low[u] = s->low[v];
		}
	}
	return 0;
}

static int cg_propagate(struct cg *g)
{
	size_t n = g->nfuncs, i, *first;
	struct scc s = { .counter = 0 };
	int ret = -1;

	first = calloc(n + 1, sizeof(*first));
	s.index = calloc(n, sizeof(size_t));
	s.low = calloc(n, sizeof(size_t));
	s.stack = calloc(n, sizeof(size_t));
	s.frame = calloc(n, sizeof(size_t));
	s.next = calloc(n, sizeof(size_t));
	s.on_stack = calloc(n, sizeof(bool));
	if (!first || !s.index || !s.low || !s.stack || !s.frame ||
	    !s.next || !s.on_stack)
		goto out;
	/* first[f]: @f's first arc; arcs are sorted by caller. */
	for (i = 0; i < g->narcs; i++)
		first[g->arcs[i].caller + 1]++;
	for (i = 0; i < n; i++)
		first[i + 1] += first[i];
	ret = 0;
	for (i = 0; i < n && !ret; i++)
		if (g->nodes[i].in_graph && !s.index[i])
			ret = scc_walk(g, &s, first, i);
out:
	free(first);
	free(s.index);
	free(s.low);
	free(s.stack);
	free(s.frame);
	free(s.next);
	free(s.on_stack);
	return ret;
}

int cg_build(struct cg *g, const struct hist *h, const struct sym_func *funcs,
	     size_t nfuncs)
{
	struct attrib a;
	size_t i;

	memset(g, 0, sizeof(*g));
	if (attrib_funcs(&a, h, funcs, nfuncs))
		return -1;
	g->nfuncs = nfuncs;
	g->nodes = calloc(nfuncs ? nfuncs : 1, sizeof(*g->nodes));
	if (!g->nodes)
		goto err;
	for (i = 0; i < nfuncs; i++)
		g->nodes[i].self = a.counts[i];
	g->unknown = a.unknown;
	g->total = (double)hist_total(h);
	attrib_free(&a);
	if (cg_arcs(g, h, funcs, nfuncs))
		goto err;
	cg_count_calls(g);
	if (cg_propagate(g))
		goto err;
	return 0;
err:
	attrib_free(&a);
	cg_free(g);
	errno = ENOMEM;
	return -1;
}

void cg_free(struct cg *g)
{
	free(g->nodes);
	free(g->arcs);
	free(g->cycles);
	memset(g, 0, sizeof(*g));
}
