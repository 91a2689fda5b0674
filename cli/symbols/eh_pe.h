/* SPDX-License-Identifier: GPL-2.0 */
/*
 * DW_EH_PE pointer encodings, the one piece of unwind-table format read
 * by hand: libdw's dwarf_next_cfi() hands an FDE's initial location and
 * range, and a CIE's augmentation data, over still encoded (LSB Core,
 * "Exception Frames"; the values are <dwarf.h>'s DW_EH_PE_*).
 */
#ifndef PROFIL_CTL_EH_PE_H
#define PROFIL_CTL_EH_PE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <elfutils/libdw.h>

/**
 * struct eh_pe_ctx - what an encoded value is read against
 * @ptr_size: 4 or 8, the size of DW_EH_PE_absptr (the ELF class)
 * @big_endian: the ELF's byte order (EI_DATA)
 * @data: the start of the section's bytes in memory
 * @vaddr: the section's address (sh_addr): the address of @data, which
 *	DW_EH_PE_pcrel values are relative to
 */
struct eh_pe_ctx {
	unsigned int ptr_size;
	bool big_endian;
	const uint8_t *data;
	uint64_t vaddr;
};

/**
 * eh_pe_fde_range() - the code range an FDE covers, [*@lo, *@hi)
 * @cie: the FDE's CIE: its augmentation ("zR", "zPLR", ...; 'R' gives
 *	the FDE pointer encoding, absptr without it, as in .debug_frame)
 * @fde: the FDE, as dwarf_next_cfi() gives them, pointing into @ctx's
 *	section bytes (@fde->end: the end of the entry)
 *
 * Formats: absptr, [us]data2/4/8 and [us]leb128; applications: none
 * (absolute) and pcrel (relative to the value's own address in @ctx's
 * section); the range uses the format only. Addresses are the ELF's own
 * (link-time).
 *
 * Return: 0, or -1: an encoding FDEs do not use here (textrel, datarel,
 * funcrel, aligned, indirect), an augmentation it does not know before
 * 'R', or a value that runs past its entry.
 */
int eh_pe_fde_range(const struct eh_pe_ctx *ctx, const Dwarf_CIE *cie,
		    const Dwarf_FDE *fde, uint64_t *lo, uint64_t *hi);

#endif /* PROFIL_CTL_EH_PE_H */
