// SPDX-License-Identifier: GPL-2.0
/*
 * DW_EH_PE decoding (eh_pe.h): the only bytes of an unwind table that
 * profil-ctl reads itself, since libdw leaves them encoded.
 */
#include <dwarf.h>

#include "eh_pe.h"

/* An unsigned @n-byte integer in the ELF's byte order. */
static uint64_t read_fixed(const uint8_t *p, unsigned int n, bool big)
{
	uint64_t v = 0;
	unsigned int i;

	for (i = 0; i < n; i++)
		v |= (uint64_t)p[big ? n - 1 - i : i] << (8 * i);
	return v;
}

/* A LEB128; -1 if it runs past @end or does not fit 64 bits. */
static int read_leb(const uint8_t **p, const uint8_t *end, bool sign,
		    uint64_t *val)
{
	unsigned int shift = 0;
	uint64_t v = 0;
	uint8_t b;

	do {
		if (*p >= end || shift >= 64)
			return -1;
		b = *(*p)++;
		v |= (uint64_t)(b & 0x7f) << shift;
		shift += 7;
	} while (b & 0x80);
	if (sign && shift < 64 && (b & 0x40))
		v |= ~(uint64_t)0 << shift;
	*val = v;
	return 0;
}

/* The size of a fixed-size format, 0 for a LEB128, -1 if unknown. */
static int fixed_size(const struct eh_pe_ctx *ctx, uint8_t fmt)
{
	switch (fmt) {
	case DW_EH_PE_absptr:
		return (int)ctx->ptr_size;
	case DW_EH_PE_udata2:
	case DW_EH_PE_sdata2:
		return 2;
	case DW_EH_PE_udata4:
	case DW_EH_PE_sdata4:
		return 4;
	case DW_EH_PE_udata8:
	case DW_EH_PE_sdata8:
		return 8;
	case DW_EH_PE_uleb128:
	case DW_EH_PE_sleb128:
		return 0;
	default:
		return -1;
	}
}

/* One value encoded as @enc at *@p, *@p advanced past it. */
static int eh_pe_read(const struct eh_pe_ctx *ctx, uint8_t enc, const uint8_t **p,
	       const uint8_t *end, uint64_t *val)
{
	uint8_t fmt = enc & 0x0f, app = enc & 0x70;
	uint64_t here = ctx->vaddr + (uint64_t)(*p - ctx->data), v;
	int n;

	if (enc == DW_EH_PE_omit) {
		*val = 0;
		return 0;
	}
	if (app != DW_EH_PE_absptr && app != DW_EH_PE_pcrel)
		return -1;
	if (enc & DW_EH_PE_indirect)
		return -1;
	n = fixed_size(ctx, fmt);
	if (n < 0)
		return -1;
	if (!n) {
		if (read_leb(p, end, fmt == DW_EH_PE_sleb128, &v))
			return -1;
	} else {
		if (end - *p < n)
			return -1;
		v = read_fixed(*p, (unsigned int)n, ctx->big_endian);
		if (n < 8 && (fmt & DW_EH_PE_signed) &&
		    (v >> (8 * n - 1)) & 1)
			v |= ~(uint64_t)0 << (8 * n);
		*p += n;
	}
	if (app == DW_EH_PE_pcrel)
		v += here;
	if (ctx->ptr_size == 4)
		v &= 0xffffffffu;
	*val = v;
	return 0;
}

/*
 * The FDE pointer encoding of @cie: the byte after 'R' in its
 * augmentation data, whose entries are in the augmentation string's
 * order after the 'z' ('P': an encoding byte and a pointer in it; 'L':
 * one byte; 'S', 'B': none).
 */
static int fde_encoding(const struct eh_pe_ctx *ctx, const Dwarf_CIE *cie,
			uint8_t *enc)
{
	const uint8_t *p = cie->augmentation_data;
	const uint8_t *end = p + cie->augmentation_data_size;
	const char *a = cie->augmentation;
	uint64_t skip;

	*enc = DW_EH_PE_absptr;
	if (!a || !*a)
		return 0;
	if (*a++ != 'z')
		return -1;
	for (; *a; a++) {
		switch (*a) {
		case 'R':
			if (p >= end)
				return -1;
			*enc = *p;
			return 0;
		case 'P':
			if (p >= end)
				return -1;
			p++;
			if (eh_pe_read(ctx, p[-1], &p, end, &skip))
				return -1;
			break;
		case 'L':
			p++;
			break;
		case 'S':
		case 'B':
			break;
		default:
			return -1;
		}
	}
	return 0;
}

int eh_pe_fde_range(const struct eh_pe_ctx *ctx, const Dwarf_CIE *cie,
		    const Dwarf_FDE *fde, uint64_t *lo, uint64_t *hi)
{
	const uint8_t *p = fde->start;
	uint64_t start, len;
	uint8_t enc;

	if (fde_encoding(ctx, cie, &enc) || enc == DW_EH_PE_omit ||
	    eh_pe_read(ctx, enc, &p, fde->end, &start) ||
	    eh_pe_read(ctx, enc & 0x0f, &p, fde->end, &len))
		return -1;
	*lo = start;
	*hi = start + len;
	return 0;
}
