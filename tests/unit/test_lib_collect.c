// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel-held profiles through the library (PROFIL_1.3): the COLLECT
 * request profil_collect() builds, and profil_profile_read()'s parsing of
 * crafted GET_PROFILE dumps fed through mock_mnl.c: images, objects,
 * samples (several messages, a payload 8-byte aligned in the message and
 * one not, more entries than one callback call takes), the profile's
 * counters, unknown attributes, malformed messages (EPROTO) and a
 * callback's early stop.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <libmnl/libmnl.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <linux/profil.h>

#include "profil.h"
#include "internal.h"
#include "mock_mnl.h"

static int setup(void **state)
{
	(void)state;
	mock_mnl_reset();
	return 0;
}

static struct profil_handle *open_handle(void)
{
	struct profil_handle *h;

	mock_expect_getfamily();
	mock_queue_family(NULL, 0);
	h = profil_handle_open();
	assert_non_null(h);
	return h;
}

/*
 * COLLECT.
 */

static void test_collect_all_attrs(void **state)
{
	struct profil_handle *h = open_handle();
	struct profil_collect_params p = {
		.pid = 4242, .rate = 1000, .flags = PROFIL_F_SYSTEM_TICKS,
		.images_max = 64, .samples_max = 100000,
	};
	const struct mock_attr attrs[] = {
		{ PROFIL_ATTR_PID, 4, 4242 },
		{ PROFIL_ATTR_RATE, 4, 1000 },
		{ PROFIL_ATTR_FLAGS, 4, PROFIL_F_SYSTEM_TICKS },
		{ PROFIL_ATTR_IMAGES_MAX, 4, 64 },
		{ PROFIL_ATTR_SAMPLES_MAX, 4, 100000 },
		{ 0 },
	};

	(void)state;
	mock_expect_request(PROFIL_CMD_COLLECT, NLM_F_ACK, attrs);
	mock_queue_ack();
	assert_int_equal(profil_collect(h, &p), 0);
	profil_handle_close(h);
}

/* Zeros are the kernel's defaults: not sent. */
static void test_collect_defaults_and_error(void **state)
{
	struct profil_handle *h = open_handle();
	struct profil_collect_params p = { 0 };

	(void)state;
	mock_expect_request(PROFIL_CMD_COLLECT, NLM_F_ACK, NULL);
	mock_queue_ack();
	assert_int_equal(profil_collect(h, &p), 0);

	mock_expect_request(PROFIL_CMD_COLLECT, NLM_F_ACK, NULL);
	mock_queue_error(EEXIST, "profil: process is followed already", true);
	errno = 0;
	assert_int_equal(profil_collect(h, &p), -1);
	assert_int_equal(errno, EEXIST);
	assert_string_equal(profil_strerror(),
			    "profil: process is followed already");
	profil_handle_close(h);
}

/* The machine-wide COLLECT: its scope, and the cgroup's fd if any. */
static void test_collect_machine(void **state)
{
	struct profil_handle *h = open_handle();
	struct profil_machine_params p = {
		.rate = 97, .images_max = 100000, .cgroup_fd = -1,
	};
	const struct mock_attr machine[] = {
		{ PROFIL_ATTR_SCOPE, 4, PROFIL_SCOPE_MACHINE },
		{ PROFIL_ATTR_RATE, 4, 97 },
		{ PROFIL_ATTR_IMAGES_MAX, 4, 100000 },
		{ 0 },
	};
	const struct mock_attr cgroup[] = {
		{ PROFIL_ATTR_SCOPE, 4, PROFIL_SCOPE_CGROUP },
		{ PROFIL_ATTR_CGROUP_FD, 4, 7 },
		{ 0 },
	};

	(void)state;
	mock_expect_request(PROFIL_CMD_COLLECT, NLM_F_ACK, machine);
	mock_queue_ack();
	assert_int_equal(profil_collect_machine(h, &p), 0);

	p = (struct profil_machine_params){ .cgroup_fd = 7 };
	mock_expect_request(PROFIL_CMD_COLLECT, NLM_F_ACK, cgroup);
	mock_queue_error(EBUSY, "profil: another machine-wide profile is running",
			 true);
	assert_int_equal(profil_collect_machine(h, &p), -1);
	assert_int_equal(errno, EBUSY);
	assert_string_equal(profil_strerror(),
			    "profil: another machine-wide profile is running");
	assert_int_equal(profil_collect_machine(NULL, &p), -1);
	assert_int_equal(errno, EINVAL);
	assert_int_equal(profil_collect_machine(h, NULL), -1);
	assert_int_equal(errno, EINVAL);
	profil_handle_close(h);
}

