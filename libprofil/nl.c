// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Netlink helper layer, in the style of iproute2's lib/mnl_utils.c:
 * NETLINK_EXT_ACK and NETLINK_CAP_ACK on the socket, the family resolved
 * once with CTRL_CMD_GETFAMILY, mnl_cb_run2() with our own NLMSG_ERROR
 * callback that keeps the extack text, seq and portid checked on replies.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include <libmnl/libmnl.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>

#include "profil.h"
#include "internal.h"

int pf_nl_open(struct pf_nl *nl)
{
	int one = 1;

	nl->sock = mnl_socket_open2(NETLINK_GENERIC, SOCK_CLOEXEC);
	if (!nl->sock)
		goto err;
	if (mnl_socket_bind(nl->sock, 0, MNL_SOCKET_AUTOPID) < 0)
		goto err_close;
	/* Both are best effort: old kernels lack them and still work. */
	mnl_socket_setsockopt(nl->sock, NETLINK_EXT_ACK, &one, sizeof(one));
	mnl_socket_setsockopt(nl->sock, NETLINK_CAP_ACK, &one, sizeof(one));
	nl->portid = mnl_socket_get_portid(nl->sock);
	nl->seq = (unsigned int)getpid() ^ 0x5a5a0000u;
	nl->family = 0;
	nl->mcgrp_events = 0;
	nl->owner = getpid();
	return 0;

err_close:
	mnl_socket_close(nl->sock);
err:
	nl->sock = NULL;
	pf_err_set(errno, NULL);
	return -1;
}

void pf_nl_close(struct pf_nl *nl)
{
	if (nl->sock)
		mnl_socket_close(nl->sock);
	nl->sock = NULL;
	nl->family = 0;
}

/* Extended ack attributes: keep NLMSGERR_ATTR_MSG. */
static int pf_extack_attr_cb(const struct nlattr *attr, void *data)
{
	const char **msg = data;

	if (!*msg && mnl_attr_get_type(attr) == NLMSGERR_ATTR_MSG &&
	    mnl_attr_validate(attr, MNL_TYPE_NUL_STRING) >= 0)
		*msg = mnl_attr_get_str(attr);
	return MNL_CB_OK;
}

static const char *pf_extack_msg(const struct nlmsghdr *nlh, size_t hlen)
{
	const char *msg = NULL;

	if (!(nlh->nlmsg_flags & NLM_F_ACK_TLVS))
		return NULL;
	if (mnl_nlmsg_get_payload_len(nlh) <= MNL_ALIGN(hlen))
		return NULL;
	mnl_attr_parse(nlh, hlen, pf_extack_attr_cb, &msg);
	return msg;
}

static int pf_nl_error_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlmsgerr *err = mnl_nlmsg_get_payload(nlh);
	size_t hlen = sizeof(*err);
	int e;

	(void)data;
	if (nlh->nlmsg_len < mnl_nlmsg_size(sizeof(*err))) {
		pf_err_set(EBADMSG, NULL);
		return MNL_CB_ERROR;
	}
	if (err->error == 0)
		return MNL_CB_STOP;	/* the ACK */
	if (!(nlh->nlmsg_flags & NLM_F_CAPPED)) {
		if (err->msg.nlmsg_len < sizeof(struct nlmsghdr) ||
		    mnl_nlmsg_get_payload_len(nlh) < hlen + err->msg.nlmsg_len -
						   sizeof(struct nlmsghdr)) {
			pf_err_set(EBADMSG, NULL);
			return MNL_CB_ERROR;
		}
		hlen += err->msg.nlmsg_len - sizeof(struct nlmsghdr);
	}
	e = err->error < 0 ? -err->error : err->error;
	pf_err_set(e, pf_extack_msg(nlh, hlen));
	return MNL_CB_ERROR;
}

/* NLMSG_DONE of a dump may carry an error and an extack. */
static int pf_nl_done_cb(const struct nlmsghdr *nlh, void *data)
{
	int e;

	(void)data;
	if (mnl_nlmsg_get_payload_len(nlh) < sizeof(int))
		return MNL_CB_STOP;
	memcpy(&e, mnl_nlmsg_get_payload(nlh), sizeof(e));
	if (e == 0)
		return MNL_CB_STOP;
	pf_err_set(e < 0 ? -e : e, pf_extack_msg(nlh, sizeof(int)));
	return MNL_CB_ERROR;
}

