// SPDX-License-Identifier: GPL-2.0
/*
 * The tracer of profil-ctl run and attach: a whole program under ptrace.
 *
 * Every thread of every process of the program is seized with ptrace
 * (PTRACE_SEIZE, so that job-control stops are told apart from signals;
 * PTRACE_O_TRACECLONE, and TRACEFORK/TRACEVFORK unless --no-inherit).
 * Each process image gets its own counters and session (coverage.h) at
 * its first injectable stop: run's program after its execve(), a fork
 * child before its first instruction, attach's process at its
 * PTRACE_INTERRUPT stop. A vfork child shares its parent's memory, so it
 * is set up only once it execs. While the program runs, a timer has
 * each process's new executable mappings covered (ld.so's libraries,
 * dlopen()). A process's counters are read at the exit stop of its last
 * thread, while its address space still exists; an execve() takes the
 * old image's counters with it, and the kernel's count of them is
 * reported as lost at exec.
 *
 * At the end of attach, or when run's program exits while some of its
 * processes live on, those are stopped, read, cleaned and detached.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <linux/kcmp.h>
#include <sys/ptrace.h>
#include <sys/signalfd.h>
#include <sys/syscall.h>
#include <sys/timerfd.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "ctl.h"
#include "trace.h"
#include "tracer.h"

/* How often new mappings are looked for: often at first, while ld.so
 * maps the libraries, then less.
 */
#define POLL_YOUNG_NS	10000000LL	/* 10 ms, for the first ... */
#define POLL_YOUTH_NS	200000000LL	/* ... 200 ms of an image */
#define POLL_OLD_NS	100000000LL	/* 100 ms */

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static struct ttask *task_find(struct trace *t, pid_t tid)
{
	size_t i;

	for (i = 0; i < t->ntasks; i++)
		if (t->tasks[i].tid == tid)
			return &t->tasks[i];
	return NULL;
}

static struct tproc *proc_find(struct trace *t, pid_t pid)
{
	size_t i;

	for (i = 0; i < t->nprocs; i++)
		if (t->procs[i]->pid == pid && t->procs[i]->threads)
			return t->procs[i];
	return NULL;
}

struct tproc *trace_proc_new(struct trace *t, pid_t pid, pid_t ppid)
{
	struct tproc **v, *p = calloc(1, sizeof(*p));

	v = p ? realloc(t->procs, (t->nprocs + 1) * sizeof(*v)) : NULL;
	if (!v) {
		free(p);
		return NULL;
	}
	t->procs = v;
	p->pid = pid;
	p->ppid = ppid;
	p->known = true;	/* the first process: run's or attach's */
	t->procs[t->nprocs++] = p;
	return p;
}

struct ttask *trace_task_new(struct trace *t, pid_t tid, struct tproc *p)
{
	struct ttask *v = realloc(t->tasks, (t->ntasks + 1) * sizeof(*v));

	if (!v)
		return NULL;
	t->tasks = v;
	t->tasks[t->ntasks] = (struct ttask){ .tid = tid, .proc = p };
	p->threads++;
	return &t->tasks[t->ntasks++];
}

static void task_del(struct trace *t, struct ttask *k)
{
	struct tproc *p = k->proc;

	p->threads--;
	*k = t->tasks[--t->ntasks];
	if (!p->threads && !p->cleaned && p->cov.active) {
		/* Gone without an exit stop (killed): its counters with it. */
		t->lost++;
		coverage_free(&p->cov);
	}
}

/* The Tgid and PPid of @tid (/proc/TID/status). Return: 0, or -1. */
static int trace_task_ids(pid_t tid, pid_t *tgid, pid_t *ppid)
{
	char path[64], line[256];
	FILE *f;
	int found = 0;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)tid);
	f = fopen(path, "re");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "Tgid: %d", tgid) == 1 ||
		    sscanf(line, "PPid: %d", ppid) == 1)
			found++;
	fclose(f);
	return found == 2 ? 0 : -1;
}

/*
 * Whether child @child, made by @event of @parent, shares its address
 * space: a fork child never, a vfork child always; a clone child (a
 * process with another exit signal than SIGCHLD) if kcmp(2) says so, or
 * where it cannot tell (a kernel without CONFIG_CHECKPOINT_RESTORE).
 */
