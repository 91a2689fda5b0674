/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A minimal client of the profil generic netlink family for the selftests.
 * It speaks the wire protocol directly (libmnl only), so that the tests
 * check the kernel, not libprofil.
 */
#ifndef PROFIL_SELFTEST_NL_H
#define PROFIL_SELFTEST_NL_H

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <libmnl/libmnl.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <linux/profil.h>

struct pnl {
	struct mnl_socket *sock;
	uint16_t family;
	uint32_t seq;
	char extack[256];
};

struct pnl_start {
	uint64_t buf, bufsiz, offset;
	uint32_t scale, rate, flags;
	uint32_t pid;		/* 0: the caller */
	bool no_rate;		/* leave PROFIL_ATTR_RATE out */
};

struct pnl_status {
	uint32_t pid, scale, rate, flags, state, reason;
	uint32_t counter, mode, nr_regions, kind;
	uint64_t buf, bufsiz, offset, fault_addr;
	uint64_t stats[PROFIL_STAT_MAX + 1];
	uint32_t present;	/* 1 << PROFIL_ATTR_* of each attribute sent */
};

/* Whether @st's message carried attribute @type. */
#define PNL_HAS(st, type)	(!!((st)->present & (1U << (type))))

typedef void (*pnl_dump_cb)(const struct pnl_status *st, void *data);

/* One region of a set, as glibc's struct prof. */
struct pnl_region {
	uint64_t buf, size, offset;
	uint32_t scale;
};

typedef void (*pnl_region_cb)(const struct pnl_region *r, void *data);

struct pnl_reply {
	struct pnl *nl;
	struct pnl_status *status;
	pnl_dump_cb dump_cb;
	pnl_region_cb region_cb;
	void *dump_data;
	unsigned int msgs;	/* data messages received */
	bool intr;		/* one of them had NLM_F_DUMP_INTR */
	int grp_id;
	const char *grp_name;
	uint16_t family;
	uint32_t version;
};

static inline int pnl_stats_cb(const struct nlattr *attr, void *data)
{
	struct pnl_status *st = data;
	int type = mnl_attr_get_type(attr);

	if (type > PROFIL_STAT_PAD && type <= PROFIL_STAT_MAX)
		st->stats[type] = mnl_attr_get_u64(attr);
	return MNL_CB_OK;
}

static inline int pnl_attr_cb(const struct nlattr *attr, void *data)
{
	struct pnl_status *st = data;

	if (mnl_attr_get_type(attr) < 32)
		st->present |= 1U << mnl_attr_get_type(attr);
	switch (mnl_attr_get_type(attr)) {
	case PROFIL_ATTR_PID: st->pid = mnl_attr_get_u32(attr); break;
	case PROFIL_ATTR_BUF: st->buf = mnl_attr_get_u64(attr); break;
	case PROFIL_ATTR_BUFSIZ: st->bufsiz = mnl_attr_get_u64(attr); break;
	case PROFIL_ATTR_OFFSET: st->offset = mnl_attr_get_u64(attr); break;
	case PROFIL_ATTR_SCALE: st->scale = mnl_attr_get_u32(attr); break;
	case PROFIL_ATTR_RATE: st->rate = mnl_attr_get_u32(attr); break;
	case PROFIL_ATTR_FLAGS: st->flags = mnl_attr_get_u32(attr); break;
	case PROFIL_ATTR_STATE: st->state = mnl_attr_get_u32(attr); break;
	case PROFIL_ATTR_REASON: st->reason = mnl_attr_get_u32(attr); break;
	case PROFIL_ATTR_FAULT_ADDR:
		st->fault_addr = mnl_attr_get_u64(attr);
		break;
	case PROFIL_ATTR_STATS:
		mnl_attr_parse_nested(attr, pnl_stats_cb, st);
		break;
	case PROFIL_ATTR_COUNTER: st->counter = mnl_attr_get_u32(attr); break;
	case PROFIL_ATTR_MODE: st->mode = mnl_attr_get_u32(attr); break;
	case PROFIL_ATTR_NR_REGIONS:
		st->nr_regions = mnl_attr_get_u32(attr);
		break;
	case PROFIL_ATTR_KIND: st->kind = mnl_attr_get_u32(attr); break;
	}
	return MNL_CB_OK;
}

