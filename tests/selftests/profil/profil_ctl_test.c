// SPDX-License-Identifier: GPL-2.0
/*
 * profil-ctl's live commands end to end: run, attach, top -p, and show
 * and stop of a program's own profil() buffer, on profil_ctl_work (two
 * hot functions, 3:1 in iterations), and the answers to bad input and to
 * missing permission. run and attach work for nobody on nobody's own
 * processes: the kernel lets a tracer follow its tracee. What nobody runs
 * is a copy staged under /tmp, so that the tests hold wherever the build
 * tree is. start's collector: ctl_start_test.c.
 *
 * Bounds are relative to CPU time (getrusage of the children), never to
 * wall-clock time.
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

FIXTURE(ctl) {
	char *out;
	char *err;
	struct pnl nl;
	struct stage stage;
};

FIXTURE_SETUP(ctl)
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

FIXTURE_TEARDOWN(ctl)
{
	unstage(&self->stage);
	pnl_close(&self->nl);
	free(self->out);
	free(self->err);
}

/* run: both functions, in proportion, sample count bounded by CPU time. */
TEST_F(ctl, run_profiles_two_functions)
{
	const char *args[] = { "run", "--rate", "1000", "--format=csv", "--",
			       work_path(), "spin", "1.0", NULL };
	double cpu = children_cpu(), all;
	struct accounting acct;

	/* The report goes to stderr: the program's stdout is its own. */
	ASSERT_EQ(0, exit_code(ctl(args, self->out, self->err)));
	EXPECT_EQ(0, self->out[0]);
	cpu = children_cpu() - cpu;
	all = csv_total(self->err);
	printf("# %.0f samples over %.2f s of CPU time\n%s", all, cpu,
	       self->err);
	EXPECT_HOT_SHARES(self->err);
	/*
	 * The kernel's accounting covers the 1.0 s of CPU time the program
	 * spun, in ticks or in periods a late clock missed (a starved vCPU
	 * skips timer periods), up to the phase of the first and last point
	 * and 5 % for the timers' own granularity; and no more than our
	 * children's CPU time (profil-ctl's included). Every tick in range
	 * is in the CSV. No wall-clock expectation.
	 */
	ASSERT_EQ(0, read_accounting(self->err, &acct))
		TH_LOG("no accounting line in: %s", self->err);
	EXPECT_EQ(1000, acct.rate);
	EXPECT_EQ(1, acct.processes);
	EXPECT_GE(acct.ticks + acct.missed, 0.95 * 1.0 * 1000 - 2);
	EXPECT_LE(acct.ticks + acct.missed, 1.1 * cpu * 1000 + 10);
	EXPECT_EQ(all, acct.user);
}

TEST_F(ctl, run_exit_status_propagates)
{
	const char *code[] = { "run", "--", work_path(), "spin", "0.05", "7",
			       NULL };
	const char *sig[] = { "run", "--", work_path(), "spin", "0.05", "-15",
			      NULL };
	const char *missing[] = { "run", "--", "/nonexistent/program", NULL };

	EXPECT_EQ(7, exit_code(ctl(code, self->out, self->err)));
	EXPECT_EQ(128 + SIGTERM, exit_code(ctl(sig, self->out, self->err)));
	EXPECT_EQ(127, exit_code(ctl(missing, self->out, self->err)));
	EXPECT_NE(NULL, strstr(self->err, "No such file or directory"));
}

/* Handled signals and a stop/continue reach the program unchanged. */
TEST_F(ctl, run_forwards_signals)
{
	const char *args[] = { "run", "--", work_path(), "signals", NULL };

	EXPECT_EQ(0, exit_code(ctl(args, self->out, self->err)));
}

/* A program that execs is profiled as what it execs into. */
TEST_F(ctl, run_follows_exec)
{
	char cmd[PATH_MAX + 32];
	const char *args[] = { "run", "--format=csv", "--", "/bin/sh", "-c",
			       cmd, NULL };

	snprintf(cmd, sizeof(cmd), "exec %s spin 0.5", work_path());
	ASSERT_EQ(0, exit_code(ctl(args, self->out, self->err)));
	EXPECT_GT(csv_count(self->err, "hot_a"), 0);
}

