// SPDX-License-Identifier: GPL-2.0
/*
 * The machine-wide profile's bounds, and what machine_test leaves out
 * (Documentation/kmod/machine.rst):
 *
 * - the image bound (PROFIL_ATTR_IMAGES_MAX): no more images than that;
 *   the processes the COLLECT found, and the forks and execs, it had no
 *   room for are not followed, and PROFIL_PROFILE_IMAGES_LOST counts
 *   each one;
 * - the sample bound (PROFIL_ATTR_SAMPLES_MAX): no more entries than
 *   that, the ticks at new offsets counted as PROFIL_STAT_PROFILE_FULL;
 * - PROFIL_PROFILE_BYTES: the tables, sized by the bounds at the COLLECT,
 *   the same at every read however many processes came and went;
 * - a library dlopen()ed after the COLLECT: an object of its own, its
 *   samples at the offsets of the function that ran;
 * - the cgroup scope while a process moves in and out of the cgroup:
 *   only the ticks it takes inside count, on either clock.
 *
 * The test re-executes itself as a workload: MBOUNDS_WORKER in the
 * environment selects what it does (mbounds_worker()).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <limits.h>
#include <link.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "profil_harness.h"
#include "profil_nl.h"
#include "profil_util.h"
#include "profil_held.h"
#include "profil_machine.h"

/* The library next to this program (machine_dso.c), and its loops. */
#define DSO_NAME	"machine_dso.so"
#define DSO_A		0
#define DSO_B		1
/* Iterations of a loop per call: a few ms of a TCG guest's CPU. */
#define DSO_LOOP	(1UL << 18)

/* Processes held alive across a COLLECT (holders_start()). */
#define NR_HOLDERS	4
/* Images left free past the machine's processes (images_bound_forks). */
#define ROOM		4

typedef unsigned long (*dso_fn)(unsigned long);

/* The library, loaded: its functions, their file offsets and sizes. */
struct dso {
	char path[PATH_MAX];
	dso_fn fn[2];
	uint64_t off[2], size[2];
};

/*
 * The workloads, run before the harness when MBOUNDS_WORKER is set:
 *   exit: exits at once (an exec and an exit, nothing else).
 */
static void __attribute__((constructor)) mbounds_worker(void)
{
	const char *what = getenv("MBOUNDS_WORKER");

	if (what)
		_exit(strcmp(what, "exit") ? 2 : 0);
}

/* A machine-wide COLLECT with bounds (0: the default). */
static int collect_bounded(struct pnl *nl, uint32_t images_max,
			   uint32_t samples_max)
{
	struct collect_req q = {
		.scope = PROFIL_SCOPE_MACHINE, .fd = NO_FD,
		.images_max = images_max, .samples_max = samples_max,
	};

	return collect_req(nl, &q);
}

/* The parent of process @pid, 0 for init (or if it is gone). */
static pid_t ppid_of(pid_t pid)
{
	char path[64], buf[512], *p;
	int ppid = 0;
	size_t n;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	f = fopen(path, "r");
	if (!f)
		return 0;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	/* After the command name, which may hold anything but ends at ')'. */
	p = strrchr(buf, ')');
	if (!p || sscanf(p + 1, " %*c %d", &ppid) != 1)
		return 0;
	return ppid;
}

/* Processes from @pid up to init, both included: alive while we are. */
static unsigned int ancestors(pid_t pid)
{
	unsigned int n = 0;

	for (; pid > 0 && n < 64; pid = ppid_of(pid))
		n++;
	return n;
}

/* Processes that wait, killed with their parent, until their pipe closes. */
struct holders {
	pid_t pid[NR_HOLDERS];
	int ctl;
};

