// SPDX-License-Identifier: GPL-2.0
/*
 * DWARF lookups of the symbols layer, through libdw (see
 * symbols_dwarf.h); nothing here reads DWARF by hand.
 */
#define _GNU_SOURCE
#include <dwarf.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <elfutils/libdw.h>

#include "demangle.h"
#include "symbols_dwarf.h"

/*
 * The DIEs holding @pc as they nest in their CU, innermost first, inlined
 * instances included. dwarf_getscopes() alone goes on from the innermost
 * inlined instance to its abstract definition's parents, which skips the
 * function it was inlined into: it only finds the innermost DIE here.
 * *@bias: the module's DWARF bias. Return: the number of DIEs, or -1.
 */
static int physical_scopes(Dwfl_Module *mod, Dwarf_Addr pc,
			   Dwarf_Addr *bias, Dwarf_Die **chain)
{
	Dwarf_Die *cu = dwfl_module_addrdie(mod, pc, bias), *scopes;
	int n;

	if (!cu)
		return -1;
	n = dwarf_getscopes(cu, pc - *bias, &scopes);
	if (n <= 0)
		return -1;
	n = dwarf_getscopes_die(&scopes[0], chain);
	free(scopes);
	return n > 0 ? n : -1;
}

int symbols_dwarf_func_end(Dwfl_Module *mod, Dwarf_Addr pc, Dwarf_Addr *end)
{
	Dwarf_Addr bias, base, lo, hi;
	Dwarf_Die *chain;
	ptrdiff_t off = 0;
	int n, i, ret = -1;

	n = physical_scopes(mod, pc, &bias, &chain);
	if (n < 0)
		return -1;
	for (i = 0; i < n; i++)
		if (dwarf_tag(&chain[i]) == DW_TAG_subprogram)
			break;
	while (i < n && (off = dwarf_ranges(&chain[i], off, &base, &lo,
					    &hi)) > 0) {
		if (lo + bias == pc && hi > lo) {
			*end = hi + bias;
			ret = 0;
			break;
		}
	}
	free(chain);
	return ret;
}

/* @die's name: its linkage name demangled, else its DW_AT_name. */
static void put_name(FILE *out, Dwarf_Die *die)
{
	Dwarf_Attribute attr;
	const char *name, *link;
	char *d = NULL;

	link = dwarf_formstring(dwarf_attr_integrate(die, DW_AT_linkage_name,
						     &attr));
	if (!link)
		link = dwarf_formstring(dwarf_attr_integrate(die,
				DW_AT_MIPS_linkage_name, &attr));
	if (link)
		d = demangle(link);
	name = d ? d : dwarf_diename(die);
	fputs(name ? name : "??", out);
	free(d);
}

/* " inlined at FILE:LINE in ": where the inlined instance @die is called. */
static void put_call_site(FILE *out, Dwarf_Die *die)
{
	Dwarf_Attribute attr;
	Dwarf_Word file = 0, line = 0;
	Dwarf_Files *files;
	Dwarf_Die cu;
	const char *src = NULL;
	size_t nfiles;

	if (!dwarf_formudata(dwarf_attr(die, DW_AT_call_file, &attr), &file) &&
	    dwarf_diecu(die, &cu, NULL, NULL) &&
	    !dwarf_getsrcfiles(&cu, &files, &nfiles) && file < nfiles)
		src = dwarf_filesrc(files, file, NULL, NULL);
	dwarf_formudata(dwarf_attr(die, DW_AT_call_line, &attr), &line);
	fprintf(out, " inlined at %s:%llu in ", src ? src : "??",
		(unsigned long long)line);
}

char *symbols_dwarf_func(Dwfl_Module *mod, Dwarf_Addr pc)
{
	Dwarf_Die *chain;
	Dwarf_Addr bias;
	bool found = false;
	char *buf = NULL;
	size_t len;
	FILE *out;
	int n, i;

	n = physical_scopes(mod, pc, &bias, &chain);
	if (n < 0)
		return NULL;
	out = open_memstream(&buf, &len);
	for (i = 0; out && i < n && !found; i++) {
		switch (dwarf_tag(&chain[i])) {
		case DW_TAG_inlined_subroutine:
			put_name(out, &chain[i]);
			put_call_site(out, &chain[i]);
			break;
		case DW_TAG_subprogram:
			put_name(out, &chain[i]);
			found = true;
			break;
		default:
			break;
		}
	}
	free(chain);
	if (!out || fclose(out) || !found) {
		free(buf);
		return NULL;
	}
	return buf;
}
