// SPDX-License-Identifier: GPL-2.0
/*
 * The saved profile (profile_file.h): a writer, and a strict reader
 * that names the line of any error. gzip through zlib.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "profile_file.h"

/* Fields of the longest line (process), and the longest line. */
#define MAX_FIELDS 16
#define MAX_LINE (64 * 1024)
/* Hex digits of a build-id: 64 bytes, more than any linker makes. */
#define BUILD_ID_MAX 128

static bool is_build_id(const char *s)
{
	size_t n = strspn(s, "0123456789abcdefABCDEF");

	return !s[n] && n && n % 2 == 0 && n <= BUILD_ID_MAX;
}

/* ---- writer ---- */

static void put_str(FILE *f, const char *s)
{
	const unsigned char *c = (const unsigned char *)s;

	if (!s) {
		fputs(" -", f);
		return;
	}
	fputs(" \"", f);
	for (; *c; c++) {
		if (*c < '!' || *c > '~' || *c == '%' || *c == '"')
			fprintf(f, "%%%02X", *c);
		else
			fputc(*c, f);
	}
	fputc('"', f);
}

static void put_fig(FILE *f, uint64_t v)
{
	if (v == PROFILE_UNKNOWN)
		fputs(" -", f);
	else
		fprintf(f, " %" PRIu64, v);
}

static void put_acct(FILE *f, const struct profile_acct *a)
{
	put_fig(f, a->ticks);
	put_fig(f, a->missed);
	put_fig(f, a->kernel);
	put_fig(f, a->outside);
	put_fig(f, a->deferred);
	put_fig(f, a->saturated);
	put_fig(f, a->lost);
	put_fig(f, a->lost_exec);
}

static void put_range(FILE *f, const struct hist_range *rg)
{
	size_t i, nset = 0;

	for (i = 0; i < rg->nbins; i++)
		nset += rg->bins[i] != 0;
	fprintf(f, "range 0x%" PRIx64 " 0x%" PRIx64 " %zu %zu\n", rg->low_pc,
		rg->high_pc, rg->nbins, nset);
	for (i = 0; i < rg->nbins; i++)
		if (rg->bins[i])
			fprintf(f, "bin %zu %" PRIu64 "\n", i, rg->bins[i]);
}

/* Counts by process (the merged ones, PROFILE_ALL_PROCESSES, last), object. */
static int cmp_count(const void *a, const void *b)
{
	const struct profile_count *x = *(const struct profile_count *const *)a;
	const struct profile_count *y = *(const struct profile_count *const *)b;

	if (x->process != y->process)
		return x->process < y->process ? -1 : 1;
	return x->object < y->object ? -1 : x->object > y->object;
}

static void put_count(FILE *f, const struct profile_count *c)
{
	size_t i;

	if (c->process == PROFILE_ALL_PROCESSES)
		fputs("count *", f);
	else
		fprintf(f, "count %zu", c->process);
	fprintf(f, " %zu %" PRIu64 " %zu\n", c->object, c->uncovered,
		c->hist.nranges);
	for (i = 0; i < c->hist.nranges; i++)
		put_range(f, &c->hist.ranges[i]);
}

/* The functions of the objects that have some (a JIT's), if any. */
static void put_funcs(FILE *f, const struct profile *p)
{
	const struct profile_object *o;
	size_t i, k;

	for (i = 0; i < p->nobjects; i++) {
		o = &p->objects[i];
		if (!o->nfuncs)
			continue;
		fprintf(f, "funcs %zu %zu\n", i, o->nfuncs);
		for (k = 0; k < o->nfuncs; k++) {
			fprintf(f, "func 0x%" PRIx64 " 0x%" PRIx64,
				o->funcs[k].addr, o->funcs[k].end);
			put_str(f, o->funcs[k].name);
			fputc('\n', f);
		}
	}
}

