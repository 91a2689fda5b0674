// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Kernel-held profiles: COLLECT, and the GET_PROFILE dump read back as
 * images, objects, samples and the profile's counters.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdbool.h>
#include <string.h>
#include <libmnl/libmnl.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>

#include "profil.h"
#include "internal.h"

/* The attributes both COLLECTs take; zeros are the kernel's defaults. */
static void pf_put_collect(struct nlmsghdr *nlh, uint32_t rate,
			   uint32_t flags, uint32_t images_max,
			   uint32_t samples_max)
{
	if (rate)
		mnl_attr_put_u32(nlh, PROFIL_ATTR_RATE, rate);
	if (flags)
		mnl_attr_put_u32(nlh, PROFIL_ATTR_FLAGS, flags);
	if (images_max)
		mnl_attr_put_u32(nlh, PROFIL_ATTR_IMAGES_MAX, images_max);
	if (samples_max)
		mnl_attr_put_u32(nlh, PROFIL_ATTR_SAMPLES_MAX, samples_max);
}

PROFIL_EXPORT int profil_collect(struct profil_handle *h,
				 const struct profil_collect_params *p)
{
	struct nlmsghdr *nlh;

	if (pf_check_handle_arg(h, p) < 0)
		return -1;
	nlh = pf_nl_request(&h->nl, PROFIL_CMD_COLLECT, NLM_F_ACK);
	if (p->pid)
		mnl_attr_put_u32(nlh, PROFIL_ATTR_PID, (uint32_t)p->pid);
	pf_put_collect(nlh, p->rate, p->flags, p->images_max, p->samples_max);
	return pf_nl_talk(&h->nl, nlh, NULL, NULL);
}

PROFIL_EXPORT int profil_collect_machine(struct profil_handle *h,
					 const struct profil_machine_params *p)
{
	struct nlmsghdr *nlh;

	if (pf_check_handle_arg(h, p) < 0)
		return -1;
	nlh = pf_nl_request(&h->nl, PROFIL_CMD_COLLECT, NLM_F_ACK);
	mnl_attr_put_u32(nlh, PROFIL_ATTR_SCOPE,
			 p->cgroup_fd >= 0 ? PROFIL_SCOPE_CGROUP :
					     PROFIL_SCOPE_MACHINE);
	if (p->cgroup_fd >= 0)
		mnl_attr_put_u32(nlh, PROFIL_ATTR_CGROUP_FD,
				 (uint32_t)p->cgroup_fd);
	pf_put_collect(nlh, p->rate, p->flags, p->images_max, p->samples_max);
	return pf_nl_talk(&h->nl, nlh, NULL, NULL);
}

/* One read: the caller's callbacks and where the walk stands. */
struct pf_profile_read {
	const struct profil_profile_ops *ops;
	void *data;
	int stopped;	/* a callback's non-zero value: the rest is drained */
	bool bad;	/* a malformed message: the read fails with EPROTO */
};

static int pf_bad(struct pf_profile_read *r)
{
	r->bad = true;
	return -1;
}

/* The attributes of one nest, by type, up to @max; -1: malformed. */
struct pf_nest {
	const struct nlattr **tb;
	unsigned int max;
};

static int pf_nest_cb(const struct nlattr *attr, void *data)
{
	const struct pf_nest *n = data;
	unsigned int type = mnl_attr_get_type(attr);

	if (type <= 1 || type > n->max)
		return MNL_CB_OK;	/* UNSPEC, PAD, or newer: skip */
	n->tb[type] = attr;
	return MNL_CB_OK;
}

static int pf_parse_nest(const struct nlattr *nest, const struct nlattr **tb,
			 unsigned int max)
{
	struct pf_nest n = { tb, max };

	return mnl_attr_parse_nested(nest, pf_nest_cb, &n) < 0 ? -1 : 0;
}

/* @a is a u32 (u64) attribute, or absent: its value, else 0. */
static int pf_get_u32(const struct nlattr *a, uint32_t *v)
{
	if (!a)
		return 0;
	if (mnl_attr_validate(a, MNL_TYPE_U32) < 0)
		return -1;
	*v = mnl_attr_get_u32(a);
	return 0;
}

static int pf_get_u64(const struct nlattr *a, uint64_t *v)
{
	if (!a)
		return 0;
	if (mnl_attr_validate(a, MNL_TYPE_U64) < 0)
		return -1;
	*v = mnl_attr_get_u64(a);
	return 0;
}

