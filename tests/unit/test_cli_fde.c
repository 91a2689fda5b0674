// SPDX-License-Identifier: GPL-2.0
/*
 * Function bounds from unwind tables (cli/symbols/fde.c, eh_pe.c): the
 * DW_EH_PE decoder on hand-made CIEs and FDEs, and the ranges of a
 * stripped program (cli_fde_target.c, -O2, with a hot/cold split): each
 * range that symtab reports for the stripped copy must be exactly one
 * function symbol's [st_value, st_value + st_size) of the unstripped
 * copy, a function's hot and cold parts two ranges, every function of
 * the program's own code found, and libdw's own FDE lookup
 * (dwarf_cfi_addrframe()) agreeing on each range's entry; the same from
 * .debug_frame, for a build without unwind tables.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <dwarf.h>
#include <fcntl.h>
#include <gelf.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <elfutils/libdw.h>

#include "eh_pe.h"
#include "symbols.h"

#define FULL UNIT_OUT "/cli_fde_target"
#define STRIPPED UNIT_OUT "/cli_fde_target.stripped"
#define DBGFRAME UNIT_OUT "/cli_fde_target.dbgframe"

/* A section of bytes at address 0x1000. */
static const struct eh_pe_ctx le64 = { .ptr_size = 8, .vaddr = 0x1000 };

static int range_of(struct eh_pe_ctx ctx, const uint8_t *sec, size_t len,
		    const char *aug, const uint8_t *augdata, size_t auglen,
		    size_t fde_at, uint64_t *lo, uint64_t *hi)
{
	Dwarf_CIE cie = {
		.augmentation = aug, .augmentation_data = augdata,
		.augmentation_data_size = auglen,
	};
	Dwarf_FDE fde = { .start = sec + fde_at, .end = sec + len };

	ctx.data = sec;
	return eh_pe_fde_range(&ctx, &cie, &fde, lo, hi);
}

/* range_of() must decode [@lo, @hi). */
static void expect_range(struct eh_pe_ctx ctx, const uint8_t *sec, size_t len,
			 const char *aug, const uint8_t *augdata,
			 size_t auglen, size_t fde_at, uint64_t lo,
			 uint64_t hi)
{
	uint64_t l, h;

	assert_int_equal(range_of(ctx, sec, len, aug, augdata, auglen, fde_at,
				  &l, &h), 0);
	assert_int_equal(l, lo);
	assert_int_equal(h, hi);
}

/* GCC's x86-64 default: "zR", pcrel|sdata4, from the field's address. */
static void test_pcrel_sdata4(void **state)
{
	/* At 0x1004: -0x104 (0xfffffefc) -> 0xf00; range 0x40. */
	static const uint8_t sec[] = { 0, 0, 0, 0, 0xfc, 0xfe, 0xff, 0xff,
				       0x40, 0, 0, 0 };
	static const uint8_t aug[] = { DW_EH_PE_pcrel | DW_EH_PE_sdata4 };

	(void)state;
	expect_range(le64, sec, sizeof(sec), "zR", aug, 1, 4, 0xf00, 0xf40);
}

/* No augmentation (.debug_frame): absptr, the ELF's pointer size. */
static void test_absptr(void **state)
{
	static const uint8_t sec8[] = { 0x10, 0x32, 0x54, 0x76, 0, 0, 0, 0,
					0x20, 0, 0, 0, 0, 0, 0, 0 };
	static const uint8_t be4[] = { 0x08, 0x04, 0x80, 0x00,
				       0, 0, 0x01, 0x00 };
	struct eh_pe_ctx c32 = { .ptr_size = 4, .big_endian = true };

	(void)state;
	expect_range(le64, sec8, sizeof(sec8), "", NULL, 0, 0, 0x76543210,
		     0x76543230);
	expect_range(c32, be4, sizeof(be4), NULL, NULL, 0, 0, 0x08048000,
		     0x08048100);
}

/*
 * "zPLR": the personality pointer ('P', its own encoding, here udata8)
 * and the LSDA encoding ('L') come before 'R' and must be skipped;
 * LEB128 values; sdata2 sign-extended.
 */
