// SPDX-License-Identifier: GPL-2.0
/*
 * The profile model: objects, processes, their counts (profile.h).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profile.h"

static void free_funcs(struct profile_object *o)
{
	size_t i;

	for (i = 0; i < o->nfuncs; i++)
		free(o->funcs[i].name);
	free(o->funcs);
	o->funcs = NULL;
	o->nfuncs = 0;
}

void profile_free(struct profile *p)
{
	size_t i;

	if (!p)
		return;
	for (i = 0; i < p->nobjects; i++) {
		free(p->objects[i].path);
		free(p->objects[i].build_id);
		free(p->objects[i].symfile);
		free_funcs(&p->objects[i]);
	}
	for (i = 0; i < p->nprocesses; i++) {
		free(p->processes[i].exe);
		free(p->processes[i].cgroup);
	}
	for (i = 0; i < p->ncounts; i++)
		hist_free(&p->counts[i].hist);
	free(p->objects);
	free(p->processes);
	free(p->counts);
	free(p->command);
	memset(p, 0, sizeof(*p));
}

int profile_object_add_func(struct profile *p, size_t object, uint64_t addr,
			    uint64_t end, const char *name)
{
	struct profile_object *o = object < p->nobjects ?
				   &p->objects[object] : NULL;
	struct profile_func *f;

	if (!o || addr >= end ||
	    (o->nfuncs && addr < o->funcs[o->nfuncs - 1].end)) {
		errno = EINVAL;
		return -1;
	}
	f = reallocarray(o->funcs, o->nfuncs + 1, sizeof(*f));
	if (!f)
		return -1;
	o->funcs = f;
	f = &f[o->nfuncs];
	f->name = strndup(name, PROFILE_FUNC_NAME_MAX);
	if (!f->name)
		return -1;
	f->addr = addr;
	f->end = end;
	o->nfuncs++;
	return 0;
}

/* @from's functions to object @k of @to, which has none. */
static int copy_funcs(struct profile *to, size_t k,
		      const struct profile_object *from)
{
	size_t i;

	if (to->objects[k].nfuncs)
		return 0;
	for (i = 0; i < from->nfuncs; i++)
		if (profile_object_add_func(to, k, from->funcs[i].addr,
					    from->funcs[i].end,
					    from->funcs[i].name))
			return -1;
	return 0;
}

int profile_set_command(struct profile *p, char *const *argv, size_t n)
{
	char *buf = NULL;
	size_t len = 0, i;
	const char *a;
	FILE *m = open_memstream(&buf, &len);

	if (!m)
		return -1;
	for (i = 0; i < n; i++) {
		if (i)
			fputc(' ', m);
		if (argv[i][0] && !argv[i][strcspn(argv[i], " \t\n'\"\\")]) {
			fputs(argv[i], m);
			continue;
		}
		fputc('\'', m);
		for (a = argv[i]; *a; a++)
			fputs(*a == '\'' ? "'\\''" : (char[]){ *a, 0 }, m);
		fputc('\'', m);
	}
	if (fclose(m)) {
		free(buf);
		return -1;
	}
	free(p->command);
	p->command = buf;
	return 0;
}

void profile_acct_unknown(struct profile_acct *a)
{
	a->ticks = PROFILE_UNKNOWN;
	a->missed = PROFILE_UNKNOWN;
	a->kernel = PROFILE_UNKNOWN;
	a->outside = PROFILE_UNKNOWN;
	a->deferred = PROFILE_UNKNOWN;
	a->saturated = PROFILE_UNKNOWN;
	a->lost = PROFILE_UNKNOWN;
	a->lost_exec = PROFILE_UNKNOWN;
}

static void acct_add1(uint64_t *a, uint64_t b)
{
	if (*a == PROFILE_UNKNOWN || b == PROFILE_UNKNOWN)
		*a = PROFILE_UNKNOWN;
	else
		*a += b;
}

void profile_acct_add(struct profile_acct *a, const struct profile_acct *b)
{
	acct_add1(&a->ticks, b->ticks);
	acct_add1(&a->missed, b->missed);
	acct_add1(&a->kernel, b->kernel);
	acct_add1(&a->outside, b->outside);
	acct_add1(&a->deferred, b->deferred);
	acct_add1(&a->saturated, b->saturated);
	acct_add1(&a->lost, b->lost);
	acct_add1(&a->lost_exec, b->lost_exec);
}

