// SPDX-License-Identifier: GPL-2.0
/*
 * demangle() through libstdc++ (see demangle.h); profil-ctl links
 * -lstdc++ for it, and parses no mangled name itself.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "demangle.h"

/*
 * libstdc++'s, declared in <cxxabi.h>, a C++ header; extern "C", so C
 * can call it. A malloc'ed result, *@status 0, or NULL and *@status < 0.
 */
char *__cxa_demangle(const char *mangled, char *buf, size_t *len,
		     int *status);

char *demangle(const char *name)
{
	const char *at;
	char *base, *out, *full;
	size_t len;
	int status = -1;

	if (strncmp(name, "_Z", 2))
		return NULL;
	at = strchr(name, '@');
	if (!at)
		return __cxa_demangle(name, NULL, NULL, &status);
	/* The demangler does not know symbol versions: keep them aside. */
	base = strndup(name, (size_t)(at - name));
	if (!base)
		return NULL;
	out = __cxa_demangle(base, NULL, NULL, &status);
	free(base);
	if (!out)
		return NULL;
	len = strlen(out);
	full = realloc(out, len + strlen(at) + 1);
	if (!full) {
		free(out);
		return NULL;
	}
	strcpy(full + len, at);
	return full;
}
