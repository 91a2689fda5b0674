// SPDX-License-Identifier: GPL-2.0
/*
 * profil-ctl's symbolizer (cli/symbols/symbols.c): this driver itself (PIE, so
 * the load bias is subtracted), a -g program built by the Makefile
 * (cli_sym_target.c, which prints its own addresses), its copy stripped
 * to .dynsym, a copy with no symbols at all, and files that are not ELF.
 * Function bounds on cli_bounds_target.c, whose functions have sizes
 * known by construction, padding between them, a static function that a
 * .dynsym-only copy loses, symbols without a size, nested ones, and one
 * whose size the test zeroes so that its DWARF range must stand in; and
 * what the function view makes of samples outside every bound. C++
 * names demangled (cli_cxx_target.cc, built with g++: templates, a
 * static inline function inlined), and the inlined function's lines.
 * Symbol sources libdwfl finds for a stripped copy: a .gnu_debuglink
 * file and MiniDebugInfo (.gnu_debugdata); debuginfod, a real server,
 * is debuginfod_test.sh's. PLT stubs named as objdump names
 * them, on a library calling its own IFUNCs (cli_ifunc_target.c) and on
 * the system's libc.so.6.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <inttypes.h>
#include <link.h>
#include <sys/stat.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "demangle.h"
#include "hist.h"
#include "render.h"
#include "symbols.h"

#define TARGET UNIT_OUT "/cli_sym_target"
#define TARGET_SRC UNIT_SRC "/cli_sym_target.c"
#define BOUNDS UNIT_OUT "/cli_bounds_target"
#define CXX UNIT_OUT "/cli_cxx_target"
#define CXX_SRC UNIT_SRC "/cli_cxx_target.cc"
#define IFUNC_LIB UNIT_OUT "/cli_ifunc_target.so"

/* Declarator, body and __LINE__ on one line: the entry's line. */
__attribute__((noinline)) int known_function(int x) { return x ^ 0x5a; } static const unsigned int known_line = __LINE__;

static int bias_cb(struct dl_phdr_info *info, size_t size, void *data)
{
	(void)size;
	*(uint64_t *)data = info->dlpi_addr;	/* the main program */
	return 1;
}

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

static const struct sym_func *find_name(struct symtab *st, const char *name)
{
	const struct sym_func *f;
	size_t n, i;

	f = symtab_funcs(st, &n);
	for (i = 0; i < n; i++)
		if (!strcmp(f[i].name, name))
			return &f[i];
	return NULL;
}

static struct symtab *open_ok(const char *path)
{
	char err[256] = "";
	struct symtab *st = symtab_open(path, err, sizeof(err));

	if (!st)
		fail_msg("%s: %s", path, err);
	return st;
}

/* This very driver: link-time = run-time address - load bias. */
static void test_self_pie(void **state)
{
	uint64_t bias = 0, addr;
	const struct sym_func *f;
	struct symtab *st;
	struct sym_line l;
	size_t n;
	int (*volatile fn)(int) = known_function;

	(void)state;
	assert_int_equal(fn(0), 0x5a);
	dl_iterate_phdr(bias_cb, &bias);
	addr = (uint64_t)(uintptr_t)known_function - bias;
	st = open_ok("/proc/self/exe");
	assert_int_equal(symtab_ptr_size(st), sizeof(void *));
	f = find_name(st, "known_function");
	assert_non_null(f);
	assert_int_equal(f->addr, addr);
	assert_true(f->end > f->addr);
	f = symtab_funcs(st, &n);
	assert_string_equal(sym_func_find(f, n, addr + 1)->name,
			    "known_function");
	assert_int_equal(symtab_line(st, addr, &l), 0);
	assert_string_equal(base_name(l.file), "test_cli_symbols.c");
	assert_int_equal(l.line, known_line);
	assert_string_equal(l.func, "known_function");
	symtab_close(st);
}