static bool shares_mm(int event, pid_t parent, pid_t child)
{
	if (event == PTRACE_EVENT_FORK)
		return false;
	if (event == PTRACE_EVENT_VFORK)
		return true;
	/* 0: the same; 1, 2, 3: not; -1: cannot tell. */
	return syscall(SYS_kcmp, parent, child, KCMP_VM, 0, 0) <= 0;
}

/* How a new process was made is known: what to do with it follows. */
static void proc_known(struct trace *t, struct tproc *p, int event)
{
	p->known = true;
	p->shares_mm = shares_mm(event, p->ppid, p->pid);
	p->need_setup = !p->shares_mm && !t->finishing &&
			(t->options & PTRACE_O_TRACEFORK);
}

/* The event that made @pid, if it came first; 0 if not seen yet. */
static int birth_take(struct trace *t, pid_t pid)
{
	size_t i;
	int event;

	for (i = 0; i < t->nbirths; i++) {
		if (t->births[i].pid != pid)
			continue;
		event = t->births[i].event;
		t->births[i] = t->births[--t->nbirths];
		return event;
	}
	return 0;
}

/*
 * A task we have not seen: a new thread, or a new process (fork, vfork,
 * clone), auto-attached; its first stop may come before its creator's
 * event stop.
 */
static struct ttask *task_adopt(struct trace *t, pid_t tid)
{
	pid_t tgid = 0, ppid = 0;
	struct tproc *p;
	int event;

	if (trace_task_ids(tid, &tgid, &ppid) < 0)
		return NULL;
	if (tgid != tid) {
		p = proc_find(t, tgid);
		return p ? trace_task_new(t, tid, p) : NULL;
	}
	p = trace_proc_new(t, tid, ppid);
	if (!p)
		return NULL;
	p->known = false;
	event = birth_take(t, tid);
	if (event)
		proc_known(t, p, event);
	/* --no-inherit: a new process is let go at its first stop. */
	p->finishing = !(t->options & PTRACE_O_TRACEFORK) || t->finishing;
	p->cleaned = true;	/* nothing of ours in it yet */
	return trace_task_new(t, tid, p);
}

static void proc_setup(struct trace *t, struct tproc *p, struct ttask *k,
		       struct inject_result *res)
{
	int err;

	p->need_setup = false;
	/* attach's process: its own session is not replaced (EEXIST). */
	err = coverage_start(&t->x, &p->cov, p->pid, k->tid, p->ppid,
			     t->attach && p->pid == t->root, res);
	if (!err) {
		p->cleaned = false;
		p->born_ns = now_ns();
		p->next_poll_ns = p->born_ns + POLL_YOUNG_NS;
		return;
	}
	if (res->exiting || res->exited)
		return;
	t->failed = true;
	if (!t->attach && k->tid == t->root) {
		t->killed = true;
		kill(t->root, SIGKILL);
	}
}

/* Read the counters of @p (stopped in @k), and take the mapping out. */
static void proc_clean(struct trace *t, struct tproc *p, struct ttask *k,
		       struct inject_result *res)
{
	if (p->cleaned)
		return;
	if (coverage_finish(&t->x, &p->cov, k->tid) < 0)
		t->failed = true;
	if (!k->exiting)
		inject_munmap(k->tid, p->cov.map_addr, p->cov.map_len, res);
	coverage_free(&p->cov);
	p->cleaned = true;
}

/* An injectable stop of @k: set up, clean up and let go, or resume. */
static void task_stop(struct trace *t, struct ttask *k, int st)
{
	struct tproc *p = k->proc;
	struct inject_result res = { 0 };
	struct tracer_stop s;
	bool injected = false, detach = false;

	tracer_stop_get(k->tid, st, &s);
	if (p->need_setup && !p->finishing && !p->shares_mm) {
		proc_setup(t, p, k, &res);
		injected = true;
	}
	if (p->finishing && !res.exited && !res.exiting) {
		proc_clean(t, p, k, &res);
		injected = true;
		detach = true;
	}
	if (res.exited) {
		task_del(t, k);
		return;
	}
	if (res.exiting) {
		k->exiting = true;
		ptrace(PTRACE_CONT, k->tid, 0, 0);
		return;
	}
	tracer_resume(k->tid, &s, injected, detach);
	inject_redeliver(k->tid, &res);
	if (detach)
		task_del(t, k);
}