/* Once each holder has run: a fork's session, if any, is attached. */
static int holders_start(struct holders *h)
{
	int fds[2], ready[2], i, ok = 0;
	char c;

	if (pipe(fds))
		return -1;
	if (pipe(ready)) {
		close(fds[0]);
		close(fds[1]);
		return -1;
	}
	for (i = 0; i < NR_HOLDERS; i++) {
		h->pid[i] = fork();
		if (h->pid[i] == 0) {
			close(fds[1]);
			close(ready[0]);
			prctl(PR_SET_PDEATHSIG, SIGKILL);
			if (write(ready[1], "r", 1) != 1)
				_exit(1);
			while (read(fds[0], &c, 1) < 0 && errno == EINTR)
				;
			_exit(0);
		}
	}
	close(fds[0]);
	close(ready[1]);
	h->ctl = fds[1];
	for (i = 0; i < NR_HOLDERS; i++)
		ok += h->pid[i] > 0 && read(ready[0], &c, 1) == 1;
	close(ready[0]);
	return ok == NR_HOLDERS ? 0 : -1;
}

static void holders_stop(struct holders *h)
{
	int i;

	close(h->ctl);
	for (i = 0; i < NR_HOLDERS; i++)
		if (h->pid[i] > 0)
			waitpid(h->pid[i], NULL, 0);
}

/* Run this executable as the workload @what; returns its pid. */
static pid_t spawn_self(const char *what)
{
	return held_spawn_self("MBOUNDS_WORKER", what);
}

/* Spawn the worker "exit" and wait for it; its pid, or -1. */
static pid_t spawn_exit(void)
{
	pid_t pid = spawn_self("exit");
	int st;

	if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st) ||
	    WEXITSTATUS(st))
		return -1;
	return pid;
}

/* Whether @img has its id in the profile's range, 1 to @max. */
static bool id_within(const struct held_image *img, uint32_t max)
{
	return img->id >= 1 && img->id <= max;
}

/*
 * The processes a COLLECT finds but has no room for are not followed,
 * and images_lost counts each of them: with room for two images, every
 * process but two (its ancestors and the holders are alive throughout).
 */
TEST(images_bound_collect)
{
	struct held_profile *p = malloc(sizeof(*p));
	struct pnl nl, other;
	struct pnl_status st;
	struct holders h;
	unsigned int alive, i;

	ASSERT_NE(NULL, p);
	ASSERT_EQ(0, holders_start(&h));
	alive = ancestors(getpid()) + NR_HOLDERS;
	ASSERT_EQ(0, pnl_open(&nl));
	ASSERT_EQ(0, pnl_open(&other));
	ASSERT_EQ(0, collect_bounded(&nl, 2, 0)) TH_LOG("%s", nl.extack);
	ASSERT_EQ(0, held_read(&nl, p)) TH_LOG("%s", nl.extack);
	ASSERT_EQ(0, p->lost);
	EXPECT_EQ(2, p->nr_images);
	EXPECT_EQ(2, p->stats[PROFIL_PROFILE_IMAGES]);
	for (i = 0; i < p->nr_images; i++)
		EXPECT_TRUE(id_within(&p->images[i], 2));
	/* Each one, not the first alone. */
	EXPECT_LE(alive - 2, p->stats[PROFIL_PROFILE_IMAGES_LOST])
		TH_LOG("%u processes alive throughout, room for 2", alive);
	/* The newest processes come last in the process list: not followed. */
	for (i = 0; i < NR_HOLDERS; i++) {
		EXPECT_EQ(NULL, image_of(p, h.pid[i], ANY_PARENT));
		EXPECT_EQ(-ENOENT, pnl_get_kind(&other, h.pid[i],
						PROFIL_KIND_MACHINE, &st));
	}
	EXPECT_EQ(NULL, image_of(p, getpid(), ANY_PARENT));
	pnl_close(&nl);
	pnl_close(&other);
	holders_stop(&h);
	free(p);
}

/*
 * Room for ROOM images past the machine's processes, then more forks and
 * execs than that: the profile fills, keeps what it has, and counts each
 * fork and exec it has no room for; the tables do not grow.
 */
