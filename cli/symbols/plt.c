// SPDX-License-Identifier: GPL-2.0
/*
 * Names of PLT stubs (plt.h).
 *
 * Each stub is an indirect jump through a GOT slot: "jmp *disp32(%rip)"
 * (ff 25), after an endbr64 and a bnd prefix with IBT. The relocation
 * that fills that slot names the stub, as objdump's synthetic symbols do:
 * an R_X86_64_JUMP_SLOT (.rela.plt) or a GLOB_DAT (.rela.dyn, for
 * .plt.got) names its dynamic symbol; an R_X86_64_IRELATIVE, a call to a
 * local IFUNC such as libc's own strlen, has no symbol but its addend is
 * the IFUNC's resolver, so the stub takes the name of the symbol there.
 *
 * The slot, not the stub's index, is the key: the linker does not keep
 * .rela.plt in stub order once IRELATIVE entries are mixed in (libc.so.6
 * of Debian 12: stub 0 jumps through the slot of .rela.plt entry 32).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <gelf.h>
#include <inttypes.h>
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

/* One relocation of a GOT slot, with the symbol table it refers to. */
struct slot_reloc {
	GElf_Rela rela;
	Elf_Scn *symscn;
};

struct slot_relocs {
	struct slot_reloc *v;
	size_t n;
};

/* Append the relocations of section @name, if it has any. */
static int read_relocs(Elf *elf, const char *name, struct slot_relocs *r)
{
	struct slot_reloc *nv;
	struct plt_scn s;
	size_t i, n;
	Elf_Data *d;

	if (find_scn(elf, name, &s) || s.shdr.sh_type != SHT_RELA ||
	    !s.shdr.sh_entsize)
		return 0;
	d = elf_getdata(s.scn, NULL);
	n = s.shdr.sh_size / s.shdr.sh_entsize;
	if (!d || !n)
		return 0;
	nv = realloc(r->v, (r->n + n) * sizeof(*nv));
	if (!nv)
		return -1;
	r->v = nv;
	for (i = 0; i < n; i++) {
		if (!gelf_getrela(d, (int)i, &nv[r->n].rela))
			break;
		nv[r->n++].symscn = elf_getscn(elf, s.shdr.sh_link);
	}
	return 0;
}

static int cmp_reloc(const void *a, const void *b)
{
	const struct slot_reloc *x = a, *y = b;

	if (x->rela.r_offset != y->rela.r_offset)
		return x->rela.r_offset < y->rela.r_offset ? -1 : 1;
	return 0;
}

static const struct slot_reloc *slot_find(const struct slot_relocs *r,
					  uint64_t slot)
{
	struct slot_reloc key = { .rela.r_offset = slot };

	return bsearch(&key, r->v, r->n, sizeof(*r->v), cmp_reloc);
}

/* The name of symbol @idx of the symbol table section @symscn. */
static const char *sym_name(Elf *elf, Elf_Scn *symscn, size_t idx)
{
	Elf_Data *d = symscn ? elf_getdata(symscn, NULL) : NULL;
	GElf_Shdr shdr;
	GElf_Sym sym;

	if (!d || !idx || !gelf_getshdr(symscn, &shdr) ||
	    !gelf_getsym(d, (int)idx, &sym) || !sym.st_name)
		return NULL;
	return elf_strptr(elf, shdr.sh_link, sym.st_name);
}

/*
 * How good a name @sym is for the IFUNC at an IRELATIVE addend: an IFUNC
 * symbol over a plain function, global over local, no leading '_'
 * ("strnlen", not "__strnlen").
 */
static int ifunc_rank(const GElf_Sym *sym, const char *name)
{
	return (GELF_ST_TYPE(sym->st_info) == STT_GNU_IFUNC ? 4 : 0) +
	       (GELF_ST_BIND(sym->st_info) != STB_LOCAL ? 2 : 0) +
	       (name[0] != '_');
}

