// SPDX-License-Identifier: GPL-2.0
/*
 * --format=pprof (pprof.h). The profile's parts map onto profile.proto:
 * - one Mapping per object, with its path and build-id; the main
 *   executable of the first process first (pprof's mapping[0]);
 * - one Location per bin with samples (its first address, link-time)
 *   and per arc end, one Line each: the function whose bounds hold the
 *   address, and its source line;
 * - one Function per (object, function, source file), so that a line
 *   inlined from another file keeps its file;
 * - one Sample per bin and process: samples/count, cpu/nanoseconds (the
 *   samples times the period, 1e9 / rate; 0 when the rate is unknown)
 *   and, when there are arcs, calls/count 0; labels pid and comm, and
 *   executable and cgroup where known;
 * - one Sample per arc (callee, caller) whose only value is calls/count,
 *   so that arcs add nothing to the sample totals;
 * - an object's uncovered samples at a Location without address whose
 *   function is named as the report's row.
 * Functions and locations are found again through open-addressing hash
 * tables; the message is packed by protobuf-c in pieces as it is made
 * (chunks of samples and locations, then the rest), through gzout.h.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "gzout.h"
#include "profile.pb-c.h"
#include "pprof.h"

typedef Perftools__Profiles__Profile pb_profile;
typedef Perftools__Profiles__ValueType pb_value_type;
typedef Perftools__Profiles__Sample pb_sample;
typedef Perftools__Profiles__Label pb_label;
typedef Perftools__Profiles__Mapping pb_mapping;
typedef Perftools__Profiles__Location pb_location;
typedef Perftools__Profiles__Line pb_line;
typedef Perftools__Profiles__Function pb_function;

/* Values per sample, at most: samples, cpu, calls. */
#define PP_NVALUES 3
/* Labels per sample, at most: pid, comm, executable, cgroup. */
#define PP_NLABELS 4

/* One slot of a hash table: a key of three numbers and its id (0: free). */
struct pp_slot {
	uint64_t k[3];
	uint64_t id;
};

struct pp_map {
	struct pp_slot *v;
	size_t cap;		/* a power of two, or 0 */
	size_t n;
};

/* A string's slot: its index in the string table (0: free). */
struct pp_str {
	const char *s;
	uint64_t idx;
};

#define PP_CHUNK 4096

/*
 * The gzip stream the profile is written to as it is made, a piece at a
 * time (chunks of samples and locations, then the head), and the
 * messages of one chunk.
 */
struct pp_gz {
	struct gzout s;
	uint8_t *buf;		/* a packed piece */
	size_t cap;
	pb_sample *sv, **svp;
	pb_location *lv, **lvp;
	pb_line *line, **linep;
};

/* A location: its id is its index plus one. */
struct pp_loc {
	uint64_t mapping_id;
	uint64_t address;
	uint64_t function_id;	/* 0: none (an unnamed FDE range) */
	int64_t line;
};

struct pp {
	const struct profile *p;
	const struct render_syms *syms;
	const struct export_opts *o;
	size_t nvalues;
	double ns_per_sample;

	const char **strs;	/* the string table; [0] is "" */
	size_t nstrs, capstrs;
	struct pp_str *strmap;
	size_t strcap;
	char **owned;		/* strings made here */
	size_t nowned, capowned;

	pb_function *funcs;
	size_t nfuncs, capfuncs;
	struct pp_map funcmap;

	/* Compact until packed, a chunk at a time: memory was the cost. */
	struct pp_gz gz;
	struct pp_loc *locs;	/* the chunk being made: ids from locbase */
	size_t nlocs, nlocbuf, locbase;
	struct pp_map locmap;

	size_t *sproc;		/* each sample's process (labels) */
	int64_t (*values)[PP_NVALUES];
	uint64_t (*locids)[2];
	size_t nsbuf;		/* samples in the chunk being made */