TEST(images_bound_forks)
{
	struct held_profile *p = malloc(sizeof(*p));
	const struct held_image *self, *forked, *exec;
	uint32_t max, self_id, room, lost = 0;
	pid_t pids[2 * ROOM + 8];
	uint64_t bytes, lost0;
	unsigned int i, n;
	struct holders h;
	struct pnl_status st;
	struct pnl nl, other;
	bool full = false;

	ASSERT_NE(NULL, p);
	ASSERT_EQ(0, pnl_open(&other));
	/* How many processes there are: a profile with the default bound. */
	ASSERT_EQ(0, pnl_open(&nl));
	ASSERT_EQ(0, collect_bounded(&nl, 0, 0)) TH_LOG("%s", nl.extack);
	ASSERT_EQ(0, held_read(&nl, p));
	pnl_close(&nl);
	max = p->nr_images + ROOM;

	ASSERT_EQ(0, pnl_open(&nl));
	ASSERT_EQ(0, collect_bounded(&nl, max, 0)) TH_LOG("%s", nl.extack);
	ASSERT_EQ(0, held_read(&nl, p));
	ASSERT_EQ(0, p->lost);
	self = image_of(p, getpid(), ANY_PARENT);
	ASSERT_NE(NULL, self) TH_LOG("%u images of %u: a new process took ours",
				     p->nr_images, max);
	self_id = self->id;
	ASSERT_GE(max, p->nr_images);
	room = max - p->nr_images;
	bytes = p->stats[PROFIL_PROFILE_BYTES];
	lost0 = p->stats[PROFIL_PROFILE_IMAGES_LOST];
	EXPECT_LT(0, bytes);

	/* Each a fork (vfork) and an exec: two images, while there is room. */
	n = room + 3;
	ASSERT_GE(sizeof(pids) / sizeof(pids[0]), n) TH_LOG("room %u", room);
	for (i = 0; i < n; i++) {
		pids[i] = spawn_exit();
		ASSERT_LT(0, pids[i]);
	}
	/* A process forked once the profile is full is not followed. */
	ASSERT_EQ(0, holders_start(&h));
	for (i = 0; i < NR_HOLDERS; i++)
		EXPECT_EQ(-ENOENT, pnl_get_kind(&other, h.pid[i],
						PROFIL_KIND_MACHINE, &st));
	ASSERT_EQ(0, pnl_get_kind(&other, getpid(), PROFIL_KIND_MACHINE, &st));
	EXPECT_EQ(PROFIL_STATE_ACTIVE, st.state);

	ASSERT_EQ(0, held_read(&nl, p));
	ASSERT_EQ(0, p->lost);
	EXPECT_EQ(max, p->nr_images);
	EXPECT_EQ(max, p->stats[PROFIL_PROFILE_IMAGES]);
	for (i = 0; i < p->nr_images; i++)
		EXPECT_TRUE(id_within(&p->images[i], max));
	/* Allocated whole by the COLLECT: not a byte more. */
	EXPECT_EQ(bytes, p->stats[PROFIL_PROFILE_BYTES]);
	/* In order: each spawn followed as far as there was room, then none. */
	for (i = 0; i < n; i++) {
		forked = image_of(p, pids[i], self_id);
		exec = forked ? image_of(p, pids[i], forked->id) : NULL;
		if (full)
			EXPECT_EQ(NULL, forked) TH_LOG("spawn %u followed", i);
		if (forked && exec) {
			EXPECT_EQ(PROFIL_STOP_EXEC, forked->reason);
			EXPECT_EQ(PROFIL_STOP_EXIT, exec->reason);
			continue;
		}
		/* The fork's image ended at its exec all the same. */
		if (forked)
			EXPECT_EQ(PROFIL_STOP_EXEC, forked->reason);
		full = true;
		lost++;
	}
	EXPECT_TRUE(full);
	for (i = 0; i < NR_HOLDERS; i++)
		EXPECT_EQ(NULL, image_of(p, h.pid[i], ANY_PARENT));
	/* Others may have forked too: at least ours. */
	EXPECT_LE(lost0 + lost + NR_HOLDERS,
		  p->stats[PROFIL_PROFILE_IMAGES_LOST])
		TH_LOG("room for %u, %u spawns", room, n);
	holders_stop(&h);
	pnl_close(&nl);
	pnl_close(&other);
	free(p);
}