static inline int pnl_region_attr_cb(const struct nlattr *attr, void *data)
{
	struct pnl_region *reg = data;

	switch (mnl_attr_get_type(attr)) {
	case PROFIL_REGION_BUF: reg->buf = mnl_attr_get_u64(attr); break;
	case PROFIL_REGION_SIZE: reg->size = mnl_attr_get_u64(attr); break;
	case PROFIL_REGION_OFFSET: reg->offset = mnl_attr_get_u64(attr); break;
	case PROFIL_REGION_SCALE: reg->scale = mnl_attr_get_u32(attr); break;
	}
	return MNL_CB_OK;
}

struct pnl_reply;
static inline int pnl_region_list_cb(const struct nlattr *attr, void *data);

static inline int pnl_data_cb(const struct nlmsghdr *nlh, void *data)
{
	struct pnl_reply *r = data;
	struct pnl_status st;

	r->msgs++;
	if (nlh->nlmsg_flags & NLM_F_DUMP_INTR)
		r->intr = true;
	if (r->region_cb) {
		mnl_attr_parse(nlh, sizeof(struct genlmsghdr), pnl_region_list_cb,
			       r);
	} else if (r->dump_cb) {
		memset(&st, 0, sizeof(st));
		mnl_attr_parse(nlh, sizeof(struct genlmsghdr), pnl_attr_cb,
			       &st);
		r->dump_cb(&st, r->dump_data);
	} else if (r->status) {
		mnl_attr_parse(nlh, sizeof(struct genlmsghdr), pnl_attr_cb,
			       r->status);
	}
	return MNL_CB_OK;
}

static inline int pnl_grp_cb(const struct nlattr *attr, void *data)
{
	struct pnl_reply *r = data;
	struct nlattr *a;
	const char *name = NULL;
	int id = -1;

	mnl_attr_for_each_nested(a, attr) {
		if (mnl_attr_get_type(a) == CTRL_ATTR_MCAST_GRP_NAME)
			name = mnl_attr_get_str(a);
		if (mnl_attr_get_type(a) == CTRL_ATTR_MCAST_GRP_ID)
			id = mnl_attr_get_u32(a);
	}
	if (name && r->grp_name && !strcmp(name, r->grp_name))
		r->grp_id = id;
	return MNL_CB_OK;
}

static inline int pnl_ctrl_attr_cb(const struct nlattr *attr, void *data)
{
	struct pnl_reply *r = data;
	struct nlattr *grp;

	switch (mnl_attr_get_type(attr)) {
	case CTRL_ATTR_FAMILY_ID:
		r->family = mnl_attr_get_u16(attr);
		break;
	case CTRL_ATTR_VERSION:
		r->version = mnl_attr_get_u32(attr);
		break;
	case CTRL_ATTR_MCAST_GROUPS:
		mnl_attr_for_each_nested(grp, attr)
			pnl_grp_cb(grp, data);
		break;
	}
	return MNL_CB_OK;
}

static inline int pnl_ctrl_cb(const struct nlmsghdr *nlh, void *data)
{
	mnl_attr_parse(nlh, sizeof(struct genlmsghdr), pnl_ctrl_attr_cb, data);
	return MNL_CB_OK;
}

/* NLMSG_ERROR with the kernel's extack text kept in nl->extack. */
static inline int pnl_err_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlmsgerr *err = mnl_nlmsg_get_payload(nlh);
	struct pnl_reply *r = data;
	const struct nlattr *attr;
	unsigned int off = sizeof(*err);

	if (!(nlh->nlmsg_flags & NLM_F_CAPPED))
		off += mnl_nlmsg_get_payload_len(&err->msg);
	if (nlh->nlmsg_flags & NLM_F_ACK_TLVS) {
		mnl_attr_for_each(attr, nlh, off) {
			if (mnl_attr_get_type(attr) == NLMSGERR_ATTR_MSG)
				snprintf(r->nl->extack, sizeof(r->nl->extack),
					 "%s", mnl_attr_get_str(attr));
		}
	}
	if (err->error) {
		errno = -err->error;
		return MNL_CB_ERROR;
	}
	return MNL_CB_STOP;
}

/*
 * NLMSG_DONE ends a dump, which gets no ACK after it; its payload is the
 * dump's error. (Given a control array, mnl_cb_run2() ignores what the
 * array does not handle, so without this a dump waits forever.)
 */
