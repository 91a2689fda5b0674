// SPDX-License-Identifier: GPL-2.0
/*
 * --format=folded (folded.h): every bin with samples gives one key,
 * "[COMM-PID;]OBJECT;FUNCTION[;FILE:LINE]"; the keys are sorted and
 * equal ones summed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "folded.h"

struct fl_row {
	char *key;
	uint64_t count;
};

struct fl {
	struct fl_row *v;
	size_t n, cap;
};

/* @s as one frame: no ';', which separates frames. */
static void frame(FILE *m, const char *s)
{
	for (; *s; s++)
		fputc(*s == ';' || *s == '\n' ? '_' : *s, m);
}

/* Closes @m, then adds its text, *@key, with @count. */
static int fl_add(struct fl *f, FILE *m, char **key, uint64_t count)
{
	struct fl_row *v;

	if (fclose(m)) {
		free(*key);
		return -1;
	}
	if (f->n == f->cap) {
		v = reallocarray(f->v, f->cap ? 2 * f->cap : 256, sizeof(*v));
		if (!v) {
			free(*key);
			return -1;
		}
		f->v = v;
		f->cap = f->cap ? 2 * f->cap : 256;
	}
	f->v[f->n].key = *key;
	f->v[f->n++].count = count;
	return 0;
}

/* A key's first frames: the process (with --per-process), the object. */
static FILE *key_start(const struct profile *p, const struct profile_count *c,
		       const struct export_opts *o, char **key, size_t *len)
{
	FILE *m = open_memstream(key, len);
	const struct profile_process *pr;

	if (!m)
		return NULL;
	if (o->per_process && c->process < p->nprocesses) {
		pr = &p->processes[c->process];
		frame(m, pr->comm);
		fprintf(m, "-%d;", (int)pr->pid);
	}
	frame(m, p->objects[c->object].path);
	fputc(';', m);
	return m;
}

static int add_bin(struct fl *f, const struct profile *p,
		   const struct profile_count *c, const struct render_syms *s,
		   const struct export_opts *o, uint64_t addr, uint64_t count)
{
	struct export_site site;
	char *key = NULL;
	size_t len;
	FILE *m = key_start(p, c, o, &key, &len);

	if (!m)
		return -1;
	export_site(s, addr, &site);
	frame(m, site.func ? site.func->name : o->unknown);
	if (site.file) {
		fputc(';', m);
		frame(m, site.file);
		fprintf(m, ":%u", site.line);
	}
	return fl_add(f, m, &key, count);
}

static int add_count(struct fl *f, const struct profile *p,
		     const struct profile_count *c, const struct render_syms *s,
		     const struct export_opts *o)
{
	const struct hist_range *r;
	uint64_t lo, hi;
	char *key = NULL;
	size_t i, b, len;
	FILE *m;

	for (i = 0; i < c->hist.nranges; i++) {
		r = &c->hist.ranges[i];
		for (b = 0; b < r->nbins; b++) {
			if (!r->bins[b])
				continue;
			hist_bin_range(r, b, &lo, &hi);
			if (add_bin(f, p, c, s, o, lo, r->bins[b]))
				return -1;
		}
	}
	if (!c->uncovered)
		return 0;
	m = key_start(p, c, o, &key, &len);
	if (!m)
		return -1;
	frame(m, o->uncovered ? o->uncovered : "[not covered]");
	return fl_add(f, m, &key, c->uncovered);
}

static int cmp_row(const void *a, const void *b)
{
	return strcmp(((const struct fl_row *)a)->key,
		      ((const struct fl_row *)b)->key);
}

int render_folded(FILE *out, const struct profile *p,
		  const struct render_syms *syms, const struct export_opts *o)
{
	struct fl f = { .v = NULL };
	uint64_t sum;
	size_t i, j;
	int ret = -1;

	for (i = 0; i < p->ncounts; i++)
		if (add_count(&f, p, &p->counts[i], &syms[p->counts[i].object],
			      o))
			goto out;
	if (f.n > 1)
		qsort(f.v, f.n, sizeof(*f.v), cmp_row);
	for (i = 0; i < f.n; i = j) {
		sum = 0;
		for (j = i; j < f.n && !strcmp(f.v[j].key, f.v[i].key); j++)
			sum += f.v[j].count;
		fprintf(out, "%s %" PRIu64 "\n", f.v[i].key, sum);
	}
	ret = ferror(out) ? -1 : 0;
out:
	for (i = 0; i < f.n; i++)
		free(f.v[i].key);
	free(f.v);
	if (ret && !errno)
		errno = ENOMEM;
	return ret;
}