/* PROFIL_PROFILE_BYTES of a machine profile of @images_max images. */
static uint64_t bytes_of(struct held_profile *p, uint32_t images_max)
{
	struct pnl nl;
	uint64_t bytes = 0;

	if (pnl_open(&nl))
		return 0;
	if (!collect_bounded(&nl, images_max, 0) && !held_read(&nl, p))
		bytes = p->stats[PROFIL_PROFILE_BYTES];
	pnl_close(&nl);
	return bytes;
}

/*
 * The tables are sized by the bounds asked for: each image an entry of
 * the same size, whatever the bound, and nothing that grows later.
 */
TEST(bytes_follow_the_bound)
{
	struct held_profile *p = malloc(sizeof(*p));
	uint64_t b8, b16, b24, bdef;

	ASSERT_NE(NULL, p);
	b8 = bytes_of(p, 8);
	b16 = bytes_of(p, 16);
	b24 = bytes_of(p, 24);
	bdef = bytes_of(p, PROFIL_IMAGES_DEFAULT);
	ASSERT_LT(0, b8);
	EXPECT_LT(b8, b16);
	EXPECT_EQ(b16 - b8, b24 - b16);
	EXPECT_EQ((bdef - b8) * 8, (b16 - b8) * (PROFIL_IMAGES_DEFAULT - 8))
		TH_LOG("8 images: %llu bytes, 16: %llu, %u: %llu",
		       (unsigned long long)b8, (unsigned long long)b16,
		       PROFIL_IMAGES_DEFAULT, (unsigned long long)bdef);
	free(p);
}

/*
 * Room for one sample entry: two spinners, of which one at most has
 * samples, and the other's ticks (or both's) counted as PROFILE_FULL.
 */
TEST(samples_bound)
{
	struct held_profile *p = malloc(sizeof(*p));
	const struct held_image *img[2];
	unsigned int i, with_samples = 0;
	uint64_t full = 0;
	struct pnl nl;
	pid_t pid[2];
	int st;

	ASSERT_NE(NULL, p);
	ASSERT_EQ(0, pnl_open(&nl));
	ASSERT_EQ(0, collect_bounded(&nl, 0, 1)) TH_LOG("%s", nl.extack);
	for (i = 0; i < 2; i++) {
		pid[i] = fork();
		ASSERT_LE(0, pid[i]);
		if (pid[i] == 0) {
			held_spin(0.5);
			_exit(0);
		}
	}
	for (i = 0; i < 2; i++) {
		ASSERT_EQ(pid[i], waitpid(pid[i], &st, 0));
		EXPECT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	}
	ASSERT_EQ(0, held_read(&nl, p)) TH_LOG("%s", nl.extack);
	ASSERT_EQ(0, p->lost);
	EXPECT_GE(1, p->nr_samples);
	EXPECT_GE(1, p->stats[PROFIL_PROFILE_SAMPLES]);
	for (i = 0; i < p->nr_images; i++) {
		const uint64_t *s = p->images[i].stats;

		/* A subset of DISCARDED. */
		EXPECT_LE(s[PROFIL_STAT_PROFILE_FULL], s[PROFIL_STAT_DISCARDED]);
		with_samples += s[PROFIL_STAT_IN_RANGE] > 0;
	}
	EXPECT_GE(1, with_samples);
	for (i = 0; i < 2; i++) {
		const uint64_t *s;

		img[i] = image_of(p, pid[i], ANY_PARENT);
		ASSERT_NE(NULL, img[i]);
		s = img[i]->stats;
		/* 0.5 s at 100 Hz: half of the 50 periods, sampled or missed. */
		EXPECT_LE(25, periods(img[i]));
		EXPECT_TRUE(image_adds_up(p, img[i]));
		/* Their ticks in mapped code: added, or dropped for want of room. */
		EXPECT_LE(user_ticks(s) / 2, s[PROFIL_STAT_IN_RANGE] +
						     s[PROFIL_STAT_PROFILE_FULL]);
		full += s[PROFIL_STAT_PROFILE_FULL];
	}
	EXPECT_LT(0, full);
	pnl_close(&nl);
	free(p);
}