/* Its PTRACE_EVENT_EXIT stop: the last thread out reads the counters. */
static void task_exit_stop(struct trace *t, struct ttask *k)
{
	struct tproc *p = k->proc;
	struct inject_result res = { 0 };
	size_t i;
	int live = 0;

	k->exiting = true;
	for (i = 0; i < t->ntasks; i++)
		if (t->tasks[i].proc == p && !t->tasks[i].exiting)
			live++;
	if (!live)
		proc_clean(t, p, k, &res);
	/*
	 * attach's set-up waits for the stop trace_attach() asked of one
	 * thread; if that thread exits first, ask another.
	 */
	if (t->attach && p->need_setup && !p->finishing && live)
		for (i = 0; i < t->ntasks; i++)
			if (t->tasks[i].proc == p && !t->tasks[i].exiting) {
				ptrace(PTRACE_INTERRUPT, t->tasks[i].tid, 0, 0);
				break;
			}
	if (t->attach && p->finishing) {
		ptrace(PTRACE_DETACH, k->tid, 0, 0);
		task_del(t, k);
		return;
	}
	ptrace(PTRACE_CONT, k->tid, 0, 0);
}

static void task_exec(struct trace *t, struct ttask *k)
{
	struct tproc *p = k->proc;
	size_t i;

	/* The other threads are gone; their exits are not all reported. */
	for (i = 0; i < t->ntasks;) {
		if (t->tasks[i].proc == p && t->tasks[i].tid != k->tid) {
			t->tasks[i] = t->tasks[--t->ntasks];
			p->threads--;
			if (k == &t->tasks[t->ntasks])
				k = &t->tasks[i];
		} else {
			i++;
		}
	}
	if (p->cov.active)
		coverage_lost_at_exec(&t->x, &p->cov);
	coverage_free(&p->cov);
	p->cleaned = true;
	p->shares_mm = false;
	p->need_setup = !p->finishing;
	/* The exec stop is too early to inject: stop again later. */
	ptrace(PTRACE_INTERRUPT, k->tid, 0, 0);
	ptrace(PTRACE_CONT, k->tid, 0, 0);
}

/*
 * @k made a process or a thread by @event: a process is told how it was
 * made now if its first stop came first (and that stop is handled), or
 * when it comes.
 */
static void task_birth(struct trace *t, struct ttask *k, int event)
{
	struct trace_birth *v;
	unsigned long msg;
	struct ttask *c;
	struct tproc *p;
	pid_t child, tgid, ppid;

	if (ptrace(PTRACE_GETEVENTMSG, k->tid, 0, &msg) < 0)
		return;
	child = (pid_t)msg;
	c = task_find(t, child);
	if (c) {
		p = c->proc;
		if (p->pid != child || p->known)
			return;	/* a thread, or known */
		proc_known(t, p, event);
		if (p->held) {
			c = task_find(t, p->held_tid);
			if (c)
				task_stop(t, c, p->held);
			p->held = 0;
		}
		return;
	}
	if (event == PTRACE_EVENT_CLONE &&
	    (trace_task_ids(child, &tgid, &ppid) < 0 || tgid != child))
		return;	/* a thread: no process to set up */
	v = realloc(t->births, (t->nbirths + 1) * sizeof(*v));
	if (!v)
		return;
	t->births = v;
	t->births[t->nbirths++] = (struct trace_birth){ child, event };
}

static void trace_event(struct trace *t, pid_t tid, int st)
{
	struct ttask *k = task_find(t, tid);

	if (WIFEXITED(st) || WIFSIGNALED(st)) {
		if (tid == t->root && !t->attach) {
			t->root_exited = true;
			t->wstatus = st;
		}
		if (k)
			task_del(t, k);
		return;
	}
	if (!k)
		k = task_adopt(t, tid);
	if (!k) {
		ptrace(PTRACE_DETACH, tid, 0, 0);	/* not one of ours */
		return;
	}
	switch (tracer_event(st)) {
	case PTRACE_EVENT_EXEC:
		task_exec(t, k);
		return;
	case PTRACE_EVENT_EXIT:
		task_exit_stop(t, k);
		return;
	case 0:
	case PTRACE_EVENT_STOP:
		if (!k->proc->known && !k->proc->finishing) {
			/* Until its creator's event says how it was made. */
			k->proc->held = st;
			k->proc->held_tid = tid;
			return;
		}
		task_stop(t, k, st);
		return;
	case PTRACE_EVENT_FORK:
	case PTRACE_EVENT_VFORK:
	case PTRACE_EVENT_CLONE:
		task_birth(t, k, tracer_event(st));
		/* fall through */
	default:
		ptrace(PTRACE_CONT, tid, 0, 0);
	}
}

