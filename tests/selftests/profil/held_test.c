// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel-held sessions (PROFIL_CMD_COLLECT): the kernel follows a process
 * and what it forks, vforks and execs, and keeps the profile for the
 * collector's socket until it reads it.
 *
 * - own process: samples land at the file offsets of the hot function in
 *   the test's own executable, identified by device and inode as stat()
 *   has them, and the image's accounting adds up;
 * - a child that COLLECTs itself on the inherited socket and execs (as
 *   profil-ctl run does): its images across exec, fork and posix_spawn
 *   (vfork), all exited before the read, each with its samples;
 * - the socket's close ends following: the program runs on;
 * - another process without being its tracer: EPERM with text;
 * - a buffer session of the same process next to it: both count;
 * - an exec that raises privileges is not followed.
 *
 * The test re-executes itself as the workload: HELD_WORKER in the
 * environment selects what it does (held_worker()).
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "profil_harness.h"
#include "profil_nl.h"
#include "profil_util.h"
#include "profil_held.h"

extern char **environ;

/* The file offset of @addr in the mapping of /proc/self/maps holding it. */
static int64_t file_offset(uintptr_t addr)
{
	unsigned long start, end, off;
	FILE *f = fopen("/proc/self/maps", "r");
	char line[512];
	int64_t ret = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%lx-%lx %*s %lx", &start, &end, &off) == 3 &&
		    addr >= start && addr < end) {
			ret = addr - start + off;
			break;
		}
	fclose(f);
	return ret;
}

/*
 * Whether @img ran held_spin() for 0.3 s: 30 periods at 100 Hz, less
 * the first one's random phase, and most of its samples in @exe.
 */
static bool spun(const struct held_profile *p, const struct held_image *img,
		 const struct held_object *exe)
{
	return held_spun(p, img, exe, 20, 7);
}

/* Run this executable as the workload @what; returns its pid. */
static pid_t spawn_self(const char *what)
{
	return held_spawn_self("HELD_WORKER", what);
}

/*
 * The workloads, run before the harness when HELD_WORKER is set:
 *   tree: 0.3 s of held_spin(), then a fork and a posix_spawn() (vfork)
 *	of "leaf", waited for;
 *   leaf: 0.3 s of held_spin();
 *   euid: writes its effective uid to fd 3.
 */
static void __attribute__((constructor)) held_worker(void)
{
	const char *what = getenv("HELD_WORKER");
	pid_t a, b;
	int st;

	if (!what)
		return;
	if (!strcmp(what, "euid")) {
		dprintf(3, "%u\n", geteuid());
		_exit(0);
	}
	held_spin(0.3);
	if (!strcmp(what, "tree")) {
		a = fork();
		if (a == 0) {
			held_spin(0.3);
			_exit(0);
		}
		b = spawn_self("leaf");
		if (a < 0 || b < 0 || waitpid(a, &st, 0) != a ||
		    waitpid(b, &st, 0) != b)
			_exit(1);
	}
	_exit(0);
}

TEST(own_process)
{
	const struct held_object *exe;
	const struct held_image *img;
	struct held_profile *p = malloc(sizeof(*p));
	int64_t spin_off = file_offset((uintptr_t)held_spin);
	uint64_t in_spin = 0, in_exe;
	double cpu0, cpu1;
	struct pnl nl;
	unsigned int i;

	ASSERT_NE(NULL, p);
	ASSERT_LE(0, spin_off);
	ASSERT_EQ(0, pnl_open(&nl));
	cpu0 = process_cpu();
	ASSERT_EQ(0, pnl_collect(&nl, 0, 0)) TH_LOG("%s", nl.extack);
	/* Followed already: refused, and the first session goes on. */
	ASSERT_EQ(-EEXIST, pnl_collect(&nl, 0, 0));
	EXPECT_NE(NULL, strstr(nl.extack, "followed already"));
	held_spin(1.0);
	ASSERT_EQ(0, held_read(&nl, p));
	cpu1 = process_cpu();

	ASSERT_EQ(1, p->nr_images);
	img = &p->images[0];
	EXPECT_EQ(getpid(), img->pid);
	EXPECT_EQ(0, img->parent);
	EXPECT_EQ(PROFIL_STOP_NONE, img->reason);
	EXPECT_STREQ("held_test", img->comm);
	exe = object_at(p, "/proc/self/exe");
	ASSERT_NE(NULL, exe) TH_LOG("the executable is not among %u objects",
				    p->nr_objects);
	EXPECT_EQ(exe->id, img->exe);
	/*
	 * 1 s of held_spin() at 100 Hz: 100 periods, sampled or missed (a
	 * loaded TCG guest skips ticks), and no more than the process's CPU
	 * time from the COLLECT to the read (the requests' own, on a debug
	 * kernel a few periods more). Nearly all samples are the
	 * executable's: nothing else runs but the vDSO's clock.
	 */
	in_exe = samples_in(p, img->id, exe->id);
	EXPECT_LE(90, periods(img));
	EXPECT_GE((uint64_t)((cpu1 - cpu0) * 100) + 2, periods(img));
	EXPECT_LE(img->stats[PROFIL_STAT_TICKS] * 8 / 10,
		  img->stats[PROFIL_STAT_IN_RANGE]);
	EXPECT_LE(img->stats[PROFIL_STAT_IN_RANGE] * 7 / 10, in_exe);
	for (i = 0; i < p->nr_samples; i++)
		if (p->samples[i].object == exe->id &&
		    p->samples[i].offset >= (uint64_t)spin_off &&
		    p->samples[i].offset < (uint64_t)spin_off + 256)
			in_spin += p->samples[i].count;
	/* The loop is held_spin()'s; the rest is the vDSO's clock. */
	EXPECT_LE(in_exe / 2, in_spin)
		TH_LOG("%llu of %llu samples in held_spin()",
		       (unsigned long long)in_spin,
		       (unsigned long long)in_exe);
	EXPECT_TRUE(image_adds_up(p, img));
	EXPECT_EQ(1, p->stats[PROFIL_PROFILE_IMAGES]);
	EXPECT_EQ(p->nr_objects, p->stats[PROFIL_PROFILE_OBJECTS]);
	EXPECT_LT(0, p->stats[PROFIL_PROFILE_BYTES]);
	pnl_close(&nl);
	free(p);
}