/* The library next to this program. */
static int dso_path(char *path, size_t size)
{
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	if (n < 0)
		return -1;
	exe[n] = '\0';
	if (!strrchr(exe, '/'))
		return -1;
	*strrchr(exe, '/') = '\0';
	return snprintf(path, size, "%s/" DSO_NAME, exe) < (int)size ? 0 : -1;
}

/* The file offset and size of the function at @fn, from its mapping. */
static int fn_range(void *fn, uint64_t *off, uint64_t *size)
{
	unsigned long start, end, pgoff;
	const ElfW(Sym) *sym = NULL;
	uintptr_t a = (uintptr_t)fn;
	char line[512];
	Dl_info info;
	int ret = -1;
	FILE *f;

	if (!dladdr1(fn, &info, (void **)&sym, RTLD_DL_SYMENT) || !sym ||
	    !sym->st_size)
		return -1;
	*size = sym->st_size;
	f = fopen("/proc/self/maps", "r");
	if (!f)
		return -1;
	while (ret && fgets(line, sizeof(line), f))
		if (sscanf(line, "%lx-%lx %*s %lx", &start, &end, &pgoff) == 3 &&
		    a >= start && a < end) {
			*off = a - start + pgoff;
			ret = 0;
		}
	fclose(f);
	return ret;
}

/* dlopen() the library into this process; 0 or -1. */
static int dso_load(struct dso *d)
{
	static const char *const names[] = { "machine_dso_a", "machine_dso_b" };
	void *h;
	int i;

	if (dso_path(d->path, sizeof(d->path)))
		return -1;
	h = dlopen(d->path, RTLD_NOW);
	if (!h)
		return -1;
	for (i = 0; i < 2; i++) {
		d->fn[i] = (dso_fn)dlsym(h, names[i]);
		if (!d->fn[i] || fn_range(d->fn[i], &d->off[i], &d->size[i]))
			return -1;
	}
	return 0;
}

/* Samples of @image in @object at offsets [@off, @off + @size). */
static uint64_t samples_at(const struct held_profile *p, uint32_t image,
			   uint32_t object, uint64_t off, uint64_t size)
{
	const struct profil_sample *s;
	uint64_t sum = 0;
	unsigned int i;

	for (i = 0; i < p->nr_samples; i++) {
		s = &p->samples[i];
		if (s->image == image && s->object == object &&
		    s->offset >= off && s->offset < off + size)
			sum += s->count;
	}
	return sum;
}

/* Samples of @image in the library's function @which. */
static uint64_t samples_in_fn(const struct held_profile *p, uint32_t image,
			      const struct held_object *obj,
			      const struct dso *d, int which)
{
	return samples_at(p, image, obj->id, d->off[which], d->size[which]);
}

/*
 * A process the COLLECT found loads a library afterwards and spins in
 * it: the library is an object of the profile, by its device and inode
 * and with its path, and its samples are at the function's offsets.
 */
