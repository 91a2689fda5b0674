// SPDX-License-Identifier: GPL-2.0
/*
 * A kernel-held profile into the profile model (held.h).
 *
 * The kernel names where each tick fell by (image, object, offset): an
 * image is a process between fork or exec and exit or exec, an object a
 * file by device, inode and ctime (or the vDSO, or anonymous memory), an
 * offset a file offset. The read keeps the images in order as processes,
 * opens each file once where the kernel saw it, and only if it is still
 * the file that ran (same device, inode and ctime), for its build-id and
 * load segments, and bins each offset's link-time address in histograms
 * of page-aligned chunks: chunks of one object line up in every process,
 * so that the profile merges by object as any other.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "ctl.h"
#include "held.h"
#include "held_jit.h"

/* Bytes of text per histogram range, at least: a page. */
#define HELD_CHUNK 4096ULL

/* One image as read, until every image is in. */
struct held_image {
	bool seen;
	size_t process;		/* in profile.processes, once added */
	uint32_t parent;
	pid_t pid;
	char comm[16];
	uint32_t exe;
	uint32_t reason;
	uint64_t cgroup;
	struct profile_acct acct;
};

/* One object as read, and what it became. */
struct held_object {
	bool seen;
	bool anon;		/* anonymous memory: a JIT's, maybe */
	ssize_t index;		/* in profile.objects, -1: none */
	ssize_t info;		/* in the reader's objcache, -1: offsets are
				 * addresses (its array moves as it grows)
				 */
};

/* One sample, placed: image (then process), object, link-time address. */
struct held_sample {
	size_t process;		/* the image's index until add_processes() */
	size_t object;
	uint64_t addr;
	uint64_t count;
};

struct held_read {
	struct held_reader *r;
	struct profile *p;
	struct held_notes *notes;
	const struct held_baseline *base;	/* NULL: none */
	struct held_image *images;
	size_t nimages;
	struct held_object *objects;
	size_t nobjects;
	struct held_sample *samples;
	size_t nsamples, samples_cap;
	struct held_jits jits;	/* perf maps of the processes in [anon] */
	int err;	/* an errno that ended the read */
};

/* Grow @*v of @*n elements of @size to hold index @idx, zero-filled. */
static int grow(void *v, size_t *n, size_t size, size_t idx)
{
	size_t m = *n ? *n : 64;
	char *nv;

	if (idx < *n)
		return 0;
	while (m <= idx)
		m *= 2;
	nv = realloc(*(void **)v, m * size);
	if (!nv)
		return -1;
	memset(nv + *n * size, 0, (m - *n) * size);
	*(void **)v = nv;
	*n = m;
	return 0;
}

/* The kernel's stats as the profile's accounting (held.rst). */
static void acct_from_stats(struct profile_acct *a, const uint64_t *st,
			    size_t n)
{
	uint64_t v[PROFIL_STAT_MAX + 1] = { 0 };

	memcpy(v, st, (n < PROFIL_STAT_MAX + 1 ? n : PROFIL_STAT_MAX + 1) *
	       sizeof(*v));
	*a = (struct profile_acct){
		.ticks = v[PROFIL_STAT_TICKS],
		.missed = v[PROFIL_STAT_MISSED],
		.kernel = v[PROFIL_STAT_SYSTEM_DROPPED],
		.outside = v[PROFIL_STAT_OUT_OF_RANGE],
		.deferred = v[PROFIL_STAT_DEFERRED],
		.saturated = v[PROFIL_STAT_SATURATED],
		.lost = v[PROFIL_STAT_PENDING] + v[PROFIL_STAT_DISCARDED] +
			v[PROFIL_STAT_FAULTED],
	};
}

static int on_image(const struct profil_image *img, void *data)
{
	struct held_read *hr = data;
	struct held_image *i;

	if (!img->id || grow(&hr->images, &hr->nimages, sizeof(*i),
			     img->id - 1) < 0) {
		hr->err = img->id ? ENOMEM : EPROTO;
		return -1;
	}
	i = &hr->images[img->id - 1];
	i->seen = true;
	i->parent = img->parent;
	i->pid = img->pid;
	memcpy(i->comm, img->comm, sizeof(i->comm));
	i->exe = img->exe;
	i->reason = img->reason ? img->reason : PROFIL_STOP_NONE;
	i->cgroup = img->cgroup;
	acct_from_stats(&i->acct, img->stats, img->nstats);
	if (hr->base && img->id <= hr->base->nacct)
		held_acct_since(&i->acct, &hr->base->acct[img->id - 1]);
	if (hr->notes && img->nstats > PROFIL_STAT_PROFILE_FULL) {
		hr->notes->mmap_busy += img->stats[PROFIL_STAT_MMAP_BUSY];
		hr->notes->profile_full += img->stats[PROFIL_STAT_PROFILE_FULL];
	}
	if (hr->notes && img->reason == PROFIL_STOP_NONE)
		hr->notes->live++;
	if (hr->notes && img->reason == PROFIL_STOP_SECURE_EXEC &&
	    !hr->notes->secure_exec++)
		memcpy(hr->notes->secure_comm, img->comm,
		       sizeof(hr->notes->secure_comm));
	return 0;
}

