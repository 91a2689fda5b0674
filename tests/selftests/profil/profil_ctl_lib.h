/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the tests of profil-ctl's live commands share (profil_ctl_test.c,
 * ctl_start_test.c): running the tree's profil-ctl (as nobody too, from a
 * copy staged under /tmp), the workload profil_ctl_work next to the test,
 * reading its --format=csv tables, waiting on CPU time, and whether a
 * process is as profil-ctl found it. Include it after profil_harness.h,
 * profil_nl.h, profil_util.h and profil_proc.h.
 */
#ifndef PROFIL_CTL_LIB_H
#define PROFIL_CTL_LIB_H

#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <sys/wait.h>

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
static inline const char *work_path(void)
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

static inline void slurp(int fd, char *buf, size_t len)
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
static inline int ctl_as(uid_t uid, const char *prog, const char *const *args,
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

static inline int ctl(const char *const *args, char *out, char *err)
{
	return ctl_as((uid_t)-1, PROFIL_CTL, args, out, err);
}

static inline int exit_code(int st)
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

static inline int csv_field(const char *line, int idx, char *buf, size_t len)
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

static inline const char *csv_header(const char *csv, struct csv_cols *c)
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
static inline double csv_count_pid(const char *csv, const char *func, pid_t pid)
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

static inline double csv_count(const char *csv, const char *func)
{
	return csv_count_pid(csv, func, 0);
}

/* Sum of the counts of a --format=csv function table. */
static inline double csv_total(const char *csv)
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
static inline int csv_pids(const char *csv, const char *func, pid_t *pids, int n)
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
static inline double children_cpu(void)
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

static inline int read_accounting(const char *err, struct accounting *a)
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
static inline double proc_user_cpu(pid_t pid)
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
static inline bool burn(pid_t pid, double secs)
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
static inline bool burn_samples(struct pnl *nl, pid_t pid, double secs, uint64_t n)
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
static inline pid_t spawn_work_as(uid_t uid, const char *prog, const char *mode)
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

static inline pid_t spawn_work(const char *mode)
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
static inline void stage_for_nobody(struct __test_metadata *_metadata,
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

static inline void unstage(struct stage *s)
{
	if (!s->dir[0])
		return;
	unlink(s->ctl);
	unlink(s->work);
	rmdir(s->dir);
	s->dir[0] = '\0';
}

/* profil-ctl @args as nobody: the copy staged in @s. */
static inline int ctl_nobody(const struct stage *s, const char *const *args,
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
static inline char *nobody_dir(char *dir)
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
static inline int read_file(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -1;
	slurp(fd, buf, len);
	return 0;
}

/* The owner of @path, -1 if none. */
static inline uid_t owner(const char *path)
{
	struct stat sb;

	return stat(path, &sb) ? (uid_t)-1 : sb.st_uid;
}

/* SIGTERM @pid; true if that is what ended it (it ran on till then). */
static inline bool end_work(pid_t pid)
{
	int st;

	kill(pid, SIGTERM);
	return waitpid(pid, &st, 0) == pid && WIFSIGNALED(st) &&
	       WTERMSIG(st) == SIGTERM;
}

/* Whether @addr of @pid is mapped: a word of it can be read. */
static inline bool mapped_in(pid_t pid, uint64_t addr)
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

/* The TracerPid of @pid, -1 if unknown. */
static inline int tracer_pid(pid_t pid)
{
	char path[64], line[128];
	int tracer = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	f = fopen(path, "r");
	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, "TracerPid:", 10))
			tracer = atoi(line + 10);
	if (f)
		fclose(f);
	return tracer;
}

/*
 * Whether @pid is as profil-ctl found it: no session of either kind (the
 * kernel-held one ended with profil-ctl's socket, no buffer was ever
 * made in it), and no tracer.
 */
static inline bool untouched(struct pnl *nl, pid_t pid)
{
	struct pnl_status st;

	return tracer_pid(pid) == 0 && pnl_get(nl, pid, &st) == -ENOENT &&
	       pnl_get_kind(nl, pid, PROFIL_KIND_HELD, &st) == -ENOENT;
}

#endif /* PROFIL_CTL_LIB_H */
