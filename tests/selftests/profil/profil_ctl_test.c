// SPDX-License-Identifier: GPL-2.0
/*
 * profil-ctl's live commands end to end: run, attach, start, status,
 * show, stop, on profil_ctl_work (two hot functions, 3:1 in iterations),
 * and the answers to bad input and to missing permission. run, attach and
 * start/status/show/stop work for nobody on nobody's own processes: the
 * kernel lets a tracer start its tracee. What nobody runs is a copy staged
 * under /tmp, so that the tests hold wherever the build tree is.
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

#ifndef PROFIL_CTL
#define PROFIL_CTL "profil-ctl"
#endif

#define OUT_MAX 65536

/* The unprivileged user the tests switch to. */
#define NOBODY 65534

/* The harness forks each test: output must not wait in a buffer. */
__attribute__((constructor)) static void line_buffered(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
}

/* profil_ctl_work, next to this program. */
static const char *work_path(void)
{
	static char path[PATH_MAX];
	char *slash;
	ssize_t n;

	if (path[0])
		return path;
	n = readlink("/proc/self/exe", path, sizeof(path) - 32);
	if (n < 0)
		return "profil_ctl_work";
	path[n] = '\0';
	slash = strrchr(path, '/');
	strcpy(slash ? slash + 1 : path, "profil_ctl_work");
	return path;
}

static void slurp(int fd, char *buf, size_t len)
{
	ssize_t n = pread(fd, buf, len - 1, 0);

	buf[n > 0 ? n : 0] = '\0';
	close(fd);
}

/*
 * Run the profil-ctl at @prog with @args (NULL-terminated, without
 * argv[0]) as user @uid (-1: unchanged); its stdout and stderr into @out
 * and @err. Return: its wait status, or -1.
 */
static int ctl_as(uid_t uid, const char *prog, const char *const *args,
		  char *out, char *err)
{
	char ofile[] = "/tmp/profil_ctl_out.XXXXXX";
	char efile[] = "/tmp/profil_ctl_err.XXXXXX";
	const char *argv[32] = { prog };
	int ofd = mkstemp(ofile), efd = mkstemp(efile), st, i;
	pid_t pid;

	if (ofd < 0 || efd < 0)
		return -1;
	unlink(ofile);
	unlink(efile);
	for (i = 0; args[i] && i < 30; i++)
		argv[i + 1] = args[i];
	fflush(NULL);
	pid = fork();
	if (!pid) {
		dup2(ofd, 1);
		dup2(efd, 2);
		if (become(uid))
			_exit(99);
		execv(prog, (char **)argv);
		_exit(98);
	}
	if (pid < 0 || waitpid(pid, &st, 0) != pid)
		return -1;
	slurp(ofd, out, OUT_MAX);
	slurp(efd, err, OUT_MAX);
	if (err[0])
		printf("# profil-ctl %s ...: %s", args[0], err);
	return st;
}

static int ctl(const char *const *args, char *out, char *err)
{
	return ctl_as((uid_t)-1, PROFIL_CTL, args, out, err);
}

