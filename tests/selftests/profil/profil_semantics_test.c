// SPDX-License-Identifier: GPL-2.0
/*
 * Semantics of profil.ko through its netlink family
 * (profil_semantics_test) and through libprofil
 * (profil_semantics_test_lib): the counter index, the classic on/off
 * rules, exact tick accounting, the deferred write path, faults, stop,
 * fork, exec, permissions and bad input, the status of an unprofiled
 * process, unload with a live session, and the session dump's parts.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "profil_harness.h"
#ifdef PROFIL_TEST_VIA_LIBPROFIL
#include "profil_lib.h"
#else
#include "profil_nl.h"
#endif
#include "profil_index.h"
#include "profil_util.h"
#include "profil_workload.h"
#include "profil_clock_fixture.h"

#define RATE_FAST	1000

static uint64_t idx_of(const char *pc, uint64_t offset, uint32_t scale)
{
	__u64 idx = ~0ULL;

	profil_pc_to_index((uintptr_t)pc, offset, scale, ~0ULL, &idx);
	return idx;
}

FIXTURE(profil) {
	struct pnl nl;
};

FIXTURE_SETUP(profil)
{
	int err = pnl_open(&self->nl);

	ASSERT_EQ(0, err) TH_LOG("family %s: %s", PROFIL_GENL_NAME,
				 strerror(-err));
}

FIXTURE_TEARDOWN(profil)
{
	pnl_stop(&self->nl, 0);
	pnl_close(&self->nl);
}

FIXTURE_VARIANT(profil)
{
	uint32_t scale;
};

FIXTURE_VARIANT_ADD(profil, scale_0x10000) { .scale = 0x10000 };
FIXTURE_VARIANT_ADD(profil, scale_0x8000) { .scale = 0x8000 };
FIXTURE_VARIANT_ADD(profil, scale_0x4000) { .scale = 0x4000 };
FIXTURE_VARIANT_ADD(profil, scale_65535) { .scale = 65535 };

/*
 * Ticks of the two-instruction loop land exactly on the bins glibc's rule
 * gives. offset = cmp - 3 makes scale 65535 put the cmp in bin 0, where
 * BSD's rule would put it in bin 1.
 */
TEST_F(profil, index_formula)
{
	uint64_t offset = (uintptr_t)profil_loop_cmp - 3;
	uint64_t bin_cmp = idx_of(profil_loop_cmp, offset, variant->scale);
	uint64_t bin_jmp = idx_of(profil_loop_jmp, offset, variant->scale);
	uint64_t bin_ret = idx_of(profil_loop_ret, offset, variant->scale);
	uint16_t buf[64] = { 0 };
	struct pnl_start req = {
		.buf = (uintptr_t)buf, .bufsiz = sizeof(buf),
		.offset = offset, .scale = variant->scale, .rate = RATE_FAST,
	};
	struct pnl_status st;
	uint64_t in_loop = 0, sum;
	pthread_t loop;
	double start;
	size_t i;

	if (variant->scale == 65535) {
		ASSERT_EQ(0, bin_cmp);
	}
	ASSERT_EQ(0, pnl_start(&self->nl, &req)) TH_LOG("%s", self->nl.extack);
	/*
	 * Enough ticks in the buffer to mean something, counted by the
	 * kernel rather than expected from the CPU time: a starved vCPU's
	 * late timer takes fewer. The buffer covers the loop alone, so
	 * IN_RANGE counts the loop thread's ticks only (the main thread's,
	 * long GETs on a KASAN kernel, fall outside). One run of the loop,
	 * 10 s of CPU at most.
	 */
	profil_loop_stop = 0;
	ASSERT_EQ(0, pthread_create(&loop, NULL, loop_thread, NULL));
	for (start = process_cpu(); process_cpu() - start < 10.0;) {
		usleep(50000);
		ASSERT_EQ(0, pnl_get(&self->nl, 0, &st));
		if (st.stats[PROFIL_STAT_IN_RANGE] >= 100)
			break;
	}
	profil_loop_stop = 1;
	pthread_join(loop, NULL);
	ASSERT_EQ(0, pnl_stop(&self->nl, 0));
	ASSERT_EQ(0, pnl_get(&self->nl, 0, &st));

	for (i = 0; i < 64; i++) {
		if (i == bin_cmp || i == bin_jmp)
			in_loop += buf[i];
		else if (i != bin_ret) {
			EXPECT_EQ(0, buf[i]) TH_LOG("bin %zu", i);
		}
	}
	sum = buf_sum(buf, 64);
	/*
	 * The ret runs once, but TCG takes interrupts at block boundaries:
	 * a tick whose handler outlasts the next period (KASAN, a starved
	 * vCPU) returns to the ret and takes the next one there before it
	 * runs. A few (4 once, on the debug kernel under a CI's load), not
	 * a share of the loop's, which a wrong bin would draw: a third or
	 * a half.
	 */
	EXPECT_LE(sum - in_loop, 3 + in_loop / 10)
		TH_LOG("the ret runs once: %lu ticks there, %lu in the loop",
		       sum - in_loop, in_loop);
	EXPECT_EQ(sum, st.stats[PROFIL_STAT_IN_RANGE]);
	/* At least 100 ticks of the loop, all but the ret's on cmp or jmp. */
	EXPECT_GE(in_loop + 1, 100)
		TH_LOG("only %lu ticks in the loop", in_loop);
	EXPECT_EQ(st.stats[PROFIL_STAT_TICKS], pnl_accounted(&st));
}

