// SPDX-License-Identifier: GPL-2.0
/*
 * Fault injection (make check-debug), the attaches the module makes
 * outside a request: a clone in a profiled process (its spare record),
 * the fork attach in the child and the thread attach in the new thread,
 * each failed once per allocation through fail-nth (the walk:
 * profil_fault_fixture.h). A child or thread whose attach failed is not
 * profiled, as documented; the profiled process's session stays active,
 * and its accounting identity holds. Without fault injection, each path
 * runs once, uninjected.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <linux/futex.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "profil_fault_fixture.h"

static pthread_t clone_tid;

static void *nop_thread(void *arg)
{
	return NULL;
}

/* A clone in a profiled process: the parent's next spare record. */
static int op_clone(FIXTURE_DATA(fault) *self, void *ctx)
{
	return -pthread_create(&clone_tid, NULL, nop_thread, NULL);
}

static void check_clone(struct __test_metadata *_metadata,
			FIXTURE_DATA(fault) *self, void *ctx, int r,
			bool injected)
{
	struct pnl_status st;

	if (!r)
		pthread_join(clone_tid, NULL);
	/* clone()'s own failure: glibc says EAGAIN. */
	if (r != -EAGAIN)
		ASSERT_TRUE(!r || r == -ENOMEM) TH_LOG("%s", strerror(-r));
	ASSERT_EQ(0, pnl_get(&self->nl, 0, &st));
	EXPECT_EQ(PROFIL_STATE_ACTIVE, st.state);
}

TEST_F_TIMEOUT(fault, thread_clone, 120)
{
	struct walk_op op = { "clone of a thread, profiled process", NULL,
			      check_clone, NULL };
	struct pnl_status st;
	unsigned int n, left, injected = 0;
	int r;

	ASSERT_EQ(0, start_self(self, self->buf, RATE_TICK));
	/* pthread_create()'s EAGAIN is not netlink's: a walk of its own. */
	if (self->nth < 0) {
		check_clone(_metadata, self, NULL, op_clone(self, NULL), false);
		note("%s: checked once, no failure injected", op.name);
	}
	for (n = 1; self->nth >= 0 && n <= WALK_MAX; n++) {
		ASSERT_EQ(0, nth_arm(self->nth, n));
		r = op_clone(self, NULL);
		left = nth_disarm(self->nth);
		check_clone(_metadata, self, NULL, r, !left);
		if (left) {
			ASSERT_EQ(0, r);
			note("%s: %u failures injected", op.name, injected);
			break;
		}
		injected++;
	}
	ASSERT_LE(n, WALK_MAX);
	ASSERT_EQ(0, pnl_stop(&self->nl, 0));
	ASSERT_EQ(0, pnl_get(&self->nl, 0, &st));
	expect_identity(_metadata, &st);
}

/*
 * The fork attach runs in the child, before its first user instruction,
 * where its own fail-nth (0 at fork) cannot be written from inside. The
 * parent, SCHED_FIFO on one CPU, writes it after fork() returns and
 * before the child (SCHED_OTHER: SCHED_RESET_ON_FORK) can run there; the
 * child stops itself at once, and the parent reads what was left. A
 * child whose attach failed is not profiled (no session), as documented;
 * one whose failure came after its attach (the SIGSTOP's siginfo) is.
 */
static pid_t fork_stopped(struct __test_metadata *_metadata, unsigned int n,
			  unsigned int *left)
{
	char path[64];
	int status, fd;
	pid_t pid;

	pid = fork();
	ASSERT_GE(pid, 0);
	if (!pid) {
		syscall(SYS_kill, syscall(SYS_getpid), SIGSTOP);
		_exit(0);
	}
	snprintf(path, sizeof(path), "/proc/%d/fail-nth", pid);
	fd = open(path, O_RDWR);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, nth_arm(fd, n));
	ASSERT_EQ(pid, waitpid(pid, &status, WUNTRACED));
	ASSERT_TRUE(WIFSTOPPED(status));
	*left = nth_disarm(fd);
	close(fd);
	return pid;
}