/* Copy the vDSO out of profil-ctl itself: one kernel, one vDSO. */
static const char *vdso_file(struct held_reader *r)
{
	char tmpl[] = "/tmp/profil-ctl-vdso.XXXXXX";
	struct procmaps_entry *v;
	size_t n, i;
	int fd;

	if (r->vdso_file || procmaps_load(getpid(), &v, &n) < 0)
		return r->vdso_file;
	for (i = 0; i < n && strcmp(v[i].path, "[vdso]"); i++)
		;
	if (i < n) {
		fd = mkstemp(tmpl);
		if (fd >= 0 && write(fd, (const void *)(uintptr_t)v[i].start,
				     v[i].end - v[i].start) ==
			       (ssize_t)(v[i].end - v[i].start))
			r->vdso_file = strdup(tmpl);
		else if (fd >= 0)
			unlink(tmpl);
		if (fd >= 0)
			close(fd);
	}
	free(v);
	return r->vdso_file;
}

/*
 * Whether @path is still the file the kernel sampled: same device, inode
 * and ctime. A file replaced (or deleted) since must not lend its
 * symbols to the one that ran.
 */
static bool same_file(const struct profil_object *o)
{
	struct stat st;

	return !stat(o->path, &st) && st.st_ino == o->ino &&
	       major(st.st_dev) == major(o->dev) &&
	       minor(st.st_dev) == minor(o->dev) &&
	       (uint64_t)st.st_ctim.tv_sec * 1000000000ULL +
	       (uint64_t)st.st_ctim.tv_nsec == o->ctime_ns;
}

/* A file the kernel sampled: its objinfo, if it is still that file. */
static int file_object(struct held_read *hr, const struct profil_object *o,
		       struct held_object *ho)
{
	const struct objinfo *info = NULL;
	char *name = NULL;
	int ret;

	if (same_file(o)) {
		info = objcache_get_file(&hr->r->objects, major(o->dev),
					 minor(o->dev), o->ino, o->path,
					 o->path);
		if (!info)
			return -1;
	} else {
		/* Named as such: its symbols would be another file's. */
		if (asprintf(&name, "%s (replaced)", o->path) < 0)
			return -1;
		if (hr->notes)
			hr->notes->replaced++;
	}
	ho->info = info && info->elf ? info - hr->r->objects.v : -1;
	ho->index = profile_object_add(hr->p, name ? name : o->path,
				       info ? info->build_id : NULL);
	ret = ho->index < 0 ? -1 : 0;
	free(name);
	return ret;
}

static int on_object(const struct profil_object *o, void *data)
{
	struct held_read *hr = data;
	const struct objinfo *info;
	struct held_object *ho;
	const char *file;
	int ret = 0;

	if (!o->id || grow(&hr->objects, &hr->nobjects, sizeof(*ho),
			   o->id - 1) < 0) {
		hr->err = o->id ? ENOMEM : EPROTO;
		return -1;
	}
	ho = &hr->objects[o->id - 1];
	ho->seen = true;
	ho->index = -1;
	ho->info = -1;
	switch (o->kind) {
	case PROFIL_OBJECT_FILE:
		ret = file_object(hr, o, ho);
		break;
	case PROFIL_OBJECT_SPECIAL:
		file = strcmp(o->path, "[vdso]") ? NULL : vdso_file(hr->r);
		info = file ? objcache_get_file(&hr->r->objects, 0, 0, 0,
						o->path, file) : NULL;
		if (file && !info) {
			ret = -1;
			break;
		}
		if (info && info->elf)
			ho->info = info - hr->r->objects.v;
		ho->index = profile_object_add(hr->p, o->path, info ?
					       info->build_id : NULL);
		if (ho->index >= 0 && file &&
		    !hr->p->objects[ho->index].symfile) {
			hr->p->objects[ho->index].symfile = strdup(file);
			if (!hr->p->objects[ho->index].symfile)
				ret = -1;
		}
		break;
	default:	/* anonymous memory: addresses, a perf map's names */
		ho->index = profile_object_add(hr->p, "[anon]", NULL);
		ho->anon = !hr->r->no_perfmap;
		break;
	}
	if (ret || ho->index < 0) {
		hr->err = errno ? errno : ENOMEM;
		return -1;
	}
	return 0;
}

