/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A kernel-held profile (PROFIL_CMD_GET_PROFILE) read into arrays, and
 * what held_test and machine_test ask of it: an image's samples, whether
 * its accounting adds up, its children, the object that is a file.
 * Include it after profil_nl.h and profil_util.h.
 */
#ifndef PROFIL_SELFTEST_HELD_H
#define PROFIL_SELFTEST_HELD_H

#include <fcntl.h>
#include <spawn.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/*
 * The hot function of the tests' workloads: a loop of its own, so that
 * its samples are its own; @secs of the thread's CPU time.
 */
static __attribute__((noinline, unused)) void held_spin(double secs)
{
	double end = thread_cpu() + secs;
	volatile unsigned long n = 0;
	int i;

	while (thread_cpu() < end)
		for (i = 0; i < 200000; i++)
			n++;
}

/*
 * Room for a machine-wide profile of the test guest: a few dozen
 * processes, each image a fork or an exec of theirs during a test, and
 * the objects and offsets they ran in.
 */
#define MAX_IMAGES	2048
#define MAX_OBJECTS	1024
#define MAX_SAMPLES	65536

struct held_image {
	uint32_t id, parent, pid, exe, reason;
	uint64_t cgroup;
	char comm[16];
	uint64_t stats[PROFIL_STAT_MAX + 1];
};

struct held_object {
	uint32_t id, kind, dev;
	uint64_t ino;
	char path[256];
};

struct held_profile {
	struct held_image images[MAX_IMAGES];
	unsigned int nr_images;
	struct held_object objects[MAX_OBJECTS];
	unsigned int nr_objects;
	struct profil_sample samples[MAX_SAMPLES];
	unsigned int nr_samples;
	uint64_t stats[PROFIL_PROFILE_MAX + 1];
	/* Entries the arrays above had no room for: 0 for a whole read. */
	unsigned int lost;
};

static inline int held_image_cb(const struct nlattr *attr, void *data)
{
	struct held_image *img = data;
	struct pnl_status st;

	switch (mnl_attr_get_type(attr)) {
	case PROFIL_IMAGE_ID: img->id = mnl_attr_get_u32(attr); break;
	case PROFIL_IMAGE_PARENT: img->parent = mnl_attr_get_u32(attr); break;
	case PROFIL_IMAGE_PID: img->pid = mnl_attr_get_u32(attr); break;
	case PROFIL_IMAGE_EXE: img->exe = mnl_attr_get_u32(attr); break;
	case PROFIL_IMAGE_REASON: img->reason = mnl_attr_get_u32(attr); break;
	case PROFIL_IMAGE_CGROUP: img->cgroup = mnl_attr_get_u64(attr); break;
	case PROFIL_IMAGE_COMM:
		snprintf(img->comm, sizeof(img->comm), "%s",
			 mnl_attr_get_str(attr));
		break;
	case PROFIL_IMAGE_STATS:
		memset(&st, 0, sizeof(st));
		mnl_attr_parse_nested(attr, pnl_stats_cb, &st);
		memcpy(img->stats, st.stats, sizeof(img->stats));
		break;
	}
	return MNL_CB_OK;
}

static inline int held_object_cb(const struct nlattr *attr, void *data)
{
	struct held_object *o = data;

	switch (mnl_attr_get_type(attr)) {
	case PROFIL_OBJECT_ID: o->id = mnl_attr_get_u32(attr); break;
	case PROFIL_OBJECT_KIND: o->kind = mnl_attr_get_u32(attr); break;
	case PROFIL_OBJECT_DEV: o->dev = mnl_attr_get_u32(attr); break;
	case PROFIL_OBJECT_INO: o->ino = mnl_attr_get_u64(attr); break;
	case PROFIL_OBJECT_PATH:
		snprintf(o->path, sizeof(o->path), "%s",
			 mnl_attr_get_str(attr));
		break;
	}
	return MNL_CB_OK;
}

static inline int held_pstats_cb(const struct nlattr *attr, void *data)
{
	uint64_t *stats = data;
	int type = mnl_attr_get_type(attr);

	if (type > PROFIL_PROFILE_PAD && type <= PROFIL_PROFILE_MAX)
		stats[type] = mnl_attr_get_u64(attr);
	return MNL_CB_OK;
}

static inline int held_attr_cb(const struct nlattr *attr, void *data)
{
	struct held_profile *p = data;
	unsigned int n;

	switch (mnl_attr_get_type(attr)) {
	case PROFIL_ATTR_IMAGE:
		if (p->nr_images < MAX_IMAGES)
			mnl_attr_parse_nested(attr, held_image_cb,
					      &p->images[p->nr_images++]);
		else
			p->lost++;
		break;
	case PROFIL_ATTR_OBJECT:
		if (p->nr_objects < MAX_OBJECTS)
			mnl_attr_parse_nested(attr, held_object_cb,
					      &p->objects[p->nr_objects++]);
		else
			p->lost++;
		break;
	case PROFIL_ATTR_SAMPLES:
		n = mnl_attr_get_payload_len(attr) /
		    sizeof(struct profil_sample);
		if (n > MAX_SAMPLES - p->nr_samples) {
			p->lost += n - (MAX_SAMPLES - p->nr_samples);
			n = MAX_SAMPLES - p->nr_samples;
		}
		memcpy(&p->samples[p->nr_samples],
		       mnl_attr_get_payload(attr), n * sizeof(p->samples[0]));
		p->nr_samples += n;
		break;
	case PROFIL_ATTR_PROFILE_STATS:
		mnl_attr_parse_nested(attr, held_pstats_cb, p->stats);
		break;
	}
	return MNL_CB_OK;
}

