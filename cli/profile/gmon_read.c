// SPDX-License-Identifier: GPL-2.0
/*
 * gmon.out reader. Layout (host order of the writer, pointer-sized pcs):
 *
 *   header    "gmon", int32 version (1), 12 spare bytes
 *   record    u8 tag, then by tag:
 *     0 TIME_HIST  low_pc, high_pc, u32 hist_size, u32 prof_rate,
 *                  char dimen[15], char abbrev, u16 bins[hist_size]
 *     1 CG_ARC     from_pc, self_pc, u32 count
 *     2 BB_COUNT   u32 nblocks, then nblocks x (pc addr, pc count)
 *
 * Every length is checked against the bytes left before anything is
 * allocated, so a file cannot ask for more memory than its own size
 * (times 4: bins are kept as u64).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gmon_read.h"

#define GMON_HDR_LEN	20
#define GMON_VERSION	1
#define TAG_TIME_HIST	0
#define TAG_CG_ARC	1
#define TAG_BB_COUNT	2
#define DIMEN_LEN	15

struct gmon_cursor {
	const unsigned char *p;
	size_t len;
	size_t off;		/* of the next byte */
	size_t rec;		/* offset of the record being read */
	unsigned int ptr_size;
	bool big_endian;
	char *err;
	size_t errlen;
};

/* The first histogram's parameters, which later ones must repeat. */
struct gmon_first {
	bool seen;
	size_t off;
	uint32_t rate;
	double scale;
	char dimen[DIMEN_LEN];
	char abbrev;
};

