// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The extended API: an opaque handle, sessions and stop events.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <libmnl/libmnl.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>

#include "profil.h"
#include "internal.h"

PROFIL_EXPORT struct profil_handle *profil_handle_open(void)
{
	struct profil_handle *h;
	int err;

	pf_err_clear();
	h = calloc(1, sizeof(*h));
	if (!h) {
		pf_err_set(ENOMEM, NULL);
		return NULL;
	}
	if (pf_nl_open(&h->nl) < 0)
		goto err_free;
	if (pf_nl_resolve(&h->nl) < 0) {
		if (errno == ENOENT)
			pf_err_set(ENOSYS, profil_last_extack());
		goto err_close;
	}
	return h;

err_close:
	err = errno;
	pf_nl_close(&h->nl);
	errno = err;
err_free:
	free(h);
	return NULL;
}

PROFIL_EXPORT void profil_handle_close(struct profil_handle *h)
{
	if (!h)
		return;
	if (h->ev) {
		pf_nl_close(h->ev);
		free(h->ev);
	}
	pf_nl_close(&h->nl);
	free(h);
}

int pf_check_handle(const struct profil_handle *h)
{
	pf_err_clear();
	if (!h || !h->nl.sock) {
		pf_err_set(EINVAL, NULL);
		return -1;
	}
	return 0;
}

int pf_check_handle_arg(const struct profil_handle *h, const void *arg)
{
	if (pf_check_handle(h) < 0)
		return -1;
	if (!arg) {
		pf_err_set(EINVAL, NULL);
		return -1;
	}
	return 0;
}

PROFIL_EXPORT int profil_session_start(struct profil_handle *h,
				       const struct profil_params *p)
{
	struct nlmsghdr *nlh;

	if (pf_check_handle_arg(h, p) < 0)
		return -1;
	nlh = pf_nl_request(&h->nl, PROFIL_CMD_START, NLM_F_ACK);
	pf_nl_put_params(nlh, p);
	return pf_nl_talk(&h->nl, nlh, NULL, NULL);
}

PROFIL_EXPORT int profil_session_stop(struct profil_handle *h, pid_t pid)
{
	struct nlmsghdr *nlh;

	if (pf_check_handle(h) < 0)
		return -1;
	nlh = pf_nl_request(&h->nl, PROFIL_CMD_STOP, NLM_F_ACK);
	if (pid)
		mnl_attr_put_u32(nlh, PROFIL_ATTR_PID, (uint32_t)pid);
	return pf_nl_talk(&h->nl, nlh, NULL, NULL);
}

struct pf_get {
	struct profil_status *st;
	uint64_t *stats;
	size_t n;
	bool found;
};

static int pf_get_cb(const struct nlmsghdr *nlh, void *data)
{
	struct pf_get *g = data;

	if (pf_nl_parse_status(nlh, g->st, g->stats, g->n) < 0)
		return MNL_CB_ERROR;
	g->found = true;
	return MNL_CB_OK;
}

static int pf_session_get(struct profil_handle *h, pid_t pid,
			  struct pf_get *g)
{
	struct nlmsghdr *nlh;
	nlh = pf_nl_request(&h->nl, PROFIL_CMD_GET, NLM_F_ACK);
	if (pid)
		mnl_attr_put_u32(nlh, PROFIL_ATTR_PID, (uint32_t)pid);
	if (pf_nl_talk(&h->nl, nlh, pf_get_cb, g) < 0)
		return -1;
	if (!g->found) {
		pf_err_set(EPROTO, NULL);	/* an ACK without a reply */
		return -1;
	}
	return 0;
}

PROFIL_EXPORT int profil_session_get(struct profil_handle *h, pid_t pid,
				     struct profil_status *st)
{
	struct pf_get g = { .st = st };

	if (pf_check_handle_arg(h, st) < 0)
		return -1;
	return pf_session_get(h, pid, &g);
}

PROFIL_EXPORT int profil_session_get_stats(struct profil_handle *h, pid_t pid,
					   uint64_t *stats, size_t n)
{
	struct profil_status st;
	struct pf_get g = { .st = &st, .stats = stats, .n = n };

	if (pf_check_handle(h) < 0)
		return -1;
	if (!stats && n) {
		pf_err_set(EINVAL, NULL);
		return -1;
	}
	return pf_session_get(h, pid, &g);
}

