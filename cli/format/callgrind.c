// SPDX-License-Identifier: GPL-2.0
/*
 * The callgrind format (callgrind.h), written from a profile's costs
 * (costs.h). File names get one id each (fl=, fi=, cfi= share them, as
 * the format says); a function's id is its index in the costs plus one,
 * an object's its index plus one.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "callgrind.h"

#define NO_FILE "???"

struct cg {
	FILE *out;
	const struct profile *p;
	const struct costs *c;
	const char **files;	/* sorted, unique: id = index + 1 */
	size_t nfiles;
	bool *file_named, *func_named, *obj_named;
	const char *cur_file;	/* of the cost lines that follow */
	char **nofile;		/* per object: no_file() */
};

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Every file name of the costs, sorted, once each. */
static int collect_files(struct cg *g)
{
	const struct costs *c = g->c;
	size_t n = 0, i, j;

	g->files = malloc((c->nfuncs + c->nlines + c->narcs +
			   g->p->nobjects + 1) * sizeof(*g->files));
	if (!g->files)
		return -1;
	g->files[n++] = NO_FILE;
	for (i = 0; i < g->p->nobjects; i++)
		g->files[n++] = g->nofile[i];
	for (i = 0; i < c->nfuncs; i++)
		if (c->funcs[i].file)
			g->files[n++] = c->funcs[i].file;
	for (i = 0; i < c->nlines; i++)
		if (c->lines[i].file)
			g->files[n++] = c->lines[i].file;
	for (i = 0; i < c->narcs; i++)
		if (c->arcs[i].file)
			g->files[n++] = c->arcs[i].file;
	qsort(g->files, n, sizeof(*g->files), cmp_str);
	for (i = 0, j = 0; i < n; i++)
		if (!j || strcmp(g->files[j - 1], g->files[i]))
			g->files[j++] = g->files[i];
	g->nfiles = j;
	g->file_named = calloc(j, sizeof(bool));
	return g->file_named ? 0 : -1;
}

static size_t file_id(const struct cg *g, const char *file)
{
	const char **f = bsearch(&file, g->files, g->nfiles, sizeof(*f),
				 cmp_str);

	return (size_t)(f - g->files);
}

/* A name to the end of the line: control characters become '?'. */
static void put_str(FILE *out, const char *s)
{
	for (; *s; s++)
		fputc((unsigned char)*s < 0x20 ? '?' : *s, out);
}

/* "key=(id) name" the first time, "key=(id)" after. */
static void put_named(FILE *out, const char *key, size_t id, bool *named,
		      const char *name)
{
	fprintf(out, "%s=(%zu)", key, id + 1);
	if (!*named) {
		fputc(' ', out);
		put_str(out, name);
		*named = true;
	}
	fputc('\n', out);
}

/*
 * The file of code without a source file: "??? (OBJECT)", one per
 * object, not one "???" for all, which callgrind_annotate would merge
 * into one function per name ("???:strlen@plt" of sort and of libc as
 * one). Not the object's path: annotate would print the binary as a
 * source.
 */
static const char *no_file(const struct cg *g, size_t object)
{
	return object < g->p->nobjects ? g->nofile[object] : NO_FILE;
}

static int nofiles_make(struct cg *g)
{
	size_t i;

	g->nofile = calloc(g->p->nobjects + 1, sizeof(*g->nofile));
	if (!g->nofile)
		return -1;
	for (i = 0; i < g->p->nobjects; i++)
		if (asprintf(&g->nofile[i], NO_FILE " (%s)",
			     g->p->objects[i].path) < 0) {
			g->nofile[i] = NULL;
			return -1;
		}
	return 0;
}

static void put_file(struct cg *g, const char *key, const char *file,
		     size_t object)
{
	size_t k;

	if (!file)
		file = no_file(g, object);
	k = file_id(g, file);
	put_named(g->out, key, k, &g->file_named[k], file);
}

/* fi= before a cost line in another file than the last one. */
static void switch_file(struct cg *g, const char *file, size_t object)
{
	if (!file)
		file = no_file(g, object);
	if (strcmp(file, g->cur_file)) {
		put_file(g, "fi", file, object);
		g->cur_file = file;
	}
}

