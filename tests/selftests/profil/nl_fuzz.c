// SPDX-License-Identifier: GPL-2.0
/*
 * nl_fuzz: a bounded, seeded, reproducible fuzzer of the profil generic
 * netlink family.
 *
 *   nl_fuzz [-s SEED] [-n COUNT] [-c CORPUS_DIR]
 *   env: PROFIL_FUZZ_SEED, PROFIL_FUZZ_N (default 10000), PROFIL_FUZZ_CORPUS
 *
 * First every input of the corpus (the *.nl files of fuzz_corpus/, see its README) is
 * replayed, then COUNT generated messages: random commands (unknown ones,
 * the notification-only PROFIL_CMD_STOPPED), missing, duplicated, oversized
 * and unknown attributes, wrong types and lengths, nests where none belong,
 * truncated headers and lying lengths, huge and negative values, buffer
 * pointers that are NULL, kernel, unmapped, read-only, odd or overflowing,
 * random PIDs, rates and flags. After each datagram a NOOP sentinel is
 * sent; everything up to the sentinel's ACK must be exactly the replies
 * the message calls for: one clean NLMSG_ERROR with an errno of the
 * expected set (a GET reply or a dump before it where valid), or none for
 * what the kernel drops unanswered (a datagram shorter than a header, a
 * lying nlmsg_len). No reply within 10 s is a hang.
 *
 * The requests only ever name this process, two victim processes it forks,
 * kthreadd or PIDs that do not exist, and buffers inside an arena whose
 * bounds hold every possible counter address: the profiled processes are
 * never written outside it. At the end: every session is stopped, its
 * accounting identity holds, memory outside the arena is intact, and once
 * the processes exit a GET dump lists none of them.
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

#include "kselftest.h"
#include "profil_nl.h"
#include "profil_util.h"

#define DEFAULT_SEED	0x70f11f022ULL
#define DEFAULT_N	10000
#define REPLY_TIMEOUT_S	10
#define MSG_MAX		1024

/* The arena: [RW 64K][RO 64K][hole 64K][PROT_NONE 320K]. */
#define ARENA_PART	(64 * 1024)
#define ARENA_SIZE	(8 * ARENA_PART)
/* Buffer pointers fall in [0, 4 parts), sizes at most 4 parts. */
#define ARENA_PTR_MAX	(4 * ARENA_PART)
#define ARENA_SIZ_MAX	(4 * ARENA_PART)

#define CANARY_WORDS	(256 * 1024)

typedef unsigned __int128 errmask_t;
#define E(e)		((errmask_t)1 << (e))
#define E_ANY_REQ	(E(0) | E(EINVAL) | E(ERANGE) | E(ESRCH) | E(EFAULT) | \
			 E(ENOENT) | E(EPERM) | E(EOPNOTSUPP) | E(EEXIST))

/* What the kernel must answer to one message. */
struct expect {
	bool reply;		/* an NLMSG_ERROR must come */
	bool reply_on_error;	/* no ACK flag: an error reply only */
	bool get_reply;		/* a successful GET doit: data, then ACK */
	bool dump;		/* a dump: data, then NLMSG_DONE */
	errmask_t errs;		/* allowed errnos (0 = success) */
	const char *what;	/* the generator */
	unsigned int cls;	/* its index, for the summary */
};

#define NCLS	8	/* the generators and the corpus */
static const char *const cls_name[NCLS] = {
	"valid", "attributes", "command", "duplicates", "nested", "header",
	"regions", "corpus",
};

struct fuzz {
	struct pnl nl;
	int fd;
	uint32_t portid;
	uint16_t family;
	uint32_t seq;
	pid_t self, victim[2];
	uint8_t *arena;
	uint64_t *canary;
	/* results */
	unsigned long sent, errno_count[256], extack_count[256];
	unsigned long cls_count[NCLS][256], cls_extack[NCLS][256];
	unsigned long cls_none[NCLS], miss_type;
	unsigned long no_reply, get_replies, dumps, dump_msgs;
	unsigned long failures;
};

static uint64_t rng;

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

struct msg {
	uint8_t b[MSG_MAX];
	size_t len;
};

