/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Symbols of an ELF file through elfutils' libdwfl: its functions (the
 * .symtab, else .dynsym, including separate debuginfo and MiniDebugInfo)
 * and source lines (DWARF). Addresses are link-time, as in struct hist.
 */
#ifndef PROFIL_CTL_SYMBOLS_H
#define PROFIL_CTL_SYMBOLS_H

#include <stddef.h>
#include <stdint.h>

/**
 * struct sym_func - one function, as a renderer sees it
 * @addr: entry (link-time)
 * @end: end of its bounds (exclusive): @addr plus its ELF symbol's size,
 *	else the end of its DWARF subprogram's range that starts at @addr,
 *	else @addr itself (bounds unknown: no address is inside). Padding
 *	between functions, and code no symbol names (a static function
 *	stripped to .dynsym), is inside none
 * @name: its name, demangled if it is a C++ one; for a range no symbol
 *	names (SYM_FUNC_FDE), "OBJECT+0xADDR": the object's base name and
 *	@addr, what addr2line -e OBJECT takes
 * @flags: SYM_FUNC_*
 */
struct sym_func {
	uint64_t addr;
	uint64_t end;
	const char *name;
	unsigned int flags;
};

/*
 * SYM_FUNC_FDE: no symbol names it; its bounds are an FDE's of the
 * object's unwind tables (fde.h), which cover one function (or one part
 * of a split one). Only code outside every symbol's bounds gets one.
 */
#define SYM_FUNC_FDE 0x1u

struct symtab;

/**
 * symtab_open_as() - read the functions of the ELF file @path, the file
 * of the object @object (whose base name names the FDE ranges: a copy's
 * or another root's @path is not the object's name)
 *
 * Functions come from the symbol table (see the file's head), then, for
 * code outside all of them, from the FDEs of its unwind tables
 * (SYM_FUNC_FDE). A stripped file without unwind tables gives an empty
 * list (and no lines), not an error.
 *
 * Return: the table, or NULL with @err set (not found, not ELF, ...).
 */
struct symtab *symtab_open_as(const char *path, const char *object, char *err,
			      size_t errlen);

/** symtab_open() - symtab_open_as() a file that is its own object */
struct symtab *symtab_open(const char *path, char *err, size_t errlen);

/**
 * symtab_of_funcs() - a table of the @n functions @funcs (sorted, bounds
 * disjoint; copied), with no file behind it: no lines, segments nor
 * build-id. For code no file names, a JIT's (perfmap.h).
 * Return: the table, or NULL with errno ENOMEM.
 */
struct symtab *symtab_of_funcs(const struct sym_func *funcs, size_t n);

/** symtab_close() - free @st; NULL is a no-op. */
void symtab_close(struct symtab *st);

/**
 * symtab_funcs() - the functions, sorted by @addr, bounds disjoint (a
 * function that starts inside another ends that one; an unbounded symbol
 * inside a function is not listed)
 * Return: the array (valid until symtab_close()), its length in *@n.
 */
const struct sym_func *symtab_funcs(const struct symtab *st, size_t *n);

/**
 * symtab_build_id() - the file's GNU build-id in lower-case hex into
 * @buf (@len bytes, room for the NUL included)
 * Return: 0, or -1 if it has none or @buf is too small.
 */
int symtab_build_id(const struct symtab *st, char *buf, size_t len);

/** symtab_ptr_size() - 4 or 8: the ELF class, for gmon_read_*(). */
unsigned int symtab_ptr_size(const struct symtab *st);

/**
 * struct sym_line - the source of an address
 * @file: the source file, as DWARF names it
 * @line: the line
 * @func: the function that line is in, with those it is inlined into
 *	("f inlined at FILE:LINE in g", as eu-addr2line -f), or NULL if
 *	DWARF names none
 */
struct sym_line {
	const char *file;
	unsigned int line;
	const char *func;
};

/**
 * symtab_line() - the source line of @addr, and its function (DWARF)
 * Return: 0 and *@l (its strings valid until symtab_close()), or -1 if
 * the file has no line information there.
 */
int symtab_line(struct symtab *st, uint64_t addr, struct sym_line *l);

/**
 * symtab_segment() - the loadable segment (PT_LOAD) holding link-time
 * address @addr: its address *@vaddr and its offset in the file *@offset
 * Return: 0, or -1 if no segment holds it.
 */
int symtab_segment(const struct symtab *st, uint64_t addr, uint64_t *vaddr,
		   uint64_t *offset);

/**
 * symtab_scope_work() - the DWARF scope walks symtab_line() has made so
 * far, its costly part: what a test counts to tell a renderer that names
 * lines only (symtab_src()) from one that walks scopes per bin
 */
unsigned long long symtab_scope_work(void);

/**
 * symtab_src() - symtab_line() without the function (@l->func NULL):
 * only the line table is read, not the DWARF scopes, at a fraction of
 * the cost
 */
int symtab_src(struct symtab *st, uint64_t addr, struct sym_line *l);

/**
 * sym_func_find() - the function whose bounds hold @addr, or NULL
 * (binary search in @funcs)
 */
const struct sym_func *sym_func_find(const struct sym_func *funcs, size_t n,
				     uint64_t addr);

#endif /* PROFIL_CTL_SYMBOLS_H */