static void put_head(FILE *f, const struct profile *p)
{
	const struct profile_process *pr;
	size_t i;

	fprintf(f, "%s %d\nrate %" PRIu32 "\nbin-bytes %" PRIu64 "\nacct",
		PROFILE_FILE_MAGIC, PROFILE_FILE_VERSION, p->rate, p->bin_bytes);
	put_acct(f, &p->acct);
	if (p->command) {
		fputs("\ncommand", f);
		put_str(f, p->command);
	}
	fprintf(f, "\nobjects %zu\n", p->nobjects);
	for (i = 0; i < p->nobjects; i++) {
		fprintf(f, "object %zu %s", i, p->objects[i].build_id ?
			p->objects[i].build_id : "-");
		put_str(f, p->objects[i].path);
		fputc('\n', f);
	}
	put_funcs(f, p);
	fprintf(f, "processes %zu\n", p->nprocesses);
	for (i = 0; i < p->nprocesses; i++) {
		pr = &p->processes[i];
		fprintf(f, "process %zu %d %d", i, (int)pr->pid, (int)pr->ppid);
		put_str(f, pr->comm);
		put_str(f, pr->exe);
		put_acct(f, &pr->acct);
		fputc('\n', f);
	}
}

int profile_save(FILE *f, const struct profile *p)
{
	const struct profile_count **v;
	size_t i;

	for (i = 0; i < p->nobjects; i++)
		if (!p->objects[i].path || (p->objects[i].build_id &&
		    !is_build_id(p->objects[i].build_id))) {
			errno = EINVAL;
			return -1;
		}
	for (i = 0; i < p->ncounts; i++)
		if (p->counts[i].object >= p->nobjects ||
		    (p->counts[i].process >= p->nprocesses &&
		     p->counts[i].process != PROFILE_ALL_PROCESSES)) {
			errno = EINVAL;
			return -1;
		}
	v = malloc((p->ncounts ? p->ncounts : 1) * sizeof(*v));
	if (!v)
		return -1;
	for (i = 0; i < p->ncounts; i++)
		v[i] = &p->counts[i];
	qsort(v, p->ncounts, sizeof(*v), cmp_count);
	put_head(f, p);
	fprintf(f, "counts %zu\n", p->ncounts);
	for (i = 0; i < p->ncounts; i++)
		put_count(f, v[i]);
	fputs("end\n", f);
	free(v);
	if (ferror(f) || fflush(f)) {
		if (!errno)
			errno = EIO;
		return -1;
	}
	return 0;
}

/* ---- reader ---- */

struct reader {
	const char *pos, *end;	/* what is left to read */
	unsigned long line;	/* the line in buf */
	char buf[MAX_LINE + 1];
	char *tok[MAX_FIELDS];
	size_t ntok;
	char *err;
	size_t errlen;
	uint64_t bins_left;	/* PROFILE_FILE_MAX_BINS, spent by ranges */
};