static void trace_reap(struct trace *t)
{
	pid_t tid;
	int st;

	while ((tid = waitpid(-1, &st, __WALL | WNOHANG)) > 0)
		trace_event(t, tid, st);
}

/* Let every process go: read each at its next stop, then detach. */
void trace_finish(struct trace *t)
{
	struct ttask *k;
	struct tproc *p;
	size_t i;
	int held;

	if (t->finishing)
		return;
	t->finishing = true;
	for (i = 0; i < t->nprocs; i++) {
		t->procs[i]->finishing = true;
		t->procs[i]->need_setup = false;
	}
	for (i = 0; i < t->ntasks; i++)
		ptrace(PTRACE_INTERRUPT, t->tasks[i].tid, 0, 0);
	/* A child held at its first stop would wait for ever: let it go. */
	for (i = 0; i < t->nprocs; i++) {
		p = t->procs[i];
		held = p->held;
		p->held = 0;
		k = held ? task_find(t, p->held_tid) : NULL;
		if (k)
			task_stop(t, k, held);
	}
}

static void trace_poll(struct trace *t)
{
	long long now = now_ns();
	struct tproc *p;
	size_t i;

	for (i = 0; i < t->nprocs; i++) {
		p = t->procs[i];
		if (!p->cov.active || p->finishing || now < p->next_poll_ns)
			continue;
		coverage_update(&t->x, &p->cov);
		p->next_poll_ns = now + (now - p->born_ns < POLL_YOUTH_NS ?
					 POLL_YOUNG_NS : POLL_OLD_NS);
	}
}

/* A signal to profil-ctl itself. */
static void trace_signal(struct trace *t, const struct signalfd_siginfo *si)
{
	int sig = (int)si->ssi_signo;

	if (sig == SIGCHLD)
		return;
	if (t->attach) {
		trace_finish(t);
		return;
	}
	/*
	 * run: the terminal sent ^C or ^\ to the whole foreground group,
	 * the program has it already; anything else is passed on.
	 */
	if ((sig == SIGINT || sig == SIGQUIT) && si->ssi_code == SI_KERNEL)
		return;
	kill(t->root, sig);
}

static int timer_arm(int fd, long long first_ns, long long period_ns)
{
	struct itimerspec its = {
		.it_value = { first_ns / 1000000000LL, first_ns % 1000000000LL },
		.it_interval = { period_ns / 1000000000LL,
				 period_ns % 1000000000LL },
	};

	if (!first_ns && !period_ns)
		return 0;
	if (!first_ns)
		its.it_value.tv_nsec = 1;
	return timerfd_settime(fd, 0, &its, NULL);
}

int trace_fds(struct trace *t, double duration, int fds[3], sigset_t *old)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGCHLD);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	sigaddset(&set, SIGQUIT);
	if (sigprocmask(SIG_BLOCK, &set, old) < 0)
		return -1;
	fds[0] = signalfd(-1, &set, SFD_CLOEXEC);
	fds[1] = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC);
	fds[2] = -1;
	if (fds[0] < 0 || fds[1] < 0 ||
	    timer_arm(fds[1], POLL_YOUNG_NS, POLL_YOUNG_NS) < 0)
		return -1;
	if (duration > 0) {
		fds[2] = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC);
		if (fds[2] < 0)
			return -1;
		/* At least 1 ns: 0 would be a disarmed timer. */
		t->duration_ns = (long long)(duration * 1e9);
		if (t->duration_ns < 1)
			t->duration_ns = 1;
	}
	return 0;
}

int trace_watch(struct trace *t, int fd, int (*fn)(struct trace *t, void *arg),
		void *arg)
{
	if (t->nwatch >= TRACE_MAX_WATCH) {
		errno = ENOSPC;
		return -1;
	}
	t->watch[t->nwatch++] = (struct trace_watch){ fd, fn, arg };
	return 0;
}

/* The command's fds that are ready: call them, drop those done with. */
static void trace_watched(struct trace *t, const struct pollfd *pfd)
{
	size_t i, n = t->nwatch;
	bool drop[TRACE_MAX_WATCH] = { false };

	for (i = 0; i < n; i++)
		if (pfd[i].revents)
			drop[i] = t->watch[i].fn(t, t->watch[i].arg) < 0;
	for (i = n; i-- > 0;)
		if (drop[i])
			t->watch[i] = t->watch[--t->nwatch];
}