static void header(struct cg *g)
{
	const struct profile *p = g->p;
	FILE *out = g->out;

	fputs("# callgrind format\nversion: 1\ncreator: profil-ctl\n", out);
	if (p->command) {
		fputs("cmd: ", out);
		put_str(out, p->command);
		fputc('\n', out);
	} else if (p->nprocesses && p->processes[0].exe) {
		fputs("cmd: ", out);
		put_str(out, p->processes[0].exe);
		fputc('\n', out);
	} else if (p->nobjects) {
		fputs("cmd: ", out);
		put_str(out, p->objects[0].path);
		fputc('\n', out);
	}
	if (p->rate)
		fprintf(out, "desc: Rate: %" PRIu32 " Hz: a sample is 1/%"
			PRIu32 " s of CPU time\n", p->rate, p->rate);
	fputs("desc: Samples: whole histogram bins, to the line of their "
	      "first address\ndesc: Calls: from the program's gmon.out "
	      "arcs; their inclusive cost is 0 (not known)\n"
	      "positions: line\nevent: Samples : profil samples\n"
	      "events: Samples\n", out);
	fprintf(out, "summary: %" PRIu64 "\n", g->c->total);
}

/* One function: its lines, its uncovered samples, its calls. */
static void function(struct cg *g, size_t fi, size_t *line, size_t *arc)
{
	const struct costs *c = g->c;
	const struct cost_func *f = &c->funcs[fi];
	const struct cost_func *callee;
	const struct cost_arc *a;

	fputc('\n', g->out);
	if (fi == 0 || c->funcs[fi - 1].object != f->object)
		put_named(g->out, "ob", f->object, &g->obj_named[f->object],
			  g->p->objects[f->object].path);
	put_file(g, "fl", f->file, f->object);
	g->cur_file = f->file ? f->file : no_file(g, f->object);
	put_named(g->out, "fn", fi, &g->func_named[fi], f->name);
	for (; *line < c->nlines && c->lines[*line].func == fi; (*line)++) {
		switch_file(g, c->lines[*line].file, f->object);
		fprintf(g->out, "%u %" PRIu64 "\n", c->lines[*line].line,
			c->lines[*line].count);
	}
	if (f->kind == COST_UNCOVERED)
		fprintf(g->out, "0 %.0f\n", f->self);
	for (; *arc < c->narcs && c->arcs[*arc].caller == fi; (*arc)++) {
		a = &c->arcs[*arc];
		callee = &c->funcs[a->callee];
		switch_file(g, a->file, f->object);
		put_file(g, "cfi", callee->file, callee->object);
		put_named(g->out, "cfn", a->callee, &g->func_named[a->callee],
			  callee->name);
		fprintf(g->out, "calls=%" PRIu64 " %u\n%u 0\n", a->count,
			callee->line, a->line);
	}
}

int render_callgrind(FILE *out, const struct profile *p,
		     const struct profile_syms *syms)
{
	struct costs c;
	struct cg g = { .out = out, .p = p, .c = &c };
	size_t i, line = 0, arc = 0;
	int ret = -1;

	if (costs_build(&c, p, syms))
		return -1;
	g.func_named = calloc(c.nfuncs + 1, sizeof(bool));
	g.obj_named = calloc(p->nobjects + 1, sizeof(bool));
	if (!g.func_named || !g.obj_named || nofiles_make(&g) ||
	    collect_files(&g)) {
		errno = ENOMEM;
		goto out;
	}
	header(&g);
	for (i = 0; i < c.nfuncs; i++)
		function(&g, i, &line, &arc);
	ret = ferror(out) || fflush(out) ? -1 : 0;
	if (ret && !errno)
		errno = EIO;
out:
	free(g.files);
	free(g.file_named);
	free(g.func_named);
	free(g.obj_named);
	for (i = 0; g.nofile && i < p->nobjects; i++)
		free(g.nofile[i]);
	free(g.nofile);
	costs_free(&c);
	return ret;
}
