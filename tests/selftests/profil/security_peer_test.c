// SPDX-License-Identifier: GPL-2.0
/*
 * What a user may see and do of another process's session, even of the
 * same user: a non-dumpable process whose leader has exited is neither
 * read nor stopped; STOP takes being the process's tracer; GET and dumps
 * show no addresses to a caller that does not trace it; a dump lists
 * only the caller's PID namespace. Run as root, each test drops to
 * nobody (65534) first, except where it says why not. The other
 * security programs: security_test, security_bounds_test.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <grp.h>
#include <pthread.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <signal.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "profil_security.h"

static void *linger_thread(void *arg)
{
	for (;;)
		pause();
	return arg;
}

/*
 * A non-dumpable process of nobody's, profiling itself, whose group
 * leader has called pthread_exit(): the leader is a zombie without an mm,
 * the other thread runs on. Writes its buffer's address to @fd.
 */
static void __attribute__((noreturn)) zombie_leader(int fd)
{
	static uint16_t buf[256];
	struct pnl_start req = {
		.buf = (uintptr_t)buf, .bufsiz = sizeof(buf), .scale = 0x8000,
		.rate = 100,
	};
	uint64_t addr = (uintptr_t)buf;
	pthread_t thread;
	struct pnl nl;

	if (setgroups(0, NULL) || setgid(65534) || setuid(65534) ||
	    prctl(PR_SET_DUMPABLE, 0) || pnl_open(&nl) ||
	    pnl_start(&nl, &req) ||
	    pthread_create(&thread, NULL, linger_thread, NULL))
		_exit(1);
	if (write(fd, &addr, sizeof(addr)) != sizeof(addr))
		_exit(1);
	pthread_exit(NULL);
}

/*
 * Dumpability is checked on the process's address space, which a zombie
 * group leader no longer has: a process of the same user may neither read
 * (GET, which shows the buffer's address, often the PIE base) nor stop a
 * non-dumpable process's session once its leader has exited. Root runs
 * the process and checks its session; the caller is nobody.
 */
TEST(nondumpable_zombie_leader_refused)
{
	struct pnl_status st;
	pid_t target, caller;
	uint64_t addr = 0;
	int fds[2], status;
	struct pnl nl;
	double end;

	if (geteuid())
		SKIP(return, "needs root to run a process as nobody");
	ASSERT_EQ(0, pnl_open(&nl));
	ASSERT_EQ(0, pipe(fds));
	target = fork();
	ASSERT_LE(0, target);
	if (!target) {
		close(fds[0]);
		zombie_leader(fds[1]);
	}
	close(fds[1]);
	ASSERT_EQ(sizeof(addr), read(fds[0], &addr, sizeof(addr)));
	close(fds[0]);
	for (end = now() + 60; proc_state(target) != 'Z' && now() < end;)
		usleep(10000);
	ASSERT_EQ('Z', proc_state(target));

	caller = fork();
	ASSERT_LE(0, caller);
	if (!caller) {
		struct pnl cnl;

		if (setgroups(0, NULL) || setgid(65534) || setuid(65534) ||
		    pnl_open(&cnl))
			_exit(1);
		if (pnl_get(&cnl, target, &st) != -EPERM)
			_exit(st.buf == addr ? 2 : 3);
		_exit(pnl_stop(&cnl, target) == -EPERM ? 0 : 4);
	}
	ASSERT_EQ(caller, waitpid(caller, &status, 0));
	EXPECT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status))
		TH_LOG("%s", WEXITSTATUS(status) == 2 ?
		       "GET showed the buffer's address" :
		       WEXITSTATUS(status) == 4 ? "STOP was let through" :
		       "GET was let through");

	/* Untouched: still profiled. */
	ASSERT_EQ(0, pnl_get(&nl, target, &st));
	EXPECT_EQ(PROFIL_STATE_ACTIVE, st.state);
	kill(target, SIGKILL);
	waitpid(target, NULL, 0);
	pnl_close(&nl);
}

static uint16_t child_counts[4096];

/*
 * A child of the caller that profiles itself, then waits to be killed:
 * an active session on child_counts, or with @fault_at (an unmapped
 * range) one that faulted there. Its PID once the session is set up.
 */
