// SPDX-License-Identifier: GPL-2.0
/*
 * insn_mark reset|dump: run one of two functions that insn_count.c, the
 * QEMU plugin, watches for. Linked static at a fixed address of its own
 * (the Makefile's -Ttext-segment), so that no other program's code is
 * there; make bench-insns reads the two addresses off the binary.
 */
#include <string.h>

__attribute__((noinline)) void insn_mark_reset(void)
{
	__asm__ volatile("nop");
}

__attribute__((noinline)) void insn_mark_dump(void)
{
	__asm__ volatile("nop");
}

int main(int argc, char **argv)
{
	if (argc == 2 && !strcmp(argv[1], "reset"))
		insn_mark_reset();
	else if (argc == 2 && !strcmp(argv[1], "dump"))
		insn_mark_dump();
	else
		return 2;
	return 0;
}