static int exit_code(int st)
{
	return st >= 0 && WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/*
 * A --format=csv function table: '#' lines (the totals header) skipped,
 * columns found by name in its header line, so that the single-binary
 * table of show and the whole-program table of run and attach (pid, comm,
 * object, build_id first) read alike. Rows with another number of
 * fields (the accounting line on stderr) are not rows.
 */
struct csv_cols {
	int fields, function, count, pid;
};

static int csv_field(const char *line, int idx, char *buf, size_t len)
{
	size_t n = 0;
	int i = 0;

	for (; *line && *line != '\n'; line++) {
		if (*line == ',') {
			i++;
			continue;
		}
		if (i == idx && n + 1 < len)
			buf[n++] = *line;
	}
	buf[n] = '\0';
	return i + 1;	/* the number of fields */
}

static const char *csv_header(const char *csv, struct csv_cols *c)
{
	char name[64];
	const char *line;
	int i;

	for (line = csv; line && *line; line = strchr(line, '\n'),
	     line = line ? line + 1 : NULL) {
		const char *f = strstr(line, "function,");

		/* strstr() looks past the line: the header is this line. */
		if (*line == '#' || !f || memchr(line, '\n', f - line))
			continue;
		c->function = c->count = c->pid = -1;
		c->fields = csv_field(line, 0, name, sizeof(name));
		for (i = 0; i < c->fields; i++) {
			csv_field(line, i, name, sizeof(name));
			if (!strcmp(name, "function"))
				c->function = i;
			else if (!strcmp(name, "count"))
				c->count = i;
			else if (!strcmp(name, "pid"))
				c->pid = i;
		}
		return strchr(line, '\n');
	}
	return NULL;
}

/*
 * The count of @func in rows of process @pid (0: any), summed over the
 * objects and processes it appears in; -1 if absent.
 */
static double csv_count_pid(const char *csv, const char *func, pid_t pid)
{
	const char *line;
	struct csv_cols c;
	double sum = -1;
	char f[256];

	line = csv_header(csv, &c);
	for (; line && line[1]; line = strchr(line + 1, '\n')) {
		if (csv_field(line + 1, 0, f, sizeof(f)) != c.fields ||
		    line[1] == '#')
			continue;
		csv_field(line + 1, c.function, f, sizeof(f));
		if (strcmp(f, func))
			continue;
		if (pid && c.pid >= 0) {
			csv_field(line + 1, c.pid, f, sizeof(f));
			if (atoi(f) != pid)
				continue;
		}
		csv_field(line + 1, c.count, f, sizeof(f));
		sum = (sum < 0 ? 0 : sum) + strtod(f, NULL);
	}
	return sum;
}

static double csv_count(const char *csv, const char *func)
{
	return csv_count_pid(csv, func, 0);
}

/* Sum of the counts of a --format=csv function table. */
static double csv_total(const char *csv)
{
	const char *line;
	struct csv_cols c;
	double sum = 0;
	char f[256];

	line = csv_header(csv, &c);
	for (; line && line[1]; line = strchr(line + 1, '\n')) {
		if (line[1] == '#' ||
		    csv_field(line + 1, 0, f, sizeof(f)) != c.fields)
			continue;
		csv_field(line + 1, c.count, f, sizeof(f));
		sum += strtod(f, NULL);
	}
	return sum;
}

/* The pids of rows with @func, at most @n of them, distinct. */
static int csv_pids(const char *csv, const char *func, pid_t *pids, int n)
{
	const char *line;
	struct csv_cols c;
	char f[256];
	int found = 0, i;
	pid_t pid;

	line = csv_header(csv, &c);
	for (; line && line[1] && c.pid >= 0;
	     line = strchr(line + 1, '\n')) {
		if (line[1] == '#' ||
		    csv_field(line + 1, 0, f, sizeof(f)) != c.fields)
			continue;
		csv_field(line + 1, c.function, f, sizeof(f));
		if (strcmp(f, func))
			continue;
		csv_field(line + 1, c.pid, f, sizeof(f));
		pid = atoi(f);
		for (i = 0; i < found && pids[i] != pid; i++)
			;
		if (i == found && found < n)
			pids[found++] = pid;
	}
	return found;
}

/* User and system CPU seconds of our waited-for descendants. */
static double children_cpu(void)
{
	struct rusage ru;

	getrusage(RUSAGE_CHILDREN, &ru);
	return ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
	       ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
}

/* The kernel's accounting, from the line run and attach end with. */
struct accounting {
	unsigned long long ticks, missed, user;
	unsigned int rate, processes;
};

static int read_accounting(const char *err, struct accounting *a)
{
	const char *line = strstr(err, "profil-ctl run: ");

	if (!line)
		line = strstr(err, "profil-ctl attach: ");
	if (!line || sscanf(strchr(line, ':'), ": %u process", &a->processes)
	    != 1 || !(line = strchr(strchr(line, ':') + 1, ':')))
		return -1;
	return sscanf(line, ": %llu ticks at %u Hz, %llu periods missed "
		      "(late clock); %llu user samples", &a->ticks,
		      &a->rate, &a->missed, &a->user) == 4 ? 0 : -1;
}

/* User CPU seconds @pid has used so far. */
static double proc_user_cpu(pid_t pid)
{
	unsigned long utime = 0;
	char path[64];
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	f = fopen(path, "r");
	if (!f)
		return -1;
	/* comm has no spaces here: field 14 is utime. */
	if (fscanf(f, "%*d %*s %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu",
		   &utime) != 1)
		utime = 0;
	fclose(f);
	return (double)utime / sysconf(_SC_CLK_TCK);
}

/* Wait until @pid has used @secs more user CPU time (never wall time). */
static bool burn(pid_t pid, double secs)
{
	double start = proc_user_cpu(pid), now = start;

	while (now >= 0 && now < start + secs) {
		usleep(20000);
		now = proc_user_cpu(pid);
	}
	return now >= 0;
}

/*
 * Wait until @pid has used @secs more user CPU time, and on until its
 * session (@nl's view of it) has @n samples in its buffer, the samples a
 * share of them needs, counted by the kernel rather than expected from
 * the CPU time: a starved vCPU's late clock takes fewer. 10 s of its CPU
 * at most.
 */
static bool burn_samples(struct pnl *nl, pid_t pid, double secs, uint64_t n)
{
	double start = proc_user_cpu(pid), now;
	struct pnl_status st;

	if (!burn(pid, secs))
		return false;
	while (!pnl_get(nl, pid, &st) && st.stats[PROFIL_STAT_IN_RANGE] < n) {
		now = proc_user_cpu(pid);
		if (now < 0 || now > start + secs + 10.0 || !burn(pid, 0.1))
			break;
	}
	return proc_user_cpu(pid) >= 0;
}

/* The profil_ctl_work at @prog, @mode, as user @uid (-1: unchanged). */
static pid_t spawn_work_as(uid_t uid, const char *prog, const char *mode)
{
	pid_t pid = fork();

	if (!pid) {
		if (become(uid))
			_exit(99);
		execl(prog, "profil_ctl_work", mode, (char *)NULL);
		_exit(97);
	}
	return pid;
}

static pid_t spawn_work(const char *mode)
{
	return spawn_work_as((uid_t)-1, work_path(), mode);
}

/*
 * Copies of profil-ctl and profil_ctl_work for nobody to run, in a
 * directory of their own under /tmp, all mode 0755. The build tree may be
 * out of nobody's reach (a clone in /root or in a 0700 home directory),
 * and an executable its user may not read makes its process undumpable,
 * which ptrace refuses to a same-user tracer. Both link libprofil
 * statically and need only the system's shared libraries.
 */
#define STAGE_DIR "/tmp/profil_ctl_stage.XXXXXX"

struct stage {
	char dir[sizeof(STAGE_DIR)];
	char ctl[sizeof(STAGE_DIR "/profil-ctl")];
	char work[sizeof(STAGE_DIR "/profil_ctl_work")];
};

/* Stage what nobody runs into @s; the fixture's teardown removes it. */
static void stage_for_nobody(struct __test_metadata *_metadata,
			     struct stage *s)
{
	static const char *const why[] = {
		"", "cannot switch to nobody",
		"nobody may not execute the staged profil-ctl",
		"nobody may not read the staged profil_ctl_work",
	};
	char dir[] = STAGE_DIR;
	pid_t pid;
	int st, ret;

	ASSERT_NE(NULL, mkdtemp(dir));
	strcpy(s->dir, dir);
	snprintf(s->ctl, sizeof(s->ctl), "%s/profil-ctl", dir);
	snprintf(s->work, sizeof(s->work), "%s/profil_ctl_work", dir);
	ASSERT_EQ(0, chmod(dir, 0755));
	ret = copy_exe(PROFIL_CTL, s->ctl);
	ASSERT_EQ(0, ret) TH_LOG("%s: %s", PROFIL_CTL, strerror(-ret));
	ret = copy_exe(work_path(), s->work);
	ASSERT_EQ(0, ret) TH_LOG("%s: %s", work_path(), strerror(-ret));
	/* Checked here (a noexec /tmp, say) rather than seen as exit 98. */
	pid = fork();
	if (!pid)
		_exit(become(NOBODY) ? 1 :
		      access(s->ctl, X_OK) ? 2 :
		      access(s->work, R_OK | X_OK) ? 3 : 0);
	ASSERT_LT(0, pid);
	ASSERT_EQ(pid, waitpid(pid, &st, 0));
	ASSERT_TRUE(WIFEXITED(st));
	ASSERT_EQ(0, WEXITSTATUS(st)) TH_LOG("%s", why[WEXITSTATUS(st) & 3]);
}

static void unstage(struct stage *s)
{
	if (!s->dir[0])
		return;
	unlink(s->ctl);
	unlink(s->work);
	rmdir(s->dir);
	s->dir[0] = '\0';
}

/* profil-ctl @args as nobody: the copy staged in @s. */
static int ctl_nobody(const struct stage *s, const char *const *args,
		      char *out, char *err)
{
	return ctl_as(NOBODY, s->ctl, args, out, err);
}

/*
 * Skip unless root, who may switch to nobody, and unless Yama lets
 * nobody trace its processes; @attach: on a process profil-ctl did not
 * start (Yama's scope 1 forbids that). Then stage what nobody runs.
 */
#define NEED_NOBODY(attach)						\
	do {								\
		int scope_ = ptrace_scope();				\
									\
		if (geteuid())						\
			SKIP(return, "switching to nobody needs root");	\
		if (scope_ >= 2 || ((attach) && scope_ == 1))		\
			SKIP(return, "Yama ptrace_scope %d", scope_);	\
		stage_for_nobody(_metadata, &self->stage);		\
	} while (0)

/* A directory only nobody may write, for its output files; NULL if none. */
static char *nobody_dir(char *dir)
{
	if (!mkdtemp(dir))
		return NULL;
	if (chown(dir, NOBODY, NOBODY) || chmod(dir, 0700)) {
		rmdir(dir);
		return NULL;
	}
	return dir;
}

/* Read @path into @buf (NUL-terminated); -1 if it cannot be opened. */
static int read_file(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -1;
	slurp(fd, buf, len);
	return 0;
}

/* The owner of @path, -1 if none. */
static uid_t owner(const char *path)
{
	struct stat sb;

	return stat(path, &sb) ? (uid_t)-1 : sb.st_uid;
}

/* SIGTERM @pid; true if that is what ended it (it ran on till then). */
static bool end_work(pid_t pid)
{
	int st;

	kill(pid, SIGTERM);
	return waitpid(pid, &st, 0) == pid && WIFSIGNALED(st) &&
	       WTERMSIG(st) == SIGTERM;
}

/* Whether @addr of @pid is mapped: a word of it can be read. */
static bool mapped_in(pid_t pid, uint64_t addr)
{
	uint16_t word;
	struct iovec local = { &word, sizeof(word) };
	struct iovec remote = { (void *)(uintptr_t)addr, sizeof(word) };

	return process_vm_readv(pid, &local, 1, &remote, 1, 0) ==
	       sizeof(word);
}

/* Both hot functions, in proportions near 3:1, make most of the profile. */
#define EXPECT_HOT_SHARES(csv)						\
	do {								\
		double a = csv_count(csv, "hot_a");			\
		double b = csv_count(csv, "hot_b");			\
		double all = csv_total(csv);				\
		EXPECT_GT(a, 0) TH_LOG("no hot_a in:\n%s", csv);	\
		EXPECT_GT(b, 0) TH_LOG("no hot_b in:\n%s", csv);	\
		if (a > 0 && b > 0) {					\
			EXPECT_GE((a + b) / all, 0.8);			\
			EXPECT_GE(a / (a + b), 0.55);			\
			EXPECT_LE(a / (a + b), 0.92);			\
		}							\
	} while (0)

/* Both hot functions have samples (threads: not in a fixed proportion). */
#define EXPECT_HOT_SHARES_ANY(csv)					\
	do {								\
		EXPECT_GT(csv_count(csv, "hot_a"), 0) TH_LOG("%s", csv); \
		EXPECT_GT(csv_count(csv, "hot_b"), 0) TH_LOG("%s", csv); \
	} while (0)

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
		SKIP(return, "%s or %s is missing", PROFIL_CTL, work_path());
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

/*
 * Whether @pid is as profil-ctl found it: no session of either kind (the
 * kernel-held one ended with profil-ctl's socket, no buffer was ever
 * made in it), and no tracer.
 */
static bool untouched(struct pnl *nl, pid_t pid)
{
	char path[64], line[128];
	struct pnl_status st;
	int tracer = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	f = fopen(path, "r");
	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, "TracerPid:", 10))
			tracer = atoi(line + 10);
	if (f)
		fclose(f);
	return tracer == 0 && pnl_get(nl, pid, &st) == -ENOENT &&
	       pnl_get_kind(nl, pid, PROFIL_KIND_HELD, &st) == -ENOENT;
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