TEST(dlopen_after_collect)
{
	struct held_profile *p = malloc(sizeof(*p));
	const struct held_object *obj;
	const struct held_image *img;
	int go[2], res[2], st;
	struct dso d;
	struct pnl nl;
	pid_t pid;
	char c;

	ASSERT_NE(NULL, p);
	ASSERT_EQ(0, pipe(go));
	ASSERT_EQ(0, pipe(res));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		double end;

		close(go[1]);
		close(res[0]);
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (read(go[0], &c, 1) != 1 || dso_load(&d))
			_exit(2);
		if (write(res[1], &d, sizeof(d)) != sizeof(d))
			_exit(3);
		end = thread_cpu() + 1.0;
		while (thread_cpu() < end)
			d.fn[DSO_A](DSO_LOOP);
		_exit(0);
	}
	close(go[0]);
	close(res[1]);
	ASSERT_EQ(0, pnl_open(&nl));
	ASSERT_EQ(0, collect_bounded(&nl, 0, 0)) TH_LOG("%s", nl.extack);
	ASSERT_EQ(1, write(go[1], "g", 1));
	ASSERT_EQ(sizeof(d), read(res[0], &d, sizeof(d)))
		TH_LOG("the child could not load " DSO_NAME);
	ASSERT_EQ(pid, waitpid(pid, &st, 0));
	EXPECT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	close(go[1]);
	close(res[0]);

	ASSERT_EQ(0, held_read(&nl, p)) TH_LOG("%s", nl.extack);
	ASSERT_EQ(0, p->lost);
	obj = object_at(p, d.path);
	ASSERT_NE(NULL, obj) TH_LOG("no object for %s", d.path);
	EXPECT_EQ(PROFIL_OBJECT_FILE, obj->kind);
	ASSERT_NE(NULL, strrchr(obj->path, '/')) TH_LOG("%s", obj->path);
	EXPECT_STREQ("/" DSO_NAME, strrchr(obj->path, '/'));
	img = image_of(p, pid, ANY_PARENT);
	ASSERT_NE(NULL, img);
	/* Found by the COLLECT's pass, not by a fork. */
	EXPECT_EQ(0, img->parent);
	EXPECT_EQ(PROFIL_STOP_EXIT, img->reason);
	EXPECT_TRUE(image_adds_up(p, img));
	/* 1 s of CPU time: half of 100 periods, half the samples there. */
	EXPECT_TRUE(held_spun(p, img, obj, 50, 5))
		TH_LOG("%llu periods, %llu in range, %llu in " DSO_NAME,
		       (unsigned long long)periods(img),
		       (unsigned long long)img->stats[PROFIL_STAT_IN_RANGE],
		       (unsigned long long)samples_in(p, img->id, obj->id));
	/* And of those, nearly all in the function that spun. */
	EXPECT_LE(samples_in(p, img->id, obj->id) * 9,
		  samples_in_fn(p, img->id, obj, &d, DSO_A) * 10);
	EXPECT_EQ(0, samples_in_fn(p, img->id, obj, &d, DSO_B));
	pnl_close(&nl);
	free(p);
}

/*
 * The cgroup v2 directory of this process (under CGROOT), where the
 * mover goes back to; 0 or -1.
 */
static int own_cgroup(char *dir, size_t size)
{
	char line[512];
	int ret = -1;
	FILE *f;

	f = fopen("/proc/self/cgroup", "r");
	if (!f)
		return -1;
	while (ret && fgets(line, sizeof(line), f)) {
		if (strncmp(line, "0::", 3))
			continue;
		line[strcspn(line, "\n")] = '\0';
		/* "/" is the root: CGROOT itself. */
		if (!strcmp(line + 3, "/"))
			line[3] = '\0';
		if (snprintf(dir, size, CGROOT "%s", line + 3) < (int)size)
			ret = 0;
	}
	fclose(f);
	return ret;
}

/*
 * The moving process: machine_dso_b, or machine_dso_a from an "a" on its
 * pipe, each switch acknowledged, until EOF.
 */
static void __attribute__((noreturn))
mover(const struct dso *d, int ctl, int ack)
{
	dso_fn fn = d->fn[DSO_B];
	ssize_t n;
	char c;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	fcntl(ctl, F_SETFL, O_NONBLOCK);
	for (;;) {
		n = read(ctl, &c, 1);
		if (!n)
			_exit(0);
		if (n == 1) {
			fn = d->fn[c == 'a' ? DSO_A : DSO_B];
			if (write(ack, &c, 1) != 1)
				_exit(1);
		}
		fn(DSO_LOOP);
	}
}

/* A cgroup, and a process that spins outside it, then in, then out. */
FIXTURE(move) {
	char cg[64], home[256];
	struct dso dso;
	pid_t pid;
	int ctl, ack;
};

