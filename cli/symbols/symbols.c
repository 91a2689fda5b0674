// SPDX-License-Identifier: GPL-2.0
/*
 * Function and line symbolization through libdwfl, which finds the
 * symbol table (.symtab, .gnu_debugdata, separate debuginfo, .dynsym)
 * and DWARF for us; nothing here parses ELF or DWARF by hand. The DWARF
 * lookups are in symbols_dwarf.c; C++ names are demangled by
 * demangle.c.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <inttypes.h>
#include <search.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <elfutils/libdwfl.h>

#include "demangle.h"
#include "fde.h"
#include "plt.h"
#include "symbols.h"
#include "symbols_dwarf.h"

struct symtab {
	Dwfl *dwfl;
	Dwfl_Module *mod;
	GElf_Addr bias;		/* dwfl address = link-time + bias */
	unsigned int ptr_size;
	struct sym_func *funcs;
	size_t nfuncs;
	char **misses;		/* debuginfo lookups that found nothing */
	size_t nmisses;
	void *strings;		/* tsearch() tree: the names we made */
};

/*
 * libdwfl looks for a module's separate debuginfo (build-id, debuglink,
 * then debuginfod when DEBUGINFOD_URLS is set) once for its symbol table
 * and again for its DWARF when the first look found nothing: it caches
 * only what it found. Each look can be a debuginfod query, so remember
 * the misses, by debuglink name (the main lookup passes the file's
 * .gnu_debuglink, or none; a dwz alt file lookup passes its name).
 */
static int find_debuginfo_once(Dwfl_Module *mod, void **userdata,
			       const char *modname, Dwarf_Addr base,
			       const char *file_name,
			       const char *debuglink_file,
			       GElf_Word debuglink_crc,
			       char **debuginfo_file_name)
{
	struct symtab *st = *userdata;
	const char *key = debuglink_file ? debuglink_file : "";
	char **nm;
	size_t i;
	int fd;

	for (i = 0; st && i < st->nmisses; i++)
		if (!strcmp(st->misses[i], key))
			return -1;
	fd = dwfl_standard_find_debuginfo(mod, userdata, modname, base,
					  file_name, debuglink_file,
					  debuglink_crc, debuginfo_file_name);
	if (fd >= 0 || !st)
		return fd;
	nm = realloc(st->misses, (st->nmisses + 1) * sizeof(*nm));
	if (!nm)
		return fd;
	st->misses = nm;
	nm[st->nmisses] = strdup(key);
	if (nm[st->nmisses])
		st->nmisses++;
	return fd;
}

static const Dwfl_Callbacks symtab_callbacks = {
	.find_elf = dwfl_build_id_find_elf,
	.find_debuginfo = find_debuginfo_once,
	.section_address = dwfl_offline_section_address,
};

static void symtab_free_misses(struct symtab *st)
{
	size_t i;

	for (i = 0; i < st->nmisses; i++)
		free(st->misses[i]);
	free(st->misses);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(a, b);
}

/*
 * Keeps the malloc'ed string @s until symtab_close(), once: an equal one
 * kept before is returned instead and @s freed. NULL on ENOMEM (@s
 * freed) or if @s is NULL.
 */
static const char *symtab_keep(struct symtab *st, char *s)
{
	char **node;

	if (!s)
		return NULL;
	node = tsearch(s, &st->strings, cmp_str);
	if (!node) {
		free(s);
		return NULL;
	}
	if (*node != s)
		free(s);
	return *node;
}

/* C++ names demangled; others as they are. */
static void demangle_funcs(struct symtab *st)
{
	const char *d;
	size_t i;

	for (i = 0; i < st->nfuncs; i++) {
		d = symtab_keep(st, demangle(st->funcs[i].name));
		if (d)
			st->funcs[i].name = d;
	}
}

static bool is_function(const GElf_Sym *s)
{
	int type = GELF_ST_TYPE(s->st_info);

	return (type == STT_FUNC || type == STT_GNU_IFUNC) &&
	       s->st_shndx != SHN_UNDEF;
}

/* A function symbol, before aliases are merged and bounds are set. */
struct func_sym {
	uint64_t addr;
	uint64_t size;
	const char *name;
	int rank;
};

/*
 * gprof's preference among aliases: global over local, no leading '_'
 * (a C++ mangled name, "_Z...", counts as one without); and before that
 * underscore rule, a plain name over a compat one, "name@VERSION" (the
 * symbol table's name of a non-default version: glibc's
 * cfree@GLIBC_2.2.5 is an old alias of free, never its name).
 */