TEST_F(nl, scale0_turns_off)
{
	struct pnl_status st;
	uint64_t sum;

	ASSERT_EQ(0, pnl_start(&self->nl, &self->req));
	run_loop_threads(1, 0.05);
	self->req.scale = 0;
	ASSERT_EQ(0, pnl_start(&self->nl, &self->req));
	expect_stopped(_metadata, &self->nl, PROFIL_STOP_SCALE0, &st);
	sum = buf_sum(self->buf, 4096);
	run_loop_threads(1, 0.05);
	EXPECT_EQ(sum, buf_sum(self->buf, 4096));
}

TEST_F(nl, null_buf_turns_off)
{
	struct pnl_status st;
	uint64_t sum;

	ASSERT_EQ(0, pnl_start(&self->nl, &self->req));
	run_loop_threads(1, 0.05);
	self->req.buf = 0;
	ASSERT_EQ(0, pnl_start(&self->nl, &self->req));
	expect_stopped(_metadata, &self->nl, PROFIL_STOP_REQUEST, &st);
	sum = buf_sum(self->buf, 4096);
	run_loop_threads(1, 0.05);
	EXPECT_EQ(sum, buf_sum(self->buf, 4096));
}

TEST_F(nl, bufsiz0_counts_nothing)
{
	struct pnl_status st;

	self->req.bufsiz = 0;
	ASSERT_EQ(0, pnl_start(&self->nl, &self->req));
	run_loop_threads(1, 0.1);
	ASSERT_EQ(0, pnl_get(&self->nl, 0, &st));
	EXPECT_EQ(PROFIL_STATE_ACTIVE, st.state);
	EXPECT_GT(st.stats[PROFIL_STAT_TICKS], 0);
	EXPECT_EQ(0, st.stats[PROFIL_STAT_IN_RANGE]);
	EXPECT_EQ(0, buf_sum(self->buf, 4096));
}

TEST_F(nl, identity_one_thread)
{
	ASSERT_EQ(0, pnl_start(&self->nl, &self->req));
	spin_a(0.2);
	run_loop_threads(1, 0.2);
	check_identity(_metadata, &self->nl, self->buf, 4096);
}

TEST_F(nl, identity_eight_threads)
{
	ASSERT_EQ(0, pnl_start(&self->nl, &self->req));
	run_loop_threads(8, 0.08);
	check_identity(_metadata, &self->nl, self->buf, 4096);
}