TEST_F(ctl, run_gmon_out_for_gprof)
{
	char dir[] = "/tmp/profil_ctl_gmon.XXXXXX", gmon[sizeof(dir) + 16];
	char cmd[3 * PATH_MAX];
	const char *args[] = { "run", "--rate", "1000", "--format=gmon", "-o",
			       gmon, "--", work_path(), "spin", "0.5", NULL };
	FILE *p;
	size_t n;

	ASSERT_NE(NULL, mkdtemp(dir));
	snprintf(gmon, sizeof(gmon), "%s/gmon.out", dir);
	ASSERT_EQ(0, exit_code(ctl(args, self->out, self->err)));
	EXPECT_EQ(0, self->out[0]);	/* the profile went to the files */
	/*
	 * One per object with samples: ld.so's next to the program's (it
	 * relocates for tens of ms of CPU under TCG: 12 to 50 samples seen).
	 */
	snprintf(cmd, sizeof(cmd), "test -s %s.ld-linux-x86-64.so.2", gmon);
	EXPECT_EQ(0, system(cmd)) TH_LOG("%s", self->err);
	if (system("command -v gprof >/dev/null 2>&1")) {
		snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
		system(cmd);
		SKIP(return, "no gprof");
	}
	snprintf(cmd, sizeof(cmd), "gprof -b -p %s %s", work_path(), gmon);
	p = popen(cmd, "r");
	ASSERT_NE(NULL, p);
	n = fread(self->out, 1, OUT_MAX - 1, p);
	self->out[n] = '\0';
	EXPECT_EQ(0, pclose(p));
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	system(cmd);
	printf("%s", self->out);
	EXPECT_NE(NULL, strstr(self->out, "hot_a"));
	EXPECT_NE(NULL, strstr(self->out, "hot_b"));
}

/* The library next to the workload, which its "dlopen" mode loads. */
static const char *dso_path(void)
{
	static char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s", work_path());
	snprintf(strrchr(path, '/') + 1, sizeof(path) - (strrchr(path, '/') +
		 1 - path), "profil_ctl_dso.so");
	return path;
}

/* A fork child is profiled, as itself: --per-process tells them apart. */
TEST_F(ctl, run_follows_fork)
{
	const char *args[] = { "run", "--rate", "1000", "--per-process",
			       "--format=csv", "--", work_path(), "fork",
			       "0.4", NULL };
	pid_t pa[4], pb[4];
	struct accounting acct;
	double a, b;

	ASSERT_EQ(0, exit_code(ctl(args, self->out, self->err)));
	ASSERT_EQ(0, read_accounting(self->err, &acct)) TH_LOG("%s", self->err);
	EXPECT_EQ(2, acct.processes);
	/* The parent spun in hot_a, the child in hot_b, as long. */
	ASSERT_EQ(1, csv_pids(self->err, "hot_a", pa, 4)) TH_LOG("%s", self->err);
	ASSERT_EQ(1, csv_pids(self->err, "hot_b", pb, 4));
	EXPECT_NE(pa[0], pb[0]);
	a = csv_count_pid(self->err, "hot_a", pa[0]);
	b = csv_count_pid(self->err, "hot_b", pb[0]);
	printf("# parent %d: hot_a %.0f; child %d: hot_b %.0f\n", pa[0], a,
	       pb[0], b);
	EXPECT_GE(a / (a + b), 0.3);
	EXPECT_LE(a / (a + b), 0.7);
	EXPECT_EQ(csv_total(self->err), acct.user);
}

/* --no-inherit: the child is not profiled. */
TEST_F(ctl, run_no_inherit)
{
	const char *args[] = { "run", "--rate", "1000", "--no-inherit",
			       "--format=csv", "--", work_path(), "fork",
			       "0.3", NULL };
	struct accounting acct;

	ASSERT_EQ(0, exit_code(ctl(args, self->out, self->err)));
	ASSERT_EQ(0, read_accounting(self->err, &acct)) TH_LOG("%s", self->err);
	EXPECT_EQ(1, acct.processes);
	EXPECT_GT(csv_count(self->err, "hot_a"), 0);
	EXPECT_GT(0, csv_count(self->err, "hot_b")) TH_LOG("%s", self->err);
}

