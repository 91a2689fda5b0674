// SPDX-License-Identifier: GPL-2.0
/*
 * libprofil's -pg runtime against the real profil.ko: pg_work (see there)
 * built with -lprofil, with -pg -mfentry and libprofil.a, and with glibc's
 * runtime alone (run as is, and with LD_PRELOAD=libprofil.so.1). Each test
 * runs one mode in a fresh directory and compares the arcs the program
 * says it made with those gprof -b -q prints: every arc whose caller lies
 * in the program, with its exact count, and no other.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "profil_harness.h"
#include "profil.h"

#ifndef LIBPROFIL_SO
#define LIBPROFIL_SO "libprofil.so.1"
#endif
#ifndef PROFIL_CTL
#define PROFIL_CTL "profil-ctl"
#endif

#define MAX_ARCS	64
#define NAME_MAX_LEN	64
#define OUT_MAX		65536

struct arc {
	char from[NAME_MAX_LEN];
	char to[NAME_MAX_LEN];
	unsigned long long n;
};

struct arcs {
	struct arc a[MAX_ARCS];
	int n;
};

static void arcs_add(struct arcs *s, const char *from, const char *to,
		     unsigned long long n)
{
	int i;

	for (i = 0; i < s->n; i++)
		if (!strcmp(s->a[i].from, from) && !strcmp(s->a[i].to, to)) {
			s->a[i].n += n;
			return;
		}
	if (s->n == MAX_ARCS)
		return;
	snprintf(s->a[s->n].from, NAME_MAX_LEN, "%s", from);
	snprintf(s->a[s->n].to, NAME_MAX_LEN, "%s", to);
	s->a[s->n++].n = n;
}

static unsigned long long arcs_get(const struct arcs *s, const char *from,
				   const char *to)
{
	int i;

	for (i = 0; i < s->n; i++)
		if (!strcmp(s->a[i].from, from) && !strcmp(s->a[i].to, to))
			return s->a[i].n;
	return 0;
}

static unsigned long long arcs_sum(const struct arcs *s)
{
	unsigned long long sum = 0;
	int i;

	for (i = 0; i < s->n; i++)
		sum += s->a[i].n;
	return sum;
}

/* The "<tag> caller callee count" lines of the program's output. */
static void arcs_expected(const char *out, const char *tag, struct arcs *s)
{
	char from[NAME_MAX_LEN], to[NAME_MAX_LEN], t[16];
	unsigned long long n;
	const char *line;

	s->n = 0;
	for (line = out; line && *line; line = strchr(line, '\n'),
	     line = line ? line + 1 : NULL)
		if (sscanf(line, "%15s %63s %63s %llu", t, from, to, &n) == 4 &&
		    !strcmp(t, tag))
			arcs_add(s, from, to, n);
}

/*
 * gprof -b -q: in each entry (between dashed lines) the line opening with
 * "[index]" is the function; the lines before it are its callers, whose
 * count ("n/total", or "n" for a recursive call) stands before the name.
 * Every function called has an entry (a caller that was never called
 * itself, main say, has none), so its callers' lines hold every arc.
 */
static int arcs_gprof(const char *exe, const char *gmon, struct arcs *s)
{
	char cmd[PATH_MAX * 3 + 64], line[512];
	char from[8][NAME_MAX_LEN];
	unsigned long long n[8];
	int ntok, nfrom = 0, i;
	char *tok[16], *p;
	bool done = false;
	FILE *f;

	s->n = 0;
	snprintf(cmd, sizeof(cmd), "gprof -b -q '%s' '%s' 2>&1", exe, gmon);
	f = popen(cmd, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		/* The index: read to the end, or gprof gets SIGPIPE. */
		done = done || !strncmp(line, "Index by function name", 22);
		if (done)
			continue;
		if (line[0] == '-') {
			nfrom = 0;
			continue;
		}
		for (ntok = 0, p = strtok(line, " \t\n"); p && ntok < 16;
		     p = strtok(NULL, " \t\n"))
			tok[ntok++] = p;
		if (ntok < 3 || tok[ntok - 1][0] != '[')
			continue;
		if (tok[0][0] == '[') {
			for (i = 0; i < nfrom; i++)
				arcs_add(s, from[i], tok[ntok - 2], n[i]);
			nfrom = 8;	/* children follow: not callers */
			continue;
		}
		if (nfrom < 8) {
			snprintf(from[nfrom], NAME_MAX_LEN, "%s", tok[ntok - 2]);
			n[nfrom++] = strtoull(tok[ntok - 3], NULL, 10);
		}
	}
	return pclose(f) == 0 ? 0 : -1;
}

