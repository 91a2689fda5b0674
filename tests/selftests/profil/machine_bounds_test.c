// SPDX-License-Identifier: GPL-2.0
/*
 * The machine-wide profile's bounds, and what machine_test leaves out
 * (Documentation/kmod/machine.rst). The tick samples the user task it
 * interrupts, with no session; a process's image is made at its first
 * sample, so one that is never sampled (asleep throughout) takes no room:
 *
 * - the image bound (PROFIL_ATTR_IMAGES_MAX): no more images than that,
 *   none for a process asleep throughout; each sample of a process that
 *   found no room for its image counts in PROFIL_PROFILE_IMAGES_LOST
 *   (per sample, not per process) and in PROFIL_PROFILE_SAMPLES_LOST;
 * - the sample bound (PROFIL_ATTR_SAMPLES_MAX): no more entries than
 *   that, the samples at new offsets counted as PROFIL_STAT_PROFILE_FULL;
 * - PROFIL_PROFILE_BYTES: the tables, sized by the bounds at the COLLECT,
 *   the same at every read however many processes came and went;
 * - a library dlopen()ed after the COLLECT: an object of its own, its
 *   samples at the offsets of the function that ran; the image of the
 *   process that loaded it has its parent process's image as parent;
 * - the cgroup scope while a process moves in and out of the cgroup:
 *   only its ticks inside are sampled, its image made at the first of
 *   them and not growing while it is outside; a rate above HZ is
 *   refused, the tick being the only clock.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <limits.h>
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
#include "profil_machine_dso.h"

/* Processes held asleep across a COLLECT (holders_start()). */
#define NR_HOLDERS	4
/* Processes spinning at once into a profile with room for IMAGES. */
#define NR_SPINNERS	4
#define IMAGES		2
/*
 * Samples a process that spins 0.5 s of CPU time has at least, of its
 * 50 periods at 100 Hz: a tenth, for the periods the TCG guest's tick
 * skips (counted as missed in the sample after them).
 */
#define SPIN_SAMPLES	5

/* The extack text of kmod/netlink_collect.c. */
#define TICK_ONLY	"a machine-wide profile rides the scheduler tick"

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

/* Processes that sleep, killed with their parent, until their pipe closes. */
struct holders {
	pid_t pid[NR_HOLDERS];
	int ctl;
};

/* Once each holder sleeps in its read(): it runs no user code after. */
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
	for (i = 0; i < NR_HOLDERS && ok == NR_HOLDERS; i++)
		while ((c = proc_state(h->pid[i])) && c != 'S')
			usleep(1000);
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

/* A process that spins @secs of its CPU time, then exits; its pid. */
static pid_t spinner(double secs)
{
	pid_t pid = fork();

	if (pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		held_spin(secs);
		_exit(0);
	}
	return pid;
}

/* Whether @img has its id in the profile's range, 1 to @max. */
static bool id_within(const struct held_image *img, uint32_t max)
{
	return img->id >= 1 && img->id <= max;
}

/*
 * Room for IMAGES images, NR_HOLDERS processes asleep throughout and
 * NR_SPINNERS spinning 0.5 s each: the profile fills with processes that
 * ran, none of the sleepers, and not a byte more. Each sample of a
 * spinner without an image counts as lost: images_lost grows per sample,
 * not per process, as a last spinner shows, alone, once the profile is
 * full; samples_lost counts them too. No process has a session.
 */
