// SPDX-License-Identifier: GPL-2.0
/*
 * nl_fuzz (nl_fuzz.c): sending one message, then a NOOP sentinel, and
 * checking everything up to the sentinel's ACK against what the message
 * calls for (struct expect); a failure prints the message as hex.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/wait.h>

#include "nl_fuzz.h"

static void hexdump(const uint8_t *b, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		printf("%s%02x%s", i % 16 ? "" : "#   ", b[i],
		       i % 16 == 15 || i == len - 1 ? "\n" : " ");
}

static void fail(struct fuzz *f, const struct msg *m, const char *what,
		 const char *why)
{
	f->failures++;
	if (f->failures > 5)
		return;
	printf("# FAIL: %s: %s; message (%zu bytes):\n", what, why, m->len);
	hexdump(m->b, m->len);
}

static int send_raw(struct fuzz *f, const void *b, size_t len)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };

	return sendto(f->fd, b, len, 0, (struct sockaddr *)&sa, sizeof(sa));
}

/* A well-formed NLMSG_ERROR; returns its errno (>= 0) or -1. */
static int check_error(struct fuzz *f, const struct nlmsghdr *nlh,
		       const struct msg *m, const char **why, bool *extack)
{
	const struct nlmsgerr *e = NLMSG_DATA(nlh);
	const struct nlattr *a;
	unsigned int off;

	*extack = false;
	if (nlh->nlmsg_len < NLMSG_LENGTH(sizeof(*e))) {
		*why = "short NLMSG_ERROR";
		return -1;
	}
	if (e->error > 0 || e->error < -255) {
		*why = "error out of range";
		return -1;
	}
	if (m && m->len >= NLMSG_HDRLEN &&
	    (e->msg.nlmsg_type != msg_hdr((struct msg *)m)->nlmsg_type ||
	     e->msg.nlmsg_flags != msg_hdr((struct msg *)m)->nlmsg_flags)) {
		*why = "NLMSG_ERROR does not echo the request header";
		return -1;
	}
	if (!(nlh->nlmsg_flags & NLM_F_CAPPED)) {
		*why = "NETLINK_CAP_ACK ignored";
		return -1;
	}
	off = NLMSG_LENGTH(sizeof(*e));
	if (nlh->nlmsg_flags & NLM_F_ACK_TLVS) {
		size_t rem = nlh->nlmsg_len - off;

		a = (const struct nlattr *)((const uint8_t *)nlh + off);
		while (rem >= NLA_HDRLEN) {
			size_t alen = a->nla_len;

			if (alen < NLA_HDRLEN || alen > rem) {
				*why = "malformed extack TLV";
				return -1;
			}
			if ((a->nla_type & NLA_TYPE_MASK) == NLMSGERR_ATTR_MSG) {
				const char *s = (const char *)(a + 1);

				if (alen == NLA_HDRLEN ||
				    s[alen - NLA_HDRLEN - 1]) {
					*why = "extack message not terminated";
					return -1;
				}
				*extack = true;
			}
			if ((a->nla_type & NLA_TYPE_MASK) ==
			    NLMSGERR_ATTR_MISS_TYPE)
				f->miss_type++;
			if ((a->nla_type & NLA_TYPE_MASK) == NLMSGERR_ATTR_OFFS) {
				uint32_t o = *(const uint32_t *)(a + 1);

				if (m && o >= msg_hdr((struct msg *)m)->nlmsg_len) {
					*why = "extack offset past the request";
					return -1;
				}
			}
			if (NLA_ALIGN(alen) >= rem)
				break;
			rem -= NLA_ALIGN(alen);
			a = (const struct nlattr *)((const uint8_t *)a +
						    NLA_ALIGN(alen));
		}
	}
	return -e->error;
}

struct seen {
	int errors, err, data, done, done_err, stray;
	bool extack, bad_data;
	const char *why;
};

static int status_attr_cb(const struct nlattr *attr, void *data)
{
	return pnl_attr_cb(attr, data);
}

bool status_sane(const struct pnl_status *st)
{
	if (st->state == PROFIL_STATE_ACTIVE)
		return st->reason == PROFIL_STOP_NONE;
	return st->state == PROFIL_STATE_STOPPED &&
	       st->reason > PROFIL_STOP_NONE && st->reason <= PROFIL_STOP_MAX;
}

/*
 * Read and classify what comes for @seq, until the sentinel's ACK, or with
 * sentinel 0 until @seq's NLMSG_ERROR or NLMSG_DONE.
 */
