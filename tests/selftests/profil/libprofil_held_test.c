// SPDX-License-Identifier: GPL-2.0
/*
 * libprofil's kernel-held profiles (PROFIL_1.3) against the real
 * profil.ko: profil_collect() and profil_profile_read(), profil-ctl
 * run's way, and their refusals (another process, values out of range,
 * a child followed already, no profile without a collect). The child
 * spins in lp_fifty() (libprofil_workload.h). Built twice:
 * libprofil_held_test (PIE) and libprofil_held_test_nopie (-no-pie, see
 * Makefile). The buffer sessions: libprofil_test.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <poll.h>
#include <sys/gmon.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "profil_harness.h"
#include "profil.h"
#include "libprofil_workload.h"

/* What a child's profil_collect() calls returned, for its parent. */
struct collect_result {
	int ret[2];
	int err[2];
	char msg[2][128];
};

/*
 * Forks a child that calls profil_collect() @calls times (1 or 2) with
 * pid 0 on @h, its parent's, then spins @secs of CPU and exits; waits for
 * it. Its results are in *@res; returns its pid, or -1.
 */
static pid_t collect_child(struct profil_handle *h, int calls, double secs,
			   struct collect_result *res)
{
	const struct profil_collect_params p = { 0 };
	int fds[2], st, i;
	pid_t pid;

	memset(res, 0, sizeof(*res));
	if (pipe(fds))
		return -1;
	pid = fork();
	if (pid < 0) {
		close(fds[0]);
		close(fds[1]);
		return -1;
	}
	if (pid == 0) {
		close(fds[0]);
		for (i = 0; i < calls; i++) {
			errno = 0;
			res->ret[i] = profil_collect(h, &p);
			res->err[i] = errno;
			snprintf(res->msg[i], sizeof(res->msg[i]), "%s",
				 profil_strerror());
		}
		if (write(fds[1], res, sizeof(*res)) != sizeof(*res))
			_exit(2);
		spin(secs);
		_exit(0);
	}
	close(fds[1]);
	i = read(fds[0], res, sizeof(*res)) == sizeof(*res);
	close(fds[0]);
	if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st) ||
	    WEXITSTATUS(st) != 0 || !i)
		return -1;
	return pid;
}

#define HELD_IMAGES	8
#define HELD_OBJECTS	64

/* A profil_profile_read() kept: the samples summed by image and object. */
struct held {
	struct profil_image img[HELD_IMAGES];
	unsigned int nimg;
	struct profil_object obj[HELD_OBJECTS];
	char path[HELD_OBJECTS][256];
	unsigned int nobj;
	/* [image id][object id], ids from 1; past the arrays: lost */
	uint64_t count[HELD_IMAGES + 1][HELD_OBJECTS + 1];
	uint64_t lost;
	uint64_t in_range[HELD_IMAGES];	/* PROFIL_STAT_IN_RANGE */
	uint64_t stats[PROFIL_PROFILE_MAX + 1];
	int nstats;
};

static int held_image_cb(const struct profil_image *img, void *data)
{
	struct held *d = data;

	if (d->nimg == HELD_IMAGES)
		return 0;
	d->img[d->nimg] = *img;
	d->img[d->nimg].stats = NULL;	/* valid in the call only */
	if (img->nstats > PROFIL_STAT_IN_RANGE)
		d->in_range[d->nimg] = img->stats[PROFIL_STAT_IN_RANGE];
	d->nimg++;
	return 0;
}

static int held_object_cb(const struct profil_object *obj, void *data)
{
	struct held *d = data;

	if (d->nobj == HELD_OBJECTS)
		return 0;
	d->obj[d->nobj] = *obj;
	snprintf(d->path[d->nobj], sizeof(d->path[0]), "%s", obj->path);
	d->obj[d->nobj].path = d->path[d->nobj];
	d->nobj++;
	return 0;
}

static int held_samples_cb(const struct profil_sample *s, size_t n,
			   void *data)
{
	struct held *d = data;
	size_t i;

	for (i = 0; i < n; i++) {
		if (s[i].image <= HELD_IMAGES && s[i].object <= HELD_OBJECTS)
			d->count[s[i].image][s[i].object] += s[i].count;
		else
			d->lost += s[i].count;
	}
	return 0;
}

