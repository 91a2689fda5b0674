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

#include "nl_fuzz.h"

static const char *const cls_name[NCLS] = {
	"valid", "attributes", "command", "duplicates", "nested", "header",
	"regions", "corpus",
};

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