static int pf_nl_overrun_cb(const struct nlmsghdr *nlh, void *data)
{
	(void)nlh;
	(void)data;
	pf_err_set(ENOBUFS, NULL);
	return MNL_CB_ERROR;
}

static mnl_cb_t pf_nl_ctl_cb[NLMSG_MIN_TYPE] = {
	[NLMSG_ERROR] = pf_nl_error_cb,
	[NLMSG_DONE] = pf_nl_done_cb,
	[NLMSG_OVERRUN] = pf_nl_overrun_cb,
};

struct pf_talk {
	uint16_t type;
	pf_nl_cb cb;
	void *data;
};

static int pf_nl_data_cb(const struct nlmsghdr *nlh, void *data)
{
	struct pf_talk *t = data;

	if (nlh->nlmsg_type != t->type || !t->cb)
		return MNL_CB_OK;	/* not ours: skip */
	return t->cb(nlh, t->data);
}

static struct nlmsghdr *pf_nl_put_hdr(struct pf_nl *nl, void *buf,
				      uint16_t type, uint8_t cmd,
				      uint8_t version, uint16_t flags)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct genlmsghdr *genl;

	nlh->nlmsg_type = type;
	nlh->nlmsg_flags = NLM_F_REQUEST | flags;
	nlh->nlmsg_seq = ++nl->seq ? nl->seq : ++nl->seq;	/* never 0 */
	genl = mnl_nlmsg_put_extra_header(nlh, sizeof(*genl));
	genl->cmd = cmd;
	genl->version = version;
	return nlh;
}

struct nlmsghdr *pf_nl_request(struct pf_nl *nl, uint8_t cmd, uint16_t flags)
{
	return pf_nl_put_hdr(nl, nl->buf, nl->family, cmd, PROFIL_GENL_VERSION,
			     flags);
}

struct nlmsghdr *pf_nl_request_in(struct pf_nl *nl, void *buf, uint8_t cmd,
				  uint16_t flags)
{
	return pf_nl_put_hdr(nl, buf, nl->family, cmd, PROFIL_GENL_VERSION,
			     flags);
}

/*
 * Runs the callbacks over one datagram. Messages of another sequence
 * number are replies to an earlier request that was abandoned (a signal,
 * a malformed reply): they are skipped, so one failure does not poison
 * the socket. libmnl then checks seq and portid on the rest.
 */
static int pf_nl_run_dgram(struct pf_nl *nl, size_t n, unsigned int seq,
			   struct pf_talk *t)
{
	const struct nlmsghdr *nlh = (const void *)nl->buf;
	int len = (int)n, ret = MNL_CB_OK;

	while (mnl_nlmsg_ok(nlh, len)) {
		if (nlh->nlmsg_seq == seq) {
			errno = 0;
			ret = mnl_cb_run2(nlh, nlh->nlmsg_len, seq, nl->portid,
					  pf_nl_data_cb, t, pf_nl_ctl_cb,
					  NLMSG_MIN_TYPE);
			if (ret <= MNL_CB_STOP)
				return ret;
		}
		nlh = mnl_nlmsg_next(nlh, &len);
	}
	if (len) {	/* a truncated message */
		errno = EPROTO;
		return MNL_CB_ERROR;
	}
	return ret;
}

