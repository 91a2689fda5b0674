// SPDX-License-Identifier: GPL-2.0
/*
 * render_gmon() (render.h): a struct hist back to a gmon.out file,
 * through libprofil's writer.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>

#include "profil.h"
#include "render.h"

/* Writes the records of @rg (all but the file header) to @out. */
static int gmon_range(FILE *out, const struct hist_range *rg, uint32_t rate,
		      bool with_header)
{
	struct profil_gmon_hist g = {
		.low_pc = rg->low_pc, .high_pc = rg->high_pc,
		.hist_size = (uint32_t)rg->nbins, .prof_rate = rate,
		.counts = rg->bins, .width = sizeof(*rg->bins),
	};
	const size_t hdr = 20;	/* "gmon", version, spare */
	char *buf = NULL;
	size_t len = 0;
	FILE *mem;
	int ret;

	if (rg->nbins > UINT32_MAX) {
		errno = EINVAL;
		return -1;
	}
	if (with_header)
		return profil_gmon_write(out, &g);
	/* libprofil's writer always starts a file: drop its header. */
	mem = open_memstream(&buf, &len);
	if (!mem)
		return -1;
	ret = profil_gmon_write(mem, &g);
	if (fclose(mem))
		ret = -1;
	if (!ret && (len < hdr ||
		     fwrite(buf + hdr, 1, len - hdr, out) != len - hdr))
		ret = -1;
	free(buf);
	return ret;
}

/* The arcs as read, through libprofil's writer (struct hist_arc's twin). */
static int gmon_arcs(FILE *out, const struct hist *h)
{
	struct profil_gmon_arc *a;
	size_t i;
	int ret;

	if (!h->narcs)
		return 0;
	a = calloc(h->narcs, sizeof(*a));
	if (!a)
		return -1;
	for (i = 0; i < h->narcs; i++)
		a[i] = (struct profil_gmon_arc){ .from_pc = h->arcs[i].from_pc,
						 .self_pc = h->arcs[i].self_pc,
						 .count = h->arcs[i].count };
	ret = profil_gmon_write_arcs(out, a, h->narcs);
	free(a);
	return ret;
}

int render_gmon(FILE *out, const struct hist *h)
{
	size_t i;

	if (!h->nranges) {
		errno = EINVAL;
		return -1;
	}
	for (i = 0; i < h->nranges; i++)
		if (gmon_range(out, &h->ranges[i], h->rate, i == 0))
			return -1;
	if (gmon_arcs(out, h))
		return -1;
	return fflush(out) ? -1 : 0;
}