static struct nlmsghdr *msg_hdr(struct msg *m)
{
	return (struct nlmsghdr *)m->b;
}

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

static void generate(struct fuzz *f, struct msg *m, struct expect *x)
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

/* ---- sending and checking the replies ---- */

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

static bool status_sane(const struct pnl_status *st)
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
static void exchange(struct fuzz *f, struct msg *m, const struct expect *x)
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

/* ---- the corpus ---- */

static int errno_by_name(const char *name)
{
	static const struct { const char *n; int e; } t[] = {
		{ "0", 0 }, { "EINVAL", EINVAL }, { "ERANGE", ERANGE },
		{ "ESRCH", ESRCH }, { "EFAULT", EFAULT }, { "ENOENT", ENOENT },
		{ "EPERM", EPERM }, { "EOPNOTSUPP", EOPNOTSUPP },
	};
	size_t i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		if (!strcmp(t[i].n, name))
			return t[i].e;
	return -1;
}

static void put_le(struct msg *m, uint64_t v, int bytes)
{
	while (bytes-- && m->len < sizeof(m->b)) {
		m->b[m->len++] = v;
		v >>= 8;
	}
}

/* Parse one corpus file (format: fuzz_corpus/README); 0 or -1. */
static int corpus_load(struct fuzz *f, const char *path, struct msg *m,
		       struct expect *x)
{
	char line[512], *tok, *save;
	FILE *fp = fopen(path, "r");
	bool have_expect = false;

	if (!fp)
		return -1;
	memset(m, 0, sizeof(*m));
	memset(x, 0, sizeof(*x));
	x->what = "corpus";
	x->cls = NCLS - 1;
	while (fgets(line, sizeof(line), fp)) {
		char *hash = strchr(line, '#');

		if (hash)
			*hash = '\0';
		tok = strtok_r(line, " \t\n", &save);
		if (!tok)
			continue;
		if (!strcmp(tok, "expect")) {
			have_expect = true;
			x->reply = true;
			while ((tok = strtok_r(NULL, " \t\n", &save))) {
				int e;

				if (!strcmp(tok, "none")) {
					x->reply = false;
					continue;
				}
				if (!strcmp(tok, "get")) {
					x->get_reply = true;
					continue;
				}
				if (!strcmp(tok, "dump")) {
					x->dump = true;
					continue;
				}
				e = errno_by_name(tok);
				if (e < 0)
					goto bad;
				x->errs |= E(e);
			}
			continue;
		}
		for (; tok; tok = strtok_r(NULL, " \t\n", &save)) {
			char *end;
			unsigned long v;

			if (!strcmp(tok, "FAMILY"))
				put_le(m, f->family, 2);
			else if (!strcmp(tok, "SELF"))
				put_le(m, f->self, 4);
			else if (!strcmp(tok, "VICTIM"))
				put_le(m, f->victim[0], 4);
			else if (!strcmp(tok, "ARENA"))
				put_le(m, (uintptr_t)f->arena, 8);
			else if (!strcmp(tok, "ARENA_RO"))
				put_le(m, (uintptr_t)f->arena + ARENA_PART, 8);
			else {
				v = strtoul(tok, &end, 16);
				if (*end || v > 0xff || strlen(tok) != 2)
					goto bad;
				put_le(m, v, 1);
			}
		}
	}
	fclose(fp);
	return have_expect ? 0 : -1;
bad:
	fclose(fp);
	return -1;
}

static int corpus_filter(const struct dirent *d)
{
	size_t n = strlen(d->d_name);

	return n > 3 && !strcmp(d->d_name + n - 3, ".nl");
}

/* Replay every input; returns how many, or -1 if the corpus is unreadable. */
static int corpus_replay(struct fuzz *f, const char *dir)
{
	struct dirent **names;
	unsigned long before = f->failures;
	int n, i, done = 0;

	n = scandir(dir, &names, corpus_filter, alphasort);
	if (n < 0)
		return -1;
	for (i = 0; i < n; i++) {
		char path[PATH_MAX + 256];
		struct msg m;
		struct expect x;

		snprintf(path, sizeof(path), "%s/%s", dir, names[i]->d_name);
		if (corpus_load(f, path, &m, &x)) {
			printf("# corpus: %s: cannot parse\n", path);
			f->failures++;
		} else {
			unsigned long fails = f->failures;

			x.what = names[i]->d_name;
			exchange(f, &m, &x);
			printf("# corpus: %s: %s\n", names[i]->d_name,
			       f->failures == fails ? "ok" : "FAILED");
			done++;
		}
		free(names[i]);
	}
	free(names);
	return f->failures == before ? done : -1;
}