static inline int held_data_cb(const struct nlmsghdr *nlh, void *data)
{
	struct pnl_reply *r = data;

	r->msgs++;
	mnl_attr_parse(nlh, sizeof(struct genlmsghdr), held_attr_cb,
		       r->dump_data);
	return MNL_CB_OK;
}

/* Read the socket's profile into @p; 0 or -errno. */
static inline int held_read(struct pnl *nl, struct held_profile *p)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct pnl_reply r = { .nl = nl, .dump_data = p };
	struct nlmsghdr *nlh;

	memset(p, 0, sizeof(*p));
	nlh = pnl_msg(buf, nl->family, PROFIL_CMD_GET_PROFILE,
		      PROFIL_GENL_VERSION);
	nlh->nlmsg_flags |= NLM_F_DUMP;
	return pnl_talk(nl, nlh, held_data_cb, &r);
}

/* The object that is the file at @path by device and inode, or NULL. */
static inline const struct held_object *
object_at(const struct held_profile *p, const char *path)
{
	struct stat sb;
	unsigned int i;

	if (stat(path, &sb))
		return NULL;
	for (i = 0; i < p->nr_objects; i++)
		if (p->objects[i].kind == PROFIL_OBJECT_FILE &&
		    p->objects[i].ino == sb.st_ino &&
		    p->objects[i].dev == (uint32_t)sb.st_dev)
			return &p->objects[i];
	return NULL;
}

/* Samples of @image (0: any) in @object (0: any). */
static inline uint64_t samples_in(const struct held_profile *p,
				  uint32_t image, uint32_t object)
{
	uint64_t sum = 0;
	unsigned int i;

	for (i = 0; i < p->nr_samples; i++)
		if ((!image || p->samples[i].image == image) &&
		    (!object || p->samples[i].object == object))
			sum += p->samples[i].count;
	return sum;
}

/* Every tick of an image accounted once, and IN_RANGE in its samples. */
static inline bool image_adds_up(const struct held_profile *p,
				 const struct held_image *img)
{
	const uint64_t *s = img->stats;

	return s[PROFIL_STAT_TICKS] ==
		       s[PROFIL_STAT_IN_RANGE] + s[PROFIL_STAT_OUT_OF_RANGE] +
			       s[PROFIL_STAT_SYSTEM_DROPPED] +
			       s[PROFIL_STAT_PENDING] +
			       s[PROFIL_STAT_DISCARDED] +
			       s[PROFIL_STAT_FAULTED] +
			       s[PROFIL_STAT_SATURATED] &&
	       s[PROFIL_STAT_IN_RANGE] == samples_in(p, img->id, 0);
}

/* Ticks that found the thread in user mode: not dropped in the kernel. */
static inline uint64_t user_ticks(const uint64_t *stats)
{
	return stats[PROFIL_STAT_TICKS] - stats[PROFIL_STAT_SYSTEM_DROPPED];
}

/* Sampling periods of an image's CPU time: sampled or missed. */
static inline uint64_t periods(const struct held_image *img)
{
	return img->stats[PROFIL_STAT_TICKS] + img->stats[PROFIL_STAT_MISSED];
}

/* The images whose parent is @parent, in order; returns how many. */
static inline unsigned int children_of(const struct held_profile *p,
				       uint32_t parent,
				       const struct held_image **out,
				       unsigned int max)
{
	unsigned int i, n = 0;

	for (i = 0; i < p->nr_images; i++)
		if (p->images[i].parent == parent && n < max)
			out[n++] = &p->images[i];
	return n;
}

/*
 * Whether @img spun: at least @periods periods sampled or missed, and at
 * least @tenths tenths of its samples in @exe.
 */
static inline bool held_spun(const struct held_profile *p,
			     const struct held_image *img,
			     const struct held_object *exe, uint64_t least,
			     unsigned int tenths)
{
	uint64_t in = img->stats[PROFIL_STAT_IN_RANGE];

	return periods(img) >= least && in > 0 &&
	       samples_in(p, img->id, exe->id) * 10 >= in * tenths;
}

/*
 * Run this executable again as the workload @what, named by @var in its
 * environment (the test's constructor picks it up); returns its pid.
 */
static inline pid_t held_spawn_self(const char *var, const char *what)
{
	char env[64];
	char *argv[] = { "worker", NULL };
	char *envp[] = { env, NULL };
	pid_t pid;

	snprintf(env, sizeof(env), "%s=%s", var, what);
	if (posix_spawn(&pid, "/proc/self/exe", NULL, NULL, argv, envp))
		return -1;
	return pid;
}

/* Copy @from to a new file @to; 0 or -1. */
static inline int copy_file(const char *from, const char *to)
{
	int in = open(from, O_RDONLY), out;
	char buf[65536];
	ssize_t n = -1;

	out = open(to, O_WRONLY | O_CREAT | O_TRUNC, 0700);
	while (in >= 0 && out >= 0 && (n = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, n) != n) {
			n = -1;
			break;
		}
	if (in >= 0)
		close(in);
	if (out >= 0 && close(out))
		n = -1;
	return n == 0 ? 0 : -1;
}

#endif /* PROFIL_SELFTEST_HELD_H */