TEST(exec_fork_vfork)
{
	const struct held_image *top[4], *kids[4], *grand[4], *leaf[4];
	const struct held_image *forked, *spawned;
	const struct held_object *exe;
	struct held_profile *p = malloc(sizeof(*p));
	struct pnl nl;
	unsigned int i, n;
	pid_t pid;
	int st;

	ASSERT_NE(NULL, p);
	ASSERT_EQ(0, pnl_open(&nl));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		/* profil-ctl run's way: the child names itself, then execs. */
		char *argv[] = { "held_test", NULL };
		char *envp[] = { "HELD_WORKER=tree", NULL };

		if (pnl_collect(&nl, 0, 0))
			_exit(2);
		execve("/proc/self/exe", argv, envp);
		_exit(3);
	}
	ASSERT_EQ(pid, waitpid(pid, &st, 0));
	ASSERT_TRUE(WIFEXITED(st));
	ASSERT_EQ(0, WEXITSTATUS(st));
	/* Everything exited before the read: the kernel kept it. */
	ASSERT_EQ(0, held_read(&nl, p));
	exe = object_at(p, "/proc/self/exe");
	ASSERT_NE(NULL, exe);

	/* fork child -> exec'd tree -> {fork, spawn -> exec'd leaf}. */
	ASSERT_EQ(1, children_of(p, 0, top, 4));
	EXPECT_EQ(pid, top[0]->pid);
	EXPECT_EQ(PROFIL_STOP_EXEC, top[0]->reason);
	ASSERT_EQ(1, children_of(p, top[0]->id, kids, 4));
	EXPECT_EQ(pid, kids[0]->pid);
	EXPECT_EQ(PROFIL_STOP_EXIT, kids[0]->reason);
	EXPECT_TRUE(spun(p, kids[0], exe));
	n = children_of(p, kids[0]->id, grand, 4);
	ASSERT_EQ(2, n);
	for (i = 0; i < n; i++) {
		EXPECT_NE(pid, grand[i]->pid);
		EXPECT_EQ(exe->id, grand[i]->exe);
	}
	/*
	 * The fork spins itself; the spawned one (a vfork) execs, and its
	 * new image spins. Which of the two came first is the scheduler's.
	 */
	forked = grand[0]->reason == PROFIL_STOP_EXIT ? grand[0] : grand[1];
	spawned = forked == grand[0] ? grand[1] : grand[0];
	EXPECT_EQ(PROFIL_STOP_EXIT, forked->reason);
	EXPECT_TRUE(spun(p, forked, exe));
	EXPECT_EQ(PROFIL_STOP_EXEC, spawned->reason);
	ASSERT_EQ(1, children_of(p, spawned->id, leaf, 4));
	EXPECT_EQ(spawned->pid, leaf[0]->pid);
	EXPECT_EQ(PROFIL_STOP_EXIT, leaf[0]->reason);
	EXPECT_TRUE(spun(p, leaf[0], exe));
	for (i = 0; i < p->nr_images; i++)
		EXPECT_TRUE(image_adds_up(p, &p->images[i]))
			TH_LOG("image %u", p->images[i].id);
	pnl_close(&nl);
	free(p);
}