static const char *find_corpus(char *buf, size_t size)
{
	const char *env = getenv("PROFIL_FUZZ_CORPUS");
	char exe[PATH_MAX - 16];
	ssize_t n;

	if (env)
		return env;
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n > 0) {
		exe[n] = '\0';
		*strrchr(exe, '/') = '\0';
		snprintf(buf, size, "%s/fuzz_corpus", exe);
		if (!access(buf, R_OK))
			return buf;
	}
#ifdef NL_FUZZ_CORPUS
	return NL_FUZZ_CORPUS;
#else
	return "fuzz_corpus";
#endif
}

/* ---- processes and checks ---- */

static void victim_loop(void)
{
	volatile unsigned long n = 0;
	int i;

	for (;;) {
		for (i = 0; i < 200000; i++)
			n++;
		usleep(5000);
	}
}

/*
 * Stop the session of @pid, if any, and check it: stopped, sane, the
 * identity exact and nothing pending once the process has returned to
 * user mode (a victim may be in a system call: retry briefly).
 */
static bool stop_and_check(struct pnl *nl, pid_t pid, const char *who)
{
	struct pnl_status st;
	int err, tries;

	err = pnl_stop(nl, pid);
	if (err) {
		printf("# %s: STOP: %s\n", who, strerror(-err));
		return false;
	}
	for (tries = 0; tries < 3000; tries++) {	/* a minute at most */
		err = pnl_get(nl, pid, &st);
		if (err == -ENOENT) {
			printf("# %s: never profiled\n", who);
			return true;
		}
		if (err) {
			printf("# %s: GET: %s\n", who, strerror(-err));
			return false;
		}
		if (st.stats[PROFIL_STAT_PENDING] == 0 &&
		    st.stats[PROFIL_STAT_TICKS] == pnl_accounted(&st))
			break;
		usleep(20000);
	}
	printf("# %s: state %u reason %u ticks %" PRIu64 " in %" PRIu64
	       " out %" PRIu64 " sys %" PRIu64 " pending %" PRIu64
	       " discarded %" PRIu64 " faulted %" PRIu64 "\n", who, st.state,
	       st.reason, st.stats[PROFIL_STAT_TICKS],
	       st.stats[PROFIL_STAT_IN_RANGE],
	       st.stats[PROFIL_STAT_OUT_OF_RANGE],
	       st.stats[PROFIL_STAT_SYSTEM_DROPPED],
	       st.stats[PROFIL_STAT_PENDING],
	       st.stats[PROFIL_STAT_DISCARDED],
	       st.stats[PROFIL_STAT_FAULTED]);
	return st.state == PROFIL_STATE_STOPPED && status_sane(&st) &&
	       st.pid == (uint32_t)pid &&
	       st.stats[PROFIL_STAT_PENDING] == 0 &&
	       st.stats[PROFIL_STAT_TICKS] == pnl_accounted(&st);
}

/* Sessions a GET dump lists, by PID. */
struct dump_pids {
	uint32_t pid[4096];
	unsigned int n;
};

static void dump_cb(const struct pnl_status *st, void *data)
{
	struct dump_pids *d = data;

	if (d->n < sizeof(d->pid) / sizeof(d->pid[0]))
		d->pid[d->n++] = st->pid;
}

static int dump_sessions(struct pnl *nl, struct dump_pids *d)
{
	d->n = 0;
	return pnl_dump(nl, dump_cb, d);
}

static bool dump_has(const struct dump_pids *d, pid_t pid)
{
	unsigned int i;

	for (i = 0; i < d->n; i++)
		if (d->pid[i] == (uint32_t)pid)
			return true;
	return false;
}