	pb_mapping *maps;	/* one per object, in the profile's order */
	size_t *map_order;	/* their order in the message */
	pb_label *labels;	/* PP_NLABELS slots per process */
	pb_label **labelptrs;
	unsigned char *nlabels;	/* the slots each process fills */
};

/* Grows the array *@v of *@cap elements of @size to hold @n + 1. */
static int grow(void *v, size_t *cap, size_t n, size_t size)
{
	void **pv = v;
	size_t c;
	void *nv;

	if (n < *cap)
		return 0;
	c = *cap ? 2 * *cap : 64;
	nv = reallocarray(*pv, c, size);
	if (!nv)
		return -1;
	*pv = nv;
	*cap = c;
	return 0;
}

static uint64_t hash64(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ULL;
	return x ^ (x >> 33);
}

/*
 * Keys are (object, address or function, file or kind): the middle one
 * is added unhashed, so that a count's bins, in address order, fill
 * neighbouring slots of the table instead of a random slot each (cache
 * and page misses were most of a large profile's cost).
 */
static uint64_t hash_key(const uint64_t k[3])
{
	return hash64(k[0] ^ hash64(k[2])) + (k[1] >> 1);
}

static uint64_t hash_str(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ULL;	/* FNV-1a */

	while (*s)
		h = (h ^ (unsigned char)*s++) * 0x100000001b3ULL;
	return h;
}

static struct pp_slot *map_slot(struct pp_slot *v, size_t cap,
				const uint64_t k[3])
{
	size_t i = hash_key(k) & (cap - 1);

	while (v[i].id && memcmp(v[i].k, k, sizeof(v[i].k)))
		i = (i + 1) & (cap - 1);
	return &v[i];
}

/*
 * The slot of key @k: its id, or 0 if new, when the caller must set the
 * id before the next call. NULL on ENOMEM.
 */
static struct pp_slot *map_get(struct pp_map *m, const uint64_t k[3])
{
	struct pp_slot *s;
	size_t i;

	/* At most two thirds full: short probes, and a third less memory. */
	if (3 * (m->n + 1) > 2 * m->cap) {
		size_t cap = m->cap ? 2 * m->cap : 256;
		struct pp_slot *v = calloc(cap, sizeof(*v));

		if (!v)
			return NULL;
		for (i = 0; i < m->cap; i++)
			if (m->v[i].id)
				*map_slot(v, cap, m->v[i].k) = m->v[i];
		free(m->v);
		m->v = v;
		m->cap = cap;
	}
	s = map_slot(m->v, m->cap, k);
	if (!s->id) {
		memcpy(s->k, k, sizeof(s->k));
		m->n++;
	}
	return s;
}

static int strmap_grow(struct pp *pp)
{
	size_t cap = pp->strcap ? 2 * pp->strcap : 256, i, j;
	struct pp_str *v = calloc(cap, sizeof(*v));

	if (!v)
		return -1;
	for (i = 0; i < pp->strcap; i++) {
		if (!pp->strmap[i].idx)
			continue;
		j = hash_str(pp->strmap[i].s) & (cap - 1);
		while (v[j].idx)
			j = (j + 1) & (cap - 1);
		v[j] = pp->strmap[i];
	}
	free(pp->strmap);
	pp->strmap = v;
	pp->strcap = cap;
	return 0;
}

/* The index of @s in the string table (NULL and "": 0), or -1 (ENOMEM). */
static int64_t str(struct pp *pp, const char *s)
{
	size_t i;

	if (!s || !*s)
		return 0;
	if (2 * (pp->nstrs + 1) > pp->strcap && strmap_grow(pp))
		return -1;
	i = hash_str(s) & (pp->strcap - 1);
	while (pp->strmap[i].idx && strcmp(pp->strmap[i].s, s))
		i = (i + 1) & (pp->strcap - 1);
	if (pp->strmap[i].idx)
		return (int64_t)pp->strmap[i].idx;
	if (grow(&pp->strs, &pp->capstrs, pp->nstrs, sizeof(*pp->strs)))
		return -1;
	pp->strs[pp->nstrs] = s;
	pp->strmap[i].s = s;
	pp->strmap[i].idx = pp->nstrs;
	return (int64_t)pp->nstrs++;
}