static inline int pnl_done_cb(const struct nlmsghdr *nlh, void *data)
{
	struct pnl_reply *r = data;
	const struct nlattr *attr;
	int err = 0;

	if (mnl_nlmsg_get_payload_len(nlh) >= sizeof(err))
		memcpy(&err, mnl_nlmsg_get_payload(nlh), sizeof(err));
	/* A dump's error carries its extack after the errno. */
	if (r && r->nl && (nlh->nlmsg_flags & NLM_F_ACK_TLVS)) {
		mnl_attr_for_each(attr, nlh, sizeof(err)) {
			if (mnl_attr_get_type(attr) == NLMSGERR_ATTR_MSG)
				snprintf(r->nl->extack, sizeof(r->nl->extack),
					 "%s", mnl_attr_get_str(attr));
		}
	}
	if (r && (nlh->nlmsg_flags & NLM_F_DUMP_INTR))
		r->intr = true;
	if (err < 0) {
		errno = -err;
		return MNL_CB_ERROR;
	}
	return MNL_CB_STOP;
}

static mnl_cb_t pnl_ctl_cbs[NLMSG_MIN_TYPE] = {
	[NLMSG_ERROR] = pnl_err_cb,
	[NLMSG_DONE] = pnl_done_cb,
};

/* Send @nlh and run callbacks until the ACK; 0 or -errno. */
static inline int pnl_talk(struct pnl *nl, struct nlmsghdr *nlh, mnl_cb_t cb,
			   struct pnl_reply *r)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	unsigned int portid = mnl_socket_get_portid(nl->sock);
	int ret;

	nl->extack[0] = '\0';
	nlh->nlmsg_flags |= NLM_F_ACK;
	nlh->nlmsg_seq = ++nl->seq;
	if (mnl_socket_sendto(nl->sock, nlh, nlh->nlmsg_len) < 0)
		return -errno;
	do {
		ret = mnl_socket_recvfrom(nl->sock, buf, sizeof(buf));
		if (ret < 0)
			return -errno;
		ret = mnl_cb_run2(buf, ret, nl->seq, portid, cb, r,
				  pnl_ctl_cbs, NLMSG_MIN_TYPE);
	} while (ret > 0);
	return ret < 0 ? -errno : 0;
}

static inline struct nlmsghdr *pnl_msg(char *buf, uint16_t type, uint8_t cmd,
				       uint8_t version)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct genlmsghdr *genl;

	nlh->nlmsg_type = type;
	nlh->nlmsg_flags = NLM_F_REQUEST;
	genl = mnl_nlmsg_put_extra_header(nlh, sizeof(*genl));
	genl->cmd = cmd;
	genl->version = version;
	return nlh;
}

/* Resolve a generic netlink family; 0 or -errno (-ENOENT: absent). */
static inline int pnl_resolve(struct pnl *nl, const char *name, struct pnl_reply *r)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh;

	nlh = pnl_msg(buf, GENL_ID_CTRL, CTRL_CMD_GETFAMILY, 1);
	mnl_attr_put_strz(nlh, CTRL_ATTR_FAMILY_NAME, name);
	r->nl = nl;
	return pnl_talk(nl, nlh, pnl_ctrl_cb, r);
}

static inline int pnl_open(struct pnl *nl)
{
	struct pnl_reply r = { .grp_id = -1 };
	int one = 1, err;

	memset(nl, 0, sizeof(*nl));
	nl->seq = time(NULL);
	nl->sock = mnl_socket_open(NETLINK_GENERIC);
	if (!nl->sock)
		return -errno;
	mnl_socket_setsockopt(nl->sock, NETLINK_EXT_ACK, &one, sizeof(one));
	mnl_socket_setsockopt(nl->sock, NETLINK_CAP_ACK, &one, sizeof(one));
	if (mnl_socket_bind(nl->sock, 0, MNL_SOCKET_AUTOPID) < 0) {
		err = -errno;
		goto err_close;
	}
	err = pnl_resolve(nl, PROFIL_GENL_NAME, &r);
	if (err)
		goto err_close;
	nl->family = r.family;
	return 0;

err_close:
	mnl_socket_close(nl->sock);
	nl->sock = NULL;
	return err;
}

static inline void pnl_close(struct pnl *nl)
{
	if (nl->sock)
		mnl_socket_close(nl->sock);
	nl->sock = NULL;
}

