// SPDX-License-Identifier: GPL-2.0
/*
 * A shared library for test_cli_profile*: functions at the library's
 * link-time addresses (near 0, as every PIC object has them), which a
 * whole-program profile charges and whose gmon.out gprof must read.
 */
int so_work(int n)
{
	int i, s = 0;

	for (i = 0; i < n; i++)
		s += i * i;
	return s;
}

int so_other(int n)
{
	return n + 1;
}

/*
 * One function, two names: the symbol table's preferred one (gprof's
 * rule: global, no leading '_', then the first by name: so_aa_alias)
 * and DWARF's (so_impl_zz, the definition's).
 */
int so_impl_zz(int n)
{
	return 3 * n + 1;
}

int so_aa_alias(int n) __attribute__((alias("so_impl_zz")));

/*
 * A compat alias: the symbol table's "so_a_old@SO_1" (a non-default
 * version, cli_so_target.map) and so_b_new at one address, as glibc's
 * cfree@GLIBC_2.2.5 and free. The plain name is the function's.
 */
int so_b_new(int n)
{
	return 5 * n + 2;
}

__asm__(".symver so_b_new, so_a_old@SO_1");
