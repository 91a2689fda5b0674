// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness for profil-ctl's gmon.out reader (cli/profile/gmon_read.c)
 * and what runs on its output: every renderer, and the gmon.out
 * rewrite, which must read back to the same histogram.
 *
 * Built with clang -fsanitize=fuzzer,address,undefined (tests/fuzz/
 * Makefile); any crash, leak, UB or broken round trip aborts.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gmon_read.h"
#include "hist.h"
#include "render.h"

/* Fake functions with a gap, so that spreading and [unknown] both run. */
static const struct sym_func funcs[] = {
	{ 0x0, 0x11, "f0", 0 },
	{ 0x11, 0x1000, "f1", 0 },
	{ 0x2000, 0x2003, "f2", 0 },
	{ 0x400000, 0x400100, "f3", 0 },
	{ UINT64_MAX - 0x10, UINT64_MAX, "f4", 0 },
};

static int fake_line(void *ctx, uint64_t addr, struct sym_line *l)
{
	(void)ctx;
	if (addr & 0x40)
		return -1;
	l->file = (addr & 0x80) ? "a.c" : "b.c";
	l->line = (unsigned int)(addr >> 3) & 0xff;
	/* Inlined or not, or no name: rows split by function too. */
	l->func = (addr & 0x100) ? "f inlined at b.c:3 in g" :
		  (addr & 0x200) ? NULL : "g";
	return 0;
}

static void same_or_abort(const struct hist *a, const struct hist *b)
{
	size_t i;

	if (a->rate != b->rate || a->nranges != b->nranges)
		abort();
	for (i = 0; i < a->nranges; i++) {
		const struct hist_range *x = &a->ranges[i], *y = &b->ranges[i];

		if (x->low_pc != y->low_pc || x->high_pc != y->high_pc ||
		    x->nbins != y->nbins ||
		    memcmp(x->bins, y->bins, x->nbins * sizeof(*x->bins)))
			abort();
	}
}

/* One view and format per input, picked by its last byte: 9x faster
 * than all of them, and mutations reach every pair. */
static void exercise(FILE *sink, const struct hist *h, unsigned int ptr,
		     unsigned int pick)
{
	static const struct render_syms syms = {
		.funcs = funcs, .nfuncs = sizeof(funcs) / sizeof(funcs[0]),
		.line = fake_line,
	};
	struct render_opts o = {
		.view = pick % 3, .format = pick / 3 % 3, .sort = pick & 16,
		.all = pick & 32, .verbose = pick & 64, .gprof = pick & 128,
	};
	struct hist back = { .rate = 0 };
	char err[256], *buf = NULL;
	size_t len = 0;
	FILE *mem;

	if (render(sink, h, &syms, &o))
		abort();
	/* The rewrite (host pointers) reads back identical. */
	if (ptr != sizeof(void *) || !h->nranges)
		return;
	mem = open_memstream(&buf, &len);
	if (!mem)
		abort();
	if (render_gmon(mem, h) || fclose(mem))
		abort();
	if (gmon_read_mem(buf, len, ptr, &back, err, sizeof(err)))
		abort();
	same_or_abort(h, &back);
	hist_free(&back);
	free(buf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static FILE *sink;
	unsigned int ptr;
	char err[256];

	if (!sink)
		sink = fopen("/dev/null", "w");
	for (ptr = 4; ptr <= 8; ptr += 4) {
		struct hist h = { .rate = 0 };

		err[0] = '\0';
		if (gmon_read_mem(data, size, ptr, &h, err, sizeof(err))) {
			/* Every refusal says something. */
			if (!err[0] || h.nranges || h.ranges || h.arcs)
				abort();
			continue;
		}
		exercise(sink, &h, ptr, size ? data[size - 1] : 0);
		hist_free(&h);
	}
	return 0;
}