struct pf_dump {
	profil_session_cb cb;
	void *data;
	int stopped;
};

static int pf_dump_cb(const struct nlmsghdr *nlh, void *data)
{
	struct pf_dump *d = data;
	struct profil_status st;

	if (d->stopped)
		return MNL_CB_OK;	/* drain the rest of the dump */
	if (pf_nl_parse_status(nlh, &st, NULL, 0) < 0)
		return MNL_CB_ERROR;
	d->stopped = d->cb(&st, d->data);
	return MNL_CB_OK;
}

PROFIL_EXPORT int profil_session_dump(struct profil_handle *h,
				      profil_session_cb cb, void *data)
{
	struct pf_dump d = { .cb = cb, .data = data };

	if (pf_check_handle(h) < 0)
		return -1;
	if (!cb) {	/* a function pointer: not pf_check_handle_arg()'s */
		pf_err_set(EINVAL, NULL);
		return -1;
	}
	return pf_nl_dump(&h->nl, PROFIL_CMD_GET, pf_dump_cb, &d, &d.stopped);
}

PROFIL_EXPORT int profil_event_subscribe(struct profil_handle *h)
{
	unsigned int grp;
	int err;

	if (pf_check_handle(h) < 0)
		return -1;
	if (h->ev)
		return 0;
	grp = h->nl.mcgrp_events;
	if (!grp) {
		pf_err_set(ENOENT, "the kernel announced no \"events\" group");
		return -1;
	}
	h->ev = malloc(sizeof(*h->ev));
	if (!h->ev) {
		pf_err_set(ENOMEM, NULL);
		return -1;
	}
	if (pf_nl_open(h->ev) < 0)
		goto err_free;
	h->ev->family = h->nl.family;
	h->ev->mcgrp_events = grp;
	if (mnl_socket_setsockopt(h->ev->sock, NETLINK_ADD_MEMBERSHIP, &grp,
				  sizeof(grp)) < 0) {
		pf_err_set(errno, NULL);
		goto err_close;
	}
	return 0;

err_close:
	err = errno;
	pf_nl_close(h->ev);
	errno = err;
err_free:
	free(h->ev);
	h->ev = NULL;
	return -1;
}

PROFIL_EXPORT int profil_event_fd(const struct profil_handle *h)
{
	if (!h || !h->ev) {
		pf_err_set(EBADF, NULL);
		return -1;
	}
	return mnl_socket_get_fd(h->ev->sock);
}

struct pf_event {
	uint16_t family;
	struct profil_status *st;
	bool found;
};

static int pf_event_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct genlmsghdr *genl = mnl_nlmsg_get_payload(nlh);
	struct pf_event *e = data;

	if (e->found || nlh->nlmsg_type != e->family ||
	    mnl_nlmsg_get_payload_len(nlh) < sizeof(*genl) ||
	    genl->cmd != PROFIL_CMD_STOPPED)
		return MNL_CB_OK;	/* not a stop event: skip */
	if (pf_nl_parse_status(nlh, e->st, NULL, 0) < 0)
		return MNL_CB_ERROR;
	e->found = true;
	return MNL_CB_OK;
}

PROFIL_EXPORT int profil_event_read(struct profil_handle *h,
				    struct profil_status *st)
{
	struct pf_event e = { .st = st };
	ssize_t n;

	if (pf_check_handle(h) < 0)
		return -1;
	if (!h->ev) {
		pf_err_set(EBADF, NULL);
		return -1;
	}
	if (!st) {
		pf_err_set(EINVAL, NULL);
		return -1;
	}
	e.family = h->ev->family;
	while (!e.found) {
		n = mnl_socket_recvfrom(h->ev->sock, h->ev->buf,
					sizeof(h->ev->buf));
		if (n < 0) {
			pf_err_set(errno, NULL);
			return -1;
		}
		/* Notifications carry seq 0 and portid 0: pass 0/0. */
		errno = 0;
		if (mnl_cb_run2(h->ev->buf, (size_t)n, 0, 0, pf_event_cb, &e,
				NULL, 0) < 0) {
			pf_err_set(errno ? errno : EPROTO, NULL);
			return -1;
		}
	}
	return 0;
}

