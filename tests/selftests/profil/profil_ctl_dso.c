// SPDX-License-Identifier: GPL-2.0
/*
 * The hot code profil_ctl_work's "dlopen" mode loads: a library mapped
 * long after the program started, which profil-ctl must cover by itself.
 */
__attribute__((noinline)) unsigned long hot_dso(unsigned long n)
{
	volatile unsigned long x = 0x5678;
	unsigned long i;

	for (i = 0; i < n; i++)
		x = x * 2246822519UL + 0x3c3c;
	return x;
}