/* Every expected arc with its count in gprof's, and no other in gprof's. */
static int arcs_match(struct __test_metadata *_metadata,
		      const struct arcs *want, const struct arcs *got)
{
	int i, bad = 0;

	for (i = 0; i < want->n; i++) {
		unsigned long long g = arcs_get(got, want->a[i].from,
						want->a[i].to);

		TH_LOG("%s -> %s: %llu calls, gprof %llu", want->a[i].from,
		       want->a[i].to, want->a[i].n, g);
		bad += g != want->a[i].n;
	}
	for (i = 0; i < got->n; i++)
		if (!arcs_get(want, got->a[i].from, got->a[i].to)) {
			TH_LOG("unexpected arc %s -> %s (%llu)",
			       got->a[i].from, got->a[i].to, got->a[i].n);
			bad++;
		}
	return bad;
}

static char *slurp(const char *path)
{
	char *buf = calloc(1, OUT_MAX);
	int fd = open(path, O_RDONLY);
	ssize_t n;

	if (fd >= 0 && buf) {
		n = read(fd, buf, OUT_MAX - 1);
		buf[n > 0 ? n : 0] = '\0';
	}
	if (fd >= 0)
		close(fd);
	return buf;
}

FIXTURE(pg) {
	char dir[64];
	char bindir[PATH_MAX];
	char exe[PATH_MAX + NAME_MAX_LEN];
	char *out;
	char *err;
	pid_t pid;
	int status;
};

FIXTURE_SETUP(pg)
{
	struct profil_handle *h = profil_handle_open();
	char me[PATH_MAX];
	ssize_t n;

	if (!h && errno == ENOSYS)
		SKIP(return, "profil.ko not loaded");
	profil_handle_close(h);
	if (system("gprof --version >/dev/null 2>&1"))
		SKIP(return, "no gprof");
	n = readlink("/proc/self/exe", me, sizeof(me) - 1);
	ASSERT_LT(0, n);
	me[n] = '\0';
	snprintf(self->bindir, sizeof(self->bindir), "%s", dirname(me));
	snprintf(self->dir, sizeof(self->dir), "/tmp/pg_test.XXXXXX");
	ASSERT_NE(NULL, mkdtemp(self->dir));
	self->out = NULL;
	self->err = NULL;
}

FIXTURE_TEARDOWN(pg)
{
	char cmd[128];

	free(self->out);
	free(self->err);
	if (self->dir[0] == '/') {
		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", self->dir);
		if (system(cmd))
			TH_LOG("could not remove %s", self->dir);
	}
}

/*
 * Runs @prog (in the test's own directory) with @args in self->dir, with
 * PROFIL_HZ=1000 and the NAME=value strings of @env; its output goes to
 * self->out and self->err. With @via, @prog runs under it (profil-ctl).
 */
static int run(struct __test_metadata *_metadata,
	       FIXTURE_DATA(pg) *self, const char *const *via,
	       const char *prog, const char *const *args,
	       const char *const *env)
{
	char o[PATH_MAX], e[PATH_MAX];
	const char *argv[32];
	int i = 0, j;

	snprintf(self->exe, sizeof(self->exe), "%s/%s", self->bindir, prog);
	snprintf(o, sizeof(o), "%s/stdout", self->dir);
	snprintf(e, sizeof(e), "%s/stderr", self->dir);
	for (j = 0; via && via[j]; j++)
		argv[i++] = via[j];
	argv[i++] = self->exe;
	for (j = 0; args[j]; j++)
		argv[i++] = args[j];
	argv[i] = NULL;
	fflush(NULL);
	self->pid = fork();
	if (!self->pid) {
		if (chdir(self->dir) || !freopen(o, "w", stdout) ||
		    !freopen(e, "w", stderr))
			_exit(99);
		unsetenv("GMON_OUT_PREFIX");
		setenv("PROFIL_HZ", "1000", 1);
		for (j = 0; env && env[j]; j++)
			putenv((char *)env[j]);
		execv(argv[0], (char **)argv);
		_exit(98);
	}
	if (self->pid < 0 || waitpid(self->pid, &self->status, 0) != self->pid)
		return -1;
	free(self->out);
	free(self->err);
	self->out = slurp(o);
	self->err = slurp(e);
	if (self->err && self->err[0])
		TH_LOG("stderr: %s", self->err);
	return WIFEXITED(self->status) ? WEXITSTATUS(self->status) : -1;
}

static const char *in_dir(FIXTURE_DATA(pg) *self, char *buf, size_t len,
			  const char *file)
{
	snprintf(buf, len, "%s/%s", self->dir, file);
	return buf;
}

