// SPDX-License-Identifier: GPL-2.0
/*
 * The machine-wide profile (PROFIL_CMD_COLLECT with PROFIL_ATTR_SCOPE,
 * Documentation/kmod/machine.rst): the tick samples every user process,
 * without a tracer and without a session of its own, into the
 * collector's profile.
 *
 * - without CAP_PERFMON: EPERM with text, for the COLLECT and for a STOP
 *   of the machine-wide kind;
 * - a process forked before the COLLECT, untraced, is in the profile
 *   with its samples, and has no session; the socket's close ends the
 *   profile, not it; no kernel thread has an image;
 * - processes forked and exec'd after it get an image at their first
 *   sample, linked to their parent's or their previous program's, and
 *   keep it after they exit;
 * - one at a time: EBUSY for a second, until the first socket's close;
 * - a live profile pins the module: rmmod is refused, and the module's
 *   count is back where it was once the socket is closed;
 * - a process's buffer, kernel-held and machine-wide profiles all count;
 * - the cgroup scope samples the cgroup's processes only, and images
 *   carry their cgroup's id;
 * - bad requests, each refused with its errno and text, leaving no
 *   profile behind; a rate above HZ among them;
 * - an exec that raises privileges is sampled, where a per-process
 *   kernel-held session stops.
 *
 * The test re-executes itself as the workload: MACHINE_WORKER in the
 * environment selects what it does (machine_worker()).
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "profil_harness.h"
#include "profil_nl.h"
#include "profil_util.h"
#include "profil_held.h"
#include "profil_machine.h"
#include "profil_security.h"

/* The extack texts of kmod/netlink_collect.c and kmod/netlink.c. */
#define NEEDS_PERFMON	"a machine-wide profile needs CAP_PERFMON"
#define BUSY		"another machine-wide profile is running"
#define OWN_SOCKET	"a machine profile needs its own socket"
#define TICK_ONLY	"a machine-wide profile rides the scheduler tick"

/*
 * COLLECT with @scope and @fd (NO_SCOPE, NO_FD: without the attribute)
 * and @pid (0: without), at @rate (0: the default); 0 or -errno, the
 * text in nl->extack.
 */
static int collect_scope_rate(struct pnl *nl, int scope, int fd, uint32_t pid,
			      uint32_t rate)
{
	struct collect_req q = {
		.scope = scope, .fd = fd, .pid = pid, .rate = rate,
	};

	return collect_req(nl, &q);
}

static int collect_scope(struct pnl *nl, int scope, int fd, uint32_t pid)
{
	return collect_scope_rate(nl, scope, fd, pid, 0);
}

static int collect_machine(struct pnl *nl)
{
	return collect_scope(nl, PROFIL_SCOPE_MACHINE, NO_FD, 0);
}

/*
 * Whether @img ran held_spin() for 0.5 s: 50 periods at 100 Hz,
 * sampled or missed, half of them for a loaded guest and a late first
 * one, and most of its samples in @exe.
 */
static bool spun(const struct held_profile *p, const struct held_image *img,
		 const struct held_object *exe)
{
	return held_spun(p, img, exe, 25, 5);
}

/* Run this executable as the workload @what; returns its pid. */
static pid_t spawn_self(const char *what)
{
	return held_spawn_self("MACHINE_WORKER", what);
}

/*
 * The workloads, run before the harness when MACHINE_WORKER is set:
 *   spin: 0.5 s of held_spin();
 *   euid: writes its effective uid to fd 3, then spins as "spin";
 *   spin_exec: 0.5 s of held_spin(), then execs this program as "spin".
 */
static void __attribute__((constructor)) machine_worker(void)
{
	const char *what = getenv("MACHINE_WORKER");
	char *argv[] = { "worker", NULL };
	char *envp[] = { "MACHINE_WORKER=spin", NULL };

	if (!what)
		return;
	if (!strcmp(what, "euid")) {
		dprintf(3, "%u\n", geteuid());
		close(3);
	}
	held_spin(0.5);
	if (!strcmp(what, "spin_exec")) {
		execve("/proc/self/exe", argv, envp);
		_exit(3);
	}
	_exit(0);
}

/* The last image of process @pid: that of its last program. */
static const struct held_image *last_image_of(const struct held_profile *p,
					      pid_t pid)
{
	const struct held_image *img = NULL;
	unsigned int i;

	for (i = 0; i < p->nr_images; i++)
		if (p->images[i].pid == (uint32_t)pid &&
		    (!img || p->images[i].id > img->id))
			img = &p->images[i];
	return img;
}

