// SPDX-License-Identifier: GPL-2.0
/*
 * profil-ctl start, show and stop on the kernel-held kind: start follows
 * a process as attach does and leaves a collector behind, which holds
 * the profile's netlink socket and answers show and stop on its socket
 * (@profil-ctl/PID) to its own user and root. Nothing is mapped in the
 * process: it has no buffer session, no tracer, and after stop no
 * session of either kind, and runs on. show and stop of a process with
 * neither a collector nor a session of its own say so.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <sys/wait.h>

#include "profil_harness.h"
#include "profil_nl.h"
#include "profil_util.h"
#include "profil_proc.h"

#include "profil_ctl_lib.h"

FIXTURE(cstart) {
	char *out;
	char *err;
	struct pnl nl;
	struct stage stage;
	pid_t work;
	pid_t collector;
	char pidstr[16];
};

FIXTURE_SETUP(cstart)
{
	struct stat sb;
	int err;

	self->out = malloc(OUT_MAX);
	self->err = malloc(OUT_MAX);
	ASSERT_NE(NULL, self->out);
	ASSERT_NE(NULL, self->err);
	if (stat(PROFIL_CTL, &sb) || stat(work_path(), &sb))
		SKIP(return, "%.200s or %.200s is missing", PROFIL_CTL,
		     work_path());
	err = pnl_open(&self->nl);
	if (err == -ENOENT)
		SKIP(return, "profil.ko is not loaded");
	ASSERT_EQ(0, err);
}

/* Whether @pid is gone: no such process, or a zombie; 5 s at most. */
static bool gone(pid_t pid)
{
	char path[64], state = 0;
	int i;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	for (i = 0; i < 500; i++) {
		f = fopen(path, "r");
		if (!f)
			return true;
		if (fscanf(f, "%*d %*s %c", &state) != 1)
			state = 0;
		fclose(f);
		if (state == 'Z')
			return true;
		usleep(10000);
	}
	return false;
}

FIXTURE_TEARDOWN(cstart)
{
	/* A test that failed half-way leaves nothing running. */
	if (self->collector > 0 && !gone(self->collector)) {
		kill(self->collector, SIGTERM);
		gone(self->collector);
	}
	if (self->work > 0)
		end_work(self->work);
	unstage(&self->stage);
	pnl_close(&self->nl);
	free(self->out);
	free(self->err);
}

/* The workload, as user @uid (-1: unchanged), running for a while. */
static pid_t start_work(FIXTURE_DATA(cstart) *self, uid_t uid,
			const char *prog)
{
	self->work = spawn_work_as(uid, prog, "serve");
	snprintf(self->pidstr, sizeof(self->pidstr), "%d", (int)self->work);
	if (self->work > 0 && !burn(self->work, 0.1))
		return -1;
	return self->work;
}

/* The collector's pid from start's output, or -1. */
static pid_t collector_of(const char *out)
{
	const char *p = strstr(out, " by collector ");
	int pid;

	return p && sscanf(p, " by collector %d", &pid) == 1 ? pid : -1;
}

/*
 * start -F 0500 (perf's -F, a leading 0 that is not octal), show twice
 * (the counts grow), status, stop -o FILE --format=csv: the final
 * profile in the file; then nothing is left in the process, which runs
 * on, and the collector has exited.
 */
