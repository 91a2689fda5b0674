// SPDX-License-Identifier: GPL-2.0
/*
 * A whole-program profile as gmon.out files, one per object
 * (profile_write_gmon(), profile_report.h), through render_gmon().
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ctl.h"
#include "profile_report.h"
#include "render.h"

/* The names given so far, to tell a clash. */
struct names {
	char **v;
	size_t n;
};

static bool taken(const struct names *t, const char *name)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		if (!strcmp(t->v[i], name))
			return true;
	return false;
}

/*
 * The file of object @o: @path for the main executable, else
 * @path.<base name>; ".2", ".3", ... after a name already taken.
 */
static char *gmon_name(struct names *t, const char *path,
		       const struct profile_object *o, bool main_exe)
{
	const char *base = strrchr(o->path, '/');
	char *stem = NULL, *name = NULL, **nv;
	unsigned int k;

	base = base ? base + 1 : o->path;
	if (main_exe ? !(stem = strdup(path)) :
	    asprintf(&stem, "%s.%s", path, base) < 0)
		return NULL;
	for (k = 1;; k++) {
		if (k == 1 ? !(name = strdup(stem)) :
		    asprintf(&name, "%s.%u", stem, k) < 0) {
			name = NULL;
			break;
		}
		if (!taken(t, name))
			break;
		free(name);
	}
	free(stem);
	if (!name)
		return NULL;
	nv = realloc(t->v, (t->n + 1) * sizeof(*nv));
	if (!nv) {
		free(name);
		return NULL;
	}
	t->v = nv;
	t->v[t->n++] = name;
	return name;
}


static int write_one(const char *name, const struct profile_count *c,
		     const struct profile *p, const char *cmd)
{
	struct hist h = c->hist;
	FILE *f;
	int ret;

	if (p->rate)
		h.rate = p->rate;
	f = fopen(name, "wbe");
	if (!f) {
		ctl_errorf(cmd, "%s: %s", name, strerror(errno));
		return -1;
	}
	ret = render_gmon(f, &h);
	if (fclose(f))
		ret = -1;
	if (ret) {
		ctl_errorf(cmd, "%s: %s", name, strerror(errno));
		unlink(name);
	}
	return ret;
}

/* The object @k's count in the merged @m, or NULL. */
static const struct profile_count *count_of(const struct profile *m, size_t k)
{
	size_t i;

	for (i = 0; i < m->ncounts; i++)
		if (m->counts[i].object == k)
			return &m->counts[i];
	return NULL;
}

/* Object @k to its file, if it has a histogram: 0, or -1. */
static int write_object(struct names *t, const char *path,
			const struct profile *m, size_t k, bool main_exe,
			const char *cmd)
{
	const struct profile_count *c = count_of(m, k);
	const char *name;

	if (!c || (!hist_total(&c->hist) && !main_exe))
		return 0;
	if (!c->hist.nranges) {
		fprintf(stderr, "profil-ctl: %s: %s: no gmon.out: its %" PRIu64
			" samples are not covered by a histogram\n", cmd,
			m->objects[k].path, c->uncovered);
		return 0;
	}
	name = gmon_name(t, path, &m->objects[k], main_exe);
	if (!name) {
		ctl_perror(cmd);
		return -1;
	}
	if (write_one(name, c, m, cmd))
		return -1;
	fprintf(stderr, "profil-ctl: %s: %s: gmon.out of %s\n", cmd, name,
		m->objects[k].path);
	return 0;
}

int profile_write_gmon(const char *path, const struct profile *p,
		       const char *cmd)
{
	struct profile m = { .rate = 0 };
	struct names t = { .v = NULL };
	ssize_t main_k;
	size_t i;
	int ret = 0;

	if (profile_merge_processes(p, &m)) {
		ctl_perror(cmd);
		return -1;
	}
	main_k = profile_main_object(&m);
	if (main_k >= 0)
		ret = write_object(&t, path, &m, (size_t)main_k, true, cmd);
	for (i = 0; !ret && i < m.nobjects; i++)
		if ((ssize_t)i != main_k)
			ret = write_object(&t, path, &m, i, false, cmd);
	for (i = 0; i < t.n; i++)
		free(t.v[i]);
	free(t.v);
	profile_free(&m);
	return ret;
}
