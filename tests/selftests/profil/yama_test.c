// SPDX-License-Identifier: GPL-2.0
/*
 * Another process is reachable exactly as far as ptrace reaches it under
 * the LSMs in force, here Yama's ptrace_scope, from 0 to 3. At each scope,
 * as root and as nobody, on a process of nobody's that is no descendant
 * of the caller: profil-ctl attach and start work exactly where gdb -p
 * attaches, and otherwise say why. At scope 3, where nobody may trace, not
 * even root: START and ADD_REGIONS on the process fail with EPERM and
 * extack text, and its counters stay zero, though root has
 * CAP_SYS_PTRACE over it.
 *
 * Scope 3 cannot be lowered until reboot: this runs as the last program
 * of a boot (yama_test.sh, the last of TEST_PROGS), and the scopes only
 * go up.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/wait.h>

#include "profil_harness.h"
#include "profil_nl.h"
#include "profil_util.h"
#include "profil_proc.h"

#define NOBODY		65534
#define SCOPE_FILE	"/proc/sys/kernel/yama/ptrace_scope"
#define STAGE_DIR	"/tmp/profil_yama.XXXXXX"
#define ERR_MAX		4096

/* The target's counters, shared with the test, which reads them. */
static uint16_t *counts;

static int set_scope(int scope)
{
	FILE *f = fopen(SCOPE_FILE, "w");
	int ok;

	if (!f)
		return -1;
	ok = fprintf(f, "%d\n", scope) > 0;
	return fclose(f) || !ok ? -1 : 0;
}

/* A process of nobody's, dumpable, spinning in user mode until killed. */
static pid_t nobody_spinner(void)
{
	pid_t pid = fork();

	if (!pid) {
		if (become(NOBODY) || prctl(PR_SET_DUMPABLE, 1))
			_exit(1);
		for (;;)
			user_spin(1.0);
	}
	return pid;
}

/*
 * Run @argv as @uid (-1: root), no descendant of the target; its stderr
 * into @err. Return: its exit code, or -1.
 */
static int run_as(uid_t uid, const char *const *argv, char *err)
{
	char efile[] = "/tmp/profil_yama_err.XXXXXX";
	int efd = mkstemp(efile), st;
	ssize_t n;
	pid_t pid;

	if (efd < 0)
		return -1;
	unlink(efile);
	fflush(NULL);
	pid = fork();
	if (!pid) {
		int null = open("/dev/null", O_RDWR);

		dup2(null, 0);
		dup2(null, 1);
		dup2(efd, 2);
		if (become(uid))
			_exit(99);
		execv(argv[0], (char **)argv);
		_exit(98);
	}
	if (pid < 0 || waitpid(pid, &st, 0) != pid)
		return -1;
	n = pread(efd, err, ERR_MAX - 1, 0);
	err[n > 0 ? n : 0] = '\0';
	close(efd);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* Whether ptrace reaches the target: gdb -p attaches and detaches. */
static bool gdb_attaches(uid_t uid, pid_t pid, char *err)
{
	char pidstr[16];
	const char *argv[] = { "/usr/bin/gdb", "-nx", "-batch", "-p", pidstr,
			       "-ex", "detach", NULL };

	snprintf(pidstr, sizeof(pidstr), "%d", (int)pid);
	return run_as(uid, argv, err) == 0;
}

struct reach {
	bool gdb, attach, start;
	char attach_err[ERR_MAX], start_err[ERR_MAX];
};

/* gdb, profil-ctl attach and start (then stop) on @pid as @uid. */
static void try_reach(const char *ctl, uid_t uid, pid_t pid, struct reach *r)
{
	char pidstr[16], err[ERR_MAX];
	const char *attach[] = { ctl, "attach", "-p", pidstr, "-d", "0.2",
				 NULL };
	const char *start[] = { ctl, "start", pidstr, NULL };
	const char *stop[] = { ctl, "stop", pidstr, NULL };

	snprintf(pidstr, sizeof(pidstr), "%d", (int)pid);
	r->gdb = gdb_attaches(uid, pid, err);
	r->attach = run_as(uid, attach, r->attach_err) == 0;
	r->start = run_as(uid, start, r->start_err) == 0;
	if (r->start && run_as(uid, stop, err))
		printf("# stop after start: %s", err);
}

FIXTURE(yama) {
	char dir[sizeof(STAGE_DIR)];
	char ctl[sizeof(STAGE_DIR "/profil-ctl")];
	pid_t target;
};

FIXTURE_SETUP(yama)
{
	int ret;

	if (geteuid())
		SKIP(return, "needs root to set ptrace_scope");
	if (access(SCOPE_FILE, W_OK))
		SKIP(return, "no Yama: %s", strerror(errno));
	if (access("/usr/bin/gdb", X_OK))
		SKIP(return, "no gdb");
	strcpy(self->dir, STAGE_DIR);
	ASSERT_NE(NULL, mkdtemp(self->dir));
	ASSERT_EQ(0, chmod(self->dir, 0755));
	snprintf(self->ctl, sizeof(self->ctl), "%s/profil-ctl", self->dir);
	ret = copy_exe(PROFIL_CTL, self->ctl);
	ASSERT_EQ(0, ret) TH_LOG("%s: %s", PROFIL_CTL, strerror(-ret));
	counts = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
		      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, counts);
	self->target = nobody_spinner();
	ASSERT_LT(0, self->target);
}