TEST_F(cstart, start_show_twice_stop)
{
	char dir[] = "/tmp/profil_ctl_stop.XXXXXX", csv[sizeof(dir) + 16];
	const char *start[] = { "start", "-p", self->pidstr, "-F", "0500",
				NULL };
	const char *show[] = { "show", "-p", self->pidstr, "--format=csv",
			       NULL };
	const char *status[] = { "status", NULL };
	const char *stop[] = { "stop", self->pidstr, "-o", csv,
			       "--format=csv", NULL };
	struct pnl_status st;
	double first, second;
	char want[64];

	ASSERT_LT(0, start_work(self, (uid_t)-1, work_path()));
	ASSERT_NE(NULL, mkdtemp(dir));
	snprintf(csv, sizeof(csv), "%s/final.csv", dir);
	ASSERT_EQ(0, exit_code(ctl(start, self->out, self->err)));
	self->collector = collector_of(self->out);
	ASSERT_LT(0, self->collector) TH_LOG("%s", self->out);
	EXPECT_NE(NULL, strstr(self->out, "followed at 500 Hz"));
	/* The kernel's session, no buffer of profil-ctl's, no tracer. */
	ASSERT_EQ(0, pnl_get_kind(&self->nl, self->work, PROFIL_KIND_HELD,
				  &st));
	EXPECT_EQ(PROFIL_STATE_ACTIVE, st.state);
	EXPECT_EQ(500, st.rate);
	EXPECT_EQ(-ENOENT, pnl_get(&self->nl, self->work, &st));
	EXPECT_EQ(0, tracer_pid(self->work));

	ASSERT_TRUE(burn(self->work, 0.5));
	EXPECT_EQ(0, exit_code(ctl(show, self->out, self->err)));
	EXPECT_HOT_SHARES(self->out);
	first = csv_count(self->out, "hot_a");
	ASSERT_TRUE(burn(self->work, 0.5));
	EXPECT_EQ(0, exit_code(ctl(show, self->out, self->err)));
	second = csv_count(self->out, "hot_a");
	EXPECT_GT(second, first) TH_LOG("hot_a: %.0f, then %.0f", first,
					second);

	EXPECT_EQ(0, exit_code(ctl(status, self->out, self->err)));
	snprintf(want, sizeof(want), "\n%7d ", (int)self->work);
	EXPECT_NE(NULL, strstr(self->out, want)) TH_LOG("%s", self->out);

	EXPECT_EQ(0, exit_code(ctl(stop, self->out, self->err)));
	snprintf(want, sizeof(want), "its collector (pid %d) exited",
		 (int)self->collector);
	EXPECT_NE(NULL, strstr(self->out, want)) TH_LOG("%s", self->out);
	EXPECT_NE(NULL, strstr(self->out, "profile saved in "));
	/* The collector closed its socket before it answered the end. */
	EXPECT_TRUE(untouched(&self->nl, self->work));
	EXPECT_TRUE(gone(self->collector));
	EXPECT_EQ(0, read_file(csv, self->out, OUT_MAX));
	EXPECT_GE(csv_count(self->out, "hot_a"), second);
	EXPECT_HOT_SHARES(self->out);
	unlink(csv);
	rmdir(dir);
	EXPECT_TRUE(burn(self->work, 0.1));
	EXPECT_TRUE(end_work(self->work));
	self->work = 0;
}

/* A second start: the kernel follows a process for one collector. */
TEST_F(cstart, second_start_refused)
{
	const char *start[] = { "start", self->pidstr, NULL };
	const char *show[] = { "show", self->pidstr, "--format=csv", NULL };
	const char *stop[] = { "stop", self->pidstr, NULL };

	ASSERT_LT(0, start_work(self, (uid_t)-1, work_path()));
	ASSERT_EQ(0, exit_code(ctl(start, self->out, self->err)));
	self->collector = collector_of(self->out);
	ASSERT_LT(0, self->collector);
	EXPECT_EQ(1, exit_code(ctl(start, self->out, self->err)));
	EXPECT_NE(NULL, strstr(self->err, "is followed already"))
		TH_LOG("%s", self->err);
	EXPECT_EQ(-1, collector_of(self->out));
	/* The first one serves on. */
	ASSERT_TRUE(burn(self->work, 0.3));
	EXPECT_EQ(0, exit_code(ctl(show, self->out, self->err)));
	EXPECT_GT(csv_count(self->out, "hot_a"), 0);
	EXPECT_EQ(0, exit_code(ctl(stop, self->out, self->err)));
	EXPECT_TRUE(untouched(&self->nl, self->work));
}

