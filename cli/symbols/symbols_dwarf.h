/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The DWARF half of the symbols layer (symbols.c is the ELF half): what
 * libdw says about an address of a libdwfl module. Internal to the
 * symbols layer; addresses are libdwfl's (link-time + the module's bias).
 */
#ifndef PROFIL_CTL_SYMBOLS_DWARF_H
#define PROFIL_CTL_SYMBOLS_DWARF_H

#include <elfutils/libdwfl.h>

/**
 * symbols_dwarf_func_end() - the end of the function that starts at @pc,
 * from DWARF: the DW_TAG_subprogram holding @pc whose range (DW_AT_low_pc
 * and high_pc, or one of DW_AT_ranges) begins at @pc
 * Return: 0 and *@end (exclusive), or -1 (no DWARF, no such function).
 */
int symbols_dwarf_func_end(Dwfl_Module *mod, Dwarf_Addr pc, Dwarf_Addr *end);

/**
 * symbols_dwarf_func() - the function holding @pc, from DWARF, with the
 * functions it is inlined into, innermost first, as eu-addr2line -f
 * names them: "f", or "f inlined at FILE:LINE in g" (FILE:LINE: the
 * call). Names are the demangled linkage names, else DW_AT_name.
 * Return: a malloc'ed string, or NULL (no DWARF there, ENOMEM).
 */
char *symbols_dwarf_func(Dwfl_Module *mod, Dwarf_Addr pc);

#endif /* PROFIL_CTL_SYMBOLS_DWARF_H */