TEST(close_ends_following)
{
	struct held_profile *p = malloc(sizeof(*p));
	struct pnl_status st;
	struct pnl nl, other;
	int pipefd[2], closed[2], status;
	pid_t pid;
	char c;

	ASSERT_NE(NULL, p);
	ASSERT_EQ(0, pipe(pipefd));
	ASSERT_EQ(0, pipe(closed));
	ASSERT_EQ(0, pnl_open(&nl));
	ASSERT_EQ(0, pnl_open(&other));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		close(pipefd[1]);
		close(closed[0]);
		if (pnl_collect(&nl, 0, 0))
			_exit(2);
		pnl_close(&nl);
		/* Now the parent holds the socket's last reference. */
		close(closed[1]);
		/* Runs on after the collector is gone, until told to end. */
		while (read(pipefd[0], &c, 1) == 0 || c != 'x')
			held_spin(0.01);
		_exit(0);
	}
	close(pipefd[0]);
	close(closed[1]);
	/* Wait for the child's COLLECT, and for its copy of the socket. */
	ASSERT_EQ(0, read(closed[0], &c, 1));
	close(closed[0]);
	ASSERT_EQ(0, pnl_get_kind(&other, pid, PROFIL_KIND_HELD, &st));
	ASSERT_EQ(PROFIL_STATE_ACTIVE, st.state);
	ASSERT_EQ(PROFIL_KIND_HELD, st.kind);
	/* The last reference to the socket: the profile goes. */
	pnl_close(&nl);
	EXPECT_EQ(-ENOENT, pnl_get_kind(&other, pid, PROFIL_KIND_HELD, &st));
	EXPECT_EQ(0, kill(pid, 0));
	ASSERT_EQ(1, write(pipefd[1], "x", 1));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	/* A socket that never collected has no profile to read. */
	EXPECT_EQ(-ENOENT, held_read(&other, p));
	EXPECT_NE(NULL, strstr(other.extack, "no profile"));
	pnl_close(&other);
	free(p);
}

/* Count the kernel-held sessions a dump lists. */
static void count_held(const struct pnl_status *st, void *data)
{
	if (st->kind == PROFIL_KIND_HELD)
		++*(unsigned int *)data;
}

/*
 * The socket closes while the program forks and execs as fast as it
 * can: sessions being made then must end (by their start, seeing the
 * collector closed) or be ended (by the close), none left behind.
 */
TEST(close_while_forking)
{
	unsigned int held = 0;
	struct pnl nl, other;
	int pipefd[2], status;
	pid_t pid;
	char c;

	ASSERT_EQ(0, pipe(pipefd));
	ASSERT_EQ(0, pnl_open(&nl));
	ASSERT_EQ(0, pnl_open(&other));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		close(pipefd[1]);
		fcntl(pipefd[0], F_SETFL, O_NONBLOCK);
		if (pnl_collect(&nl, 0, 0))
			_exit(2);
		pnl_close(&nl);
		/* Fork and exec until told to stop, however fast that is. */
		while (read(pipefd[0], &c, 1) < 0) {
			pid_t k = fork();

			if (k == 0) {
				execl("/bin/true", "true", (char *)NULL);
				_exit(3);
			}
			if (k < 0 || waitpid(k, &status, 0) != k)
				_exit(4);
		}
		_exit(0);
	}
	close(pipefd[0]);
	/* Let it get going, take the profile away under it, let it go on. */
	usleep(300000);
	pnl_close(&nl);
	usleep(300000);
	ASSERT_EQ(1, write(pipefd[1], "x", 1));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	ASSERT_EQ(0, pnl_dump(&other, count_held, &held));
	EXPECT_EQ(0, held);
	pnl_close(&other);
}

TEST(another_process_needs_tracer)
{
	struct held_profile *p = malloc(sizeof(*p));
	struct pnl nl;
	pid_t pid;
	int st;

	ASSERT_NE(NULL, p);
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		pause();
		_exit(0);
	}
	ASSERT_EQ(0, pnl_open(&nl));
	/* Root too: CAP_SYS_PTRACE is no tracer. */
	EXPECT_EQ(-EPERM, pnl_collect(&nl, pid, 0));
	EXPECT_NE(NULL, strstr(nl.extack, "ptrace tracer")) TH_LOG("%s",
								   nl.extack);
	/* A refused COLLECT made no profile either. */
	EXPECT_EQ(-ENOENT, held_read(&nl, p));
	kill(pid, SIGKILL);
	waitpid(pid, &st, 0);
	pnl_close(&nl);
	free(p);
}

/* Counters for the buffer session next to the held one. */
static uint16_t counts[8192];