/* Neither a collector nor a session of its own: show and stop say so. */
TEST_F(cstart, show_stop_without_either)
{
	const char *show[] = { "show", self->pidstr, NULL };
	const char *stop[] = { "stop", self->pidstr, "-o", "/dev/null",
			       NULL };

	ASSERT_LT(0, start_work(self, (uid_t)-1, work_path()));
	EXPECT_EQ(1, exit_code(ctl(show, self->out, self->err)));
	EXPECT_NE(NULL, strstr(self->err, "has no collector (\"profil-ctl "
			       "start")) TH_LOG("%s", self->err);
	EXPECT_NE(NULL, strstr(self->err, "no profil session of its own"));
	EXPECT_EQ(1, exit_code(ctl(stop, self->out, self->err)));
	EXPECT_NE(NULL, strstr(self->err, "no profil session of its own"))
		TH_LOG("%s", self->err);
	EXPECT_TRUE(untouched(&self->nl, self->work));
}

/* The profile outlives the process: show and stop still read it. */
TEST_F(cstart, collector_outlives_its_process)
{
	char dir[] = "/tmp/profil_ctl_stop.XXXXXX", csv[sizeof(dir) + 16];
	const char *start[] = { "start", self->pidstr, "--rate", "1000",
				NULL };
	const char *show[] = { "show", self->pidstr, "--format=csv", NULL };
	const char *stop[] = { "stop", self->pidstr, "--format=csv", "-o",
			       csv, NULL };

	ASSERT_NE(NULL, mkdtemp(dir));
	snprintf(csv, sizeof(csv), "%s/final.csv", dir);
	ASSERT_LT(0, start_work(self, (uid_t)-1, work_path()));
	ASSERT_EQ(0, exit_code(ctl(start, self->out, self->err)));
	self->collector = collector_of(self->out);
	ASSERT_LT(0, self->collector);
	ASSERT_TRUE(burn(self->work, 0.3));
	EXPECT_TRUE(end_work(self->work));
	self->work = 0;
	EXPECT_EQ(0, exit_code(ctl(show, self->out, self->err)));
	EXPECT_GT(csv_count(self->out, "hot_a"), 0) TH_LOG("%s", self->out);
	EXPECT_EQ(0, exit_code(ctl(stop, self->out, self->err)));
	EXPECT_TRUE(gone(self->collector));
	EXPECT_EQ(0, read_file(csv, self->out, OUT_MAX));
	EXPECT_GT(csv_count(self->out, "hot_a"), 0) TH_LOG("%s", self->out);
	unlink(csv);
	rmdir(dir);
}

/* SIGTERM ends the collector: the kernel stops following the process. */
TEST_F(cstart, sigterm_ends_the_collector)
{
	const char *start[] = { "start", self->pidstr, NULL };
	const char *show[] = { "show", self->pidstr, NULL };

	ASSERT_LT(0, start_work(self, (uid_t)-1, work_path()));
	ASSERT_EQ(0, exit_code(ctl(start, self->out, self->err)));
	self->collector = collector_of(self->out);
	ASSERT_LT(0, self->collector);
	ASSERT_EQ(0, kill(self->collector, SIGTERM));
	EXPECT_TRUE(gone(self->collector));
	EXPECT_TRUE(untouched(&self->nl, self->work));
	/* No collector now, and no session of its own. */
	EXPECT_EQ(1, exit_code(ctl(show, self->out, self->err)));
	EXPECT_NE(NULL, strstr(self->err, "has no collector"));
	EXPECT_TRUE(burn(self->work, 0.1));
}

/*
 * nobody on its own process: start, show -o FILE (nobody's), stop. Root
 * does not believe nobody's collector (an abstract name has no owner:
 * anyone may bind it), and says whose it is.
 */