/* Make room for one more element of @size in *@v holding @n. */
static int grow(void **v, size_t n, size_t size)
{
	void *nv;

	if (n & (n - 1) && n > 8)
		return 0;	/* not a power of two: room is left */
	nv = realloc(*v, (n < 8 ? 8 : 2 * n) * size);
	if (!nv)
		return -1;
	*v = nv;
	return 0;
}

static bool same_str(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

ssize_t profile_object_add(struct profile *p, const char *path,
			   const char *build_id)
{
	struct profile_object *o;
	size_t i;

	for (i = 0; i < p->nobjects; i++)
		if (!strcmp(p->objects[i].path, path) &&
		    same_str(p->objects[i].build_id, build_id))
			return (ssize_t)i;
	if (grow((void **)&p->objects, p->nobjects, sizeof(*o)) < 0)
		return -1;
	o = &p->objects[p->nobjects];
	memset(o, 0, sizeof(*o));
	o->path = strdup(path);
	o->build_id = build_id ? strdup(build_id) : NULL;
	if (!o->path || (build_id && !o->build_id)) {
		free(o->path);
		free(o->build_id);
		errno = ENOMEM;
		return -1;
	}
	return (ssize_t)p->nobjects++;
}

ssize_t profile_process_add(struct profile *p, pid_t pid, pid_t ppid,
			    const char *comm, const char *exe)
{
	struct profile_process *pr;

	if (grow((void **)&p->processes, p->nprocesses, sizeof(*pr)) < 0)
		return -1;
	pr = &p->processes[p->nprocesses];
	memset(pr, 0, sizeof(*pr));
	pr->pid = pid;
	pr->ppid = ppid;
	if (comm)
		snprintf(pr->comm, sizeof(pr->comm), "%s", comm);
	if (exe) {
		pr->exe = strdup(exe);
		if (!pr->exe)
			return -1;
	}
	return (ssize_t)p->nprocesses++;
}

int profile_process_set_cgroup(struct profile *p, size_t process,
			       const char *path)
{
	char *c = path ? strdup(path) : NULL;

	if (path && !c)
		return -1;
	free(p->processes[process].cgroup);
	p->processes[process].cgroup = c;
	return 0;
}

struct profile_count *profile_count_get(struct profile *p, size_t process,
					size_t object)
{
	size_t i;

	for (i = 0; i < p->ncounts; i++)
		if (p->counts[i].process == process &&
		    p->counts[i].object == object)
			return &p->counts[i];
	return profile_count_add(p, process, object);
}

struct profile_count *profile_count_add(struct profile *p, size_t process,
					size_t object)
{
	struct profile_count *c;

	if (grow((void **)&p->counts, p->ncounts, sizeof(*c)) < 0)
		return NULL;
	c = &p->counts[p->ncounts++];
	memset(c, 0, sizeof(*c));
	c->process = process;
	c->object = object;
	return c;
}

uint64_t profile_count_total(const struct profile_count *c)
{
	return hist_total(&c->hist) + c->uncovered;
}

#define PROFILE_ANY ((size_t)-2)

/* The samples of the counts of @object and @process (PROFILE_ANY: all). */
static uint64_t profile_sum(const struct profile *p, size_t object,
			    size_t process)
{
	const struct profile_count *c;
	uint64_t n = 0;
	size_t i;

	for (i = 0; i < p->ncounts; i++) {
		c = &p->counts[i];
		if ((object == PROFILE_ANY || c->object == object) &&
		    (process == PROFILE_ANY || c->process == process))
			n += profile_count_total(c);
	}
	return n;
}

uint64_t profile_total(const struct profile *p)
{
	return profile_sum(p, PROFILE_ANY, PROFILE_ANY);
}

uint64_t profile_object_total(const struct profile *p, size_t object)
{
	return profile_sum(p, object, PROFILE_ANY);
}

uint64_t profile_process_total(const struct profile *p, size_t process)
{
	return profile_sum(p, PROFILE_ANY, process);
}

/* Add the ranges and arcs of @from to @to; the rate is the first's. */
static int hist_sum(struct hist *to, const struct hist *from)
{
	if (hist_merge(to, from) < 0)
		return -1;
	if (!to->rate)
		to->rate = from->rate;
	return 0;
}

int profile_merge_processes(const struct profile *p, struct profile *out)
{
	struct profile_count *c;
	size_t i;

	memset(out, 0, sizeof(*out));
	if (p->command && !(out->command = strdup(p->command)))
		return -1;
	out->rate = p->rate;
	out->bin_bytes = p->bin_bytes;
	out->acct = p->acct;
	for (i = 0; i < p->nobjects; i++) {
		const struct profile_object *o = &p->objects[i];

		if (profile_object_add(out, o->path, o->build_id) < 0)
			goto err;
		if (o->symfile) {
			out->objects[i].symfile = strdup(o->symfile);
			if (!out->objects[i].symfile)
				goto err;
		}
		if (copy_funcs(out, i, o))
			goto err;
	}
	for (i = 0; i < p->nprocesses; i++) {
		const struct profile_process *pr = &p->processes[i];

		if (profile_process_add(out, pr->pid, pr->ppid, pr->comm,
					pr->exe) < 0 ||
		    profile_process_set_cgroup(out, i, pr->cgroup))
			goto err;
		out->processes[i].acct = pr->acct;
	}
	for (i = 0; i < p->ncounts; i++) {
		c = profile_count_get(out, PROFILE_ALL_PROCESSES,
				      p->counts[i].object);
		if (!c || hist_sum(&c->hist, &p->counts[i].hist) < 0)
			goto err;
		c->uncovered += p->counts[i].uncovered;
	}
	return 0;
err:
	profile_free(out);
	return -1;
}

ssize_t profile_main_object(const struct profile *p)
{
	size_t i;

	if (!p->nprocesses || !p->processes[0].exe)
		return -1;
	for (i = 0; i < p->nobjects; i++)
		if (!strcmp(p->objects[i].path, p->processes[0].exe))
			return (ssize_t)i;
	return -1;
}

/*
 * The object of @to that is @o: the same build-id when both have one,
 * else the same path; added if none is.
 */
static ssize_t merge_object(struct profile *to,
			    const struct profile_object *o)
{
	const struct profile_object *t;
	ssize_t k;
	size_t i;

	for (i = 0; i < to->nobjects; i++) {
		t = &to->objects[i];
		if (t->build_id && o->build_id ?
		    !strcmp(t->build_id, o->build_id) :
		    !strcmp(t->path, o->path))
			return copy_funcs(to, i, o) ? -1 : (ssize_t)i;
	}
	k = profile_object_add(to, o->path, o->build_id);
	if (k >= 0 && o->symfile && !to->objects[k].symfile) {
		to->objects[k].symfile = strdup(o->symfile);
		if (!to->objects[k].symfile)
			return -1;
	}
	if (k >= 0 && copy_funcs(to, (size_t)k, o))
		return -1;
	return k;
}

int profile_merge(struct profile *to, const struct profile *from)
{
	size_t *omap, i, base = to->nprocesses;
	struct profile_count *c;
	ssize_t k;
	int ret = -1;

	if (!to->command && from->command &&
	    !(to->command = strdup(from->command)))
		return -1;
	if (!to->nprocesses && !to->nobjects) {
		to->rate = from->rate;
		to->bin_bytes = from->bin_bytes;
		to->acct = from->acct;
	} else {
		profile_acct_add(&to->acct, &from->acct);
	}
	omap = calloc(from->nobjects + 1, sizeof(*omap));
	if (!omap)
		return -1;
	for (i = 0; i < from->nobjects; i++) {
		k = merge_object(to, &from->objects[i]);
		if (k < 0)
			goto out;
		omap[i] = (size_t)k;
	}
	for (i = 0; i < from->nprocesses; i++) {
		const struct profile_process *pr = &from->processes[i];

		k = profile_process_add(to, pr->pid, pr->ppid, pr->comm,
					pr->exe);
		if (k < 0 || profile_process_set_cgroup(to, (size_t)k,
							pr->cgroup))
			goto out;
		to->processes[k].acct = pr->acct;
	}
	for (i = 0; i < from->ncounts; i++) {
		const struct profile_count *f = &from->counts[i];

		c = profile_count_add(to, f->process == PROFILE_ALL_PROCESSES ?
				      f->process : base + f->process,
				      omap[f->object]);
		if (!c || hist_sum(&c->hist, &f->hist) < 0)
			goto out;
		c->uncovered = f->uncovered;
	}
	ret = 0;
out:
	free(omap);
	return ret;
}