/* A request carrying @r, in a buffer of its own size: free() it after. */
static struct nlmsghdr *pf_regions_request(struct pf_nl *nl, uint8_t cmd,
					   pid_t pid,
					   const struct profil_regions *r)
{
	struct nlmsghdr *nlh;
	void *buf;

	if (!profil_regions_count(r)) {
		pf_err_set(EINVAL, "the set has no region");
		return NULL;
	}
	buf = calloc(1, pf_regions_msg_len(r) + 64);
	if (!buf) {
		pf_err_set(ENOMEM, NULL);
		return NULL;
	}
	nlh = pf_nl_request_in(nl, buf, cmd, NLM_F_ACK);
	if (pid)
		mnl_attr_put_u32(nlh, PROFIL_ATTR_PID, (uint32_t)pid);
	pf_regions_put(nlh, r);
	return nlh;
}

int pf_nl_start_regions(struct pf_nl *nl, pid_t pid,
			const struct profil_regions *r, uint32_t rate,
			uint32_t flags)
{
	struct nlmsghdr *nlh;
	int ret;

	nlh = pf_regions_request(nl, PROFIL_CMD_START, pid, r);
	if (!nlh)
		return -1;
	mnl_attr_put_u32(nlh, PROFIL_ATTR_COUNTER, profil_regions_counter(r));
	mnl_attr_put_u32(nlh, PROFIL_ATTR_MODE, profil_regions_mode(r));
	if (rate)
		mnl_attr_put_u32(nlh, PROFIL_ATTR_RATE, rate);
	if (flags & PROFIL_START_EXCL)
		mnl_attr_put(nlh, PROFIL_ATTR_EXCL, 0, NULL);
	flags &= ~PROFIL_START_EXCL;
	if (flags)
		mnl_attr_put_u32(nlh, PROFIL_ATTR_FLAGS, flags);
	ret = pf_nl_talk(nl, nlh, NULL, NULL);
	free(nlh);
	return ret;
}

PROFIL_EXPORT int profil_session_start_regions(struct profil_handle *h,
					       pid_t pid,
					       const struct profil_regions *r,
					       uint32_t rate, uint32_t flags)
{
	if (pf_check_handle(h) < 0)
		return -1;
	return pf_nl_start_regions(&h->nl, pid, r, rate, flags);
}

PROFIL_EXPORT int profil_session_add_regions(struct profil_handle *h,
					     pid_t pid,
					     const struct profil_regions *r)
{
	struct nlmsghdr *nlh;
	int ret;

	if (pf_check_handle(h) < 0)
		return -1;
	nlh = pf_regions_request(&h->nl, PROFIL_CMD_ADD_REGIONS, pid, r);
	if (!nlh)
		return -1;
	ret = pf_nl_talk(&h->nl, nlh, NULL, NULL);
	free(nlh);
	return ret;
}

static int pf_regions_cb(const struct nlmsghdr *nlh, void *data)
{
	return pf_regions_parse(nlh, data) < 0 ? MNL_CB_ERROR : MNL_CB_OK;
}

static int pf_rules_cb(const struct nlmsghdr *nlh, void *data)
{
	return pf_regions_parse_rules(nlh, data) < 0 ? MNL_CB_ERROR :
						      MNL_CB_OK;
}

PROFIL_EXPORT int profil_session_get_regions(struct profil_handle *h,
					     pid_t pid,
					     struct profil_regions *r)
{
	struct nlmsghdr *nlh;

	if (pf_check_handle_arg(h, r) < 0)
		return -1;
	nlh = pf_nl_request(&h->nl, PROFIL_CMD_GET, NLM_F_ACK);
	if (pid)
		mnl_attr_put_u32(nlh, PROFIL_ATTR_PID, (uint32_t)pid);
	if (pf_nl_talk(&h->nl, nlh, pf_rules_cb, r) < 0)
		return -1;
	nlh = pf_nl_request(&h->nl, PROFIL_CMD_GET_REGIONS, NLM_F_DUMP);
	if (pid)
		mnl_attr_put_u32(nlh, PROFIL_ATTR_PID, (uint32_t)pid);
	return pf_nl_talk(&h->nl, nlh, pf_regions_cb, r);
}