TEST(next_to_a_buffer_session)
{
	struct held_profile *p = malloc(sizeof(*p));
	struct pnl_start req = {
		.buf = (uintptr_t)counts, .bufsiz = sizeof(counts),
		.offset = TEXT_OFFSET, .scale = 1,
	};
	struct pnl_status st;
	uint64_t held_in, apart;
	double gap, t;
	struct pnl nl;

	ASSERT_NE(NULL, p);
	ASSERT_EQ(0, pnl_open(&nl));
	gap = thread_cpu();
	ASSERT_EQ(0, pnl_start(&nl, &req)) TH_LOG("%s", nl.extack);
	ASSERT_EQ(0, pnl_collect(&nl, 0, 0)) TH_LOG("%s", nl.extack);
	gap = thread_cpu() - gap;
	user_spin(1.0);
	t = thread_cpu();
	ASSERT_EQ(0, pnl_stop(&nl, 0));
	ASSERT_EQ(0, pnl_stop_kind(&nl, 0, PROFIL_KIND_HELD));
	gap += thread_cpu() - t;
	ASSERT_EQ(0, pnl_get(&nl, 0, &st));
	ASSERT_EQ(0, held_read(&nl, p));
	ASSERT_EQ(1, p->nr_images);
	held_in = p->images[0].stats[PROFIL_STAT_IN_RANGE];
	/*
	 * Both sample every tick of the same clock, 1 s of CPU time at
	 * 100 Hz, each nearly all of its ticks counted.
	 */
	EXPECT_LE(90, periods(&p->images[0]));
	/*
	 * Apart: the periods of the CPU time between the two starts and
	 * between the two stops, each a request (more than a period on a
	 * debug kernel, or on a vCPU the host starved, whose stolen time
	 * the guest charges to the running thread), measured; one more at
	 * each of the four edges, as each session's first period has its
	 * own phase; and 2 % for where in a period each tick closes it.
	 * Periods, not ticks: a late tick makes the same MISSED periods in
	 * both.
	 */
	apart = 4 + (uint64_t)(gap * PROFIL_RATE_DEFAULT) +
		pnl_periods(&st) * 2 / 100;
	EXPECT_GE(apart, llabs((long long)periods(&p->images[0]) -
			       (long long)pnl_periods(&st)))
		TH_LOG("%.1f ms of CPU time in the requests", gap * 1e3);
	EXPECT_EQ(PROFIL_STOP_REQUEST, p->images[0].reason);
	/*
	 * Most user-mode ticks land in the spin. Kernel-mode ones, dropped,
	 * are the requests': a debug kernel's take 10 % of the ticks.
	 */
	EXPECT_LE(user_ticks(st.stats) * 8 / 10, st.stats[PROFIL_STAT_IN_RANGE])
		TH_LOG("%llu of %llu ticks dropped in the kernel",
		       (unsigned long long)st.stats[PROFIL_STAT_SYSTEM_DROPPED],
		       (unsigned long long)st.stats[PROFIL_STAT_TICKS]);
	EXPECT_LE(user_ticks(p->images[0].stats) * 8 / 10, held_in);
	pnl_close(&nl);
	free(p);
}

TEST(privileged_exec_not_followed)
{
	static const char copy[] = "/tmp/held_test_setuid";
	const struct held_image *top[2];
	struct held_profile *p = malloc(sizeof(*p));
	char line[32] = "";
	int pipefd[2], st;
	struct pnl nl;
	pid_t pid;

	ASSERT_NE(NULL, p);
	if (geteuid())
		SKIP(return, "needs root to make a setuid copy");
	ASSERT_EQ(0, copy_file("/proc/self/exe", copy));
	ASSERT_EQ(0, chmod(copy, 04755));
	ASSERT_EQ(0, pipe(pipefd));
	ASSERT_EQ(0, pnl_open(&nl));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		char *argv[] = { "held_test", NULL };
		char *envp[] = { "HELD_WORKER=euid", NULL };

		if (pnl_collect(&nl, 0, 0) || dup2(pipefd[1], 3) != 3 ||
		    setresuid(65534, 65534, 65534))
			_exit(2);
		execve(copy, argv, envp);
		_exit(3);
	}
	close(pipefd[1]);
	ASSERT_EQ(pid, waitpid(pid, &st, 0));
	EXPECT_LT(0, read(pipefd[0], line, sizeof(line) - 1));
	unlink(copy);
	if (atoi(line) != 0)
		SKIP(return, "/tmp is nosuid: the exec raised nothing");
	ASSERT_EQ(0, held_read(&nl, p));
	ASSERT_EQ(1, children_of(p, 0, top, 2));
	EXPECT_EQ(PROFIL_STOP_SECURE_EXEC, top[0]->reason);
	/* Nothing after it: the setuid image was not followed. */
	EXPECT_EQ(1, p->nr_images);
	pnl_close(&nl);
	free(p);
}

PROFIL_HARNESS_MAIN