static inline int pnl_start(struct pnl *nl, const struct pnl_start *s)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct pnl_reply r = { .nl = nl };
	struct nlmsghdr *nlh;

	nlh = pnl_msg(buf, nl->family, PROFIL_CMD_START, PROFIL_GENL_VERSION);
	mnl_attr_put_u64(nlh, PROFIL_ATTR_BUF, s->buf);
	mnl_attr_put_u64(nlh, PROFIL_ATTR_BUFSIZ, s->bufsiz);
	mnl_attr_put_u64(nlh, PROFIL_ATTR_OFFSET, s->offset);
	mnl_attr_put_u32(nlh, PROFIL_ATTR_SCALE, s->scale);
	if (!s->no_rate)
		mnl_attr_put_u32(nlh, PROFIL_ATTR_RATE,
				 s->rate ? s->rate : PROFIL_RATE_DEFAULT);
	if (s->flags)
		mnl_attr_put_u32(nlh, PROFIL_ATTR_FLAGS, s->flags);
	if (s->pid)
		mnl_attr_put_u32(nlh, PROFIL_ATTR_PID, s->pid);
	return pnl_talk(nl, nlh, NULL, &r);
}

/* No PROFIL_ATTR_KIND in the request: the kernel's default, the buffer. */
#define PNL_NO_KIND UINT32_MAX

/* STOP of @pid's (0: the caller's) session of @kind; 0 or -errno. */
static inline int pnl_stop_kind(struct pnl *nl, uint32_t pid, uint32_t kind)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct pnl_reply r = { .nl = nl };
	struct nlmsghdr *nlh;

	nlh = pnl_msg(buf, nl->family, PROFIL_CMD_STOP, PROFIL_GENL_VERSION);
	if (pid)
		mnl_attr_put_u32(nlh, PROFIL_ATTR_PID, pid);
	if (kind != PNL_NO_KIND)
		mnl_attr_put_u32(nlh, PROFIL_ATTR_KIND, kind);
	return pnl_talk(nl, nlh, NULL, &r);
}

static inline int pnl_stop(struct pnl *nl, uint32_t pid)
{
	return pnl_stop_kind(nl, pid, PNL_NO_KIND);
}

/* GET of @pid's (0: the caller's) session of @kind; 0 or -errno. */
static inline int pnl_get_kind(struct pnl *nl, uint32_t pid, uint32_t kind,
			       struct pnl_status *st)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct pnl_reply r = { .nl = nl, .status = st };
	struct nlmsghdr *nlh;

	memset(st, 0, sizeof(*st));
	nlh = pnl_msg(buf, nl->family, PROFIL_CMD_GET, PROFIL_GENL_VERSION);
	if (pid)
		mnl_attr_put_u32(nlh, PROFIL_ATTR_PID, pid);
	if (kind != PNL_NO_KIND)
		mnl_attr_put_u32(nlh, PROFIL_ATTR_KIND, kind);
	return pnl_talk(nl, nlh, pnl_data_cb, &r);
}

static inline int pnl_get(struct pnl *nl, uint32_t pid, struct pnl_status *st)
{
	return pnl_get_kind(nl, pid, PNL_NO_KIND, st);
}

/* COLLECT @pid (0: the caller) at @rate (0: the default); 0 or -errno. */
static inline int pnl_collect(struct pnl *nl, uint32_t pid, uint32_t rate)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct pnl_reply r = { .nl = nl };
	struct nlmsghdr *nlh;

	nlh = pnl_msg(buf, nl->family, PROFIL_CMD_COLLECT, PROFIL_GENL_VERSION);
	if (pid)
		mnl_attr_put_u32(nlh, PROFIL_ATTR_PID, pid);
	if (rate)
		mnl_attr_put_u32(nlh, PROFIL_ATTR_RATE, rate);
	return pnl_talk(nl, nlh, NULL, &r);
}

/* Every session the caller may see, one @cb each; 0 or -errno. */
static inline int pnl_dump(struct pnl *nl, pnl_dump_cb cb, void *data)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct pnl_reply r = { .nl = nl, .dump_cb = cb, .dump_data = data };
	struct nlmsghdr *nlh;

	nlh = pnl_msg(buf, nl->family, PROFIL_CMD_GET, PROFIL_GENL_VERSION);
	nlh->nlmsg_flags |= NLM_F_DUMP;
	return pnl_talk(nl, nlh, pnl_data_cb, &r);
}

