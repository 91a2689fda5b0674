/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What profil-ctl learns about a running process: where its main
 * executable's text is (runtime and link-time), and the contents of its
 * memory (process_vm_readv(), no stop needed).
 */
#ifndef PROFIL_CTL_TARGET_H
#define PROFIL_CTL_TARGET_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/**
 * struct target_text - the main executable's executable segment
 * @exe: the executable's path (readlink of /proc/PID/exe, malloc'ed)
 * @bias: runtime address minus link-time address (0 unless PIE)
 * @start, @end: the segment's runtime range [start, end)
 */
struct target_text {
	char *exe;
	uint64_t bias;
	uint64_t start;
	uint64_t end;
};

/**
 * target_text() - find the text of @pid's main executable
 *
 * The program headers come from /proc/PID/exe through libelf (so a
 * deleted or replaced file still answers), the bias from /proc/PID/maps.
 *
 * Return: 0, or -errno: ESRCH (no such process), EACCES/EPERM (no
 * access to its exe or maps), ENOEXEC (not an ELF file or no executable
 * segment), ENOENT (the segment is not mapped), ENOMEM.
 */
int target_text(pid_t pid, struct target_text *t);

/** target_text_free() - free @t->exe. */
void target_text_free(struct target_text *t);

/**
 * target_read() - copy [@addr, @addr + @len) of @pid's memory to @buf
 * with process_vm_readv() (needs ptrace attach access, not a stop)
 * Return: 0, or -errno: ESRCH, EPERM, EFAULT (not all mapped: a short
 * read), ENOMEM.
 */
int target_read(pid_t pid, uint64_t addr, void *buf, size_t len);

#endif /* PROFIL_CTL_TARGET_H */
