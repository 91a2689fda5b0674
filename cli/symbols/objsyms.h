/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The symbol table of a profile's object: the functions the profile
 * itself holds for it (a JIT's, from its perf map), else its file's.
 */
#ifndef PROFIL_CTL_OBJSYMS_H
#define PROFIL_CTL_OBJSYMS_H

#include <stddef.h>

#include "profile.h"
#include "symbols.h"

/**
 * objsyms_open() - @o's symbol table: symtab_of_funcs() of @o->funcs
 * when it has some; else symtab_open_as() of its @symfile or @path,
 * unless that is a "[...]" name, no file
 * Return: the table, or NULL with @err set ("" for an object with
 * neither functions nor a file: addresses only).
 */
struct symtab *objsyms_open(const struct profile_object *o, char *err,
			    size_t errlen);

#endif /* PROFIL_CTL_OBJSYMS_H */