static int pf_nl_run(struct pf_nl *nl, unsigned int seq, uint16_t type,
		     pf_nl_cb cb, void *data)
{
	struct pf_talk t = { .type = type, .cb = cb, .data = data };
	ssize_t n;
	int ret = MNL_CB_OK;

	do {
		n = mnl_socket_recvfrom(nl->sock, nl->buf, sizeof(nl->buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			pf_err_set(errno, NULL);
			return -1;
		}
		ret = pf_nl_run_dgram(nl, (size_t)n, seq, &t);
	} while (n < 0 || ret > MNL_CB_STOP);
	if (ret < 0) {
		/* ESRCH from libmnl's portid check, or ours. */
		if (errno == 0)
			errno = EPROTO;
		if (!profil_last_extack())
			pf_err_set(errno, NULL);
		return -1;
	}
	return 0;
}

int pf_nl_talk(struct pf_nl *nl, struct nlmsghdr *nlh, pf_nl_cb cb,
	       void *data)
{
	pf_err_clear();
	if (mnl_socket_sendto(nl->sock, nlh, nlh->nlmsg_len) < 0) {
		pf_err_set(errno, NULL);
		return -1;
	}
	return pf_nl_run(nl, nlh->nlmsg_seq, nlh->nlmsg_type == GENL_ID_CTRL ?
			 GENL_ID_CTRL : nl->family, cb, data);
}

int pf_nl_dump(struct pf_nl *nl, uint8_t cmd, pf_nl_cb cb, void *data,
	       const int *stopped)
{
	struct nlmsghdr *nlh = pf_nl_request(nl, cmd, NLM_F_DUMP);

	if (pf_nl_talk(nl, nlh, cb, data) < 0)
		return -1;
	return *stopped < 0 ? 1 : *stopped;
}

/*
 * Family resolution.
 */

static int pf_mcgrp_attr_cb(const struct nlattr *attr, void *data)
{
	const struct nlattr **tb = data;
	int type = mnl_attr_get_type(attr);

	if (type == CTRL_ATTR_MCAST_GRP_NAME &&
	    mnl_attr_validate(attr, MNL_TYPE_NUL_STRING) >= 0)
		tb[type] = attr;
	else if (type == CTRL_ATTR_MCAST_GRP_ID &&
		 mnl_attr_validate(attr, MNL_TYPE_U32) >= 0)
		tb[type] = attr;
	return MNL_CB_OK;
}

static void pf_parse_mcgrps(struct pf_nl *nl, const struct nlattr *nest)
{
	const struct nlattr *grp;

	mnl_attr_for_each_nested(grp, nest) {
		const struct nlattr *tb[CTRL_ATTR_MCAST_GRP_MAX + 1] = {};

		mnl_attr_parse_nested(grp, pf_mcgrp_attr_cb, tb);
		if (tb[CTRL_ATTR_MCAST_GRP_NAME] && tb[CTRL_ATTR_MCAST_GRP_ID] &&
		    !strcmp(mnl_attr_get_str(tb[CTRL_ATTR_MCAST_GRP_NAME]),
			    PROFIL_MCGRP_EVENTS))
			nl->mcgrp_events =
				mnl_attr_get_u32(tb[CTRL_ATTR_MCAST_GRP_ID]);
	}
}

static int pf_family_attr_cb(const struct nlattr *attr, void *data)
{
	static const enum mnl_attr_data_type types[CTRL_ATTR_MAX + 1] = {
		[CTRL_ATTR_FAMILY_ID] = MNL_TYPE_U16,
		[CTRL_ATTR_FAMILY_NAME] = MNL_TYPE_NUL_STRING,
		[CTRL_ATTR_VERSION] = MNL_TYPE_U32,
		[CTRL_ATTR_MAXATTR] = MNL_TYPE_U32,
		[CTRL_ATTR_MCAST_GROUPS] = MNL_TYPE_NESTED,
	};
	const struct nlattr **tb = data;
	int type = mnl_attr_get_type(attr);

	if (mnl_attr_type_valid(attr, CTRL_ATTR_MAX) < 0 || !types[type])
		return MNL_CB_OK;	/* unknown: skip */
	if (mnl_attr_validate(attr, types[type]) < 0) {
		pf_err_set(EPROTO, NULL);
		return MNL_CB_ERROR;
	}
	tb[type] = attr;
	return MNL_CB_OK;
}

static int pf_family_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[CTRL_ATTR_MAX + 1] = {};
	struct pf_nl *nl = data;

	if (mnl_attr_parse(nlh, sizeof(struct genlmsghdr), pf_family_attr_cb,
			   tb) < 0)
		return MNL_CB_ERROR;
	if (!tb[CTRL_ATTR_FAMILY_ID]) {
		pf_err_set(EPROTO, NULL);
		return MNL_CB_ERROR;
	}
	nl->family = mnl_attr_get_u16(tb[CTRL_ATTR_FAMILY_ID]);
	if (tb[CTRL_ATTR_VERSION])
		nl->version = mnl_attr_get_u32(tb[CTRL_ATTR_VERSION]);
	if (tb[CTRL_ATTR_MAXATTR])
		nl->maxattr = mnl_attr_get_u32(tb[CTRL_ATTR_MAXATTR]);
	if (tb[CTRL_ATTR_MCAST_GROUPS])
		pf_parse_mcgrps(nl, tb[CTRL_ATTR_MCAST_GROUPS]);
	return MNL_CB_OK;
}