static const struct profil_profile_ops no_ops;

static void test_null_args(void **state)
{
	struct profil_handle *h = open_handle();
	struct profil_collect_params p = { 0 };
	unsigned int sent = mock_requests;

	(void)state;
	pf_err_set(EFAULT, "an earlier failure");
	assert_int_equal(profil_collect(NULL, &p), -1);
	assert_int_equal(errno, EINVAL);
	assert_string_equal(profil_strerror(), strerror(EINVAL));
	pf_err_set(EFAULT, "an earlier failure");
	assert_int_equal(profil_collect(h, NULL), -1);
	assert_int_equal(errno, EINVAL);
	assert_null(profil_last_extack());
	assert_int_equal(profil_profile_read(NULL, &no_ops, NULL), -1);
	assert_int_equal(errno, EINVAL);
	pf_err_set(EFAULT, "an earlier failure");
	assert_int_equal(profil_profile_read(h, NULL, NULL), -1);
	assert_int_equal(errno, EINVAL);
	assert_string_equal(profil_strerror(), strerror(EINVAL));
	assert_int_equal(mock_requests, sent);	/* nothing was sent */
	profil_handle_close(h);
}

/*
 * GET_PROFILE: the messages, as the kernel builds them (nests flagged
 * NLA_F_NESTED, u64 counters with PAD attributes before them).
 */

static struct nlmsghdr *profile_msg(void)
{
	return mock_msg_genl(MOCK_FAMILY_ID, NLM_F_MULTI,
			     PROFIL_CMD_GET_PROFILE);
}

static void expect_get_profile(void)
{
	mock_expect_request(PROFIL_CMD_GET_PROFILE, NLM_F_DUMP, NULL);
}

struct image_in {
	uint32_t id, parent, pid, exe, reason;
	const char *comm;	/* NULL: not sent */
	bool stats;
	uint64_t cgroup;	/* 0: not sent */
};

static void put_image(struct nlmsghdr *nlh, const struct image_in *in)
{
	struct nlattr *nest = mnl_attr_nest_start(nlh, PROFIL_ATTR_IMAGE);
	struct nlattr *st;

	mnl_attr_put_u32(nlh, PROFIL_IMAGE_ID, in->id);
	mnl_attr_put_u32(nlh, PROFIL_IMAGE_PARENT, in->parent);
	mnl_attr_put_u32(nlh, PROFIL_IMAGE_PID, in->pid);
	if (in->comm)
		mnl_attr_put_strz(nlh, PROFIL_IMAGE_COMM, in->comm);
	mnl_attr_put_u32(nlh, PROFIL_IMAGE_EXE, in->exe);
	mnl_attr_put_u32(nlh, PROFIL_IMAGE_REASON, in->reason);
	if (in->cgroup) {
		mnl_attr_put(nlh, PROFIL_IMAGE_PAD, 0, NULL);
		mnl_attr_put_u64(nlh, PROFIL_IMAGE_CGROUP, in->cgroup);
	}
	if (in->stats) {
		st = mnl_attr_nest_start(nlh, PROFIL_IMAGE_STATS);
		mnl_attr_put(nlh, PROFIL_STAT_PAD, 0, NULL);
		mnl_attr_put_u64(nlh, PROFIL_STAT_TICKS, 100 + in->id);
		mnl_attr_put_u64(nlh, PROFIL_STAT_IN_RANGE, 90 + in->id);
		mnl_attr_put_u64(nlh, PROFIL_STAT_MISSED, 3);
		mnl_attr_put_u64(nlh, PROFIL_STAT_PROFILE_FULL, 1ULL << 40);
		mnl_attr_nest_end(nlh, st);
	}
	mnl_attr_nest_end(nlh, nest);
}

struct object_in {
	uint32_t id, kind, dev, generation;
	uint64_t ino, ctime;
	const char *path;	/* NULL: not sent */
};