static pid_t profiled_child(struct __test_metadata *_metadata,
			    void *fault_at)
{
	struct pnl_start req = {
		.buf = (uintptr_t)child_counts, .bufsiz = sizeof(child_counts),
		.offset = TEXT_OFFSET, .scale = 1,
	};
	int fds[2];
	pid_t pid;
	char c;

	ASSERT_EQ(0, pipe(fds));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		struct pnl_status st;
		struct pnl nl;

		close(fds[0]);
		if (pnl_open(&nl))
			_exit(1);
		if (fault_at && (fault_session(&nl, (uintptr_t)fault_at, 4096,
					       &st) ||
				 st.reason != PROFIL_STOP_FAULT))
			_exit(2);
		if (!fault_at && pnl_start(&nl, &req))
			_exit(3);
		if (write(fds[1], "x", 1) != 1)
			_exit(4);
		for (;;)
			pause();
	}
	close(fds[1]);
	EXPECT_EQ(1, read(fds[0], &c, 1));
	close(fds[0]);
	return pid;
}

static void end_child(pid_t pid)
{
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
}

/*
 * STOP of another process, even of the same user, takes being its tracer
 * (ptrace_attach() consulted the LSMs) or CAP_SYS_PTRACE over it; a
 * same-user caller that is neither is refused, and says why.
 */
TEST(same_user_stop_needs_tracer)
{
	struct pnl_status st;
	struct pnl nl;
	pid_t pid;

	if (ptrace_scope() >= 2)
		SKIP(return, "Yama ptrace_scope %d", ptrace_scope());
	become_nobody(_metadata);
	ASSERT_EQ(0, prctl(PR_SET_DUMPABLE, 1));	/* setuid() cleared it */
	ASSERT_EQ(0, pnl_open(&nl));
	pid = profiled_child(_metadata, NULL);

	EXPECT_EQ(-EPERM, pnl_stop(&nl, pid));
	EXPECT_STREQ("must be the process or its ptrace tracer", nl.extack);
	ASSERT_EQ(0, pnl_get(&nl, pid, &st));
	EXPECT_EQ(PROFIL_STATE_ACTIVE, st.state);

	/* Its tracer may: PTRACE_SEIZE alone makes the caller that. */
	ASSERT_EQ(0, ptrace(PTRACE_SEIZE, pid, 0, 0));
	EXPECT_EQ(0, pnl_stop(&nl, pid)) TH_LOG("%s", nl.extack);
	ASSERT_EQ(0, pnl_get(&nl, pid, &st));
	EXPECT_EQ(PROFIL_STATE_STOPPED, st.state);
	EXPECT_EQ(PROFIL_STOP_REQUEST, st.reason);
	end_child(pid);
	pnl_close(&nl);
}

struct dump_pick {
	pid_t pid[2];
	struct pnl_status st[2];
	int seen[2];
};

static void dump_pick_cb(const struct pnl_status *st, void *data)
{
	struct dump_pick *d = data;
	int i;

	for (i = 0; i < 2; i++)
		if (st->pid == (uint32_t)d->pid[i]) {
			d->st[i] = *st;
			d->seen[i]++;
		}
}

/* State and counts, never the addresses: BUF, OFFSET, FAULT_ADDR. */
static void check_no_addresses(struct __test_metadata *_metadata,
			       const struct pnl_status *st, uint32_t reason)
{
	EXPECT_TRUE(PNL_HAS(st, PROFIL_ATTR_STATE));
	EXPECT_TRUE(PNL_HAS(st, PROFIL_ATTR_REASON));
	EXPECT_TRUE(PNL_HAS(st, PROFIL_ATTR_STATS));
	EXPECT_TRUE(PNL_HAS(st, PROFIL_ATTR_BUFSIZ));
	EXPECT_TRUE(PNL_HAS(st, PROFIL_ATTR_SCALE));
	EXPECT_EQ(reason, st->reason);
	EXPECT_FALSE(PNL_HAS(st, PROFIL_ATTR_BUF))
		TH_LOG("pid %u: BUF %#llx", st->pid,
		       (unsigned long long)st->buf);
	EXPECT_FALSE(PNL_HAS(st, PROFIL_ATTR_OFFSET));
	EXPECT_FALSE(PNL_HAS(st, PROFIL_ATTR_FAULT_ADDR));
}

/*
 * GET and dumps by a same-user caller that does not trace the process
 * show its state and counts but none of its addresses, which only ptrace
 * (with the LSMs' consent) or CAP_SYS_PTRACE would reveal. Its tracer
 * sees them.
 */
