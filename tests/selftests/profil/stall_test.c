// SPDX-License-Identifier: GPL-2.0
/*
 * A process whose buffer page never resolves holds up no one else. Its
 * buffer is a userfaultfd range nobody serves (a dead FUSE daemon does
 * the same), so its first deferred write waits in a page fault for good.
 * Meanwhile a restart and a STOP of it, another user's START and the
 * fork of that user's profiled process, and its own SIGKILL, must each
 * complete within seconds, while the page is still missing.
 * Documentation/kmod/locking.rst: no profil lock is held across a fault.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <linux/userfaultfd.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/ptrace.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "profil_harness.h"
#include "profil_nl.h"
#include "profil_util.h"

/*
 * How long each of them may take, times $PROFIL_TIMEOUT_SCALE: ample on
 * a loaded host, where each takes well under a second; without the fix
 * each waits until the kill. The test's timeout, STALL_TIMEOUT (scaled
 * as well), holds the four waits and the rest: the harness's default 30 s
 * did not, and a slow debug guest on a loaded host ran out of it.
 */
#define STALL_LIMIT	8.0
#define STALL_TIMEOUT	60

static double stall_limit(void)
{
	const char *env = getenv("PROFIL_TIMEOUT_SCALE");
	unsigned long scale = env ? strtoul(env, NULL, 0) : 1;

	return STALL_LIMIT * (scale > 1 ? scale : 1);
}

/* waitpid() for at most @secs: the status, -1 if still running, -2 error. */
static int wait_for(pid_t pid, double secs)
{
	double end = now() + secs;
	int status;
	pid_t r;

	do {
		r = waitpid(pid, &status, WNOHANG);
		if (r == pid)
			return status;
		if (r < 0)
			return -2;
		usleep(10000);
	} while (now() < end);
	return -1;
}

/*
 * The stalled process: profiles itself into a page of a userfaultfd
 * range (kernel faults included: no UFFD_USER_MODE_ONLY) and spins. It
 * says on @fd 'S' once started, 'U' without userfaultfd, 'F' on failure.
 */
