/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the machine_*_test programs share: a COLLECT with a scope and
 * bounds, an image by pid, a worker process and its end, waiting for
 * another process's CPU time, and cgroup v2 (mounted at CGROOT, a
 * process moved). Include it
 * after profil_nl.h, profil_util.h and profil_held.h.
 */
#ifndef PROFIL_SELFTEST_MACHINE_H
#define PROFIL_SELFTEST_MACHINE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <signal.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#define CGROOT		"/sys/fs/cgroup"
#define ANY_PARENT	UINT32_MAX
#define NO_FD		(-1)
#define NO_SCOPE	(-1)

/* A COLLECT's attributes: NO_SCOPE, NO_FD and 0 leave one out. */
struct collect_req {
	int scope, fd;
	uint32_t pid, rate, images_max, samples_max;
};

/* COLLECT @q; 0 or -errno, the text in nl->extack. */
static inline int collect_req(struct pnl *nl, const struct collect_req *q)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct pnl_reply r = { .nl = nl };
	struct nlmsghdr *nlh;

	nlh = pnl_msg(buf, nl->family, PROFIL_CMD_COLLECT, PROFIL_GENL_VERSION);
	if (q->pid)
		mnl_attr_put_u32(nlh, PROFIL_ATTR_PID, q->pid);
	if (q->rate)
		mnl_attr_put_u32(nlh, PROFIL_ATTR_RATE, q->rate);
	if (q->scope != NO_SCOPE)
		mnl_attr_put_u32(nlh, PROFIL_ATTR_SCOPE, q->scope);
	if (q->fd != NO_FD)
		mnl_attr_put_u32(nlh, PROFIL_ATTR_CGROUP_FD, q->fd);
	if (q->images_max)
		mnl_attr_put_u32(nlh, PROFIL_ATTR_IMAGES_MAX, q->images_max);
	if (q->samples_max)
		mnl_attr_put_u32(nlh, PROFIL_ATTR_SAMPLES_MAX, q->samples_max);
	return pnl_talk(nl, nlh, NULL, &r);
}

/* The first image of process @pid whose parent is @parent (or any). */
static inline const struct held_image *
image_of(const struct held_profile *p, pid_t pid, uint32_t parent)
{
	unsigned int i;

	for (i = 0; i < p->nr_images; i++)
		if (p->images[i].pid == (uint32_t)pid &&
		    (parent == ANY_PARENT || p->images[i].parent == parent))
			return &p->images[i];
	return NULL;
}

/*
 * Wait until process @pid has used @secs more CPU time; false if it is
 * gone. No wall-clock bound: the harness's timeout is the one.
 */
static inline bool wait_cpu(pid_t pid, double secs)
{
	double end = pid_cpu(pid) + secs, t;

	while ((t = pid_cpu(pid)) >= 0 && t < end)
		usleep(20000);
	return t >= 0;
}

/* Wait for @pid: whether it exited, with 0. */
static inline bool reaped(pid_t pid)
{
	int st;

	return pid > 0 && waitpid(pid, &st, 0) == pid && WIFEXITED(st) &&
	       !WEXITSTATUS(st);
}

/*
 * Fork a worker that talks with the test over two pipes, and dies with
 * it: the test writes @go[1] and reads @res[0], the worker reads @go[0]
 * and writes @res[1]; each closes the other ends. Returns the worker's
 * pid to the test, 0 to the worker, -1 on failure.
 */
static inline pid_t worker_fork(int go[2], int res[2])
{
	pid_t pid;

	if (pipe(go))
		return -1;
	if (pipe(res)) {
		close(go[0]);
		close(go[1]);
		return -1;
	}
	pid = fork();
	if (pid == 0) {
		close(go[1]);
		close(res[0]);
		prctl(PR_SET_PDEATHSIG, SIGKILL);
	} else {
		close(go[0]);
		close(res[1]);
	}
	return pid;
}

/* Whether cgroup v2 is mounted at CGROOT, mounting it if not. */
static inline bool cgroup2_mounted(void)
{
	char dev[64], dir[256], type[64];
	bool found = false;
	FILE *f;

	f = fopen("/proc/mounts", "r");
	if (!f)
		return false;
	while (!found &&
	       fscanf(f, "%63s %255s %63s %*[^\n]", dev, dir, type) == 3)
		found = !strcmp(dir, CGROOT) && !strcmp(type, "cgroup2");
	fclose(f);
	return found || !mount("none", CGROOT, "cgroup2", 0, NULL);
}

/* Move process @pid into the cgroup at @dir; 0 or -1. */
static inline int cgroup_move(const char *dir, pid_t pid)
{
	char path[512];
	FILE *f;
	int ok;

	snprintf(path, sizeof(path), "%s/cgroup.procs", dir);
	f = fopen(path, "w");
	if (!f)
		return -1;
	ok = fprintf(f, "%d\n", (int)pid) > 0;
	return fclose(f) || !ok ? -1 : 0;
}

#endif /* PROFIL_SELFTEST_MACHINE_H */