static int alias_rank(const char *name, bool global)
{
	return (global ? 4 : 0) + (strchr(name, '@') ? 0 : 2) +
	       (name[0] != '_' || !strncmp(name, "_Z", 2));
}

static int cmp_sym(const void *a, const void *b)
{
	const struct func_sym *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	if (x->rank != y->rank)
		return x->rank > y->rank ? -1 : 1;	/* best alias first */
	return strcmp(x->name, y->name);
}

/* End of the section holding link-time @addr, or 0 if none. */
static uint64_t section_end(struct symtab *st, uint64_t addr)
{
	Dwarf_Addr a = addr + st->bias, bias;
	Elf_Scn *scn = dwfl_module_address_section(st->mod, &a, &bias);
	GElf_Shdr shdr;

	if (!scn || !gelf_getshdr(scn, &shdr))
		return 0;
	return addr - a + shdr.sh_size;
}

/*
 * The end of the function at link-time @addr: its ELF size, else the
 * range of its DWARF subprogram, else @addr (bounds unknown: it gets no
 * samples). Never past the end of its section.
 */
static uint64_t func_end(struct symtab *st, uint64_t addr, uint64_t size)
{
	uint64_t end = addr, sec = section_end(st, addr);
	Dwarf_Addr dw;

	if (size)
		end = size > UINT64_MAX - addr ? UINT64_MAX : addr + size;
	else if (!symbols_dwarf_func_end(st->mod, addr + st->bias, &dw) &&
		 dw > addr + st->bias)
		end = dw - st->bias;
	if (sec > addr && end > sec)
		end = sec;
	return end;
}

/* The function symbols of the module (aux .gnu_debugdata ones too). */
static size_t collect_syms(struct symtab *st, struct func_sym *syms, int n)
{
	GElf_Addr addr;
	const char *name;
	GElf_Sym sym;
	size_t k = 0;
	int i;

	for (i = 1; i < n; i++) {
		name = dwfl_module_getsym_info(st->mod, i, &sym, &addr, NULL,
					       NULL, NULL);
		if (!name || !*name || !is_function(&sym) || addr < st->bias)
			continue;
		syms[k++] = (struct func_sym){
			.addr = addr - st->bias, .size = sym.st_size,
			.name = name,
			.rank = alias_rank(name, GELF_ST_BIND(sym.st_info) !=
					   STB_LOCAL),
		};
	}
	return k;
}

/*
 * One function per address (the best alias's name, the largest size),
 * with its bounds (func_end()). Where a function starts inside the one
 * before it, that one ends there; a symbol without bounds inside a
 * function is a label in it, not a function of its own.
 */
static void set_bounds(struct symtab *st, const struct func_sym *syms,
		       size_t n)
{
	size_t i, j, k = 0;
	uint64_t size, end;

	for (i = 0; i < n; i = j) {
		size = syms[i].size;
		for (j = i + 1; j < n && syms[j].addr == syms[i].addr; j++)
			if (syms[j].size > size)
				size = syms[j].size;
		end = func_end(st, syms[i].addr, size);
		if (k && st->funcs[k - 1].end > syms[i].addr) {
			if (end == syms[i].addr)
				continue;
			st->funcs[k - 1].end = syms[i].addr;
		}
		st->funcs[k++] = (struct sym_func){
			.addr = syms[i].addr, .end = end, .name = syms[i].name,
		};
	}
	st->nfuncs = k;
}

/*
 * The PLT stubs as functions named "name@plt", as perf and objdump name
 * them; lowest rank, so a real symbol at the same address wins.
 */
static int collect_plt(struct symtab *st, struct plt_stub *stubs, ssize_t ns,
		       struct func_sym *syms, size_t *k, size_t n)
{
	const char *name;
	ssize_t i;

	for (i = 0; i < ns && *k < n; i++) {
		name = symtab_keep(st, stubs[i].name);
		stubs[i].name = NULL;	/* kept, or freed */
		if (!name)
			break;
		syms[(*k)++] = (struct func_sym){
			.addr = stubs[i].addr, .size = stubs[i].size,
			.name = name, .rank = -1,
		};
	}
	return i < ns ? -1 : 0;
}

/* Whether [@lo, @hi) touches a function of @st, bounded or not. */
static bool overlaps_func(const struct symtab *st, uint64_t lo, uint64_t hi)
{
	size_t a = 0, b = st->nfuncs, m;

	/* The first function that ends after @lo (ends ascend: disjoint). */
	while (a < b) {
		m = a + (b - a) / 2;
		if (st->funcs[m].end > lo ||
		    (st->funcs[m].end == st->funcs[m].addr &&
		     st->funcs[m].addr >= lo))
			b = m;
		else
			a = m + 1;
	}
	return a < st->nfuncs && st->funcs[a].addr < hi;
}

