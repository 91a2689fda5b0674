/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The call graph of a -pg program: a hist's arcs charged to functions,
 * and its samples propagated from callees to callers as gprof does
 * (Graham, Kessler, McKusick, "gprof: a Call Graph Execution Profiler",
 * 1982); pure, no I/O.
 *
 * A function's time is its own samples (self, as attrib.h charges
 * them) plus its descendants' (children). Each function passes self +
 * children to its callers in proportion to the calls each made. Calls
 * of a function to itself are counted apart and pass nothing; functions
 * that call each other in a cycle (a strongly connected component of
 * more than one) pass nothing among themselves, and the cycle as a whole
 * passes its members' time to the callers outside it, as gprof's
 * "<cycle N as a whole>" does.
 *
 * An arc whose call site is in no function (a caller outside the
 * profiled text) is dropped, as gprof drops it, and counted; its callee
 * is "<spontaneous>" when nothing else calls it. So is an arc whose
 * callee is in no function.
 */
#ifndef PROFIL_CTL_CG_H
#define PROFIL_CTL_CG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hist.h"
#include "symbols.h"

/**
 * struct cg_node - one function of the graph
 * @self: its samples
 * @child: its descendants' samples propagated to it
 * @calls: calls from other functions (its own excluded)
 * @self_calls: calls from itself
 * @cycle: the cycle it belongs to (1, 2, ...), or 0
 * @in_graph: it has samples or an arc
 * @spontaneous: in the graph, and no other function calls it (its
 *	callers are outside the profiled text, or it is where the program
 *	starts)
 */
struct cg_node {
	double self;
	double child;
	uint64_t calls;
	uint64_t self_calls;
	unsigned int cycle;
	bool in_graph;
	bool spontaneous;
};

/**
 * struct cg_arc - the calls of one function to another, all call sites
 * merged
 * @caller: index in the function array
 * @callee: index in the function array
 * @count: calls
 * @self: the callee's (or its cycle's) self samples passed along, in
 *	proportion to @count; 0 for a call to itself or within a cycle
 * @child: the same for its children's samples
 */
struct cg_arc {
	size_t caller;
	size_t callee;
	uint64_t count;
	double self;
	double child;
};

/**
 * struct cg_cycle - functions that call each other, as a whole
 * @self: the members' samples
 * @child: samples of the descendants outside the cycle
 * @calls: calls into the cycle from outside it
 * @internal_calls: calls between members (not those of a member to
 *	itself)
 * @nmembers: how many functions
 */
struct cg_cycle {
	double self;
	double child;
	uint64_t calls;
	uint64_t internal_calls;
	size_t nmembers;
};

/**
 * struct cg - a call graph
 * @nodes: one per function, as the array given (by index)
 * @nfuncs: their number
 * @arcs: sorted by caller, then callee
 * @narcs: their number
 * @cycles: @ncycles cycles, cycle k at @cycles[k - 1]
 * @ncycles: their number
 * @total: all samples of the histogram (what percentages are of)
 * @unknown: samples in no function
 * @outside_calls: calls from call sites in no function (dropped)
 * @lost_calls: calls to an address in no function (dropped)
 */
struct cg {
	struct cg_node *nodes;
	size_t nfuncs;
	struct cg_arc *arcs;
	size_t narcs;
	struct cg_cycle *cycles;
	size_t ncycles;
	double total;
	double unknown;
	uint64_t outside_calls;
	uint64_t lost_calls;
};

/**
 * cg_build() - the call graph of @h over @funcs
 * @g: filled; release with cg_free()
 * @funcs: sorted by address, bounds disjoint (may be NULL if @nfuncs 0)
 *
 * Return: 0, or -1 with errno ENOMEM.
 */
int cg_build(struct cg *g, const struct hist *h, const struct sym_func *funcs,
	     size_t nfuncs);

/** cg_free() - free what @g owns and zero it. */
void cg_free(struct cg *g);

#endif /* PROFIL_CTL_CG_H */
