// SPDX-License-Identifier: GPL-2.0
/*
 * A program for test_cli_symbols to symbolize. Run, it prints each
 * function's name, address and the line of its opening brace, which the
 * test compares with what cli/symbols/symbols.c reads from the file. Built
 * without PIE, so run-time and link-time addresses are the same.
 */
#include <stdio.h>

/* The entry's line is the marker's: declarator and brace on one line. */
int target_alpha(int x) { /* TARGET_ALPHA_LINE */
	return x * 3 + 1;
}

int target_beta(int x) { /* TARGET_BETA_LINE */
	int i, s = 0;

	for (i = 0; i < x; i++)
		s += target_alpha(i);
	return s;
}

int main(int argc, char **argv)
{
	(void)argv;
	printf("target_alpha %p\n", (void *)target_alpha);
	printf("target_beta %p\n", (void *)target_beta);
	return target_beta(argc) == 1 ? 0 : 1;
}
