// SPDX-License-Identifier: GPL-2.0
/*
 * __wrap_mnl_socket_sendto() and __wrap_mnl_socket_recvfrom() for the
 * libprofil unit tests; see mock_mnl.h. mnl_socket_open/bind/setsockopt
 * stay real: a NETLINK_GENERIC socket needs no privilege.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <libmnl/libmnl.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <linux/profil.h>

#include "profil.h"
#include "mock_mnl.h"

#define MOCK_SLOT	4096
#define MOCK_SLOTS	256

struct mock_dgram {
	const struct nlmsghdr *nlh;
	int err;
	bool raw;
	bool foreign;	/* seq patched, portid of someone else */
};

static union {
	unsigned char bytes[MOCK_SLOT];
	uint64_t align;
} arena[MOCK_SLOTS];
static unsigned int arena_used;
static struct mock_dgram dgrams[MOCK_SLOTS];
static unsigned int dgrams_used;
static struct mock_attr attr_lists[64][16];
static unsigned int attr_lists_used;
/* Room for the largest request: a set of PROFIL_REGIONS_MAX regions. */
static union {
	unsigned char bytes[262144];
	uint64_t align;
} last_req;
static unsigned int last_seq, last_portid;

const struct nlmsghdr *mock_last_request;
unsigned int mock_requests;
ssize_t (*mock_send_hook)(size_t len);
ssize_t (*mock_recv_hook)(void *buf, size_t bufsiz);

void mock_mnl_reset(void)
{
	arena_used = 0;
	dgrams_used = 0;
	attr_lists_used = 0;
	mock_last_request = NULL;
	mock_requests = 0;
	mock_send_hook = NULL;
	mock_recv_hook = NULL;
}

static void *mock_slot(void)
{
	assert_true(arena_used < MOCK_SLOTS);
	memset(arena[arena_used].bytes, 0, MOCK_SLOT);
	return arena[arena_used++].bytes;
}

/*
 * Requests.
 */

ssize_t __wrap_mnl_socket_sendto(const struct mnl_socket *nl, const void *buf,
				 size_t len);
ssize_t __wrap_mnl_socket_sendto(const struct mnl_socket *nl, const void *buf,
				 size_t len)
{
	const struct nlmsghdr *nlh = buf;
	const struct genlmsghdr *genl = mnl_nlmsg_get_payload(nlh);
	unsigned int type = nlh->nlmsg_type;
	unsigned int flags = nlh->nlmsg_flags;
	unsigned int cmd = genl->cmd;
	int err;

	if (len <= sizeof(last_req.bytes)) {
		memcpy(last_req.bytes, buf, len);
		mock_last_request = (const void *)last_req.bytes;
	}
	mock_requests++;
	last_seq = nlh->nlmsg_seq;
	last_portid = mnl_socket_get_portid(nl);
	if (mock_send_hook)	/* another thread: no cmocka here */
		return mock_send_hook(len);
	assert_true(len >= NLMSG_HDRLEN + GENL_HDRLEN);
	assert_int_equal(len, nlh->nlmsg_len);
	assert_true(len <= sizeof(last_req.bytes));

	check_expected(type);
	check_expected(flags);
	check_expected(cmd);
	check_expected_ptr(nlh);
	err = mock_type(int);
	if (err) {
		errno = err;
		return -1;
	}
	return (ssize_t)len;
}

static int mock_check_attrs(const LargestIntegralType value,
			    const LargestIntegralType check_data)
{
	const struct nlmsghdr *nlh = (const void *)(uintptr_t)value;
	const struct mock_attr *want = (const void *)(uintptr_t)check_data;
	const struct mock_attr *w;
	const struct nlattr *a;
	bool seen[16] = {};
	int ok = 1;

	mnl_attr_for_each(a, nlh, GENL_HDRLEN) {
		uint16_t t = mnl_attr_get_type(a), plen;
		uint64_t v = 0;
		unsigned int i;

		for (w = want, i = 0; w->type && w->type != t; w++, i++)
			;
		if (!w->type || !w->len) {
			print_error("unexpected attribute %u in request\n", t);
			ok = 0;
			continue;
		}
		seen[i] = true;
		plen = mnl_attr_get_payload_len(a);
		if (plen == 4)
			v = mnl_attr_get_u32(a);
		else if (plen == 8)
			v = mnl_attr_get_u64(a);
		if (plen != (w->len & ~MOCK_ANY) ||
		    (!(w->len & MOCK_ANY) && v != w->value)) {
			print_error("attribute %u: len %u value %#llx, expected "
				    "len %u value %#llx\n", t, plen,
				    (unsigned long long)v, w->len,
				    (unsigned long long)w->value);
			ok = 0;
		}
	}
	for (w = want; w->type; w++) {
		if (w->len && !seen[w - want]) {
			print_error("attribute %u missing from request\n",
				    w->type);
			ok = 0;
		}
	}
	return ok;
}