static int held_stats_cb(const uint64_t *stats, size_t n, void *data)
{
	struct held *d = data;

	memcpy(d->stats, stats, (n < PROFIL_PROFILE_MAX + 1 ? n :
				 PROFIL_PROFILE_MAX + 1) * sizeof(*stats));
	d->nstats++;
	return 0;
}

static const struct profil_profile_ops held_ops = {
	.image = held_image_cb,
	.object = held_object_cb,
	.samples = held_samples_cb,
	.stats = held_stats_cb,
};

/* The image of @pid, or NULL. */
static const struct profil_image *held_image_of(const struct held *d,
						pid_t pid)
{
	unsigned int i;

	for (i = 0; i < d->nimg; i++)
		if (d->img[i].pid == pid)
			return &d->img[i];
	return NULL;
}

/* The object that is the file @path by device and inode, or NULL. */
static const struct profil_object *held_object_at(const struct held *d,
						  const char *path)
{
	struct stat sb;
	unsigned int i;

	if (stat(path, &sb))
		return NULL;
	for (i = 0; i < d->nobj; i++)
		if (d->obj[i].kind == PROFIL_OBJECT_FILE &&
		    d->obj[i].ino == sb.st_ino &&
		    d->obj[i].dev == (uint32_t)sb.st_dev)
			return &d->obj[i];
	return NULL;
}

/*
 * profil-ctl run's way, through the library: the child names itself on
 * its parent's handle (here it spins instead of exec'ing); the parent
 * reads the profile once it exited, the kernel having kept it.
 */
TEST(collect_child_before_exec)
{
	struct profil_handle *h = profil_handle_open();
	const struct profil_object *exe;
	const struct profil_image *img;
	struct collect_result res;
	struct held *d = calloc(1, sizeof(*d));
	char self[4096];
	uint64_t in_img = 0;
	unsigned int i;
	ssize_t n;
	pid_t pid;

	if (!h && errno == ENOSYS)
		SKIP(return, "profil.ko not loaded");
	ASSERT_NE(NULL, h);
	ASSERT_NE(NULL, d);
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	ASSERT_LT(0, n);
	self[n] = '\0';
	pid = collect_child(h, 1, 0.3, &res);
	ASSERT_LT(0, pid);
	ASSERT_EQ(0, res.ret[0]) TH_LOG("collect: %s", res.msg[0]);

	ASSERT_EQ(0, profil_profile_read(h, &held_ops, d))
		TH_LOG("read: %s", profil_strerror());
	img = held_image_of(d, pid);
	ASSERT_NE(NULL, img) TH_LOG("no image of %d among %u", pid, d->nimg);
	EXPECT_EQ(0U, img->parent);
	EXPECT_EQ((uint32_t)PROFIL_STOP_EXIT, img->reason);
	exe = held_object_at(d, "/proc/self/exe");
	ASSERT_NE(NULL, exe) TH_LOG("%s is not among %u objects", self,
				    d->nobj);
	EXPECT_STREQ(self, exe->path);
	EXPECT_EQ(exe->id, img->exe);
	ASSERT_GE(HELD_IMAGES, img->id);
	for (i = 0; i <= HELD_OBJECTS; i++)
		in_img += d->count[img->id][i];
	/* 0.3 s at 100 Hz: about 30 ticks, nearly all in spin()'s loop. */
	TH_LOG("image %u (pid %d): %llu samples, %llu in %s",
	       img->id, pid, (unsigned long long)in_img,
	       (unsigned long long)d->count[img->id][exe->id], exe->path);
	EXPECT_LT(0ULL, d->count[img->id][exe->id]);
	EXPECT_EQ(d->in_range[img - d->img], in_img);
	EXPECT_EQ(0ULL, d->lost);
	EXPECT_EQ(1, d->nstats);
	EXPECT_LE(1ULL, d->stats[PROFIL_PROFILE_IMAGES]);
	EXPECT_EQ(d->nimg, d->stats[PROFIL_PROFILE_IMAGES]);
	EXPECT_EQ(d->nobj, d->stats[PROFIL_PROFILE_OBJECTS]);
	free(d);
	profil_handle_close(h);
}