int pf_nl_resolve(struct pf_nl *nl)
{
	struct nlmsghdr *nlh;

	nl->family = 0;
	nl->mcgrp_events = 0;
	nlh = pf_nl_put_hdr(nl, nl->buf, GENL_ID_CTRL, CTRL_CMD_GETFAMILY, 1,
			    NLM_F_ACK);
	mnl_attr_put_strz(nlh, CTRL_ATTR_FAMILY_NAME, PROFIL_GENL_NAME);
	if (pf_nl_talk(nl, nlh, pf_family_cb, nl) < 0)
		return -1;
	if (!nl->family) {
		pf_err_set(EPROTO, NULL);
		return -1;
	}
	return 0;
}

/*
 * Requests and replies of the profil family.
 */

/* libprofil's request option takes a bit no kernel flag uses. */
_Static_assert(!(PROFIL_F_ALL & PROFIL_START_EXCL),
	       "PROFIL_START_EXCL overlaps a kernel flag");

void pf_nl_put_params(struct nlmsghdr *nlh, const struct profil_params *p)
{
	mnl_attr_put_u64(nlh, PROFIL_ATTR_BUF, p->buf);
	mnl_attr_put_u64(nlh, PROFIL_ATTR_BUFSIZ, p->bufsiz);
	mnl_attr_put_u64(nlh, PROFIL_ATTR_OFFSET, p->offset);
	mnl_attr_put_u32(nlh, PROFIL_ATTR_SCALE, p->scale);
	if (p->rate)
		mnl_attr_put_u32(nlh, PROFIL_ATTR_RATE, p->rate);
	if (p->flags & ~PROFIL_START_EXCL)
		mnl_attr_put_u32(nlh, PROFIL_ATTR_FLAGS,
				 p->flags & ~PROFIL_START_EXCL);
	if (p->flags & PROFIL_START_EXCL)
		mnl_attr_put(nlh, PROFIL_ATTR_EXCL, 0, NULL);
	if (p->pid)
		mnl_attr_put_u32(nlh, PROFIL_ATTR_PID, (uint32_t)p->pid);
}

static const enum mnl_attr_data_type pf_attr_types[PROFIL_ATTR_MAX + 1] = {
	[PROFIL_ATTR_PID] = MNL_TYPE_U32,
	[PROFIL_ATTR_BUF] = MNL_TYPE_U64,
	[PROFIL_ATTR_BUFSIZ] = MNL_TYPE_U64,
	[PROFIL_ATTR_OFFSET] = MNL_TYPE_U64,
	[PROFIL_ATTR_SCALE] = MNL_TYPE_U32,
	[PROFIL_ATTR_RATE] = MNL_TYPE_U32,
	[PROFIL_ATTR_FLAGS] = MNL_TYPE_U32,
	[PROFIL_ATTR_STATE] = MNL_TYPE_U32,
	[PROFIL_ATTR_REASON] = MNL_TYPE_U32,
	[PROFIL_ATTR_FAULT_ADDR] = MNL_TYPE_U64,
	[PROFIL_ATTR_STATS] = MNL_TYPE_NESTED,
};

static int pf_status_attr_cb(const struct nlattr *attr, void *data)
{
	const struct nlattr **tb = data;
	int type = mnl_attr_get_type(attr);

	if (mnl_attr_type_valid(attr, PROFIL_ATTR_MAX) < 0 ||
	    !pf_attr_types[type])
		return MNL_CB_OK;	/* unknown or PAD: skip */
	if (mnl_attr_validate(attr, pf_attr_types[type]) < 0)
		return MNL_CB_ERROR;
	tb[type] = attr;
	return MNL_CB_OK;
}