static int mock_check_getfamily(const LargestIntegralType value,
				const LargestIntegralType check_data)
{
	const struct nlmsghdr *nlh = (const void *)(uintptr_t)value;
	const struct genlmsghdr *genl = mnl_nlmsg_get_payload(nlh);
	const struct nlattr *a;
	int names = 0;

	(void)check_data;
	if (genl->version != 1)
		return 0;
	mnl_attr_for_each(a, nlh, GENL_HDRLEN) {
		if (mnl_attr_get_type(a) != CTRL_ATTR_FAMILY_NAME ||
		    strcmp(mnl_attr_get_str(a), PROFIL_GENL_NAME))
			return 0;
		names++;
	}
	return names == 1;
}

void mock_expect_getfamily(void)
{
	expect_value(__wrap_mnl_socket_sendto, type, GENL_ID_CTRL);
	expect_value(__wrap_mnl_socket_sendto, flags,
		     NLM_F_REQUEST | NLM_F_ACK);
	expect_value(__wrap_mnl_socket_sendto, cmd, CTRL_CMD_GETFAMILY);
	expect_check(__wrap_mnl_socket_sendto, nlh, mock_check_getfamily, 0);
	will_return(__wrap_mnl_socket_sendto, 0);
}

void mock_expect_request(uint8_t cmd, uint16_t flags,
			 const struct mock_attr *attrs)
{
	struct mock_attr *copy;
	unsigned int n = 0;

	assert_true(attr_lists_used < 64);
	copy = attr_lists[attr_lists_used++];
	while (attrs && attrs[n].type) {
		assert_true(n < 15);
		copy[n] = attrs[n];
		n++;
	}
	copy[n].type = 0;
	expect_value(__wrap_mnl_socket_sendto, type, MOCK_FAMILY_ID);
	expect_value(__wrap_mnl_socket_sendto, flags, NLM_F_REQUEST | flags);
	expect_value(__wrap_mnl_socket_sendto, cmd, cmd);
	expect_check(__wrap_mnl_socket_sendto, nlh, mock_check_attrs,
		     (uintptr_t)copy);
	will_return(__wrap_mnl_socket_sendto, 0);
}

void mock_expect_send_error(int err)
{
	expect_any(__wrap_mnl_socket_sendto, type);
	expect_any(__wrap_mnl_socket_sendto, flags);
	expect_any(__wrap_mnl_socket_sendto, cmd);
	expect_any(__wrap_mnl_socket_sendto, nlh);
	will_return(__wrap_mnl_socket_sendto, err);
}

/*
 * Replies.
 */

ssize_t __wrap_mnl_socket_recvfrom(const struct mnl_socket *nl, void *buf,
				   size_t bufsiz);
ssize_t __wrap_mnl_socket_recvfrom(const struct mnl_socket *nl, void *buf,
				   size_t bufsiz)
{
	const struct mock_dgram *d;
	struct nlmsghdr *nlh = buf;

	(void)nl;
	if (mock_recv_hook)	/* another thread: no cmocka here */
		return mock_recv_hook(buf, bufsiz);
	d = mock_ptr_type(const struct mock_dgram *);
	if (d->err) {
		errno = d->err;
		return -1;
	}
	assert_true(d->nlh->nlmsg_len <= bufsiz);
	memcpy(buf, d->nlh, d->nlh->nlmsg_len);
	if (!d->raw) {
		nlh->nlmsg_seq = last_seq;
		nlh->nlmsg_pid = d->foreign ? last_portid + 1 : last_portid;
		if (nlh->nlmsg_type == NLMSG_ERROR && mock_last_request) {
			struct nlmsgerr *e = mnl_nlmsg_get_payload(nlh);

			if (nlh->nlmsg_flags & NLM_F_CAPPED)
				e->msg = *mock_last_request;
			e->msg.nlmsg_seq = last_seq;
		}
	}
	return (ssize_t)nlh->nlmsg_len;
}