/*
 * start -F, status, show, stop --keep, show, stop -o: the round trip;
 * the last stop saves the final profile before it unmaps the buffer.
 */
TEST_F(ctl, start_status_show_stop)
{
	pid_t pid = spawn_work("serve");
	char pidstr[16], dir[] = "/tmp/profil_ctl_stop.XXXXXX";
	char csv[sizeof(dir) + 16];
	/* perf's -F, and a leading 0 that is not octal: 500 Hz. */
	const char *start[] = { "start", "-p", pidstr, "-F", "0500", NULL };
	const char *status[] = { "status", "-p", pidstr, NULL };
	const char *status_json[] = { "status", "--format=json", NULL };
	const char *show[] = { "show", "-p", pidstr, "--format=csv", NULL };
	const char *keep[] = { "stop", "--keep", pidstr, NULL };
	const char *stop[] = { "stop", pidstr, "-o", csv, "--format=csv",
			       NULL };
	struct pnl_status st;
	char key[32];

	ASSERT_LT(0, pid);
	ASSERT_NE(NULL, mkdtemp(dir));
	snprintf(csv, sizeof(csv), "%s/final.csv", dir);
	snprintf(pidstr, sizeof(pidstr), "%d", (int)pid);
	ASSERT_EQ(0, exit_code(ctl(start, self->out, self->err)));
	ASSERT_EQ(0, pnl_get(&self->nl, pid, &st));
	EXPECT_EQ(PROFIL_STATE_ACTIVE, st.state);
	EXPECT_EQ(500, st.rate);
	EXPECT_TRUE(burn_samples(&self->nl, pid, 0.5, 100));

	EXPECT_EQ(0, exit_code(ctl(status, self->out, self->err)));
	EXPECT_NE(NULL, strstr(self->out, " active "));
	EXPECT_EQ(0, exit_code(ctl(status_json, self->out, self->err)));
	snprintf(key, sizeof(key), "{\"pid\": %d,", (int)pid);
	EXPECT_NE(NULL, strstr(self->out, key));

	EXPECT_EQ(0, exit_code(ctl(show, self->out, self->err)));
	EXPECT_HOT_SHARES(self->out);

	EXPECT_EQ(0, exit_code(ctl(keep, self->out, self->err)));
	EXPECT_NE(NULL, strstr(self->out, "kept"));
	EXPECT_EQ(0, exit_code(ctl(show, self->out, self->err)));
	EXPECT_GT(csv_count(self->out, "hot_a"), 0);

	EXPECT_EQ(0, exit_code(ctl(stop, self->out, self->err)));
	EXPECT_NE(NULL, strstr(self->out, "unmapped; profile saved in "));
	ASSERT_EQ(0, pnl_get(&self->nl, pid, &st));
	EXPECT_EQ(PROFIL_STATE_STOPPED, st.state);
	/* Unmapped: show has nothing to read any more; the file has it. */
	EXPECT_EQ(1, exit_code(ctl(show, self->out, self->err)));
	EXPECT_NE(NULL, strstr(self->err, "Bad address"));
	EXPECT_EQ(0, read_file(csv, self->out, OUT_MAX));
	EXPECT_HOT_SHARES(self->out);
	unlink(csv);
	rmdir(dir);
	EXPECT_TRUE(burn(pid, 0.1));
	EXPECT_TRUE(end_work(pid));
}

