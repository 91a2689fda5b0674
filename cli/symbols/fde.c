// SPDX-License-Identifier: GPL-2.0
/*
 * FDE ranges (fde.h): libdw walks the entries, eh_pe.c decodes the two
 * values it leaves encoded. Read once per object, with its symbols.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <elfutils/libdw.h>

#include "eh_pe.h"
#include "fde.h"

/* A CIE by its section offset, which an FDE's CIE_pointer gives. */
struct cie_at {
	Dwarf_Off off;
	Dwarf_CIE cie;
};

/* A growing array of @size-byte items: -1 on ENOMEM. */
static int grow(void **items, size_t *cap, size_t n, size_t size)
{
	size_t c = *cap ? 2 * *cap : 64;
	void *p;

	if (n < *cap)
		return 0;
	p = reallocarray(*items, c, size);
	if (!p)
		return -1;
	*items = p;
	*cap = c;
	return 0;
}

/* The section named @name with its bytes, or NULL. */
static Elf_Scn *find_section(Elf *elf, const char *name, GElf_Shdr *shdr)
{
	Elf_Scn *scn = NULL;
	const char *s;
	size_t shstrndx;

	if (elf_getshdrstrndx(elf, &shstrndx))
		return NULL;
	while ((scn = elf_nextscn(elf, scn))) {
		/* A compressed .debug_frame is not read: rare, and .eh_frame first. */
		if (!gelf_getshdr(scn, shdr) || shdr->sh_type == SHT_NOBITS ||
		    shdr->sh_flags & SHF_COMPRESSED)
			continue;
		s = elf_strptr(elf, shstrndx, shdr->sh_name);
		if (s && !strcmp(s, name))
			return scn;
	}
	return NULL;
}

/*
 * The PLT sections (.plt, .plt.got, .plt.sec) of @elf into @plt (at most
 * @max): their FDE covers a table of stubs, not a function (plt.c names
 * the stubs one by one). Return: how many.
 */
static size_t plt_sections(Elf *elf, struct fde_range *plt, size_t max)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr shdr;
	const char *s;
	size_t shstrndx, n = 0;

	if (elf_getshdrstrndx(elf, &shstrndx))
		return 0;
	while ((scn = elf_nextscn(elf, scn)) && n < max) {
		if (!gelf_getshdr(scn, &shdr) || !(shdr.sh_flags & SHF_ALLOC))
			continue;
		s = elf_strptr(elf, shstrndx, shdr.sh_name);
		if (s && !strncmp(s, ".plt", 4))
			plt[n++] = (struct fde_range){
				shdr.sh_addr, shdr.sh_addr + shdr.sh_size,
			};
	}
	return n;
}

static bool overlaps(const struct fde_range *r, const struct fde_range *set,
		     size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (r->lo < set[i].hi && r->hi > set[i].lo)
			return true;
	return false;
}

static const Dwarf_CIE *cie_find(const struct cie_at *cies, size_t n,
				 Dwarf_Off off)
{
	size_t i;

	/* Few CIEs (one or two per compilation unit's kind): linear. */
	for (i = n; i-- > 0;)
		if (cies[i].off == off)
			return &cies[i].cie;
	return NULL;
}

struct walk {
	struct eh_pe_ctx ctx;
	struct cie_at *cies;
	size_t ncies, ccies;
	struct fde_range *r;
	size_t n, cap;
};

/* One entry at @off; 1 at the table's end or an error libdw reports. */
static int walk_entry(struct walk *w, const unsigned char *ident,
		      Elf_Data *data, bool eh, Dwarf_Off *off)
{
	const Dwarf_CIE *cie;
	Dwarf_CFI_Entry e;
	Dwarf_Off next;
	uint64_t lo, hi;

	if (dwarf_next_cfi(ident, data, eh, *off, &next, &e))
		return 1;
	if (dwarf_cfi_cie_p(&e)) {
		if (grow((void **)&w->cies, &w->ccies, w->ncies,
			 sizeof(*w->cies)))
			return -1;
		w->cies[w->ncies++] = (struct cie_at){ *off, e.cie };
	} else {
		cie = cie_find(w->cies, w->ncies, e.fde.CIE_pointer);
		/* lo 0: an FDE of code the linker discarded. */
		if (cie && !eh_pe_fde_range(&w->ctx, cie, &e.fde, &lo, &hi) &&
		    lo && hi > lo) {
			if (grow((void **)&w->r, &w->cap, w->n, sizeof(*w->r)))
				return -1;
			w->r[w->n++] = (struct fde_range){ lo, hi };
		}
	}
	*off = next;
	return 0;
}

static int cmp_range(const void *a, const void *b)
{
	const struct fde_range *x = a, *y = b;

	if (x->lo != y->lo)
		return x->lo < y->lo ? -1 : 1;
	return (x->hi > y->hi) - (x->hi < y->hi);
}

/*
 * Sorted; a range that overlaps the one kept before it, or a PLT
 * section of @elf, dropped.
 */
static size_t sort_disjoint(Elf *elf, struct fde_range *r, size_t n)
{
	struct fde_range plt[4];
	size_t i, k = 0, nplt = plt_sections(elf, plt, 4);

	qsort(r, n, sizeof(*r), cmp_range);
	for (i = 0; i < n; i++)
		if ((!k || r[i].lo >= r[k - 1].hi) &&
		    !overlaps(&r[i], plt, nplt))
			r[k++] = r[i];
	return k;
}

/*
 * The FDEs of section @name of @elf into @w (none if it has no such
 * section). Return: 0, or -1 on ENOMEM.
 */
static int walk_section(struct walk *w, Elf *elf, const unsigned char *ident,
			const char *name, bool eh)
{
	Elf_Scn *scn;
	GElf_Shdr shdr;
	Elf_Data *data;
	Dwarf_Off off = 0;
	int rc;

	scn = find_section(elf, name, &shdr);
	data = scn ? elf_getdata(scn, NULL) : NULL;
	if (!data || !data->d_buf)
		return 0;
	w->ctx = (struct eh_pe_ctx){
		.ptr_size = ident[EI_CLASS] == ELFCLASS32 ? 4 : 8,
		.big_endian = ident[EI_DATA] == ELFDATA2MSB,
		.data = data->d_buf, .vaddr = shdr.sh_addr,
	};
	/* CIE offsets are the section's own. */
	w->ncies = 0;
	while (!(rc = walk_entry(w, ident, data, eh, &off)))
		;
	return rc < 0 ? -1 : 0;
}

ssize_t fde_ranges(Elf *elf, struct fde_range **out)
{
	const unsigned char *ident = (const unsigned char *)elf_getident(elf,
									 NULL);
	struct walk w = { 0 };
	int rc;

	*out = NULL;
	if (!ident)
		return 0;
	/*
	 * Both tables: code built without unwind tables (-g with
	 * -fno-asynchronous-unwind-tables) has its FDEs in .debug_frame
	 * only, while crt1.o's _start still brings an .eh_frame.
	 */
	rc = walk_section(&w, elf, ident, ".eh_frame", true);
	if (!rc)
		rc = walk_section(&w, elf, ident, ".debug_frame", false);
	free(w.cies);
	if (rc < 0) {
		free(w.r);
		errno = ENOMEM;
		return -1;
	}
	*out = w.r;
	return (ssize_t)sort_disjoint(elf, w.r, w.n);
}