/* Pages never touched: every first write goes through the deferred path. */
TEST_F(nl, untouched_pages_deferred)
{
	size_t size = 1 << 20;
	uint16_t *buf = mmap(NULL, size, PROT_READ | PROT_WRITE,
			     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	struct pnl_status st;
	unsigned char resident;

	ASSERT_NE(MAP_FAILED, buf);
	/*
	 * Else a thread stack's huge page next to it may populate it.
	 * EINVAL: a kernel without THP (PREEMPT_RT's).
	 */
	if (madvise(buf, size, MADV_NOHUGEPAGE)) {
		ASSERT_EQ(EINVAL, errno);
	}
	ASSERT_EQ(0, mincore(buf, 4096, &resident));
	ASSERT_EQ(0, resident & 1);
	self->req.buf = (uintptr_t)buf;
	self->req.bufsiz = size;
	ASSERT_EQ(0, pnl_start(&self->nl, &self->req));
	run_loop_threads(1, 0.1);
	ASSERT_EQ(0, pnl_get(&self->nl, 0, &st));
	EXPECT_EQ(PROFIL_STATE_ACTIVE, st.state);
	EXPECT_GT(st.stats[PROFIL_STAT_DEFERRED], 0);
	check_identity(_metadata, &self->nl, buf, size / 2);
	EXPECT_GT(buf_sum(buf, size / 2), 0);
	munmap(buf, size);
}

/*
 * The buffer goes away under a running thread. The thread is started
 * first, so that its stack cannot be mapped where the buffer was.
 */
static void fault_case(struct __test_metadata *_metadata, struct pnl *nl,
		       struct pnl_start *req, bool unmap)
{
	size_t size = 1 << 16;
	uint16_t *buf = mmap(NULL, size, PROT_READ | PROT_WRITE,
			     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	struct pnl_status st;
	pthread_t tid;

	ASSERT_NE(MAP_FAILED, buf);
	memset(buf, 0, size);
	req->buf = (uintptr_t)buf;
	req->bufsiz = size;
	profil_loop_stop = 0;
	ASSERT_EQ(0, pthread_create(&tid, NULL, loop_thread, NULL));
	ASSERT_EQ(0, pnl_start(nl, req));
	spin_b(0.02);
	if (unmap) {
		ASSERT_EQ(0, munmap(buf, size));
	} else {
		ASSERT_EQ(0, mprotect(buf, size, PROT_READ));
	}
	spin_b(0.1);
	profil_loop_stop = 1;
	pthread_join(tid, NULL);

	expect_stopped(_metadata, nl, PROFIL_STOP_FAULT, &st);
	EXPECT_GE(st.fault_addr, (uintptr_t)buf);
	EXPECT_LT(st.fault_addr, (uintptr_t)buf + size);
	EXPECT_GT(st.stats[PROFIL_STAT_FAULTED], 0);
	EXPECT_EQ(st.stats[PROFIL_STAT_TICKS], pnl_accounted(&st));
	if (!unmap)
		munmap(buf, size);
}

TEST_F(nl, munmap_faults_off)
{
	fault_case(_metadata, &self->nl, &self->req, true);
}

TEST_F(nl, mprotect_faults_off)
{
	fault_case(_metadata, &self->nl, &self->req, false);
}

/*
 * Nothing is written once STOP returns. The loop thread's ticks are the
 * buffer's (spin_a lies outside it), so the test waits for 0.1 s of the
 * loop's own CPU time, not of its own, and counts what the clock made of
 * it as the rate tests do: every period is a tick or MISSED (a late clock,
 * a starved vCPU). At least one of them must be a tick in the buffer: a
 * late clock samples once when it fires.
 */
TEST_F(nl, stop_means_no_more_writes)
{
	uint16_t snapshot[4096];
	struct pnl_status st;
	double loop_cpu = 0, start;
	clockid_t loop_clock;
	pthread_t tid;

	profil_loop_stop = 0;
	ASSERT_EQ(0, pnl_start(&self->nl, &self->req));
	ASSERT_EQ(0, pthread_create(&tid, NULL, loop_thread, NULL));
	ASSERT_EQ(0, pthread_getcpuclockid(tid, &loop_clock));
	/* However the vCPUs share out; 30 s of this thread's CPU at most. */
	start = thread_cpu();
	while (loop_cpu < 0.1 && thread_cpu() - start < 30) {
		spin_a(0.01);
		loop_cpu = clock_cpu(loop_clock);
	}
	ASSERT_EQ(0, pnl_stop(&self->nl, 0));
	memcpy(snapshot, self->buf, sizeof(snapshot));
	spin_a(0.2);
	profil_loop_stop = 1;
	pthread_join(tid, NULL);
	EXPECT_EQ(0, memcmp(snapshot, self->buf, sizeof(snapshot)));
	expect_stopped(_metadata, &self->nl, PROFIL_STOP_REQUEST, &st);
	printf("# %u Hz: %llu in the buffer, %llu ticks and %llu missed in all, for %.3f s of the loop\n",
	       variant->rate, (unsigned long long)buf_sum(self->buf, 4096),
	       (unsigned long long)st.stats[PROFIL_STAT_TICKS],
	       (unsigned long long)st.stats[PROFIL_STAT_MISSED], loop_cpu);
	fflush(stdout);	/* the harness's child ends in _exit() */
	ASSERT_GE(loop_cpu, 0.1) TH_LOG("the loop ran %.3f s", loop_cpu);
	EXPECT_GE(pnl_periods(&st), loop_cpu * variant->rate * 0.95 - 2);
	EXPECT_GT(buf_sum(self->buf, 4096), 0)
		TH_LOG("%llu ticks, %llu missed: none of the loop's",
		       (unsigned long long)st.stats[PROFIL_STAT_TICKS],
		       (unsigned long long)st.stats[PROFIL_STAT_MISSED]);
}

/* fork: both keep counting, each into its own copy of the buffer. */
TEST_F(nl, fork_counts_each_own_work)
{
	const struct spin_bins g = spin_bins();
	const size_t nbins = g.nbins, a0 = g.a0, a1 = g.a1, b0 = g.b0,
		     b1 = g.b1;
	uint16_t *buf, *at_fork;
	int status;
	pid_t child;

	ASSERT_LT(nbins, 1 << 20);
	buf = calloc(nbins, 2);
	at_fork = calloc(nbins, 2);

	self->req.buf = (uintptr_t)buf;
	self->req.bufsiz = nbins * 2;
	self->req.offset = g.lo;
	ASSERT_EQ(0, pnl_start(&self->nl, &self->req));
	spin_a(0.05);
	spin_b(0.05);
	memcpy(at_fork, buf, nbins * 2);

	child = fork();
	ASSERT_GE(child, 0);
	if (!child) {
		struct pnl_status st;
		struct pnl cnl;
		uint64_t da = 0, db = 0;
		size_t i;

		spin_b(0.3);
		for (i = a0; i < a1; i++)
			da += (uint16_t)(buf[i] - at_fork[i]);
		for (i = b0; i < b1; i++)
			db += (uint16_t)(buf[i] - at_fork[i]);
		if (pnl_open(&cnl) || pnl_get(&cnl, 0, &st))
			_exit(10);
		if (st.state != PROFIL_STATE_ACTIVE)
			_exit(11);
		_exit(da ? 12 : db ? 0 : 13);
	}
	spin_a(0.3);
	ASSERT_EQ(child, waitpid(child, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status)) TH_LOG("child check %d",
						 WEXITSTATUS(status));
	{
		uint64_t da = 0, db = 0;
		size_t i;

		for (i = a0; i < a1; i++)
			da += (uint16_t)(buf[i] - at_fork[i]);
		for (i = b0; i < b1; i++)
			db += (uint16_t)(buf[i] - at_fork[i]);
		EXPECT_GT(da, 0);
		EXPECT_EQ(0, db);
	}
	free(buf);
	free(at_fork);
}

#define EXEC_ADDR	((void *)0x5e0000000000UL)
#define EXEC_SIZE	(1 << 16)

/*
 * The image exec'd by exec_turns_off: it maps memory where the old buffer
 * was and checks that nothing writes there, and that its status says why.
 */
__attribute__((constructor)) static void exec_child(void)
{
	struct pnl_status st;
	struct pnl nl;
	uint16_t *buf;
	size_t i;

	if (!getenv("PROFIL_EXEC_CHILD"))
		return;
	buf = mmap(EXEC_ADDR, EXEC_SIZE, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
	if (buf != EXEC_ADDR)
		_exit(20);
	memset(buf, 0, EXEC_SIZE);
	spin_a(0.2);
	for (i = 0; i < EXEC_SIZE / 2; i++)
		if (buf[i])
			_exit(21);
	if (pnl_open(&nl) || pnl_get(&nl, 0, &st))
		_exit(22);
	if (st.state != PROFIL_STATE_STOPPED || st.reason != PROFIL_STOP_EXEC)
		_exit(23);
	_exit(0);
}

TEST_F(nl, exec_turns_off)
{
	int status;
	pid_t child = fork();

	ASSERT_GE(child, 0);
	if (!child) {
		char *argv[] = { "profil_semantics_test", NULL };
		uint16_t *buf;

		buf = mmap(EXEC_ADDR, EXEC_SIZE, PROT_READ | PROT_WRITE,
			   MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE,
			   -1, 0);
		if (buf != EXEC_ADDR)
			_exit(30);
		self->req.buf = (uintptr_t)buf;
		self->req.bufsiz = EXEC_SIZE;
		self->req.offset = (uintptr_t)__start_profil_spin_a & ~1UL;
		if (pnl_start(&self->nl, &self->req))
			_exit(31);
		spin_a(0.05);
		setenv("PROFIL_EXEC_CHILD", "1", 1);
		execv("/proc/self/exe", argv);
		_exit(32);
	}
	ASSERT_EQ(child, waitpid(child, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
}

TEST_F(nl, other_users_process_refused)
{
	int status;
	pid_t target, intruder;

	if (geteuid())
		SKIP(return, "needs root to create two users");
	target = fork();
	ASSERT_GE(target, 0);
	if (!target) {
		pause();
		_exit(0);
	}
	intruder = fork();
	ASSERT_GE(intruder, 0);
	if (!intruder) {
		struct pnl_start req = self->req;
		struct pnl_status st;
		struct pnl nl;
		int ret;

		if (setgid(65534) || setuid(65534) || pnl_open(&nl))
			_exit(40);
		req.pid = target;
		if (pnl_get(&nl, target, &st) != -EPERM || !nl.extack[0])
			_exit(41);
		if (pnl_stop(&nl, target) != -EPERM)
			_exit(42);
		if (pnl_start(&nl, &req) != -EPERM)
			_exit(43);
		/* Its own process needs no privilege. */
		req.pid = 0;
		if (pnl_start(&nl, &req) || pnl_stop(&nl, 0))
			_exit(44);
		/*
		 * Its own user's process: status reads, but start writes into
		 * it, and start and stop control it: they take tracing it.
		 */
		prctl(PR_SET_DUMPABLE, 1);	/* setuid() cleared it */
		req.pid = fork();
		if (!req.pid) {
			pause();
			_exit(0);
		}
		ret = 0;
		if (pnl_get(&nl, req.pid, &st) != -ENOENT ||
		    pnl_stop(&nl, req.pid) != -EPERM)
			ret = 45;
		else if (pnl_start(&nl, &req) != -EPERM || !nl.extack[0])
			ret = 46;
		/* Its tracer may: ptrace checked the access already. */
		else if (ptrace(PTRACE_SEIZE, req.pid, 0, 0))
			ret = 47;
		else if (pnl_start(&nl, &req) || pnl_stop(&nl, req.pid))
			ret = 48;
		else if (ptrace(PTRACE_INTERRUPT, req.pid, 0, 0) ||
			 waitpid(req.pid, NULL, 0) != (pid_t)req.pid ||
			 ptrace(PTRACE_DETACH, req.pid, 0, 0) ||
			 pnl_start(&nl, &req) != -EPERM)
			ret = 49;
		kill(req.pid, SIGKILL);
		_exit(ret);
	}
	ASSERT_EQ(intruder, waitpid(intruder, &status, 0));
	kill(target, SIGKILL);
	waitpid(target, NULL, 0);
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
}

/* A live session pins the module; after stop the module can go. */
TEST_F(nl, rmmod_refused_while_active)
{
	struct stat sb;

	if (system("command -v rmmod >/dev/null 2>&1"))
		SKIP(return, "no rmmod");
	ASSERT_EQ(0, pnl_start(&self->nl, &self->req));
	EXPECT_NE(0, system("rmmod profil 2>/dev/null"));
	EXPECT_EQ(0, stat("/sys/module/profil", &sb));
	ASSERT_EQ(0, pnl_stop(&self->nl, 0));
}

/* Bad input gets an errno and, where the kernel can say, an extack. */
TEST_F(nl, bad_input)
{
	struct pnl_start req = self->req;

	req.rate = 5;
	EXPECT_EQ(-ERANGE, pnl_start(&self->nl, &req));
	EXPECT_NE(0, self->nl.extack[0]);
	req = self->req;
	req.flags = 0x80;
	EXPECT_EQ(-EINVAL, pnl_start(&self->nl, &req));
	EXPECT_NE(0, self->nl.extack[0]);
	req = self->req;
	req.buf = 0xffff888000000000ULL;
	EXPECT_EQ(-EFAULT, pnl_start(&self->nl, &req));
	EXPECT_NE(0, self->nl.extack[0]);
	req = self->req;
	req.bufsiz = ~0ULL;
	EXPECT_EQ(-EFAULT, pnl_start(&self->nl, &req));
	req = self->req;
	req.pid = 0x3fffffff;
	EXPECT_EQ(-ESRCH, pnl_start(&self->nl, &req));
	EXPECT_NE(0, self->nl.extack[0]);
}

/* A process that exited but is not reaped yet has nothing to profile. */
TEST_F(nl, zombie_target_refused)
{
	struct pnl_start req = self->req;
	siginfo_t info;
	pid_t child = fork();

	ASSERT_GE(child, 0);
	if (!child) {
		pause();
		_exit(0);
	}
	/* Traced, so that the START gets past the permission check. */
	ASSERT_EQ(0, ptrace(PTRACE_SEIZE, child, 0, 0));
	ASSERT_EQ(0, kill(child, SIGKILL));
	ASSERT_EQ(0, waitid(P_PID, child, &info, WEXITED | WNOWAIT));
	req.pid = child;
	EXPECT_EQ(-ESRCH, pnl_start(&self->nl, &req));
	EXPECT_NE(0, self->nl.extack[0]);
	waitpid(child, NULL, 0);
}

static uint16_t leaderless_buf[4096];

/* A process whose leader exited but whose threads run is profiled by PID. */
TEST_F(nl, leaderless_process_by_pid)
{
	struct pnl_start req = self->req;
	struct pnl_status st;
	double start, end;
	pid_t child, tid;
	int status;

	profil_loop_stop = 0;
	child = fork();
	ASSERT_GE(child, 0);
	if (!child) {
		pthread_t tid;

		pthread_create(&tid, NULL, loop_thread, NULL);
		pthread_exit(NULL);
	}
	/* The leader gone (a zombie) while its thread runs on. */
	for (end = now() + 60; proc_state(child) != 'Z' && now() < end;)
		usleep(10000);
	ASSERT_EQ('Z', proc_state(child));
	/* Only its tracer may start it; the zombie leader cannot be traced. */
	tid = other_thread(child);
	ASSERT_LT(0, tid);
	ASSERT_EQ(0, ptrace(PTRACE_SEIZE, tid, 0, 0));
	req.pid = child;
	req.buf = (uintptr_t)leaderless_buf;
	req.bufsiz = sizeof(leaderless_buf);
	ASSERT_EQ(0, pnl_start(&self->nl, &req)) TH_LOG("%s", self->nl.extack);
	/* 0.3 s of its CPU time: 30 ticks at 100 Hz. */
	start = pid_cpu(child);
	for (end = now() + 60; pid_cpu(child) < start + 0.3 && now() < end;)
		usleep(10000);
	ASSERT_EQ(0, pnl_get(&self->nl, child, &st));
	EXPECT_EQ(PROFIL_STATE_ACTIVE, st.state);
	EXPECT_GT(st.stats[PROFIL_STAT_IN_RANGE], 0);
	EXPECT_EQ(0, pnl_stop(&self->nl, child));
	kill(child, SIGKILL);
	/* The traced thread is reaped before its process can be. */
	waitpid(tid, NULL, __WALL);
	ASSERT_EQ(child, waitpid(child, &status, 0));
}

TEST_F(nl, status_of_unprofiled_process)
{
	struct pnl_status st;

	EXPECT_EQ(-ENOENT, pnl_get(&self->nl, 0, &st));
	EXPECT_NE(0, self->nl.extack[0]);
	EXPECT_EQ(0, pnl_stop(&self->nl, 0));
}

#ifndef PROFIL_TEST_VIA_LIBPROFIL
/* One part of a dump, read with a 4 KiB buffer: the kernel fills no more. */
struct dump_parts {
	unsigned int msgs, intr;
	bool done;
};

static int dump_part(struct mnl_socket *sock, uint32_t seq,
		     struct dump_parts *d)
{
	char buf[4096];
	const struct nlmsghdr *nlh;
	int len = mnl_socket_recvfrom(sock, buf, sizeof(buf));

	if (len < 0)
		return -errno;
	for (nlh = (void *)buf; mnl_nlmsg_ok(nlh, len);
	     nlh = mnl_nlmsg_next(nlh, &len)) {
		if (nlh->nlmsg_seq != seq)
			continue;
		if (nlh->nlmsg_flags & NLM_F_DUMP_INTR)
			d->intr++;
		if (nlh->nlmsg_type == NLMSG_DONE ||
		    nlh->nlmsg_type == NLMSG_ERROR)
			d->done = true;
		else
			d->msgs++;
	}
	return 0;
}

/* A session dump of family @family on a socket of its own, from seq @seq. */
static struct mnl_socket *dump_begin(uint16_t family, uint32_t seq)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct mnl_socket *sock = mnl_socket_open(NETLINK_GENERIC);
	struct nlmsghdr *nlh;

	if (!sock)
		return NULL;
	nlh = pnl_msg(buf, family, PROFIL_CMD_GET, PROFIL_GENL_VERSION);
	nlh->nlmsg_flags |= NLM_F_DUMP;
	nlh->nlmsg_seq = seq;
	if (mnl_socket_bind(sock, 0, MNL_SOCKET_AUTOPID) < 0 ||
	    mnl_socket_sendto(sock, nlh, nlh->nlmsg_len) < 0) {
		mnl_socket_close(sock);
		return NULL;
	}
	return sock;
}

/*
 * A session dump comes in parts; a session forgotten between two parts
 * moves the positions the dump resumes from, and what follows carries
 * NLM_F_DUMP_INTR. A dump during which nothing changes carries none.
 */
TEST(dump_flags_table_change)
{
	enum { KIDS = 40 };
	static uint16_t buf[256];
	struct pnl_start req = {
		.buf = (uintptr_t)buf, .bufsiz = sizeof(buf), .scale = 0x8000,
		.rate = 100,
	};
	struct dump_parts d = {}, calm = {};
	struct mnl_socket *sock;
	pid_t kids[KIDS];
	int fds[2], i;
	struct pnl nl;
	char c;

	ASSERT_EQ(0, pnl_open(&nl));
	ASSERT_EQ(0, pipe(fds));
	for (i = 0; i < KIDS; i++) {
		kids[i] = fork();
		ASSERT_LE(0, kids[i]);
		if (!kids[i]) {
			struct pnl cnl;

			c = pnl_open(&cnl) || pnl_start(&cnl, &req) ? 'F' : 'S';
			if (write(fds[1], &c, 1) != 1 || c != 'S')
				_exit(1);
			for (;;)
				pause();
		}
	}
	for (i = 0; i < KIDS; i++) {
		ASSERT_EQ(1, read(fds[0], &c, 1));
		ASSERT_EQ('S', c);
	}

	sock = dump_begin(nl.family, 1);
	ASSERT_NE(NULL, sock);
	ASSERT_EQ(0, dump_part(sock, 1, &d));
	ASSERT_FALSE(d.done) TH_LOG("the dump came in one part");
	EXPECT_EQ(0, d.intr);
	/* Its exit probe forgets its session before the parent reaps it. */
	kill(kids[KIDS - 1], SIGKILL);
	ASSERT_EQ(kids[KIDS - 1], waitpid(kids[KIDS - 1], NULL, 0));
	while (!d.done)
		ASSERT_EQ(0, dump_part(sock, 1, &d));
	mnl_socket_close(sock);
	EXPECT_NE(0, d.intr) TH_LOG("no NLM_F_DUMP_INTR after a change");

	sock = dump_begin(nl.family, 2);
	ASSERT_NE(NULL, sock);
	while (!calm.done)
		ASSERT_EQ(0, dump_part(sock, 2, &calm));
	mnl_socket_close(sock);
	EXPECT_EQ(0, calm.intr);
	EXPECT_LE(KIDS - 1, calm.msgs);

	for (i = 0; i < KIDS - 1; i++) {
		kill(kids[i], SIGKILL);
		waitpid(kids[i], NULL, 0);
	}
	pnl_close(&nl);
}
#endif

PROFIL_OPEN_TIMER_CLOCK
PROFIL_HARNESS_MAIN