/* Either clock: the scheduler tick, the timer clock above HZ. */
FIXTURE_VARIANT(move) {
	uint32_t rate;
};

FIXTURE_VARIANT_ADD(move, tick) {
	.rate = 0,
};

FIXTURE_VARIANT_ADD(move, timer) {
	.rate = 1000,
};

FIXTURE_SETUP(move)
{
	self->pid = -1;
	self->ctl = self->ack = -1;
}

FIXTURE_TEARDOWN(move)
{
	if (self->ctl >= 0)
		close(self->ctl);
	if (self->ack >= 0)
		close(self->ack);
	if (self->pid > 0) {
		kill(self->pid, SIGKILL);
		waitpid(self->pid, NULL, 0);
	}
	if (self->cg[0])
		rmdir(self->cg);
}

/* Have the mover run machine_dso_a ('a') or _b ('b'); 0 once it does. */
static int mover_run(FIXTURE_DATA(move) *self, char which)
{
	char c;

	if (write(self->ctl, &which, 1) != 1 || read(self->ack, &c, 1) != 1)
		return -1;
	return c == which ? 0 : -1;
}

/* One read's view of the mover: its image, and its samples by function. */
struct mover_view {
	struct held_image img;
	uint64_t in_a, in_b;
};

static int mover_read(struct pnl *nl, struct held_profile *p,
		      FIXTURE_DATA(move) *self, struct mover_view *v)
{
	const struct held_image *img;
	const struct held_object *obj;

	if (held_read(nl, p) || p->lost)
		return -1;
	img = image_of(p, self->pid, ANY_PARENT);
	if (!img)
		return -1;
	v->img = *img;
	obj = object_at(p, self->dso.path);
	v->in_a = obj ? samples_in_fn(p, img->id, obj, &self->dso, DSO_A) : 0;
	v->in_b = obj ? samples_in_fn(p, img->id, obj, &self->dso, DSO_B) : 0;
	return 0;
}

/* The change of stat @i from view @a to @b. */
#define DELTA(a, b, i) ((b).img.stats[i] - (a).img.stats[i])

/*
 * A cgroup profile counts a process's ticks while it is in the cgroup
 * (Documentation/kmod/machine.rst, "Who is followed"): 1 s of CPU time
 * outside in machine_dso_b, 1 s inside in machine_dso_a, 1 s outside in
 * machine_dso_b again. The mover switches functions before it moves in
 * and after it moves out, so that machine_dso_b never runs inside: its
 * samples must be none, and nothing is added once it is out. Each
 * second is at least half of its periods, sampled or missed.
 */