TEST(images_bound)
{
	struct held_profile *p = malloc(sizeof(*p));
	unsigned int i, with = 0, asleep_with = 0, imageless;
	const struct held_image *img;
	pid_t pid[NR_SPINNERS], last;
	uint64_t bytes, lost;
	struct pnl_status st;
	struct pnl nl, other;
	struct holders h;

	ASSERT_NE(NULL, p);
	ASSERT_EQ(0, holders_start(&h));
	ASSERT_EQ(0, pnl_open(&nl));
	ASSERT_EQ(0, pnl_open(&other));
	ASSERT_EQ(0, collect_bounded(&nl, IMAGES, 0)) TH_LOG("%s", nl.extack);
	ASSERT_EQ(0, held_read(&nl, p)) TH_LOG("%s", nl.extack);
	bytes = p->stats[PROFIL_PROFILE_BYTES];
	EXPECT_LT(0, bytes);
	EXPECT_GE(IMAGES, p->nr_images);

	for (i = 0; i < NR_SPINNERS; i++) {
		pid[i] = spinner(0.5);
		ASSERT_LT(0, pid[i]);
	}
	for (i = 0; i < NR_SPINNERS; i++)
		EXPECT_TRUE(reaped(pid[i]));
	ASSERT_EQ(0, held_read(&nl, p)) TH_LOG("%s", nl.extack);
	ASSERT_EQ(0, p->lost);
	/* Four processes sampled, at least: the table is full. */
	EXPECT_EQ(IMAGES, p->nr_images);
	EXPECT_EQ(IMAGES, p->stats[PROFIL_PROFILE_IMAGES]);
	for (i = 0; i < p->nr_images; i++)
		EXPECT_TRUE(id_within(&p->images[i], IMAGES));
	/* Allocated whole by the COLLECT. */
	EXPECT_EQ(bytes, p->stats[PROFIL_PROFILE_BYTES]);
	for (i = 0; i < NR_HOLDERS; i++)
		asleep_with += image_of(p, h.pid[i], ANY_PARENT) != NULL;
	EXPECT_EQ(0, asleep_with) TH_LOG("holders asleep throughout, imaged");
	for (i = 0; i < NR_SPINNERS; i++) {
		img = image_of(p, pid[i], ANY_PARENT);
		if (!img)
			continue;
		with++;
		EXPECT_EQ(PROFIL_STOP_EXIT, img->reason);
		EXPECT_TRUE(image_adds_up(p, img));
		/* 0.5 s at 100 Hz: half of the 50 periods, sampled or missed. */
		EXPECT_LE(25, periods(img));
	}
	imageless = NR_SPINNERS - with;
	EXPECT_LE(NR_SPINNERS - IMAGES, imageless);
	/* Others may have found no room too: at least the spinners'. */
	lost = p->stats[PROFIL_PROFILE_IMAGES_LOST];
	EXPECT_LE(imageless * SPIN_SAMPLES, lost)
		TH_LOG("%u spinners without an image", imageless);

	/* One more, alone: each of its samples lost, one by one. */
	last = spinner(0.5);
	ASSERT_LT(0, last);
	EXPECT_TRUE(reaped(last));
	ASSERT_EQ(0, held_read(&nl, p)) TH_LOG("%s", nl.extack);
	ASSERT_EQ(0, p->lost);
	EXPECT_EQ(IMAGES, p->nr_images);
	EXPECT_EQ(NULL, image_of(p, last, ANY_PARENT));
	EXPECT_LE(lost + SPIN_SAMPLES, p->stats[PROFIL_PROFILE_IMAGES_LOST])
		TH_LOG("images_lost from %llu to %llu",
		       (unsigned long long)lost,
		       (unsigned long long)p->stats[PROFIL_PROFILE_IMAGES_LOST]);
	EXPECT_EQ(bytes, p->stats[PROFIL_PROFILE_BYTES]);
	/*
	 * Each sample images_lost counts is lost as a sample too, counted
	 * just after: a later read has them all.
	 */
	lost = p->stats[PROFIL_PROFILE_IMAGES_LOST];
	ASSERT_EQ(0, held_read(&nl, p)) TH_LOG("%s", nl.extack);
	EXPECT_LE(lost, p->stats[PROFIL_PROFILE_SAMPLES_LOST]);

	/* The tick samples with no session: none to find, of any process. */
	EXPECT_EQ(-ENOENT, pnl_get_kind(&other, getpid(), PROFIL_KIND_MACHINE,
					&st));
	EXPECT_EQ(-ENOENT, pnl_get_kind(&other, h.pid[0], PROFIL_KIND_MACHINE,
					&st));
	pnl_close(&nl);
	pnl_close(&other);
	holders_stop(&h);
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
 * the same size, with its share of the index by process, whatever the
 * bound, and nothing that grows later. The index, as the sample table,
 * has a power of two of slots: bounds that are powers of two.
 */
TEST(bytes_follow_the_bound)
{
	struct held_profile *p = malloc(sizeof(*p));
	uint64_t b8, b16, b32, bdef;

	ASSERT_NE(NULL, p);
	b8 = bytes_of(p, 8);
	b16 = bytes_of(p, 16);
	b32 = bytes_of(p, 32);
	bdef = bytes_of(p, PROFIL_IMAGES_DEFAULT);
	ASSERT_LT(0, b8);
	EXPECT_LT(b8, b16);
	EXPECT_EQ((b16 - b8) * 2, b32 - b16);
	EXPECT_EQ((bdef - b8) * 8, (b16 - b8) * (PROFIL_IMAGES_DEFAULT - 8))
		TH_LOG("8 images: %llu bytes, 16: %llu, 32: %llu, %u: %llu",
		       (unsigned long long)b8, (unsigned long long)b16,
		       (unsigned long long)b32, PROFIL_IMAGES_DEFAULT,
		       (unsigned long long)bdef);
	free(p);
}

/*
 * Room for one sample entry: two spinners, of which one at most has
 * samples, and the other's samples (or both's) counted as PROFILE_FULL.
 */
TEST(samples_bound)
{
	struct held_profile *p = malloc(sizeof(*p));
	const struct held_image *img[2];
	unsigned int i, with_samples = 0;
	uint64_t full = 0;
	struct pnl nl;
	pid_t pid[2];

	ASSERT_NE(NULL, p);
	ASSERT_EQ(0, pnl_open(&nl));
	ASSERT_EQ(0, collect_bounded(&nl, 0, 1)) TH_LOG("%s", nl.extack);
	for (i = 0; i < 2; i++) {
		pid[i] = spinner(0.5);
		ASSERT_LT(0, pid[i]);
	}
	for (i = 0; i < 2; i++)
		EXPECT_TRUE(reaped(pid[i]));
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
		EXPECT_EQ(PROFIL_STOP_EXIT, img[i]->reason);
		/* 0.5 s at 100 Hz: half of the 50 periods, sampled or missed. */
		EXPECT_LE(25, periods(img[i]));
		EXPECT_TRUE(image_adds_up(p, img[i]));
		/* Samples in mapped code: added, or dropped for want of room. */
		EXPECT_LE(s[PROFIL_STAT_TICKS] / 2,
			  s[PROFIL_STAT_IN_RANGE] + s[PROFIL_STAT_PROFILE_FULL]);
		full += s[PROFIL_STAT_PROFILE_FULL];
	}
	EXPECT_LT(0, full);
	pnl_close(&nl);
	free(p);
}