static void put_object(struct nlmsghdr *nlh, const struct object_in *in)
{
	struct nlattr *nest = mnl_attr_nest_start(nlh, PROFIL_ATTR_OBJECT);

	mnl_attr_put_u32(nlh, PROFIL_OBJECT_ID, in->id);
	mnl_attr_put_u32(nlh, PROFIL_OBJECT_KIND, in->kind);
	mnl_attr_put_u32(nlh, PROFIL_OBJECT_DEV, in->dev);
	mnl_attr_put(nlh, PROFIL_OBJECT_PAD, 0, NULL);
	mnl_attr_put_u64(nlh, PROFIL_OBJECT_INO, in->ino);
	mnl_attr_put_u32(nlh, PROFIL_OBJECT_GENERATION, in->generation);
	mnl_attr_put_u64(nlh, PROFIL_OBJECT_CTIME, in->ctime);
	if (in->path)
		mnl_attr_put_strz(nlh, PROFIL_OBJECT_PATH, in->path);
	mnl_attr_nest_end(nlh, nest);
}

/* Sample @i of a profile: every field distinct, counts past 32 bits. */
static struct profil_sample sample_n(unsigned int i)
{
	return (struct profil_sample){
		.image = 1 + i % 3, .object = 1 + i % 2,
		.offset = 0x1000 + 16 * (uint64_t)i,
		.count = (1ULL << 33) + i,
	};
}

/* Samples @from to @from + @n - 1; the payload's offset in the message. */
static size_t put_samples(struct nlmsghdr *nlh, unsigned int from,
			  unsigned int n)
{
	struct profil_sample s[128];
	struct nlattr *a = mnl_nlmsg_get_payload_tail(nlh);
	unsigned int i;

	assert_true(n <= 128);
	for (i = 0; i < n; i++)
		s[i] = sample_n(from + i);
	mnl_attr_put(nlh, PROFIL_ATTR_SAMPLES, n * sizeof(s[0]), s);
	return (size_t)((char *)mnl_attr_get_payload(a) - (char *)nlh);
}

static void put_profile_stats(struct nlmsghdr *nlh)
{
	struct nlattr *nest = mnl_attr_nest_start(nlh,
						  PROFIL_ATTR_PROFILE_STATS);

	mnl_attr_put(nlh, PROFIL_PROFILE_PAD, 0, NULL);
	mnl_attr_put_u64(nlh, PROFIL_PROFILE_IMAGES, 3);
	mnl_attr_put_u64(nlh, PROFIL_PROFILE_IMAGES_LOST, 2);
	mnl_attr_put_u64(nlh, PROFIL_PROFILE_OBJECTS, 2);
	mnl_attr_put_u64(nlh, PROFIL_PROFILE_SAMPLES, 105);
	mnl_attr_put_u64(nlh, PROFIL_PROFILE_BYTES, 14ULL << 20);
	mnl_attr_put_u64(nlh, PROFIL_PROFILE_MAX + 3, 77);	/* newer */
	mnl_attr_nest_end(nlh, nest);
}

/*
 * What the callbacks saw, in order: @log has one letter per call
 * (I image, O object, S samples, T stats). A callback returns @stop_with
 * at its call number @stop_at (from 1), else 0.
 */
struct seen {
	char log[64];
	unsigned int calls;
	unsigned int stop_at;
	int stop_with;

	struct profil_image img[4];
	uint64_t img_stats[4][PROFIL_STAT_MAX + 1];
	char comm[4][16];
	unsigned int nimg;

	struct profil_object obj[4];
	char path[4][64];
	unsigned int nobj;

	struct profil_sample s[256];
	unsigned int ns;
	size_t chunk[8];

	uint64_t stats[PROFIL_PROFILE_MAX + 1];
	size_t nstats;
};

static int seen_call(struct seen *w, char what)
{
	assert_true(w->calls < sizeof(w->log) - 1);
	w->log[w->calls++] = what;
	return w->calls == w->stop_at ? w->stop_with : 0;
}

static int image_cb(const struct profil_image *img, void *data)
{
	struct seen *w = data;

	assert_true(w->nimg < 4);
	assert_int_equal(img->nstats, PROFIL_STAT_MAX + 1);
	assert_non_null(img->stats);
	w->img[w->nimg] = *img;
	memcpy(w->img_stats[w->nimg], img->stats, sizeof(w->img_stats[0]));
	w->img[w->nimg].stats = w->img_stats[w->nimg];
	/* NUL-terminated within the array, whatever the kernel sent. */
	assert_non_null(memchr(img->comm, '\0', sizeof(img->comm)));
	strcpy(w->comm[w->nimg], img->comm);
	w->nimg++;
	return seen_call(w, 'I');
}