static int gmon_fail(struct gmon_cursor *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int gmon_fail(struct gmon_cursor *c, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(c->err, c->errlen, fmt, ap);
	va_end(ap);
	errno = EINVAL;
	return -1;
}

static bool gmon_has(const struct gmon_cursor *c, size_t n)
{
	return c->len - c->off >= n;
}

static uint64_t gmon_uint(struct gmon_cursor *c, size_t n)
{
	const unsigned char *q = c->p + c->off;
	uint64_t v = 0;
	size_t i;

	for (i = 0; i < n; i++)
		v |= (uint64_t)q[c->big_endian ? n - 1 - i : i] << (8 * i);
	c->off += n;
	return v;
}

static const char *tag_name(unsigned int tag)
{
	switch (tag) {
	case TAG_TIME_HIST:
		return "TIME_HIST";
	case TAG_CG_ARC:
		return "CG_ARC";
	default:
		return "BB_COUNT";
	}
}

static int gmon_truncated(struct gmon_cursor *c, unsigned int tag,
			  size_t need)
{
	return gmon_fail(c, "offset %zu: %s record truncated: needs %zu "
			 "bytes, %zu left", c->rec, tag_name(tag), need,
			 c->len - c->rec - 1);
}

static int gmon_check_first(struct gmon_cursor *c, struct gmon_first *f,
			    uint32_t rate, double scale, const char *dimen,
			    char abbrev)
{
	if (!f->seen) {
		f->seen = true;
		f->off = c->rec;
		f->rate = rate;
		f->scale = scale;
		memcpy(f->dimen, dimen, DIMEN_LEN);
		f->abbrev = abbrev;
		return 0;
	}
	if (memcmp(f->dimen, dimen, DIMEN_LEN) || f->abbrev != abbrev)
		return gmon_fail(c, "offset %zu: TIME_HIST record: dimension "
				 "'%.15s' ('%c') differs from '%.15s' ('%c') "
				 "of the record at offset %zu", c->rec, dimen,
				 abbrev, f->dimen, f->abbrev, f->off);
	/* gprof's tolerance, in 2-byte units per bin. */
	if (fabs(f->scale - scale) > 0.000001)
		return gmon_fail(c, "offset %zu: TIME_HIST record: scale %g "
				 "bytes per bin differs from %g of the record "
				 "at offset %zu", c->rec, 2 * scale,
				 2 * f->scale, f->off);
	if (f->rate != rate)
		return gmon_fail(c, "offset %zu: TIME_HIST record: rate %u Hz "
				 "differs from %u Hz of the record at offset "
				 "%zu", c->rec, rate, f->rate, f->off);
	return 0;
}

/*
 * A TIME_HIST record as read, before the merge: its range and bins and
 * where it is in the file (for messages).
 */
struct gmon_hrec {
	struct hist_range r;
	size_t off;
};

/* The records read so far, in file order; the array grows by doubling. */
struct gmon_hrecs {
	struct gmon_hrec *v;
	size_t n;
	size_t cap;
};

/*
 * Units of work of the last gmon_read_mem(): one per record, per bin
 * read or summed, per element moved (growth, sort, merge) and per sort
 * bucket visited, so that a test can check they grow linearly.
 */
static unsigned long long gmon_work;

unsigned long long gmon_read_work(void)
{
	return gmon_work;
}

static int gmon_nomem(struct gmon_cursor *c)
{
	snprintf(c->err, c->errlen, "offset %zu: %s", c->rec,
		 strerror(ENOMEM));
	errno = ENOMEM;
	return -1;
}

static int gmon_hrecs_push(struct gmon_cursor *c, struct gmon_hrecs *hr,
			   const struct gmon_hrec *e)
{
	struct gmon_hrec *nv;
	size_t cap;

	if (hr->n == hr->cap) {
		cap = hr->cap ? 2 * hr->cap : 16;
		nv = realloc(hr->v, cap * sizeof(*nv));
		if (!nv)
			return gmon_nomem(c);
		gmon_work += hr->n;
		hr->v = nv;
		hr->cap = cap;
	}
	hr->v[hr->n++] = *e;
	gmon_work++;
	return 0;
}

static void gmon_hrecs_free(struct gmon_hrecs *hr)
{
	size_t i;

	for (i = 0; i < hr->n; i++)
		free(hr->v[i].r.bins);
	free(hr->v);
	memset(hr, 0, sizeof(*hr));
}

static int gmon_time_hist(struct gmon_cursor *c, struct gmon_first *f,
			  struct gmon_hrecs *hr)
{
	size_t hdr = 2 * c->ptr_size + 4 + 4 + DIMEN_LEN + 1, i;
	struct gmon_hrec e = { .off = c->rec };
	uint64_t low, high;
	uint32_t nbins, rate;
	char dimen[DIMEN_LEN], abbrev;
	double scale;

	if (!gmon_has(c, hdr))
		return gmon_truncated(c, TAG_TIME_HIST, hdr);
	low = gmon_uint(c, c->ptr_size);
	high = gmon_uint(c, c->ptr_size);
	nbins = (uint32_t)gmon_uint(c, 4);
	rate = (uint32_t)gmon_uint(c, 4);
	memcpy(dimen, c->p + c->off, DIMEN_LEN);
	abbrev = (char)c->p[c->off + DIMEN_LEN];
	c->off += DIMEN_LEN + 1;

	if (high <= low)
		return gmon_fail(c, "offset %zu: TIME_HIST record: empty "
				 "range [%#llx, %#llx)", c->rec,
				 (unsigned long long)low,
				 (unsigned long long)high);
	if (!nbins)
		return gmon_fail(c, "offset %zu: TIME_HIST record: no bins "
				 "(hist_size 0)", c->rec);
	if (nbins > high - low)
		return gmon_fail(c, "offset %zu: TIME_HIST record: %u bins "
				 "for %llu bytes (more bins than bytes)",
				 c->rec, nbins,
				 (unsigned long long)(high - low));
	if (!gmon_has(c, 2 * (size_t)nbins))
		return gmon_fail(c, "offset %zu: TIME_HIST record truncated: "
				 "hist_size %u needs %zu bytes of bins, %zu "
				 "left", c->rec, nbins, 2 * (size_t)nbins,
				 c->len - c->off);
	scale = (double)((high - low) / 2) / nbins;
	if (gmon_check_first(c, f, rate, scale, dimen, abbrev))
		return -1;

	e.r = (struct hist_range){ .low_pc = low, .high_pc = high,
				   .nbins = nbins };
	e.r.bins = malloc(nbins * sizeof(*e.r.bins));
	if (!e.r.bins)
		return gmon_nomem(c);
	for (i = 0; i < nbins; i++)
		e.r.bins[i] = gmon_uint(c, 2);
	gmon_work += nbins;
	if (gmon_hrecs_push(c, hr, &e)) {
		free(e.r.bins);
		return -1;
	}
	return 0;
}

/*
 * The records by low_pc, stably (records of one low_pc stay in file
 * order): nothing to do when they are in order already, as writers emit
 * them; else a least-significant-digit radix sort, one pass per byte of
 * low_pc in which the records differ: linear in their number.
 */
static int gmon_hrecs_sort(struct gmon_hrecs *hr)
{
	size_t count[256], i, d, n = hr->n;
	struct gmon_hrec *tmp, *t;
	bool sorted = true;

	for (i = 1; i < n && sorted; i++)
		sorted = hr->v[i - 1].r.low_pc <= hr->v[i].r.low_pc;
	gmon_work += n;
	if (sorted)
		return 0;
	tmp = malloc(n * sizeof(*tmp));
	if (!tmp)
		return -1;
	for (d = 0; d < 64; d += 8) {
		size_t sum = 0, c;

		memset(count, 0, sizeof(count));
		for (i = 0; i < n; i++)
			count[(hr->v[i].r.low_pc >> d) & 0xff]++;
		gmon_work += n + 256;
		if (count[(hr->v[0].r.low_pc >> d) & 0xff] == n)
			continue;	/* one value of this byte: no move */
		for (i = 0; i < 256; i++) {
			c = count[i];
			count[i] = sum;
			sum += c;
		}
		for (i = 0; i < n; i++)
			tmp[count[(hr->v[i].r.low_pc >> d) & 0xff]++] =
				hr->v[i];
		gmon_work += n;
		t = hr->v;
		hr->v = tmp;
		tmp = t;
	}
	free(tmp);
	return 0;
}

/* The later of two records in the file: the one a message names. */
static const struct gmon_hrec *gmon_later(const struct gmon_hrec *a,
					  const struct gmon_hrec *b)
{
	return a->off > b->off ? a : b;
}

/*
 * The sorted records into @h's ranges as gprof merges them: identical
 * ranges summed, partial overlaps refused. @hr's bins move to @h, or
 * stay in @hr on failure.
 */
static int gmon_hrecs_merge(struct gmon_cursor *c, struct gmon_hrecs *hr,
			    struct hist *h)
{
	struct hist_range *out, *last = NULL;
	const struct gmon_hrec *bad;
	size_t i, j, n = 0;

	if (!hr->n)
		return 0;
	out = malloc(hr->n * sizeof(*out));
	if (!out)
		return gmon_nomem(c);
	for (i = 0; i < hr->n; i++) {
		struct gmon_hrec *e = &hr->v[i];

		gmon_work++;
		if (!last || e->r.low_pc >= last->high_pc) {
			out[n++] = e->r;
			last = &out[n - 1];
			continue;
		}
		bad = gmon_later(e, &hr->v[i - 1]);
		c->rec = bad->off;
		if (e->r.low_pc != last->low_pc ||
		    e->r.high_pc != last->high_pc) {
			free(out);
			return gmon_fail(c, "offset %zu: TIME_HIST record: "
					 "range [%#llx, %#llx) partially "
					 "overlaps an earlier record's",
					 bad->off,
					 (unsigned long long)bad->r.low_pc,
					 (unsigned long long)bad->r.high_pc);
		}
		if (e->r.nbins != last->nbins) {
			free(out);
			return gmon_fail(c, "offset %zu: TIME_HIST record: "
					 "range [%#llx, %#llx) has other bins "
					 "than an earlier record's", bad->off,
					 (unsigned long long)bad->r.low_pc,
					 (unsigned long long)bad->r.high_pc);
		}
		for (j = 0; j < e->r.nbins; j++)
			last->bins[j] += e->r.bins[j];
		gmon_work += e->r.nbins;
	}
	/* Success: the bins of summed records are freed, the rest move. */
	for (i = 0, j = 0; i < hr->n; i++) {
		if (j < n && out[j].bins == hr->v[i].r.bins)
			j++;
		else
			free(hr->v[i].r.bins);
	}
	hr->n = 0;
	h->ranges = out;
	h->nranges = n;
	return 0;
}

static int gmon_cg_arc(struct gmon_cursor *c, struct hist *h)
{
	size_t need = 2 * c->ptr_size + 4;
	uint64_t from, self, count;

	if (!gmon_has(c, need))
		return gmon_truncated(c, TAG_CG_ARC, need);
	from = gmon_uint(c, c->ptr_size);
	self = gmon_uint(c, c->ptr_size);
	count = gmon_uint(c, 4);
	if (hist_add_arc(h, from, self, count)) {
		snprintf(c->err, c->errlen, "offset %zu: %s", c->rec,
			 strerror(ENOMEM));
		return -1;
	}
	return 0;
}

/* Basic-block counts (gcc -a, long gone): checked and skipped. */
static int gmon_bb_count(struct gmon_cursor *c)
{
	uint64_t nblocks;
	size_t each = 2 * c->ptr_size;

	if (!gmon_has(c, 4))
		return gmon_truncated(c, TAG_BB_COUNT, 4);
	nblocks = gmon_uint(c, 4);
	if (nblocks > (c->len - c->off) / each)
		return gmon_fail(c, "offset %zu: BB_COUNT record truncated: "
				 "%llu blocks need %llu bytes, %zu left",
				 c->rec, (unsigned long long)nblocks,
				 (unsigned long long)(nblocks * each),
				 c->len - c->off);
	c->off += nblocks * each;
	return 0;
}

static int gmon_header(struct gmon_cursor *c)
{
	static const unsigned char le[4] = { GMON_VERSION, 0, 0, 0 };
	static const unsigned char be[4] = { 0, 0, 0, GMON_VERSION };
	const unsigned char *v = c->p + 4;

	if (c->len < GMON_HDR_LEN)
		return gmon_fail(c, "offset 0: too short for a gmon.out "
				 "header: %zu bytes, need %d", c->len,
				 GMON_HDR_LEN);
	if (memcmp(c->p, "gmon", 4))
		return gmon_fail(c, "offset 0: bad magic: not a GNU gmon.out "
				 "file (the old BSD format without a magic "
				 "number is not read)");
	if (!memcmp(v, le, 4)) {
		c->big_endian = false;
	} else if (!memcmp(v, be, 4)) {
		c->big_endian = true;
	} else {
		c->off = 4;
		c->big_endian = false;
		return gmon_fail(c, "offset 4: unsupported version %#x "
				 "(only 1 is defined)",
				 (unsigned int)gmon_uint(c, 4));
	}
	c->off = GMON_HDR_LEN;
	return 0;
}

int gmon_read_mem(const void *data, size_t len, unsigned int ptr_size,
		  struct hist *h, char *err, size_t errlen)
{
	struct gmon_cursor c = {
		.p = data, .len = len, .ptr_size = ptr_size,
		.err = err, .errlen = errlen,
	};
	struct gmon_first first = { .seen = false };
	struct gmon_hrecs hr = { .n = 0 };
	unsigned int tag;
	int ret = 0;

	gmon_work = 0;

	if (ptr_size != 4 && ptr_size != 8) {
		snprintf(err, errlen, "pointer size %u: not 4 or 8", ptr_size);
		errno = EINVAL;
		return -1;
	}
	if (gmon_header(&c))
		return -1;
	while (!ret && c.off < c.len) {
		c.rec = c.off;
		tag = c.p[c.off++];
		switch (tag) {
		case TAG_TIME_HIST:
			ret = gmon_time_hist(&c, &first, &hr);
			break;
		case TAG_CG_ARC:
			ret = gmon_cg_arc(&c, h);
			break;
		case TAG_BB_COUNT:
			ret = gmon_bb_count(&c);
			break;
		default:
			ret = gmon_fail(&c, "offset %zu: unknown record tag "
					"%u (file corrupted, or pointer size "
					"other than %u bytes?)", c.rec, tag,
					ptr_size);
		}
	}
	if (!ret && gmon_hrecs_sort(&hr)) {
		c.rec = 0;
		ret = gmon_nomem(&c);
	}
	if (!ret)
		ret = gmon_hrecs_merge(&c, &hr, h);
	gmon_hrecs_free(&hr);
	if (ret) {
		int e = errno;

		hist_free(h);
		errno = e;
		return -1;
	}
	h->rate = first.rate;
	return 0;
}

/* The whole file in one malloc'ed buffer, at most GMON_READ_MAX_FILE. */
static int gmon_slurp(int fd, unsigned char **out, size_t *outlen)
{
	size_t cap = 65536, len = 0;
	unsigned char *buf = NULL, *nb;
	struct stat st;
	ssize_t n;

	if (!fstat(fd, &st) && S_ISREG(st.st_mode)) {
		if ((unsigned long long)st.st_size > GMON_READ_MAX_FILE) {
			errno = EFBIG;
			return -1;
		}
		cap = (size_t)st.st_size + 1;
	}
	for (;;) {
		if (len == cap || !buf) {
			if (buf)
				cap *= 2;
			if (cap > GMON_READ_MAX_FILE + 1)
				cap = GMON_READ_MAX_FILE + 1;
			nb = realloc(buf, cap);
			if (!nb)
				goto err;
			buf = nb;
		}
		n = read(fd, buf + len, cap - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			goto err;
		if (!n)
			break;
		len += (size_t)n;
		if (len > GMON_READ_MAX_FILE) {
			errno = EFBIG;
			goto err;
		}
	}
	*out = buf;
	*outlen = len;
	return 0;
err:
	free(buf);
	return -1;
}

int gmon_read_whole(const char *path, unsigned char **buf, size_t *len,
		    char *err, size_t errlen)
{
	bool is_stdin = !strcmp(path, "-");
	int fd, ret, e;

	fd = is_stdin ? STDIN_FILENO : open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		snprintf(err, errlen, "%s", strerror(errno));
		return -1;
	}
	ret = gmon_slurp(fd, buf, len);
	e = errno;
	if (!is_stdin)
		close(fd);
	if (ret) {
		snprintf(err, errlen, "%s", e == EFBIG ?
			 "file larger than 1 GiB: not a gmon.out" :
			 strerror(e));
		errno = e;
		return -1;
	}
	return 0;
}

int gmon_read_file(const char *path, unsigned int ptr_size, struct hist *h,
		   char *err, size_t errlen)
{
	unsigned char *buf;
	size_t len;
	int ret, e;

	if (gmon_read_whole(path, &buf, &len, err, errlen))
		return -1;
	ret = gmon_read_mem(buf, len, ptr_size, h, err, errlen);
	e = errno;
	free(buf);
	errno = e;
	return ret;
}