/* A program's own profil() buffer: show reads it, stop leaves it. */
TEST_F(ctl, show_a_programs_own_buffer)
{
	pid_t pid = spawn_work("self");
	char pidstr[16];
	const char *show[] = { "show", pidstr, "--format=csv", NULL };
	const char *stop[] = { "stop", pidstr, NULL };
	struct pnl_status st;

	ASSERT_LT(0, pid);
	snprintf(pidstr, sizeof(pidstr), "%d", (int)pid);
	/* Its profil() samples at 100 Hz: 50 in 0.5 s, fewer if late. */
	ASSERT_TRUE(burn_samples(&self->nl, pid, 0.5, 100));
	EXPECT_EQ(0, exit_code(ctl(show, self->out, self->err)));
	EXPECT_HOT_SHARES(self->out);
	EXPECT_EQ(0, exit_code(ctl(stop, self->out, self->err)));
	EXPECT_NE(NULL, strstr(self->out, "left alone"));
	ASSERT_EQ(0, pnl_get_traced(&self->nl, pid, &st));
	EXPECT_TRUE(mapped_in(pid, st.buf));
	end_work(pid);
}

/*
 * A program that profiles itself (profil(), as monstartup() and -pg do):
 * start leaves it alone (START would replace its session, and it would
 * lose its profile); attach and top -p follow it in a kernel-held
 * session of their own, next to its session, which runs on, same
 * buffer, still counting.
 */