TEST_F(move, counts_only_inside)
{
	struct held_profile *p = malloc(sizeof(*p));
	uint32_t rate = variant->rate ?: PROFIL_RATE_DEFAULT;
	struct collect_req q = {
		.scope = PROFIL_SCOPE_CGROUP, .rate = variant->rate,
	};
	struct mover_view v1, v2, v3;
	const uint64_t *s;
	int ctl[2], ack[2], fd, st;
	struct stat home;
	struct pnl nl;
	pid_t pid;

	ASSERT_NE(NULL, p);
	if (geteuid())
		SKIP(return, "creating a cgroup needs root");
	if (!cgroup2_mounted())
		SKIP(return, "no cgroup v2 at " CGROOT ", nor a mount of it");
	ASSERT_EQ(0, own_cgroup(self->home, sizeof(self->home)));
	ASSERT_EQ(0, stat(self->home, &home)) TH_LOG("%s", self->home);
	snprintf(self->cg, sizeof(self->cg), CGROOT "/profil_mbounds.%d",
		 getpid());
	ASSERT_EQ(0, mkdir(self->cg, 0755));
	ASSERT_EQ(0, dso_load(&self->dso)) TH_LOG("%s", dlerror());
	ASSERT_EQ(0, pipe(ctl));
	ASSERT_EQ(0, pipe(ack));
	self->pid = fork();
	ASSERT_LE(0, self->pid);
	if (self->pid == 0) {
		close(ctl[1]);
		close(ack[0]);
		mover(&self->dso, ctl[0], ack[1]);
	}
	pid = self->pid;
	close(ctl[0]);
	close(ack[1]);
	self->ctl = ctl[1];
	self->ack = ack[0];

	fd = open(self->cg, O_RDONLY | O_DIRECTORY);
	ASSERT_LE(0, fd);
	q.fd = fd;
	ASSERT_EQ(0, pnl_open(&nl));
	ASSERT_EQ(0, collect_req(&nl, &q)) TH_LOG("%s", nl.extack);
	close(fd);

	/* Outside: every tick out of range. */
	ASSERT_TRUE(wait_cpu(self->pid, 1.0));
	ASSERT_EQ(0, mover_read(&nl, p, self, &v1));
	s = v1.img.stats;
	EXPECT_EQ(home.st_ino, v1.img.cgroup);
	EXPECT_EQ(PROFIL_STOP_NONE, v1.img.reason);
	EXPECT_LE(rate / 2, periods(&v1.img));
	EXPECT_EQ(0, s[PROFIL_STAT_IN_RANGE]);
	EXPECT_EQ(0, v1.in_a + v1.in_b);
	EXPECT_LE(user_ticks(s) / 2, s[PROFIL_STAT_OUT_OF_RANGE]);

	/* In, in machine_dso_a; out, and on long enough to attribute all. */
	ASSERT_EQ(0, mover_run(self, 'a'));
	ASSERT_EQ(0, cgroup_move(self->cg, self->pid));
	ASSERT_TRUE(wait_cpu(self->pid, 1.0));
	ASSERT_EQ(0, cgroup_move(self->home, self->pid));
	ASSERT_TRUE(wait_cpu(self->pid, 0.1));
	ASSERT_EQ(0, mover_read(&nl, p, self, &v2));
	s = v2.img.stats;
	/* The second inside: its periods counted, or missed, or dropped. */
	EXPECT_LE(rate / 2, s[PROFIL_STAT_IN_RANGE] + s[PROFIL_STAT_PENDING] +
				    s[PROFIL_STAT_DISCARDED] +
				    DELTA(v1, v2, PROFIL_STAT_MISSED) +
				    DELTA(v1, v2, PROFIL_STAT_SYSTEM_DROPPED));
	EXPECT_LT(0, v2.in_a);
	EXPECT_LE(s[PROFIL_STAT_IN_RANGE] / 2, v2.in_a);
	EXPECT_EQ(0, v2.in_b);

	/* Out, in machine_dso_b: nothing more counts. */
	ASSERT_EQ(0, mover_run(self, 'b'));
	ASSERT_TRUE(wait_cpu(self->pid, 1.0));
	close(self->ctl);
	self->ctl = -1;
	ASSERT_EQ(pid, waitpid(pid, &st, 0));
	EXPECT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	ASSERT_EQ(0, mover_read(&nl, p, self, &v3)) TH_LOG("no image");
	self->pid = -1;
	s = v3.img.stats;
	EXPECT_EQ(PROFIL_STOP_EXIT, v3.img.reason);
	EXPECT_TRUE(image_adds_up(p, image_of(p, pid, ANY_PARENT)));
	EXPECT_EQ(v2.img.stats[PROFIL_STAT_IN_RANGE], s[PROFIL_STAT_IN_RANGE]);
	EXPECT_EQ(v2.in_a, v3.in_a);
	EXPECT_EQ(0, v3.in_b);
	EXPECT_LE(rate / 2, DELTA(v2, v3, PROFIL_STAT_OUT_OF_RANGE) +
				    DELTA(v2, v3, PROFIL_STAT_MISSED) +
				    DELTA(v2, v3, PROFIL_STAT_SYSTEM_DROPPED));
	pnl_close(&nl);
	free(p);
}

PROFIL_HARNESS_MAIN
