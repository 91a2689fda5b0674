// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Region sets: the opaque object of the extended API, and its netlink
 * form (one PROFIL_ATTR_REGION nest per region, at the top level).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <libmnl/libmnl.h>
#include <linux/genetlink.h>

#include "profil.h"
#include "internal.h"

struct pf_region {
	uint64_t buf;
	uint64_t size;
	uint64_t offset;
	uint32_t scale;
};

struct profil_regions {
	struct pf_region *v;
	size_t n;
	size_t cap;
	uint32_t counter;
	uint32_t mode;
};

PROFIL_EXPORT struct profil_regions *profil_regions_alloc(void)
{
	struct profil_regions *r;

	pf_err_clear();
	r = calloc(1, sizeof(*r));
	if (!r)
		pf_err_set(ENOMEM, NULL);
	return r;
}

PROFIL_EXPORT void profil_regions_free(struct profil_regions *r)
{
	if (!r)
		return;
	free(r->v);
	free(r);
}

PROFIL_EXPORT int profil_regions_add(struct profil_regions *r, uint64_t buf,
				     uint64_t size, uint64_t offset,
				     uint32_t scale)
{
	struct pf_region *v;
	size_t cap;

	pf_err_clear();
	if (!r || !size) {
		pf_err_set(EINVAL, NULL);
		return -1;
	}
	if (r->n >= PROFIL_REGIONS_MAX) {
		pf_err_set(E2BIG, "a set holds at most PROFIL_REGIONS_MAX regions");
		return -1;
	}
	if (r->n == r->cap) {
		cap = r->cap ? 2 * r->cap : 16;
		v = realloc(r->v, cap * sizeof(*v));
		if (!v) {
			pf_err_set(ENOMEM, NULL);
			return -1;
		}
		r->v = v;
		r->cap = cap;
	}
	r->v[r->n++] = (struct pf_region){ buf, size, offset, scale };
	return 0;
}

PROFIL_EXPORT size_t profil_regions_count(const struct profil_regions *r)
{
	return r ? r->n : 0;
}

PROFIL_EXPORT int profil_regions_get(const struct profil_regions *r, size_t i,
				     uint64_t *buf, uint64_t *size,
				     uint64_t *offset, uint32_t *scale)
{
	pf_err_clear();
	if (!r) {
		pf_err_set(EINVAL, NULL);
		return -1;
	}
	if (i >= r->n) {
		pf_err_set(ERANGE, NULL);
		return -1;
	}
	if (buf)
		*buf = r->v[i].buf;
	if (size)
		*size = r->v[i].size;
	if (offset)
		*offset = r->v[i].offset;
	if (scale)
		*scale = r->v[i].scale;
	return 0;
}

PROFIL_EXPORT int profil_regions_set_counter(struct profil_regions *r,
					     uint32_t counter)
{
	pf_err_clear();
	if (!r || counter > PROFIL_COUNTER_MAX) {
		pf_err_set(EINVAL, NULL);
		return -1;
	}
	r->counter = counter;
	return 0;
}

PROFIL_EXPORT int profil_regions_set_mode(struct profil_regions *r,
					  uint32_t mode)
{
	pf_err_clear();
	if (!r || mode > PROFIL_MODE_MAX) {
		pf_err_set(EINVAL, NULL);
		return -1;
	}
	r->mode = mode;
	return 0;
}

PROFIL_EXPORT uint32_t profil_regions_counter(const struct profil_regions *r)
{
	return r ? r->counter : PROFIL_COUNTER_U16;
}

PROFIL_EXPORT uint32_t profil_regions_mode(const struct profil_regions *r)
{
	return r ? r->mode : PROFIL_MODE_WRAP;
}

/*
 * Netlink form. A region nest is 4 + 3 * 12 + 8 bytes; the message is
 * sized for the set, so that one request carries all of it (the kernel
 * takes up to its socket's send buffer, 212992 bytes by default, which
 * PROFIL_REGIONS_MAX regions fit).
 */
#define PF_REGION_NEST_LEN						\
	(MNL_ATTR_HDRLEN + 3 * MNL_ALIGN(MNL_ATTR_HDRLEN + sizeof(uint64_t)) + \
	 MNL_ALIGN(MNL_ATTR_HDRLEN + sizeof(uint32_t)))

size_t pf_regions_msg_len(const struct profil_regions *r)
{
	return PF_NL_HDRS_LEN + r->n * PF_REGION_NEST_LEN;
}