/* Another process, not traced: EPERM with the kernel's reason. */
TEST(collect_other_process_eperm)
{
	struct profil_handle *h = profil_handle_open();
	const struct profil_collect_params p = { .pid = 1 };

	if (!h && errno == ENOSYS)
		SKIP(return, "profil.ko not loaded");
	ASSERT_NE(NULL, h);
	ASSERT_NE(1, getpid());
	errno = 0;
	EXPECT_EQ(-1, profil_collect(h, &p));
	EXPECT_EQ(EPERM, errno);
	EXPECT_NE('\0', profil_strerror()[0]);
	TH_LOG("pid 1: %s", profil_strerror());
	profil_handle_close(h);
}

/*
 * Values out of range: the kernel's policy answers ERANGE (an unknown
 * flag: EINVAL) before the request is run, so no profile is made.
 */
TEST(collect_out_of_range)
{
	struct profil_handle *h = profil_handle_open();
	const struct profil_collect_params bad[] = {
		{ .rate = PROFIL_RATE_MAX + 1 },
		{ .rate = PROFIL_RATE_MIN - 1 },
		{ .images_max = PROFIL_IMAGES_LIMIT + 1 },
		{ .samples_max = PROFIL_SAMPLES_LIMIT + 1 },
	};
	const struct profil_collect_params flag = { .flags = 1U << 31 };
	unsigned int i;

	if (!h && errno == ENOSYS)
		SKIP(return, "profil.ko not loaded");
	ASSERT_NE(NULL, h);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		errno = 0;
		EXPECT_EQ(-1, profil_collect(h, &bad[i]));
		EXPECT_EQ(ERANGE, errno) TH_LOG("case %u: %s", i,
						profil_strerror());
	}
	errno = 0;
	EXPECT_EQ(-1, profil_collect(h, &flag));
	EXPECT_EQ(EINVAL, errno) TH_LOG("%s", profil_strerror());
	EXPECT_EQ(-1, profil_profile_read(h, &held_ops, NULL));
	EXPECT_EQ(ENOENT, errno);
	profil_handle_close(h);
}

/* A child followed already: EEXIST, and still one image. */
TEST(collect_twice_eexist)
{
	struct profil_handle *h = profil_handle_open();
	struct collect_result res;
	struct held *d = calloc(1, sizeof(*d));
	pid_t pid;

	if (!h && errno == ENOSYS)
		SKIP(return, "profil.ko not loaded");
	ASSERT_NE(NULL, h);
	ASSERT_NE(NULL, d);
	pid = collect_child(h, 2, 0, &res);
	ASSERT_LT(0, pid);
	ASSERT_EQ(0, res.ret[0]) TH_LOG("collect: %s", res.msg[0]);
	EXPECT_EQ(-1, res.ret[1]);
	EXPECT_EQ(EEXIST, res.err[1]);
	EXPECT_NE(NULL, strstr(res.msg[1], "followed already"))
		TH_LOG("%s", res.msg[1]);
	ASSERT_EQ(0, profil_profile_read(h, &held_ops, d));
	EXPECT_EQ(1U, d->nimg);
	EXPECT_NE(NULL, held_image_of(d, pid));
	free(d);
	profil_handle_close(h);
}

/* A handle that never collected has no profile. */
TEST(profile_read_without_collect)
{
	struct profil_handle *h = profil_handle_open();
	struct held *d = calloc(1, sizeof(*d));

	if (!h && errno == ENOSYS)
		SKIP(return, "profil.ko not loaded");
	ASSERT_NE(NULL, h);
	ASSERT_NE(NULL, d);
	errno = 0;
	EXPECT_EQ(-1, profil_profile_read(h, &held_ops, d));
	EXPECT_EQ(ENOENT, errno);
	EXPECT_NE(NULL, strstr(profil_strerror(), "no profile"))
		TH_LOG("%s", profil_strerror());
	EXPECT_EQ(0U, d->nimg);
	EXPECT_EQ(0, d->nstats);
	free(d);
	profil_handle_close(h);
}

PROFIL_HARNESS_MAIN
