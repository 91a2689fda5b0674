// SPDX-License-Identifier: GPL-2.0
/*
 * nl_fuzz's generators (nl_fuzz.c): a seeded random source, message
 * building, the pools of values a request names (PIDs, buffers inside
 * the arena, sizes, scales, offsets, rates), and one generator per class
 * of message, each saying what must come back (struct expect).
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

uint64_t rng;

static uint64_t rnd(void)
{
	/* splitmix64 */
	uint64_t z = (rng += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static uint32_t below(uint32_t n)
{
	return n ? rnd() % n : 0;
}

static bool chance(unsigned int percent)
{
	return below(100) < percent;
}

/* ---- message building ---- */

static void msg_init(struct msg *m, uint16_t type, uint16_t flags, uint8_t cmd,
		     uint8_t version)
{
	struct nlmsghdr *nlh = msg_hdr(m);
	struct genlmsghdr *g = (struct genlmsghdr *)(m->b + NLMSG_HDRLEN);

	memset(m->b, 0, sizeof(m->b));
	nlh->nlmsg_type = type;
	nlh->nlmsg_flags = flags;
	g->cmd = cmd;
	g->version = version;
	m->len = NLMSG_HDRLEN + GENL_HDRLEN;
}

/* Append an attribute; the payload length is exactly @len. */
static void *msg_attr(struct msg *m, uint16_t type, size_t len,
		      const void *data)
{
	struct nlattr *a = (struct nlattr *)(m->b + m->len);

	if (m->len + NLA_HDRLEN + NLA_ALIGN(len) > sizeof(m->b) - 64)
		return NULL;
	a->nla_type = type;
	a->nla_len = NLA_HDRLEN + len;
	if (data)
		memcpy((uint8_t *)a + NLA_HDRLEN, data, len);
	m->len += NLA_HDRLEN + NLA_ALIGN(len);
	return (uint8_t *)a + NLA_HDRLEN;
}

static void msg_u32(struct msg *m, uint16_t type, uint32_t v)
{
	msg_attr(m, type, sizeof(v), &v);
}

static void msg_u64(struct msg *m, uint16_t type, uint64_t v)
{
	msg_attr(m, type, sizeof(v), &v);
}

static void msg_finish(struct msg *m)
{
	msg_hdr(m)->nlmsg_len = m->len;
}

/* ---- value pools ---- */

enum pid_kind { PID_SELF, PID_VICTIM, PID_ZERO, PID_KTHREAD, PID_NONE,
		PID_NEG, PID_FOREIGN, PID_KINDS };

/* A PID and the errno a request naming it gets (foreign: GET/STOP only). */
static uint32_t pick_pid(struct fuzz *f, bool foreign_ok, int *err)
{
	int kind = below(PID_KINDS - !foreign_ok);

	*err = 0;
	switch (kind) {
	case PID_SELF: return f->self;
	case PID_VICTIM: return f->victim[below(2)];
	case PID_ZERO: *err = ERANGE; return 0;
	case PID_KTHREAD: *err = EINVAL; return 2;
	case PID_NONE: *err = ESRCH; return 0x3fffffff - below(1000);
	case PID_NEG: *err = ESRCH; return -1 - (int32_t)below(1 << 20);
	default: return chance(50) ? 1 : getppid();
	}
}

enum buf_kind { BUF_NULL, BUF_RW, BUF_ODD, BUF_LAST, BUF_STRADDLE, BUF_RO,
		BUF_HOLE, BUF_NONE, BUF_LOW, BUF_ARENA_RANDOM, BUF_KERNEL,
		BUF_NONCANON, BUF_TOP, BUF_ALL_ONES, BUF_KINDS };

/*
 * A buffer address; *kernel: access_ok() fails for any size, with 4 or 5
 * page-table levels; *edge: the last user page, where it depends.
 */
static uint64_t pick_buf(struct fuzz *f, bool *kernel, bool *edge)
{
	uint64_t a = (uintptr_t)f->arena;

	*kernel = false;
	*edge = false;
	switch (below(BUF_KINDS)) {
	case BUF_NULL: return 0;
	case BUF_RW: return a;
	case BUF_ODD: return a + 1 + 2 * below(32);
	case BUF_LAST: return a + ARENA_PART - 2 + below(2);
	case BUF_STRADDLE: return a + ARENA_PART - 64 + below(64);
	case BUF_RO: return a + ARENA_PART + below(64);
	case BUF_HOLE: return a + 2 * ARENA_PART + below(64);
	case BUF_NONE: return a + 3 * ARENA_PART + below(64);
	case BUF_LOW: return below(4096);
	case BUF_ARENA_RANDOM: return a + below(ARENA_PTR_MAX);
	case BUF_KERNEL:
		*kernel = true;
		return chance(50) ? 0xffff888000000000ULL :
				    0xffffffff81000000ULL + below(1 << 20);
	case BUF_NONCANON:
		*kernel = true;
		return 0x0200000000000000ULL | rnd();
	case BUF_TOP:
		/* TASK_SIZE_MAX with 4 levels: nothing is mapped there. */
		*edge = true;
		return 0x00007ffffffff000ULL + below(0x1000);
	default:
		*kernel = true;
		return ~0ULL - below(16);
	}
}

/*
 * A size; *huge: no user buffer has it. Small sizes keep every counter of
 * a buffer from pick_buf() inside the arena.
 */
static uint64_t pick_bufsiz(uint64_t buf, bool *huge)
{
	static const uint64_t big[] = {
		1ULL << 57, 1ULL << 60, 1ULL << 63, ~0ULL, ~0ULL - 1,
		0x8000000000000001ULL,
	};

	*huge = false;
	switch (below(8)) {
	case 0: return below(4);
	case 1: return ARENA_PART;
	case 2: return 2 * ARENA_PART - below(3);
	case 3: return ARENA_SIZ_MAX;
	case 4: return below(ARENA_SIZ_MAX + 1);
	case 5: *huge = true; return big[below(sizeof(big) / sizeof(big[0]))];
	case 6: *huge = true; return -buf;	/* buf + bufsiz == 0 */
	default: return 2 * below(4096);
	}
}

static uint32_t pick_scale(void)
{
	static const uint32_t s[] = { 0, 1, 2, 0x4000, 0x8000, 0xffff, 0x10000,
				      0x10001, 0x20000, 0x7fffffff, 0xffffffff };

	return chance(20) ? (uint32_t)rnd() : s[below(sizeof(s) / sizeof(s[0]))];
}

static uint64_t pick_offset(struct fuzz *f)
{
	switch (below(5)) {
	case 0: return 0;
	case 1: return (uintptr_t)pick_offset & ~0xfffULL;
	case 2: return ~0ULL;
	case 3: return 1ULL << 63;
	default: return rnd();
	}
}

/* A rate and whether the policy takes it. */
static uint32_t pick_rate(bool *ok)
{
	static const uint32_t r[] = { PROFIL_RATE_MIN, PROFIL_RATE_MAX, 100, 250,
				      1000, 5000 };
	static const uint32_t bad[] = { 0, 1, PROFIL_RATE_MIN - 1,
					PROFIL_RATE_MAX + 1, 0x7fffffff,
					0x80000000, 0xffffffff };

	*ok = chance(80);
	return *ok ? r[below(sizeof(r) / sizeof(r[0]))] :
		     bad[below(sizeof(bad) / sizeof(bad[0]))];
}

/* ---- generators: each fills @m and says what must come back ---- */

/*
 * A well-formed request with at most one fault, whose errno is predicted
 * exactly (GET's depends on whether a session exists).
 */
static void gen_valid(struct fuzz *f, struct msg *m, struct expect *x)
{
	uint16_t flags = NLM_F_REQUEST | NLM_F_ACK;
	int cmd = 1 + below(3), pid_err = 0, fault = below(10);
	bool dump = cmd == PROFIL_CMD_GET && chance(25);
	uint32_t pid = 0;

	x->what = "valid";
	x->reply = true;
	if (dump)
		flags |= NLM_F_DUMP;
	msg_init(m, f->family, flags, cmd, chance(90) ? PROFIL_GENL_VERSION :
							 below(256));
	if (chance(60))
		pid = pick_pid(f, cmd != PROFIL_CMD_START, &pid_err);

	if (cmd == PROFIL_CMD_START) {
		bool kernel, edge, huge, rate_ok = true;
		uint64_t buf = pick_buf(f, &kernel, &edge);
		uint64_t bufsiz = pick_bufsiz(buf, &huge);
		uint32_t scale = pick_scale(), rate = 0, fl = 0;
		int missing = fault == 0 ? 1 + below(4) : 0;
		int err;

		if (fault == 1)
			rate = pick_rate(&rate_ok);
		else if (chance(70))
			rate = PROFIL_RATE_MIN + below(PROFIL_RATE_MAX -
						      PROFIL_RATE_MIN + 1);
		if (fault == 2)
			fl = (uint32_t)rnd() | (PROFIL_F_ALL + 1);
		else if (chance(30))
			fl = PROFIL_F_SYSTEM_TICKS;
		if (missing != 1)
			msg_u64(m, PROFIL_ATTR_BUF, buf);
		if (missing != 2)
			msg_u64(m, PROFIL_ATTR_BUFSIZ, bufsiz);
		if (missing != 3)
			msg_u64(m, PROFIL_ATTR_OFFSET, pick_offset(f));
		if (missing != 4)
			msg_u32(m, PROFIL_ATTR_SCALE, scale);
		if (rate || fault == 1)
			msg_u32(m, PROFIL_ATTR_RATE, rate);
		if (fl || chance(20))
			msg_u32(m, PROFIL_ATTR_FLAGS, fl);
		if (pid || pid_err)
			msg_u32(m, PROFIL_ATTR_PID, pid);
		/* Policy (in attribute order), required, target, buffer. */
		if (!rate_ok)
			err = ERANGE;
		else if (fault == 2)
			err = EINVAL;
		else if (pid_err == ERANGE)
			err = ERANGE;
		else if (missing)
			err = EINVAL;
		else if (pid_err)
			err = pid_err;
		else if (!buf || !scale)
			err = 0;
		else if (kernel || huge)
			err = EFAULT;
		else
			err = 0;
		x->errs = E(err);
		if (edge && !err)
			x->errs |= E(EFAULT);
		return;
	}
	if (pid || pid_err)
		msg_u32(m, PROFIL_ATTR_PID, pid);
	if (cmd == PROFIL_CMD_STOP) {
		/* Another process is its tracer's: the fuzzer's parent or init. */
		bool foreign = !pid_err && pid && pid != f->self &&
			       pid != f->victim[0] && pid != f->victim[1];

		x->errs = E(foreign ? EPERM : pid_err);
	} else if (dump) {
		/*
		 * A dump of every session takes no PID: after the policy,
		 * the dump's first part refuses it (in NLMSG_DONE).
		 */
		x->dump = pid_err != ERANGE;
		x->errs = E(pid_err == ERANGE ? ERANGE :
			    pid || pid_err ? EINVAL : 0);
	} else {
		x->errs = pid_err ? E(pid_err) : E(0) | E(ENOENT);
		x->get_reply = !pid_err;
	}
}

/* Any command number; unknown ones and STOPPED are not operations. */
static void gen_cmd(struct fuzz *f, struct msg *m, struct expect *x)
{
	static const uint8_t odd[] = { PROFIL_CMD_UNSPEC, PROFIL_CMD_STOPPED,
				       __PROFIL_CMD_MAX, 0x7f, 0x80, 0xff };
	uint8_t cmd = chance(50) ? odd[below(sizeof(odd))] : below(256);
	uint16_t flags = NLM_F_REQUEST | NLM_F_ACK;

	if (chance(30))
		flags |= NLM_F_DUMP;
	msg_init(m, f->family, flags, cmd, below(256));
	if (chance(50))
		msg_u32(m, PROFIL_ATTR_PID, f->self);
	x->what = "command";
	x->reply = true;
	if (cmd >= PROFIL_CMD_START && cmd <= PROFIL_CMD_GET) {
		x->errs = E_ANY_REQ;
		x->reply_on_error = false;
		x->dump = cmd == PROFIL_CMD_GET && (flags & NLM_F_DUMP);
		x->get_reply = cmd == PROFIL_CMD_GET && !x->dump;
	} else if (cmd == PROFIL_CMD_ADD_REGIONS) {
		/* No region: refused, whether or not a session exists. */
		x->errs = E(EINVAL) | E(ENOENT);
	} else if (cmd == PROFIL_CMD_GET_REGIONS) {
		x->dump = flags & NLM_F_DUMP;
		x->errs = x->dump ? E(0) | E(ENOENT) : E(EOPNOTSUPP);
	} else if (cmd == PROFIL_CMD_COLLECT) {
		/*
		 * Follows the fuzzer itself into its socket's profile: the
		 * first time, then "followed already". A doit only.
		 */
		x->errs = flags & NLM_F_DUMP ? E(EOPNOTSUPP) :
					       E(0) | E(EEXIST) | E(EPERM);
	} else if (cmd == PROFIL_CMD_GET_PROFILE) {
		/* Dump only, no attribute; no profile before a COLLECT. */
		x->dump = flags & NLM_F_DUMP;
		x->errs = !x->dump			? E(EOPNOTSUPP) :
			  m->len > NLMSG_HDRLEN + GENL_HDRLEN ? E(EINVAL) :
							  E(0) | E(ENOENT);
	} else {
		x->errs = E(EOPNOTSUPP);
	}
}

/*
 * Attribute soup for a real command: random types (unknown, zero, past
 * the maximum, kernel-only), lengths (short, long, oversized), flag bits
 * (NLA_F_NESTED, NLA_F_NET_BYTEORDER), duplicates, nests of garbage.
 * Values of the right size come from the pools, so that whatever the
 * kernel accepts stays in bounds.
 */
static void gen_soup(struct fuzz *f, struct msg *m, struct expect *x)
{
	int cmd = 1 + below(3), n = below(12), i;
	uint16_t flags = NLM_F_REQUEST | NLM_F_ACK;
	bool dump = cmd == PROFIL_CMD_GET && chance(20);

	if (dump)
		flags |= NLM_F_DUMP;
	msg_init(m, f->family, flags, cmd, PROFIL_GENL_VERSION);
	x->what = "attributes";
	x->reply = true;
	x->errs = E_ANY_REQ & ~E(EOPNOTSUPP);
	x->dump = dump;
	x->get_reply = cmd == PROFIL_CMD_GET && !dump;

	for (i = 0; i < n; i++) {
		uint16_t type = chance(85) ? below(PROFIL_ATTR_MAX + 1) :
			       chance(50) ? PROFIL_ATTR_MAX + 1 + below(8) :
					    (uint16_t)rnd() & NLA_TYPE_MASK;
		size_t len, j;
		uint8_t *p;
		uint64_t v;
		bool k, h, ok, edge;
		int e;

		switch (below(10)) {
		case 0: len = 0; break;
		case 1: len = 1 + below(3); break;
		case 2: len = 5 + below(3); break;
		case 3: len = 9 + below(24); break;
		case 4: len = 100 + below(400); break;	/* oversized */
		case 5: case 6: len = 4; break;
		default: len = 8; break;
		}
		p = msg_attr(m, type, len, NULL);
		if (!p)
			break;
		for (j = 0; j < len; j++)
			p[j] = rnd();
		if (chance(5))
			((struct nlattr *)(p - NLA_HDRLEN))->nla_type |=
				chance(50) ? NLA_F_NESTED : NLA_F_NET_BYTEORDER;
		/* Right-sized values from the pools. */
		switch (type) {
		case PROFIL_ATTR_PID:
			if (len == 4) {
				uint32_t pid = pick_pid(f, cmd != PROFIL_CMD_START, &e);

				memcpy(p, &pid, 4);
			}
			break;
		case PROFIL_ATTR_BUF:
			if (len == 8) {
				v = pick_buf(f, &k, &edge);
				memcpy(p, &v, 8);
			}
			break;
		case PROFIL_ATTR_BUFSIZ:
			if (len == 8) {
				v = pick_bufsiz((uintptr_t)f->arena, &h);
				memcpy(p, &v, 8);
			}
			break;
		case PROFIL_ATTR_RATE:
			if (len == 4) {
				uint32_t r = pick_rate(&ok);

				memcpy(p, &r, 4);
			}
			break;
		case PROFIL_ATTR_STATS:
			/* A nest of stat-looking attributes. */
			if (len >= 12) {
				struct nlattr *in = (struct nlattr *)p;

				in->nla_type = below(PROFIL_STAT_MAX + 2);
				in->nla_len = NLA_HDRLEN + 8;
				((struct nlattr *)(p - NLA_HDRLEN))->nla_type |=
					NLA_F_NESTED;
			}
			break;
		}
	}
	/* The last BUF, BUFSIZ and PID win; the kernel takes only pool values. */
}

/* Required attributes doubled, or every attribute doubled. */
static void gen_dup(struct fuzz *f, struct msg *m, struct expect *x)
{
	uint64_t a = (uintptr_t)f->arena;
	int copies = 2 + below(3), i;

	msg_init(m, f->family, NLM_F_REQUEST | NLM_F_ACK, PROFIL_CMD_START,
		 PROFIL_GENL_VERSION);
	for (i = 0; i < copies; i++) {
		msg_u64(m, PROFIL_ATTR_BUF, a + 2 * below(16));
		msg_u64(m, PROFIL_ATTR_BUFSIZ, ARENA_PART);
		msg_u64(m, PROFIL_ATTR_OFFSET, 0);
		msg_u32(m, PROFIL_ATTR_SCALE, 0x10000 >> below(4));
		msg_u32(m, PROFIL_ATTR_RATE, chance(50) ? 100 : 1000);
		msg_u32(m, PROFIL_ATTR_FLAGS, below(2));
		msg_u32(m, PROFIL_ATTR_PID, chance(70) ? f->self :
						f->victim[below(2)]);
	}
	x->what = "duplicates";
	x->reply = true;
	x->errs = E(0);
}

/* Kernel-only attributes and nests sent to the kernel. */
static void gen_nested(struct fuzz *f, struct msg *m, struct expect *x)
{
	static const uint16_t ko[] = { PROFIL_ATTR_STATE, PROFIL_ATTR_REASON,
				       PROFIL_ATTR_FAULT_ADDR, PROFIL_ATTR_STATS,
				       PROFIL_ATTR_PAD, PROFIL_ATTR_NR_REGIONS };
	int cmd = 1 + below(3);
	uint16_t type = ko[below(sizeof(ko) / sizeof(ko[0]))];
	uint8_t nest[64];
	size_t len = 0;
	int i, n = below(5);

	msg_init(m, f->family, NLM_F_REQUEST | NLM_F_ACK, cmd,
		 PROFIL_GENL_VERSION);
	if (cmd == PROFIL_CMD_START && chance(50)) {
		msg_u64(m, PROFIL_ATTR_BUF, (uintptr_t)f->arena);
		msg_u64(m, PROFIL_ATTR_BUFSIZ, ARENA_PART);
		msg_u64(m, PROFIL_ATTR_OFFSET, 0);
		msg_u32(m, PROFIL_ATTR_SCALE, 0x8000);
	}
	for (i = 0; i < n; i++) {
		struct nlattr *a = (struct nlattr *)(nest + len);
		uint64_t v = rnd();

		a->nla_type = below(PROFIL_STAT_MAX + 3);
		a->nla_len = NLA_HDRLEN + 8;
		memcpy(a + 1, &v, 8);
		len += NLA_HDRLEN + 8;
	}
	if (chance(30) && len)
		nest[len - 1 - below(4)] ^= 0xff;	/* garbage inside */
	msg_attr(m, type | (chance(70) ? NLA_F_NESTED : 0),
		 type == PROFIL_ATTR_STATS || chance(30) ? len : 8, nest);
	x->what = "nested";
	x->reply = true;
	/* NLA_REJECT (START) or past maxattr (STOP, GET): always refused. */
	x->errs = E(EINVAL);
}

/* Truncated and lying headers, odd flags and types. */
static void gen_header(struct fuzz *f, struct msg *m, struct expect *x)
{
	struct nlmsghdr *nlh = msg_hdr(m);
	int kind = below(9);

	msg_init(m, f->family, NLM_F_REQUEST | NLM_F_ACK, 1 + below(3),
		 PROFIL_GENL_VERSION);
	if (chance(50))
		msg_u32(m, PROFIL_ATTR_PID, f->self);
	msg_finish(m);
	x->reply = true;
	switch (kind) {
	case 0:	/* shorter than a netlink header: dropped */
		/* (An empty one is refused by sendmsg() itself.) */
		m->len = 1 + below(NLMSG_HDRLEN - 1);
		x->reply = false;
		x->what = "short datagram";
		break;
	case 1:	/* nlmsg_len below the header size: dropped */
		nlh->nlmsg_len = below(NLMSG_HDRLEN);
		x->reply = false;
		x->what = "nlmsg_len < header";
		break;
	case 2:	/* nlmsg_len past the datagram: dropped */
		nlh->nlmsg_len = m->len + 1 + below(chance(50) ? 8 : 1 << 16);
		if (chance(10))
			nlh->nlmsg_len = 0xffffffff;
		x->reply = false;
		x->what = "nlmsg_len > datagram";
		break;
	case 3:	/* genetlink header cut short */
		nlh->nlmsg_len = NLMSG_HDRLEN + below(GENL_HDRLEN);
		m->len = nlh->nlmsg_len + (chance(50) ? 0 : below(NLMSG_HDRLEN));
		x->errs = E(EINVAL);
		x->what = "genl header cut";
		break;
	case 4:	/* nlmsg_len cuts the last attribute */
		m->len = NLMSG_HDRLEN + GENL_HDRLEN;
		msg_u32(m, PROFIL_ATTR_PID, f->self);
		nlh->nlmsg_len = m->len - 1 - below(7);
		x->errs = E(EINVAL);
		x->what = "attribute cut";
		break;
	case 5:	/* not a request: only the ACK comes back */
		nlh->nlmsg_flags &= ~NLM_F_REQUEST;
		if (chance(50))
			nlh->nlmsg_flags &= ~NLM_F_ACK;
		x->reply = nlh->nlmsg_flags & NLM_F_ACK;
		x->errs = E(0);
		x->what = "no NLM_F_REQUEST";
		break;
	case 6:	/* control message types: acked, never dispatched */
		nlh->nlmsg_type = below(NLMSG_MIN_TYPE);
		x->errs = E(0);
		x->what = "control type";
		break;
	case 7:	/* no family has this id */
		nlh->nlmsg_type = 0x8000 + below(0x8000);
		x->errs = E(ENOENT);
		x->what = "unknown family";
		break;
	default:	/* no ACK asked: an error still comes back */
		nlh->nlmsg_flags &= ~NLM_F_ACK;
		x->reply_on_error = true;
		x->errs = E_ANY_REQ;
		x->what = "no NLM_F_ACK";
		break;
	}
	if (kind == 8)
		x->get_reply = m->b[NLMSG_HDRLEN] == PROFIL_CMD_GET;
}

/*
 * Region sets: START or ADD_REGIONS with 1 to 16 PROFIL_ATTR_REGION nests
 * inside the arena (counters of either width stay inside it), random
 * scales and offsets (overflow bins included), counter widths and modes,
 * with at most one fault; or a GET_REGIONS dump.
 */
static void gen_regions(struct fuzz *f, struct msg *m, struct expect *x)
{
	int kind = below(3), n = 1 + below(16), fault = below(8), i;
	uint8_t cmd = kind == 0 ? PROFIL_CMD_START :
		      kind == 1 ? PROFIL_CMD_ADD_REGIONS :
				  PROFIL_CMD_GET_REGIONS;
	uint64_t a = (uintptr_t)f->arena;
	uint32_t pid = chance(70) ? f->self : f->victim[below(2)];
	int err = 0;

	x->what = "regions";
	x->reply = true;
	if (cmd == PROFIL_CMD_GET_REGIONS) {
		msg_init(m, f->family, NLM_F_REQUEST | NLM_F_ACK | NLM_F_DUMP,
			 cmd, PROFIL_GENL_VERSION);
		if (chance(70))
			msg_u32(m, PROFIL_ATTR_PID, pid);
		x->dump = true;
		x->errs = E(0) | E(ENOENT);
		return;
	}
	msg_init(m, f->family, NLM_F_REQUEST | NLM_F_ACK, cmd,
		 PROFIL_GENL_VERSION);
	for (i = 0; i < n; i++) {
		struct nlattr *nest;
		uint64_t buf = a + below(ARENA_PTR_MAX);
		uint64_t size = 4 + below(ARENA_SIZ_MAX - 3);
		bool ovf = chance(10);

		if (fault == 1 && !i) {
			size = below(2);
			err = EINVAL;
		}
		if (fault == 2 && i == n - 1) {
			buf = 0xffffffff81000000ULL + below(1 << 20);
			err = err ?: EFAULT;
		}
		nest = msg_attr(m, PROFIL_ATTR_REGION | NLA_F_NESTED, 0, NULL);
		if (!nest)
			break;
		nest = (struct nlattr *)((uint8_t *)nest - NLA_HDRLEN);
		msg_u64(m, PROFIL_REGION_BUF, buf);
		msg_u64(m, PROFIL_REGION_SIZE, size);
		if (fault == 0 && i == n - 1)
			err = err ?: EINVAL;	/* no OFFSET */
		else
			msg_u64(m, PROFIL_REGION_OFFSET,
				ovf ? 0 : pick_offset(f));
		msg_u32(m, PROFIL_REGION_SCALE, ovf ? 2 : pick_scale());
		nest->nla_len = (uint8_t *)m->b + m->len - (uint8_t *)nest;
	}
	if (cmd == PROFIL_CMD_START) {
		if (chance(50))
			msg_u32(m, PROFIL_ATTR_COUNTER, below(2));
		if (chance(50))
			msg_u32(m, PROFIL_ATTR_MODE, below(2));
		if (chance(50))
			msg_u32(m, PROFIL_ATTR_RATE, chance(50) ? 100 : 1000);
		if (fault == 3) {
			msg_u64(m, PROFIL_ATTR_BUF, a);
			err = EINVAL;
		}
	}
	if (chance(70))
		msg_u32(m, PROFIL_ATTR_PID, pid);
	x->errs = E(err);
	/* ADD_REGIONS needs an active session started with regions. */
	if (cmd == PROFIL_CMD_ADD_REGIONS)
		x->errs |= E(ENOENT) | E(EINVAL) | E(E2BIG);
}

typedef void (*gen_t)(struct fuzz *, struct msg *, struct expect *);

static const struct {
	gen_t gen;
	unsigned int weight;
	bool finished;	/* sets nlmsg_len itself */
} gens[] = {
	{ gen_valid, 25, false }, { gen_soup, 25, false },
	{ gen_cmd, 10, false }, { gen_dup, 5, false },
	{ gen_nested, 10, false }, { gen_header, 15, true },
	{ gen_regions, 10, false },
};

void generate(struct fuzz *f, struct msg *m, struct expect *x)
{
	unsigned int w = below(100), i;

	memset(x, 0, sizeof(*x));
	for (i = 0; w >= gens[i].weight; i++)
		w -= gens[i].weight;
	gens[i].gen(f, m, x);
	x->cls = i;
	if (!gens[i].finished)
		msg_finish(m);
}