static int object_cb(const struct profil_object *obj, void *data)
{
	struct seen *w = data;

	assert_true(w->nobj < 4);
	assert_non_null(obj->path);
	assert_true(strlen(obj->path) < sizeof(w->path[0]));
	w->obj[w->nobj] = *obj;
	strcpy(w->path[w->nobj], obj->path);
	w->obj[w->nobj].path = w->path[w->nobj];
	w->nobj++;
	return seen_call(w, 'O');
}

static int samples_cb(const struct profil_sample *s, size_t n, void *data)
{
	struct seen *w = data;
	unsigned int calls = (unsigned int)strlen(w->log);
	unsigned int k = 0, i;

	for (i = 0; i < calls; i++)
		k += w->log[i] == 'S';
	assert_true(n > 0);
	assert_true(w->ns + n <= 256);
	assert_true(k < 8);
	w->chunk[k] = n;
	memcpy(&w->s[w->ns], s, n * sizeof(*s));
	w->ns += (unsigned int)n;
	return seen_call(w, 'S');
}

static int stats_cb(const uint64_t *stats, size_t n, void *data)
{
	struct seen *w = data;

	assert_int_equal(n, PROFIL_PROFILE_MAX + 1);
	memcpy(w->stats, stats, n * sizeof(*stats));
	w->nstats = n;
	return seen_call(w, 'T');
}

static const struct profil_profile_ops all_ops = {
	.image = image_cb,
	.object = object_cb,
	.samples = samples_cb,
	.stats = stats_cb,
};

static const struct image_in img1 = {
	.id = 1, .parent = 0, .pid = 4242, .exe = 1,
	.reason = PROFIL_STOP_EXEC, .comm = "profil-ctl", .stats = true,
};
static const struct image_in img2 = {
	.id = 2, .parent = 1, .pid = 4242, .exe = 2,
	.reason = PROFIL_STOP_EXIT, .comm = "workload", .stats = true,
	.cgroup = 0x1234567890ULL,
};
/* Only an ID: every other field is absent. */
static const struct image_in img3_min = { .id = 3 };

static const struct object_in obj1 = {
	.id = 1, .kind = PROFIL_OBJECT_FILE, .dev = 0x801,
	.generation = 7, .ino = 0x123456789aULL,
	.ctime = 1765000000123456789ULL, .path = "/usr/bin/profil-ctl",
};
static const struct object_in obj2 = {
	.id = 2, .kind = PROFIL_OBJECT_SPECIAL, .path = "[vdso]",
};

/*
 * A whole profile: two messages of images, one of objects, two of
 * samples (3 + 2 in the first, their payloads 4 bytes apart modulo 8;
 * 100 in the second, more than one callback call takes), the counters,
 * DONE.
 */
static void queue_profile(void)
{
	struct nlmsghdr *nlh;
	size_t a, b;

	expect_get_profile();
	nlh = profile_msg();
	put_image(nlh, &img1);
	put_image(nlh, &img2);
	mock_queue(nlh, false);
	nlh = profile_msg();
	put_image(nlh, &img3_min);
	mock_queue(nlh, false);

	nlh = profile_msg();
	put_object(nlh, &obj1);
	put_object(nlh, &obj2);
	mock_queue(nlh, false);

	nlh = profile_msg();
	mnl_attr_put(nlh, PROFIL_ATTR_MAX + 9, 0, NULL);	/* newer */
	a = put_samples(nlh, 0, 3);
	b = put_samples(nlh, 3, 2);
	/*
	 * The first attribute takes 4 + 72 bytes: one of the two payloads
	 * is not 8-byte aligned, wherever the receive buffer is.
	 */
	assert_int_equal((a ^ b) % 8, 4);
	mock_queue(nlh, false);
	nlh = profile_msg();
	put_samples(nlh, 5, 100);
	mock_queue(nlh, false);

	nlh = profile_msg();
	put_profile_stats(nlh);
	mock_queue(nlh, false);
	mock_queue_done(0);
}