/*
 * Give this process an image: it is made at the first sample, and this
 * one mostly waits. 0.2 s of CPU time is 20 periods at 100 Hz.
 */
static void sampled_self(void)
{
	held_spin(0.2);
}

/* A process that spins until a byte or EOF on its pipe, or its parent dies. */
struct spinner {
	pid_t pid;
	int ctl;
};

static int spinner_start(struct spinner *sp)
{
	int fds[2];
	char c;

	sp->pid = -1;
	sp->ctl = -1;
	if (pipe(fds))
		return -1;
	sp->pid = fork();
	if (sp->pid == 0) {
		close(fds[1]);
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		fcntl(fds[0], F_SETFL, O_NONBLOCK);
		while (read(fds[0], &c, 1) < 0 && errno == EAGAIN)
			held_spin(0.01);
		_exit(0);
	}
	close(fds[0]);
	sp->ctl = fds[1];
	return sp->pid < 0 ? -1 : 0;
}

/* End a spinner; its wait status, or -1. */
static int spinner_stop(struct spinner *sp)
{
	int st = -1;

	if (sp->ctl >= 0) {
		if (write(sp->ctl, "x", 1) != 1)
			kill(sp->pid, SIGKILL);
		close(sp->ctl);
	}
	if (sp->pid > 0 && waitpid(sp->pid, &st, 0) != sp->pid)
		st = -1;
	sp->pid = -1;
	sp->ctl = -1;
	return st;
}

TEST(needs_perfmon)
{
	struct pnl nl;
	int fd;

	become_nobody(_metadata);
	ASSERT_EQ(0, pnl_open(&nl));
	EXPECT_EQ(-EPERM, collect_machine(&nl));
	EXPECT_NE(NULL, strstr(nl.extack, NEEDS_PERFMON));
	fd = open("/tmp", O_RDONLY | O_DIRECTORY);
	ASSERT_LE(0, fd);
	/* The capability before the descriptor: none is looked at. */
	EXPECT_EQ(-EPERM, collect_scope(&nl, PROFIL_SCOPE_CGROUP, fd, 0));
	EXPECT_NE(NULL, strstr(nl.extack, NEEDS_PERFMON));
	close(fd);
	/* Nor may a process leave the machine's profile. */
	EXPECT_EQ(-EPERM, pnl_stop_kind(&nl, 0, PROFIL_KIND_MACHINE));
	EXPECT_NE(NULL, strstr(nl.extack, NEEDS_PERFMON));
	/* Its own profile, though: a per-process COLLECT of itself. */
	EXPECT_EQ(0, pnl_collect(&nl, 0, 0)) TH_LOG("%s", nl.extack);
	EXPECT_EQ(0, pnl_stop_kind(&nl, 0, PROFIL_KIND_HELD));
	pnl_close(&nl);
}