/*
 * Arm --duration's timer @fd once the root process no longer waits for
 * its set-up (done, failed, or the process gone), so that the duration
 * counts profiled time, not profil-ctl's start-up (as perf record -p
 * counts from its events).
 */
static void duration_start(struct trace *t, int fd)
{
	struct tproc *root = proc_find(t, t->root);

	if (fd < 0 || !t->duration_ns ||
	    (root && root->need_setup && !t->failed && !t->finishing))
		return;	/* proc_find(): NULL once the root has no thread */
	if (timer_arm(fd, t->duration_ns, 0) < 0) {
		ctl_perror(t->op);
		t->failed = true;
		trace_finish(t);
	}
	t->duration_ns = 0;	/* armed once */
}

/* Wait for events until nothing is traced any more. */
int trace_loop(struct trace *t, int fds[3])
{
	struct pollfd pfd[3 + TRACE_MAX_WATCH];
	struct signalfd_siginfo si;
	uint64_t expirations;
	size_t i;

	trace_reap(t);
	while (t->ntasks) {
		duration_start(t, fds[2]);
		for (i = 0; i < 3; i++)
			pfd[i] = (struct pollfd){ .fd = fds[i], .events = POLLIN };
		for (i = 0; i < t->nwatch; i++)
			pfd[3 + i] = (struct pollfd){ .fd = t->watch[i].fd,
						      .events = POLLIN };
		if (poll(pfd, 3 + t->nwatch, -1) < 0) {
			if (errno == EINTR)
				continue;
			ctl_perror(t->op);
			return -1;
		}
		if (pfd[0].revents & POLLIN &&
		    read(fds[0], &si, sizeof(si)) == sizeof(si))
			trace_signal(t, &si);
		if (pfd[1].revents & POLLIN &&
		    read(fds[1], &expirations, sizeof(expirations)) > 0)
			trace_poll(t);
		if (fds[2] >= 0 && pfd[2].revents & POLLIN &&
		    read(fds[2], &expirations, sizeof(expirations)) > 0)
			trace_finish(t);
		trace_watched(t, pfd + 3);
		trace_reap(t);
		/* run's program is gone: let the rest of it go. */
		if (t->root_exited && t->ntasks)
			trace_finish(t);
	}
	return 0;
}

void trace_free(struct trace *t)
{
	size_t i;

	for (i = 0; i < t->nprocs; i++) {
		coverage_free(&t->procs[i]->cov);
		free(t->procs[i]);
	}
	free(t->procs);
	free(t->tasks);
	free(t->births);
	coverage_ctx_free(&t->x);
	profile_free(t->x.profile);
}

int trace_result(struct trace *t, const struct live_opts *o)
{
	if (t->lost)
		ctl_errorf(t->op, "%u process%s ended before %s profile could "
			   "be read (killed): not in the profile", t->lost,
			   t->lost == 1 ? "" : "es",
			   t->lost == 1 ? "its" : "their");
	if (!t->x.profile->nprocesses) {
		if (!t->failed)
			ctl_errorf(t->op, "no process was profiled");
		return CTL_EXIT_FAIL;
	}
	return live_profile_report(t->op, t->x.profile, o) || t->failed ?
	       CTL_EXIT_FAIL : CTL_EXIT_OK;
}

int trace_init(struct trace *t, const char *op, const struct live_opts *o,
	       struct profile *profile)
{
	memset(t, 0, sizeof(*t));
	memset(profile, 0, sizeof(*profile));
	t->op = op;
	t->options = PTRACE_O_TRACEEXEC | PTRACE_O_TRACEEXIT |
		     PTRACE_O_TRACECLONE;
	if (!o->no_inherit)
		t->options |= PTRACE_O_TRACEFORK | PTRACE_O_TRACEVFORK;
	profile->rate = o->rate ? o->rate : PROFIL_RATE_DEFAULT;
	profile->bin_bytes = o->bin_bytes;
	t->x = (struct coverage_ctx){
		.op = op,
		.rate = o->rate,
		.flags = o->flags,
		.bin_bytes = o->bin_bytes,
		.profile = profile,
	};
	t->x.h = live_open(op);
	return t->x.h ? 0 : -1;
}

