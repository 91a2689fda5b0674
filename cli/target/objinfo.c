// SPDX-License-Identifier: GPL-2.0
/*
 * Build-ids and load segments of mapped ELF objects (objinfo.h).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <elfutils/libdwelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "objinfo.h"

static char *hex(const unsigned char *p, size_t n)
{
	char *s = malloc(2 * n + 1);
	size_t i;

	if (!s)
		return NULL;
	for (i = 0; i < n; i++)
		sprintf(s + 2 * i, "%02x", p[i]);
	s[2 * n] = '\0';
	return s;
}

/* Fill @o from the ELF file @file; a file that is not one is no error. */
static int objinfo_read(struct objinfo *o, const char *file)
{
	const void *id;
	GElf_Phdr ph;
	size_t i, n;
	ssize_t len;
	Elf *elf;
	int fd, ret = 0;

	if (elf_version(EV_CURRENT) == EV_NONE)
		return 0;
	fd = open(file, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	elf = elf_begin(fd, ELF_C_READ, NULL);
	if (!elf || elf_kind(elf) != ELF_K_ELF || elf_getphdrnum(elf, &n))
		goto out;
	o->segs = calloc(n ? n : 1, sizeof(*o->segs));
	if (!o->segs) {
		ret = -1;
		goto out;
	}
	for (i = 0; i < n; i++) {
		if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_LOAD)
			continue;
		o->segs[o->nsegs++] = (struct objinfo_seg){
			.offset = ph.p_offset,
			.filesz = ph.p_filesz,
			.vaddr = ph.p_vaddr,
		};
	}
	o->elf = true;
	len = dwelf_elf_gnu_build_id(elf, &id);
	if (len > 0) {
		o->build_id = hex(id, (size_t)len);
		if (!o->build_id)
			ret = -1;
	}
out:
	elf_end(elf);
	close(fd);
	return ret;
}

const struct objinfo *objcache_get(struct objcache *c,
				   const struct procmaps_entry *e,
				   const char *file)
{
	return objcache_get_file(c, e->dev_major, e->dev_minor, e->inode,
				 e->path, file);
}

const struct objinfo *objcache_get_file(struct objcache *c,
					unsigned int dev_major,
					unsigned int dev_minor, uint64_t inode,
					const char *path, const char *file)
{
	uint64_t dev = (uint64_t)dev_major << 32 | dev_minor;
	struct objinfo *v, *o;
	size_t i;

	for (i = 0; i < c->n; i++)
		if (c->v[i].dev == dev && c->v[i].inode == inode &&
		    !strcmp(c->v[i].path, path))
			return &c->v[i];
	v = realloc(c->v, (c->n + 1) * sizeof(*v));
	if (!v)
		return NULL;
	c->v = v;
	o = &c->v[c->n];
	memset(o, 0, sizeof(*o));
	o->dev = dev;
	o->inode = inode;
	o->path = strdup(path);
	if (!o->path || objinfo_read(o, file) < 0) {
		free(o->path);
		free(o->segs);
		errno = ENOMEM;
		return NULL;
	}
	c->n++;
	return o;
}

uint64_t objinfo_link_addr(const struct objinfo *o, uint64_t offset)
{
	const struct objinfo_seg *s;
	size_t i;

	for (i = 0; i < o->nsegs; i++) {
		s = &o->segs[i];
		if (offset >= s->offset && offset - s->offset < s->filesz)
			return s->vaddr + offset - s->offset;
	}
	return offset;
}

void objcache_free(struct objcache *c)
{
	size_t i;

	for (i = 0; i < c->n; i++) {
		free(c->v[i].path);
		free(c->v[i].build_id);
		free(c->v[i].segs);
	}
	free(c->v);
	memset(c, 0, sizeof(*c));
}

int objinfo_bias(const struct objinfo *o, const struct procmaps_entry *e,
		 uint64_t *bias)
{
	uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE);
	const struct objinfo_seg *s;
	size_t i;

	for (i = 0; i < o->nsegs; i++) {
		s = &o->segs[i];
		/*
		 * The kernel maps a segment from its offset rounded down to
		 * a page, so the mapping's offset may lie a little before it.
		 */
		if (e->offset + page > s->offset &&
		    e->offset < s->offset + s->filesz) {
			/* File offset X is at runtime e->start + X - e->offset
			 * and at link time s->vaddr + X - s->offset.
			 */
			*bias = e->start - e->offset - s->vaddr + s->offset;
			return 0;
		}
	}
	return -1;
}
