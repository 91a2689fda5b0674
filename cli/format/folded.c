// SPDX-License-Identifier: GPL-2.0
/*
 * --format=folded (folded.h): every bin with samples gives one key,
 * "[COMM-PID;]OBJECT;FUNCTION[;FILE:LINE]"; equal keys are summed, by
 * what they name first, by their text last, and sorted.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "folded.h"

/*
 * One key before it is text: what it names, by pointer (symbol names
 * and file names are the symbol table's, one copy each), and its samples.
 * Bins are gathered as these, sorted and summed first, so that only one
 * string is made per distinct key, not one per bin.
 */
struct fl_row {
	const struct profile_count *c;
	const char *func;
	const char *file;
	unsigned int line;
	uint64_t count;
	char *key;
};

struct fl {
	struct fl_row *v;
	size_t n, cap;
};

static unsigned long long fl_keys_made;

unsigned long long folded_work(void)
{
	return fl_keys_made;
}

/* @s as one frame: no ';', which separates frames (spans, not bytes). */
static void frame(FILE *m, const char *s)
{
	size_t n;

	for (;;) {
		n = strcspn(s, ";\n");
		fwrite(s, 1, n, m);
		if (!s[n])
			return;
		fputc('_', m);
		s += n + 1;
	}
}

static int fl_add(struct fl *f, const struct profile_count *c,
		  const char *func, const char *file, unsigned int line,
		  uint64_t count)
{
	struct fl_row *v;

	if (f->n == f->cap) {
		v = reallocarray(f->v, f->cap ? 2 * f->cap : 256, sizeof(*v));
		if (!v)
			return -1;
		f->v = v;
		f->cap = f->cap ? 2 * f->cap : 256;
	}
	f->v[f->n++] = (struct fl_row){ .c = c, .func = func, .file = file,
					.line = line, .count = count };
	return 0;
}

static int add_count(struct fl *f, const struct profile_count *c,
		     const struct render_syms *s, const struct export_opts *o)
{
	const struct hist_range *r;
	struct export_site site;
	uint64_t lo, hi;
	size_t i, b;

	for (i = 0; i < c->hist.nranges; i++) {
		r = &c->hist.ranges[i];
		for (b = 0; b < r->nbins; b++) {
			if (!r->bins[b])
				continue;
			hist_bin_range(r, b, &lo, &hi);
			export_site(s, lo, &site);
			if (fl_add(f, c, site.func ? site.func->name :
				   o->unknown, site.file, site.line,
				   r->bins[b]))
				return -1;
		}
	}
	if (!c->uncovered)
		return 0;
	return fl_add(f, c, o->uncovered ? o->uncovered : "[not covered]",
		      NULL, 0, c->uncovered);
}

#define CMP(x, y) ((x) < (y) ? -1 : (x) > (y))

/* By what the key names, not its text: equal neighbours are one key. */
static int cmp_site(const void *a, const void *b)
{
	const struct fl_row *x = a, *y = b;

	if (x->c != y->c)
		return CMP((uintptr_t)x->c, (uintptr_t)y->c);
	if (x->func != y->func)
		return CMP((uintptr_t)x->func, (uintptr_t)y->func);
	if (x->file != y->file)
		return CMP((uintptr_t)x->file, (uintptr_t)y->file);
	return CMP(x->line, y->line);
}

/* The text of @r's key: "[COMM-PID;]OBJECT;FUNCTION[;FILE:LINE]". */
static char *key_text(const struct profile *p, const struct fl_row *r,
		      const struct export_opts *o)
{
	const struct profile_process *pr;
	char *key = NULL;
	size_t len;
	FILE *m = open_memstream(&key, &len);

	if (!m)
		return NULL;
	if (o->per_process && r->c->process < p->nprocesses) {
		pr = &p->processes[r->c->process];
		frame(m, pr->comm);
		fprintf(m, "-%d;", (int)pr->pid);
	}
	frame(m, p->objects[r->c->object].path);
	fputc(';', m);
	frame(m, r->func);
	if (r->file) {
		fputc(';', m);
		frame(m, r->file);
		fprintf(m, ":%u", r->line);
	}
	if (fclose(m)) {
		free(key);
		return NULL;
	}
	fl_keys_made++;
	return key;
}

/* Equal sites summed, then each one's text made. */
static int fl_keys(struct fl *f, const struct profile *p,
		   const struct export_opts *o)
{
	size_t i, j;

	if (f->n > 1)
		qsort(f->v, f->n, sizeof(*f->v), cmp_site);
	for (i = 0, j = 0; i < f->n; i++) {
		if (j && !cmp_site(&f->v[j - 1], &f->v[i]))
			f->v[j - 1].count += f->v[i].count;
		else
			f->v[j++] = f->v[i];
	}
	f->n = j;
	for (i = 0; i < f->n; i++) {
		f->v[i].key = key_text(p, &f->v[i], o);
		if (!f->v[i].key) {
			f->n = i;
			return -1;
		}
	}
	return 0;
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
		if (add_count(&f, &p->counts[i], &syms[p->counts[i].object], o))
			goto out;
	if (fl_keys(&f, p, o))
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