FIXTURE_TEARDOWN(yama)
{
	if (self->target > 0) {
		kill(self->target, SIGKILL);
		waitpid(self->target, NULL, 0);
	}
	if (self->ctl[0])
		unlink(self->ctl);
	if (self->dir[0])
		rmdir(self->dir);
}

/*
 * Scopes 0 to 3 in turn (yama.rst): 0, any same-user process; 1, only a
 * descendant, or with CAP_SYS_PTRACE; 2, only with CAP_SYS_PTRACE; 3,
 * none. Root has CAP_SYS_PTRACE; the target is nobody's and no
 * descendant of either caller.
 */
TEST_F_TIMEOUT(yama, reach_follows_ptrace_scope, 300)
{
	static const uid_t who[] = { (uid_t)-1, NOBODY };
	static struct reach r;
	int scope, i;

	if (ptrace_scope() > 0)
		SKIP(return, "ptrace_scope is %d already: a boot of its own",
		     ptrace_scope());
	for (scope = 0; scope <= 3; scope++) {
		ASSERT_EQ(0, set_scope(scope));
		for (i = 0; i < 2; i++) {
			bool root = who[i] == (uid_t)-1;
			bool expect = root ? scope < 3 : scope == 0;
			char why[64];

			try_reach(self->ctl, who[i], self->target, &r);
			printf("# scope %d, %s: gdb -p %s, attach %s, start %s\n",
			       scope, root ? "root" : "nobody",
			       r.gdb ? "attaches" : "refused",
			       r.attach ? "works" : "refused",
			       r.start ? "works" : "refused");
			EXPECT_EQ(expect, r.gdb);
			EXPECT_EQ(r.gdb, r.attach) TH_LOG("%s", r.attach_err);
			EXPECT_EQ(r.gdb, r.start) TH_LOG("%s", r.start_err);
			if (r.attach || r.start || !scope)
				continue;
			/* The refusal names the scope. */
			snprintf(why, sizeof(why), "ptrace_scope is %d", scope);
			EXPECT_NE(NULL, strstr(r.attach_err, why))
				TH_LOG("%s", r.attach_err);
			EXPECT_NE(NULL, strstr(r.start_err, why))
				TH_LOG("%s", r.start_err);
		}
	}
}

/*
 * At scope 3 root's CAP_SYS_PTRACE reaches nothing: ptrace refuses it,
 * and so does profil.ko, with EPERM and extack text for START and
 * ADD_REGIONS, and the target's counters stay zero. A process still
 * profiles itself.
 */
TEST_F(yama, scope_3_root_reaches_nothing)
{
	const struct pnl_region reg = {
		.buf = (uintptr_t)counts, .size = 4096, .offset = TEXT_OFFSET,
		.scale = 1,
	};
	struct pnl_start req = {
		.buf = (uintptr_t)counts, .bufsiz = 4096,
		.offset = TEXT_OFFSET, .scale = 1, .rate = 100,
		.pid = self->target,
	};
	struct pnl_status st;
	double start, end;
	struct pnl nl;
	long sum = 0;
	int i;

	if (ptrace_scope() < 3)
		ASSERT_EQ(0, set_scope(3));
	ASSERT_EQ(3, ptrace_scope());
	ASSERT_EQ(0, pnl_open(&nl));
	EXPECT_NE(0, ptrace(PTRACE_SEIZE, self->target, 0, 0));
	EXPECT_EQ(EPERM, errno);
	EXPECT_EQ(-EPERM, pnl_start(&nl, &req));
	EXPECT_STREQ("must be the process or its ptrace tracer", nl.extack);
	EXPECT_EQ(-EPERM, pnl_add_regions(&nl, self->target, &reg, 1));
	EXPECT_STREQ("must be the process or its ptrace tracer", nl.extack);
	EXPECT_EQ(-ENOENT, pnl_get(&nl, self->target, &st));
	start = pid_cpu(self->target);
	for (end = now() + 60; pid_cpu(self->target) < start + 0.2 &&
	     now() < end;)
		usleep(10000);
	for (i = 0; i < 2048; i++)
		sum += counts[i];
	EXPECT_EQ(0, sum);

	/* Its own process, as profil(2) always was. */
	req.pid = 0;
	ASSERT_EQ(0, pnl_start(&nl, &req)) TH_LOG("%s", nl.extack);
	user_spin(0.2);
	ASSERT_EQ(0, pnl_stop(&nl, 0));
	for (i = 0, sum = 0; i < 2048; i++)
		sum += counts[i];
	EXPECT_LT(0, sum);
	pnl_close(&nl);
}

PROFIL_HARNESS_MAIN
