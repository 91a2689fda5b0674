// SPDX-License-Identifier: GPL-2.0
/* Lookups the profil-ctl unit tests share (cli_test.h). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "cli_test.h"
#include "symbols.h"

uint64_t cli_test_func_addr(const char *path, const char *name)
{
	const struct sym_func *f;
	struct symtab *st;
	char e[256];
	size_t n, i;
	uint64_t a = 0;

	st = symtab_open(path, e, sizeof(e));
	if (!st)
		fail_msg("%s: %s", path, e);
	f = symtab_funcs(st, &n);
	for (i = 0; i < n; i++)
		if (!strcmp(f[i].name, name))
			a = f[i].addr;
	symtab_close(st);
	if (!a)
		fail_msg("%s: no %s", path, name);
	return a;
}

void cli_test_has(const char *text, const char *s)
{
	if (!strstr(text, s))
		fail_msg("no \"%s\" in:\n%s", s, text);
}