static int fail(struct reader *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int fail(struct reader *r, const char *fmt, ...)
{
	size_t n;
	va_list ap;

	n = (size_t)snprintf(r->err, r->errlen, "line %lu: ", r->line);
	if (n < r->errlen) {
		va_start(ap, fmt);
		vsnprintf(r->err + n, r->errlen - n, fmt, ap);
		va_end(ap);
	}
	errno = EINVAL;
	return -1;
}

/* Splits the line in buf at single spaces. */
static int split(struct reader *r)
{
	char *s = r->buf, *sp;

	r->ntok = 0;
	for (;;) {
		if (r->ntok == MAX_FIELDS)
			return fail(r, "too many fields");
		sp = strchr(s, ' ');
		if (sp)
			*sp = '\0';
		if (!*s)
			return fail(r, "an empty field (two spaces, or one at "
				    "either end of the line)");
		r->tok[r->ntok++] = s;
		if (!sp)
			return 0;
		s = sp + 1;
	}
}

/* The next line, which must be @word with @nfields more fields. */
static int next_line(struct reader *r, const char *word, size_t nfields)
{
	const char *nl;
	size_t len;

	r->line++;
	if (r->pos == r->end)
		return fail(r, "the file ends here, '%s' expected (truncated?)",
			    word);
	nl = memchr(r->pos, '\n', (size_t)(r->end - r->pos));
	if (!nl)
		return fail(r, "no newline at the end of the line (truncated?)");
	len = (size_t)(nl - r->pos);
	if (len > MAX_LINE)
		return fail(r, "longer than %d bytes", MAX_LINE);
	if (memchr(r->pos, '\0', len))
		return fail(r, "a NUL byte");
	memcpy(r->buf, r->pos, len);
	r->buf[len] = '\0';
	r->pos = nl + 1;
	if (split(r))
		return -1;
	if (strcmp(r->tok[0], word)) {
		char got[40];

		snprintf(got, sizeof(got), "%s", r->tok[0]);
		return fail(r, "'%s' expected, not '%s'", word, got);
	}
	if (r->ntok != nfields + 1)
		return fail(r, "'%s' has %zu fields, not %zu", word, nfields,
			    r->ntok - 1);
	return 0;
}

/* Field @i: a whole number in [0, @max], decimal or (@hex) 0x hex. */
static int get_num(struct reader *r, size_t i, const char *what, bool hex,
		   uint64_t max, uint64_t *v)
{
	const char *s = r->tok[i];
	unsigned int base = hex ? 16 : 10, d;
	uint64_t n = 0;

	if (hex && strncmp(s, "0x", 2))
		return fail(r, "%s: '%s' is not 0x hex", what, s);
	if (hex)
		s += 2;
	if (!*s)
		return fail(r, "%s: no digits", what);
	for (; *s; s++) {
		if (*s >= '0' && *s <= '9')
			d = (unsigned int)(*s - '0');
		else if (hex && *s >= 'a' && *s <= 'f')
			d = (unsigned int)(*s - 'a' + 10);
		else if (hex && *s >= 'A' && *s <= 'F')
			d = (unsigned int)(*s - 'A' + 10);
		else
			return fail(r, "%s: '%s' is not a number", what,
				    r->tok[i]);
		if (d > max || n > (max - d) / base)
			return fail(r, "%s: %s is out of range (at most %"
				    PRIu64 ")", what, r->tok[i], max);
		n = n * base + d;
	}
	*v = n;
	return 0;
}

/* An index @i into an array of @n, or a count up to @n. */
static int get_size(struct reader *r, size_t i, const char *what, size_t n,
		    size_t *v)
{
	uint64_t x;

	if (get_num(r, i, what, false, n, &x))
		return -1;
	*v = (size_t)x;
	return 0;
}

/* An index into an array of @n: its own message when out of range. */
static int get_index(struct reader *r, size_t i, const char *what, size_t n,
		     size_t *v)
{
	if (get_size(r, i, what, SIZE_MAX - 1, v))
		return -1;
	if (*v >= n)
		return fail(r, "%s %zu: out of range (there are %zu)", what,
			    *v, n);
	return 0;
}

/* A figure of the accounting: a number, or "-" for unknown. */
static int get_fig(struct reader *r, size_t i, const char *what, uint64_t *v)
{
	if (!strcmp(r->tok[i], "-")) {
		*v = PROFILE_UNKNOWN;
		return 0;
	}
	return get_num(r, i, what, false, PROFILE_UNKNOWN - 1, v);
}

static int get_acct(struct reader *r, size_t i, struct profile_acct *a)
{
	return get_fig(r, i, "ticks", &a->ticks) ||
	       get_fig(r, i + 1, "missed", &a->missed) ||
	       get_fig(r, i + 2, "kernel", &a->kernel) ||
	       get_fig(r, i + 3, "outside", &a->outside) ||
	       get_fig(r, i + 4, "deferred", &a->deferred) ||
	       get_fig(r, i + 5, "saturated", &a->saturated) ||
	       get_fig(r, i + 6, "lost", &a->lost) ||
	       get_fig(r, i + 7, "lost_exec", &a->lost_exec);
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/*
 * Field @i, a string, decoded in place into *@s (NULL for "-"; no
 * allocation: it points into the line).
 */
static int get_str(struct reader *r, size_t i, const char *what, char **s)
{
	char *in = r->tok[i], *out;
	size_t len = strlen(in);
	int hi, lo;

	*s = NULL;
	if (!strcmp(in, "-"))
		return 0;
	if (len < 2 || in[0] != '"' || in[len - 1] != '"')
		return fail(r, "%s: not a string in double quotes, nor -",
			    what);
	in[len - 1] = '\0';
	*s = out = ++in;
	for (; *in; in++) {
		if (*in == '"')
			return fail(r, "%s: a bare '\"' (write %%22)", what);
		if (*in != '%') {
			*out++ = *in;
			continue;
		}
		hi = hexval(in[1]);
		lo = hi < 0 ? -1 : hexval(in[2]);
		if (lo < 0)
			return fail(r, "%s: '%%' not followed by two hex "
				    "digits", what);
		if (!hi && !lo)
			return fail(r, "%s: a NUL byte (%%00)", what);
		*out++ = (char)(hi << 4 | lo);
		in += 2;
	}
	*out = '\0';
	return 0;
}

static int get_build_id(struct reader *r, size_t i, char **s)
{
	size_t len = strlen(r->tok[i]), k;

	*s = NULL;
	if (!strcmp(r->tok[i], "-"))
		return 0;
	for (k = 0; k < len; k++)
		if (hexval(r->tok[i][k]) < 0)
			break;
	if (k < len || len % 2 || len > BUILD_ID_MAX)
		return fail(r, "build-id: '%.40s' is not hex of an even length "
			    "up to %d, nor -", r->tok[i], BUILD_ID_MAX);
	*s = r->tok[i];
	return 0;
}

static int read_head(struct reader *r, struct profile *p)
{
	uint64_t v;

	r->line++;
	if ((size_t)(r->end - r->pos) < sizeof(PROFILE_FILE_MAGIC) ||
	    memcmp(r->pos, PROFILE_FILE_MAGIC " ", sizeof(PROFILE_FILE_MAGIC)))
		return fail(r, "not a saved profile: it does not start with "
			    "'%s'", PROFILE_FILE_MAGIC);
	r->line--;
	if (next_line(r, PROFILE_FILE_MAGIC, 1))
		return -1;
	if (strcmp(r->tok[1], "1"))
		return fail(r, "version '%.20s': this profil-ctl reads "
			    "version %d", r->tok[1], PROFILE_FILE_VERSION);
	if (next_line(r, "rate", 1) ||
	    get_num(r, 1, "rate", false, UINT32_MAX, &v))
		return -1;
	p->rate = (uint32_t)v;
	if (next_line(r, "bin-bytes", 1) ||
	    get_num(r, 1, "bin-bytes", false, UINT64_MAX, &p->bin_bytes))
		return -1;
	if (next_line(r, "acct", 8) || get_acct(r, 1, &p->acct))
		return -1;
	/* The command line, when the profile knows it. */
	if ((size_t)(r->end - r->pos) > 8 && !memcmp(r->pos, "command ", 8)) {
		char *s;

		if (next_line(r, "command", 1) || get_str(r, 1, "command", &s))
			return -1;
		if (s && !(p->command = strdup(s)))
			return fail(r, "%s", strerror(ENOMEM));
	}
	return 0;
}

/* The count line of a section, at most @max entries. */
static int read_count_of(struct reader *r, const char *word, size_t max,
			 size_t *n)
{
	return next_line(r, word, 1) || get_size(r, 1, word, max, n);
}

/* Line @i of a section: its index field, which must be @i. */
static int check_index(struct reader *r, size_t i)
{
	size_t k;

	if (get_size(r, 1, "index", SIZE_MAX - 1, &k))
		return -1;
	if (k != i)
		return fail(r, "index %zu where %zu was expected", k, i);
	return 0;
}

static int read_objects(struct reader *r, struct profile *p)
{
	char *path, *build_id;
	size_t n, i;
	ssize_t k;

	if (read_count_of(r, "objects", 1 << 16, &n))
		return -1;
	for (i = 0; i < n; i++) {
		if (next_line(r, "object", 3) || check_index(r, i) ||
		    get_build_id(r, 2, &build_id) ||
		    get_str(r, 3, "path", &path))
			return -1;
		if (!path || !*path)
			return fail(r, "an object needs a path");
		k = profile_object_add(p, path, build_id);
		if (k < 0)
			return -1;
		if ((size_t)k != i)
			return fail(r, "object %zu is object %zd again", i, k);
	}
	return 0;
}

/*
 * The optional sections after the objects: "funcs OBJECT N", then N
 * lines "func LOW HIGH NAME", the functions of an object no file names.
 */
static int read_funcs(struct reader *r, struct profile *p)
{
	uint64_t low, high;
	size_t obj, n, i;
	char *name;

	while ((size_t)(r->end - r->pos) > 6 && !memcmp(r->pos, "funcs ", 6)) {
		if (next_line(r, "funcs", 2) ||
		    get_index(r, 1, "object", p->nobjects, &obj) ||
		    get_size(r, 2, "funcs", SIZE_MAX / 64, &n))
			return -1;
		if (p->objects[obj].nfuncs || !n)
			return fail(r, "object %zu: functions empty, or again",
				    obj);
		for (i = 0; i < n; i++) {
			if (next_line(r, "func", 3) ||
			    get_num(r, 1, "low", true, UINT64_MAX, &low) ||
			    get_num(r, 2, "high", true, UINT64_MAX, &high) ||
			    get_str(r, 3, "name", &name))
				return -1;
			if (!name || !*name)
				return fail(r, "a function needs a name");
			if (profile_object_add_func(p, obj, low, high, name))
				return errno == EINVAL ? fail(r, "function "
					"0x%" PRIx64 "-0x%" PRIx64 ": empty, "
					"or not above the one before", low,
					high) : -1;
		}
	}
	return 0;
}

static int read_processes(struct reader *r, struct profile *p)
{
	struct profile_process *pr;
	uint64_t pid, ppid;
	char *comm, *exe;
	size_t n, i;

	if (read_count_of(r, "processes", SIZE_MAX / sizeof(*pr), &n))
		return -1;
	for (i = 0; i < n; i++) {
		if (next_line(r, "process", 13) || check_index(r, i) ||
		    get_num(r, 2, "pid", false, INT32_MAX, &pid) ||
		    get_num(r, 3, "ppid", false, INT32_MAX, &ppid) ||
		    get_str(r, 4, "comm", &comm) ||
		    get_str(r, 5, "exe", &exe))
			return -1;
		if (!comm || strlen(comm) >= sizeof(pr->comm))
			return fail(r, "comm: a string of at most %zu bytes",
				    sizeof(pr->comm) - 1);
		if (profile_process_add(p, (pid_t)pid, (pid_t)ppid, comm,
					exe) < 0)
			return -1;
		if (get_acct(r, 6, &p->processes[i].acct))
			return -1;
	}
	return 0;
}

/* The bins of one range, into @bins (@nbins, zeroed). */
static int read_bins(struct reader *r, uint64_t *bins, size_t nbins,
		     size_t nset)
{
	size_t i, k, next = 0;
	uint64_t c;

	for (i = 0; i < nset; i++) {
		if (next_line(r, "bin", 2) ||
		    get_size(r, 1, "bin index", SIZE_MAX - 1, &k) ||
		    get_num(r, 2, "bin count", false, UINT64_MAX, &c))
			return -1;
		if (k < next || k >= nbins)
			return fail(r, "bin %zu: not in [%zu, %zu) (bins go "
				    "up, each once)", k, next, nbins);
		if (!c)
			return fail(r, "bin %zu: a zero count (only bins with "
				    "samples are written)", k);
		bins[k] = c;
		next = k + 1;
	}
	return 0;
}

static int read_range(struct reader *r, struct hist *h, uint64_t *low_min)
{
	uint64_t low, high, nbins, nset, *bins;
	int ret;

	if (next_line(r, "range", 4) ||
	    get_num(r, 1, "low", true, UINT64_MAX, &low) ||
	    get_num(r, 2, "high", true, UINT64_MAX, &high) ||
	    get_num(r, 3, "bins", false, r->bins_left, &nbins) ||
	    get_num(r, 4, "bins set", false, nbins, &nset))
		return -1;
	if (low < *low_min || high <= low)
		return fail(r, "range 0x%" PRIx64 "-0x%" PRIx64 ": empty, or "
			    "not above the range before", low, high);
	if (!nbins || nbins > high - low)
		return fail(r, "range: %" PRIu64 " bins for %" PRIu64 " bytes",
			    nbins, high - low);
	r->bins_left -= nbins;
	bins = calloc((size_t)nbins, sizeof(*bins));
	if (!bins)
		return -1;
	ret = read_bins(r, bins, (size_t)nbins, (size_t)nset);
	if (!ret)
		ret = hist_add_range(h, low, high, bins, (size_t)nbins);
	free(bins);
	*low_min = high;
	return ret;
}

static int read_count(struct reader *r, struct profile *p, size_t *last_proc,
		      size_t *last_obj, bool first)
{
	struct profile_count *c;
	size_t proc, obj, nranges, i;
	uint64_t uncovered, low_min = 0;

	if (next_line(r, "count", 4))
		return -1;
	if (!strcmp(r->tok[1], "*"))
		proc = PROFILE_ALL_PROCESSES;
	else if (get_index(r, 1, "process", p->nprocesses, &proc))
		return -1;
	if (get_index(r, 2, "object", p->nobjects, &obj))
		return -1;
	if (!first && (proc < *last_proc ||
		       (proc == *last_proc && obj <= *last_obj)))
		return fail(r, "count %s %zu: counts go up by process, then "
			    "object, each pair once", r->tok[1], obj);
	if (get_num(r, 3, "uncovered", false, UINT64_MAX, &uncovered) ||
	    get_size(r, 4, "ranges", SIZE_MAX / sizeof(struct hist_range),
		     &nranges))
		return -1;
	c = profile_count_add(p, proc, obj);
	if (!c)
		return -1;
	c->uncovered = uncovered;
	c->hist.rate = p->rate;
	for (i = 0; i < nranges; i++)
		if (read_range(r, &c->hist, &low_min))
			return -1;
	*last_proc = proc;
	*last_obj = obj;
	return 0;
}

static int read_counts(struct reader *r, struct profile *p)
{
	size_t n, i, proc = 0, obj = 0;

	if (read_count_of(r, "counts", SIZE_MAX / sizeof(*p->counts), &n))
		return -1;
	for (i = 0; i < n; i++)
		if (read_count(r, p, &proc, &obj, i == 0))
			return -1;
	if (next_line(r, "end", 0))
		return -1;
	if (r->pos != r->end) {
		r->line++;
		return fail(r, "more after 'end'");
	}
	return 0;
}

/* gzip's magic, and a whole (multi-member) gzip file inflated. */
static bool is_gzip(const void *data, size_t len)
{
	return len >= 2 && !memcmp(data, "\x1f\x8b", 2);
}

static int gunzip(const void *data, size_t len, char **out, size_t *outlen,
		  char *err, size_t errlen)
{
	z_stream z = { .next_in = (Bytef *)data, .avail_in = (uInt)len };
	size_t cap = 1 << 16, n = 0;
	char *buf = NULL, *nb;
	int zr = Z_OK;

	if (len > UINT32_MAX || inflateInit2(&z, 16 + MAX_WBITS) != Z_OK) {
		snprintf(err, errlen, "gzip: cannot inflate");
		errno = EINVAL;
		return -1;
	}
	for (;;) {
		if (n == cap || !buf) {
			cap = buf ? 2 * cap : cap;
			if (cap > PROFILE_FILE_MAX_SIZE) {
				snprintf(err, errlen, "gzip: over %llu bytes "
					 "inflated", PROFILE_FILE_MAX_SIZE);
				errno = EFBIG;
				goto fail;
			}
			nb = realloc(buf, cap);
			if (!nb)
				goto fail_nomem;
			buf = nb;
		}
		z.next_out = (Bytef *)buf + n;
		z.avail_out = (uInt)(cap - n);
		zr = inflate(&z, Z_NO_FLUSH);
		n = cap - z.avail_out;
		if (zr == Z_STREAM_END && !z.avail_in)
			break;
		if (zr == Z_STREAM_END) {
			if (inflateReset(&z) != Z_OK)
				break;	/* a following member: read it too */
			continue;
		}
		if (zr == Z_BUF_ERROR && !z.avail_in) {
			snprintf(err, errlen, "gzip: the file ends early "
				 "(truncated?)");
			errno = EINVAL;
			goto fail;
		}
		if (zr != Z_OK && zr != Z_BUF_ERROR) {
			if (zr == Z_MEM_ERROR)
				goto fail_nomem;
			snprintf(err, errlen, "gzip: %s", z.msg ? z.msg :
				 "corrupt data");
			errno = EINVAL;
			goto fail;
		}
	}
	inflateEnd(&z);
	*out = buf;
	*outlen = n;
	return 0;
fail_nomem:
	snprintf(err, errlen, "%s", strerror(ENOMEM));
	errno = ENOMEM;
fail:
	inflateEnd(&z);
	free(buf);
	return -1;
}

static int load_text(const char *data, size_t len, struct profile *p,
		     char *err, size_t errlen)
{
	struct reader *r = calloc(1, sizeof(*r));
	int ret;

	if (!r) {
		snprintf(err, errlen, "%s", strerror(errno));
		return -1;
	}
	r->pos = data;
	r->end = data + len;
	r->err = err;
	r->errlen = errlen;
	r->bins_left = PROFILE_FILE_MAX_BINS;
	if (errlen)
		err[0] = '\0';
	ret = read_head(r, p) || read_objects(r, p) || read_funcs(r, p) ||
	      read_processes(r, p) || read_counts(r, p) ? -1 : 0;
	if (ret && errlen && !err[0]) {
		int e = errno;

		snprintf(err, errlen, "line %lu: %s", r->line, strerror(e));
		errno = e;
	}
	free(r);
	return ret;
}

int profile_load_mem(const void *data, size_t len, struct profile *p,
		     char *err, size_t errlen)
{
	char *text = NULL;
	size_t tlen;
	int ret, e;

	memset(p, 0, sizeof(*p));
	if (len > PROFILE_FILE_MAX_SIZE) {
		snprintf(err, errlen, "over %llu bytes", PROFILE_FILE_MAX_SIZE);
		errno = EFBIG;
		return -1;
	}
	if (is_gzip(data, len)) {
		if (gunzip(data, len, &text, &tlen, err, errlen))
			return -1;
		ret = load_text(text, tlen, p, err, errlen);
	} else {
		ret = load_text(data, len, p, err, errlen);
	}
	e = errno;
	free(text);
	if (ret) {
		profile_free(p);
		errno = e;
	}
	return ret;
}

int profile_load(FILE *f, struct profile *p, char *err, size_t errlen)
{
	size_t cap = 1 << 16, n = 0, got;
	char *buf = NULL, *nb;
	int ret;

	memset(p, 0, sizeof(*p));
	for (;;) {
		if (n > PROFILE_FILE_MAX_SIZE) {
			snprintf(err, errlen, "over %llu bytes",
				 PROFILE_FILE_MAX_SIZE);
			free(buf);
			errno = EFBIG;
			return -1;
		}
		if (!buf || n == cap) {
			cap = buf ? 2 * cap : cap;
			if (cap > PROFILE_FILE_MAX_SIZE + 1)
				cap = PROFILE_FILE_MAX_SIZE + 1;
			nb = realloc(buf, cap);
			if (!nb) {
				free(buf);
				snprintf(err, errlen, "%s", strerror(ENOMEM));
				errno = ENOMEM;
				return -1;
			}
			buf = nb;
		}
		got = fread(buf + n, 1, cap - n, f);
		n += got;
		if (got)
			continue;
		if (ferror(f)) {
			ret = errno ? errno : EIO;
			snprintf(err, errlen, "%s", strerror(ret));
			free(buf);
			errno = ret;
			return -1;
		}
		break;
	}
	ret = profile_load_mem(buf, n, p, err, errlen);
	free(buf);
	return ret;
}

bool profile_file_is_saved(const void *head, size_t len)
{
	return is_gzip(head, len) ||
	       (len >= sizeof(PROFILE_FILE_MAGIC) &&
		!memcmp(head, PROFILE_FILE_MAGIC " ",
			sizeof(PROFILE_FILE_MAGIC)));
}