ssize_t mock_put_ack(void *buf, size_t bufsiz)
{
	struct nlmsghdr *nlh;
	struct nlmsgerr *e;

	if (bufsiz < NLMSG_HDRLEN + sizeof(*e)) {
		errno = ENOBUFS;
		return -1;
	}
	memset(buf, 0, NLMSG_HDRLEN + sizeof(*e));
	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = NLMSG_ERROR;
	nlh->nlmsg_flags = NLM_F_CAPPED;
	nlh->nlmsg_seq = last_seq;
	nlh->nlmsg_pid = last_portid;
	e = mnl_nlmsg_put_extra_header(nlh, sizeof(*e));
	if (mock_last_request)
		e->msg = *mock_last_request;
	return (ssize_t)nlh->nlmsg_len;
}

static struct mock_dgram *mock_dgram_new(const struct nlmsghdr *nlh)
{
	struct mock_dgram *d;

	assert_true(dgrams_used < MOCK_SLOTS);
	d = &dgrams[dgrams_used++];
	memset(d, 0, sizeof(*d));
	d->nlh = nlh;
	will_return(__wrap_mnl_socket_recvfrom, d);
	return d;
}

void mock_queue(const struct nlmsghdr *nlh, bool raw)
{
	mock_dgram_new(nlh)->raw = raw;
}

void mock_queue_foreign(const struct nlmsghdr *nlh)
{
	mock_dgram_new(nlh)->foreign = true;
}

void mock_queue_recv_error(int err)
{
	mock_dgram_new(NULL)->err = err;
}

struct nlmsghdr *mock_msg_ack(void)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(mock_slot());

	nlh->nlmsg_type = NLMSG_ERROR;
	nlh->nlmsg_flags = NLM_F_CAPPED;
	mnl_nlmsg_put_extra_header(nlh, sizeof(struct nlmsgerr));
	return nlh;
}

struct nlmsghdr *mock_msg_genl(uint16_t type, uint16_t flags, uint8_t cmd)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(mock_slot());
	struct genlmsghdr *genl;

	nlh->nlmsg_type = type;
	nlh->nlmsg_flags = flags;
	genl = mnl_nlmsg_put_extra_header(nlh, sizeof(*genl));
	genl->cmd = cmd;
	genl->version = 1;
	return nlh;
}

void mock_queue_family(const char *grp_name, uint32_t grp_id)
{
	struct nlmsghdr *nlh = mock_msg_genl(GENL_ID_CTRL, 0,
					     CTRL_CMD_NEWFAMILY);
	struct nlattr *grps, *grp;

	mnl_attr_put_strz(nlh, CTRL_ATTR_FAMILY_NAME, PROFIL_GENL_NAME);
	mnl_attr_put_u16(nlh, CTRL_ATTR_FAMILY_ID, MOCK_FAMILY_ID);
	mnl_attr_put_u32(nlh, CTRL_ATTR_VERSION, PROFIL_GENL_VERSION);
	mnl_attr_put_u32(nlh, CTRL_ATTR_HDRSIZE, 0);
	mnl_attr_put_u32(nlh, CTRL_ATTR_MAXATTR, PROFIL_ATTR_MAX);
	if (grp_name) {
		grps = mnl_attr_nest_start(nlh, CTRL_ATTR_MCAST_GROUPS);
		grp = mnl_attr_nest_start(nlh, 1);
		mnl_attr_put_u32(nlh, CTRL_ATTR_MCAST_GRP_ID, grp_id);
		mnl_attr_put_strz(nlh, CTRL_ATTR_MCAST_GRP_NAME, grp_name);
		mnl_attr_nest_end(nlh, grp);
		mnl_attr_nest_end(nlh, grps);
	}
	mock_queue(nlh, false);
	mock_queue_ack();
}

