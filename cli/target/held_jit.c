// SPDX-License-Identifier: GPL-2.0
/*
 * A JIT's samples named by its perf map (held_jit.h). The map is read
 * when the profile is, at the end of run or at show and stop: the
 * process may have exited, but its map stays in /tmp until something
 * removes it, as perf report expects.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "held_jit.h"

/* @pid's entry, added (its map read) if new; NULL on ENOMEM. */
static struct held_jit *jit_of(struct held_jits *j, struct profile *p,
			       pid_t pid)
{
	struct held_jit *v, *e;
	char name[40];
	size_t i;

	for (i = 0; i < j->n; i++)
		if (j->v[i].pid == pid)
			return &j->v[i];
	v = reallocarray(j->v, j->n + 1, sizeof(*v));
	if (!v)
		return NULL;
	j->v = v;
	e = &v[j->n];
	memset(e, 0, sizeof(*e));
	e->pid = pid;
	e->object = -1;
	if (perfmap_read(pid, &e->map) || !e->map.n) {
		j->n++;		/* no map (or an empty one): "[anon]" */
		return e;
	}
	e->used = calloc(e->map.n, sizeof(*e->used));
	snprintf(name, sizeof(name), "[JIT] pid %d", (int)pid);
	if (e->used)
		e->object = profile_object_add(p, name, NULL);
	j->n++;
	return e->object < 0 ? NULL : e;
}

/* The function holding @addr, marked used. */
static void mark(struct held_jit *e, uint64_t addr)
{
	const struct sym_func *f = perfmap_find(&e->map, addr);

	if (f)
		e->used[f - e->map.funcs] = true;
}

ssize_t held_jit_object(struct held_jits *j, struct profile *p, pid_t pid,
			uint64_t addr, ssize_t anon)
{
	struct held_jit *e = jit_of(j, p, pid);

	if (!e) {
		errno = ENOMEM;
		return -1;
	}
	if (e->object < 0)
		return anon;
	mark(e, addr);
	if (j->bin_bytes > 1)
		mark(e, addr - addr % j->bin_bytes);
	return e->object;
}

int held_jit_finish(struct held_jits *j, struct profile *p)
{
	const struct sym_func *f;
	struct held_jit *e;
	size_t i, k;
	int ret = 0;

	for (i = 0; i < j->n && !ret; i++) {
		e = &j->v[i];
		for (k = 0; k < e->map.n && e->object >= 0 && !ret; k++) {
			f = &e->map.funcs[k];
			if (e->used[k])
				ret = profile_object_add_func(p, (size_t)e->object,
							      f->addr, f->end,
							      f->name);
		}
	}
	held_jits_free(j);
	return ret;
}

void held_jits_free(struct held_jits *j)
{
	size_t i;

	for (i = 0; i < j->n; i++) {
		perfmap_free(&j->v[i].map);
		free(j->v[i].used);
	}
	free(j->v);
	j->v = NULL;
	j->n = 0;
}