/* The line of the marker comment @marker in @path. */
static unsigned int marker_line_in(const char *path, const char *marker)
{
	FILE *f = fopen(path, "r");
	unsigned int n = 0;
	char buf[512];

	assert_non_null(f);
	while (fgets(buf, sizeof(buf), f)) {
		n++;
		if (strstr(buf, marker)) {
			fclose(f);
			return n;
		}
	}
	fclose(f);
	fail_msg("no %s in %s", marker, path);
	return 0;
}

/* The line of the marker comment @marker in cli_sym_target.c. */
static unsigned int marker_line(const char *marker)
{
	return marker_line_in(TARGET_SRC, marker);
}

/* The addresses the target prints of its two functions. */
static void target_addrs(uint64_t *alpha, uint64_t *beta)
{
	FILE *p = popen(TARGET, "r");
	unsigned long long a = 0, b = 0;

	assert_non_null(p);
	assert_int_equal(fscanf(p, "target_alpha %llx target_beta %llx",
				&a, &b), 2);
	assert_int_equal(pclose(p), 0);
	*alpha = a;
	*beta = b;
}

static void test_target(void **state)
{
	const struct sym_func *fa, *fb, *all;
	uint64_t alpha, beta;
	struct symtab *st;
	struct sym_line l;
	size_t n;

	(void)state;
	target_addrs(&alpha, &beta);
	st = open_ok(TARGET);
	fa = find_name(st, "target_alpha");
	fb = find_name(st, "target_beta");
	assert_non_null(fa);
	assert_non_null(fb);
	assert_int_equal(fa->addr, alpha);
	assert_int_equal(fb->addr, beta);
	/* -O0 does not align functions: alpha ends where beta starts. */
	assert_int_equal(fa->end, beta);
	all = symtab_funcs(st, &n);
	assert_ptr_equal(sym_func_find(all, n, beta - 1), fa);
	assert_ptr_equal(sym_func_find(all, n, beta), fb);
	/* Sorted, disjoint. */
	for (size_t i = 1; i < n; i++)
		assert_true(all[i - 1].end <= all[i].addr);

	assert_int_equal(symtab_line(st, alpha, &l), 0);
	assert_string_equal(base_name(l.file), "cli_sym_target.c");
	assert_int_equal(l.line, marker_line("TARGET_ALPHA_LINE"));
	assert_string_equal(l.func, "target_alpha");
	assert_int_equal(symtab_line(st, beta, &l), 0);
	assert_int_equal(l.line, marker_line("TARGET_BETA_LINE"));
	/* No line below the text. */
	assert_int_equal(symtab_line(st, 0x10, &l), -1);
	symtab_close(st);
}

/* Stripped to .dynsym: names remain (exported), lines do not. */
static void test_dynsym_only(void **state)
{
	const struct sym_func *f;
	uint64_t alpha, beta;
	struct symtab *st;
	struct sym_line l;

	(void)state;
	target_addrs(&alpha, &beta);
	st = open_ok(TARGET ".dynsym");
	f = find_name(st, "target_alpha");
	assert_non_null(f);
	assert_int_equal(f->addr, alpha);
	assert_null(find_name(st, "known_function"));
	assert_int_equal(symtab_line(st, alpha, &l), -1);
	symtab_close(st);
}

/*
 * No symbols at all: no table, not an error; only its PLT stubs have
 * names ("printf@plt", as objdump and perf call it: the program calls
 * printf() through .plt), 16 bytes each, after .plt's header entry. Its
 * other functions are FDE ranges, named after the file and their entry.
 */
static void test_no_symbols(void **state)
{
	const struct sym_func *f;
	struct symtab *st;
	struct sym_line l;
	size_t n = 99, i, plt = 0;
	char want[64];

	(void)state;
	st = open_ok(TARGET ".nosyms");
	f = symtab_funcs(st, &n);
	assert_true(n > 1);
	for (i = 0; i < n; i++) {
		size_t len = strlen(f[i].name);

		if (f[i].flags & SYM_FUNC_FDE) {
			snprintf(want, sizeof(want),
				 "cli_sym_target.nosyms+0x%" PRIx64, f[i].addr);
			assert_string_equal(f[i].name, want);
			continue;
		}
		assert_true(len > 4 && !strcmp(f[i].name + len - 4, "@plt"));
		assert_int_equal(f[i].end - f[i].addr, 16);
		assert_string_equal(f[i].name, "printf@plt");
		plt++;
	}
	assert_int_equal(plt, 1);
	assert_int_equal(symtab_line(st, 0x401000, &l), -1);
	assert_int_equal(symtab_ptr_size(st), 8);
	symtab_close(st);
}

