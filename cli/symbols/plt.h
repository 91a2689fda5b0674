/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Names for the PLT: the stubs a call to another object goes through
 * (.plt, or .plt.sec with IBT, and .plt.got) are code no symbol names;
 * perf and objdump call them "name@plt" after the relocation of the GOT
 * slot each one jumps through, or after the IFUNC an IRELATIVE slot
 * resolves to. Read with libelf from the object's own file (.rela.plt,
 * .rela.dyn and .dynsym are never stripped). x86-64 layouts.
 */
#ifndef PROFIL_CTL_PLT_H
#define PROFIL_CTL_PLT_H

#include <libelf.h>
#include <stddef.h>
#include <stdint.h>

/**
 * struct plt_stub - one stub
 * @addr: its link-time address
 * @size: its size in bytes
 * @name: "function@plt", malloc'ed
 */
struct plt_stub {
	uint64_t addr;
	uint64_t size;
	char *name;
};

/**
 * plt_stubs() - the named PLT stubs of @elf
 * Return: their number, *@out (malloc'ed; free with plt_stubs_free()),
 * 0 if there are none or the layout is not one we know, or -1 with errno
 * ENOMEM.
 */
ssize_t plt_stubs(Elf *elf, struct plt_stub **out);

/** plt_stubs_free() - free @v of @n stubs. */
void plt_stubs_free(struct plt_stub *v, size_t n);

#endif /* PROFIL_CTL_PLT_H */
