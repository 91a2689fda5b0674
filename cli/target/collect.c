// SPDX-License-Identifier: GPL-2.0
/*
 * A whole program followed by the kernel (collect.h).
 *
 * run: the child names itself in a COLLECT on profil-ctl's socket (the
 * kernel lets a process follow itself), then execs; a close-on-exec pipe
 * tells the parent whether it got that far. attach: profil-ctl seizes a
 * thread of the process, which the LSMs approve or refuse as for any
 * debugger, COLLECTs as its tracer, and detaches: from then on the
 * kernel follows the process alone. Either way, the profile lives in
 * the kernel until the socket is closed, and processes that exit keep
 * their samples there.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/pidfd.h>
#include <sys/signalfd.h>
#include <sys/timerfd.h>
#include <sys/wait.h>
#include <unistd.h>

#include "collect.h"
#include "ctl.h"
#include "tracer.h"

/* What run's child tells its parent on the gate before exiting. */
enum {
	SPAWN_COLLECT_FAILED = 'c',
	SPAWN_EXEC_FAILED = 'e',
};

int collect_init(struct collect *c, const char *op, const struct live_opts *o)
{
	sigset_t set;

	memset(c, 0, sizeof(*c));
	c->op = op;
	c->root_fd = -1;
	c->sig_fd = -1;
	c->timer_fd = -1;
	c->params.rate = o->rate;
	c->params.flags = o->flags | (o->no_inherit ? PROFIL_F_NO_INHERIT : 0);
	c->reader = (struct held_reader){
		.op = op,
		.rate = o->rate,
		.bin_bytes = o->bin_bytes,
	};
	sigemptyset(&set);
	sigaddset(&set, SIGCHLD);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	sigaddset(&set, SIGQUIT);
	if (sigprocmask(SIG_BLOCK, &set, &c->old_mask) < 0)
		goto err;
	c->sig_fd = signalfd(-1, &set, SFD_CLOEXEC);
	if (c->sig_fd < 0)
		goto err;
	if (o->duration > 0) {
		struct itimerspec its = { 0 };
		long long ns = (long long)(o->duration * 1e9);

		c->timer_fd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC);
		if (c->timer_fd < 0)
			goto err;
		/* At least 1 ns: 0 would be a disarmed timer. */
		ns = ns < 1 ? 1 : ns;
		its.it_value.tv_sec = ns / 1000000000LL;
		its.it_value.tv_nsec = ns % 1000000000LL;
		/* Armed now: the program is followed from its first tick. */
		if (timerfd_settime(c->timer_fd, 0, &its, NULL) < 0)
			goto err;
	}
	c->reader.h = live_open(op);
	return c->reader.h ? 0 : -1;
err:
	ctl_perror(op);
	return -1;
}

int collect_set_command(struct collect *c, char *const *argv, size_t n)
{
	c->cmd = calloc(n ? n : 1, sizeof(*c->cmd));
	if (!c->cmd)
		return -1;
	for (c->ncmd = 0; c->ncmd < n; c->ncmd++) {
		c->cmd[c->ncmd] = strdup(argv[c->ncmd]);
		if (!c->cmd[c->ncmd])
			return -1;	/* collect_free() frees the rest */
	}
	return 0;
}

int collect_command_of(struct collect *c, pid_t pid)
{
	char path[64], buf[4096], *words[256];
	size_t len, n = 0, i;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/cmdline", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return 0;
	len = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[len] = '\0';
	for (i = 0; i < len && n < sizeof(words) / sizeof(words[0]);
	     i += strlen(buf + i) + 1)
		words[n++] = buf + i;
	return n ? collect_set_command(c, words, n) : 0;
}

int collect_watch(struct collect *c, int fd,
		  int (*fn)(struct collect *c, void *arg), void *arg)
{
	if (c->nwatch >= COLLECT_MAX_WATCH) {
		errno = ENOSPC;
		return -1;
	}
	c->watch[c->nwatch++] = (struct collect_watch){ fd, fn, arg };
	return 0;
}

/* The child: follow itself, then become the program. */
static void spawn_child(struct collect *c, int gate, bool stdin_null,
			char **argv)
{
	struct profil_collect_params p = c->params;
	char why;
	int fd;

	sigprocmask(SIG_SETMASK, &c->old_mask, NULL);
	if (stdin_null) {
		fd = open("/dev/null", O_RDONLY);
		if (fd < 0 || dup2(fd, STDIN_FILENO) < 0)
			_exit(126);
		if (fd != STDIN_FILENO)
			close(fd);
	}
	p.pid = 0;	/* itself: the one use of the handle in a child */
	if (!c->machine && profil_collect(c->reader.h, &p) < 0) {
		ctl_perror_lib(c->op);
		why = SPAWN_COLLECT_FAILED;
	} else {
		execvp(argv[0], argv);
		ctl_errorf(c->op, "%s: %s", argv[0], strerror(errno));
		why = SPAWN_EXEC_FAILED;
	}
	if (write(gate, &why, 1) < 0)
		_exit(127);
	_exit(why == SPAWN_EXEC_FAILED && errno == ENOENT ? 127 : 126);
}