/* A pipeline under sh -c: each of its programs, as a process of its own. */
TEST_F(ctl, run_pipeline)
{
	char cmd[2 * PATH_MAX + 64];
	const char *args[] = { "run", "--rate", "1000", "--per-process",
			       "--format=csv", "--", "/bin/sh", "-c", cmd,
			       NULL };
	struct accounting acct;
	pid_t pids[4];

	snprintf(cmd, sizeof(cmd), "%s spin 0.3 | %s spin 0.3", work_path(),
		 work_path());
	ASSERT_EQ(0, exit_code(ctl(args, self->out, self->err)));
	ASSERT_EQ(0, read_accounting(self->err, &acct)) TH_LOG("%s", self->err);
	EXPECT_GE(acct.processes, 3);	/* sh and both programs */
	EXPECT_EQ(2, csv_pids(self->err, "hot_a", pids, 4))
		TH_LOG("%s", self->err);
}

/*
 * Code dlopen()ed long after the start is covered by a region of its
 * own: its function has its samples, few are left uncovered.
 */
TEST_F(ctl, run_covers_dlopen)
{
	const char *args[] = { "run", "--rate", "1000", "--format=csv", "--",
			       work_path(), "dlopen", dso_path(), "1.0",
			       NULL };
	double hot, uncovered, all;

	ASSERT_EQ(0, exit_code(ctl(args, self->out, self->err)))
		TH_LOG("%s", self->err);
	hot = csv_count(self->err, "hot_dso");
	uncovered = csv_count(self->err,
			      "[not covered: mapped after profil-ctl last looked]");
	all = csv_total(self->err);
	printf("# hot_dso %.0f, not covered %.0f, all %.0f\n", hot,
	       uncovered, all);
	EXPECT_GE(hot / all, 0.7) TH_LOG("%s", self->err);
	/* Looked at every 10 ms at first, 100 ms later: most is covered. */
	EXPECT_LE(uncovered, 0.2 * (hot + (uncovered > 0 ? uncovered : 0)));
}

/* Threads that outlive the main thread (pthread_exit()) are read. */
TEST_F(ctl, run_threads_outlive_main)
{
	const char *args[] = { "run", "--rate", "1000", "--format=csv", "--",
			       work_path(), "threads", "0.3", NULL };

	ASSERT_EQ(0, exit_code(ctl(args, self->out, self->err)))
		TH_LOG("%s", self->err);
	EXPECT_HOT_SHARES_ANY(self->err);
}

/* A vfork child (posix_spawn) shares its parent's memory until it execs. */
TEST_F(ctl, run_spawn)
{
	const char *args[] = { "run", "--rate", "1000", "--format=csv", "--",
			       work_path(), "spawn", "0.3", NULL };
	struct accounting acct;

	ASSERT_EQ(0, exit_code(ctl(args, self->out, self->err)))
		TH_LOG("%s", self->err);
	ASSERT_EQ(0, read_accounting(self->err, &acct));
	/* The program, its vfork child until it execs, and true. */
	EXPECT_EQ(3, acct.processes);
	EXPECT_HOT_SHARES_ANY(self->err);
}

/* --save writes a profile report reads back, to the same counts. */
TEST_F(ctl, run_save_and_report)
{
	char dir[] = "/tmp/profil_ctl_save.XXXXXX", file[sizeof(dir) + 16];
	char cmd[sizeof(dir) + 16];
	const char *args[] = { "run", "--rate", "1000", "--format=csv",
			       "--save", file, "--", work_path(), "spin",
			       "0.3", NULL };
	const char *report[] = { "report", "--format=csv", file, NULL };
	double a;

	ASSERT_NE(NULL, mkdtemp(dir));
	snprintf(file, sizeof(file), "%s/p.prof", dir);
	ASSERT_EQ(0, exit_code(ctl(args, self->out, self->err)));
	a = csv_count(self->err, "hot_a");
	EXPECT_GT(a, 0);
	EXPECT_EQ(0, exit_code(ctl(report, self->out, self->err)))
		TH_LOG("%s", self->err);
	EXPECT_EQ(a, csv_count(self->out, "hot_a")) TH_LOG("%s", self->out);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	system(cmd);
}

/* attach for a duration; the target runs on, unharmed and untouched. */
TEST_F(ctl, attach_for_a_duration)
{
	pid_t pid = spawn_work("serve");
	char pidstr[16];
	const char *args[] = { "attach", "-p", pidstr, "--duration", "1",
			       "--rate", "1000", "--format=csv", NULL };

	ASSERT_LT(0, pid);
	snprintf(pidstr, sizeof(pidstr), "%d", (int)pid);
	ASSERT_TRUE(burn(pid, 0.1));
	EXPECT_EQ(0, exit_code(ctl(args, self->out, self->err)));
	EXPECT_HOT_SHARES(self->err);
	EXPECT_TRUE(untouched(&self->nl, pid));
	/* It still runs: its nanosleep()s never failed. */
	EXPECT_TRUE(burn(pid, 0.1));
	EXPECT_TRUE(end_work(pid));
}

