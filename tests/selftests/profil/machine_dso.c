// SPDX-License-Identifier: GPL-2.0
/*
 * The library machine_bounds_test dlopen()s: two loops of their own, each
 * a function whose range the test looks up (dladdr1()), so that a
 * sample's offset tells which one ran. Different constants keep the
 * compiler from folding them into one.
 */
__attribute__((noinline, noipa)) unsigned long machine_dso_a(unsigned long n)
{
	volatile unsigned long x = 0x1234;
	unsigned long i;

	for (i = 0; i < n; i++)
		x = x * 2654435761UL + 0x5a5a;
	return x;
}

__attribute__((noinline, noipa)) unsigned long machine_dso_b(unsigned long n)
{
	volatile unsigned long x = 0x4321;
	unsigned long i;

	for (i = 0; i < n; i++)
		x = x * 40503UL + 0xa5a5;
	return x;
}
