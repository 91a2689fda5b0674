// SPDX-License-Identifier: GPL-2.0
/*
 * /proc/PID/maps parsing. The format is fs/proc/task_mmu.c's
 * show_map_vma(): "start-end perms offset major:minor inode", padded, then
 * the path (which may contain spaces) or nothing.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "procmaps.h"

int procmaps_parse_line(const char *line, struct procmaps_entry *e)
{
	unsigned long long start, end, offset, inode;
	unsigned int major, minor;
	const char *p;
	char perms[5];
	size_t len;
	int used = 0;

	if (sscanf(line, "%llx-%llx %4s %llx %x:%x %llu%n", &start, &end,
		   perms, &offset, &major, &minor, &inode, &used) != 7 ||
	    !used || start > end || strlen(perms) != 4)
		goto invalid;
	p = line + used;
	if (*p && *p != ' ' && *p != '\n')
		goto invalid;	/* e.g. trailing junk glued to the inode */
	while (*p == ' ')
		p++;
	len = strcspn(p, "\n");
	if (len >= sizeof(e->path)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	e->start = start;
	e->end = end;
	memcpy(e->perms, perms, sizeof(perms));
	e->offset = offset;
	e->dev_major = major;
	e->dev_minor = minor;
	e->inode = inode;
	memcpy(e->path, p, len);
	e->path[len] = '\0';
	return 0;
invalid:
	errno = EINVAL;
	return -1;
}

int procmaps_load(pid_t pid, struct procmaps_entry **v, size_t *n)
{
	struct procmaps_entry *vec = NULL, *grown;
	size_t cap = 0, cnt = 0, linecap = 0;
	char path[64], *line = NULL;
	int err = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return errno == ENOENT ? (errno = ESRCH, -1) : -1;
	while (getline(&line, &linecap, f) > 0) {
		if (cnt == cap) {
			cap = cap ? 2 * cap : 64;
			grown = realloc(vec, cap * sizeof(*vec));
			if (!grown) {
				err = ENOMEM;
				break;
			}
			vec = grown;
		}
		if (procmaps_parse_line(line, &vec[cnt]) < 0) {
			err = errno;
			break;
		}
		cnt++;
	}
	if (!err && ferror(f))
		err = errno ? errno : EIO;
	free(line);
	fclose(f);
	if (err) {
		free(vec);
		errno = err;
		return -1;
	}
	*v = vec;
	*n = cnt;
	return 0;
}

int procmaps_find_pid(pid_t pid, const char *path, struct procmaps_entry *e)
{
	struct procmaps_entry *v;
	size_t n, i;

	if (procmaps_load(pid, &v, &n) < 0)
		return -1;
	for (i = 0; i < n; i++)
		if (!strcmp(v[i].path, path)) {
			*e = v[i];
			free(v);
			return 0;
		}
	free(v);
	errno = ENOENT;
	return -1;
}

int procmaps_text_bias(const struct procmaps_entry *v, size_t n,
		       const char *path, const struct procmaps_segment *seg,
		       uint64_t page_size, uint64_t *bias)
{
	uint64_t mask = page_size - 1;
	size_t i;

	if (!page_size || (page_size & mask)) {
		errno = EINVAL;
		return -1;
	}
	for (i = 0; i < n; i++) {
		if (strcmp(v[i].path, path) || v[i].perms[2] != 'x' ||
		    v[i].offset != (seg->offset & ~mask))
			continue;
		*bias = v[i].start - (seg->vaddr & ~mask);
		return 0;
	}
	errno = ENOENT;
	return -1;
}