TEST(start_and_stop)
{
	struct held_profile *p = malloc(sizeof(*p));
	const struct held_image *img, *self;
	const struct held_object *exe;
	struct spinner sp;
	struct pnl_status st;
	struct pnl nl, other;
	unsigned int i;
	int status;

	ASSERT_NE(NULL, p);
	/* Forked before the COLLECT, and traced by no one. */
	ASSERT_EQ(0, spinner_start(&sp));
	ASSERT_EQ(0, pnl_open(&nl));
	ASSERT_EQ(0, pnl_open(&other));
	ASSERT_EQ(0, collect_machine(&nl)) TH_LOG("%s", nl.extack);
	/* Sampled without a session of its own. */
	EXPECT_EQ(-ENOENT,
		  pnl_get_kind(&other, sp.pid, PROFIL_KIND_MACHINE, &st));
	ASSERT_TRUE(wait_cpu(sp.pid, 1.0));
	ASSERT_EQ(0, held_read(&nl, p)) TH_LOG("%s", nl.extack);
	ASSERT_EQ(0, p->lost);
	exe = object_at(p, "/proc/self/exe");
	ASSERT_NE(NULL, exe);
	img = image_of(p, sp.pid, ANY_PARENT);
	ASSERT_NE(NULL, img) TH_LOG("pid %d not among %u images", sp.pid,
				    p->nr_images);
	/* Its parent's image, if this process was sampled first. */
	self = image_of(p, getpid(), ANY_PARENT);
	EXPECT_TRUE(!img->parent || (self && img->parent == self->id))
		TH_LOG("parent %u", img->parent);
	EXPECT_EQ(PROFIL_STOP_NONE, img->reason);
	EXPECT_EQ(exe->id, img->exe);
	/* 1 s of CPU time: 100 periods at 100 Hz, half of them at least. */
	EXPECT_LE(50, periods(img));
	EXPECT_LT(0, img->stats[PROFIL_STAT_IN_RANGE]);
	/* Samples come after images in the dump: more of them, if any. */
	EXPECT_LE(img->stats[PROFIL_STAT_IN_RANGE] / 2,
		  samples_in(p, img->id, exe->id));
	/* No kernel thread; only sampled processes, each with samples. */
	EXPECT_EQ(NULL, image_of(p, 2, ANY_PARENT)) TH_LOG("kthreadd");
	for (i = 0; i < p->nr_images; i++)
		EXPECT_LT(0, p->images[i].stats[PROFIL_STAT_TICKS])
			TH_LOG("image %u of %u", p->images[i].id,
			       p->images[i].pid);
	EXPECT_LE(p->nr_images, p->stats[PROFIL_PROFILE_IMAGES]);
	EXPECT_EQ(0, p->stats[PROFIL_PROFILE_IMAGES_LOST]);

	/* The close ends the profile; the processes run on. */
	pnl_close(&nl);
	EXPECT_TRUE(wait_cpu(sp.pid, 0.1));
	EXPECT_NE('Z', proc_state(sp.pid));
	status = spinner_stop(&sp);
	EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	pnl_close(&other);
	free(p);
}

TEST(new_processes_followed)
{
	struct held_profile *p = malloc(sizeof(*p));
	const struct held_image *self, *forked, *pre, *post, *up;
	const struct held_object *exe;
	pid_t a, b;
	struct pnl nl;
	int st;

	ASSERT_NE(NULL, p);
	ASSERT_EQ(0, pnl_open(&nl));
	ASSERT_EQ(0, collect_machine(&nl)) TH_LOG("%s", nl.extack);
	sampled_self();
	/*
	 * A fork that spins, and a posix_spawn() (vfork, exec) of a program
	 * that spins, then execs one that spins.
	 */
	a = fork();
	ASSERT_LE(0, a);
	if (a == 0) {
		held_spin(0.5);
		_exit(0);
	}
	b = spawn_self("spin_exec");
	ASSERT_LT(0, b);
	ASSERT_EQ(a, waitpid(a, &st, 0));
	EXPECT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	ASSERT_EQ(b, waitpid(b, &st, 0));
	EXPECT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	/* Both exited before the read: the kernel kept their images. */
	ASSERT_EQ(0, held_read(&nl, p)) TH_LOG("%s", nl.extack);
	ASSERT_EQ(0, p->lost);
	exe = object_at(p, "/proc/self/exe");
	ASSERT_NE(NULL, exe);
	self = image_of(p, getpid(), ANY_PARENT);
	ASSERT_NE(NULL, self) TH_LOG("0.2 s of CPU time and no sample");
	EXPECT_EQ(PROFIL_STOP_NONE, self->reason);

	forked = image_of(p, a, ANY_PARENT);
	ASSERT_NE(NULL, forked) TH_LOG("no image of the fork %d", a);
	EXPECT_EQ(self->id, forked->parent);
	EXPECT_EQ(PROFIL_STOP_EXIT, forked->reason);
	EXPECT_TRUE(spun(p, forked, exe));
	EXPECT_TRUE(image_adds_up(p, forked));

	post = last_image_of(p, b);
	ASSERT_NE(NULL, post) TH_LOG("no image of the spawn %d", b);
	EXPECT_EQ(PROFIL_STOP_EXIT, post->reason);
	EXPECT_EQ(exe->id, post->exe);
	EXPECT_TRUE(spun(p, post, exe));
	EXPECT_TRUE(image_adds_up(p, post));
	/* The program before the last exec spun too: the image it came from. */
	ASSERT_LT(0, post->parent);
	ASSERT_GE(p->nr_images, post->parent);
	pre = &p->images[post->parent - 1];
	ASSERT_EQ(post->parent, pre->id);
	EXPECT_EQ((uint32_t)b, pre->pid);
	EXPECT_EQ(PROFIL_STOP_EXEC, pre->reason);
	EXPECT_TRUE(spun(p, pre, exe));
	EXPECT_TRUE(image_adds_up(p, pre));
	/*
	 * And that one came from this process's, unless the spawn was
	 * sampled between its vfork and its first exec.
	 */
	ASSERT_LT(0, pre->parent);
	up = &p->images[pre->parent - 1];
	EXPECT_TRUE(up == self ||
		    (up->pid == (uint32_t)b && up->reason == PROFIL_STOP_EXEC))
		TH_LOG("parent %u of pid %u", up->id, up->pid);
	pnl_close(&nl);
	free(p);
}