/*
 * @path's PLT stubs against objdump's (binutils' synthetic "name@plt"
 * symbols, the reference perf follows): the same stubs at the same
 * addresses with the same names, where objdump's "*ABS*+0xADDR@plt" (an
 * IRELATIVE slot, no symbol) is named after the IFUNC at ADDR as the
 * function view names it, less a symbol version. Return: how many of those IRELATIVE stubs.
 */
static int expect_plt_as_objdump(const char *path)
{
	const struct sym_func *f, *at;
	char cmd[512], line[512], want[512], name[256];
	unsigned long long addr, target;
	int nstubs = 0, nabs = 0, nours = 0;
	struct symtab *st;
	size_t n, i;
	FILE *p;

	st = open_ok(path);
	f = symtab_funcs(st, &n);
	for (i = 0; i < n; i++) {
		size_t len = strlen(f[i].name);

		nours += len > 4 && !strcmp(f[i].name + len - 4, "@plt");
	}
	snprintf(cmd, sizeof(cmd),
		 "objdump -d -j .plt -j .plt.sec -j .plt.got %s", path);
	p = popen(cmd, "r");
	assert_non_null(p);
	while (fgets(line, sizeof(line), p)) {
		if (sscanf(line, "%llx <%255[^>]>:", &addr, name) != 2 ||
		    strlen(name) < 5 || strcmp(name + strlen(name) - 4, "@plt"))
			continue;	/* not a stub (or .plt's header) */
		name[strlen(name) - 4] = '\0';
		snprintf(want, sizeof(want), "%s@plt", name);
		if (sscanf(name, "*ABS*+%llx", &target) == 1) {
			at = sym_func_find(f, n, target);
			if (!at || at->addr != target)
				fail_msg("%s: no function at %#llx", path, target);
			/* without its version, "memcpy@@GLIBC_2.14" */
			snprintf(want, sizeof(want), "%.*s@plt",
				 (int)strcspn(at->name, "@"), at->name);
			nabs++;
		}
		at = sym_func_find(f, n, addr);
		if (!at || at->addr != addr || strcmp(at->name, want))
			fail_msg("%s: %#llx is %s, objdump says %s", path, addr,
				 at ? at->name : "nothing", want);
		nstubs++;
	}
	assert_int_equal(pclose(p), 0);
	assert_true(nstubs > 0);
	assert_int_equal(nours, nstubs);
	symtab_close(st);
	return nabs;
}

/*
 * A stub that jumps through an IRELATIVE slot (a call to the object's
 * own IFUNC) is named after that IFUNC, and every stub after the slot it
 * jumps through, not its rank in .rela.plt: Debian's libc.so.6 mixes
 * the two in an order its stubs do not follow.
 */
static void test_plt_irelative(void **state)
{
	Dl_info info;

	(void)state;
	assert_int_equal(expect_plt_as_objdump(IFUNC_LIB), 2);
	assert_true(dladdr((void *)printf, &info) && info.dli_fname);
	assert_true(expect_plt_as_objdump(info.dli_fname) > 0);
}

static void test_not_elf(void **state)
{
	char err[256] = "";

	(void)state;
	assert_null(symtab_open("/nonexistent/a.out", err, sizeof(err)));
	assert_string_equal(err, strerror(ENOENT));
	err[0] = '\0';
	assert_null(symtab_open(TARGET_SRC, err, sizeof(err)));
	assert_true(err[0] != '\0');
	symtab_close(NULL);
}