/* attach until the target exits by itself. */
TEST_F(ctl, attach_until_exit)
{
	pid_t pid = fork();
	char pidstr[16];
	const char *args[] = { "attach", pidstr, "--format=csv", NULL };
	int st, i;

	if (!pid) {
		struct pnl nl;
		struct pnl_status hs;

		/*
		 * Be followed before the work: wait for the kernel-held
		 * session, not for a time (profil-ctl's start-up under KASAN
		 * can outlast any sleep), and give up after a minute.
		 */
		if (pnl_open(&nl))
			_exit(96);
		for (i = 0; i < 60000 &&
		     pnl_get_kind(&nl, getpid(), PROFIL_KIND_HELD, &hs); i++)
			usleep(1000);
		pnl_close(&nl);
		execl(work_path(), "profil_ctl_work", "spin", "0.5",
		      (char *)NULL);
		_exit(97);
	}
	ASSERT_LT(0, pid);
	snprintf(pidstr, sizeof(pidstr), "%d", (int)pid);
	EXPECT_EQ(0, exit_code(ctl(args, self->out, self->err)))
		TH_LOG("%s", self->err);
	EXPECT_GT(csv_count(self->err, "hot_a"), 0);
	ASSERT_EQ(pid, waitpid(pid, &st, 0));
	EXPECT_TRUE(WIFEXITED(st));
	EXPECT_EQ(0, WEXITSTATUS(st));
}

/* A program's own profil() buffer: show reads it, stop leaves it. */
TEST_F(ctl, show_a_programs_own_buffer)
{
	pid_t pid = spawn_work("self");
	char pidstr[16];
	const char *show[] = { "show", pidstr, "--format=csv", NULL };
	const char *per_process[] = { "show", pidstr, "--per-process", NULL };
	const char *stop[] = { "stop", pidstr, NULL };
	struct pnl_status st;

	ASSERT_LT(0, pid);
	snprintf(pidstr, sizeof(pidstr), "%d", (int)pid);
	/* Its profil() samples at 100 Hz: 50 in 0.5 s, fewer if late. */
	ASSERT_TRUE(burn_samples(&self->nl, pid, 0.5, 100));
	EXPECT_EQ(0, exit_code(ctl(show, self->out, self->err)));
	EXPECT_HOT_SHARES(self->out);
	/* One executable's counters: a whole program's options refused. */
	EXPECT_EQ(1, exit_code(ctl(per_process, self->out, self->err)));
	EXPECT_NE(NULL, strstr(self->err, "--per-process applies to a whole "
			       "program's profile")) TH_LOG("%s", self->err);
	EXPECT_EQ(0, exit_code(ctl(stop, self->out, self->err)));
	EXPECT_NE(NULL, strstr(self->out, "its own buffer left alone"));
	ASSERT_EQ(0, pnl_get_traced(&self->nl, pid, &st));
	EXPECT_EQ(PROFIL_STATE_STOPPED, st.state);
	EXPECT_EQ(PROFIL_STOP_REQUEST, st.reason);
	EXPECT_TRUE(mapped_in(pid, st.buf));
	end_work(pid);
}

/*
 * A program that profiles itself (profil(), as monstartup() and -pg do):
 * start, attach and top -p follow it in a kernel-held session of their
 * own, next to its session, which runs on, same buffer, still counting;
 * stop ends start's collector, and leaves the program's session alone.
 */