static void test_aug_and_formats(void **state)
{
	static const uint8_t aug[] = { DW_EH_PE_udata8, 1, 2, 3, 4, 5, 6, 7, 8,
				       DW_EH_PE_udata4, DW_EH_PE_uleb128 };
	static const uint8_t leb[] = { 0xe5, 0x8e, 0x26, 0x80, 0x01 };
	static const uint8_t aug2[] = { DW_EH_PE_pcrel | DW_EH_PE_sdata2 };
	static const uint8_t s2[] = { 0xfe, 0xff, 0x10, 0x00 };
	static const uint8_t aug3[] = { DW_EH_PE_sleb128 };
	static const uint8_t sl[] = { 0x7f, 0x04 };

	(void)state;
	expect_range(le64, leb, sizeof(leb), "zPLR", aug, sizeof(aug), 0,
		     624485, 624485 + 128);
	expect_range(le64, s2, sizeof(s2), "zR", aug2, 1, 0, 0x1000 - 2,
		     0x1000 - 2 + 0x10);
	expect_range(le64, sl, sizeof(sl), "zR", aug3, 1, 0, UINT64_MAX,
		     UINT64_MAX + 4);
}

/* What it cannot read is an error, never a guess. */
static void test_refused(void **state)
{
	static const uint8_t sec[] = { 1, 0, 0, 0, 2, 0, 0, 0 };
	static const uint8_t datarel[] = { DW_EH_PE_datarel | DW_EH_PE_udata4 };
	static const uint8_t indirect[] = { DW_EH_PE_indirect |
					    DW_EH_PE_udata4 };
	static const uint8_t u8[] = { DW_EH_PE_udata8 };
	static const uint8_t leb[] = { 0x80, 0x80 };
	static const uint8_t uleb[] = { DW_EH_PE_uleb128 };
	uint64_t lo, hi;

	(void)state;
	assert_int_equal(range_of(le64, sec, 8, "zR", datarel, 1, 0, &lo, &hi),
			 -1);
	assert_int_equal(range_of(le64, sec, 8, "zR", indirect, 1, 0, &lo,
				  &hi), -1);
	/* 8 bytes of start, then no room for the range. */
	assert_int_equal(range_of(le64, sec, 8, "zR", u8, 1, 0, &lo, &hi), -1);
	/* A LEB128 that does not end. */
	assert_int_equal(range_of(le64, leb, 2, "zR", uleb, 1, 0, &lo, &hi),
			 -1);
	/* An augmentation it does not know, before 'R'; no 'z'; no data. */
	assert_int_equal(range_of(le64, sec, 8, "zXR", u8, 1, 0, &lo, &hi), -1);
	assert_int_equal(range_of(le64, sec, 8, "eh", NULL, 0, 0, &lo, &hi),
			 -1);
	assert_int_equal(range_of(le64, sec, 8, "zR", NULL, 0, 0, &lo, &hi),
			 -1);
}

/* The function symbols of @path's .symtab, by libelf. */
struct fsym {
	uint64_t lo, hi;
	char name[64];
};

static size_t read_funcs(const char *path, struct fsym *out, size_t max)
{
	int fd = open(path, O_RDONLY);
	Elf *elf;
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	GElf_Sym s;
	Elf_Data *d;
	size_t n = 0, i;

	assert_true(fd >= 0);
	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ, NULL);
	assert_non_null(elf);
	while ((scn = elf_nextscn(elf, scn))) {
		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB)
			continue;
		d = elf_getdata(scn, NULL);
		for (i = 0; d && i < sh.sh_size / sh.sh_entsize; i++) {
			if (!gelf_getsym(d, (int)i, &s) ||
			    GELF_ST_TYPE(s.st_info) != STT_FUNC ||
			    !s.st_size || s.st_shndx == SHN_UNDEF || n >= max)
				continue;
			out[n].lo = s.st_value;
			out[n].hi = s.st_value + s.st_size;
			snprintf(out[n].name, sizeof(out[n].name), "%s",
				 elf_strptr(elf, sh.sh_link, s.st_name));
			n++;
		}
	}
	elf_end(elf);
	close(fd);
	return n;
}

static const struct fsym *sym_at(const struct fsym *f, size_t n, uint64_t lo)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (f[i].lo == lo)
			return &f[i];
	return NULL;
}

static bool has_sym(const struct fsym *f, size_t n, const char *name)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(f[i].name, name))
			return true;
	return false;
}

/*
 * libdw's own decoding of the FDE holding @pc: the start of its CFA row
 * there (a row, not the FDE: at the FDE's entry, the two start alike).
 */
static uint64_t libdw_row(Dwarf_CFI *cfi, uint64_t pc)
{
	Dwarf_Frame *frame;
	Dwarf_Addr s, e;

	assert_int_equal(dwarf_cfi_addrframe(cfi, pc, &frame), 0);
	assert_true(dwarf_frame_info(frame, &s, &e, NULL) >= 0);
	free(frame);
	return s;
}

