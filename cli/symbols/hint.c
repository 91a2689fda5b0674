// SPDX-License-Identifier: GPL-2.0
/*
 * The "what is missing" hint (hint.h): Debian strips its files into
 * -dbgsym packages and runs a debuginfod server; code of one's own is
 * named by rebuilding it with -g.
 */
#include <stdio.h>
#include <string.h>

#include "hint.h"

/* Debian's public debuginfod server (wiki.debian.org/Debuginfod). */
#define DEBIAN_DEBUGINFOD "https://debuginfod.debian.net"

struct share_ctx {
	struct sym_share *sh;
	const struct sym_func *funcs;
	size_t n;
};

static int share_bin(void *ctx, uint64_t lo, uint64_t hi, uint64_t count)
{
	struct share_ctx *x = ctx;
	const struct sym_func *f = sym_func_find(x->funcs, x->n, lo);

	(void)hi;
	if (!f)
		x->sh->unknown += count;
	else if (f->flags & SYM_FUNC_FDE)
		x->sh->fde += count;
	else
		x->sh->named += count;
	return 0;
}

void sym_share_add(struct sym_share *sh, const struct hist *h,
		   const struct sym_func *funcs, size_t n)
{
	struct share_ctx x = { sh, funcs, n };

	hist_each_bin(h, share_bin, &x);
}

/* Files a distribution package installs, which its -dbgsym package names. */
static bool system_file(const char *path)
{
	return !strncmp(path, "/usr/", 5) || !strncmp(path, "/lib", 4);
}

bool sym_hint(char *buf, size_t len, const struct sym_share *sh,
	      const char *path, bool has_build_id,
	      const char *debuginfod_urls)
{
	uint64_t all = sh->named + sh->fde + sh->unknown;
	uint64_t unnamed = sh->fde + sh->unknown;
	bool ask = has_build_id && (!debuginfod_urls || !*debuginfod_urls);
	const char *what;

	if (len)
		buf[0] = '\0';
	if (!all || 2 * unnamed <= all)
		return false;
	if (system_file(path))
		what = ask ? "install its -dbgsym package, or set "
			     "DEBUGINFOD_URLS=" DEBIAN_DEBUGINFOD :
			     "install its -dbgsym package";
	else
		what = ask ? "rebuild it with -g, or set DEBUGINFOD_URLS to a "
			     "server that has its debug info" :
			     "rebuild it with -g";
	snprintf(buf, len, "%s: %.1f%% of its samples are in unnamed code "
		 "(unwind-table ranges %.1f%%, [unknown] %.1f%%): %s", path,
		 100.0 * (double)unnamed / (double)all,
		 100.0 * (double)sh->fde / (double)all,
		 100.0 * (double)sh->unknown / (double)all, what);
	return true;
}