TEST_F(ctl, profiled_program_not_replaced)
{
	pid_t pid = spawn_work("self");
	char pidstr[16];
	const char *start[] = { "start", pidstr, NULL };
	const char *stop[] = { "stop", pidstr, NULL };
	const char *top[] = { "top", "-p", pidstr, "-d", "0.5", NULL };
	const char *attach_csv[] = { "attach", pidstr, "-d", "0.5",
				     "--format=csv", NULL };
	struct pnl_status before, after;

	ASSERT_LT(0, pid);
	snprintf(pidstr, sizeof(pidstr), "%d", (int)pid);
	ASSERT_TRUE(burn(pid, 0.1));
	ASSERT_EQ(0, pnl_get(&self->nl, pid, &before));
	ASSERT_EQ(PROFIL_STATE_ACTIVE, before.state);
	EXPECT_EQ(0, exit_code(ctl(start, self->out, self->err)))
		TH_LOG("%s", self->err);
	EXPECT_EQ(0, exit_code(ctl(stop, self->out, self->err)))
		TH_LOG("%s", self->err);
	EXPECT_NE(NULL, strstr(self->out, "its collector (pid "))
		TH_LOG("%s", self->out);
	EXPECT_EQ(0, exit_code(ctl(attach_csv, self->out, self->err)))
		TH_LOG("%s", self->err);
	EXPECT_GT(csv_count(self->err, "hot_a"), 0) TH_LOG("%s", self->err);
	EXPECT_EQ(0, exit_code(ctl(top, self->out, self->err)))
		TH_LOG("%s", self->err);
	ASSERT_TRUE(burn(pid, 0.1));
	ASSERT_EQ(0, pnl_get(&self->nl, pid, &after));
	EXPECT_EQ(PROFIL_STATE_ACTIVE, after.state);
	EXPECT_EQ(before.buf, after.buf);
	EXPECT_GT(after.stats[PROFIL_STAT_TICKS],
		  before.stats[PROFIL_STAT_TICKS]);
	end_work(pid);
}

/* Every bad command line: exit 2 and a message naming the problem. */
TEST_F(ctl, bad_options)
{
	static const struct {
		const char *args[8];
		const char *msg;
	} cases[] = {
		{ { "run", NULL }, "no program to run" },
		{ { "run", "--rate", "5", "--", "true", NULL }, "--rate" },
		{ { "run", "--rate", "10001", "--", "true", NULL }, "--rate" },
		{ { "run", "--bin-bytes", "3", "--", "true", NULL },
		  "--bin-bytes" },
		{ { "run", "--bin-bytes", "262144", "--", "true", NULL },
		  "--bin-bytes" },
		{ { "run", "--bin-bytes", "2", "--", "true", NULL },
		  "u32 bins of 4 bytes" },
		{ { "run", "--format=gmon", "--", "true", NULL },
		  "--format=gmon needs -o FILE" },
		{ { "run", "--format=xml", "--", "true", NULL }, "xml" },
		{ { "run", "--bogus", "--", "true", NULL }, "unknown option" },
		{ { "run", "-p", "1", "--", "true", NULL }, "does not apply" },
		{ { "attach", NULL }, "no PID given" },
		{ { "attach", "-p", "abc", NULL }, "bad PID" },
		{ { "attach", "-p", "0", NULL }, "bad PID" },
		{ { "attach", "-p", "1", "--duration", "0", NULL },
		  "--duration" },
		{ { "attach", "-p", "1", "2", NULL }, "unexpected argument" },
		{ { "start", NULL }, "no PID given" },
		{ { "start", "-p", "1", "--duration", "1", NULL },
		  "does not apply" },
		{ { "stop", "-p", "1", "--rate", "100", NULL },
		  "does not apply" },
		{ { "status", "--format=xml", NULL }, "not text or json" },
		{ { "status", "-p", NULL }, "needs an argument" },
		{ { "show", NULL }, "no PID given" },
	};
	char usage[64];
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		EXPECT_EQ(2, exit_code(ctl(cases[i].args, self->out,
					   self->err)))
			TH_LOG("profil-ctl %s ... (case %zu)",
			       cases[i].args[0], i);
		EXPECT_NE(NULL, strstr(self->err, cases[i].msg))
			TH_LOG("case %zu: want \"%s\" in: %s", i, cases[i].msg,
			       self->err);
		snprintf(usage, sizeof(usage), "usage: profil-ctl %s ",
			 cases[i].args[0]);
		EXPECT_NE(NULL, strstr(self->err, usage))
			TH_LOG("case %zu: no synopsis in: %s", i, self->err);
	}
}