static void fork_reap(pid_t pid)
{
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
}

/*
 * Run on this CPU only, SCHED_FIFO (not inherited): a child or thread
 * made now does not run before this thread lets it, so that this thread
 * can write its fail-nth first. @cpus keeps the affinity to restore.
 */
static int pin_fifo(cpu_set_t *cpus)
{
	struct sched_param rt = { .sched_priority = 1 };
	cpu_set_t one;

	if (sched_getaffinity(0, sizeof(*cpus), cpus))
		return -1;
	CPU_ZERO(&one);
	CPU_SET(sched_getcpu(), &one);
	if (sched_setaffinity(0, sizeof(one), &one))
		return -1;
	return sched_setscheduler(0, SCHED_FIFO | SCHED_RESET_ON_FORK, &rt);
}

/* Back to SCHED_OTHER on the CPUs of @cpus. */
static void unpin(const cpu_set_t *cpus)
{
	struct sched_param other = {};

	sched_setscheduler(0, SCHED_OTHER, &other);
	sched_setaffinity(0, sizeof(*cpus), cpus);
}

TEST_F_TIMEOUT(fault, fork_attach, 240)
{
	unsigned int n, left, injected = 0, unprofiled = 0;
	struct pnl_status st;
	cpu_set_t cpus;
	pid_t pid;
	int err;

	ASSERT_EQ(0, start_self(self, self->buf, RATE_TICK));
	if (self->nth < 0) {
		/* The child has attached once it stops itself. */
		pid = fork();
		ASSERT_GE(pid, 0);
		if (!pid) {
			raise(SIGSTOP);
			_exit(0);
		}
		ASSERT_EQ(pid, waitpid(pid, &err, WUNTRACED));
		err = pnl_get(&self->nl, pid, &st);
		fork_reap(pid);
		ASSERT_EQ(0, err);
		EXPECT_EQ(PROFIL_STATE_ACTIVE, st.state);
		note("fork attach: checked once, no failure injected");
		return;
	}
	ASSERT_EQ(0, pin_fifo(&cpus));
	for (n = 1; n <= WALK_MAX; n++) {
		pid = fork_stopped(_metadata, n, &left);
		err = pnl_get(&self->nl, pid, &st);
		fork_reap(pid);
		if (left) {
			ASSERT_EQ(0, err);
			EXPECT_EQ(PROFIL_STATE_ACTIVE, st.state);
			EXPECT_EQ(RATE_TICK, st.rate);
			break;
		}
		injected++;
		if (err == -ENOENT) {
			unprofiled++;
			continue;
		}
		ASSERT_EQ(0, err);
		EXPECT_EQ(PROFIL_STATE_ACTIVE, st.state);
	}
	unpin(&cpus);
	ASSERT_LE(n, WALK_MAX);
	note("fork attach, in the child: %u failures injected, %u children not profiled",
	       injected, unprofiled);
	EXPECT_GT(unprofiled, 0);
	ASSERT_EQ(0, pnl_stop(&self->nl, 0));
	ASSERT_EQ(0, pnl_get(&self->nl, 0, &st));
	expect_identity(_metadata, &st);
}

/*
 * The thread attach runs in the new thread, as the fork attach does in
 * the child: a raw clone() (its tid known before it runs), the same
 * SCHED_FIFO parent on one CPU. Whether the thread was profiled shows in
 * the counters over spin(), which only the thread runs while the parent
 * sleeps: a thread whose attach failed is not profiled, as documented.
 */

struct raw_thread {
	int efd;		/* the thread has spun */
	int go;			/* futex: the thread may exit */
	pid_t ctid;		/* cleared by the kernel at the thread's exit */
	char *stack;
};