TEST(one_at_a_time)
{
	struct held_profile *p = malloc(sizeof(*p));
	struct pnl first, second;

	ASSERT_NE(NULL, p);
	ASSERT_EQ(0, pnl_open(&first));
	ASSERT_EQ(0, pnl_open(&second));
	ASSERT_EQ(0, collect_machine(&first)) TH_LOG("%s", first.extack);
	EXPECT_EQ(-EBUSY, collect_machine(&second));
	EXPECT_NE(NULL, strstr(second.extack, BUSY));
	/* A refused COLLECT made no profile. */
	EXPECT_EQ(-ENOENT, held_read(&second, p));
	/* The first one's close lets the next one in, on the same socket. */
	pnl_close(&first);
	EXPECT_EQ(0, collect_machine(&second)) TH_LOG("%s", second.extack);
	sampled_self();
	ASSERT_EQ(0, held_read(&second, p));
	EXPECT_NE(NULL, image_of(p, getpid(), ANY_PARENT));
	pnl_close(&second);
	/* And on a new one. */
	ASSERT_EQ(0, pnl_open(&first));
	EXPECT_EQ(0, collect_machine(&first)) TH_LOG("%s", first.extack);
	pnl_close(&first);
	free(p);
}

#define MODULE_REFCNT "/sys/module/profil/refcnt"

/*
 * Its samples run the module's text as task_work: the profile holds the
 * module from its claim until after the last of them, so that no sample
 * needs a reference of its own.
 */
TEST(pins_the_module)
{
	long before, during, after = -1;
	struct stat sb;
	struct pnl nl;
	int i;

	if (system("command -v rmmod >/dev/null 2>&1"))
		SKIP(return, "no rmmod");
	before = read_long(MODULE_REFCNT);
	ASSERT_LE(0, before);
	ASSERT_EQ(0, pnl_open(&nl));
	ASSERT_EQ(0, collect_machine(&nl)) TH_LOG("%s", nl.extack);
	sampled_self();
	during = read_long(MODULE_REFCNT);
	EXPECT_LT(before, during);
	EXPECT_NE(0, system("rmmod profil 2>/dev/null"));
	ASSERT_EQ(0, stat("/sys/module/profil", &sb))
		TH_LOG("rmmod went through with a machine-wide profile live");
	pnl_close(&nl);
	/* Other tasks' queued samples are attributed on their way back. */
	for (i = 0; i < 200; i++) {
		after = read_long(MODULE_REFCNT);
		if (after == before)
			break;
		usleep(10000);
	}
	EXPECT_EQ(before, after);
	TH_LOG("module references: %ld, %ld with the profile, %ld after",
	       before, during, after);
}

/* Counters for the process's own buffer session. */
static uint16_t counts[8192];