static int collect(struct fuzz *f, uint32_t seq, uint32_t sentinel,
		   const struct msg *m, struct seen *s)
{
	static uint8_t buf[1 << 16];

	for (;;) {
		ssize_t n = recv(f->fd, buf, sizeof(buf), 0);
		struct nlmsghdr *nlh;
		int len;

		if (n < 0) {
			s->why = errno == EAGAIN ? "no reply within 10 s (hang)" :
						   strerror(errno);
			return -1;
		}
		len = n;
		for (nlh = (struct nlmsghdr *)buf; NLMSG_OK(nlh, len);
		     nlh = NLMSG_NEXT(nlh, len)) {
			bool extack;
			int err;

			if (nlh->nlmsg_seq == sentinel) {
				const char *why = NULL;

				if (nlh->nlmsg_type != NLMSG_ERROR ||
				    check_error(f, nlh, NULL, &why, &extack)) {
					s->why = "sentinel not acked cleanly";
					return -1;
				}
				return 0;
			}
			if (nlh->nlmsg_seq != seq ||
			    nlh->nlmsg_pid != f->portid) {
				s->stray++;
				continue;
			}
			if (nlh->nlmsg_type == NLMSG_ERROR) {
				err = check_error(f, nlh, m, &s->why, &extack);
				if (err < 0)
					return -1;
				s->errors++;
				s->err = err;
				s->extack |= extack;
				if (!sentinel)
					return 0;
			} else if (nlh->nlmsg_type == NLMSG_DONE) {
				s->done++;
				/* A dump's error: checked against the expected. */
				if (nlh->nlmsg_len >= NLMSG_LENGTH(4))
					s->done_err = -*(int *)NLMSG_DATA(nlh);
				if (!sentinel)
					return 0;
			} else if (nlh->nlmsg_type == f->family) {
				struct pnl_status st = {};
				struct genlmsghdr *g = NLMSG_DATA(nlh);

				s->data++;
				/* A profile's parts: not a session's status. */
				if (g->cmd == PROFIL_CMD_GET_PROFILE)
					continue;
				if (g->cmd != PROFIL_CMD_GET &&
				    g->cmd != PROFIL_CMD_GET_REGIONS)
					s->bad_data = true;
				mnl_attr_parse(nlh, GENL_HDRLEN,
					       status_attr_cb, &st);
				if (!st.pid || (g->cmd == PROFIL_CMD_GET &&
						!status_sane(&st)))
					s->bad_data = true;
			} else {
				s->stray++;
			}
		}
		if (len) {
			s->why = "truncated netlink message in a reply";
			return -1;
		}
	}
}

/*
 * Send one datagram, wait for its answer if it must get one, then send the
 * sentinel and read up to its ACK: anything more for the datagram after
 * its answer is an error. (A dump's NLMSG_DONE comes only once the reader
 * drains the first part, so the sentinel cannot go out at once.)
 */
void exchange(struct fuzz *f, struct msg *m, const struct expect *x)
{
	uint32_t seq = ++f->seq, sentinel = ++f->seq;
	struct nlmsghdr noop = {
		.nlmsg_len = NLMSG_HDRLEN, .nlmsg_type = NLMSG_NOOP,
		.nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK,
		.nlmsg_seq = sentinel,
	};
	struct seen s;
	char why[160];

	if (m->len >= 12)
		msg_hdr(m)->nlmsg_seq = seq;
	f->sent++;
	memset(&s, 0, sizeof(s));
	if (send_raw(f, m->b, m->len) < 0) {
		snprintf(why, sizeof(why), "send: %s", strerror(errno));
		fail(f, m, x->what, why);
		return;
	}
	if (x->reply && !x->reply_on_error && collect(f, seq, 0, m, &s)) {
		fail(f, m, x->what, s.why);
		return;
	}
	if (send_raw(f, &noop, sizeof(noop)) < 0) {
		snprintf(why, sizeof(why), "send: %s", strerror(errno));
		fail(f, m, x->what, why);
		return;
	}
	if (collect(f, seq, sentinel, m, &s)) {
		fail(f, m, x->what, s.why);
		return;
	}
	if (s.stray) {
		fail(f, m, x->what, "reply with a wrong seq, portid or type");
		return;
	}
	if (s.errors > 1) {
		fail(f, m, x->what, "more than one NLMSG_ERROR");
		return;
	}
	if (!s.errors) {
		if (x->dump && s.done == 1 && !s.bad_data &&
		    s.done_err >= 0 && s.done_err < 256 &&
		    (x->errs & E(s.done_err))) {
			f->dumps++;
			f->dump_msgs += s.data;
			f->errno_count[0]++;
			f->cls_count[x->cls][0]++;
			return;
		}
		if (!x->reply || (x->reply_on_error && !s.data && !s.done)) {
			f->no_reply++;
			f->cls_none[x->cls]++;
			return;
		}
		if (x->reply_on_error && x->get_reply && s.data == 1 &&
		    !s.done && !s.bad_data) {
			f->get_replies++;
			f->errno_count[0]++;
			f->cls_count[x->cls][0]++;
			return;
		}
		fail(f, m, x->what, s.done ? "bad dump" : "missing reply");
		return;
	}
	if (s.done || (s.data && (!x->get_reply || s.err))) {
		fail(f, m, x->what, "unexpected data or NLMSG_DONE");
		return;
	}
	if (s.bad_data) {
		fail(f, m, x->what, "GET reply not sane");
		return;
	}
	if (!x->reply) {
		fail(f, m, x->what, "reply to a message that gets none");
		return;
	}
	if (!(x->errs & E(s.err))) {
		snprintf(why, sizeof(why), "errno %d (%s) not expected",
			 s.err, strerror(s.err));
		fail(f, m, x->what, why);
		return;
	}
	if (x->get_reply && !s.err && s.data != 1) {
		fail(f, m, x->what, "GET succeeded without its reply");
		return;
	}
	if (x->reply_on_error && !s.err && !s.data) {
		fail(f, m, x->what, "ACK without NLM_F_ACK");
		return;
	}
	f->get_replies += s.data;
	f->errno_count[s.err]++;
	f->extack_count[s.err] += s.extack;
	f->cls_count[x->cls][s.err]++;
	f->cls_extack[x->cls][s.err] += s.extack;
}