static int raw_thread_fn(void *arg)
{
	struct raw_thread *rt = arg;
	uint64_t one = 1;

	spin(0.05);
	syscall(SYS_write, rt->efd, &one, sizeof(one));
	while (!__atomic_load_n(&rt->go, __ATOMIC_ACQUIRE))
		syscall(SYS_futex, &rt->go, FUTEX_WAIT_PRIVATE, 0, NULL, NULL,
			0);
	syscall(SYS_exit, 0);
	return 0;
}

#define RAW_STACK (256 * 1024)

/* Start a raw thread with fail-nth @n; return its fail-nth left. */
static unsigned int raw_thread_run(struct __test_metadata *_metadata,
				   struct raw_thread *rt, unsigned int n)
{
	int flags = CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND |
		    CLONE_THREAD | CLONE_SYSVSEM | CLONE_CHILD_CLEARTID |
		    CLONE_PARENT_SETTID;
	unsigned int left;
	char path[64];
	uint64_t val;
	pid_t tid;
	int fd;

	rt->go = 0;
	tid = clone(raw_thread_fn, rt->stack + RAW_STACK, flags, rt,
		    &rt->ctid, NULL, &rt->ctid);
	ASSERT_LT(0, tid);
	/* n = 0: no fail-nth on this kernel. */
	snprintf(path, sizeof(path), "/proc/self/task/%d/fail-nth", tid);
	fd = n ? open(path, O_RDWR) : -1;
	if (n) {
		ASSERT_LE(0, fd);
		ASSERT_EQ(0, nth_arm(fd, n));
	}
	ASSERT_EQ(sizeof(val), read(rt->efd, &val, sizeof(val)));
	left = n ? nth_disarm(fd) : 1;
	if (n)
		close(fd);
	__atomic_store_n(&rt->go, 1, __ATOMIC_RELEASE);
	syscall(SYS_futex, &rt->go, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
	while ((tid = __atomic_load_n(&rt->ctid, __ATOMIC_ACQUIRE)))
		syscall(SYS_futex, &rt->ctid, FUTEX_WAIT, tid, NULL, NULL, 0);
	return left;
}


TEST_F_TIMEOUT(fault, thread_attach, 240)
{
	unsigned int n, left, injected = 0, unprofiled = 0;
	struct raw_thread rt = {};
	uint64_t before, after;
	struct pnl_status st;
	cpu_set_t cpus;

	rt.efd = eventfd(0, 0);
	ASSERT_LE(0, rt.efd);
	rt.stack = mmap(NULL, RAW_STACK, PROT_READ | PROT_WRITE,
			MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	ASSERT_NE(MAP_FAILED, rt.stack);
	ASSERT_EQ(0, start_spin(self, self->buf, RATE_TIMER));
	if (self->nth < 0) {
		before = buf_sum(self->buf);
		raw_thread_run(_metadata, &rt, 0);
		EXPECT_LT(before, buf_sum(self->buf));
		note("thread attach: checked once, no failure injected");
		return;
	}
	ASSERT_EQ(0, pin_fifo(&cpus));
	for (n = 1; n <= WALK_MAX; n++) {
		before = buf_sum(self->buf);
		left = raw_thread_run(_metadata, &rt, n);
		after = buf_sum(self->buf);
		if (left) {
			EXPECT_LT(before, after) TH_LOG("thread not profiled");
			break;
		}
		injected++;
		unprofiled += before == after;
	}
	unpin(&cpus);
	ASSERT_LE(n, WALK_MAX);
	note("thread attach, in the thread: %u failures injected, %u threads not profiled",
	     injected, unprofiled);
	EXPECT_GT(unprofiled, 0);
	ASSERT_EQ(0, pnl_stop(&self->nl, 0));
	ASSERT_EQ(0, pnl_get(&self->nl, 0, &st));
	expect_identity(_metadata, &st);
	EXPECT_EQ(st.stats[PROFIL_STAT_IN_RANGE], buf_sum(self->buf));
}

PROFIL_HARNESS_MAIN