TEST_F(ctl, profiled_program_not_replaced)
{
	pid_t pid = spawn_work("self");
	char pidstr[16];
	const char *start[] = { "start", pidstr, NULL };
	const char *top[] = { "top", "-p", pidstr, "-d", "0.5", NULL };
	const char *attach_csv[] = { "attach", pidstr, "-d", "0.5",
				     "--format=csv", NULL };
	struct pnl_status before, after;

	ASSERT_LT(0, pid);
	snprintf(pidstr, sizeof(pidstr), "%d", (int)pid);
	ASSERT_TRUE(burn(pid, 0.1));
	ASSERT_EQ(0, pnl_get(&self->nl, pid, &before));
	ASSERT_EQ(PROFIL_STATE_ACTIVE, before.state);
	EXPECT_EQ(1, exit_code(ctl(start, self->out, self->err)))
		TH_LOG("%s", self->err);
	EXPECT_NE(NULL, strstr(self->err, "has an active profil session"))
		TH_LOG("%s", self->err);
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
		{ "start", { "--system-ticks", "-r, --rate=HZ" } },
		{ "stop", { "--keep", "-p, --pid=PID" } },
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

/*
 * Whether the status line of @pid in @out shows "-" for BUF and OFFSET,
 * the addresses the kernel tells only the process's tracer.
 */
static bool status_addrs_hidden(const char *out, pid_t pid)
{
	char state[16], reason[16], buf[24], offset[24];
	unsigned long long bufsiz;
	unsigned int rate;
	const char *line;
	int p;

	for (line = out; line && *line; line = strchr(line, '\n')) {
		line += *line == '\n';
		if (sscanf(line, "%d %15s %15s %u %23s %llu %23s", &p, state,
			   reason, &rate, buf, &bufsiz, offset) == 7 &&
		    p == pid)
			return !strcmp(buf, "-") && !strcmp(offset, "-");
	}
	return false;
}

/*
 * start, status, show, stop: the round trip as nobody on its process.
 * start, show and stop seize it for their requests, as profil.ko wants
 * another process's tracer; status does not, and shows no addresses.
 */
TEST_F(ctl, start_status_show_stop_as_nobody)
{
	char dir[] = "/tmp/profil_ctl_nobody.XXXXXX", csv[sizeof(dir) + 8];
	pid_t pid;
	char pidstr[16];
	const char *start[] = { "start", "-p", pidstr, "--rate", "500", NULL };
	const char *status[] = { "status", "-p", pidstr, NULL };
	const char *show[] = { "show", pidstr, "--format=csv", "-o", csv,
			       NULL };
	const char *stop[] = { "stop", pidstr, NULL };
	struct pnl_status st;

	NEED_NOBODY(true);
	ASSERT_NE(NULL, nobody_dir(dir));
	snprintf(csv, sizeof(csv), "%s/show.csv", dir);
	pid = spawn_work_as(NOBODY, self->stage.work, "serve");
	ASSERT_LT(0, pid);
	snprintf(pidstr, sizeof(pidstr), "%d", (int)pid);
	EXPECT_EQ(0, exit_code(ctl_nobody(&self->stage, start, self->out,
					  self->err)));
	ASSERT_EQ(0, pnl_get(&self->nl, pid, &st));
	EXPECT_EQ(PROFIL_STATE_ACTIVE, st.state);
	EXPECT_EQ(500, st.rate);
	EXPECT_TRUE(burn_samples(&self->nl, pid, 0.5, 100));

	EXPECT_EQ(0, exit_code(ctl_nobody(&self->stage, status, self->out,
					  self->err)));
	EXPECT_NE(NULL, strstr(self->out, " active "));
	EXPECT_TRUE(status_addrs_hidden(self->out, pid)) TH_LOG("%s", self->out);
	EXPECT_EQ(0, exit_code(ctl_nobody(&self->stage, show, self->out,
					  self->err)));
	EXPECT_EQ(NOBODY, owner(csv));
	EXPECT_EQ(0, read_file(csv, self->out, OUT_MAX));
	EXPECT_HOT_SHARES(self->out);

	EXPECT_EQ(0, exit_code(ctl_nobody(&self->stage, stop, self->out,
					  self->err)));
	EXPECT_NE(NULL, strstr(self->out, "unmapped"));
	ASSERT_EQ(0, pnl_get(&self->nl, pid, &st));
	EXPECT_EQ(PROFIL_STATE_STOPPED, st.state);
	EXPECT_EQ(PROFIL_STOP_REQUEST, st.reason);
	EXPECT_TRUE(burn(pid, 0.1));
	EXPECT_TRUE(end_work(pid));
	unlink(csv);
	rmdir(dir);
}

/* nobody may not profile root's process, nor read or stop its session. */
TEST_F(ctl, other_users_process_refused)
{
	pid_t pid;
	char pidstr[16];
	const char *attach[] = { "attach", "-p", pidstr, "-d", "1", NULL };
	const char *start[] = { "start", pidstr, NULL };
	const char *stop[] = { "stop", pidstr, NULL };
	const char *show[] = { "show", pidstr, NULL };
	const char *root_start[] = { "start", pidstr, NULL };
	const char *root_stop[] = { "stop", pidstr, NULL };

	if (geteuid())
		SKIP(return, "switching to nobody needs root");
	stage_for_nobody(_metadata, &self->stage);
	pid = spawn_work("serve");
	ASSERT_LT(0, pid);
	snprintf(pidstr, sizeof(pidstr), "%d", (int)pid);
	EXPECT_EQ(1, exit_code(ctl_nobody(&self->stage, attach, self->out,
					  self->err)));
	EXPECT_NE(NULL, strstr(self->err, "Operation not permitted"));
	EXPECT_EQ(1, exit_code(ctl_nobody(&self->stage, start, self->out,
					  self->err)));
	EXPECT_NE(NULL, strstr(self->err, "Operation not permitted"));

	ASSERT_EQ(0, exit_code(ctl(root_start, self->out, self->err)));
	EXPECT_EQ(1, exit_code(ctl_nobody(&self->stage, show, self->out,
					  self->err)));
	EXPECT_NE(NULL, strstr(self->err, "ptrace: Operation not permitted"));
	EXPECT_EQ(1, exit_code(ctl_nobody(&self->stage, stop, self->out,
					  self->err)));
	EXPECT_NE(NULL, strstr(self->err, "ptrace: Operation not permitted"));
	EXPECT_EQ(0, exit_code(ctl(root_stop, self->out, self->err)));
	end_work(pid);
}

PROFIL_OPEN_TIMER_CLOCK
PROFIL_HARNESS_MAIN