int collect_spawn(struct collect *c, char **argv, bool stdin_null)
{
	int gate[2];
	ssize_t n;
	pid_t pid;
	char why;

	if (pipe2(gate, O_CLOEXEC) < 0) {
		ctl_perror(c->op);
		return -1;
	}
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		ctl_perror(c->op);
		close(gate[0]);
		close(gate[1]);
		return -1;
	}
	if (!pid) {
		close(gate[0]);
		spawn_child(c, gate[1], stdin_null, argv);
	}
	close(gate[1]);
	c->root = pid;
	/* Its command ends the loop now, as run's, and signals go to it. */
	c->attach = false;
	if (!c->machine) {
		c->reader.root_ppid = getpid();
		c->reader.spawned = true;
	}
	/* The socket is the child's until it execs: wait for that. */
	do
		n = read(gate[0], &why, 1);
	while (n < 0 && errno == EINTR);
	close(gate[0]);
	if (n == 0)
		return 0;
	/* It said why, and exits: its status is the command's. */
	while (waitpid(pid, &c->wstatus, 0) < 0 && errno == EINTR)
		;
	c->root_exited = true;
	c->failed = true;
	return -1;
}

/* Room for the processes of a busy machine's run: about 13 MiB. */
#define COLLECT_MACHINE_IMAGES 65536

int collect_machine(struct collect *c, const char *cgroup)
{
	struct profil_machine_params p = {
		.rate = c->params.rate,
		.flags = c->params.flags,
		.images_max = COLLECT_MACHINE_IMAGES,
		.cgroup_fd = -1,
	};
	char path[4096];
	int ret;

	c->attach = true;
	c->machine = true;
	if (cgroup) {
		snprintf(path, sizeof(path), "%s%s",
			 cgroup[0] == '/' ? "" : "/sys/fs/cgroup/", cgroup);
		p.cgroup_fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (p.cgroup_fd < 0) {
			ctl_errorf(c->op, "cgroup %s: %s", path,
				   strerror(errno));
			return -1;
		}
	}
	ret = profil_collect_machine(c->reader.h, &p);
	if (ret < 0 && errno == EPERM)
		ctl_errorf(c->op, "%s (profiling every process takes "
			   "CAP_PERFMON or CAP_SYS_ADMIN, as perf record -a)",
			   profil_strerror());
	else if (ret < 0 && errno == EBADF)
		ctl_errorf(c->op, "cgroup %s: not a cgroup v2 directory", path);
	else if (ret < 0)
		ctl_perror_lib(c->op);
	if (p.cgroup_fd >= 0)
		close(p.cgroup_fd);
	return ret;
}

/* A thread of @pid to seize: the leader, or any, the leader being gone. */
static int seize_thread(pid_t pid, pid_t *tid)
{
	char path[64];
	struct dirent *d;
	DIR *dir;
	int err;

	*tid = pid;
	err = tracer_seize(pid, 0);
	if (err != -EPERM)
		return err;
	/* A leader gone by pthread_exit() cannot be seized: another can. */
	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	dir = opendir(path);
	if (!dir)
		return err;
	while ((d = readdir(dir))) {
		*tid = (pid_t)atoi(d->d_name);
		if (*tid > 0 && *tid != pid && !tracer_seize(*tid, 0))
			break;
	}
	if (!d)
		*tid = 0;
	closedir(dir);
	return *tid ? 0 : err;
}

int collect_attach(struct collect *c, pid_t pid)
{
	struct profil_collect_params p = c->params;
	struct tracer_stop s;
	pid_t tid;
	int err;

	c->attach = true;
	c->root = pid;
	c->root_fd = pidfd_open(pid, 0);
	if (c->root_fd < 0) {
		ctl_errorf(c->op, "process %d: %s", (int)pid,
			   tracer_strerror(-errno));
		return -1;
	}
	/*
	 * The kernel takes the ptrace relation as the proof that the LSMs
	 * let profil-ctl control the process: seize a thread, follow the
	 * process as its tracer, and let it go. It is stopped only to be
	 * detached, and resumes as it was (a signal it had is delivered).
	 */
	err = seize_thread(pid, &tid);
	if (err) {
		ctl_errorf(c->op, "process %d: ptrace: %s", (int)pid,
			   tracer_strerror(err));
		return -1;
	}
	p.pid = pid;
	err = tracer_interrupt(tid, &s);
	if (!err && profil_collect(c->reader.h, &p) < 0) {
		if (errno == EEXIST)
			ctl_errorf(c->op, "process %d is followed already "
				   "(another profil-ctl run, attach, top or "
				   "start)", (int)pid);
		else
			ctl_perror_lib(c->op);
		c->failed = true;
	}
	if (!err)
		err = tracer_resume(tid, &s, true);
	if (err && err != -ESRCH) {
		ctl_errorf(c->op, "process %d: ptrace: %s", (int)pid,
			   tracer_strerror(err));
		c->failed = true;
	}
	/* ESRCH: it exited meanwhile; what it ran is in the profile. */
	return c->failed ? -1 : 0;
}