/* @hs, in image @img's anonymous memory: its JIT's object, if any. */
static int jit_object(struct held_read *hr, struct held_sample *hs,
		      size_t img)
{
	ssize_t k = held_jit_object(&hr->jits, hr->p, hr->images[img].pid,
				    hs->addr, (ssize_t)hs->object);

	if (k < 0) {
		hr->err = ENOMEM;
		return -1;
	}
	hs->object = (size_t)k;
	return 0;
}

static int on_samples(const struct profil_sample *s, size_t n, void *data)
{
	struct held_read *hr = data;
	const struct held_object *ho;
	struct held_sample *hs;
	uint64_t count;
	size_t i;

	for (i = 0; i < n; i++) {
		if (!s[i].image || s[i].image > hr->nimages ||
		    !hr->images[s[i].image - 1].seen ||
		    !s[i].object || s[i].object > hr->nobjects ||
		    !hr->objects[s[i].object - 1].seen) {
			hr->err = EPROTO;	/* the kernel promises both */
			return -1;
		}
		count = hr->base ? held_baseline_since(hr->base, &s[i]) :
			s[i].count;
		if (!count)
			continue;	/* all of it before the baseline */
		if (grow(&hr->samples, &hr->samples_cap, sizeof(*hs),
			 hr->nsamples) < 0) {
			hr->err = ENOMEM;
			return -1;
		}
		ho = &hr->objects[s[i].object - 1];
		hs = &hr->samples[hr->nsamples++];
		hs->process = s[i].image - 1;
		hs->object = (size_t)ho->index;
		hs->addr = ho->info < 0 ? s[i].offset :
			   objinfo_link_addr(&hr->r->objects.v[ho->info],
					     s[i].offset);
		hs->count = count;
		if (ho->anon && jit_object(hr, hs, s[i].image - 1))
			return -1;
	}
	return 0;
}

static int on_stats(const uint64_t *st, size_t n, void *data)
{
	struct held_read *hr = data;

	if (hr->notes && n > PROFIL_PROFILE_IMAGES_LOST)
		hr->notes->images_lost = st[PROFIL_PROFILE_IMAGES_LOST];
	if (hr->notes && n > PROFIL_PROFILE_SAMPLES_LOST)
		hr->notes->samples_lost = st[PROFIL_PROFILE_SAMPLES_LOST];
	return 0;
}

/* The pid of the process @img was forked from, chasing its execs. */
static pid_t parent_pid(const struct held_read *hr, const struct held_image *img)
{
	const struct held_image *up = img;

	while (up->parent && up->parent <= hr->nimages) {
		up = &hr->images[up->parent - 1];
		if (up->pid != img->pid)
			return up->pid;
	}
	return hr->r->root_ppid;
}

/*
 * Every image as a process, in the order they began (their ids); then
 * the samples' images as processes.
 */
static int add_processes(struct held_read *hr)
{
	struct held_image *img;
	const char *exe;
	ssize_t idx;
	size_t i, j;

	for (i = 0; i < hr->nimages; i++) {
		img = &hr->images[i];
		img->process = SIZE_MAX;
		if (!img->seen || (!i && hr->r->spawned && !img->parent &&
				   img->reason == PROFIL_STOP_EXEC))
			continue;	/* run's child, still profil-ctl */
		exe = img->exe && img->exe <= hr->nobjects &&
		      hr->objects[img->exe - 1].index >= 0 ?
		      hr->p->objects[hr->objects[img->exe - 1].index].path :
		      NULL;
		idx = profile_process_add(hr->p, img->pid, parent_pid(hr, img),
					  img->comm, exe);
		if (idx < 0)
			return -1;
		img->process = (size_t)idx;
		if (hr->r->cgroups && img->cgroup &&
		    profile_process_set_cgroup(hr->p, (size_t)idx,
					       cgroups_find(hr->r->cgroups,
							    img->cgroup)))
			return -1;
		hr->p->processes[idx].acct = img->acct;
		profile_acct_add(&hr->p->acct, &img->acct);
	}
	for (i = j = 0; i < hr->nsamples; i++) {
		hr->samples[j] = hr->samples[i];
		hr->samples[j].process =
			hr->images[hr->samples[i].process].process;
		if (hr->samples[j].process != SIZE_MAX)
			j++;
	}
	hr->nsamples = j;
	return 0;
}