static void assert_image(const struct seen *w, unsigned int i,
			 const struct image_in *in)
{
	const struct profil_image *img = &w->img[i];
	unsigned int k;

	assert_int_equal(img->id, in->id);
	assert_int_equal(img->parent, in->parent);
	assert_int_equal(img->pid, (pid_t)in->pid);
	assert_int_equal(img->exe, in->exe);
	assert_int_equal(img->reason, in->reason);
	assert_int_equal(img->cgroup, in->cgroup);
	assert_string_equal(w->comm[i], in->comm ? in->comm : "");
	for (k = 0; k <= PROFIL_STAT_MAX; k++) {
		uint64_t want = 0;

		if (in->stats && k == PROFIL_STAT_TICKS)
			want = 100 + in->id;
		else if (in->stats && k == PROFIL_STAT_IN_RANGE)
			want = 90 + in->id;
		else if (in->stats && k == PROFIL_STAT_MISSED)
			want = 3;
		else if (in->stats && k == PROFIL_STAT_PROFILE_FULL)
			want = 1ULL << 40;
		assert_int_equal(img->stats[k], want);
	}
}

static void assert_object(const struct seen *w, unsigned int i,
			  const struct object_in *in)
{
	const struct profil_object *obj = &w->obj[i];

	assert_int_equal(obj->id, in->id);
	assert_int_equal(obj->kind, in->kind);
	assert_int_equal(obj->dev, in->dev);
	assert_int_equal(obj->ino, in->ino);
	assert_int_equal(obj->generation, in->generation);
	assert_int_equal(obj->ctime_ns, in->ctime);
	assert_string_equal(obj->path, in->path ? in->path : "");
}

static void test_read_profile(void **state)
{
	struct profil_handle *h = open_handle();
	struct seen *w = calloc(1, sizeof(*w));
	unsigned int i;

	(void)state;
	assert_non_null(w);
	queue_profile();
	assert_int_equal(profil_profile_read(h, &all_ops, w), 0);

	/* Images, objects, the samples in 64-entry calls, the counters. */
	assert_string_equal(w->log, "IIIOOSSSST");
	assert_int_equal(w->nimg, 3);
	assert_image(w, 0, &img1);
	assert_image(w, 1, &img2);
	assert_image(w, 2, &img3_min);
	assert_int_equal(w->nobj, 2);
	assert_object(w, 0, &obj1);
	assert_object(w, 1, &obj2);

	assert_int_equal(w->ns, 105);
	assert_int_equal(w->chunk[0], 3);
	assert_int_equal(w->chunk[1], 2);
	assert_int_equal(w->chunk[2], 64);
	assert_int_equal(w->chunk[3], 36);
	for (i = 0; i < w->ns; i++) {
		struct profil_sample want = sample_n(i);

		assert_memory_equal(&w->s[i], &want, sizeof(want));
	}

	assert_int_equal(w->nstats, PROFIL_PROFILE_MAX + 1);
	assert_int_equal(w->stats[PROFIL_PROFILE_UNSPEC], 0);
	assert_int_equal(w->stats[PROFIL_PROFILE_PAD], 0);
	assert_int_equal(w->stats[PROFIL_PROFILE_IMAGES], 3);
	assert_int_equal(w->stats[PROFIL_PROFILE_IMAGES_LOST], 2);
	assert_int_equal(w->stats[PROFIL_PROFILE_OBJECTS], 2);
	assert_int_equal(w->stats[PROFIL_PROFILE_SAMPLES], 105);
	assert_int_equal(w->stats[PROFIL_PROFILE_BYTES], 14ULL << 20);
	free(w);
	profil_handle_close(h);
}

/* A NULL callback skips its part; all of them NULL reads the dump. */
static void test_read_null_callbacks(void **state)
{
	struct profil_handle *h = open_handle();
	const struct profil_profile_ops only_stats = { .stats = stats_cb };
	struct seen *w = calloc(1, sizeof(*w));

	(void)state;
	assert_non_null(w);
	queue_profile();
	assert_int_equal(profil_profile_read(h, &only_stats, w), 0);
	assert_string_equal(w->log, "T");
	assert_int_equal(w->stats[PROFIL_PROFILE_SAMPLES], 105);

	queue_profile();
	assert_int_equal(profil_profile_read(h, &no_ops, NULL), 0);
	free(w);
	profil_handle_close(h);
}