TEST(same_user_status_without_addresses)
{
	struct dump_pick d = { .seen = { 0 } };
	struct pnl_status st;
	struct pnl nl;
	void *hole;
	int i;

	if (ptrace_scope() >= 2)
		SKIP(return, "Yama ptrace_scope %d", ptrace_scope());
	become_nobody(_metadata);
	ASSERT_EQ(0, prctl(PR_SET_DUMPABLE, 1));
	ASSERT_EQ(0, pnl_open(&nl));
	hole = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, hole);
	ASSERT_EQ(0, munmap(hole, 4096));
	d.pid[0] = profiled_child(_metadata, NULL);
	d.pid[1] = profiled_child(_metadata, hole);

	ASSERT_EQ(0, pnl_get(&nl, d.pid[0], &st));
	EXPECT_EQ(PROFIL_STATE_ACTIVE, st.state);
	check_no_addresses(_metadata, &st, PROFIL_STOP_NONE);
	ASSERT_EQ(0, pnl_get(&nl, d.pid[1], &st));
	EXPECT_EQ(PROFIL_STATE_STOPPED, st.state);
	EXPECT_GT(st.stats[PROFIL_STAT_FAULTED], 0);
	check_no_addresses(_metadata, &st, PROFIL_STOP_FAULT);
	ASSERT_EQ(0, pnl_dump(&nl, dump_pick_cb, &d));
	for (i = 0; i < 2; i++) {
		ASSERT_EQ(1, d.seen[i]);
		check_no_addresses(_metadata, &d.st[i], i ? PROFIL_STOP_FAULT :
					      PROFIL_STOP_NONE);
	}

	/* The tracer of both sees their addresses, in GET and dumps. */
	for (i = 0; i < 2; i++)
		ASSERT_EQ(0, ptrace(PTRACE_SEIZE, d.pid[i], 0, 0));
	ASSERT_EQ(0, pnl_get(&nl, d.pid[0], &st));
	EXPECT_EQ((uintptr_t)child_counts, st.buf);
	EXPECT_TRUE(PNL_HAS(&st, PROFIL_ATTR_OFFSET));
	ASSERT_EQ(0, pnl_get(&nl, d.pid[1], &st));
	EXPECT_TRUE(PNL_HAS(&st, PROFIL_ATTR_FAULT_ADDR));
	EXPECT_LE((uintptr_t)hole, st.fault_addr);
	EXPECT_GT((uintptr_t)hole + 4096, st.fault_addr);
	memset(&d.seen, 0, sizeof(d.seen));
	ASSERT_EQ(0, pnl_dump(&nl, dump_pick_cb, &d));
	ASSERT_EQ(1, d.seen[0]);
	ASSERT_EQ(1, d.seen[1]);
	EXPECT_EQ((uintptr_t)child_counts, d.st[0].buf);
	EXPECT_TRUE(PNL_HAS(&d.st[1], PROFIL_ATTR_FAULT_ADDR));
	for (i = 0; i < 2; i++)
		end_child(d.pid[i]);
	pnl_close(&nl);
}

struct ns_dump {
	unsigned int entries, self, outside;
};

static void ns_dump_cb(const struct pnl_status *st, void *data)
{
	struct ns_dump *d = data;

	d->entries++;
	if (st->pid == (uint32_t)getpid())
		d->self++;
	else
		d->outside++;
}

/*
 * A dump lists the sessions of processes in the caller's PID namespace
 * only, not the others under PID 0. Root on both sides, so that access
 * is not what hides them: a session here, and a dump from the first
 * process of a new PID namespace that has one of its own.
 */
TEST(dump_only_own_pid_namespace)
{
	struct pnl_start req = {
		.buf = (uintptr_t)child_counts, .bufsiz = sizeof(child_counts),
		.offset = TEXT_OFFSET, .scale = 1,
	};
	struct pnl nl;
	int status;
	pid_t pid;

	if (geteuid())
		SKIP(return, "a new PID namespace needs root");
	ASSERT_EQ(0, pnl_open(&nl));
	ASSERT_EQ(0, pnl_start(&nl, &req)) TH_LOG("%s", nl.extack);
	if (unshare(CLONE_NEWPID)) {
		/* The debug kernel (allnoconfig) has no CONFIG_PID_NS. */
		ASSERT_EQ(EINVAL, errno);
		pnl_stop(&nl, 0);
		pnl_close(&nl);
		SKIP(return, "no PID namespaces in this kernel");
	}
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		struct ns_dump d = { 0 };
		struct pnl cnl;

		if (getpid() != 1 || pnl_open(&cnl) || pnl_start(&cnl, &req))
			_exit(1);
		if (pnl_dump(&cnl, ns_dump_cb, &d))
			_exit(2);
		if (d.self != 1)
			_exit(3);
		_exit(d.outside ? 4 : 0);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status))
		TH_LOG("%s", WEXITSTATUS(status) == 4 ?
		       "the dump listed sessions outside the namespace" :
		       WEXITSTATUS(status) == 3 ? "its own session not listed" :
		       "setup failed");
	EXPECT_EQ(0, pnl_stop(&nl, 0));
	pnl_close(&nl);
}

PROFIL_OPEN_TIMER_CLOCK
PROFIL_HARNESS_MAIN