/* The FDE range [@r->lo, @r->hi) as a function named "OBJECT+0xLO". */
static int fde_func(struct symtab *st, const char *base,
		    const struct fde_range *r, struct sym_func *f)
{
	char *name;

	if (asprintf(&name, "%s+0x%" PRIx64, base, r->lo) < 0)
		return -1;
	*f = (struct sym_func){
		.addr = r->lo, .end = r->hi, .flags = SYM_FUNC_FDE,
		.name = symtab_keep(st, name),
	};
	return f->name ? 0 : -1;
}

/*
 * The FDE ranges outside every function, merged into st->funcs in
 * address order. A range that touches a symbol's function (or a symbol
 * without bounds) is left out: the symbol says more, and a range cut
 * around it would not be one function.
 */
static int add_fde_funcs(struct symtab *st, Elf *elf, const char *object)
{
	const char *base = strrchr(object, '/');
	struct fde_range *r;
	struct sym_func *all;
	size_t i, j = 0, k = 0;
	ssize_t n = fde_ranges(elf, &r);

	if (n <= 0)
		return n < 0 ? -1 : 0;
	base = base ? base + 1 : object;
	all = calloc(st->nfuncs + (size_t)n, sizeof(*all));
	if (!all)
		goto err;
	for (i = 0; i < (size_t)n; i++) {
		if (overlaps_func(st, r[i].lo, r[i].hi))
			continue;
		while (j < st->nfuncs && st->funcs[j].addr < r[i].lo)
			all[k++] = st->funcs[j++];
		if (fde_func(st, base, &r[i], &all[k++]))
			goto err;
	}
	while (j < st->nfuncs)
		all[k++] = st->funcs[j++];
	free(r);
	free(st->funcs);
	st->funcs = all;
	st->nfuncs = k;
	return 0;
err:
	free(all);
	free(r);
	return -1;
}

static int symtab_load_funcs(struct symtab *st, Elf *elf)
{
	int n = dwfl_module_getsymtab(st->mod);
	struct plt_stub *stubs;
	struct func_sym *syms;
	ssize_t nplt;
	size_t k, max;

	nplt = plt_stubs(elf, &stubs);
	if (nplt < 0)
		return -1;
	max = (n > 0 ? (size_t)n : 0) + (size_t)nplt;
	if (!max)
		return 0;	/* stripped, no PLT: no symbols */
	syms = calloc(max, sizeof(*syms));
	st->funcs = calloc(max, sizeof(*st->funcs));
	k = syms && st->funcs && n > 0 ? collect_syms(st, syms, n) : 0;
	if (!syms || !st->funcs ||
	    collect_plt(st, stubs, nplt, syms, &k, max) < 0) {
		plt_stubs_free(stubs, (size_t)nplt);
		free(syms);
		return -1;
	}
	plt_stubs_free(stubs, (size_t)nplt);
	qsort(syms, k, sizeof(*syms), cmp_sym);
	set_bounds(st, syms, k);
	free(syms);
	demangle_funcs(st);
	return 0;
}

struct symtab *symtab_open(const char *path, char *err, size_t errlen)
{
	return symtab_open_as(path, path, err, errlen);
}

struct symtab *symtab_open_as(const char *path, const char *object, char *err,
			      size_t errlen)
{
	struct symtab *st = calloc(1, sizeof(*st));
	void **userdata;
	Elf *elf;
	int fd;

	if (!st) {
		snprintf(err, errlen, "%s", strerror(ENOMEM));
		return NULL;
	}
	/* Open it ourselves first: a clear errno for a missing file. */
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		snprintf(err, errlen, "%s", strerror(errno));
		goto err_free;
	}
	st->dwfl = dwfl_begin(&symtab_callbacks);
	if (!st->dwfl) {
		close(fd);
		goto err_dwfl;
	}
	/* dwfl_report_offline takes over @fd. */
	st->mod = dwfl_report_offline(st->dwfl, "", path, fd);
	if (!st->mod || dwfl_report_end(st->dwfl, NULL, NULL))
		goto err_dwfl;
	/* For find_debuginfo_once(), before anything looks for debuginfo. */
	dwfl_module_info(st->mod, &userdata, NULL, NULL, NULL, NULL, NULL,
			 NULL);
	*userdata = st;
	elf = dwfl_module_getelf(st->mod, &st->bias);
	if (!elf)
		goto err_dwfl;
	st->ptr_size = gelf_getclass(elf) == ELFCLASS32 ? 4 : 8;
	if (symtab_load_funcs(st, elf) || add_fde_funcs(st, elf, object)) {
		snprintf(err, errlen, "%s", strerror(ENOMEM));
		goto err_end;
	}
	return st;