/* Attributes this version does not know, at every level: skipped. */
static void test_read_skips_unknown(void **state)
{
	struct profil_handle *h = open_handle();
	struct seen *w = calloc(1, sizeof(*w));
	struct nlattr *nest;
	struct nlmsghdr *nlh;

	(void)state;
	assert_non_null(w);
	expect_get_profile();
	nlh = profile_msg();
	mnl_attr_put_u32(nlh, PROFIL_ATTR_PAD, 0);
	mnl_attr_put_u64(nlh, PROFIL_ATTR_MAX + 7, 0xdead);	/* newer */
	mnl_attr_put_u32(nlh, PROFIL_ATTR_PID, 99);	/* not a part */
	nest = mnl_attr_nest_start(nlh, PROFIL_ATTR_IMAGE);
	mnl_attr_put_u64(nlh, PROFIL_IMAGE_MAX + 1, 1);
	mnl_attr_put_u32(nlh, PROFIL_IMAGE_ID, 5);
	mnl_attr_put_strz(nlh, PROFIL_IMAGE_MAX + 4, "not a comm");
	mnl_attr_put_u32(nlh, PROFIL_IMAGE_PID, 77);
	mnl_attr_nest_end(nlh, nest);
	nest = mnl_attr_nest_start(nlh, PROFIL_ATTR_OBJECT);
	mnl_attr_put_u32(nlh, PROFIL_OBJECT_ID, 6);
	mnl_attr_put(nlh, PROFIL_OBJECT_MAX + 2, 3, "abc");
	mnl_attr_put_strz(nlh, PROFIL_OBJECT_PATH, "/bin/true");
	mnl_attr_nest_end(nlh, nest);
	mock_queue(nlh, false);
	nlh = profile_msg();
	nest = mnl_attr_nest_start(nlh, PROFIL_ATTR_PROFILE_STATS);
	mnl_attr_put_u32(nlh, PROFIL_PROFILE_MAX + 1, 1);	/* any width */
	mnl_attr_put_u64(nlh, PROFIL_PROFILE_IMAGES, 1);
	mnl_attr_nest_end(nlh, nest);
	mock_queue(nlh, false);
	mock_queue_done(0);

	assert_int_equal(profil_profile_read(h, &all_ops, w), 0);
	assert_string_equal(w->log, "IOT");
	assert_int_equal(w->img[0].id, 5);
	assert_int_equal(w->img[0].pid, 77);
	assert_string_equal(w->comm[0], "");
	assert_int_equal(w->obj[0].id, 6);
	assert_string_equal(w->path[0], "/bin/true");
	assert_int_equal(w->stats[PROFIL_PROFILE_IMAGES], 1);
	free(w);
	profil_handle_close(h);
}

/* A command name longer than struct profil_image's: cut, terminated. */
static void test_read_long_comm(void **state)
{
	struct profil_handle *h = open_handle();
	struct image_in in = { .id = 1, .comm = "a-command-name-of-30-bytes-xyz" };
	struct seen *w = calloc(1, sizeof(*w));
	struct nlmsghdr *nlh;

	(void)state;
	assert_non_null(w);
	expect_get_profile();
	nlh = profile_msg();
	put_image(nlh, &in);
	mock_queue(nlh, false);
	mock_queue_done(0);
	assert_int_equal(profil_profile_read(h, &all_ops, w), 0);
	assert_string_equal(w->comm[0], "a-command-name-");
	free(w);
	profil_handle_close(h);
}

/*
 * Malformed messages: -1 with EPROTO, none of the part's callback. The
 * dump is abandoned, so nothing is queued after the bad message.
 */
enum bad {
	BAD_SAMPLES_LEN,
	BAD_SAMPLES_SHORT,
	BAD_IMAGE_NO_ID,
	BAD_IMAGE_COMM,
	BAD_IMAGE_PID_WIDTH,
	BAD_IMAGE_STATS,
	BAD_OBJECT_NO_ID,
	BAD_OBJECT_PATH,
	BAD_OBJECT_INO_WIDTH,
	BAD_PROFILE_STATS,
	BAD_MAX,
};

static struct nlmsghdr *bad_msg(enum bad bad)
{
	struct nlmsghdr *nlh = profile_msg();
	struct profil_sample s[2] = { sample_n(0), sample_n(1) };
	struct nlattr *nest, *st;