static int pf_image(struct pf_profile_read *r, const struct nlattr *nest)
{
	const struct nlattr *tb[PROFIL_IMAGE_MAX + 1] = { 0 };
	uint64_t stats[PROFIL_STAT_MAX + 1] = { 0 };
	struct profil_image img = { .stats = stats,
				    .nstats = PROFIL_STAT_MAX + 1 };
	uint32_t pid = 0;

	if (pf_parse_nest(nest, tb, PROFIL_IMAGE_MAX) < 0 ||
	    !tb[PROFIL_IMAGE_ID] ||
	    pf_get_u32(tb[PROFIL_IMAGE_ID], &img.id) < 0 ||
	    pf_get_u32(tb[PROFIL_IMAGE_PARENT], &img.parent) < 0 ||
	    pf_get_u32(tb[PROFIL_IMAGE_PID], &pid) < 0 ||
	    pf_get_u32(tb[PROFIL_IMAGE_EXE], &img.exe) < 0 ||
	    pf_get_u32(tb[PROFIL_IMAGE_REASON], &img.reason) < 0 ||
	    pf_get_u64(tb[PROFIL_IMAGE_CGROUP], &img.cgroup) < 0)
		return pf_bad(r);
	img.pid = (pid_t)pid;
	if (tb[PROFIL_IMAGE_COMM]) {
		if (mnl_attr_validate(tb[PROFIL_IMAGE_COMM],
				      MNL_TYPE_NUL_STRING) < 0)
			return pf_bad(r);
		strncpy(img.comm, mnl_attr_get_str(tb[PROFIL_IMAGE_COMM]),
			sizeof(img.comm) - 1);
	}
	if (tb[PROFIL_IMAGE_STATS] &&
	    pf_nl_parse_counters(tb[PROFIL_IMAGE_STATS], stats,
				 PROFIL_STAT_MAX + 1) < 0)
		return pf_bad(r);
	return r->ops->image ? r->ops->image(&img, r->data) : 0;
}

static int pf_object(struct pf_profile_read *r, const struct nlattr *nest)
{
	const struct nlattr *tb[PROFIL_OBJECT_MAX + 1] = { 0 };
	struct profil_object obj = { .path = "" };

	if (pf_parse_nest(nest, tb, PROFIL_OBJECT_MAX) < 0 ||
	    !tb[PROFIL_OBJECT_ID] ||
	    pf_get_u32(tb[PROFIL_OBJECT_ID], &obj.id) < 0 ||
	    pf_get_u32(tb[PROFIL_OBJECT_KIND], &obj.kind) < 0 ||
	    pf_get_u32(tb[PROFIL_OBJECT_DEV], &obj.dev) < 0 ||
	    pf_get_u64(tb[PROFIL_OBJECT_INO], &obj.ino) < 0 ||
	    pf_get_u32(tb[PROFIL_OBJECT_GENERATION], &obj.generation) < 0 ||
	    pf_get_u64(tb[PROFIL_OBJECT_CTIME], &obj.ctime_ns) < 0)
		return pf_bad(r);
	if (tb[PROFIL_OBJECT_PATH]) {
		if (mnl_attr_validate(tb[PROFIL_OBJECT_PATH],
				      MNL_TYPE_NUL_STRING) < 0)
			return pf_bad(r);
		obj.path = mnl_attr_get_str(tb[PROFIL_OBJECT_PATH]);
	}
	return r->ops->object ? r->ops->object(&obj, r->data) : 0;
}

static int pf_samples(struct pf_profile_read *r, const struct nlattr *a)
{
	size_t len = mnl_attr_get_payload_len(a);
	struct profil_sample s[64];
	const char *p = mnl_attr_get_payload(a);
	size_t n;
	int ret;

	if (len % sizeof(*s))
		return pf_bad(r);
	if (!r->ops->samples)
		return 0;
	/* Copied out in chunks: the payload is only 4-byte aligned. */
	for (; len; p += n * sizeof(*s), len -= n * sizeof(*s)) {
		n = len / sizeof(*s) < 64 ? len / sizeof(*s) : 64;
		memcpy(s, p, n * sizeof(*s));
		ret = r->ops->samples(s, n, r->data);
		if (ret)
			return ret;
	}
	return 0;
}

static int pf_stats(struct pf_profile_read *r, const struct nlattr *a)
{
	uint64_t v[PROFIL_PROFILE_MAX + 1] = { 0 };

	if (pf_nl_parse_counters(a, v, PROFIL_PROFILE_MAX + 1) < 0)
		return pf_bad(r);
	return r->ops->stats ? r->ops->stats(v, PROFIL_PROFILE_MAX + 1,
					     r->data) : 0;
}

/* One message of the dump: a callback's value stops the walk. */
static int pf_profile_cb(const struct nlmsghdr *nlh, void *data)
{
	struct pf_profile_read *r = data;
	const struct nlattr *a;
	int ret = 0;

	if (r->stopped)
		return MNL_CB_OK;	/* drain the rest of the dump */
	mnl_attr_for_each(a, nlh, sizeof(struct genlmsghdr)) {
		switch (mnl_attr_get_type(a)) {
		case PROFIL_ATTR_IMAGE:
			ret = pf_image(r, a);
			break;
		case PROFIL_ATTR_OBJECT:
			ret = pf_object(r, a);
			break;
		case PROFIL_ATTR_SAMPLES:
			ret = pf_samples(r, a);
			break;
		case PROFIL_ATTR_PROFILE_STATS:
			ret = pf_stats(r, a);
			break;
		default:
			continue;	/* newer attributes: skip */
		}
		if (ret)
			break;
	}
	if (r->bad) {
		pf_err_set(EPROTO, NULL);
		return MNL_CB_ERROR;
	}
	r->stopped = ret;
	return MNL_CB_OK;
}

PROFIL_EXPORT int profil_profile_read(struct profil_handle *h,
				      const struct profil_profile_ops *ops,
				      void *data)
{
	struct pf_profile_read r = { .ops = ops, .data = data };

	if (pf_check_handle_arg(h, ops) < 0)
		return -1;
	return pf_nl_dump(&h->nl, PROFIL_CMD_GET_PROFILE, pf_profile_cb, &r,
			  &r.stopped);
}