void mock_queue_ack(void)
{
	mock_queue(mock_msg_ack(), false);
}

void mock_queue_error(int err, const char *extack, bool capped)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(mock_slot());
	struct nlmsgerr *e;

	nlh->nlmsg_type = NLMSG_ERROR;
	nlh->nlmsg_flags = capped ? NLM_F_CAPPED : 0;
	/* Uncapped: the echoed request has a genl header and one u32 attr. */
	e = mnl_nlmsg_put_extra_header(nlh, sizeof(*e) + (capped ? 0 : 12));
	e->error = -err;
	e->msg.nlmsg_len = NLMSG_HDRLEN + (capped ? 0 : 12);
	e->msg.nlmsg_type = MOCK_FAMILY_ID;
	if (!capped)	/* a bogus echoed attribute that must not be parsed */
		memcpy((char *)(e + 1) + 4, "\x08\x00\x01\x00jun", 8);
	if (extack) {
		nlh->nlmsg_flags |= NLM_F_ACK_TLVS;
		mnl_attr_put_strz(nlh, NLMSGERR_ATTR_MSG, extack);
		mnl_attr_put_u32(nlh, NLMSGERR_ATTR_OFFS, 20);
	}
	mock_queue(nlh, false);
}

void mock_queue_done(int err)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(mock_slot());
	int *e;

	nlh->nlmsg_type = NLMSG_DONE;
	nlh->nlmsg_flags = NLM_F_MULTI;
	e = mnl_nlmsg_put_extra_header(nlh, sizeof(*e));
	*e = -err;
	mock_queue(nlh, false);
}

struct nlmsghdr *mock_msg_status(uint8_t cmd, uint16_t flags,
				 const struct profil_status *st)
{
	struct nlmsghdr *nlh = mock_msg_genl(MOCK_FAMILY_ID, flags, cmd);
	const struct profil_stats *s = &st->stats;
	struct nlattr *nest;

	mnl_attr_put_u32(nlh, PROFIL_ATTR_PID, (uint32_t)st->pid);
	mnl_attr_put_u64(nlh, PROFIL_ATTR_BUF, st->buf);
	mnl_attr_put_u64(nlh, PROFIL_ATTR_BUFSIZ, st->bufsiz);
	mnl_attr_put_u64(nlh, PROFIL_ATTR_OFFSET, st->offset);
	mnl_attr_put_u32(nlh, PROFIL_ATTR_SCALE, st->scale);
	mnl_attr_put_u32(nlh, PROFIL_ATTR_RATE, st->rate);
	mnl_attr_put_u32(nlh, PROFIL_ATTR_FLAGS, st->flags);
	mnl_attr_put_u32(nlh, PROFIL_ATTR_STATE, st->state);
	mnl_attr_put_u32(nlh, PROFIL_ATTR_REASON, st->reason);
	mnl_attr_put_u64(nlh, PROFIL_ATTR_FAULT_ADDR, st->fault_addr);
	nest = mnl_attr_nest_start(nlh, PROFIL_ATTR_STATS);
	mnl_attr_put_u64(nlh, PROFIL_STAT_TICKS, s->ticks);
	mnl_attr_put_u64(nlh, PROFIL_STAT_IN_RANGE, s->in_range);
	mnl_attr_put_u64(nlh, PROFIL_STAT_OUT_OF_RANGE, s->out_of_range);
	mnl_attr_put_u64(nlh, PROFIL_STAT_SYSTEM_DROPPED, s->system_dropped);
	mnl_attr_put_u64(nlh, PROFIL_STAT_SYSTEM_CHARGED, s->system_charged);
	mnl_attr_put_u64(nlh, PROFIL_STAT_DEFERRED, s->deferred);
	mnl_attr_put_u64(nlh, PROFIL_STAT_PENDING, s->pending);
	mnl_attr_put_u64(nlh, PROFIL_STAT_DISCARDED, s->discarded);
	mnl_attr_put_u64(nlh, PROFIL_STAT_FAULTED, s->faulted);
	mnl_attr_nest_end(nlh, nest);
	return nlh;
}