/* The best-named function symbol at @addr in @symscn, or NULL. */
static const char *func_at(Elf *elf, Elf_Scn *symscn, uint64_t addr)
{
	Elf_Data *d = elf_getdata(symscn, NULL);
	const char *n, *best = NULL;
	int type, rank, best_rank = -1;
	GElf_Shdr shdr;
	GElf_Sym sym;
	size_t i;

	if (!d || !gelf_getshdr(symscn, &shdr) || !shdr.sh_entsize)
		return best;
	for (i = 1; i < shdr.sh_size / shdr.sh_entsize; i++) {
		if (!gelf_getsym(d, (int)i, &sym) || sym.st_value != addr ||
		    sym.st_shndx == SHN_UNDEF || !sym.st_name)
			continue;
		type = GELF_ST_TYPE(sym.st_info);
		if (type != STT_FUNC && type != STT_GNU_IFUNC)
			continue;
		n = elf_strptr(elf, shdr.sh_link, sym.st_name);
		if (!n || !*n)
			continue;
		rank = ifunc_rank(&sym, n);
		if (rank > best_rank ||
		    (rank == best_rank && strcmp(n, best) < 0)) {
			best_rank = rank;
			best = n;
		}
	}
	return best;
}

/* "name@plt" for the stub whose slot @r relocates, or NULL (ENOMEM: -1). */
static int stub_name(Elf *elf, const struct slot_reloc *r, char **out)
{
	static const char *const tables[] = { ".dynsym", ".symtab" };
	const char *name = sym_name(elf, r->symscn, GELF_R_SYM(r->rela.r_info));
	uint64_t addend = (uint64_t)r->rela.r_addend;
	struct plt_scn s;
	size_t i;
	int len;

	*out = NULL;
	if (!name && GELF_R_TYPE(r->rela.r_info) != R_X86_64_IRELATIVE)
		return 0;
	for (i = 0; !name && i < sizeof(tables) / sizeof(tables[0]); i++)
		if (!find_scn(elf, tables[i], &s))
			name = func_at(elf, s.scn, addend);
	if (name)
		len = asprintf(out, "%s@plt", name);
	else	/* objdump's name for it */
		len = asprintf(out, "*ABS*+%#" PRIx64 "@plt", addend);
	return len < 0 ? -1 : 0;
}

/* The GOT slot a stub at @p (@len bytes, at @addr) jumps through. */
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

static int add_stub(struct plt_stub **v, size_t *n, uint64_t addr,
		    uint64_t size, char *name)
{
	struct plt_stub *nv = realloc(*v, (*n + 1) * sizeof(**v));

	if (!nv) {
		free(name);
		return -1;
	}
	*v = nv;
	nv[*n] = (struct plt_stub){ .addr = addr, .size = size, .name = name };
	(*n)++;
	return 0;
}

/*
 * The stubs of section @name, @defent bytes each unless it says: those
 * whose slot a relocation names. .plt's header entry jumps through a
 * slot no relocation fills, and with IBT .plt holds no jumps at all.
 */
static int section_stubs(Elf *elf, const char *name, uint64_t defent,
			 const struct slot_relocs *r, struct plt_stub **v,
			 size_t *n)
{
	const struct slot_reloc *rel;
	struct plt_scn s;
	uint64_t ent, off, slot;
	Elf_Data *code;
	char *sname;

	if (find_scn(elf, name, &s) || s.shdr.sh_type != SHT_PROGBITS)
		return 0;
	code = elf_getdata(s.scn, NULL);
	if (!code || code->d_size < s.shdr.sh_size)
		return 0;
	ent = s.shdr.sh_entsize ? s.shdr.sh_entsize : defent;
	for (off = 0; off + ent <= s.shdr.sh_size; off += ent) {
		if (got_slot((const unsigned char *)code->d_buf + off, ent,
			     s.shdr.sh_addr + off, &slot))
			continue;
		rel = slot_find(r, slot);
		if (!rel)
			continue;
		if (stub_name(elf, rel, &sname) < 0)
			return -1;
		if (sname && add_stub(v, n, s.shdr.sh_addr + off, ent,
				      sname) < 0)
			return -1;
	}
	return 0;
}

ssize_t plt_stubs(Elf *elf, struct plt_stub **out)
{
	struct slot_relocs r = { 0 };
	GElf_Ehdr eh;
	size_t n = 0;
	int err;

	*out = NULL;
	if (!gelf_getehdr(elf, &eh) || eh.e_machine != EM_X86_64)
		return 0;
	err = read_relocs(elf, ".rela.plt", &r) ||
	      read_relocs(elf, ".rela.dyn", &r);
	if (!err) {
		qsort(r.v, r.n, sizeof(*r.v), cmp_reloc);
		err = section_stubs(elf, ".plt", 16, &r, out, &n) ||
		      section_stubs(elf, ".plt.sec", 16, &r, out, &n) ||
		      section_stubs(elf, ".plt.got", 8, &r, out, &n);
	}
	free(r.v);
	if (err) {
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
