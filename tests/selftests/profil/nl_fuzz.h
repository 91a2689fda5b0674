/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What nl_fuzz's files share: its bounds, a message and what it must get
 * back, the fuzzer's state and results, and the functions one file calls
 * in another. nl_fuzz.c: the processes, the run and its checks;
 * nl_fuzz_gen.c: the random source and the generators; nl_fuzz_check.c:
 * sending a message and checking its replies; nl_fuzz_corpus.c: the
 * corpus. The program: nl_fuzz.c's comment.
 */
#ifndef NL_FUZZ_H
#define NL_FUZZ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

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

struct msg {
	uint8_t b[MSG_MAX];
	size_t len;
};

static inline struct nlmsghdr *msg_hdr(struct msg *m)
{
	return (struct nlmsghdr *)m->b;
}

/* nl_fuzz_gen.c */
/* The random source's state: main() seeds it. */
extern uint64_t rng;
void generate(struct fuzz *f, struct msg *m, struct expect *x);

/* nl_fuzz_check.c */
void exchange(struct fuzz *f, struct msg *m, const struct expect *x);
bool status_sane(const struct pnl_status *st);

/* nl_fuzz_corpus.c */
int corpus_replay(struct fuzz *f, const char *dir);
const char *find_corpus(char *buf, size_t size);

#endif /* NL_FUZZ_H */