err_dwfl:
	snprintf(err, errlen, "%s", dwfl_errmsg(-1));
err_end:
	if (st->dwfl)
		dwfl_end(st->dwfl);
err_free:
	symtab_free_misses(st);
	tdestroy(st->strings, free);
	free(st->funcs);
	free(st);
	return NULL;
}

struct symtab *symtab_of_funcs(const struct sym_func *funcs, size_t n)
{
	struct symtab *st = calloc(1, sizeof(*st));
	size_t i;

	if (!st)
		return NULL;
	st->ptr_size = 8;
	st->funcs = calloc(n ? n : 1, sizeof(*st->funcs));
	if (!st->funcs)
		goto err;
	for (i = 0; i < n; i++) {
		st->funcs[i] = funcs[i];
		st->funcs[i].name = symtab_keep(st, strdup(funcs[i].name));
		if (!st->funcs[i].name)
			goto err;
	}
	st->nfuncs = n;
	return st;
err:
	symtab_close(st);
	errno = ENOMEM;
	return NULL;
}

void symtab_close(struct symtab *st)
{
	if (!st)
		return;
	dwfl_end(st->dwfl);
	symtab_free_misses(st);
	tdestroy(st->strings, free);
	free(st->funcs);
	free(st);
}

const struct sym_func *symtab_funcs(const struct symtab *st, size_t *n)
{
	*n = st->nfuncs;
	return st->funcs;
}

int symtab_build_id(const struct symtab *st, char *buf, size_t len)
{
	const unsigned char *bits;
	GElf_Addr vaddr;
	int n, i;

	if (!st->mod)
		return -1;	/* symtab_of_funcs(): no file */
	n = dwfl_module_build_id(st->mod, &bits, &vaddr);
	if (n <= 0 || len < 2 * (size_t)n + 1)
		return -1;
	for (i = 0; i < n; i++)
		snprintf(buf + 2 * i, 3, "%02x", bits[i]);
	return 0;
}

unsigned int symtab_ptr_size(const struct symtab *st)
{
	return st->ptr_size;
}

int symtab_src(struct symtab *st, uint64_t addr, struct sym_line *l)
{
	Dwfl_Line *dl = st->mod ? dwfl_module_getsrc(st->mod, addr + st->bias) :
				  NULL;
	const char *src;
	int lineno = 0;

	if (!dl)
		return -1;
	src = dwfl_lineinfo(dl, NULL, &lineno, NULL, NULL, NULL);
	if (!src || lineno <= 0)
		return -1;
	l->file = src;
	l->line = (unsigned int)lineno;
	l->func = NULL;
	return 0;
}

int symtab_segment(const struct symtab *st, uint64_t addr, uint64_t *vaddr,
		   uint64_t *offset)
{
	GElf_Phdr mem, *ph;
	GElf_Addr bias;
	size_t n, i;
	Elf *elf = st->mod ? dwfl_module_getelf(st->mod, &bias) : NULL;

	if (!elf || elf_getphdrnum(elf, &n))
		return -1;
	for (i = 0; i < n; i++) {
		ph = gelf_getphdr(elf, (int)i, &mem);
		if (ph && ph->p_type == PT_LOAD && addr >= ph->p_vaddr &&
		    addr < ph->p_vaddr + ph->p_memsz) {
			*vaddr = ph->p_vaddr;
			*offset = ph->p_offset;
			return 0;
		}
	}
	return -1;
}

/* DWARF scope walks so far (symtab_scope_work()). */
static unsigned long long scope_walks;

unsigned long long symtab_scope_work(void)
{
	return scope_walks;
}

int symtab_line(struct symtab *st, uint64_t addr, struct sym_line *l)
{
	if (symtab_src(st, addr, l))
		return -1;
	scope_walks++;
	l->func = symtab_keep(st, symbols_dwarf_func(st->mod,
						      addr + st->bias));
	return 0;
}

const struct sym_func *sym_func_find(const struct sym_func *funcs, size_t n,
				     uint64_t addr)
{
	size_t lo = 0, hi = n, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (addr < funcs[mid].addr)
			hi = mid;
		else if (addr >= funcs[mid].end)
			lo = mid + 1;
		else
			return &funcs[mid];
	}
	return NULL;
}
