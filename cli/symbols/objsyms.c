// SPDX-License-Identifier: GPL-2.0
/*
 * A profile object's symbol table (objsyms.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "objsyms.h"

static struct symtab *of_funcs(const struct profile_object *o, char *err,
			       size_t errlen)
{
	struct sym_func *v = calloc(o->nfuncs, sizeof(*v));
	struct symtab *st = NULL;
	size_t i;

	if (v) {
		for (i = 0; i < o->nfuncs; i++) {
			v[i].addr = o->funcs[i].addr;
			v[i].end = o->funcs[i].end;
			v[i].name = o->funcs[i].name;
		}
		st = symtab_of_funcs(v, o->nfuncs);
		free(v);
	}
	if (!st)
		snprintf(err, errlen, "%s", strerror(ENOMEM));
	return st;
}

struct symtab *objsyms_open(const struct profile_object *o, char *err,
			    size_t errlen)
{
	const char *file = o->symfile ? o->symfile : o->path;

	if (o->nfuncs)
		return of_funcs(o, err, errlen);
	if (!o->symfile && file[0] == '[') {
		if (errlen)
			err[0] = '\0';
		return NULL;
	}
	return symtab_open_as(file, o->path, err, errlen);
}
