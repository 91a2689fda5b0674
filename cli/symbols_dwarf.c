// SPDX-License-Identifier: GPL-2.0
/*
 * DWARF lookups of the symbols layer, through libdw (see
 * symbols_dwarf.h); nothing here reads DWARF by hand.
 */
#define _GNU_SOURCE
#include <dwarf.h>
#include <stdlib.h>
#include <elfutils/libdw.h>

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