static void __attribute__((noreturn)) stalled_child(int fd)
{
	struct uffdio_api api = { .api = UFFD_API };
	struct uffdio_register reg = {
		.mode = UFFDIO_REGISTER_MODE_MISSING,
	};
	long page = sysconf(_SC_PAGESIZE);
	struct pnl_start req;
	struct pnl nl;
	char c = 'U';
	void *buf;
	int uffd;

	uffd = syscall(SYS_userfaultfd, O_CLOEXEC);
	buf = mmap(NULL, page, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (uffd < 0 || buf == MAP_FAILED || ioctl(uffd, UFFDIO_API, &api))
		goto out;
	reg.range.start = (uintptr_t)buf;
	reg.range.len = page;
	if (ioctl(uffd, UFFDIO_REGISTER, &reg))
		goto out;
	c = 'F';
	req = (struct pnl_start) {
		.buf = (uintptr_t)buf, .bufsiz = page, .offset = TEXT_OFFSET,
		.scale = 1, .rate = 100,
	};
	if (pnl_open(&nl) || pnl_start(&nl, &req))
		goto out;
	c = 'S';
	if (write(fd, &c, 1) != 1)
		_exit(1);
	/* The first tick's deferred write waits here for good. */
	for (;;)
		user_spin(1.0);
out:
	if (write(fd, &c, 1) != 1)
		_exit(1);
	_exit(1);
}

/*
 * A restart (@rate) of @pid with its buffer, or a STOP (@rate 0), from a
 * child: only its tracer may, and only its tracer is told where the
 * buffer is. Seized without a stop, detached at the child's exit.
 */
static pid_t request(pid_t pid, uint32_t rate)
{
	struct pnl_start req = {
		.bufsiz = sysconf(_SC_PAGESIZE), .offset = TEXT_OFFSET,
		.scale = 1, .rate = rate, .pid = pid,
	};
	struct pnl_status st;
	struct pnl nl;
	pid_t child = fork();

	if (child)
		return child;
	if (pnl_open(&nl) || ptrace(PTRACE_SEIZE, pid, 0, 0))
		_exit(1);
	if (!rate)
		_exit(pnl_stop(&nl, pid) ? 2 : 0);
	if (pnl_get(&nl, pid, &st) || !st.buf)
		_exit(3);
	req.buf = st.buf;
	_exit(pnl_start(&nl, &req) ? 2 : 0);
}

/*
 * Another user: nobody profiles itself, forks (the child attaches itself
 * to a session of its own before it first runs), waits for the child and
 * stops. Exits 0 if all of it worked.
 */
static pid_t other_user(void)
{
	static uint16_t hist[1024];
	struct pnl_start req = {
		.buf = (uintptr_t)hist, .bufsiz = sizeof(hist),
		.offset = TEXT_OFFSET, .scale = 1, .rate = 100,
	};
	pid_t pid = fork(), child;
	struct pnl nl;
	int status;

	if (pid)
		return pid;
	if (setgroups(0, NULL) || setgid(65534) || setuid(65534))
		_exit(1);
	if (pnl_open(&nl) || pnl_start(&nl, &req))
		_exit(2);
	child = fork();
	if (!child)
		_exit(0);
	if (child < 0 || waitpid(child, &status, 0) != child || status)
		_exit(3);
	_exit(pnl_stop(&nl, 0) ? 4 : 0);
}

/*
 * Where the test is, with the seconds since it began: when the harness's
 * timeout kills it, the last line says which wait it was in.
 */
static double stall_t0;

static void step(const char *what)
{
	printf("# %6.2f s: %s\n", now() - stall_t0, what);
	fflush(stdout);
}

/* After the kill: whatever is left ends too, or is killed. */
static void reap(pid_t pid, double secs)
{
	if (pid > 0 && wait_for(pid, secs) == -1) {
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
	}
}

FIXTURE(stall) {};
FIXTURE_SETUP(stall) {}
FIXTURE_TEARDOWN(stall) {}

TEST_F_TIMEOUT(stall, stalled_buffer_holds_up_no_one, STALL_TIMEOUT)
{
	pid_t stalled, restart = -1, other = -1, stop = -1;
	double limit = stall_limit(), end;
	struct pnl_status st;
	int fds[2], status;
	struct pnl nl;
	char c = 0;

	if (geteuid())
		SKIP(return, "needs root for a second user and userfaultfd");
	stall_t0 = now();
	ASSERT_EQ(0, pnl_open(&nl));
	ASSERT_EQ(0, pipe(fds));
	stalled = fork();
	ASSERT_LE(0, stalled);
	if (!stalled) {
		close(fds[0]);
		stalled_child(fds[1]);
	}
	close(fds[1]);
	ASSERT_EQ(1, read(fds[0], &c, 1));
	close(fds[0]);
	if (c != 'S') {
		kill(stalled, SIGKILL);
		waitpid(stalled, NULL, 0);
		if (c == 'U')
			SKIP(return, "no userfaultfd");
		ASSERT_EQ('S', c) TH_LOG("the stalled process did not start");
	}

	/* Its first tick is pending, and stays so: the write waits. */
	step("started; waiting for its first tick to be pending");
	for (end = now() + limit; now() < end; usleep(10000)) {
		ASSERT_EQ(0, pnl_get(&nl, stalled, &st));
		if (st.stats[PROFIL_STAT_PENDING])
			break;
	}
	ASSERT_NE(0, st.stats[PROFIL_STAT_PENDING]);
	usleep(200000);
	ASSERT_EQ(0, pnl_get(&nl, stalled, &st));
	ASSERT_NE(0, st.stats[PROFIL_STAT_PENDING]);
	ASSERT_EQ(PROFIL_STATE_ACTIVE, st.state);

	/* The buffer stays the same: a restart of the stalled process. */
	step("pending; restarting it");
	restart = request(stalled, 200);
	ASSERT_LE(0, restart);
	status = wait_for(restart, limit);
	EXPECT_EQ(0, status) TH_LOG("restart of the stalled process: %s",
				    status == -1 ? "still waiting" : "failed");

	step("another user's START and fork");
	other = other_user();
	ASSERT_LE(0, other);
	status = wait_for(other, limit);
	EXPECT_EQ(0, status) TH_LOG("another user's START and fork: %s",
				    status == -1 ? "still waiting" : "failed");

	step("STOP of the stalled process");
	stop = request(stalled, 0);
	ASSERT_LE(0, stop);
	status = wait_for(stop, limit);
	EXPECT_EQ(0, status) TH_LOG("STOP of the stalled process: %s",
				    status == -1 ? "still waiting" : "failed");
	if (!status) {
		/* Stopped, the page still missing, every tick accounted. */
		ASSERT_EQ(0, pnl_get(&nl, stalled, &st));
		EXPECT_EQ(PROFIL_STATE_STOPPED, st.state);
		EXPECT_EQ(PROFIL_STOP_REQUEST, st.reason);
		EXPECT_NE(0, st.stats[PROFIL_STAT_PENDING]);
		EXPECT_EQ(st.stats[PROFIL_STAT_TICKS], pnl_accounted(&st));
	}

	step("SIGKILL of the stalled process");
	ASSERT_EQ(0, kill(stalled, SIGKILL));
	status = wait_for(stalled, limit);
	EXPECT_TRUE(status >= 0 && WIFSIGNALED(status) &&
		    WTERMSIG(status) == SIGKILL)
		TH_LOG("SIGKILL of the stalled process: %s",
		       status == -1 ? "still waiting" : "wrong status");
	if (status == -1) {
		kill(stalled, SIGKILL);
		waitpid(stalled, NULL, 0);
	}
	step("reaping");
	reap(restart, limit);
	reap(other, limit);
	reap(stop, limit);
	pnl_close(&nl);
}

PROFIL_HARNESS_MAIN
