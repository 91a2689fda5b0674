// SPDX-License-Identifier: GPL-2.0
/*
 * Every executable mapping of a process under profil (coverage.h).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "ctl.h"
#include "coverage.h"
#include "live.h"
#include "livebuf.h"
#include "procmaps.h"
#include "target.h"

/*
 * The catch-all: u32 counters at offset 0 and scale 2 (the overflow bin),
 * idx = pc / 4 * 2 / 65536 = pc >> 17, over the 47 bits of x86-64 user
 * space: 2^30 counters, 4 GiB of address space, of which only the pages
 * under code that ran before its region existed are ever written.
 */
#define CATCHALL_SHIFT	17
#define CATCHALL_NBINS	(1ULL << 30)
#define CATCHALL_SCALE	2
/* The counters of the regions; a process mapping more text than 1/4 of
 * this (at 4 bytes per bin) has its last objects counted by the catch-all.
 */
#define RESERVE_BYTES	(1ULL << 30)

static uint64_t page_size(void)
{
	return (uint64_t)sysconf(_SC_PAGESIZE);
}

static uint64_t catchall_addr(const struct coverage *c)
{
	return c->map_addr + page_size();
}

/* A region's scale for u32 counters of @bin_bytes: idx = (pc - off) / bin. */
static uint32_t region_scale(uint64_t bin_bytes)
{
	return (uint32_t)(4 * 65536 / bin_bytes);
}

static bool is_exec_mapping(const struct procmaps_entry *e)
{
	return e->perms[2] == 'x' && strcmp(e->path, "[vsyscall]");
}

/* Copy the vDSO out of @pid once, so that its symbols can be read. */
static const char *vdso_file(struct coverage_ctx *x, pid_t pid,
			     const struct procmaps_entry *e)
{
	char tmpl[] = "/tmp/profil-ctl-vdso.XXXXXX";
	size_t len = e->end - e->start;
	void *img;
	int fd;

	if (x->vdso_file)
		return x->vdso_file;
	img = malloc(len);
	if (!img)
		return NULL;
	fd = -1;
	if (!target_read(pid, e->start, img, len)) {
		fd = mkstemp(tmpl);
		if (fd >= 0 && write(fd, img, len) == (ssize_t)len)
			x->vdso_file = strdup(tmpl);
		else if (fd >= 0)
			unlink(tmpl);
	}
	if (fd >= 0)
		close(fd);
	free(img);
	return x->vdso_file;
}

/*
 * Which object @e is, and its bias. A file that cannot be read (deleted,
 * another mount namespace) or anonymous code is counted at runtime
 * addresses, under its name from the maps.
 */
static int map_object(struct coverage_ctx *x, pid_t pid,
		      const struct procmaps_entry *e, struct coverage_map *m)
{
	const struct objinfo *o = NULL;
	const char *path = e->path, *file = e->path;
	ssize_t idx;

	m->bias = e->start - e->offset;
	if (!strcmp(path, "[vdso]")) {
		file = vdso_file(x, pid, e);
	} else if (!*path || path[0] == '[') {
		path = *path ? path : "[anon]";
		file = NULL;
		m->bias = 0;
	}
	if (file) {
		o = objcache_get(&x->objects, e, file);
		if (!o)
			return -1;
		if (o->elf)
			objinfo_bias(o, e, &m->bias);
	}
	idx = profile_object_add(x->profile, path, o ? o->build_id : NULL);
	if (idx < 0)
		return -1;
	if (file && file != e->path && !x->profile->objects[idx].symfile) {
		x->profile->objects[idx].symfile = strdup(file);
		if (!x->profile->objects[idx].symfile)
			return -1;
	}
	m->object = (size_t)idx;
	return 0;
}

static bool seen(const struct coverage *c, const struct procmaps_entry *e)
{
	size_t i;

	for (i = 0; i < c->nmaps; i++)
		if (c->maps[i].start == e->start && c->maps[i].end == e->end)
			return true;
	return false;
}

/*
 * Read @c's mappings and give each new executable one a region in @set
 * (counters from the reserve while it lasts).
 */
