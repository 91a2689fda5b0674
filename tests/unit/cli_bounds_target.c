// SPDX-License-Identifier: GPL-2.0
/*
 * Functions of known bounds for test_cli_symbols and test_cli_report,
 * laid out by hand (64-byte aligned, NOPs and a RET) from BT_BASE:
 *
 *   +0x000  bt_first    global, 48 bytes; padding to +0x040
 *   +0x040  bt_hidden   static (.symtab only), 32 bytes; padding
 *   +0x080  bt_second   global, 16 bytes; padding
 *   +0x0c0  bt_nosize   global, no .size and no DWARF: no bounds
 *   +0x100  bt_outer    global, 64 bytes, and inside it
 *   +0x108  bt_label    global, no size: a label, not a function
 *   +0x120  bt_inner    global, 16 bytes
 *   +0x140  end
 *
 * bt_dwarf is C, built with -g: its DWARF range is its ELF size, which
 * the test zeroes in a copy. Run, the program prints BT_BASE and
 * bt_dwarf's address (not PIE: link-time addresses).
 */
#include <stdio.h>

#define NOPS(n) "	.fill " #n ", 1, 0x90\n"
#define FUNC(name) "	.globl " #name "\n	.type " #name ", @function\n" \
	#name ":\n"

__asm__("	.text\n"
	"	.p2align 6\n"
	FUNC(bt_first) NOPS(47) "	ret\n"
	"	.size bt_first, . - bt_first\n"
	"	.p2align 6\n"
	"	.type bt_hidden, @function\n"
	"bt_hidden:\n" NOPS(31) "	ret\n"
	"	.size bt_hidden, . - bt_hidden\n"
	"	.p2align 6\n"
	FUNC(bt_second) NOPS(15) "	ret\n"
	"	.size bt_second, . - bt_second\n"
	"	.p2align 6\n"
	FUNC(bt_nosize) NOPS(7) "	ret\n"
	"	.p2align 6\n"
	FUNC(bt_outer) NOPS(8)
	FUNC(bt_label) NOPS(24)
	FUNC(bt_inner) NOPS(15) "	ret\n"
	"	.size bt_inner, . - bt_inner\n"
	NOPS(15) "	ret\n"
	"	.size bt_outer, . - bt_outer\n"
	"	.p2align 6\n");

void bt_first(void);

__attribute__((noinline)) int bt_dwarf(int x)
{
	int i, s = 0;

	for (i = 0; i < x; i++)
		s += i * x ^ 0x55;
	return s;
}

int main(int argc, char **argv)
{
	(void)argv;
	printf("bt_base %p\n", (void *)bt_first);
	printf("bt_dwarf %p\n", (void *)bt_dwarf);
	return bt_dwarf(argc) == 0x55 ? 0 : 1;
}
