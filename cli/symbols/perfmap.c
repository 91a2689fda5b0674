// SPDX-License-Identifier: GPL-2.0
/*
 * A JIT's perf map (perfmap.h): the lines parsed, then the overlaps
 * resolved by a sweep over the entries' bounds, the newest entry
 * covering each stretch winning.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "perfmap.h"

/* One line as read; @seq is its place in the file. */
struct pm_entry {
	uint64_t addr, end;
	size_t seq;
	char *name;
};

struct pm_list {
	struct pm_entry *v;
	size_t n, cap;
};

/* Hex at *@s, 0x optional, at most 64 bits, into *@v; *@s past it. */
static bool parse_hex(const char **s, uint64_t *v)
{
	const char *p = *s;
	uint64_t x = 0;
	int d, digits = 0;

	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
		p += 2;
	for (;; p++, digits++) {
		if (*p >= '0' && *p <= '9')
			d = *p - '0';
		else if (*p >= 'a' && *p <= 'f')
			d = *p - 'a' + 10;
		else if (*p >= 'A' && *p <= 'F')
			d = *p - 'A' + 10;
		else
			break;
		if (x >> 60)
			return false;
		x = x << 4 | (uint64_t)d;
	}
	*s = p;
	*v = x;
	return digits > 0;
}

/*
 * "START SIZE NAME" into @e (the name not copied). False for a line
 * perf would not make a symbol of, or one of no bytes, or one that
 * wraps around the address space.
 */
static bool parse_line(char *line, struct pm_entry *e)
{
	const char *s = line;
	uint64_t size;
	size_t len;

	if (!parse_hex(&s, &e->addr) || *s++ != ' ' ||
	    !parse_hex(&s, &size) || *s++ != ' ')
		return false;
	len = strlen(s);
	while (len && (s[len - 1] == '\n' || s[len - 1] == '\r'))
		len--;
	if (!len || !size || e->addr + size < e->addr)
		return false;
	line[s - line + len] = '\0';
	e->end = e->addr + size;
	e->name = (char *)s;
	return true;
}

static int list_add(struct pm_list *l, const struct pm_entry *e)
{
	struct pm_entry *v;
	size_t cap;

	if (l->n == l->cap) {
		cap = l->cap ? 2 * l->cap : 64;
		v = reallocarray(l->v, cap, sizeof(*v));
		if (!v)
			return -1;
		l->v = v;
		l->cap = cap;
	}
	l->v[l->n] = *e;
	l->v[l->n].name = strdup(e->name);
	if (!l->v[l->n].name)
		return -1;
	l->n++;
	return 0;
}

static void list_free(struct pm_list *l)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		free(l->v[i].name);
	free(l->v);
}

static int read_lines(FILE *f, struct pm_list *l, size_t *ignored)
{
	struct pm_entry e;
	char *line = NULL;
	size_t cap = 0;
	int ret = 0;

	while (getline(&line, &cap, f) >= 0) {
		if (!parse_line(line, &e)) {
			(*ignored)++;
			continue;
		}
		e.seq = l->n;
		if (list_add(l, &e)) {
			ret = -1;
			break;
		}
	}
	if (!ret && ferror(f)) {
		errno = errno ? errno : EIO;
		ret = -1;
	}
	free(line);
	return ret;
}