/* Runs @prog @mode and checks gprof's arcs of @gmon against the output. */
static void check_mode(struct __test_metadata *_metadata,
		       FIXTURE_DATA(pg) *self, const char *prog,
		       const char *mode, const char *const *env)
{
	const char *args[] = { mode, NULL };
	struct arcs want, got;
	char gmon[PATH_MAX + 32], name[64];

	ASSERT_EQ(0, run(_metadata, self, NULL, prog, args, env));
	snprintf(name, sizeof(name), "pg.%ld", (long)self->pid);
	arcs_expected(self->out, "arc", &want);
	ASSERT_LT(0, want.n);
	ASSERT_EQ(0, arcs_gprof(self->exe, in_dir(self, gmon, sizeof(gmon),
						  name), &got));
	EXPECT_EQ(0, arcs_match(_metadata, &want, &got));
}

static const char *const prefix_env[] = { "GMON_OUT_PREFIX=pg", NULL };

/* 8 threads, exact counts; issue 12's table: glibc kept 30 % of them. */
TEST_F_TIMEOUT(pg, threads, 300)
{
	check_mode(_metadata, self, "pg_work", "threads", prefix_env);
}

TEST_F_TIMEOUT(pg, threads_fentry, 300)
{
	check_mode(_metadata, self, "pg_work_fentry", "threads", prefix_env);
}

/* An unmodified -pg program of glibc's, with libprofil preloaded. */
TEST_F_TIMEOUT(pg, threads_preload, 300)
{
	static const char *const env[] = {
		"GMON_OUT_PREFIX=pg", "LD_PRELOAD=" LIBPROFIL_SO, NULL
	};

	check_mode(_metadata, self, "pg_work_glibc", "threads", env);
}

/* The same program with glibc's runtime: logged, for comparison. */
TEST_F_TIMEOUT(pg, threads_glibc_for_comparison, 300)
{
	const char *args[] = { "threads", NULL };
	struct arcs want, got;
	char gmon[PATH_MAX + 32];
	int i;

	ASSERT_EQ(0, run(_metadata, self, NULL, "pg_work_glibc", args,
			 prefix_env));
	arcs_expected(self->out, "arc", &want);
	snprintf(gmon, sizeof(gmon), "%s/pg.%ld", self->dir, (long)self->pid);
	ASSERT_EQ(0, arcs_gprof(self->exe, gmon, &got));
	for (i = 0; i < want.n; i++) {
		unsigned long long g = arcs_get(&got, want.a[i].from,
						want.a[i].to);

		TH_LOG("glibc: %s -> %s: %llu calls, gprof %llu (%.0f %%)",
		       want.a[i].from, want.a[i].to, want.a[i].n, g,
		       100.0 * g / want.a[i].n);
		EXPECT_GE(want.a[i].n, g);
	}
}

TEST_F(pg, recursion)
{
	check_mode(_metadata, self, "pg_work", "recurse", prefix_env);
}

/*
 * A handler that interrupts mcount records its calls like any other: the
 * arc table is lock-free, so the interrupted call goes on afterwards.
 */
TEST_F_TIMEOUT(pg, signal_handler, 300)
{
	const char *args[] = { "signal", "2000000", NULL };
	struct arcs want, got;
	char gmon[PATH_MAX + 32];

	ASSERT_EQ(0, run(_metadata, self, NULL, "pg_work", args, prefix_env));
	TH_LOG("%s", strstr(self->out, "# ") ? strstr(self->out, "# ") : "");
	arcs_expected(self->out, "arc", &want);
	EXPECT_LT(0, arcs_get(&want, "sig_handler", "sig_leaf"));
	snprintf(gmon, sizeof(gmon), "%s/pg.%ld", self->dir, (long)self->pid);
	ASSERT_EQ(0, arcs_gprof(self->exe, gmon, &got));
	EXPECT_EQ(0, arcs_match(_metadata, &want, &got));
}

/*
 * fork() in the middle, without GMON_OUT_PREFIX: the parent writes
 * gmon.out with the parent's calls alone, the child gmon.out.<pid> with
 * the child's calls alone.
 */
TEST_F(pg, fork_child_file)
{
	const char *args[] = { "fork", NULL };
	struct arcs want, got;
	char gmon[PATH_MAX + 32], name[64];
	long child = 0;
	const char *c;

	ASSERT_EQ(0, run(_metadata, self, NULL, "pg_work", args, NULL));
	arcs_expected(self->out, "arc", &want);
	ASSERT_EQ(0, arcs_gprof(self->exe, in_dir(self, gmon, sizeof(gmon),
						  "gmon.out"), &got));
	EXPECT_EQ(0, arcs_match(_metadata, &want, &got));

	c = strstr(self->out, "child ");
	ASSERT_NE(NULL, c);
	child = strtol(c + 6, NULL, 10);
	snprintf(name, sizeof(name), "gmon.out.%ld", child);
	arcs_expected(self->out, "childarc", &want);
	ASSERT_EQ(0, arcs_gprof(self->exe, in_dir(self, gmon, sizeof(gmon),
						  name), &got));
	EXPECT_EQ(0, arcs_match(_metadata, &want, &got));
}