/* The counters by enum profil_stat, up to the caller's array length. */
struct pf_stats {
	uint64_t *v;
	size_t n;
};

static int pf_stats_attr_cb(const struct nlattr *attr, void *data)
{
	const struct pf_stats *s = data;
	unsigned int type = mnl_attr_get_type(attr);

	if (type <= PROFIL_STAT_PAD || type >= s->n)
		return MNL_CB_OK;	/* PAD, or newer than the caller: skip */
	if (mnl_attr_validate(attr, MNL_TYPE_U64) < 0)
		return MNL_CB_ERROR;
	s->v[type] = mnl_attr_get_u64(attr);
	return MNL_CB_OK;
}

int pf_nl_parse_counters(const struct nlattr *nest, uint64_t *v, size_t n)
{
	struct pf_stats s = { v, n };

	if (mnl_attr_parse_nested(nest, pf_stats_attr_cb, &s) < 0) {
		pf_err_set(EPROTO, NULL);
		return -1;
	}
	return 0;
}

static uint64_t pf_u64(const struct nlattr *a)
{
	return a ? mnl_attr_get_u64(a) : 0;
}

static uint32_t pf_u32(const struct nlattr *a)
{
	return a ? mnl_attr_get_u32(a) : 0;
}

int pf_nl_parse_status(const struct nlmsghdr *nlh, struct profil_status *st,
		       uint64_t *stats, size_t n)
{
	const struct nlattr *tb[PROFIL_ATTR_MAX + 1] = {};
	uint64_t v[PROFIL_STAT_MAX + 1] = { 0 };

	memset(st, 0, sizeof(*st));
	if (mnl_nlmsg_get_payload_len(nlh) < sizeof(struct genlmsghdr) ||
	    mnl_attr_parse(nlh, sizeof(struct genlmsghdr), pf_status_attr_cb,
			   tb) < 0)
		goto err;
	st->pid = (pid_t)pf_u32(tb[PROFIL_ATTR_PID]);
	st->buf = pf_u64(tb[PROFIL_ATTR_BUF]);
	st->bufsiz = pf_u64(tb[PROFIL_ATTR_BUFSIZ]);
	st->offset = pf_u64(tb[PROFIL_ATTR_OFFSET]);
	st->scale = pf_u32(tb[PROFIL_ATTR_SCALE]);
	st->rate = pf_u32(tb[PROFIL_ATTR_RATE]);
	st->flags = pf_u32(tb[PROFIL_ATTR_FLAGS]);
	st->state = pf_u32(tb[PROFIL_ATTR_STATE]);
	st->reason = pf_u32(tb[PROFIL_ATTR_REASON]);
	st->fault_addr = pf_u64(tb[PROFIL_ATTR_FAULT_ADDR]);
	if (tb[PROFIL_ATTR_STATS] &&
	    pf_nl_parse_counters(tb[PROFIL_ATTR_STATS], v, PROFIL_STAT_MAX + 1))
		return -1;
	st->stats = (struct profil_stats) {
		.ticks = v[PROFIL_STAT_TICKS],
		.in_range = v[PROFIL_STAT_IN_RANGE],
		.out_of_range = v[PROFIL_STAT_OUT_OF_RANGE],
		.system_dropped = v[PROFIL_STAT_SYSTEM_DROPPED],
		.system_charged = v[PROFIL_STAT_SYSTEM_CHARGED],
		.deferred = v[PROFIL_STAT_DEFERRED],
		.pending = v[PROFIL_STAT_PENDING],
		.discarded = v[PROFIL_STAT_DISCARDED],
		.faulted = v[PROFIL_STAT_FAULTED],
	};
	if (stats) {
		memset(stats, 0, n * sizeof(*stats));
		memcpy(stats, v, (n < PROFIL_STAT_MAX + 1 ? n :
				  PROFIL_STAT_MAX + 1) * sizeof(*stats));
	}
	return 0;
err:
	pf_err_set(EPROTO, NULL);
	return -1;
}