/*
 * A process forked before the COLLECT loads a library afterwards and
 * spins in it: the library is an object of the profile, by its device
 * and inode and with its path, and its samples are at the function's
 * offsets. This process spins first, so that it has an image: the
 * child's, made at its first sample, has it as its parent.
 */
TEST(dlopen_after_collect)
{
	struct held_profile *p = malloc(sizeof(*p));
	const struct held_image *img, *self;
	const struct held_object *obj;
	int go[2], res[2];
	struct dso d;
	struct pnl nl;
	pid_t pid;
	char c;

	ASSERT_NE(NULL, p);
	pid = worker_fork(go, res);
	ASSERT_LE(0, pid);
	if (pid == 0) {
		double end;

		if (read(go[0], &c, 1) != 1 || dso_load(&d))
			_exit(2);
		if (write(res[1], &d, sizeof(d)) != sizeof(d))
			_exit(3);
		end = thread_cpu() + 1.0;
		while (thread_cpu() < end)
			d.fn[DSO_A](DSO_LOOP);
		_exit(0);
	}
	ASSERT_EQ(0, pnl_open(&nl));
	ASSERT_EQ(0, collect_bounded(&nl, 0, 0)) TH_LOG("%s", nl.extack);
	/* 0.3 s: 30 periods, and an image at the first of them sampled. */
	held_spin(0.3);
	ASSERT_EQ(1, write(go[1], "g", 1));
	ASSERT_EQ(sizeof(d), read(res[0], &d, sizeof(d)))
		TH_LOG("the child could not load " DSO_NAME);
	EXPECT_TRUE(reaped(pid));
	close(go[1]);
	close(res[0]);

	ASSERT_EQ(0, held_read(&nl, p)) TH_LOG("%s", nl.extack);
	ASSERT_EQ(0, p->lost);
	obj = object_at(p, d.path);
	ASSERT_NE(NULL, obj) TH_LOG("no object for %s", d.path);
	EXPECT_EQ(PROFIL_OBJECT_FILE, obj->kind);
	ASSERT_NE(NULL, strrchr(obj->path, '/')) TH_LOG("%s", obj->path);
	EXPECT_STREQ("/" DSO_NAME, strrchr(obj->path, '/'));
	self = image_of(p, getpid(), ANY_PARENT);
	ASSERT_NE(NULL, self) TH_LOG("0.3 s of spinning, no sample taken");
	EXPECT_EQ(PROFIL_STOP_NONE, self->reason);
	img = image_of(p, pid, ANY_PARENT);
	ASSERT_NE(NULL, img);
	/* No exec: its parent process's image, live at its first sample. */
	EXPECT_EQ(self->id, img->parent);
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

/* A cgroup, and a process that spins outside it and in it by turns. */
FIXTURE(move) {
	char cg[64], home[256];
	struct dso dso;
	pid_t pid;
	int ctl, ack;
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

/*
 * In the cgroup in machine_dso_a ('a') for 1 s of CPU time, then out in
 * machine_dso_b ('b'): machine_dso_b never runs inside. Once the mover
 * has acknowledged the switch, it has returned to user mode since its
 * last sample inside: that sample is attributed.
 */
static int mover_inside(FIXTURE_DATA(move) *self)
{
	if (mover_run(self, 'a') || cgroup_move(self->cg, self->pid) ||
	    !wait_cpu(self->pid, 1.0) || cgroup_move(self->home, self->pid))
		return -1;
	return mover_run(self, 'b');
}

/* One read's view of the mover: its image, and its samples by function. */
struct mover_view {
	struct held_image img;
	unsigned int nr_images;
	bool adds_up;
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
	v->nr_images = p->nr_images;
	v->adds_up = image_adds_up(p, img);
	obj = object_at(p, self->dso.path);
	v->in_a = obj ? samples_in_fn(p, img->id, obj, &self->dso, DSO_A) : 0;
	v->in_b = obj ? samples_in_fn(p, img->id, obj, &self->dso, DSO_B) : 0;
	return 0;
}

/* The change of stat @i from view @a to @b. */
#define DELTA(a, b, i) ((b).img.stats[i] - (a).img.stats[i])

/*
 * A cgroup profile samples a process's ticks while it is in the cgroup
 * only (Documentation/kmod/machine.rst): 1 s of CPU time outside in
 * machine_dso_b, then twice 1 s inside in machine_dso_a and 1 s outside
 * in machine_dso_b again. Outside, no sample is taken: no image before
 * the first second inside, and nothing added to it while out, not even
 * as out of range or missed; machine_dso_b has no samples. Each second
 * inside is at least half of its periods, sampled or missed, into the
 * one image, which the exit ends outside.
 */
TEST_F(move, counts_only_inside)
{
	struct held_profile *p = malloc(sizeof(*p));
	struct collect_req q = { .scope = PROFIL_SCOPE_CGROUP };
	const uint64_t rate = PROFIL_RATE_DEFAULT;
	struct mover_view v1, v2, v3, v4;
	int ctl[2], ack[2], fd;
	struct stat cg;
	struct pnl nl;
	pid_t pid;

	ASSERT_NE(NULL, p);
	if (geteuid())
		SKIP(return, "creating a cgroup needs root");
	if (!cgroup2_mounted())
		SKIP(return, "no cgroup v2 at " CGROOT ", nor a mount of it");
	ASSERT_EQ(0, own_cgroup(self->home, sizeof(self->home)));
	snprintf(self->cg, sizeof(self->cg), CGROOT "/profil_mbounds.%d",
		 getpid());
	ASSERT_EQ(0, mkdir(self->cg, 0755));
	ASSERT_EQ(0, stat(self->cg, &cg));
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

	/* Outside: no sample taken, so no image, nothing lost. */
	ASSERT_TRUE(wait_cpu(self->pid, 1.0));
	ASSERT_EQ(0, held_read(&nl, p)) TH_LOG("%s", nl.extack);
	EXPECT_EQ(0, p->nr_images);
	EXPECT_EQ(0, p->nr_samples);
	EXPECT_EQ(0, p->stats[PROFIL_PROFILE_IMAGES_LOST]);
	EXPECT_EQ(0, p->stats[PROFIL_PROFILE_SAMPLES_LOST]);

	/* Inside: the image, made in the cgroup, of this second only. */
	ASSERT_EQ(0, mover_inside(self));
	ASSERT_EQ(0, mover_read(&nl, p, self, &v1)) TH_LOG("no image");
	EXPECT_EQ(1, v1.nr_images);
	EXPECT_TRUE(v1.adds_up);
	EXPECT_EQ(cg.st_ino, v1.img.cgroup);
	EXPECT_EQ(PROFIL_STOP_NONE, v1.img.reason);
	/* Its parent, outside, was never sampled. */
	EXPECT_EQ(0, v1.img.parent);
	EXPECT_LE(rate / 2, periods(&v1.img));
	EXPECT_LT(0, v1.in_a);
	EXPECT_LE(v1.img.stats[PROFIL_STAT_IN_RANGE] / 2, v1.in_a);
	EXPECT_EQ(0, v1.in_b);

	/* Outside: not a stat of its image grows. */
	ASSERT_TRUE(wait_cpu(self->pid, 1.0));
	ASSERT_EQ(0, mover_read(&nl, p, self, &v2)) TH_LOG("no image");
	EXPECT_EQ(0, memcmp(v1.img.stats, v2.img.stats, sizeof(v1.img.stats)))
		TH_LOG("%llu ticks, then %llu outside",
		       (unsigned long long)v1.img.stats[PROFIL_STAT_TICKS],
		       (unsigned long long)v2.img.stats[PROFIL_STAT_TICKS]);
	EXPECT_EQ(v1.in_a, v2.in_a);
	EXPECT_EQ(0, v2.in_b);

	/* Inside again: the same image grows by this second. */
	ASSERT_EQ(0, mover_inside(self));
	ASSERT_EQ(0, mover_read(&nl, p, self, &v3)) TH_LOG("no image");
	EXPECT_EQ(1, v3.nr_images);
	EXPECT_EQ(v1.img.id, v3.img.id);
	EXPECT_TRUE(v3.adds_up);
	EXPECT_LE(rate / 2, DELTA(v2, v3, PROFIL_STAT_TICKS) +
				    DELTA(v2, v3, PROFIL_STAT_MISSED));
	EXPECT_LT(v2.in_a, v3.in_a);
	EXPECT_LE(DELTA(v2, v3, PROFIL_STAT_IN_RANGE) / 2, v3.in_a - v2.in_a);
	EXPECT_EQ(0, v3.in_b);

	/* Outside, and gone: the exit ends the image, which grew no more. */
	ASSERT_TRUE(wait_cpu(self->pid, 1.0));
	close(self->ctl);
	self->ctl = -1;
	EXPECT_TRUE(reaped(pid));
	ASSERT_EQ(0, mover_read(&nl, p, self, &v4)) TH_LOG("no image");
	self->pid = -1;
	EXPECT_EQ(PROFIL_STOP_EXIT, v4.img.reason);
	EXPECT_TRUE(v4.adds_up);
	EXPECT_EQ(0, memcmp(v3.img.stats, v4.img.stats, sizeof(v3.img.stats)));
	EXPECT_EQ(v3.in_a, v4.in_a);
	EXPECT_EQ(0, v4.in_b);
	pnl_close(&nl);
	free(p);
}

/*
 * The cgroup scope has the tick as its only clock too: a rate above HZ
 * (PROFIL_RATE_MAX is above any) is refused, with its text, and claims
 * nothing: the same socket then takes a profile at the default rate.
 */
TEST(cgroup_above_hz_refused)
{
	struct held_profile *p = malloc(sizeof(*p));
	struct collect_req q = {
		.scope = PROFIL_SCOPE_CGROUP, .rate = PROFIL_RATE_MAX,
	};
	struct pnl nl;

	ASSERT_NE(NULL, p);
	if (geteuid())
		SKIP(return, "the capability's check comes first");
	if (!cgroup2_mounted())
		SKIP(return, "no cgroup v2 at " CGROOT ", nor a mount of it");
	q.fd = open(CGROOT, O_RDONLY | O_DIRECTORY);
	ASSERT_LE(0, q.fd);
	ASSERT_EQ(0, pnl_open(&nl));
	EXPECT_EQ(-EINVAL, collect_req(&nl, &q));
	EXPECT_NE(NULL, strstr(nl.extack, TICK_ONLY)) TH_LOG("%s", nl.extack);
	EXPECT_EQ(-ENOENT, held_read(&nl, p)) TH_LOG("a profile was made");
	q.rate = 0;
	EXPECT_EQ(0, collect_req(&nl, &q)) TH_LOG("%s", nl.extack);
	EXPECT_EQ(0, held_read(&nl, p)) TH_LOG("%s", nl.extack);
	pnl_close(&nl);
	close(q.fd);
	free(p);
}

PROFIL_HARNESS_MAIN
