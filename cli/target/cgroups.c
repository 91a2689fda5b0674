// SPDX-License-Identifier: GPL-2.0
/*
 * The cgroup v2 directories by inode number (cgroups.h): one walk of
 * the tree with openat() and fdopendir(), so that depth, not the length
 * of a path, bounds it; then sorted for a binary search.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cgroups.h"

static int cgroups_add(struct cgroups *cg, uint64_t ino, const char *path)
{
	struct cgroup_dir *v;
	size_t cap;

	if (cg->n >= CGROUPS_MAX_DIRS)
		return 0;
	if (cg->n == cg->cap) {
		cap = cg->cap ? 2 * cg->cap : 64;
		v = reallocarray(cg->v, cap, sizeof(*v));
		if (!v)
			return -1;
		cg->v = v;
		cg->cap = cap;
	}
	cg->v[cg->n].path = strdup(path);
	if (!cg->v[cg->n].path)
		return -1;
	cg->v[cg->n++].ino = ino;
	return 0;
}

/* Directory @fd (closed here), @path below the root, and those below it. */
static int walk(struct cgroups *cg, int fd, const char *path, int depth)
{
	struct dirent *d;
	struct stat st;
	char *sub;
	DIR *dir;
	int cfd, ret = 0;

	if (fstat(fd, &st) < 0) {
		close(fd);
		return 0;
	}
	if (cgroups_add(cg, (uint64_t)st.st_ino, path)) {
		close(fd);
		return -1;
	}
	dir = depth < CGROUPS_MAX_DEPTH ? fdopendir(fd) : NULL;
	if (!dir) {
		close(fd);
		return 0;
	}
	while (!ret && (d = readdir(dir))) {
		if (d->d_type != DT_DIR && d->d_type != DT_UNKNOWN)
			continue;
		if (!strcmp(d->d_name, ".") || !strcmp(d->d_name, ".."))
			continue;
		cfd = openat(dirfd(dir), d->d_name,
			     O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (cfd < 0)
			continue; /* a file, or gone meanwhile */
		if (asprintf(&sub, "%s/%s", path[1] ? path : "", d->d_name) <
		    0) {
			close(cfd);
			ret = -1;
			break;
		}
		ret = walk(cg, cfd, sub, depth + 1);
		free(sub);
	}
	closedir(dir);
	return ret;
}

static int cmp_ino(const void *a, const void *b)
{
	const struct cgroup_dir *x = a, *y = b;

	return x->ino < y->ino ? -1 : x->ino > y->ino;
}

int cgroups_load(struct cgroups *cg, const char *root)
{
	int fd;

	cgroups_free(cg);
	fd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	if (walk(cg, fd, "/", 0)) {
		cgroups_free(cg);
		errno = ENOMEM;
		return -1;
	}
	qsort(cg->v, cg->n, sizeof(*cg->v), cmp_ino);
	return 0;
}

const char *cgroups_find(const struct cgroups *cg, uint64_t id)
{
	size_t lo = 0, hi = cg->n, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (cg->v[mid].ino == id)
			return cg->v[mid].path;
		if (cg->v[mid].ino < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

void cgroups_free(struct cgroups *cg)
{
	size_t i;

	for (i = 0; i < cg->n; i++)
		free(cg->v[i].path);
	free(cg->v);
	memset(cg, 0, sizeof(*cg));
}
