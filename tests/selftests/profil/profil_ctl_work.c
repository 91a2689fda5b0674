// SPDX-License-Identifier: GPL-2.0
/*
 * The program profil_ctl_test profiles with profil-ctl. Linked with
 * libprofil.a (its profil() is the kernel-driven one).
 *
 *   spin SECS [STATUS]  SECS of CPU time in hot_a() and hot_b() (3:1 in
 *                       iterations), then exit STATUS (a negative STATUS:
 *                       raise signal -STATUS)
 *   serve               spin and sleep in turns until killed; exit 5 if a
 *                       nanosleep() fails (EINTR from an injection)
 *   signals             a handled signal, raised 3 times, and a SIGSTOP
 *                       ended by SIGCONTs from a child; exit 0 if the
 *                       program saw exactly that, 3 otherwise
 *   self                profil() on its own text into its own buffer,
 *                       then serve (what libprofil programs do)
 *   fork SECS           fork: the child spends SECS of CPU time in
 *                       hot_b(), then the parent as long in hot_a()
 *   dlopen SO SECS [AFTER]  dlopen() SO and spend SECS in its hot_dso();
 *                       first AFTER seconds of CPU time in hot_a(), hot_b()
 *   threads SECS        two threads spend SECS each in hot_a() and
 *                       hot_b(); the main thread leaves first
 *                       (pthread_exit())
 *   spawn SECS          posix_spawn() (a vfork) /bin/true, wait, spin
 *   traceme SECS        fork: the child calls PTRACE_TRACEME, stops, and
 *                       spends SECS in hot_a(); the parent traces it to
 *                       its exit and prints "traced child exited N"
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <poll.h>
#include <pthread.h>
#include <spawn.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* The two hot functions differ in constants, so they are never folded. */
__attribute__((noinline)) unsigned long hot_a(unsigned long n)
{
	volatile unsigned long x = 0x1234;
	unsigned long i;

	for (i = 0; i < n; i++)
		x = x * 2654435761UL + 0xa5a5;
	return x;
}

__attribute__((noinline)) unsigned long hot_b(unsigned long n)
{
	volatile unsigned long x = 0x4321;
	unsigned long i;

	for (i = 0; i < n; i++)
		x = x * 40503UL + 0x5a5a5;
	return x;
}

static double cpu_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static unsigned long spin(double secs)
{
	double end = cpu_now() + secs;
	unsigned long r = 0;

	while (cpu_now() < end) {
		r += hot_a(30000);
		r += hot_b(10000);
	}
	return r;
}

static void serve(void)
{
	const struct timespec nap = { 0, 20 * 1000 * 1000 };

	for (;;) {
		spin(0.02);
		if (nanosleep(&nap, NULL) < 0) {
			perror("nanosleep");
			exit(5);
		}
	}
}

static volatile sig_atomic_t usr1_seen;

static void on_usr1(int sig)
{
	(void)sig;
	usr1_seen++;
}

static int signals(void)
{
	struct sigaction sa = { .sa_handler = on_usr1 };
	struct pollfd pfd = { .events = POLLIN };
	int i, st, woke[2];
	pid_t helper;

	sigaction(SIGUSR1, &sa, NULL);
	for (i = 0; i < 3; i++) {
		raise(SIGUSR1);
		spin(0.05);
	}
	if (pipe(woke) < 0)
		return 3;
	helper = fork();
	if (helper < 0)
		return 3;
	if (!helper) {
		/* SIGCONT until the parent says it is running again. */
		close(woke[1]);
		pfd.fd = woke[0];
		do
			kill(getppid(), SIGCONT);
		while (poll(&pfd, 1, 50) == 0);
		_exit(0);
	}
	close(woke[0]);
	raise(SIGSTOP);
	close(woke[1]);
	if (waitpid(helper, &st, 0) != helper || !WIFEXITED(st) ||
	    WEXITSTATUS(st))
		return 3;
	spin(0.1);
	return usr1_seen == 3 ? 0 : 3;
}

extern char __executable_start[], etext[];

static void self(void)
{
	unsigned long low = (unsigned long)__executable_start & ~3UL;
	size_t nbins = ((unsigned long)etext - low) / 4 + 1;
	unsigned short *buf = calloc(nbins, sizeof(*buf));

	/* Exact 4-byte bins: scale 32768, as monstartup() picks. */
	if (!buf || profil(buf, nbins * sizeof(*buf), low, 32768) < 0) {
		perror("profil");
		exit(4);
	}
	serve();
}