/* Each live command's help, two ways: its synopsis and options, exit 0. */
TEST_F(ctl, help_lists_options)
{
	static const struct {
		const char *cmd, *opts[2];
	} cases[] = {
		{ "run", { "-r, --rate=HZ", "--bin-bytes=N" } },
		{ "attach", { "-d, --duration=SECS", "-p, --pid=PID" } },
		{ "start", { "--system-ticks", "--no-inherit" } },
		{ "stop", { "--per-process", "-p, --pid=PID" } },
		{ "status", { "--format=FMT", "-p, --pid=PID" } },
		{ "show", { "-o, --output=FILE", "--lines" } },
	};
	char usage[64];
	size_t i, k;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *help[] = { "help", cases[i].cmd, NULL };
		const char *dash[] = { cases[i].cmd, "--help", NULL };
		const char *const *ways[] = { help, dash };
		size_t w;

		snprintf(usage, sizeof(usage), "usage: profil-ctl %s ",
			 cases[i].cmd);
		for (w = 0; w < 2; w++) {
			EXPECT_EQ(0, exit_code(ctl(ways[w], self->out,
						   self->err)));
			EXPECT_NE(NULL, strstr(self->out, usage))
				TH_LOG("%s: %s", cases[i].cmd, self->out);
			/* Braces: EXPECT_*() TH_LOG() is two statements. */
			for (k = 0; k < 2; k++) {
				EXPECT_NE(NULL, strstr(self->out,
						       cases[i].opts[k]))
					TH_LOG("no %s in: %s", cases[i].opts[k],
					       self->out);
			}
		}
	}
}

TEST_F(ctl, nonexistent_pid)
{
	pid_t pid = fork();
	char pidstr[16];
	const char *attach[] = { "attach", "-p", pidstr, NULL };
	const char *start[] = { "start", "-p", pidstr, NULL };
	const char *show[] = { "show", "-p", pidstr, NULL };
	const char *stop[] = { "stop", "-p", pidstr, NULL };

	if (!pid)
		_exit(0);
	ASSERT_EQ(pid, waitpid(pid, NULL, 0));	/* now no such process */
	snprintf(pidstr, sizeof(pidstr), "%d", (int)pid);
	EXPECT_EQ(1, exit_code(ctl(attach, self->out, self->err)));
	EXPECT_NE(NULL, strstr(self->err, "No such process"));
	EXPECT_EQ(1, exit_code(ctl(start, self->out, self->err)));
	EXPECT_NE(NULL, strstr(self->err, "No such process"));
	EXPECT_EQ(1, exit_code(ctl(show, self->out, self->err)));
	EXPECT_NE(NULL, strstr(self->err, "No such process"));
	EXPECT_EQ(1, exit_code(ctl(stop, self->out, self->err)));
	EXPECT_NE(NULL, strstr(self->err, "No such process"));
}

/* nobody runs its program under profil-ctl: no privilege needed. */
TEST_F(ctl, run_as_nobody)
{
	char dir[] = "/tmp/profil_ctl_nobody.XXXXXX", csv[sizeof(dir) + 8];
	const char *args[] = { "run", "--rate", "1000", "--format=csv", "-o",
			       csv, "--", self->stage.work, "spin", "0.5",
			       NULL };
	int code;

	NEED_NOBODY(false);
	ASSERT_NE(NULL, nobody_dir(dir));
	snprintf(csv, sizeof(csv), "%s/p.csv", dir);
	code = exit_code(ctl_nobody(&self->stage, args, self->out,
				    self->err));
	EXPECT_EQ(0, code);
	EXPECT_EQ(NOBODY, owner(csv));
	EXPECT_EQ(0, read_file(csv, self->out, OUT_MAX));
	unlink(csv);
	rmdir(dir);
	if (code)
		return;
	printf("%s", self->out);
	EXPECT_HOT_SHARES(self->out);
}

/* nobody attaches to its own process and leaves it running. */
TEST_F(ctl, attach_as_nobody)
{
	pid_t pid;
	char pidstr[16];
	const char *args[] = { "attach", "-p", pidstr, "--duration", "1",
			       "--rate", "1000", "--format=csv", NULL };

	NEED_NOBODY(true);
	pid = spawn_work_as(NOBODY, self->stage.work, "serve");
	ASSERT_LT(0, pid);
	snprintf(pidstr, sizeof(pidstr), "%d", (int)pid);
	ASSERT_TRUE(burn(pid, 0.1));
	EXPECT_EQ(0, exit_code(ctl_nobody(&self->stage, args, self->out,
					  self->err)));
	EXPECT_HOT_SHARES(self->err);
	EXPECT_TRUE(untouched(&self->nl, pid));
	EXPECT_TRUE(burn(pid, 0.1));
	EXPECT_TRUE(end_work(pid));
}

PROFIL_OPEN_TIMER_CLOCK
PROFIL_HARNESS_MAIN
