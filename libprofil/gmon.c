// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The gmon.out writer (see glibc's gmon/sys/gmon_out.h and gprof/hist.c).
 *
 * Layout, host byte order and pointer width:
 *   header: "gmon", int32 version 1, 12 zero bytes
 *   TIME_HIST record: tag 0, low_pc, high_pc (pointer-sized), u32 hist_size,
 *   u32 prof_rate, "seconds" NUL-padded to 15 bytes, 's', then hist_size
 *   u16 bins.
 * Counts above 65535 are carried by further records with the identical
 * [low_pc, high_pc), which gprof sums.
 *   CG_ARC record: tag 1, from_pc, self_pc (pointer-sized), u32 count;
 *   a count above 2^32 - 1 is carried by further records of the same arc,
 *   which gprof also sums.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <unistd.h>

#include "profil.h"
#include "internal.h"

#define GMON_MAGIC	"gmon"
#define GMON_VERSION	1
#define GMON_TAG_TIME_HIST 0
#define GMON_TAG_CG_ARC	1
#define GMON_PATH_MAX	4096

static int pf_put(FILE *f, const void *p, size_t n)
{
	return fwrite(p, 1, n, f) == n ? 0 : -1;
}

static uint64_t pf_count(const struct profil_gmon_hist *h, size_t i)
{
	switch (h->width) {
	case 2:
		return ((const uint16_t *)h->counts)[i];
	case 4:
		return ((const uint32_t *)h->counts)[i];
	default:
		return ((const uint64_t *)h->counts)[i];
	}
}

static int pf_put_hist_hdr(FILE *f, const struct profil_gmon_hist *h)
{
	static const char dimen[15] = "seconds";
	uintptr_t low = (uintptr_t)h->low_pc, high = (uintptr_t)h->high_pc;
	unsigned char tag = GMON_TAG_TIME_HIST;
	char abbrev = 's';

	if (pf_put(f, &tag, 1) || pf_put(f, &low, sizeof(low)) ||
	    pf_put(f, &high, sizeof(high)) ||
	    pf_put(f, &h->hist_size, sizeof(h->hist_size)) ||
	    pf_put(f, &h->prof_rate, sizeof(h->prof_rate)) ||
	    pf_put(f, dimen, sizeof(dimen)) || pf_put(f, &abbrev, 1))
		return -1;
	return 0;
}

/* Record @k carries min(65535, count - 65535 * k) of every bin. */
static int pf_put_hist(FILE *f, const struct profil_gmon_hist *h, uint64_t k)
{
	uint16_t bin;
	uint64_t c;
	size_t i;

	if (pf_put_hist_hdr(f, h))
		return -1;
	for (i = 0; i < h->hist_size; i++) {
		c = pf_count(h, i);
		if (c / 65535 > k)
			bin = 65535;
		else if (c > k * 65535)
			bin = (uint16_t)(c - k * 65535);
		else
			bin = 0;	/* carried by earlier records */
		if (pf_put(f, &bin, sizeof(bin)))
			return -1;
	}
	return 0;
}

PROFIL_EXPORT int profil_gmon_write(FILE *f,
				    const struct profil_gmon_hist *h)
{
	const int32_t version = GMON_VERSION;
	static const char spare[12];
	uint64_t max = 0, records, k;
	int saved = errno;
	size_t i;

	if (!f || !h || (h->hist_size && !h->counts) ||
	    (h->width != 2 && h->width != 4 && h->width != 8) ||
	    h->high_pc < h->low_pc || (uint64_t)(uintptr_t)h->high_pc !=
	    h->high_pc) {
		pf_err_set(EINVAL, NULL);
		return -1;
	}
	for (i = 0; i < h->hist_size; i++)
		if (pf_count(h, i) > max)
			max = pf_count(h, i);
	/* At least one record, so gprof does not report "missing histogram". */
	records = max ? (max + 65534) / 65535 : 1;

	errno = 0;	/* a stream may fail without setting it: then EIO */
	if (pf_put(f, GMON_MAGIC, 4) || pf_put(f, &version, sizeof(version)) ||
	    pf_put(f, spare, sizeof(spare)))
		goto err;
	for (k = 0; k < records; k++)
		if (pf_put_hist(f, h, k))
			goto err;
	if (fflush(f))
		goto err;
	errno = saved;
	return 0;
err:
	pf_err_set(errno ? errno : EIO, NULL);
	return -1;
}