/*
 * Each FDE range symtab reports for @stripped is one function symbol of
 * @full, named "@base+0xSTART", and every function of the program has
 * one; @cfi, when not NULL, libdw's CFI of @stripped, agrees on each
 * range's entry.
 */
static void expect_ranges_are_functions(const char *full, const char *stripped,
					const char *base, Dwarf_CFI *cfi)
{
	static const char *const own[] = {
		"main", "main.cold", "fde_small", "fde_loop", "fde_split",
		"fde_fail", "_start",
	};
	bool seen[sizeof(own) / sizeof(own[0])] = { false };
	struct fsym syms[256];
	size_t nsyms, nf, i, j, nfde = 0;
	const struct sym_func *f;
	const struct fsym *s;
	struct symtab *st;
	char err[256], want[96];

	nsyms = read_funcs(full, syms, 256);
	/* gcc split main: its cold part is a symbol, and an FDE, apart. */
	assert_true(has_sym(syms, nsyms, "main.cold"));
	st = symtab_open(stripped, err, sizeof(err));
	assert_non_null(st);
	f = symtab_funcs(st, &nf);
	for (i = 0; i < nf; i++) {
		if (!(f[i].flags & SYM_FUNC_FDE))
			continue;
		nfde++;
		s = sym_at(syms, nsyms, f[i].addr);
		if (!s || s->hi != f[i].end)
			fail_msg("range [%#" PRIx64 ", %#" PRIx64 ") is no "
				 "function of %s", f[i].addr, f[i].end, full);
		snprintf(want, sizeof(want), "%s+0x%" PRIx64, base, s->lo);
		assert_string_equal(f[i].name, want);
		if (cfi) {
			assert_int_equal(libdw_row(cfi, f[i].addr), f[i].addr);
			assert_true(libdw_row(cfi, f[i].end - 1) >= f[i].addr);
		}
		for (j = 0; j < sizeof(own) / sizeof(own[0]); j++)
			seen[j] |= !strcmp(s->name, own[j]);
	}
	for (j = 0; j < sizeof(own) / sizeof(own[0]); j++)
		if (!seen[j])
			fail_msg("%s: %s: no FDE range", stripped, own[j]);
	assert_true(nfde >= sizeof(own) / sizeof(own[0]));
	symtab_close(st);
}

/* .eh_frame: GCC's default unwind tables, what Debian's binaries keep. */
static void test_stripped_ranges_are_functions(void **state)
{
	Dwarf_CFI *cfi;
	Elf *elf;
	int fd;

	(void)state;
	elf_version(EV_CURRENT);
	fd = open(STRIPPED, O_RDONLY);
	assert_true(fd >= 0);
	elf = elf_begin(fd, ELF_C_READ, NULL);
	cfi = dwarf_getcfi_elf(elf);
	assert_non_null(cfi);
	expect_ranges_are_functions(FULL, STRIPPED, "cli_fde_target.stripped",
				    cfi);
	dwarf_cfi_end(cfi);
	elf_end(elf);
	close(fd);
}

/*
 * .debug_frame: built with -g and without unwind tables, the program's
 * FDEs are there only (crt1.o's _start is in .eh_frame); the stripped
 * copy keeps .debug_frame.
 */
static void test_debug_frame_ranges(void **state)
{
	(void)state;
	expect_ranges_are_functions(DBGFRAME, DBGFRAME ".stripped",
				    "cli_fde_target.dbgframe.stripped", NULL);
}

/* No FDE range in @path: symbols name all, the rest is not functions. */
static void expect_no_ranges(const char *path)
{
	const struct sym_func *f;
	struct symtab *st;
	char err[256];
	size_t nf, i;

	st = symtab_open(path, err, sizeof(err));
	assert_non_null(st);
	f = symtab_funcs(st, &nf);
	assert_true(nf > 0);
	for (i = 0; i < nf; i++)
		if (f[i].flags & SYM_FUNC_FDE)
			fail_msg("%s: an FDE range [%#" PRIx64 ", %#" PRIx64
				 ")", path, f[i].addr, f[i].end);
	symtab_close(st);
}

/*
 * With symbols, they name every function: no range is left to an FDE.
 * A library whose .plt is only its header (no stubs): the .plt's FDE
 * covers that header, which is no function.
 */
static void test_symbols_first(void **state)
{
	(void)state;
	expect_no_ranges(FULL);
	expect_no_ranges(UNIT_OUT "/cli_so_target.so");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pcrel_sdata4),
		cmocka_unit_test(test_absptr),
		cmocka_unit_test(test_aug_and_formats),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_stripped_ranges_are_functions),
		cmocka_unit_test(test_debug_frame_ranges),
		cmocka_unit_test(test_symbols_first),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
