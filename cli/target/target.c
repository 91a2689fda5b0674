// SPDX-License-Identifier: GPL-2.0
/*
 * A running process's main executable and memory.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

#include "procmaps.h"
#include "target.h"

/* The first executable PT_LOAD of the ELF file open on @fd. */
static int exec_segment(int fd, struct procmaps_segment *seg)
{
	GElf_Phdr ph;
	size_t n, i;
	Elf *elf;
	int err = -ENOEXEC;

	if (elf_version(EV_CURRENT) == EV_NONE)
		return -ENOEXEC;
	elf = elf_begin(fd, ELF_C_READ, NULL);
	if (!elf)
		return -ENOEXEC;
	if (elf_kind(elf) == ELF_K_ELF && !elf_getphdrnum(elf, &n)) {
		for (i = 0; i < n; i++) {
			if (!gelf_getphdr(elf, (int)i, &ph) ||
			    ph.p_type != PT_LOAD || !(ph.p_flags & PF_X))
				continue;
			seg->vaddr = ph.p_vaddr;
			seg->offset = ph.p_offset;
			seg->memsz = ph.p_memsz;
			err = 0;
			break;
		}
	}
	elf_end(elf);
	return err;
}

static int read_exe_link(pid_t pid, char **exe)
{
	char link[64], buf[PATH_MAX];
	ssize_t n;

	snprintf(link, sizeof(link), "/proc/%d/exe", (int)pid);
	n = readlink(link, buf, sizeof(buf) - 1);
	if (n < 0)
		return errno == ENOENT ? -ESRCH : -errno;
	buf[n] = '\0';
	*exe = strdup(buf);
	return *exe ? 0 : -ENOMEM;
}

int target_text(pid_t pid, struct target_text *t)
{
	struct procmaps_segment seg;
	struct procmaps_entry *maps;
	char link[64];
	size_t n;
	int fd, err;

	memset(t, 0, sizeof(*t));
	err = read_exe_link(pid, &t->exe);
	if (err)
		return err;
	snprintf(link, sizeof(link), "/proc/%d/exe", (int)pid);
	fd = open(link, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		err = errno == ENOENT ? -ESRCH : -errno;
		goto err_free;
	}
	err = exec_segment(fd, &seg);
	close(fd);
	if (err)
		goto err_free;
	if (procmaps_load(pid, &maps, &n) < 0) {
		err = -errno;
		goto err_free;
	}
	err = procmaps_text_bias(maps, n, t->exe, &seg,
				 (uint64_t)sysconf(_SC_PAGESIZE), &t->bias);
	free(maps);
	if (err) {
		err = -ENOENT;
		goto err_free;
	}
	t->start = seg.vaddr + t->bias;
	t->end = t->start + seg.memsz;
	return 0;
err_free:
	target_text_free(t);
	return err;
}

void target_text_free(struct target_text *t)
{
	free(t->exe);
	t->exe = NULL;
}

int target_read(pid_t pid, uint64_t addr, void *buf, size_t len)
{
	struct iovec local = { .iov_base = buf, .iov_len = len };
	struct iovec remote = { .iov_base = (void *)(uintptr_t)addr,
				.iov_len = len };
	ssize_t n = process_vm_readv(pid, &local, 1, &remote, 1, 0);

	if (n < 0)
		return -errno;
	return (size_t)n == len ? 0 : -EFAULT;
}