static int pf_put_arc(FILE *f, const struct profil_gmon_arc *a)
{
	uintptr_t from = (uintptr_t)a->from_pc, self = (uintptr_t)a->self_pc;
	unsigned char tag = GMON_TAG_CG_ARC;
	uint64_t left = a->count;
	uint32_t c;

	while (left) {
		c = left > UINT32_MAX ? UINT32_MAX : (uint32_t)left;
		if (pf_put(f, &tag, 1) || pf_put(f, &from, sizeof(from)) ||
		    pf_put(f, &self, sizeof(self)) || pf_put(f, &c, sizeof(c)))
			return -1;
		left -= c;
	}
	return 0;
}

PROFIL_EXPORT int profil_gmon_write_arcs(FILE *f,
					 const struct profil_gmon_arc *arcs,
					 size_t n)
{
	int saved = errno;
	size_t i;

	if (!f || (n && !arcs)) {
		pf_err_set(EINVAL, NULL);
		return -1;
	}
	for (i = 0; i < n; i++)
		if ((uint64_t)(uintptr_t)arcs[i].from_pc != arcs[i].from_pc ||
		    (uint64_t)(uintptr_t)arcs[i].self_pc != arcs[i].self_pc) {
			pf_err_set(EINVAL, NULL);
			return -1;
		}
	errno = 0;
	for (i = 0; i < n; i++)
		if (pf_put_arc(f, &arcs[i]))
			goto err;
	if (fflush(f))
		goto err;
	errno = saved;
	return 0;
err:
	pf_err_set(errno ? errno : EIO, NULL);
	return -1;
}

static int pf_bias_cb(struct dl_phdr_info *info, size_t size, void *data)
{
	(void)size;
	/* The first entry is the main program (its name is empty). */
	*(uint64_t *)data = info->dlpi_addr;
	return 1;
}

uint64_t pf_gmon_load_bias(void)
{
	uint64_t bias = 0;

	dl_iterate_phdr(pf_bias_cb, &bias);
	return bias;
}

/* gmon.out, or gmon.out.<pid> in a forked child. */
static int pf_gmon_default(char *buf, size_t len, bool forked)
{
	int n;

	if (forked)
		n = snprintf(buf, len, "gmon.out.%ld", (long)getpid());
	else
		n = snprintf(buf, len, "gmon.out");
	if (n < 0 || (size_t)n >= len) {
		errno = ENAMETOOLONG;
		return -1;
	}
	return 0;
}

int pf_gmon_filename(char *buf, size_t len)
{
	return pf_gmon_name(buf, len, false);
}

int pf_gmon_name(char *buf, size_t len, bool forked)
{
	const char *prefix = getenv("GMON_OUT_PREFIX");
	int n;

	if (!prefix || !*prefix || getauxval(AT_SECURE))
		return pf_gmon_default(buf, len, forked);
	n = snprintf(buf, len, "%s.%ld", prefix, (long)getpid());
	if (n < 0 || (size_t)n >= len) {
		errno = ENAMETOOLONG;
		return -1;
	}
	return 0;
}