static int cmp_addr(const void *a, const void *b)
{
	const struct pm_entry *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static int cmp_u64(const void *a, const void *b)
{
	const uint64_t *x = a, *y = b;

	return *x < *y ? -1 : *x > *y;
}

/* A max-heap of entries by @seq: the newest on top. */
struct pm_heap {
	const struct pm_entry **v;
	size_t n;
};

static void heap_swap(struct pm_heap *h, size_t i, size_t j)
{
	const struct pm_entry *t = h->v[i];

	h->v[i] = h->v[j];
	h->v[j] = t;
}

static void heap_push(struct pm_heap *h, const struct pm_entry *e)
{
	size_t i = h->n++, up;

	h->v[i] = e;
	for (; i; i = up) {
		up = (i - 1) / 2;
		if (h->v[up]->seq > h->v[i]->seq)
			break;
		heap_swap(h, i, up);
	}
}

static void heap_pop(struct pm_heap *h)
{
	size_t i = 0, c;

	h->v[0] = h->v[--h->n];
	for (; (c = 2 * i + 1) < h->n; i = c) {
		if (c + 1 < h->n && h->v[c + 1]->seq > h->v[c]->seq)
			c++;
		if (h->v[i]->seq > h->v[c]->seq)
			break;
		heap_swap(h, i, c);
	}
}

/* [@lo, @hi) is @e's: extend the last function, or append one. */
static int emit(struct perfmap *pm, const struct pm_entry *e,
		const struct pm_entry **last, uint64_t lo, uint64_t hi)
{
	struct sym_func *f;

	if (*last == e && pm->n && pm->funcs[pm->n - 1].end == lo) {
		pm->funcs[pm->n - 1].end = hi;
		return 0;
	}
	f = &pm->funcs[pm->n];
	f->name = strdup(e->name);
	if (!f->name)
		return -1;
	f->addr = lo;
	f->end = hi;
	f->flags = 0;
	pm->n++;
	*last = e;
	return 0;
}

/*
 * Between two neighbouring bounds the newest entry that covers them
 * names the stretch: at most one function per stretch, 2n - 1 for n
 * entries.
 */
static int sweep(const struct pm_list *l, struct perfmap *pm)
{
	struct pm_heap h = { .v = calloc(l->n + 1, sizeof(*h.v)) };
	uint64_t *pts = calloc(2 * l->n + 1, sizeof(*pts));
	const struct pm_entry *last = NULL;
	size_t i, k = 0, npts = 0;
	int ret = -1;

	pm->funcs = calloc(2 * l->n + 1, sizeof(*pm->funcs));
	if (!h.v || !pts || !pm->funcs)
		goto out;
	for (i = 0; i < l->n; i++) {
		pts[npts++] = l->v[i].addr;
		pts[npts++] = l->v[i].end;
	}
	qsort(pts, npts, sizeof(*pts), cmp_u64);
	for (i = 0; i + 1 < npts; i++) {
		if (pts[i] == pts[i + 1])
			continue;
		while (k < l->n && l->v[k].addr <= pts[i])
			heap_push(&h, &l->v[k++]);
		while (h.n && h.v[0]->end <= pts[i])
			heap_pop(&h);
		if (h.n && emit(pm, h.v[0], &last, pts[i], pts[i + 1]))
			goto out;
	}
	ret = 0;
out:
	free(h.v);
	free(pts);
	return ret;
}

int perfmap_parse(FILE *f, struct perfmap *pm)
{
	struct pm_list l = { 0 };
	int ret, e;

	memset(pm, 0, sizeof(*pm));
	ret = read_lines(f, &l, &pm->ignored);
	if (!ret) {
		qsort(l.v, l.n, sizeof(*l.v), cmp_addr);
		ret = sweep(&l, pm);
	}
	e = errno;
	list_free(&l);
	if (ret) {
		perfmap_free(pm);
		errno = e;
	}
	return ret;
}

/*
 * /tmp is everyone's: as perf does, a map is only believed if it is a
 * regular file of ours or root's, not a link another user planted.
 */
static FILE *open_map(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	struct stat sb;
	FILE *f;

	if (fd < 0)
		return NULL;
	if (fstat(fd, &sb) || !S_ISREG(sb.st_mode) ||
	    (sb.st_uid && sb.st_uid != geteuid())) {
		close(fd);
		errno = EPERM;
		return NULL;
	}
	f = fdopen(fd, "r");
	if (!f)
		close(fd);
	return f;
}

int perfmap_read(pid_t pid, struct perfmap *pm)
{
	char path[64];
	FILE *f;
	int ret, e;

	memset(pm, 0, sizeof(*pm));
	snprintf(path, sizeof(path), "/tmp/perf-%d.map", (int)pid);
	f = open_map(path);
	if (!f)
		return -1;
	ret = perfmap_parse(f, pm);
	e = errno;
	fclose(f);
	errno = e;
	return ret;
}

const struct sym_func *perfmap_find(const struct perfmap *pm, uint64_t addr)
{
	return sym_func_find(pm->funcs, pm->n, addr);
}

void perfmap_free(struct perfmap *pm)
{
	size_t i;

	for (i = 0; i < pm->n; i++)
		free((char *)pm->funcs[i].name);
	free(pm->funcs);
	memset(pm, 0, sizeof(*pm));
}