static int cmp_sample(const void *a, const void *b)
{
	const struct held_sample *x = a, *y = b;

	if (x->process != y->process)
		return x->process < y->process ? -1 : 1;
	if (x->object != y->object)
		return x->object < y->object ? -1 : 1;
	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* The sorted samples into one histogram per (process, object). */
static int add_counts(struct held_read *hr)
{
	uint64_t chunk = hr->r->bin_bytes > HELD_CHUNK ? hr->r->bin_bytes :
							 HELD_CHUNK;
	size_t nbins = chunk / hr->r->bin_bytes, i = 0, j;
	struct profile_count *pc = NULL;
	uint64_t *bins, low;
	int ret = -1;

	bins = calloc(nbins, sizeof(*bins));
	if (!bins)
		return -1;
	qsort(hr->samples, hr->nsamples, sizeof(*hr->samples), cmp_sample);
	while (i < hr->nsamples) {
		const struct held_sample *s = &hr->samples[i];

		if (!i || s->process != s[-1].process ||
		    s->object != s[-1].object) {
			pc = profile_count_add(hr->p, s->process, s->object);
			if (!pc)
				goto out;
		}
		low = s->addr & ~(chunk - 1);
		memset(bins, 0, nbins * sizeof(*bins));
		for (j = i; j < hr->nsamples &&
		     hr->samples[j].process == s->process &&
		     hr->samples[j].object == s->object &&
		     hr->samples[j].addr - low < chunk; j++)
			bins[(hr->samples[j].addr - low) / hr->r->bin_bytes] +=
				hr->samples[j].count;
		if (hist_add_range(&pc->hist, low, low + chunk, bins, nbins))
			goto out;
		i = j;
	}
	ret = 0;
out:
	free(bins);
	return ret;
}

int held_read_since(struct held_reader *r, const struct held_baseline *base,
		    struct profile *out, struct held_notes *notes)
{
	static const struct profil_profile_ops ops = {
		.image = on_image,
		.object = on_object,
		.samples = on_samples,
		.stats = on_stats,
	};
	struct held_read hr = { .r = r, .p = out, .notes = notes,
				.base = base, .jits.bin_bytes = r->bin_bytes };
	int ret;

	if (notes)
		memset(notes, 0, sizeof(*notes));
	out->rate = r->rate ? r->rate : PROFIL_RATE_DEFAULT;
	out->bin_bytes = r->bin_bytes;
	memset(&out->acct, 0, sizeof(out->acct));
	ret = profil_profile_read(r->h, &ops, &hr);
	if (!ret) {
		ret = add_processes(&hr) || add_counts(&hr) ||
		      held_jit_finish(&hr.jits, out) ? -1 : 0;
		if (ret)
			ctl_perror(r->op);
	} else if (ret < 0) {
		ctl_perror_lib(r->op);
	} else {
		errno = hr.err;
		ctl_perror(r->op);
		ret = -1;
	}
	held_jits_free(&hr.jits);
	free(hr.images);
	free(hr.objects);
	free(hr.samples);
	return ret;
}

int held_read(struct held_reader *r, struct profile *out,
	      struct held_notes *notes)
{
	return held_read_since(r, NULL, out, notes);
}

int held_baseline_add(struct held_baseline *b, const struct profil_sample *s)
{
	struct held_base_sample *v;
	size_t cap;

	if (b->n == b->cap) {
		cap = b->cap ? 2 * b->cap : 1024;
		v = reallocarray(b->v, cap, sizeof(*v));
		if (!v)
			return -1;
		b->v = v;
		b->cap = cap;
	}
	b->v[b->n++] = (struct held_base_sample){
		.image = s->image, .object = s->object,
		.offset = s->offset, .count = s->count,
	};
	return 0;
}

static int cmp_base(const void *a, const void *b)
{
	const struct held_base_sample *x = a, *y = b;

	if (x->image != y->image)
		return x->image < y->image ? -1 : 1;
	if (x->object != y->object)
		return x->object < y->object ? -1 : 1;
	return x->offset < y->offset ? -1 : x->offset > y->offset;
}

void held_baseline_sort(struct held_baseline *b)
{
	if (b->n)
		qsort(b->v, b->n, sizeof(*b->v), cmp_base);
}

uint64_t held_baseline_since(const struct held_baseline *b,
			     const struct profil_sample *s)
{
	const struct held_base_sample key = {
		.image = s->image, .object = s->object, .offset = s->offset,
	};
	const struct held_base_sample *f = b->n ?
		bsearch(&key, b->v, b->n, sizeof(*b->v), cmp_base) : NULL;

	if (!f)
		return s->count;
	return s->count > f->count ? s->count - f->count : 0;
}

/* @a less @b, or unknown where either is. */
static uint64_t since(uint64_t a, uint64_t b)
{
	if (a == PROFILE_UNKNOWN || b == PROFILE_UNKNOWN)
		return PROFILE_UNKNOWN;
	return a > b ? a - b : 0;
}

void held_acct_since(struct profile_acct *a, const struct profile_acct *base)
{
	a->ticks = since(a->ticks, base->ticks);
	a->missed = since(a->missed, base->missed);
	a->kernel = since(a->kernel, base->kernel);
	a->outside = since(a->outside, base->outside);
	a->deferred = since(a->deferred, base->deferred);
	a->saturated = since(a->saturated, base->saturated);
	a->lost = since(a->lost, base->lost);
	a->lost_exec = since(a->lost_exec, base->lost_exec);
}

static int base_image(const struct profil_image *img, void *data)
{
	struct held_baseline *b = data;
	size_t n = b->nacct;

	if (!img->id) {
		errno = EPROTO;
		return -1;
	}
	if (grow(&b->acct, &n, sizeof(*b->acct), img->id - 1) < 0)
		return -1;
	b->nacct = n;
	acct_from_stats(&b->acct[img->id - 1], img->stats, img->nstats);
	return 0;
}

static int base_samples(const struct profil_sample *s, size_t n, void *data)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (held_baseline_add(data, &s[i]))
			return -1;
	return 0;
}