int collect_command_status(const struct collect *c)
{
	if (WIFEXITED(c->wstatus))
		return WEXITSTATUS(c->wstatus);
	if (WIFSIGNALED(c->wstatus))
		return 128 + WTERMSIG(c->wstatus);
	return CTL_EXIT_FAIL;
}

void collect_finish(struct collect *c)
{
	c->done = true;
}

/* A signal to profil-ctl itself. */
static void collect_signal(struct collect *c, const struct signalfd_siginfo *si)
{
	int sig = (int)si->ssi_signo;

	if (sig == SIGCHLD) {
		if (!c->attach && c->root &&
		    waitpid(c->root, &c->wstatus, WNOHANG) == c->root) {
			c->root_exited = true;
			c->done = true;
		}
		return;
	}
	if (c->attach) {
		c->done = true;
		return;
	}
	/*
	 * run: the terminal sent ^C or ^\ to the whole foreground group,
	 * the program has it already; anything else is passed on.
	 */
	if ((sig == SIGINT || sig == SIGQUIT) && si->ssi_code == SI_KERNEL)
		return;
	kill(c->root, sig);
}

/* The command's fds that are ready: call them, drop those done with. */
static void collect_watched(struct collect *c, const struct pollfd *pfd)
{
	size_t i, n = c->nwatch;
	bool drop[COLLECT_MAX_WATCH] = { false };

	for (i = 0; i < n; i++)
		if (pfd[i].revents)
			drop[i] = c->watch[i].fn(c, c->watch[i].arg) < 0;
	for (i = n; i-- > 0;)
		if (drop[i])
			c->watch[i] = c->watch[--c->nwatch];
}

int collect_loop(struct collect *c)
{
	struct pollfd pfd[3 + COLLECT_MAX_WATCH];
	struct signalfd_siginfo si;
	uint64_t expirations;
	size_t i;

	/* run: the program may have ended before the signal was blocked. */
	if (!c->attach && waitpid(c->root, &c->wstatus, WNOHANG) == c->root) {
		c->root_exited = true;
		c->done = true;
	}
	while (!c->done) {
		pfd[0] = (struct pollfd){ .fd = c->sig_fd, .events = POLLIN };
		pfd[1] = (struct pollfd){ .fd = c->timer_fd, .events = POLLIN };
		pfd[2] = (struct pollfd){ .fd = c->root_fd, .events = POLLIN };
		for (i = 0; i < c->nwatch; i++)
			pfd[3 + i] = (struct pollfd){ .fd = c->watch[i].fd,
						      .events = POLLIN };
		if (poll(pfd, 3 + c->nwatch, -1) < 0) {
			if (errno == EINTR)
				continue;
			ctl_perror(c->op);
			return -1;
		}
		if (pfd[0].revents & POLLIN &&
		    read(c->sig_fd, &si, sizeof(si)) == sizeof(si))
			collect_signal(c, &si);
		if (pfd[1].revents & POLLIN &&
		    read(c->timer_fd, &expirations, sizeof(expirations)) > 0)
			c->done = true;
		if (pfd[2].revents)
			c->done = true;	/* attach's process exited */
		collect_watched(c, pfd + 3);
	}
	return 0;
}

int collect_read(struct collect *c, struct profile *out,
		 struct held_notes *notes)
{
	return held_read(&c->reader, out, notes);
}

int collect_result(struct collect *c, const struct live_opts *o)
{
	struct profile p = { 0 };
	struct held_notes notes;
	int ret = CTL_EXIT_FAIL;

	if (collect_read(c, &p, &notes) < 0)
		goto out;
	if (c->cmd && profile_set_command(&p, c->cmd, c->ncmd)) {
		ctl_perror(c->op);
		goto out;
	}
	held_notes_print(c->op, &notes);
	if (!p.nprocesses)
		ctl_errorf(c->op, "no process was profiled");
	else if (!live_profile_report(c->op, &p, o) && !c->failed)
		ret = CTL_EXIT_OK;
out:
	profile_free(&p);
	return ret;
}

void collect_free(struct collect *c)
{
	size_t i;

	for (i = 0; i < c->ncmd; i++)
		free(c->cmd[i]);
	free(c->cmd);
	c->cmd = NULL;
	c->ncmd = 0;
	profil_handle_close(c->reader.h);
	c->reader.h = NULL;
	held_reader_free(&c->reader);
	if (c->root_fd >= 0)
		close(c->root_fd);
	if (c->timer_fd >= 0)
		close(c->timer_fd);
	if (c->sig_fd >= 0)
		close(c->sig_fd);
	sigprocmask(SIG_SETMASK, &c->old_mask, NULL);
}
