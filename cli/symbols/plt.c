// SPDX-License-Identifier: GPL-2.0
/*
 * Names of PLT stubs (plt.h).
 *
 * .rela.plt has one R_X86_64_JUMP_SLOT per lazily bound function, in the
 * order of the stubs: with IBT (.plt.sec present) stub i is at
 * .plt.sec + i * entsize; without, .plt starts with one header entry and
 * stub i is at .plt + (i + 1) * entsize. A .plt.got stub (a function
 * bound at load time, its GOT slot relocated by .rela.dyn) is a
 * "jmp *disp32(%rip)" (ff 25), after an endbr64 and a bnd prefix with
 * IBT: the slot it jumps through names it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <gelf.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "plt.h"

struct plt_scn {
	Elf_Scn *scn;
	GElf_Shdr shdr;
};

static int find_scn(Elf *elf, const char *name, struct plt_scn *s)
{
	Elf_Scn *scn = NULL;
	size_t shstrndx;
	const char *n;

	memset(s, 0, sizeof(*s));
	if (elf_getshdrstrndx(elf, &shstrndx))
		return -1;
	while ((scn = elf_nextscn(elf, scn))) {
		if (!gelf_getshdr(scn, &s->shdr))
			continue;
		n = elf_strptr(elf, shstrndx, s->shdr.sh_name);
		if (n && !strcmp(n, name)) {
			s->scn = scn;
			return 0;
		}
	}
	return -1;
}

/* The name of dynamic symbol @idx of the symbol table section @symscn. */
static const char *dynsym_name(Elf *elf, const struct plt_scn *symscn,
			       size_t idx)
{
	Elf_Data *d = elf_getdata(symscn->scn, NULL);
	GElf_Sym sym;

	if (!d || !idx || !gelf_getsym(d, (int)idx, &sym) || !sym.st_name)
		return NULL;
	return elf_strptr(elf, symscn->shdr.sh_link, sym.st_name);
}

static int add_stub(struct plt_stub **v, size_t *n, uint64_t addr,
		    uint64_t size, const char *name)
{
	struct plt_stub *nv = realloc(*v, (*n + 1) * sizeof(**v));

	if (!nv)
		return -1;
	*v = nv;
	if (asprintf(&nv[*n].name, "%s@plt", name) < 0)
		return -1;
	nv[*n].addr = addr;
	nv[*n].size = size;
	(*n)++;
	return 0;
}

/* The JUMP_SLOT stubs of .plt or .plt.sec. */
static int jump_slots(Elf *elf, struct plt_stub **v, size_t *n)
{
	struct plt_scn rela, plt, symscn;
	uint64_t base, ent;
	Elf_Data *d;
	GElf_Rela r;
	const char *name;
	size_t i, nrela;
	bool sec;

	if (find_scn(elf, ".rela.plt", &rela) || !rela.shdr.sh_entsize)
		return 0;
	sec = !find_scn(elf, ".plt.sec", &plt);
	if (!sec && find_scn(elf, ".plt", &plt))
		return 0;
	symscn.scn = elf_getscn(elf, rela.shdr.sh_link);
	if (!symscn.scn || !gelf_getshdr(symscn.scn, &symscn.shdr))
		return 0;
	ent = plt.shdr.sh_entsize ? plt.shdr.sh_entsize : 16;
	base = plt.shdr.sh_addr + (sec ? 0 : ent);
	d = elf_getdata(rela.scn, NULL);
	nrela = rela.shdr.sh_size / rela.shdr.sh_entsize;
	for (i = 0; d && i < nrela; i++) {
		if (!gelf_getrela(d, (int)i, &r))
			break;
		if (base + (i + 1) * ent > plt.shdr.sh_addr + plt.shdr.sh_size)
			break;	/* not the layout we know */
		name = dynsym_name(elf, &symscn, GELF_R_SYM(r.r_info));
		if (name && add_stub(v, n, base + i * ent, ent, name) < 0)
			return -1;
	}
	return 0;
}

/* The GOT slot a .plt.got stub at @p (@len bytes, at @addr) jumps via. */
static int got_slot(const unsigned char *p, size_t len, uint64_t addr,
		    uint64_t *slot)
{
	int32_t disp;
	size_t i;

	for (i = 0; i + 6 <= len; i++) {
		if (p[i] != 0xff || p[i + 1] != 0x25)
			continue;
		memcpy(&disp, p + i + 2, sizeof(disp));
		*slot = addr + i + 6 + (int64_t)disp;
		return 0;
	}
	return -1;
}

/* The stubs of .plt.got, named by the .rela.dyn entry of their slot. */
static int got_stubs(Elf *elf, struct plt_stub **v, size_t *n)
{
	struct plt_scn got, rela, symscn;
	Elf_Data *code, *d;
	uint64_t ent, off, slot;
	size_t i, nrela;
	const char *name;
	GElf_Rela r;

	if (find_scn(elf, ".plt.got", &got) || find_scn(elf, ".rela.dyn",
							 &rela) ||
	    !rela.shdr.sh_entsize || got.shdr.sh_type != SHT_PROGBITS)
		return 0;
	symscn.scn = elf_getscn(elf, rela.shdr.sh_link);
	code = elf_getdata(got.scn, NULL);
	d = elf_getdata(rela.scn, NULL);
	if (!symscn.scn || !gelf_getshdr(symscn.scn, &symscn.shdr) || !code ||
	    !d || code->d_size < got.shdr.sh_size)
		return 0;
	ent = got.shdr.sh_entsize ? got.shdr.sh_entsize : 8;
	nrela = rela.shdr.sh_size / rela.shdr.sh_entsize;
	for (off = 0; off + ent <= got.shdr.sh_size; off += ent) {
		if (got_slot((const unsigned char *)code->d_buf + off, ent,
			     got.shdr.sh_addr + off, &slot))
			continue;
		for (i = 0; i < nrela; i++) {
			if (!gelf_getrela(d, (int)i, &r) || r.r_offset != slot)
				continue;
			name = dynsym_name(elf, &symscn, GELF_R_SYM(r.r_info));
			if (name && add_stub(v, n, got.shdr.sh_addr + off, ent,
					     name) < 0)
				return -1;
			break;
		}
	}
	return 0;
}

ssize_t plt_stubs(Elf *elf, struct plt_stub **out)
{
	GElf_Ehdr eh;
	size_t n = 0;

	*out = NULL;
	if (!gelf_getehdr(elf, &eh) || eh.e_machine != EM_X86_64)
		return 0;
	if (jump_slots(elf, out, &n) < 0 || got_stubs(elf, out, &n) < 0) {
		plt_stubs_free(*out, n);
		*out = NULL;
		errno = ENOMEM;
		return -1;
	}
	return (ssize_t)n;
}

void plt_stubs_free(struct plt_stub *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(v[i].name);
	free(v);
}