int held_baseline_take(struct held_reader *r, struct held_baseline *b)
{
	static const struct profil_profile_ops ops = {
		.image = base_image,
		.samples = base_samples,
	};
	int ret;

	held_baseline_free(b);
	errno = 0;
	ret = profil_profile_read(r->h, &ops, b);
	if (ret > 0) {
		/* A callback's: its errno. */
		if (!errno)
			errno = ENOMEM;
		ret = -1;
	}
	if (ret < 0) {
		held_baseline_free(b);
		return -1;
	}
	held_baseline_sort(b);
	return 0;
}

void held_baseline_free(struct held_baseline *b)
{
	free(b->v);
	free(b->acct);
	memset(b, 0, sizeof(*b));
}

void held_notes_print(const char *op, const struct held_notes *n)
{
	if (n->secure_exec)
		ctl_errorf(op, "note: %" PRIu64 " process%s not followed "
			   "past an exec that raised privileges (setuid, "
			   "setgid or file capabilities)%s%s", n->secure_exec, n->secure_exec == 1 ? "" : "es",
			   n->secure_comm[0] ? ", the first: " : "",
			   n->secure_comm);
	/* Machine-wide, images_lost counts samples, all in samples_lost. */
	if (n->samples_lost)
		ctl_errorf(op, "note: %" PRIu64 " sample%s reached no process "
			   "image (%" PRIu64 " for want of room for one; the "
			   "rest: the process exec'd or exited first, or its "
			   "CPU had too many queued)", n->samples_lost,
			   n->samples_lost == 1 ? "" : "s", n->images_lost);
	else if (n->images_lost)
		ctl_errorf(op, "note: %" PRIu64 " process%s not followed: "
			   "the profile had no room for %s", n->images_lost,
			   n->images_lost == 1 ? "" : "es",
			   n->images_lost == 1 ? "it" : "them");
	if (n->profile_full)
		ctl_errorf(op, "note: %" PRIu64 " samples lost: the profile "
			   "was full", n->profile_full);
	if (n->mmap_busy)
		ctl_errorf(op, "note: %" PRIu64 " samples lost: the process "
			   "was changing its mappings", n->mmap_busy);
	if (n->replaced)
		ctl_errorf(op, "note: %" PRIu64 " object%s replaced or deleted "
			   "since %s ran: shown without symbols", n->replaced,
			   n->replaced == 1 ? "" : "s",
			   n->replaced == 1 ? "it" : "they");
}

void held_reader_free(struct held_reader *r)
{
	objcache_free(&r->objects);
	if (r->vdso_file) {
		unlink(r->vdso_file);
		free(r->vdso_file);
		r->vdso_file = NULL;
	}
}