static void test_find_edges(void **state)
{
	static const struct sym_func f[] = {
		{ 0x10, 0x20, "a", 0 }, { 0x20, 0x28, "b", 0 }, { 0x30, 0x40, "c", 0 },
	};

	(void)state;
	assert_null(sym_func_find(f, 3, 0x0f));
	assert_ptr_equal(sym_func_find(f, 3, 0x10), &f[0]);
	assert_ptr_equal(sym_func_find(f, 3, 0x1f), &f[0]);
	assert_ptr_equal(sym_func_find(f, 3, 0x20), &f[1]);
	assert_null(sym_func_find(f, 3, 0x28));
	assert_null(sym_func_find(f, 3, 0x2f));
	assert_ptr_equal(sym_func_find(f, 3, 0x3f), &f[2]);
	assert_null(sym_func_find(f, 3, 0x40));
	assert_null(sym_func_find(f, 0, 0x10));
}

/* The two addresses cli_bounds_target prints. */
static void bounds_addrs(uint64_t *base, uint64_t *dwarf)
{
	FILE *p = popen(BOUNDS, "r");
	unsigned long long a = 0, b = 0;

	assert_non_null(p);
	assert_int_equal(fscanf(p, "bt_base %llx bt_dwarf %llx", &a, &b), 2);
	assert_int_equal(pclose(p), 0);
	*base = a;
	*dwarf = b;
}

/* @name's bounds must be [@addr, @end). */
static void expect_bounds(struct symtab *st, const char *name, uint64_t addr,
			  uint64_t end)
{
	const struct sym_func *f = find_name(st, name);

	if (!f)
		fail_msg("no function %s", name);
	if (f->addr != addr || f->end != end)
		fail_msg("%s: [%#llx, %#llx), want [%#llx, %#llx)", name,
			 (unsigned long long)f->addr,
			 (unsigned long long)f->end, (unsigned long long)addr,
			 (unsigned long long)end);
}

/* The name of the function holding @addr, or NULL. */
static const char *holder(struct symtab *st, uint64_t addr)
{
	const struct sym_func *f, *all;
	size_t n;

	all = symtab_funcs(st, &n);
	f = sym_func_find(all, n, addr);
	return f ? f->name : NULL;
}

/* Sorted, bounds disjoint, ends in order too (attribution needs both). */
static void expect_disjoint(struct symtab *st)
{
	const struct sym_func *f;
	size_t n, i;

	f = symtab_funcs(st, &n);
	for (i = 0; i < n; i++) {
		assert_true(f[i].end >= f[i].addr);
		if (i)
			assert_true(f[i - 1].end <= f[i].addr);
	}
}

/* .symtab: each function its ELF size, padding and labels in none. */
static void test_bounds_symtab(void **state)
{
	uint64_t b, d;
	struct symtab *st;

	(void)state;
	bounds_addrs(&b, &d);
	st = open_ok(BOUNDS);
	expect_bounds(st, "bt_first", b, b + 48);
	expect_bounds(st, "bt_hidden", b + 0x40, b + 0x60);
	expect_bounds(st, "bt_second", b + 0x80, b + 0x90);
	/* No size, no DWARF: listed, but nothing is inside it. */
	expect_bounds(st, "bt_nosize", b + 0xc0, b + 0xc0);
	/* bt_inner starts inside bt_outer, which ends there. */
	expect_bounds(st, "bt_outer", b + 0x100, b + 0x120);
	expect_bounds(st, "bt_inner", b + 0x120, b + 0x130);
	assert_null(find_name(st, "bt_label"));
	assert_string_equal(holder(st, b + 47), "bt_first");
	assert_null(holder(st, b + 48));	/* padding */
	assert_null(holder(st, b + 0x3f));
	assert_string_equal(holder(st, b + 0x40), "bt_hidden");
	assert_null(holder(st, b + 0xc0));
	assert_string_equal(holder(st, b + 0x108), "bt_outer");
	assert_null(holder(st, b + 0x130));	/* bt_outer's tail */
	expect_disjoint(st);
	symtab_close(st);
}