	switch (bad) {
	case BAD_SAMPLES_LEN:
		mnl_attr_put(nlh, PROFIL_ATTR_SAMPLES, sizeof(s) + 1, s);
		break;
	case BAD_SAMPLES_SHORT:
		mnl_attr_put(nlh, PROFIL_ATTR_SAMPLES, sizeof(s[0]) - 8, s);
		break;
	case BAD_IMAGE_NO_ID:
		nest = mnl_attr_nest_start(nlh, PROFIL_ATTR_IMAGE);
		mnl_attr_put_u32(nlh, PROFIL_IMAGE_PID, 1);
		mnl_attr_put_strz(nlh, PROFIL_IMAGE_COMM, "init");
		mnl_attr_nest_end(nlh, nest);
		break;
	case BAD_IMAGE_COMM:
		nest = mnl_attr_nest_start(nlh, PROFIL_ATTR_IMAGE);
		mnl_attr_put_u32(nlh, PROFIL_IMAGE_ID, 1);
		mnl_attr_put(nlh, PROFIL_IMAGE_COMM, 4, "init");	/* no NUL */
		mnl_attr_nest_end(nlh, nest);
		break;
	case BAD_IMAGE_PID_WIDTH:
		nest = mnl_attr_nest_start(nlh, PROFIL_ATTR_IMAGE);
		mnl_attr_put_u32(nlh, PROFIL_IMAGE_ID, 1);
		mnl_attr_put_u64(nlh, PROFIL_IMAGE_PID, 1);
		mnl_attr_nest_end(nlh, nest);
		break;
	case BAD_IMAGE_STATS:
		nest = mnl_attr_nest_start(nlh, PROFIL_ATTR_IMAGE);
		mnl_attr_put_u32(nlh, PROFIL_IMAGE_ID, 1);
		st = mnl_attr_nest_start(nlh, PROFIL_IMAGE_STATS);
		mnl_attr_put_u32(nlh, PROFIL_STAT_TICKS, 1);	/* a u64 */
		mnl_attr_nest_end(nlh, st);
		mnl_attr_nest_end(nlh, nest);
		break;
	case BAD_OBJECT_NO_ID:
		nest = mnl_attr_nest_start(nlh, PROFIL_ATTR_OBJECT);
		mnl_attr_put_strz(nlh, PROFIL_OBJECT_PATH, "/bin/true");
		mnl_attr_nest_end(nlh, nest);
		break;
	case BAD_OBJECT_PATH:
		nest = mnl_attr_nest_start(nlh, PROFIL_ATTR_OBJECT);
		mnl_attr_put_u32(nlh, PROFIL_OBJECT_ID, 1);
		mnl_attr_put(nlh, PROFIL_OBJECT_PATH, 8, "/bin/sh!");
		mnl_attr_nest_end(nlh, nest);
		break;
	case BAD_OBJECT_INO_WIDTH:
		nest = mnl_attr_nest_start(nlh, PROFIL_ATTR_OBJECT);
		mnl_attr_put_u32(nlh, PROFIL_OBJECT_ID, 1);
		mnl_attr_put_u32(nlh, PROFIL_OBJECT_INO, 1);	/* a u64 */
		mnl_attr_nest_end(nlh, nest);
		break;
	case BAD_PROFILE_STATS:
		nest = mnl_attr_nest_start(nlh, PROFIL_ATTR_PROFILE_STATS);
		mnl_attr_put_u32(nlh, PROFIL_PROFILE_IMAGES, 1);  /* a u64 */
		mnl_attr_nest_end(nlh, nest);
		break;
	case BAD_MAX:
		break;
	}
	return nlh;
}