TEST(three_sessions)
{
	struct held_profile *p = malloc(sizeof(*p));
	const struct held_image *img;
	struct pnl held, machine;
	int ready[2], go[2], st;
	uint64_t sum = 0;
	pid_t pid;
	char c;

	ASSERT_NE(NULL, p);
	ASSERT_EQ(0, pipe(ready));
	ASSERT_EQ(0, pipe(go));
	ASSERT_EQ(0, pnl_open(&held));
	ASSERT_EQ(0, pnl_open(&machine));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		struct pnl_start req = {
			.buf = (uintptr_t)counts, .bufsiz = sizeof(counts),
			.offset = TEXT_OFFSET, .scale = 1,
		};
		struct pnl own;
		unsigned int i;

		close(ready[0]);
		close(go[1]);
		/* Its profil() session, and a profil-ctl run of it. */
		if (pnl_open(&own) || pnl_start(&own, &req) ||
		    pnl_collect(&held, 0, 0))
			_exit(2);
		if (write(ready[1], "r", 1) != 1 || read(go[0], &c, 1) != 1)
			_exit(3);
		user_spin(1.0);
		if (pnl_stop(&own, 0))
			_exit(4);
		for (i = 0; i < sizeof(counts) / sizeof(counts[0]); i++)
			sum += counts[i];
		if (write(ready[1], &sum, sizeof(sum)) != sizeof(sum))
			_exit(5);
		_exit(0);
	}
	close(ready[1]);
	close(go[0]);
	ASSERT_EQ(1, read(ready[0], &c, 1));
	ASSERT_EQ(0, collect_machine(&machine)) TH_LOG("%s", machine.extack);
	ASSERT_EQ(1, write(go[1], "g", 1));
	ASSERT_EQ(sizeof(sum), read(ready[0], &sum, sizeof(sum)));
	ASSERT_EQ(pid, waitpid(pid, &st, 0));
	ASSERT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	/* 1 s of CPU time in its text, each session counting its ticks. */
	EXPECT_LT(0, sum);

	ASSERT_EQ(0, held_read(&held, p));
	img = image_of(p, pid, ANY_PARENT);
	ASSERT_NE(NULL, img);
	EXPECT_LE(50, periods(img));
	EXPECT_LT(0, img->stats[PROFIL_STAT_IN_RANGE]);
	EXPECT_LT(0, samples_in(p, img->id, 0));

	ASSERT_EQ(0, held_read(&machine, p));
	ASSERT_EQ(0, p->lost);
	img = image_of(p, pid, ANY_PARENT);
	ASSERT_NE(NULL, img);
	EXPECT_EQ(PROFIL_STOP_EXIT, img->reason);
	EXPECT_LE(50, periods(img));
	EXPECT_LT(0, img->stats[PROFIL_STAT_IN_RANGE]);
	EXPECT_LT(0, samples_in(p, img->id, 0));
	EXPECT_TRUE(image_adds_up(p, img));
	pnl_close(&held);
	pnl_close(&machine);
	free(p);
}

/* Two cgroups, a spinner in each. */
FIXTURE(cg) {
	char a[64], b[64];
	struct spinner sa, sb;
};

/* What the test made, for the teardown: 6.1's harness cannot skip here. */
FIXTURE_SETUP(cg)
{
	self->sa.pid = self->sb.pid = -1;
	self->sa.ctl = self->sb.ctl = -1;
}

FIXTURE_TEARDOWN(cg)
{
	spinner_stop(&self->sa);
	spinner_stop(&self->sb);
	if (self->a[0])
		rmdir(self->a);
	if (self->b[0])
		rmdir(self->b);
}

TEST_F(cg, samples_the_cgroup_only)
{
	struct held_profile *p = malloc(sizeof(*p));
	const struct held_image *ia, *ib;
	struct stat sta, stb;
	struct pnl nl;
	int fd, st;
	pid_t a, b;

	ASSERT_NE(NULL, p);
	if (geteuid())
		SKIP(return, "creating a cgroup needs root");
	if (!cgroup2_mounted())
		SKIP(return, "no cgroup v2 at " CGROOT ", nor a mount of it");
	snprintf(self->a, sizeof(self->a), CGROOT "/profil_machine_a.%d",
		 getpid());
	ASSERT_EQ(0, mkdir(self->a, 0755));
	snprintf(self->b, sizeof(self->b), CGROOT "/profil_machine_b.%d",
		 getpid());
	ASSERT_EQ(0, mkdir(self->b, 0755));
	/* A spinner in each, before the COLLECT: their images' cgroups. */
	ASSERT_EQ(0, spinner_start(&self->sa));
	ASSERT_EQ(0, spinner_start(&self->sb));
	ASSERT_EQ(0, cgroup_move(self->a, self->sa.pid));
	ASSERT_EQ(0, cgroup_move(self->b, self->sb.pid));
	ASSERT_EQ(0, stat(self->a, &sta));
	ASSERT_EQ(0, stat(self->b, &stb));
	fd = open(self->a, O_RDONLY | O_DIRECTORY);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, pnl_open(&nl));
	ASSERT_EQ(0, collect_scope(&nl, PROFIL_SCOPE_CGROUP, fd, 0))
		TH_LOG("%s", nl.extack);
	/* The profile holds the cgroup, not the descriptor. */
	close(fd);
	ASSERT_TRUE(wait_cpu(self->sa.pid, 1.0));
	ASSERT_TRUE(wait_cpu(self->sb.pid, 1.0));
	/* Ended before the read: their images' accounting is final. */
	a = self->sa.pid;
	b = self->sb.pid;
	st = spinner_stop(&self->sa);
	EXPECT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	st = spinner_stop(&self->sb);
	EXPECT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	ASSERT_EQ(0, held_read(&nl, p)) TH_LOG("%s", nl.extack);
	ASSERT_EQ(0, p->lost);
	ia = image_of(p, a, ANY_PARENT);
	ib = image_of(p, b, ANY_PARENT);
	ASSERT_NE(NULL, ia);
	/* B's ticks, as many, are not samples: it has no image. */
	EXPECT_EQ(NULL, ib) TH_LOG("B, outside the cgroup, was sampled");
	EXPECT_EQ(sta.st_ino, ia->cgroup);
	EXPECT_NE(stb.st_ino, ia->cgroup);
	EXPECT_EQ(PROFIL_STOP_EXIT, ia->reason);
	/* A's spinner counts; its PCs are all in mappings. */
	EXPECT_LE(50, periods(ia));
	EXPECT_LT(0, ia->stats[PROFIL_STAT_IN_RANGE]);
	EXPECT_LT(0, samples_in(p, ia->id, 0));
	EXPECT_GT(ia->stats[PROFIL_STAT_IN_RANGE],
		  ia->stats[PROFIL_STAT_OUT_OF_RANGE]);
	EXPECT_TRUE(image_adds_up(p, ia));
	pnl_close(&nl);
	free(p);
}