/* The PROFIL_ATTR_REGION nests of @n regions. */
static inline void pnl_put_regions(struct nlmsghdr *nlh,
				   const struct pnl_region *reg, unsigned int n)
{
	struct nlattr *nest;
	unsigned int i;

	for (i = 0; i < n; i++) {
		nest = mnl_attr_nest_start(nlh, PROFIL_ATTR_REGION);
		mnl_attr_put_u64(nlh, PROFIL_REGION_BUF, reg[i].buf);
		mnl_attr_put_u64(nlh, PROFIL_REGION_SIZE, reg[i].size);
		mnl_attr_put_u64(nlh, PROFIL_REGION_OFFSET, reg[i].offset);
		mnl_attr_put_u32(nlh, PROFIL_REGION_SCALE, reg[i].scale);
		mnl_attr_nest_end(nlh, nest);
	}
}

/* Room for a request with @n regions. */
#define PNL_REGIONS_BUF(n)	(1024 + (size_t)(n) * 64)

/* A region set: START with @n regions, counter width and mode. */
struct pnl_set {
	const struct pnl_region *reg;
	unsigned int n;
	uint32_t counter, mode, rate, flags, pid;
};

static inline int pnl_start_set(struct pnl *nl, const struct pnl_set *set)
{
	struct pnl_reply r = { .nl = nl };
	struct nlmsghdr *nlh;
	char *buf = malloc(PNL_REGIONS_BUF(set->n));
	int err;

	if (!buf)
		return -ENOMEM;
	nlh = pnl_msg(buf, nl->family, PROFIL_CMD_START, PROFIL_GENL_VERSION);
	pnl_put_regions(nlh, set->reg, set->n);
	mnl_attr_put_u32(nlh, PROFIL_ATTR_RATE,
			 set->rate ? set->rate : PROFIL_RATE_DEFAULT);
	if (set->counter)
		mnl_attr_put_u32(nlh, PROFIL_ATTR_COUNTER, set->counter);
	if (set->mode)
		mnl_attr_put_u32(nlh, PROFIL_ATTR_MODE, set->mode);
	if (set->flags)
		mnl_attr_put_u32(nlh, PROFIL_ATTR_FLAGS, set->flags);
	if (set->pid)
		mnl_attr_put_u32(nlh, PROFIL_ATTR_PID, set->pid);
	err = pnl_talk(nl, nlh, NULL, &r);
	free(buf);
	return err;
}

static inline int pnl_add_regions(struct pnl *nl, uint32_t pid,
				  const struct pnl_region *reg, unsigned int n)
{
	struct pnl_reply r = { .nl = nl };
	struct nlmsghdr *nlh;
	char *buf = malloc(PNL_REGIONS_BUF(n));
	int err;

	if (!buf)
		return -ENOMEM;
	nlh = pnl_msg(buf, nl->family, PROFIL_CMD_ADD_REGIONS,
		      PROFIL_GENL_VERSION);
	pnl_put_regions(nlh, reg, n);
	if (pid)
		mnl_attr_put_u32(nlh, PROFIL_ATTR_PID, pid);
	err = pnl_talk(nl, nlh, NULL, &r);
	free(buf);
	return err;
}

/*
 * The regions of a process's set, one @cb each, in order. @msgs: how many
 * messages they came in; @intr: whether the set changed during the dump.
 */
static inline int pnl_get_regions(struct pnl *nl, uint32_t pid,
				  pnl_region_cb cb, void *data,
				  unsigned int *msgs, bool *intr)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct pnl_reply r = { .nl = nl, .region_cb = cb, .dump_data = data };
	struct nlmsghdr *nlh;
	int err;

	nlh = pnl_msg(buf, nl->family, PROFIL_CMD_GET_REGIONS,
		      PROFIL_GENL_VERSION);
	nlh->nlmsg_flags |= NLM_F_DUMP;
	if (pid)
		mnl_attr_put_u32(nlh, PROFIL_ATTR_PID, pid);
	err = pnl_talk(nl, nlh, pnl_data_cb, &r);
	if (msgs)
		*msgs = r.msgs;
	if (intr)
		*intr = r.intr;
	return err;
}

static inline int pnl_region_list_cb(const struct nlattr *attr, void *data)
{
	struct pnl_reply *r = data;
	struct pnl_region reg = { 0 };

	if (mnl_attr_get_type(attr) == PROFIL_ATTR_REGION) {
		mnl_attr_parse_nested(attr, pnl_region_attr_cb, &reg);
		r->region_cb(&reg, r->dump_data);
	}
	return MNL_CB_OK;
}

#endif /* PROFIL_SELFTEST_NL_H */