/* Stripped to .dynsym: the static function's bytes are in no function. */
static void test_bounds_dynsym(void **state)
{
	uint64_t b, d;
	struct symtab *st;

	(void)state;
	bounds_addrs(&b, &d);
	st = open_ok(BOUNDS ".dynsym");
	assert_null(find_name(st, "bt_hidden"));
	expect_bounds(st, "bt_first", b, b + 48);
	expect_bounds(st, "bt_second", b + 0x80, b + 0x90);
	assert_null(holder(st, b + 0x40));
	assert_null(holder(st, b + 0x7f));
	expect_disjoint(st);
	symtab_close(st);
}

/* Zeroes the st_size of every symbol @name of @path, in place. */
static unsigned int zero_size(const char *path, const char *name)
{
	Elf_Scn *scn = NULL;
	unsigned int n = 0;
	GElf_Shdr sh;
	GElf_Sym sym;
	Elf_Data *data;
	size_t i;
	Elf *elf;
	int fd;

	assert_int_not_equal(elf_version(EV_CURRENT), EV_NONE);
	fd = open(path, O_RDWR);
	assert_true(fd >= 0);
	elf = elf_begin(fd, ELF_C_RDWR, NULL);
	assert_non_null(elf);
	elf_flagelf(elf, ELF_C_SET, ELF_F_LAYOUT);	/* keep the layout */
	while ((scn = elf_nextscn(elf, scn))) {
		if (!gelf_getshdr(scn, &sh) || !sh.sh_entsize ||
		    (sh.sh_type != SHT_SYMTAB && sh.sh_type != SHT_DYNSYM))
			continue;
		data = elf_getdata(scn, NULL);
		for (i = 0; data && i < sh.sh_size / sh.sh_entsize; i++) {
			if (!gelf_getsym(data, (int)i, &sym) ||
			    strcmp(elf_strptr(elf, sh.sh_link, sym.st_name),
				   name))
				continue;
			sym.st_size = 0;
			assert_true(gelf_update_sym(data, (int)i, &sym));
			elf_flagdata(data, ELF_C_SET, ELF_F_DIRTY);
			n++;
		}
	}
	assert_true(elf_update(elf, ELF_C_WRITE) >= 0);
	elf_end(elf);
	close(fd);
	return n;
}

/* A symbol without a size: its DWARF subprogram's range bounds it. */
static void test_bounds_dwarf(void **state)
{
	char copy[] = "/tmp/test_cli_symbolsXXXXXX", cmd[256];
	const struct sym_func *f;
	uint64_t b, d, end;
	struct symtab *st;
	int fd;

	(void)state;
	bounds_addrs(&b, &d);
	st = open_ok(BOUNDS);
	f = find_name(st, "bt_dwarf");
	assert_non_null(f);
	assert_int_equal(f->addr, d);
	end = f->end;
	assert_true(end > d);
	symtab_close(st);

	fd = mkstemp(copy);
	assert_true(fd >= 0);
	close(fd);
	snprintf(cmd, sizeof(cmd), "cp %s %s", BOUNDS, copy);
	assert_int_equal(system(cmd), 0);
	assert_true(zero_size(copy, "bt_dwarf") >= 1);
	st = open_ok(copy);
	expect_bounds(st, "bt_dwarf", d, end);
	/* And still nothing for bt_nosize, which has no DWARF. */
	expect_bounds(st, "bt_nosize", b + 0xc0, b + 0xc0);
	symtab_close(st);
	unlink(copy);
}

static char *render_str(const struct hist *h, const struct render_syms *s,
			const struct render_opts *o)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(render(f, h, s, o), 0);
	assert_int_equal(fclose(f), 0);
	return buf;
}

static void expect_in(const char *text, const char *what)
{
	if (!strstr(text, what))
		fail_msg("no \"%s\" in:\n%s", what, text);
}

/*
 * Samples on the .dynsym-only copy: in bt_first, in its padding, in the
 * static function it lost, in bt_second, at bt_nosize, in bt_outer's
 * tail. Only bt_first and bt_second get theirs; -v lists the rest by
 * gap, named after the function gprof would charge; gprof would charge
 * all of it.
 */