static int coverage_scan(struct coverage_ctx *x, struct coverage *c,
			 pid_t io, struct profil_regions *set)
{
	struct procmaps_entry *v;
	struct coverage_map *m;
	uint64_t bytes;
	size_t n, i;
	int ret = 0;

	if (procmaps_load(io, &v, &n) < 0)
		return -1;
	for (i = 0; i < n && !ret; i++) {
		if (!is_exec_mapping(&v[i]) || seen(c, &v[i]))
			continue;
		m = realloc(c->maps, (c->nmaps + 1) * sizeof(*m));
		if (!m) {
			ret = -1;
			break;
		}
		c->maps = m;
		m = &c->maps[c->nmaps];
		memset(m, 0, sizeof(*m));
		m->start = v[i].start;
		m->end = v[i].end;
		if (map_object(x, io, &v[i], m) < 0) {
			ret = -1;
			break;
		}
		c->nmaps++;
		m->nbins = (m->end - m->start + x->bin_bytes - 1) / x->bin_bytes;
		bytes = m->nbins * sizeof(uint32_t);
		if (bytes > c->end - c->next)
			continue;	/* the catch-all counts it */
		m->buf = c->next;
		c->next += (bytes + 7) & ~7ULL;
		if (profil_regions_add(set, m->buf, bytes, m->start,
				       region_scale(x->bin_bytes)) < 0)
			ret = -1;
	}
	free(v);
	return ret;
}

static int process_add(struct coverage_ctx *x, struct coverage *c,
		       pid_t ppid)
{
	char path[64], comm[32] = "", exe[4096];
	ssize_t len, idx;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/comm", (int)c->pid);
	f = fopen(path, "re");
	if (f) {
		if (fgets(comm, sizeof(comm), f))
			comm[strcspn(comm, "\n")] = '\0';
		fclose(f);
	}
	snprintf(path, sizeof(path), "/proc/%d/exe", (int)c->pid);
	len = readlink(path, exe, sizeof(exe) - 1);
	exe[len > 0 ? len : 0] = '\0';
	idx = profile_process_add(x->profile, c->pid, ppid, comm,
				  len > 0 ? exe : NULL);
	if (idx < 0)
		return -1;
	c->process = (size_t)idx;
	return 0;
}

int coverage_start(struct coverage_ctx *x, struct coverage *c, pid_t pid,
		   pid_t tid, pid_t ppid, bool excl, struct inject_result *res)
{
	uint64_t page = page_size(), args[6];
	struct profil_regions *set = NULL;
	struct livebuf_marker mk;
	long ret;
	int err;

	memset(c, 0, sizeof(*c));
	c->pid = pid;
	c->map_len = page + CATCHALL_NBINS * sizeof(uint32_t) + RESERVE_BYTES;
	args[0] = 0;
	args[1] = c->map_len;
	args[2] = PROT_READ | PROT_WRITE;
	args[3] = MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE;
	args[4] = (uint64_t)-1;
	args[5] = 0;
	err = inject_syscall(tid, SYS_mmap, args, &ret, res);
	if (!err && ret < 0 && ret > -4096)
		err = (int)ret;
	if (err) {
		ctl_errorf(x->op, "process %d: mmap() of %llu bytes in it: %s",
			   (int)pid, (unsigned long long)c->map_len,
			   inject_strerror(err));
		return err;
	}
	c->map_addr = (uint64_t)ret;
	/* A fork child gets a mapping and a session of its own. */
	args[0] = c->map_addr;
	args[2] = MADV_DONTFORK;
	err = inject_syscall(tid, SYS_madvise, args, &ret, res);
	if (!err && ret)
		err = (int)ret;
	if (err)
		goto err_unmap;
	livebuf_marker_init(&mk, c->map_len, c->map_len - page, 0);
	err = target_write(tid, c->map_addr, &mk, sizeof(mk));
	if (err)
		goto err_unmap;
	c->next = catchall_addr(c) + CATCHALL_NBINS * sizeof(uint32_t);
	c->end = c->map_addr + c->map_len;

	err = -ENOMEM;
	set = profil_regions_alloc();
	if (!set || process_add(x, c, ppid) < 0 ||
	    profil_regions_set_counter(set, PROFIL_COUNTER_U32) < 0 ||
	    profil_regions_set_mode(set, PROFIL_MODE_SATURATE) < 0 ||
	    profil_regions_add(set, catchall_addr(c),
			       CATCHALL_NBINS * sizeof(uint32_t), 0,
			       CATCHALL_SCALE) < 0)
		goto err_unmap;
	if (coverage_scan(x, c, tid, set) < 0) {
		err = errno ? -errno : -EIO;
		ctl_errorf(x->op, "process %d: its mappings: %s", (int)pid,
			   strerror(-err));
		goto err_unmap;
	}
	if (profil_session_start_regions(x->h, pid, set, x->rate,
					 x->flags | PROFIL_F_NO_INHERIT |
					 (excl ? PROFIL_START_EXCL : 0)) < 0) {
		err = -errno;
		if (err == -EEXIST)
			live_refuse_active(x->op, pid);
		else
			ctl_perror_lib(x->op);
		goto err_unmap;
	}
	profil_regions_free(set);
	c->nstart = c->nmaps;
	c->active = true;
	return 0;

err_unmap:
	profil_regions_free(set);
	if (!res->exiting && !res->exited)
		inject_munmap(tid, c->map_addr, c->map_len, res);
	coverage_free(c);
	return err;
}