/* str() of a string made with printf's @fmt, kept until the end. */
static int64_t strf(struct pp *pp, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int64_t strf(struct pp *pp, const char *fmt, ...)
{
	va_list ap;
	char *s;
	int n;

	if (grow(&pp->owned, &pp->capowned, pp->nowned, sizeof(*pp->owned)))
		return -1;
	va_start(ap, fmt);
	n = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (n < 0)
		return -1;
	pp->owned[pp->nowned++] = s;
	return str(pp, s);
}

/*
 * Whether @s has FDE ranges, functions without names: then the mapping
 * does not say it has functions, so that a symbolizer names those.
 */
static bool has_fde_funcs(const struct render_syms *s)
{
	size_t i;

	for (i = 0; i < s->nfuncs; i++)
		if (s->funcs[i].flags & SYM_FUNC_FDE)
			return true;
	return false;
}

/* The line of the entry of @f, if it is in @file; else 0. */
static int64_t start_line(const struct render_syms *s,
			  const struct sym_func *f, const char *file)
{
	struct sym_line l;

	if (!f || !file || !s->line || s->line(s->ctx, f->addr, &l) ||
	    !l.file || strcmp(l.file, file))
		return 0;
	return l.line;
}

static const char *base_name(const char *path)
{
	const char *b = strrchr(path, '/');

	return b ? b + 1 : path;
}

/*
 * The id of the function @f (NULL: the object's unknown row, or with
 * @name its uncovered one) of object @obj, in source @file; 0 on ENOMEM.
 */
static uint64_t function_id(struct pp *pp, size_t obj,
			    const struct sym_func *f, const char *name,
			    const char *file)
{
	const struct render_syms *s = &pp->syms[obj];
	int64_t fidx = str(pp, file), nidx;
	uint64_t k[3] = { obj, 0, (uint64_t)fidx };
	struct pp_slot *slot;
	pb_function *fn;

	if (f)
		k[1] = (uint64_t)(f - s->funcs) + 1;
	else if (name)
		k[1] = UINT64_MAX;
	if (!name)
		name = f ? f->name : pp->o->unknown;
	if (fidx < 0 || !(slot = map_get(&pp->funcmap, k)))
		return 0;
	if (slot->id)
		return slot->id;
	/*
	 * pprof merges functions by name: an object's unknown and uncovered
	 * rows are its own: "[unknown] [libc.so.6]" (pprof shortens away
	 * a "(...)", and names a mapping so: "[libc.so.6]").
	 */
	if (f || pp->p->nobjects < 2)
		nidx = str(pp, name);
	else
		nidx = strf(pp, "%s [%s]", name,
			    base_name(pp->p->objects[obj].path));
	if (nidx < 0)
		return 0;
	if (grow(&pp->funcs, &pp->capfuncs, pp->nfuncs, sizeof(*pp->funcs)))
		return 0;
	fn = &pp->funcs[pp->nfuncs];
	perftools__profiles__function__init(fn);
	fn->id = ++pp->nfuncs;
	fn->name = nidx;
	fn->system_name = nidx;
	fn->filename = fidx;
	fn->start_line = start_line(s, f, file);
	slot->id = fn->id;
	return fn->id;
}

static int gz_samples(struct pp_gz *g, struct pp *pp, size_t i, size_t n);
static int gz_locations(struct pp_gz *g, struct pp *pp, size_t i, size_t n);

/*
 * The id of the location of address @addr of object @obj, or with
 * @uncovered of the object's uncovered samples; 0 on ENOMEM.
 */
static uint64_t location_id(struct pp *pp, size_t obj, uint64_t addr,
			    bool uncovered)
{
	const uint64_t k[3] = { obj, uncovered ? 0 : addr, uncovered };
	struct export_site site = { .func = NULL };
	struct pp_slot *slot = map_get(&pp->locmap, k);
	uint64_t fid;
	struct pp_loc *loc;

	if (!slot)
		return 0;
	if (slot->id)
		return slot->id;
	if (uncovered)
		fid = function_id(pp, obj, NULL, pp->o->uncovered, NULL);
	else {
		export_site(&pp->syms[obj], addr, &site);
		/*
		 * An FDE range has no name: its location stays unsymbolized
		 * (its address, no line; UINT64_MAX: no function), for a
		 * symbolizing backend to name.
		 */
		fid = site.func && site.func->flags & SYM_FUNC_FDE ?
		      UINT64_MAX :
		      function_id(pp, obj, site.func, NULL, site.file);
	}
	if (!fid)
		return 0;
	loc = &pp->locs[pp->nlocbuf++];
	loc->mapping_id = pp->maps[obj].id;
	loc->address = uncovered ? 0 : addr;
	loc->function_id = fid == UINT64_MAX ? 0 : fid;
	loc->line = site.line;
	slot->id = ++pp->nlocs;
	if (pp->nlocbuf == PP_CHUNK) {
		if (gz_locations(&pp->gz, pp, 0, PP_CHUNK))
			return 0;
		pp->locbase += PP_CHUNK;
		pp->nlocbuf = 0;
	}
	return slot->id;
}

/*
 * A sample at locations @loc (leaf first; @loc[1] 0: one only) of process
 * @proc (none if out of range) with @n samples and @calls calls.
 */
static int add_sample(struct pp *pp, const uint64_t loc[2], size_t proc,
		      uint64_t n, uint64_t calls)
{
	size_t i = pp->nsbuf;

	if (!loc[0])
		return -1;
	pp->sproc[i] = proc;
	memcpy(pp->locids[i], loc, sizeof(pp->locids[i]));
	pp->values[i][0] = (int64_t)n;
	pp->values[i][1] = llround((double)n * pp->ns_per_sample);
	pp->values[i][2] = (int64_t)calls;
	if (++pp->nsbuf < PP_CHUNK)
		return 0;
	pp->nsbuf = 0;
	return gz_samples(&pp->gz, pp, 0, PP_CHUNK);
}

struct bin_ctx {
	struct pp *pp;
	const struct profile_count *c;
};

/* One bin's samples, at the location of its first address. */
static int add_bin(void *ctx, uint64_t lo, uint64_t hi, uint64_t count)
{
	struct bin_ctx *x = ctx;
	uint64_t loc[2] = { 0, 0 };

	(void)hi;
	loc[0] = location_id(x->pp, x->c->object, lo, false);
	return add_sample(x->pp, loc, x->c->process, count, 0);
}

/* The samples and arcs of one count. */
static int add_count(struct pp *pp, const struct profile_count *c)
{
	const struct hist *h = &c->hist;
	struct bin_ctx x = { pp, c };
	uint64_t loc[2] = { 0, 0 };
	size_t i;

	if (hist_each_bin(h, add_bin, &x))
		return -1;
	if (c->uncovered) {
		loc[0] = location_id(pp, c->object, 0, true);
		if (add_sample(pp, loc, c->process, c->uncovered, 0))
			return -1;
	}
	for (i = 0; i < h->narcs; i++) {
		loc[0] = location_id(pp, c->object, h->arcs[i].self_pc, false);
		loc[1] = location_id(pp, c->object, h->arcs[i].from_pc, false);
		if (!loc[1] ||
		    add_sample(pp, loc, c->process, 0, h->arcs[i].count))
			return -1;
	}
	return 0;
}

/* Widens mapping @m to hold [@lo, @hi). */
static void widen(pb_mapping *m, uint64_t lo, uint64_t hi)
{
	if (m->memory_start == m->memory_limit) {
		m->memory_start = lo;
		m->memory_limit = hi;
		return;
	}
	if (lo < m->memory_start)
		m->memory_start = lo;
	if (hi > m->memory_limit)
		m->memory_limit = hi;
}

/* The index of the main program's object: the first process's exe. */
static size_t main_object(const struct profile *p)
{
	size_t i;

	for (i = 0; p->nprocesses && p->processes[0].exe &&
	     i < p->nobjects; i++)
		if (!strcmp(p->objects[i].path, p->processes[0].exe))
			return i;
	return 0;
}

/*
 * The file offset of @m's start, from the object's program headers:
 * pprof finds the code it disassembles (-disasm, -weblist) by it, so 0
 * for a start in libc's text at 0x26000 found nothing. The start and
 * limit stay link-time addresses, as every location's. Without the
 * object's file (@s without symbols), 0.
 */
static void file_offset(pb_mapping *m, const struct render_syms *s)
{
	uint64_t vaddr, off;

	if (!s->ctx || m->memory_start == m->memory_limit ||
	    symtab_segment(s->ctx, m->memory_start, &vaddr, &off))
		return;
	m->file_offset = off + (m->memory_start - vaddr);
}

static int add_mappings(struct pp *pp)
{
	const struct profile *p = pp->p;
	size_t n = p->nobjects ? p->nobjects : 1, i, j, first;
	const struct hist *h;
	pb_mapping *m;

	pp->maps = calloc(n, sizeof(*pp->maps));
	pp->map_order = calloc(n, sizeof(*pp->map_order));
	if (!pp->maps || !pp->map_order)
		return -1;
	first = main_object(p);
	for (i = 0, j = 1; i < p->nobjects; i++) {
		m = &pp->maps[i];
		perftools__profiles__mapping__init(m);
		m->id = i == first ? 1 : ++j;
		pp->map_order[m->id - 1] = i;
		m->filename = str(pp, p->objects[i].path);
		m->build_id = str(pp, p->objects[i].build_id);
		if (m->filename < 0 || m->build_id < 0)
			return -1;
		m->has_functions = pp->syms[i].nfuncs > 0 &&
				   !has_fde_funcs(&pp->syms[i]);
		m->has_filenames = pp->syms[i].line != NULL;
		m->has_line_numbers = pp->syms[i].line != NULL;
	}
	for (i = 0; i < p->ncounts; i++) {
		h = &p->counts[i].hist;
		m = &pp->maps[p->counts[i].object];
		for (j = 0; j < h->nranges; j++)
			widen(m, h->ranges[j].low_pc, h->ranges[j].high_pc);
		for (j = 0; j < h->narcs; j++) {
			widen(m, h->arcs[j].from_pc, h->arcs[j].from_pc + 1);
			widen(m, h->arcs[j].self_pc, h->arcs[j].self_pc + 1);
		}
	}
	for (i = 0; i < p->nobjects; i++)
		file_offset(&pp->maps[i], &pp->syms[i]);
	return 0;
}

/* Each process's labels: pid, comm, and executable and cgroup if known. */
static int add_labels(struct pp *pp)
{
	static const char *const keys[PP_NLABELS] = {
		"pid", "comm", "executable", "cgroup"
	};
	const struct profile *p = pp->p;
	size_t n = p->nprocesses ? p->nprocesses : 1, i, k;
	int64_t key[PP_NLABELS];
	const char *v[PP_NLABELS];
	pb_label *l;

	pp->labels = calloc(n * PP_NLABELS, sizeof(*pp->labels));
	pp->labelptrs = calloc(n * PP_NLABELS, sizeof(*pp->labelptrs));
	pp->nlabels = calloc(n, sizeof(*pp->nlabels));
	if (!pp->labels || !pp->labelptrs || !pp->nlabels)
		return -1;
	for (k = 0; k < PP_NLABELS; k++)
		if ((key[k] = str(pp, keys[k])) < 0)
			return -1;
	for (i = 0; i < p->nprocesses; i++) {
		v[0] = NULL;
		v[1] = p->processes[i].comm;
		v[2] = p->processes[i].exe;
		v[3] = p->processes[i].cgroup;
		for (k = 0; k < PP_NLABELS; k++) {
			if (k > 1 && !v[k])
				continue;
			l = &pp->labels[i * PP_NLABELS + pp->nlabels[i]];
			perftools__profiles__label__init(l);
			pp->labelptrs[i * PP_NLABELS + pp->nlabels[i]++] = l;
			l->key = key[k];
			if (!k)
				l->num = p->processes[i].pid;
			else if ((l->str = str(pp, v[k])) < 0)
				return -1;
		}
	}
	return 0;
}

/* Comments: the rate and the kernel's accounting, where known. */
static int add_comments(struct pp *pp, int64_t *c, size_t *n)
{
	const struct profile_acct *a = &pp->p->acct;
	size_t i;

	*n = 0;
	/*
	 * The command line: pprof names a profile by its main mapping
	 * ("File: dash"); profile.proto has no field for a command, so it
	 * is the first comment (go tool pprof -comments).
	 */
	if (pp->p->command)
		c[(*n)++] = strf(pp, "command: %s", pp->p->command);
	if (pp->p->rate)
		c[(*n)++] = strf(pp, "profil-ctl: rate %" PRIu32 " Hz, "
				 "cpu/nanoseconds = samples * 1e9 / rate",
				 pp->p->rate);
	else
		c[(*n)++] = strf(pp, "profil-ctl: rate unknown, "
				 "cpu/nanoseconds 0");
	if (a->ticks != PROFILE_UNKNOWN)
		c[(*n)++] = strf(pp, "profil-ctl: ticks %" PRIu64 ", missed "
				 "periods %" PRIu64 ", kernel-mode %" PRIu64,
				 a->ticks, a->missed, a->kernel);
	for (i = 0; i < *n; i++)
		if (c[i] < 0)
			return -1;
	return 0;
}

/* The rest of the message: types, period, functions, mappings, strings. */
static int assemble(struct pp *pp, pb_profile *m, pb_value_type *vt,
		    pb_value_type **vtp, pb_value_type *period)
{
	static const char *const names[PP_NVALUES][2] = {
		{ PPROF_SAMPLES, "count" }, { PPROF_CPU, "nanoseconds" },
		{ PPROF_CALLS, "count" },
	};
	pb_function **fp = calloc(pp->nfuncs + 1, sizeof(*fp));
	pb_mapping **mp = calloc(pp->p->nobjects + 1, sizeof(*mp));
	size_t i;

	m->function = fp;
	m->mapping = mp;
	m->sample_type = vtp;
	if (!fp || !mp)
		return -1;
	for (i = 0; i < pp->nvalues; i++) {
		perftools__profiles__value_type__init(&vt[i]);
		vt[i].type = str(pp, names[i][0]);
		vt[i].unit = str(pp, names[i][1]);
		vtp[i] = &vt[i];
	}
	m->n_sample_type = pp->nvalues;
	perftools__profiles__value_type__init(period);
	period->type = str(pp, PPROF_CPU);
	period->unit = str(pp, "nanoseconds");
	m->period_type = period;
	m->period = llround(pp->ns_per_sample);
	m->default_sample_type = str(pp, PPROF_SAMPLES);
	for (i = 0; i < pp->nfuncs; i++)
		fp[i] = &pp->funcs[i];
	m->n_function = pp->nfuncs;
	for (i = 0; i < pp->p->nobjects; i++)
		mp[i] = &pp->maps[pp->map_order[i]];
	m->n_mapping = pp->p->nobjects;
	/* protobuf-c only reads the strings: they are not written to. */
	m->string_table = (char **)pp->strs;
	m->n_string_table = pp->nstrs;
	return 0;
}

/*
 * @m packed into the stream. Pieces make one message: protobuf merges a
 * message's repeated fields over its occurrences.
 */
static int gz_message(struct pp_gz *g, const pb_profile *m)
{
	size_t len = perftools__profiles__profile__get_packed_size(m);
	uint8_t *nb;

	if (len > g->cap) {
		nb = realloc(g->buf, len);
		if (!nb)
			return -1;
		g->buf = nb;
		g->cap = len;
	}
	perftools__profiles__profile__pack(m, g->buf);
	return gzout_put(&g->s, g->buf, len, false);
}

/* Samples [@i, @i + @n) as messages. */
static int gz_samples(struct pp_gz *g, struct pp *pp, size_t i, size_t n)
{
	pb_profile m = PERFTOOLS__PROFILES__PROFILE__INIT;
	pb_sample *v = g->sv, **vp = g->svp;
	size_t k;

	for (k = 0; k < n; k++) {
		perftools__profiles__sample__init(&v[k]);
		v[k].n_location_id = pp->locids[i + k][1] ? 2 : 1;
		v[k].location_id = pp->locids[i + k];
		v[k].n_value = pp->nvalues;
		v[k].value = pp->values[i + k];
		if (pp->sproc[i + k] < pp->p->nprocesses) {
			v[k].n_label = pp->nlabels[pp->sproc[i + k]];
			v[k].label = &pp->labelptrs[PP_NLABELS *
						    pp->sproc[i + k]];
		}
		vp[k] = &v[k];
	}
	m.sample = vp;
	m.n_sample = n;
	return gz_message(g, &m);
}

/* Locations [@i, @i + @n) as messages; ids are indices plus one. */
static int gz_locations(struct pp_gz *g, struct pp *pp, size_t i, size_t n)
{
	pb_profile m = PERFTOOLS__PROFILES__PROFILE__INIT;
	pb_location *v = g->lv, **vp = g->lvp;
	pb_line *lines = g->line, **lp = g->linep;
	const struct pp_loc *l;
	size_t k;

	for (k = 0; k < n; k++) {
		l = &pp->locs[i + k];
		perftools__profiles__location__init(&v[k]);
		perftools__profiles__line__init(&lines[k]);
		v[k].id = pp->locbase + i + k + 1;
		v[k].mapping_id = l->mapping_id;
		v[k].address = l->address;
		lines[k].function_id = l->function_id;
		lines[k].line = l->line;
		lp[k] = &lines[k];
		v[k].n_line = l->function_id ? 1 : 0;
		v[k].line = &lp[k];
		vp[k] = &v[k];
	}
	m.location = vp;
	m.n_location = n;
	return gz_message(g, &m);
}

/* The last chunks, the head, the end of the stream. */
static int pack_write(struct pp *pp)
{
	pb_value_type vt[PP_NVALUES], *vtp[PP_NVALUES], period;
	pb_profile m = PERFTOOLS__PROFILES__PROFILE__INIT;
	int64_t comments[3];
	int ret = -1;

	if (add_comments(pp, comments, &m.n_comment))
		return -1;
	m.comment = comments;
	if (assemble(pp, &m, vt, vtp, &period))
		goto out;
	/* str() in assemble() may have failed: -1 is no index. */
	if (vt[0].type < 0 || vt[pp->nvalues - 1].unit < 0 ||
	    m.default_sample_type < 0 || period.unit < 0)
		goto out;
	ret = gz_samples(&pp->gz, pp, 0, pp->nsbuf) ||
	      gz_locations(&pp->gz, pp, 0, pp->nlocbuf) ||
	      gz_message(&pp->gz, &m) ||
	      gzout_put(&pp->gz.s, NULL, 0, true) ? -1 : 0;
out:
	free(m.function);
	free(m.mapping);
	return ret;
}

/* The stream to @out and the chunks' arrays; pp_free() ends them. */
static int gz_open(struct pp *pp, FILE *out)
{
	struct pp_gz *g = &pp->gz;

	g->sv = calloc(PP_CHUNK, sizeof(*g->sv));
	g->svp = calloc(PP_CHUNK, sizeof(*g->svp));
	g->lv = calloc(PP_CHUNK, sizeof(*g->lv));
	g->lvp = calloc(PP_CHUNK, sizeof(*g->lvp));
	g->line = calloc(PP_CHUNK, sizeof(*g->line));
	g->linep = calloc(PP_CHUNK, sizeof(*g->linep));
	pp->sproc = calloc(PP_CHUNK, sizeof(*pp->sproc));
	pp->values = calloc(PP_CHUNK, sizeof(*pp->values));
	pp->locids = calloc(PP_CHUNK, sizeof(*pp->locids));
	pp->locs = calloc(PP_CHUNK, sizeof(*pp->locs));
	if (!g->sv || !g->svp || !g->lv || !g->lvp || !g->line ||
	    !g->linep || !pp->sproc || !pp->values || !pp->locids || !pp->locs)
		return -1;
	return gzout_open(&g->s, out);
}

static void pp_free(struct pp *pp)
{
	size_t i;

	for (i = 0; i < pp->nowned; i++)
		free(pp->owned[i]);
	free(pp->owned);
	free(pp->strs);
	free(pp->strmap);
	free(pp->funcs);
	free(pp->funcmap.v);
	gzout_close(&pp->gz.s);
	free(pp->gz.buf);
	free(pp->gz.sv);
	free(pp->gz.svp);
	free(pp->gz.lv);
	free(pp->gz.lvp);
	free(pp->gz.line);
	free(pp->gz.linep);
	free(pp->locs);
	free(pp->locmap.v);
	free(pp->sproc);
	free(pp->values);
	free(pp->locids);
	free(pp->maps);
	free(pp->map_order);
	free(pp->labels);
	free(pp->labelptrs);
	free(pp->nlabels);
}

/* The location map sized once for @n locations: never rehashed. */
static int pp_reserve(struct pp *pp, size_t n)
{
	size_t cap = 256;

	while (2 * cap < 3 * (n + 1))
		cap *= 2;
	pp->locmap.v = calloc(cap, sizeof(*pp->locmap.v));
	if (!pp->locmap.v)
		return -1;
	pp->locmap.cap = cap;
	return 0;
}

/* Samples (bins with some, uncovered, arcs): at most one location each. */
static size_t pp_nsamples(const struct profile *p)
{
	const struct hist *h;
	size_t n = 0, i, r, b;

	for (i = 0; i < p->ncounts; i++) {
		h = &p->counts[i].hist;
		for (r = 0; r < h->nranges; r++)
			for (b = 0; b < h->ranges[r].nbins; b++)
				n += h->ranges[r].bins[b] != 0;
		n += 1 + 2 * h->narcs;
	}
	return n;
}

int render_pprof(FILE *out, const struct profile *p,
		 const struct render_syms *syms, const struct export_opts *o)
{
	struct pp pp = { .p = p, .syms = syms, .o = o, .nvalues = 2 };
	int ret = -1;
	size_t i;

	for (i = 0; i < p->ncounts; i++)
		if (p->counts[i].hist.narcs)
			pp.nvalues = PP_NVALUES;
	if (p->rate)
		pp.ns_per_sample = 1e9 / p->rate;
	errno = ENOMEM;
	if (grow(&pp.strs, &pp.capstrs, 0, sizeof(*pp.strs)))
		goto out;
	pp.strs[pp.nstrs++] = "";
	if (add_mappings(&pp) || add_labels(&pp) ||
	    pp_reserve(&pp, pp_nsamples(p)) || gz_open(&pp, out))
		goto out;
	errno = 0;
	for (i = 0; i < p->ncounts; i++)
		if (add_count(&pp, &p->counts[i]))
			goto out;
	ret = pack_write(&pp);
out:
	if (ret && !errno)
		errno = ENOMEM;
	pp_free(&pp);
	return ret;
}
