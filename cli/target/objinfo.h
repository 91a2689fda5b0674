/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What profil-ctl needs to know of an ELF object a process maps: its
 * build-id, and where its loadable segments lie in the file and at link
 * time, which turn a runtime PC of one of its mappings into a link-time
 * address. Read once per file with libelf (and libdwelf for the
 * build-id) and kept in a cache for the whole run.
 */
#ifndef PROFIL_CTL_OBJINFO_H
#define PROFIL_CTL_OBJINFO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "procmaps.h"

/**
 * struct objinfo - one ELF file
 * @path: the path it was read from
 * @dev, @inode: the file's identity, as /proc/PID/maps shows it
 * @build_id: the GNU build-id in hex, or NULL
 * @elf: the file is an ELF object (else: no segments, no build-id)
 * @segs, @nsegs: its PT_LOAD program headers (file offset, vaddr, size)
 */
struct objinfo {
	char *path;
	uint64_t dev;
	uint64_t inode;
	char *build_id;
	bool elf;
	struct objinfo_seg {
		uint64_t offset;
		uint64_t filesz;
		uint64_t vaddr;
	} *segs;
	size_t nsegs;
};

/** struct objcache - every objinfo read during one run */
struct objcache {
	struct objinfo *v;
	size_t n;
};

/**
 * objcache_get() - the objinfo of the file @e maps, read on first use
 * from @file (the path to open: @e->path, or a copy of the vDSO)
 * Return: it (valid until objcache_free()), or NULL with errno ENOMEM.
 * A file that cannot be read or is not ELF gives an entry with !elf.
 */
const struct objinfo *objcache_get(struct objcache *c,
				   const struct procmaps_entry *e,
				   const char *file);

/**
 * objcache_get_file() - objcache_get() of the file @path on device
 * @dev_major:@dev_minor with inode @inode, read from @file
 */
const struct objinfo *objcache_get_file(struct objcache *c,
					unsigned int dev_major,
					unsigned int dev_minor, uint64_t inode,
					const char *path, const char *file);

/**
 * objinfo_link_addr() - the link-time address of file offset @offset of
 * @o: in the PT_LOAD segment that holds it; @offset itself if none does
 * (not ELF, or past every segment's file contents)
 */
uint64_t objinfo_link_addr(const struct objinfo *o, uint64_t offset);

/** objcache_free() - free every entry. */
void objcache_free(struct objcache *c);

/**
 * objinfo_bias() - runtime minus link-time address of the mapping @e of
 * the object @o: the PT_LOAD that holds @e's file offset says which
 * link-time address the mapping's start has
 * Return: 0, or -1 if no PT_LOAD holds that offset (or @o is not ELF).
 */
int objinfo_bias(const struct objinfo *o, const struct procmaps_entry *e,
		 uint64_t *bias);

#endif /* PROFIL_CTL_OBJINFO_H */