/* A COLLECT refused: its errno and text, and no profile made. */
static void refused(struct __test_metadata *_metadata, int scope, int fd,
		    uint32_t pid, int err, const char *text)
{
	struct held_profile *p = malloc(sizeof(*p));
	struct pnl nl;

	ASSERT_NE(NULL, p);
	ASSERT_EQ(0, pnl_open(&nl));
	EXPECT_EQ(err, collect_scope(&nl, scope, fd, pid))
		TH_LOG("scope %d, fd %d, pid %u", scope, fd, pid);
	EXPECT_NE(NULL, strstr(nl.extack, text)) TH_LOG("%s", nl.extack);
	EXPECT_EQ(-ENOENT, held_read(&nl, p)) TH_LOG("a profile was made");
	pnl_close(&nl);
	free(p);
}

TEST(bad_requests)
{
	int cg = -1, file, dir;
	struct pnl nl, held;

	if (geteuid())
		SKIP(return, "the capability's check comes first");
	if (cgroup2_mounted())
		cg = open(CGROOT, O_RDONLY | O_DIRECTORY);
	file = open("/proc/self/exe", O_RDONLY);
	dir = open("/proc", O_RDONLY | O_DIRECTORY);
	ASSERT_LE(0, file);
	ASSERT_LE(0, dir);
	refused(_metadata, PROFIL_SCOPE_MACHINE, NO_FD, getpid(), -EINVAL,
		"a machine-wide profile names no process");
	refused(_metadata, PROFIL_SCOPE_CGROUP, cg >= 0 ? cg : file, getpid(),
		-EINVAL, "a machine-wide profile names no process");
	refused(_metadata, PROFIL_SCOPE_CGROUP, NO_FD, 0, -EINVAL,
		"the cgroup scope needs a cgroup fd");
	refused(_metadata, PROFIL_SCOPE_MACHINE, cg >= 0 ? cg : file, 0,
		-EINVAL, "a cgroup fd goes with the cgroup scope");
	refused(_metadata, NO_SCOPE, cg >= 0 ? cg : file, 0, -EINVAL,
		"a cgroup fd goes with the cgroup scope");
	refused(_metadata, PROFIL_SCOPE_PROCESS, cg >= 0 ? cg : file, 0,
		-EINVAL, "a cgroup fd goes with the cgroup scope");
	refused(_metadata, PROFIL_SCOPE_CGROUP, file, 0, -EBADF,
		"not a cgroup v2 directory");
	refused(_metadata, PROFIL_SCOPE_CGROUP, dir, 0, -EBADF,
		"not a cgroup v2 directory");
	refused(_metadata, PROFIL_SCOPE_CGROUP, 1000, 0, -EBADF,
		"not a cgroup v2 directory");
	/* No timer per CPU: the tick's rates only. */
	ASSERT_EQ(0, pnl_open(&nl));
	EXPECT_EQ(-EINVAL, collect_scope_rate(&nl, PROFIL_SCOPE_MACHINE, NO_FD,
					      0, PROFIL_RATE_MAX));
	EXPECT_NE(NULL, strstr(nl.extack, TICK_ONLY)) TH_LOG("%s", nl.extack);
	pnl_close(&nl);
	/* The policy's NLA_POLICY_MAX, as for every bounded attribute. */
	refused(_metadata, PROFIL_SCOPE_MAX + 1, NO_FD, 0, -ERANGE,
		"integer out of range");
	close(file);
	close(dir);
	if (cg >= 0)
		close(cg);

	/* A socket with a per-process profile takes no machine-wide one. */
	ASSERT_EQ(0, pnl_open(&held));
	ASSERT_EQ(0, pnl_collect(&held, 0, 0)) TH_LOG("%s", held.extack);
	EXPECT_EQ(-EEXIST, collect_machine(&held));
	EXPECT_NE(NULL, strstr(held.extack, OWN_SOCKET));
	/* Nor the other way round; and none of the above claimed it. */
	ASSERT_EQ(0, pnl_open(&nl));
	ASSERT_EQ(0, collect_machine(&nl)) TH_LOG("%s", nl.extack);
	EXPECT_EQ(-EEXIST, pnl_collect(&nl, 0, 0));
	EXPECT_NE(NULL, strstr(nl.extack, OWN_SOCKET));
	EXPECT_EQ(-EEXIST, collect_machine(&nl));
	EXPECT_NE(NULL, strstr(nl.extack, OWN_SOCKET));
	pnl_close(&nl);
	pnl_close(&held);
}