TEST_F(cstart, start_show_stop_as_nobody)
{
	char dir[] = "/tmp/profil_ctl_nobody.XXXXXX", csv[sizeof(dir) + 8];
	const char *start[] = { "start", "-p", self->pidstr, "--rate", "500",
				NULL };
	const char *show[] = { "show", self->pidstr, "--format=csv", "-o",
			       csv, NULL };
	const char *root_show[] = { "show", self->pidstr, NULL };
	const char *stop[] = { "stop", self->pidstr, NULL };
	struct pnl_status st;

	NEED_NOBODY(true);
	ASSERT_NE(NULL, nobody_dir(dir));
	snprintf(csv, sizeof(csv), "%s/show.csv", dir);
	ASSERT_LT(0, start_work(self, NOBODY, self->stage.work));
	EXPECT_EQ(0, exit_code(ctl_nobody(&self->stage, start, self->out,
					  self->err)));
	self->collector = collector_of(self->out);
	ASSERT_LT(0, self->collector);
	ASSERT_EQ(0, pnl_get_kind(&self->nl, self->work, PROFIL_KIND_HELD,
				  &st));
	EXPECT_EQ(500, st.rate);
	ASSERT_TRUE(burn(self->work, 0.5));
	EXPECT_EQ(0, exit_code(ctl_nobody(&self->stage, show, self->out,
					  self->err)));
	EXPECT_EQ(NOBODY, owner(csv));
	EXPECT_EQ(0, read_file(csv, self->out, OUT_MAX));
	EXPECT_HOT_SHARES(self->out);

	EXPECT_EQ(1, exit_code(ctl(root_show, self->out, self->err)));
	EXPECT_NE(NULL, strstr(self->err, "is held by uid 65534"))
		TH_LOG("%s", self->err);

	EXPECT_EQ(0, exit_code(ctl_nobody(&self->stage, stop, self->out,
					  self->err)));
	EXPECT_TRUE(untouched(&self->nl, self->work));
	EXPECT_TRUE(gone(self->collector));
	EXPECT_TRUE(burn(self->work, 0.1));
	unlink(csv);
	rmdir(dir);
}

/*
 * nobody may not follow root's process, nor ask root's collector for
 * its profile or its end: the collector answers a peer of another uid
 * with an error, and serves on.
 */
TEST_F(cstart, other_users_process_refused)
{
	const char *attach[] = { "attach", "-p", self->pidstr, "-d", "1",
				 NULL };
	const char *start[] = { "start", self->pidstr, NULL };
	const char *show[] = { "show", self->pidstr, NULL };
	const char *stop[] = { "stop", self->pidstr, NULL };
	const char *root_show[] = { "show", self->pidstr, "--format=csv",
				    NULL };

	if (geteuid())
		SKIP(return, "switching to nobody needs root");
	stage_for_nobody(_metadata, &self->stage);
	ASSERT_LT(0, start_work(self, (uid_t)-1, work_path()));
	EXPECT_EQ(1, exit_code(ctl_nobody(&self->stage, attach, self->out,
					  self->err)));
	EXPECT_NE(NULL, strstr(self->err, "Operation not permitted"));
	EXPECT_EQ(1, exit_code(ctl_nobody(&self->stage, start, self->out,
					  self->err)));
	EXPECT_NE(NULL, strstr(self->err, "Operation not permitted"));
	EXPECT_TRUE(untouched(&self->nl, self->work));

	ASSERT_EQ(0, exit_code(ctl(start, self->out, self->err)));
	self->collector = collector_of(self->out);
	ASSERT_LT(0, self->collector);
	EXPECT_EQ(1, exit_code(ctl_nobody(&self->stage, show, self->out,
					  self->err)));
	EXPECT_NE(NULL, strstr(self->err, "Operation not permitted: the "
			       "collector of process")) TH_LOG("%s", self->err);
	EXPECT_EQ(1, exit_code(ctl_nobody(&self->stage, stop, self->out,
					  self->err)));
	EXPECT_NE(NULL, strstr(self->err, "serves uid 0 and root only"))
		TH_LOG("%s", self->err);
	EXPECT_FALSE(gone(self->collector));
	ASSERT_TRUE(burn(self->work, 0.3));
	EXPECT_EQ(0, exit_code(ctl(root_show, self->out, self->err)));
	EXPECT_GT(csv_count(self->out, "hot_a"), 0);
	EXPECT_EQ(0, exit_code(ctl(stop, self->out, self->err)));
	EXPECT_TRUE(untouched(&self->nl, self->work));
}

PROFIL_OPEN_TIMER_CLOCK
PROFIL_HARNESS_MAIN