static void test_bounds_unknown_rows(void **state)
{
	struct render_opts o = { .view = RENDER_FUNCS, .verbose = true,
				 .gprof = true };
	uint64_t bins[0x140 / 4] = { 0 }, b, d;
	struct render_syms s = { .funcs = NULL };
	struct hist h = { .rate = 100 };
	struct symtab *st;
	char *out, want[128];

	(void)state;
	bounds_addrs(&b, &d);
	bins[0x00 / 4] = 3;	/* bt_first */
	bins[0x30 / 4] = 2;	/* its padding */
	bins[0x48 / 4] = 5;	/* bt_hidden, not in .dynsym */
	bins[0x80 / 4] = 1;	/* bt_second */
	bins[0xc0 / 4] = 4;	/* bt_nosize: no bounds */
	bins[0x134 / 4] = 6;	/* bt_outer's tail, after bt_inner */
	assert_int_equal(hist_add_range(&h, b, b + 0x140, bins,
					0x140 / 4), 0);
	st = open_ok(BOUNDS ".dynsym");
	s.funcs = symtab_funcs(st, &s.nfuncs);
	out = render_str(&h, &s, &o);
	snprintf(want, sizeof(want), "%016llx       48         3  ",
		 (unsigned long long)b);
	expect_in(out, want);
	expect_in(out, "        17  80.95     0.170  [unknown]\n");
	snprintf(want, sizeof(want), "%016llx       28         7  33.33     "
		 "0.070    after bt_first+0x30\n", (unsigned long long)b + 0x30);
	expect_in(out, want);
	snprintf(want, sizeof(want), "%016llx        4         4  19.05     "
		 "0.040    after bt_nosize+0\n", (unsigned long long)b + 0xc0);
	expect_in(out, want);
	snprintf(want, sizeof(want), "%016llx        4         6  28.57     "
		 "0.060    after bt_inner+0x14\n",
		 (unsigned long long)b + 0x134);
	expect_in(out, want);
	expect_in(out, "# gprof would charge 17 of the [unknown] samples "
		  "(80.95%) to the function whose entry precedes them\n");
	free(out);
	hist_free(&h);
	symtab_close(st);
}

static void expect_demangled(const char *mangled, const char *want)
{
	char *got = demangle(mangled);

	if (!want) {
		if (got)
			fail_msg("%s: \"%s\", want none", mangled, got);
		return;
	}
	if (!got || strcmp(got, want))
		fail_msg("%s: \"%s\", want \"%s\"", mangled,
			 got ? got : "(null)", want);
	free(got);
}

/* libstdc++'s demangler, as perf and addr2line -C show names. */
static void test_demangle(void **state)
{
	(void)state;
	expect_demangled("_ZNK2ns3BoxIiE5twiceEv", "ns::Box<int>::twice() const");
	expect_demangled("_ZN2ns3sumIiEET_PKS1_i",
			 "int ns::sum<int>(int const*, int)");
	expect_demangled("_ZN2nsL6squareEi", "ns::square(int)");
	expect_demangled("_Z3foov.cold", "foo() [clone .cold]");
	expect_demangled("_ZNSt6vectorIiSaIiEED2Ev@@GLIBCXX_3.4",
			 "std::vector<int, std::allocator<int> >::~vector()"
			 "@@GLIBCXX_3.4");
	expect_demangled("main", NULL);
	expect_demangled("_Z", NULL);
	expect_demangled("_Zbogus", NULL);
	expect_demangled("_GLOBAL__sub_I_main", NULL);
}

/* The C++ program's functions come demangled from its symbol table. */
static void test_cxx_names(void **state)
{
	static const char *const names[] = {
		"ns::Box<int>::twice() const",
		"ns::Box<double>::twice() const",
		"int ns::sum<int>(int const*, int)",
		"ns::squares(int)",
		"main",
	};
	const struct sym_func *f;
	struct symtab *st;
	size_t i, n;

	(void)state;
	st = open_ok(CXX);
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!find_name(st, names[i]))
			fail_msg("no function \"%s\"", names[i]);
	/* Inlined everywhere: no function of its own. */
	f = symtab_funcs(st, &n);
	for (i = 0; i < n; i++)
		assert_null(strstr(f[i].name, "square("));
	/* No mangled name is left. */
	for (i = 0; i < n; i++)
		assert_int_not_equal(strncmp(f[i].name, "_Z", 2), 0);
	symtab_close(st);
}