int coverage_update(struct coverage_ctx *x, struct coverage *c)
{
	struct profil_regions *set;
	int ret = 0;

	if (!c->active)
		return 0;
	set = profil_regions_alloc();
	if (!set)
		return -1;
	if (coverage_scan(x, c, c->pid, set) < 0) {
		/* Gone, or going: what it mapped last is the catch-all's. */
		if (errno != ESRCH && errno != ENOENT) {
			ctl_errorf(x->op, "process %d: its mappings: %s",
				   (int)c->pid, strerror(errno));
			ret = -1;
		}
	} else if (profil_regions_count(set) &&
		   profil_session_add_regions(x->h, c->pid, set) < 0 &&
		   errno != ESRCH && errno != ENOENT) {
		ctl_perror_lib(x->op);
		ret = -1;
	}
	profil_regions_free(set);
	return ret;
}

/* The kernel's stats as the profile's accounting; outside is the caller's. */
static void acct_from_stats(struct profile_acct *a, const uint64_t *st)
{
	memset(a, 0, sizeof(*a));
	a->ticks = st[PROFIL_STAT_TICKS];
	a->missed = st[PROFIL_STAT_MISSED];
	a->kernel = st[PROFIL_STAT_SYSTEM_DROPPED];
	a->deferred = st[PROFIL_STAT_DEFERRED];
	a->saturated = st[PROFIL_STAT_SATURATED];
	a->lost = st[PROFIL_STAT_PENDING] + st[PROFIL_STAT_DISCARDED] +
		  st[PROFIL_STAT_FAULTED];
}

/*
 * Counters of mapping @m into its object's histogram in @p's count of
 * @process; their sum in *@sum.
 */
static int read_region(struct coverage_ctx *x, struct profile *p,
		       size_t process, pid_t io, const struct coverage_map *m,
		       uint64_t *sum)
{
	struct profile_count *pc;
	uint64_t *bins, low;
	uint32_t *raw;
	size_t i;
	int err, ret = -1;

	raw = malloc(m->nbins * sizeof(*raw));
	bins = malloc(m->nbins * sizeof(*bins));
	if (!raw || !bins)
		goto out;
	err = target_read(io, m->buf, raw, m->nbins * sizeof(*raw));
	if (err) {
		errno = -err;
		goto out;
	}
	for (i = 0; i < m->nbins; i++) {
		bins[i] = raw[i];
		*sum += raw[i];
	}
	low = m->start - m->bias;
	pc = profile_count_get(p, process, m->object);
	if (pc)
		ret = hist_add_range(&pc->hist, low,
				     low + m->nbins * x->bin_bytes, bins,
				     m->nbins);
out:
	free(raw);
	free(bins);
	return ret;
}

/*
 * The catch-all's counters under the mappings, into @p's counts of
 * @process: each counter goes whole to the mapping that overlaps most of
 * its 128 KiB.
 */