/* Creates a temporary file next to @name; returns its FILE. */
static FILE *pf_tmpfile(const char *name, char *tmp, size_t len)
{
	unsigned int i;
	int fd, n;
	FILE *f;

	for (i = 0; i < 100; i++) {
		n = snprintf(tmp, len, "%s.%ld.%u.tmp", name, (long)getpid(), i);
		if (n < 0 || (size_t)n >= len) {
			errno = ENAMETOOLONG;
			return NULL;
		}
		fd = open(tmp, O_CREAT | O_EXCL | O_WRONLY | O_NOFOLLOW |
			  O_CLOEXEC, 0666);
		if (fd >= 0)
			break;
		if (errno != EEXIST)
			return NULL;
	}
	if (fd < 0)
		return NULL;
	f = fdopen(fd, "w");
	if (!f) {
		int err = errno;

		close(fd);
		unlink(tmp);
		errno = err;
	}
	return f;
}

/*
 * Writes @h to @name through a temporary file renamed over it. -1 with
 * errno set on failure; *@created tells whether the temporary file could
 * be created and renamed to @name, which is what glibc's fallback is about.
 */
static int pf_gmon_save_as(const char *name, const struct profil_gmon_hist *h,
			   const struct pf_gmon_out *o, bool *created)
{
	char tmp[GMON_PATH_MAX + 32];
	int err, ret = 0;
	FILE *f;

	*created = false;
	f = pf_tmpfile(name, tmp, sizeof(tmp));
	if (!f)
		return -1;
	if (profil_gmon_write(f, h) < 0 ||
	    profil_gmon_write_arcs(f, o->arcs, o->narcs) < 0)
		ret = -1;
	err = errno;
	if (fclose(f) && !ret) {
		ret = -1;
		err = errno;
	}
	*created = true;	/* a write error: the file's, not the name's */
	if (!ret && rename(tmp, name) < 0) {
		ret = -1;
		err = errno;
		*created = false;
	}
	if (ret) {
		unlink(tmp);
		errno = err;
	}
	return ret;
}

int pf_gmon_save(const char *who, uint64_t lowpc, uint64_t highpc,
		 const unsigned short *bins, size_t nbins, uint32_t rate)
{
	struct pf_gmon_out o = {
		.lowpc = lowpc, .highpc = highpc, .bins = bins,
		.nbins = nbins, .rate = rate,
	};

	return pf_gmon_save_out(who, &o);
}

int pf_gmon_save_out(const char *who, struct pf_gmon_out *o)
{
	char name[GMON_PATH_MAX], dflt[64];
	uint64_t bias = pf_gmon_load_bias();
	struct profil_gmon_hist h = {
		.low_pc = o->lowpc - bias,
		.high_pc = o->highpc - bias,
		.hist_size = (uint32_t)o->nbins,
		.prof_rate = o->rate,
		.counts = o->bins,
		.width = sizeof(*o->bins),
	};
	bool created;
	size_t i;
	int err;

	pf_gmon_default(dflt, sizeof(dflt), o->forked);
	snprintf(name, sizeof(name), "%s", dflt);
	if (o->nbins > UINT32_MAX || o->lowpc < bias) {
		errno = EINVAL;
		goto err_report;
	}
	for (i = 0; i < o->narcs; i++) {
		o->arcs[i].from_pc -= bias;
		o->arcs[i].self_pc -= bias;
	}
	/*
	 * As glibc's write_gmon(): $GMON_OUT_PREFIX.<pid> if that file can be
	 * created, else the default name in the current directory, silently;
	 * only a failure of the last file tried is reported. The default is
	 * gmon.out, and gmon.out.<pid> in a forked child, so that parent and
	 * child never write the same file.
	 */
	if (pf_gmon_name(name, sizeof(name), o->forked) == 0 &&
	    strcmp(name, dflt)) {
		if (pf_gmon_save_as(name, &h, o, &created) == 0)
			return 0;
		if (created)
			goto err_report;
	}
	snprintf(name, sizeof(name), "%s", dflt);
	if (pf_gmon_save_as(name, &h, o, &created) == 0)
		return 0;

err_report:
	err = errno;
	fprintf(stderr, "%s: %s: %s\n", who, name, strerror(err));
	pf_err_set(err, NULL);
	return -1;
}