/*
 * --lines in the C++ program: square()'s line, inlined into squares(),
 * is named as eu-addr2line -f names it, with the call's file and line;
 * squares()'s own lines name squares() alone.
 */
static void test_cxx_inlined_lines(void **state)
{
	unsigned int sq = marker_line_in(CXX_SRC, "CXX_SQUARE_LINE");
	unsigned int call = marker_line_in(CXX_SRC, "CXX_CALL_LINE");
	const struct sym_func *f;
	bool inlined = false, own = false;
	struct symtab *st;
	struct sym_line l;
	char want[64];
	uint64_t a;

	(void)state;
	st = open_ok(CXX);
	f = find_name(st, "ns::squares(int)");
	assert_non_null(f);
	snprintf(want, sizeof(want), "/cli_cxx_target.cc:%u in "
		 "ns::squares(int)", call);
	for (a = f->addr; a < f->end; a++) {
		if (symtab_line(st, a, &l))
			continue;
		assert_string_equal(base_name(l.file), "cli_cxx_target.cc");
		assert_non_null(l.func);
		if (l.line == sq) {
			inlined = true;
			assert_memory_equal(l.func, "square inlined at ", 18);
			if (!strstr(l.func, want))
				fail_msg("%#llx: \"%s\", want \"...%s\"",
					 (unsigned long long)a, l.func, want);
		} else if (!strcmp(l.func, "ns::squares(int)")) {
			own = true;
		}
	}
	assert_true(inlined);
	assert_true(own);
	symtab_close(st);
}

/* bt_hidden, a static function, and bt_dwarf's lines are back. */
static void expect_full_symbols(struct symtab *st, uint64_t b, uint64_t d)
{
	struct sym_line l;

	expect_bounds(st, "bt_first", b, b + 48);
	expect_bounds(st, "bt_hidden", b + 0x40, b + 0x60);
	assert_int_equal(symtab_line(st, d, &l), 0);
	assert_string_equal(base_name(l.file), "cli_bounds_target.c");
	assert_string_equal(l.func, "bt_dwarf");
}

/* Stripped, with a .gnu_debuglink to the debug file beside it. */
static void test_source_debuglink(void **state)
{
	struct symtab *st;
	uint64_t b, d;

	(void)state;
	bounds_addrs(&b, &d);
	st = open_ok(BOUNDS ".linked");
	expect_full_symbols(st, b, d);
	symtab_close(st);
}

/*
 * MiniDebugInfo: .dynsym has the exported functions, .gnu_debugdata the
 * static one; no DWARF, so no lines.
 */
static void test_source_minidebuginfo(void **state)
{
	struct symtab *st;
	struct sym_line l;
	uint64_t b, d;

	(void)state;
	bounds_addrs(&b, &d);
	st = open_ok(BOUNDS ".mini");
	expect_bounds(st, "bt_first", b, b + 48);
	expect_bounds(st, "bt_second", b + 0x80, b + 0x90);
	expect_bounds(st, "bt_hidden", b + 0x40, b + 0x60);
	assert_int_equal(symtab_line(st, d, &l), -1);
	expect_disjoint(st);
	symtab_close(st);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_self_pie),
		cmocka_unit_test(test_target),
		cmocka_unit_test(test_dynsym_only),
		cmocka_unit_test(test_no_symbols),
		cmocka_unit_test(test_plt_irelative),
		cmocka_unit_test(test_not_elf),
		cmocka_unit_test(test_find_edges),
		cmocka_unit_test(test_bounds_symtab),
		cmocka_unit_test(test_bounds_dynsym),
		cmocka_unit_test(test_bounds_dwarf),
		cmocka_unit_test(test_bounds_unknown_rows),
		cmocka_unit_test(test_demangle),
		cmocka_unit_test(test_cxx_names),
		cmocka_unit_test(test_cxx_inlined_lines),
		cmocka_unit_test(test_source_debuglink),
		cmocka_unit_test(test_source_minidebuginfo),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