TEST(privileged_exec_sampled)
{
	static const char copy[] = "/tmp/machine_test_setuid";
	const struct held_image *post, *top[2];
	struct held_profile *p = malloc(sizeof(*p));
	char line[32] = "";
	int pipefd[2], st;
	struct pnl nl, held;
	pid_t pid;

	ASSERT_NE(NULL, p);
	if (geteuid())
		SKIP(return, "needs root to make a setuid copy");
	ASSERT_EQ(0, copy_file("/proc/self/exe", copy));
	ASSERT_EQ(0, chmod(copy, 04755));
	ASSERT_EQ(0, pipe(pipefd));
	ASSERT_EQ(0, pnl_open(&nl));
	ASSERT_EQ(0, pnl_open(&held));
	ASSERT_EQ(0, collect_machine(&nl)) TH_LOG("%s", nl.extack);
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		char *argv[] = { "machine_test", NULL };
		char *envp[] = { "MACHINE_WORKER=euid", NULL };

		/* A profil-ctl run of it too, which stops at the exec. */
		if (pnl_collect(&held, 0, 0) || dup2(pipefd[1], 3) != 3 ||
		    setresuid(65534, 65534, 65534))
			_exit(2);
		execve(copy, argv, envp);
		_exit(3);
	}
	close(pipefd[1]);
	ASSERT_EQ(pid, waitpid(pid, &st, 0));
	EXPECT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	EXPECT_LT(0, read(pipefd[0], line, sizeof(line) - 1));
	close(pipefd[0]);
	unlink(copy);
	if (atoi(line) != 0)
		SKIP(return, "/tmp is nosuid: the exec raised nothing");
	ASSERT_EQ(0, held_read(&held, p));
	ASSERT_EQ(1, children_of(p, 0, top, 2));
	EXPECT_EQ(PROFIL_STOP_SECURE_EXEC, top[0]->reason);
	EXPECT_EQ(1, p->nr_images);

	ASSERT_EQ(0, held_read(&nl, p));
	ASSERT_EQ(0, p->lost);
	post = last_image_of(p, pid);
	ASSERT_NE(NULL, post) TH_LOG("the setuid image was not sampled");
	EXPECT_NE(0, post->exe);
	EXPECT_EQ(PROFIL_STOP_EXIT, post->reason);
	EXPECT_LE(25, periods(post));
	EXPECT_LT(0, post->stats[PROFIL_STAT_IN_RANGE]);
	EXPECT_LT(0, samples_in(p, post->id, post->exe));
	EXPECT_TRUE(image_adds_up(p, post));
	pnl_close(&held);
	pnl_close(&nl);
	free(p);
}

PROFIL_HARNESS_MAIN