/* The child: wait until seized, then become the program. */
static void spawn_child(const char *op, int gate, const sigset_t *mask,
			bool stdin_null, char **argv)
{
	int fd;
	char c;

	sigprocmask(SIG_SETMASK, mask, NULL);
	if (read(gate, &c, 1) != 0)
		_exit(127);	/* the parent gave up */
	if (stdin_null) {
		fd = open("/dev/null", O_RDONLY);
		if (fd < 0 || dup2(fd, STDIN_FILENO) < 0)
			_exit(126);
		if (fd != STDIN_FILENO)
			close(fd);
	}
	execvp(argv[0], argv);
	ctl_errorf(op, "%s: %s", argv[0], strerror(errno));
	_exit(errno == ENOENT ? 127 : 126);
}

int trace_spawn(struct trace *t, char **argv, const sigset_t *mask,
		bool stdin_null)
{
	struct tproc *p;
	int gate[2], err;
	pid_t pid;

	t->options |= PTRACE_O_EXITKILL;
	if (pipe2(gate, O_CLOEXEC) < 0) {
		ctl_perror(t->op);
		return -1;
	}
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		ctl_perror(t->op);
		close(gate[0]);
		close(gate[1]);
		return -1;
	}
	if (!pid) {
		close(gate[1]);
		spawn_child(t->op, gate[0], mask, stdin_null, argv);
	}
	close(gate[0]);
	t->root = pid;
	err = tracer_seize(pid, t->options);
	p = err ? NULL : trace_proc_new(t, pid, getpid());
	if (!p || !trace_task_new(t, pid, p)) {
		ctl_errorf(t->op, "ptrace: %s",
			   tracer_strerror(err ? err : -ENOMEM));
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		close(gate[1]);
		return -1;
	}
	p->cleaned = true;	/* set up after its execve() */
	close(gate[1]);		/* the child execs */
	return 0;
}

/* Whether thread @tid is a zombie (a leader gone by pthread_exit()). */
static bool zombie(pid_t tid)
{
	char path[64], line[256];
	bool z = false;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)tid);
	f = fopen(path, "re");
	if (!f)
		return false;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "State:", 6))
			z = strchr(line, 'Z') != NULL;
	fclose(f);
	return z;
}

/*
 * Seize every thread of @p's process, those it makes meanwhile too; a
 * main thread gone by pthread_exit() is skipped.
 * Return: 0, or -errno of the first seize that failed.
 */
static int trace_attach_threads(struct trace *t, struct tproc *p)
{
	char path[64];
	struct dirent *d;
	bool added = true;
	pid_t tid;
	DIR *dir;
	int err;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)p->pid);
	while (added) {
		added = false;
		dir = opendir(path);
		if (!dir)
			return errno == ENOENT ? -ESRCH : -errno;
		while ((d = readdir(dir))) {
			tid = (pid_t)atoi(d->d_name);
			if (tid <= 0 || task_find(t, tid))
				continue;
			err = tracer_seize(tid, t->options);
			if (err == -ESRCH || (err == -EPERM && zombie(tid)))
				continue;	/* exited (main: pthread_exit) */
			if (err || !trace_task_new(t, tid, p)) {
				closedir(dir);
				return err ? err : -ENOMEM;
			}
			added = true;
		}
		closedir(dir);
	}
	return 0;
}

int trace_attach(struct trace *t, pid_t pid)
{
	struct tproc *p;
	int err;

	t->attach = true;
	t->root = pid;
	if (live_check_unprofiled(t->op, t->x.h, pid))
		return -1;
	p = trace_proc_new(t, pid, 0);
	err = p ? trace_attach_threads(t, p) : -ENOMEM;
	if (!err) {
		trace_task_ids(pid, &(pid_t){ 0 }, &p->ppid);
		p->need_setup = true;
		p->cleaned = true;
		/* Set up at the first stop of any thread: the leader may
		 * be gone (pthread_exit()).
		 */
		if (!t->ntasks)
			err = -ESRCH;
		else if (ptrace(PTRACE_INTERRUPT, t->tasks[0].tid, 0, 0) < 0)
			err = -errno;
	}
	if (err) {
		ctl_errorf(t->op, "process %d: ptrace: %s", (int)pid,
			   tracer_strerror(err));
		trace_finish(t);
		return -1;
	}
	return 0;
}