static uint64_t canary_word(size_t i)
{
	return 0x5ca1ab1e00000000ULL ^ (i * 0x9e3779b97f4a7c15ULL);
}

/* Results the fuzzing child hands back. */
struct shared {
	int corpus;		/* inputs replayed, -1: failed */
	unsigned long sent, failures, no_reply, get_replies, dumps, dump_msgs;
	unsigned long errno_count[256], extack_count[256];
	unsigned long cls_count[NCLS][256], cls_extack[NCLS][256];
	unsigned long cls_none[NCLS], miss_type;
	double secs;
	bool self_ok, canary_ok;
};

static int fuzz_child(struct shared *out, pid_t v0, pid_t v1, uint8_t *arena,
		      uint64_t seed, unsigned long count)
{
	static struct fuzz f;
	struct timeval tv = { .tv_sec = REPLY_TIMEOUT_S };
	char cbuf[PATH_MAX];
	struct timespec t0, t1;
	unsigned long i;
	int err;
	size_t c;

	f.self = getpid();
	f.victim[0] = v0;
	f.victim[1] = v1;
	f.arena = arena;
	/*
	 * Another process is controlled by its tracer only: the fuzzer
	 * traces the victims (without stopping them), so that its requests
	 * on them get past the permission check. Its exit detaches them.
	 */
	if (ptrace(PTRACE_SEIZE, v0, 0, 0) || ptrace(PTRACE_SEIZE, v1, 0, 0)) {
		printf("# PTRACE_SEIZE of the victims: %s\n", strerror(errno));
		return 1;
	}
	err = pnl_open(&f.nl);
	if (err) {
		printf("# pnl_open: %s\n", strerror(-err));
		return 1;
	}
	f.fd = mnl_socket_get_fd(f.nl.sock);
	f.portid = mnl_socket_get_portid(f.nl.sock);
	f.family = f.nl.family;
	f.seq = 1000;
	setsockopt(f.fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	f.canary = malloc(CANARY_WORDS * sizeof(uint64_t));
	for (c = 0; c < CANARY_WORDS; c++)
		f.canary[c] = canary_word(c);

	out->corpus = corpus_replay(&f, find_corpus(cbuf, sizeof(cbuf)));
	if (out->corpus < 0)
		printf("# corpus replay failed\n");

	rng = seed;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (i = 0; i < count && f.failures < 20; i++) {
		struct msg m;
		struct expect x;

		generate(&f, &m, &x);
		exchange(&f, &m, &x);
		if (i && i % 100000 == 0) {
			clock_gettime(CLOCK_MONOTONIC, &t1);
			printf("# %lu messages, %.0f s, %lu failures\n", i,
			       t1.tv_sec - t0.tv_sec +
			       (t1.tv_nsec - t0.tv_nsec) / 1e9, f.failures);
		}
		if (f.failures == 1 && !out->failures) {
			printf("# first failure at message %lu (seed %#" PRIx64
			       ")\n", i, seed);
			out->failures = 1;
		}
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	out->secs = t1.tv_sec - t0.tv_sec + (t1.tv_nsec - t0.tv_nsec) / 1e9;

	out->self_ok = stop_and_check(&f.nl, f.self, "fuzzer");
	out->canary_ok = true;
	for (c = 0; c < CANARY_WORDS; c++)
		if (f.canary[c] != canary_word(c))
			out->canary_ok = false;
	out->sent = f.sent;
	out->failures = f.failures;
	out->no_reply = f.no_reply;
	out->get_replies = f.get_replies;
	out->dumps = f.dumps;
	out->dump_msgs = f.dump_msgs;
	memcpy(out->errno_count, f.errno_count, sizeof(f.errno_count));
	memcpy(out->extack_count, f.extack_count, sizeof(f.extack_count));
	memcpy(out->cls_count, f.cls_count, sizeof(f.cls_count));
	memcpy(out->cls_extack, f.cls_extack, sizeof(f.cls_extack));
	memcpy(out->cls_none, f.cls_none, sizeof(f.cls_none));
	out->miss_type = f.miss_type;
	pnl_close(&f.nl);
	return 0;
}

/* A plain session on this process after the storm: it counts, adds up. */
static bool still_works(struct pnl *nl, uint8_t *arena)
{
	struct pnl_start req = {
		.buf = (uintptr_t)arena, .bufsiz = ARENA_PART,
		.offset = (uintptr_t)still_works & ~0xfffffULL,
		.scale = 0x100, .rate = 1000,
	};
	volatile unsigned long n = 0;
	struct pnl_status st;
	struct timespec t0, t;
	uint64_t sum = 0;
	size_t i;

	memset(arena, 0, ARENA_PART);
	if (pnl_start(nl, &req)) {
		printf("# START: %s\n", nl->extack);
		return false;
	}
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
	do {
		for (i = 0; i < 100000; i++)
			n++;
		clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	} while ((t.tv_sec - t0.tv_sec) * 1000000000L +
		 t.tv_nsec - t0.tv_nsec < 100000000L);
	if (pnl_stop(nl, 0) || pnl_get(nl, 0, &st))
		return false;
	for (i = 0; i < ARENA_PART / 2; i++)
		sum += ((uint16_t *)arena)[i];
	printf("# still works: %" PRIu64 " ticks, %" PRIu64 " counted\n",
	       st.stats[PROFIL_STAT_TICKS], sum);
	return st.state == PROFIL_STATE_STOPPED &&
	       st.reason == PROFIL_STOP_REQUEST &&
	       st.stats[PROFIL_STAT_TICKS] > 0 &&
	       st.stats[PROFIL_STAT_PENDING] == 0 &&
	       st.stats[PROFIL_STAT_TICKS] == pnl_accounted(&st) &&
	       st.stats[PROFIL_STAT_IN_RANGE] == sum && sum > 0;
}

/* Per generator: "errno count/with extack", and unanswered drops. */
static void print_classes(const struct shared *sh)
{
	unsigned int c, e;

	for (c = 0; c < NCLS; c++) {
		char line[512];
		int n = snprintf(line, sizeof(line), "# %-10s", cls_name[c]);

		for (e = 0; e < 256; e++)
			if (sh->cls_count[c][e] && n < (int)sizeof(line))
				n += snprintf(line + n, sizeof(line) - n,
					      " %s %lu/%lu",
					      e ? strerrorname_np(e) : "ok",
					      sh->cls_count[c][e],
					      sh->cls_extack[c][e]);
		if (sh->cls_none[c] && n < (int)sizeof(line))
			snprintf(line + n, sizeof(line) - n, " unanswered %lu",
				 sh->cls_none[c]);
		printf("%s\n", line);
	}
}

static void usage(const char *argv0)
{
	fprintf(stderr, "usage: %s [-s SEED] [-n COUNT] [-c CORPUS_DIR]\n",
		argv0);
	exit(KSFT_FAIL);
}

int main(int argc, char **argv)
{
	uint64_t seed = DEFAULT_SEED;
	unsigned long count = DEFAULT_N;
	struct shared *sh;
	struct dump_pids *d;
	pid_t victim[2], child;
	uint8_t *arena;
	struct pnl nl;
	int opt, status, err, i, e;
	bool ok;

	/* Set and not empty. */
	if (getenv("PROFIL_FUZZ_SEED") && *getenv("PROFIL_FUZZ_SEED"))
		seed = strtoull(getenv("PROFIL_FUZZ_SEED"), NULL, 0);
	if (getenv("PROFIL_FUZZ_N") && *getenv("PROFIL_FUZZ_N"))
		count = strtoul(getenv("PROFIL_FUZZ_N"), NULL, 0);
	while ((opt = getopt(argc, argv, "s:n:c:")) != -1) {
		switch (opt) {
		case 's': seed = strtoull(optarg, NULL, 0); break;
		case 'n': count = strtoul(optarg, NULL, 0); break;
		case 'c': setenv("PROFIL_FUZZ_CORPUS", optarg, 1); break;
		default: usage(argv[0]);
		}
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	ksft_print_header();
	ksft_set_plan(6);
	printf("# seed %#" PRIx64 ", %lu messages (replay: -s %#" PRIx64
	       " -n %lu)\n", seed, count, seed, count);

	err = pnl_open(&nl);
	if (err == -ENOENT || err == -EPERM)
		ksft_exit_skip("profil family: %s\n", strerror(-err));
	if (err)
		ksft_exit_fail_msg("profil family: %s\n", strerror(-err));

	/* The arena first, so that the victims share its layout. */
	arena = mmap(NULL, ARENA_SIZE, PROT_NONE,
		     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (arena == MAP_FAILED ||
	    mprotect(arena, ARENA_PART, PROT_READ | PROT_WRITE) ||
	    mprotect(arena + ARENA_PART, ARENA_PART, PROT_READ) ||
	    munmap(arena + 2 * ARENA_PART, ARENA_PART))
		ksft_exit_fail_msg("arena: %s\n", strerror(errno));
	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	d = malloc(sizeof(*d));
	if (sh == MAP_FAILED || !d)
		ksft_exit_fail_msg("memory: %s\n", strerror(errno));

	for (i = 0; i < 2; i++) {
		victim[i] = fork();
		if (victim[i] < 0)
			ksft_exit_fail_msg("fork: %s\n", strerror(errno));
		if (!victim[i])
			victim_loop();
	}
	child = fork();
	if (child < 0)
		ksft_exit_fail_msg("fork: %s\n", strerror(errno));
	if (!child)
		_exit(fuzz_child(sh, victim[0], victim[1], arena, seed, count));
	waitpid(child, &status, 0);

	ksft_test_result(sh->corpus > 0, "corpus: %d inputs replayed\n",
			 sh->corpus);
	printf("# %lu messages in %.1f s (%.0f/s), %lu failures\n", sh->sent,
	       sh->secs, sh->secs > 0 ? sh->sent / sh->secs : 0.0,
	       sh->failures);
	printf("# replies: %lu GET replies, %lu dumps (%lu messages), %lu "
	       "dropped unanswered as expected\n", sh->get_replies, sh->dumps,
	       sh->dump_msgs, sh->no_reply);
	printf("# errno histogram (count, of which with an extack message):\n");
	for (e = 0; e < 256; e++)
		if (sh->errno_count[e])
			printf("# errno %-10s %6lu  with extack %6lu\n",
			       e ? strerrorname_np(e) : "0 (ok)",
			       sh->errno_count[e], sh->extack_count[e]);
	printf("# NLMSGERR_ATTR_MISS_TYPE (a required attribute missing): "
	       "%lu\n", sh->miss_type);
	printf("# by generator (errno count/with extack):\n");
	print_classes(sh);
	ksft_test_result(WIFEXITED(status) && !WEXITSTATUS(status) &&
			 !sh->failures && sh->sent >= count,
			 "fuzz: %lu messages, seed %#" PRIx64 "\n", sh->sent,
			 seed);
	ksft_test_result(sh->self_ok && sh->canary_ok,
			 "fuzzer: stopped, identity holds, memory intact\n");

	ok = true;
	for (i = 0; i < 2; i++) {
		char who[32];

		snprintf(who, sizeof(who), "victim %d", victim[i]);
		if (ptrace(PTRACE_SEIZE, victim[i], 0, 0)) {
			printf("# PTRACE_SEIZE %s: %s\n", who, strerror(errno));
			ok = false;
		}
		ok &= stop_and_check(&nl, victim[i], who);
		/* Still alive: nothing the fuzzer did killed it. */
		ok &= !waitpid(victim[i], &status, WNOHANG);
	}
	ksft_test_result(ok, "victims: alive, stopped, identity holds\n");

	for (i = 0; i < 2; i++) {
		kill(victim[i], SIGKILL);
		waitpid(victim[i], NULL, 0);
	}
	err = dump_sessions(&nl, d);
	ok = !err && !dump_has(d, child) && !dump_has(d, victim[0]) &&
	     !dump_has(d, victim[1]);
	if (err)
		printf("# dump: %s\n", strerror(-err));
	ksft_test_result(ok, "no session left once the processes exited "
			 "(%u in the dump)\n", d->n);
	ksft_test_result(still_works(&nl, arena),
			 "the module still profiles: start, count, stop\n");
	pnl_close(&nl);
	ksft_finished();
}
