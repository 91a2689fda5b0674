/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The cgroup v2 directories of the machine by inode number: the kernel
 * names an image's cgroup by its id, which is the st_ino of its
 * directory under the cgroup2 mount (/sys/fs/cgroup). profil-ctl serve
 * labels samples with the path the id names.
 */
#ifndef PROFIL_CTL_CGROUPS_H
#define PROFIL_CTL_CGROUPS_H

#include <stddef.h>
#include <stdint.h>

/* Where cgroup v2 is mounted, as systemd mounts it. */
#define CGROUPS_ROOT "/sys/fs/cgroup"

/* The deepest directory walked below the root, and the most kept. */
#define CGROUPS_MAX_DEPTH 64
#define CGROUPS_MAX_DIRS 1000000

/**
 * struct cgroup_dir - one cgroup
 * @ino: its directory's inode number: the kernel's cgroup id
 * @path: its path below the root, "/" for the root itself, "/a/b"
 */
struct cgroup_dir {
	uint64_t ino;
	char *path;
};

/**
 * struct cgroups - every cgroup found under a root, sorted by @ino
 * @v, @n: the cgroups
 * @cap: room in @v
 */
struct cgroups {
	struct cgroup_dir *v;
	size_t n;
	size_t cap;
};

/**
 * cgroups_load() - replace @cg's cgroups by those under @root (a cgroup2
 * mount, or any directory tree: the tests'); directories that cannot be
 * read are skipped, as are those deeper than CGROUPS_MAX_DEPTH. A root
 * that does not exist leaves @cg empty.
 * Return: 0, or -1 with errno ENOMEM (@cg is then empty).
 */
int cgroups_load(struct cgroups *cg, const char *root);

/**
 * cgroups_find() - the path of the cgroup of id @id
 * Return: it (valid until the next cgroups_load() or cgroups_free()), or
 * NULL if none has that id (0, a cgroup removed since, no cgroup2).
 */
const char *cgroups_find(const struct cgroups *cg, uint64_t id);

/** cgroups_free() - free what @cg holds and empty it. */
void cgroups_free(struct cgroups *cg);

#endif /* PROFIL_CTL_CGROUPS_H */