/* gprof's "% time" of @fn in the flat profile, or -1. */
static double flat_pct(const char *exe, const char *gmon, const char *fn)
{
	char cmd[PATH_MAX * 3 + 64], line[512], name[256];
	double pct, best = -1;
	FILE *p;

	snprintf(cmd, sizeof(cmd), "gprof -b -p '%s' '%s' 2>&1", exe, gmon);
	p = popen(cmd, "r");
	if (!p)
		return -1;
	while (fgets(line, sizeof(line), p)) {
		char *last = strrchr(line, ' ');

		if (sscanf(line, " %lf", &pct) == 1 && last &&
		    sscanf(last, " %255s", name) == 1 && !strcmp(name, fn))
			best = pct;
	}
	pclose(p);
	return best;
}

/* The kernel's histogram in the same file: the 50/30/20 bounds. */
TEST_F_TIMEOUT(pg, flat_profile, 120)
{
	const char *args[] = { "flat", "1.0", NULL };
	char gmon[PATH_MAX + 32];
	struct arcs want, got;
	double a, b, c;

	ASSERT_EQ(0, run(_metadata, self, NULL, "pg_work", args, prefix_env));
	snprintf(gmon, sizeof(gmon), "%s/pg.%ld", self->dir, (long)self->pid);
	a = flat_pct(self->exe, gmon, "flat_fifty");
	b = flat_pct(self->exe, gmon, "flat_thirty");
	c = flat_pct(self->exe, gmon, "flat_twenty");
	TH_LOG("gprof -p: flat_fifty %.1f%% flat_thirty %.1f%% "
	       "flat_twenty %.1f%%", a, b, c);
	EXPECT_GT(a + b + c, 95.0);
	EXPECT_GT(a, 35.0);
	EXPECT_LT(a, 65.0);
	EXPECT_GT(b, 15.0);
	EXPECT_LT(b, 45.0);
	EXPECT_GT(c, 5.0);
	EXPECT_LT(c, 35.0);
	arcs_expected(self->out, "arc", &want);
	ASSERT_EQ(0, arcs_gprof(self->exe, gmon, &got));
	EXPECT_EQ(0, arcs_match(_metadata, &want, &got));
}

/* A full table: said once on stderr, with the number of calls lost. */
TEST_F(pg, overflow_reported)
{
	static const char *const env[] = {
		"GMON_OUT_PREFIX=pg", "PROFIL_ARCS=16", NULL
	};
	const char *args[] = { "spread", NULL };
	unsigned long long lost = 0, calls = 0;
	char gmon[PATH_MAX + 32];
	const char *m, *c;
	struct arcs got;

	ASSERT_EQ(0, run(_metadata, self, NULL, "pg_work", args, env));
	c = strstr(self->out, "calls ");
	ASSERT_NE(NULL, c);
	calls = strtoull(c + 6, NULL, 10);
	m = strstr(self->err, "calls lost");
	ASSERT_NE(NULL, m);
	EXPECT_EQ(NULL, strstr(m + 1, "calls lost"));	/* once */
	while (m > self->err && m[-1] != ':')
		m--;
	lost = strtoull(m, NULL, 10);
	snprintf(gmon, sizeof(gmon), "%s/pg.%ld", self->dir, (long)self->pid);
	ASSERT_EQ(0, arcs_gprof(self->exe, gmon, &got));
	TH_LOG("%llu calls: %llu in gprof, %llu lost", calls, arcs_sum(&got),
	       lost);
	EXPECT_LT(0, lost);
	EXPECT_EQ(calls, arcs_sum(&got) + lost);
}

/*
 * Under profil-ctl run the kernel follows the program in a session of
 * another kind (kernel-held): monstartup() starts its own buffer session
 * next to it, as without profil-ctl, and the program writes its
 * gmon.out with its arcs; profil-ctl's profile is there too.
 */
TEST_F(pg, profil_ctl_run_keeps_gmon)
{
	static const char *const via[] = { PROFIL_CTL, "run", "--", NULL };
	const char *args[] = { "recurse", NULL };
	char gmon[PATH_MAX + 32];
	struct arcs got;

	if (access(PROFIL_CTL, X_OK))
		SKIP(return, "no %s", PROFIL_CTL);
	ASSERT_EQ(0, run(_metadata, self, via, "pg_work", args, NULL));
	EXPECT_EQ(NULL, strstr(self->err, "EBUSY")) TH_LOG("%s", self->err);
	EXPECT_NE(NULL, strstr(self->err, "profil-ctl run: 1 process"))
		TH_LOG("%s", self->err);
	in_dir(self, gmon, sizeof(gmon), "gmon.out");
	ASSERT_EQ(0, arcs_gprof(self->exe, gmon, &got));
	EXPECT_LT(0, arcs_sum(&got));
}

PROFIL_HARNESS_MAIN