static void test_read_malformed(void **state)
{
	struct profil_handle *h = open_handle();
	struct seen *w = calloc(1, sizeof(*w));
	int bad;

	(void)state;
	assert_non_null(w);
	for (bad = 0; bad < BAD_MAX; bad++) {
		memset(w, 0, sizeof(*w));
		expect_get_profile();
		mock_queue(bad_msg(bad), false);
		pf_err_set(EFAULT, "an earlier failure");
		errno = 0;
		if (profil_profile_read(h, &all_ops, w) != -1)
			fail_msg("case %d: read did not fail", bad);
		if (errno != EPROTO)
			fail_msg("case %d: errno %d", bad, errno);
		assert_string_equal(profil_strerror(), strerror(EPROTO));
		assert_null(profil_last_extack());
		if (w->calls)
			fail_msg("case %d: callbacks \"%s\"", bad, w->log);
	}
	/* The samples' length is checked with no samples callback too. */
	expect_get_profile();
	mock_queue(bad_msg(BAD_SAMPLES_LEN), false);
	assert_int_equal(profil_profile_read(h, &no_ops, NULL), -1);
	assert_int_equal(errno, EPROTO);

	/* The handle still works. */
	memset(w, 0, sizeof(*w));
	queue_profile();
	assert_int_equal(profil_profile_read(h, &all_ops, w), 0);
	assert_string_equal(w->log, "IIIOOSSSST");
	free(w);
	profil_handle_close(h);
}

/*
 * A callback's non-zero value stops the calls, the rest of the dump is
 * read and discarded (every queued message consumed: cmocka fails a test
 * that leaves any), and the value is returned, 1 for a negative one.
 */
static void test_read_callback_stops(void **state)
{
	static const struct {
		unsigned int stop_at;
		int stop_with;
		int ret;
		const char *log;
	} cases[] = {
		{ 1, 7, 7, "I" },		/* not the next in its message */
		{ 2, 2, 2, "II" },		/* nor the next message's */
		{ 3, 3, 3, "III" },
		{ 5, -1, 1, "IIIOO" },
		{ 6, INT_MIN, 1, "IIIOOS" },	/* samples, first attribute */
		{ 8, 42, 42, "IIIOOSSS" },	/* the first of two calls */
		{ 10, -5, 1, "IIIOOSSSST" },	/* the counters, last */
		{ 10, INT_MAX, INT_MAX, "IIIOOSSSST" },
	};
	struct profil_handle *h = open_handle();
	struct seen *w = calloc(1, sizeof(*w));
	size_t i;

	(void)state;
	assert_non_null(w);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		memset(w, 0, sizeof(*w));
		w->stop_at = cases[i].stop_at;
		w->stop_with = cases[i].stop_with;
		queue_profile();
		pf_err_set(EFAULT, "an earlier failure");
		errno = 0;
		assert_int_equal(profil_profile_read(h, &all_ops, w),
				 cases[i].ret);
		assert_string_equal(w->log, cases[i].log);
		assert_int_equal(errno, 0);	/* no failure of the library */
	}
	free(w);
	profil_handle_close(h);
}

/* The kernel's refusal, and an error at the dump's end. */
static void test_read_errors(void **state)
{
	struct profil_handle *h = open_handle();
	struct seen *w = calloc(1, sizeof(*w));
	struct nlmsghdr *nlh;

	(void)state;
	assert_non_null(w);
	expect_get_profile();
	mock_queue_error(ENOENT, "profil: this socket collects nothing",
			 true);
	assert_int_equal(profil_profile_read(h, &all_ops, w), -1);
	assert_int_equal(errno, ENOENT);
	assert_string_equal(profil_strerror(),
			    "profil: this socket collects nothing");
	assert_int_equal(w->calls, 0);

	expect_get_profile();
	nlh = profile_msg();
	put_image(nlh, &img1);
	mock_queue(nlh, false);
	mock_queue_done(EMSGSIZE);
	assert_int_equal(profil_profile_read(h, &all_ops, w), -1);
	assert_int_equal(errno, EMSGSIZE);
	assert_string_equal(w->log, "I");
	free(w);
	profil_handle_close(h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_collect_all_attrs, setup),
		cmocka_unit_test_setup(test_collect_defaults_and_error, setup),
		cmocka_unit_test_setup(test_collect_machine, setup),
		cmocka_unit_test_setup(test_null_args, setup),
		cmocka_unit_test_setup(test_read_profile, setup),
		cmocka_unit_test_setup(test_read_null_callbacks, setup),
		cmocka_unit_test_setup(test_read_skips_unknown, setup),
		cmocka_unit_test_setup(test_read_long_comm, setup),
		cmocka_unit_test_setup(test_read_malformed, setup),
		cmocka_unit_test_setup(test_read_callback_stops, setup),
		cmocka_unit_test_setup(test_read_errors, setup),
	};

	return cmocka_run_group_tests_name("libprofil kernel-held profiles",
					   tests, NULL, NULL);
}