static int read_catchall(const struct coverage *c, struct profile *p,
			 size_t process, pid_t io, uint64_t *sum)
{
	const uint64_t span = 1ULL << CATCHALL_SHIFT;
	struct profile_count *pc;
	uint64_t bin, lo, hi, ov, best_ov;
	size_t i, j, best;
	uint32_t v;

	for (i = 0; i < c->nmaps; i++) {
		for (bin = c->maps[i].start >> CATCHALL_SHIFT;
		     bin <= (c->maps[i].end - 1) >> CATCHALL_SHIFT; bin++) {
			best = c->nmaps;
			best_ov = 0;
			for (j = 0; j < c->nmaps; j++) {
				lo = c->maps[j].start > bin * span ?
				     c->maps[j].start : bin * span;
				hi = c->maps[j].end < (bin + 1) * span ?
				     c->maps[j].end : (bin + 1) * span;
				ov = hi > lo ? hi - lo : 0;
				if (ov > best_ov) {
					best_ov = ov;
					best = j;
				}
			}
			if (best != i || bin >= CATCHALL_NBINS)
				continue;	/* another mapping's */
			if (target_read(io, catchall_addr(c) +
					bin * sizeof(v), &v, sizeof(v)) || !v)
				continue;
			pc = profile_count_get(p, process, c->maps[i].object);
			if (!pc)
				return -1;
			pc->uncovered += v;
			*sum += v;
		}
	}
	return 0;
}

int coverage_finish(struct coverage_ctx *x, struct coverage *c, pid_t tid)
{
	struct profil_regions *set;
	uint64_t st[PROFIL_STAT_MAX + 1], sum = 0, seen_oor;
	struct profile_acct *a;
	size_t i;

	if (!c->active)
		return 0;
	/* The last look, through the thread at hand (the leader may be a
	 * zombie, its maps and memory gone with its mm).
	 */
	set = profil_regions_alloc();
	if (set && !coverage_scan(x, c, tid, set) && profil_regions_count(set))
		profil_session_add_regions(x->h, c->pid, set);
	profil_regions_free(set);
	c->active = false;
	if (profil_session_stop(x->h, c->pid) < 0 ||
	    profil_session_get_stats(x->h, c->pid, st, PROFIL_STAT_MAX + 1) < 0) {
		ctl_perror_lib(x->op);
		return -1;
	}
	for (i = 0; i < c->nmaps; i++) {
		if (c->maps[i].buf &&
		    read_region(x, x->profile, c->process, tid, &c->maps[i],
				&sum) < 0) {
			ctl_errorf(x->op, "process %d: reading its counters: %s",
				   (int)c->pid, strerror(errno));
			return -1;
		}
	}
	if (read_catchall(c, x->profile, c->process, tid, &sum) < 0) {
		ctl_perror(x->op);
		return -1;
	}
	a = &x->profile->processes[c->process].acct;
	acct_from_stats(a, st);
	/* In range but under no mapping seen (the catch-all's rest). */
	seen_oor = st[PROFIL_STAT_OUT_OF_RANGE];
	a->outside = seen_oor + (st[PROFIL_STAT_IN_RANGE] > sum ?
				 st[PROFIL_STAT_IN_RANGE] - sum : 0);
	profile_acct_add(&x->profile->acct, a);
	return 0;
}

int coverage_snapshot(struct coverage_ctx *x, const struct coverage *c,
		      pid_t io, struct profile *out, size_t process)
{
	uint64_t sum = 0;
	size_t i;

	if (!c->active)
		return 0;
	for (i = 0; i < c->nmaps; i++)
		if (c->maps[i].buf &&
		    read_region(x, out, process, io, &c->maps[i], &sum) < 0)
			return -1;
	return read_catchall(c, out, process, io, &sum);
}

void coverage_lost_at_exec(struct coverage_ctx *x, struct coverage *c)
{
	uint64_t st[PROFIL_STAT_MAX + 1];
	struct profile_acct *a;

	if (!c->active)
		return;
	c->active = false;
	if (profil_session_get_stats(x->h, c->pid, st, PROFIL_STAT_MAX + 1) < 0)
		return;
	a = &x->profile->processes[c->process].acct;
	acct_from_stats(a, st);
	a->outside = st[PROFIL_STAT_OUT_OF_RANGE];
	a->lost_exec = st[PROFIL_STAT_IN_RANGE];
	profile_acct_add(&x->profile->acct, a);
}

void coverage_free(struct coverage *c)
{
	free(c->maps);
	c->maps = NULL;
	c->nmaps = 0;
	c->active = false;
}

void coverage_ctx_free(struct coverage_ctx *x)
{
	objcache_free(&x->objects);
	if (x->vdso_file) {
		unlink(x->vdso_file);
		free(x->vdso_file);
		x->vdso_file = NULL;
	}
}