static double thread_cpu_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static double thread_secs;

static void *thread_spin(void *hot)
{
	double end = thread_cpu_now() + thread_secs;
	unsigned long r = 0;

	while (thread_cpu_now() < end)
		r += ((unsigned long (*)(unsigned long))hot)(10000);
	return (void *)r;
}

static int threads(double secs)
{
	pthread_t a, b;

	thread_secs = secs;
	if (pthread_create(&a, NULL, thread_spin, (void *)hot_a) ||
	    pthread_create(&b, NULL, thread_spin, (void *)hot_b))
		return 3;
	pthread_exit(NULL);
}

static unsigned long spin_in(unsigned long (*hot)(unsigned long),
			     double secs)
{
	double end = cpu_now() + secs;
	unsigned long r = 0;

	while (cpu_now() < end)
		r += hot(10000);
	return r;
}

static int forked(double secs)
{
	pid_t pid = fork();
	int st;

	if (pid < 0)
		return 3;
	if (!pid)
		_exit(spin_in(hot_b, secs) == 1);
	if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st))
		return 3;
	spin_in(hot_a, secs);
	return WEXITSTATUS(st);
}

static int dso(const char *so, double secs, double after)
{
	unsigned long (*hot)(unsigned long);
	void *h;

	spin(after);
	h = dlopen(so, RTLD_NOW);
	if (!h) {
		fprintf(stderr, "%s\n", dlerror());
		return 3;
	}
	hot = (unsigned long (*)(unsigned long))dlsym(h, "hot_dso");
	if (!hot)
		return 3;
	spin_in(hot, secs);
	return 0;
}

static int spawn(double secs)
{
	char *argv[] = { "true", NULL };
	pid_t pid;
	int st;

	if (posix_spawn(&pid, "/bin/true", NULL, NULL, argv, environ) ||
	    waitpid(pid, &st, 0) != pid)
		return 3;
	spin(secs);
	return 0;
}

/* A program that is its child's debugger, as gdb and strace are. */
static int traceme(double secs)
{
	pid_t pid = fork();
	int st;

	if (pid < 0)
		return 3;
	if (!pid) {
		if (ptrace(PTRACE_TRACEME, 0, NULL, NULL) < 0) {
			perror("PTRACE_TRACEME");
			_exit(4);
		}
		raise(SIGSTOP);
		_exit(spin_in(hot_a, secs) == 1);
	}
	if (waitpid(pid, &st, 0) != pid || !WIFSTOPPED(st))
		return 3;
	/* Resume it through its stops until it exits. */
	while (WIFSTOPPED(st)) {
		int sig = WSTOPSIG(st) == SIGSTOP ? 0 : WSTOPSIG(st);

		if (ptrace(PTRACE_CONT, pid, NULL, (void *)(long)sig) < 0 ||
		    waitpid(pid, &st, 0) != pid)
			return 3;
	}
	if (!WIFEXITED(st))
		return 3;
	printf("traced child exited %d\n", WEXITSTATUS(st));
	return WEXITSTATUS(st);
}

int main(int argc, char **argv)
{
	int status;

	setvbuf(stdout, NULL, _IONBF, 0);
	if (argc >= 3 && !strcmp(argv[1], "spin")) {
		spin(atof(argv[2]));
		status = argc > 3 ? atoi(argv[3]) : 0;
		if (status < 0)
			raise(-status);
		return status;
	}
	if (argc == 2 && !strcmp(argv[1], "serve"))
		serve();
	if (argc == 2 && !strcmp(argv[1], "signals"))
		return signals();
	if (argc == 2 && !strcmp(argv[1], "self"))
		self();
	if (argc == 3 && !strcmp(argv[1], "fork"))
		return forked(atof(argv[2]));
	if ((argc == 4 || argc == 5) && !strcmp(argv[1], "dlopen"))
		return dso(argv[2], atof(argv[3]), argc == 5 ? atof(argv[4]) : 0);
	if (argc == 3 && !strcmp(argv[1], "threads"))
		return threads(atof(argv[2]));
	if (argc == 3 && !strcmp(argv[1], "spawn"))
		return spawn(atof(argv[2]));
	if (argc == 3 && !strcmp(argv[1], "traceme"))
		return traceme(atof(argv[2]));
	fprintf(stderr, "usage: %s spin SECS [STATUS] | serve | signals | "
		"self | fork SECS | dlopen SO SECS [AFTER] | threads SECS | "
		"spawn SECS | traceme SECS\n", argv[0]);
	return 2;
}
