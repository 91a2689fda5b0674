/* SPDX-License-Identifier: GPL-2.0 */
/*
 * /proc/PID/maps: parsing one line (pure), finding mappings, and the load
 * bias of the main executable's text from its mappings and its program
 * headers (pure).
 */
#ifndef PROFIL_CTL_PROCMAPS_H
#define PROFIL_CTL_PROCMAPS_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/**
 * struct procmaps_entry - one line of /proc/PID/maps
 * @start, @end: the mapping [start, end)
 * @perms: "rwxp"-style, NUL-terminated
 * @offset: file offset of @start
 * @dev_major, @dev_minor, @inode: the file's device and inode (0 if none)
 * @path: the pathname column, possibly empty, "[vdso]", or ending in
 *	" (deleted)"
 */
struct procmaps_entry {
	uint64_t start;
	uint64_t end;
	char perms[5];
	uint64_t offset;
	unsigned int dev_major;
	unsigned int dev_minor;
	uint64_t inode;
	char path[PATH_MAX];
};

/**
 * procmaps_parse_line() - parse one line (with or without its newline)
 * Return: 0, or -1 with errno EINVAL (malformed, or start > end) or
 * ENAMETOOLONG.
 */
int procmaps_parse_line(const char *line, struct procmaps_entry *e);

/**
 * procmaps_load() - every mapping of @pid, in address order
 * Return: 0 with *@v (malloc'ed) and *@n, or -1 with errno (ESRCH if the
 * process is gone, EACCES, ENOMEM, EINVAL for a malformed line).
 */
int procmaps_load(pid_t pid, struct procmaps_entry **v, size_t *n);

/**
 * procmaps_find_pid() - the first mapping of @pid whose path is @path
 * Return: 0, or -1 with errno ENOENT (none) or procmaps_load()'s.
 */
int procmaps_find_pid(pid_t pid, const char *path,
		      struct procmaps_entry *e);

/**
 * struct procmaps_segment - the parts of a PT_LOAD program header that
 * say where the kernel maps it
 */
struct procmaps_segment {
	uint64_t vaddr;
	uint64_t offset;
	uint64_t memsz;
};

/**
 * procmaps_text_bias() - load bias of the executable segment @seg of the
 * file mapped as @path
 * @v, @n: the mappings
 * @path: the executable's path as the maps show it
 * @seg: its executable PT_LOAD
 * @page_size: the page size the kernel mapped it with
 * @bias: out: runtime address minus link-time address
 *
 * The kernel maps the segment's first page, file offset
 * offset & ~(page_size - 1), executable, at (vaddr & ~(page_size - 1)) +
 * bias; the mapping with that offset and an 'x' is the one.
 *
 * Return: 0, or -1 with errno ENOENT (no such mapping) or EINVAL
 * (@page_size not a power of two).
 */
int procmaps_text_bias(const struct procmaps_entry *v, size_t n,
		       const char *path, const struct procmaps_segment *seg,
		       uint64_t page_size, uint64_t *bias);

#endif /* PROFIL_CTL_PROCMAPS_H */