void pf_regions_put(struct nlmsghdr *nlh, const struct profil_regions *r)
{
	struct nlattr *nest;
	size_t i;

	for (i = 0; i < r->n; i++) {
		nest = mnl_attr_nest_start(nlh, PROFIL_ATTR_REGION);
		mnl_attr_put_u64(nlh, PROFIL_REGION_BUF, r->v[i].buf);
		mnl_attr_put_u64(nlh, PROFIL_REGION_SIZE, r->v[i].size);
		mnl_attr_put_u64(nlh, PROFIL_REGION_OFFSET, r->v[i].offset);
		mnl_attr_put_u32(nlh, PROFIL_REGION_SCALE, r->v[i].scale);
		mnl_attr_nest_end(nlh, nest);
	}
}

struct pf_region_tb {
	const struct nlattr *tb[PROFIL_REGION_MAX + 1];
};

static int pf_region_attr_cb(const struct nlattr *attr, void *data)
{
	struct pf_region_tb *t = data;
	int type = mnl_attr_get_type(attr);

	if (mnl_attr_type_valid(attr, PROFIL_REGION_MAX) < 0)
		return MNL_CB_OK;	/* newer than us: skip */
	if (type == PROFIL_REGION_SCALE) {
		if (mnl_attr_validate(attr, MNL_TYPE_U32) < 0)
			return MNL_CB_ERROR;
	} else if (type != PROFIL_REGION_PAD &&
		   mnl_attr_validate(attr, MNL_TYPE_U64) < 0) {
		return MNL_CB_ERROR;
	}
	t->tb[type] = attr;
	return MNL_CB_OK;
}

static int pf_regions_msg_attr_cb(const struct nlattr *attr, void *data)
{
	struct profil_regions *r = data;
	struct pf_region_tb t = { { NULL } };

	if (mnl_attr_get_type(attr) != PROFIL_ATTR_REGION)
		return MNL_CB_OK;
	if (mnl_attr_validate(attr, MNL_TYPE_NESTED) < 0 ||
	    mnl_attr_parse_nested(attr, pf_region_attr_cb, &t) < 0 ||
	    !t.tb[PROFIL_REGION_BUF] || !t.tb[PROFIL_REGION_SIZE] ||
	    !t.tb[PROFIL_REGION_OFFSET] || !t.tb[PROFIL_REGION_SCALE]) {
		errno = EPROTO;
		return MNL_CB_ERROR;
	}
	/* Sets errno: E2BIG or ENOMEM. */
	if (profil_regions_add(r, mnl_attr_get_u64(t.tb[PROFIL_REGION_BUF]),
			       mnl_attr_get_u64(t.tb[PROFIL_REGION_SIZE]),
			       mnl_attr_get_u64(t.tb[PROFIL_REGION_OFFSET]),
			       mnl_attr_get_u32(t.tb[PROFIL_REGION_SCALE])) < 0)
		return MNL_CB_ERROR;
	return MNL_CB_OK;
}

/* The set's rules in a GET reply; absent (an older kernel): the defaults. */
static int pf_rules_attr_cb(const struct nlattr *attr, void *data)
{
	struct profil_regions *r = data;
	int type = mnl_attr_get_type(attr);

	if (type != PROFIL_ATTR_COUNTER && type != PROFIL_ATTR_MODE)
		return MNL_CB_OK;
	if (mnl_attr_validate(attr, MNL_TYPE_U32) < 0) {
		errno = EPROTO;
		return MNL_CB_ERROR;
	}
	if (type == PROFIL_ATTR_COUNTER)
		r->counter = mnl_attr_get_u32(attr);
	else
		r->mode = mnl_attr_get_u32(attr);
	return MNL_CB_OK;
}

static int pf_regions_parse_with(const struct nlmsghdr *nlh,
				 mnl_attr_cb_t cb, struct profil_regions *r)
{
	errno = EPROTO;
	if (mnl_nlmsg_get_payload_len(nlh) < sizeof(struct genlmsghdr) ||
	    mnl_attr_parse(nlh, sizeof(struct genlmsghdr), cb, r) < 0) {
		pf_err_set(errno, NULL);
		return -1;
	}
	return 0;
}

int pf_regions_parse(const struct nlmsghdr *nlh, struct profil_regions *r)
{
	return pf_regions_parse_with(nlh, pf_regions_msg_attr_cb, r);
}

int pf_regions_parse_rules(const struct nlmsghdr *nlh,
			   struct profil_regions *r)
{
	return pf_regions_parse_with(nlh, pf_rules_attr_cb, r);
}
