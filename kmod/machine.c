// SPDX-License-Identifier: GPL-2.0
/*
 * The machine-wide profile: a collector that follows every process.
 *
 * A COLLECT with a machine or cgroup scope starts a session of
 * PROFIL_KIND_MACHINE on each process there is, in passes over the
 * process list until one finds none left without; from then on every
 * fork and exec is followed as for any kernel-held session, so the
 * kernel finds the new processes itself. Kernel threads are left out:
 * they run no user code. A cgroup profile follows the same processes and
 * counts the ticks of those in the cgroup (pk_collector_counts()), so
 * that a process that moves in or out is counted while it is there.
 *
 * A process has at most one session of each kind: one machine-wide
 * profile runs at a time, which pk_machine claims.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/errno.h>
#include <linux/mutex.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/sched/task.h>
#include <linux/slab.h>

#include "collector.h"
#include "machine.h"
#include "session.h"

/* The machine-wide profile, referenced, until its close ends it. */
static struct pk_collector *pk_machine;
static DEFINE_MUTEX(pk_machine_mutex);

/*
 * Passes over the process list before a start gives up on processes
 * forked by others it has not reached yet: each pass follows what the
 * last one missed, and a fork from a followed process is followed anyway.
 */
#define PK_MACHINE_PASSES 8

/**
 * pk_machine_claim() - make @c the machine-wide profile
 * @c: a new machine-wide collector
 *
 * Context: process context.
 * Return: 0, or -EBUSY while another one runs (until its close ends
 *	its sessions).
 */
int pk_machine_claim(struct pk_collector *c)
{
	int err = -EBUSY;

	mutex_lock(&pk_machine_mutex);
	if (!pk_machine) {
		pk_collector_get(c);
		pk_machine = c;
		err = 0;
	}
	mutex_unlock(&pk_machine_mutex);
	return err;
}

/**
 * pk_machine_release() - a machine-wide profile's sessions are ended
 * @c: the collector, closed
 *
 * Context: process context, the collector's close.
 */
void pk_machine_release(struct pk_collector *c)
{
	bool ours;

	mutex_lock(&pk_machine_mutex);
	ours = pk_machine == c;
	if (ours)
		pk_machine = NULL;
	mutex_unlock(&pk_machine_mutex);
	if (ours)
		pk_collector_put(c);
}

/*
 * Take references on the processes without a machine-wide session, up to
 * @max. Return: how many there are, which may exceed @max.
 */
static unsigned int pk_machine_collect(struct task_struct **tasks,
				       unsigned int max)
{
	struct task_struct *p;
	unsigned int n = 0;

	rcu_read_lock();
	for_each_process(p) {
		if ((p->flags & PF_KTHREAD) ||
		    pk_session_lookup(task_tgid(p), PROFIL_KIND_MACHINE))
			continue;
		if (n < max) {
			get_task_struct(p);
			tasks[n] = p;
		}
		n++;
	}
	rcu_read_unlock();
	return n;
}

/*
 * One pass: a session on each process that has none. One that exits
 * meanwhile is not followed, nor any once the profile is full.
 * Return: the sessions this pass started, or a negative errno: -ENOSPC
 * when the profile is full (its images_lost counts the process that
 * found it full and each one after it).
 */
static int pk_machine_pass(const struct pk_params *req)
{
	struct task_struct **tasks;
	unsigned int i, n, max;
	int started = 0, err = 0, ret;

	for (max = 256;; max = n + 64) {
		tasks = kvmalloc_array(max, sizeof(*tasks),
				       GFP_KERNEL | __GFP_NOWARN);
		if (!tasks)
			return -ENOMEM;
		n = pk_machine_collect(tasks, max);
		if (n <= max)
			break;
		for (i = 0; i < max; i++)
			put_task_struct(tasks[i]);
		kvfree(tasks);
	}
	for (i = 0; i < n; i++) {
		if (!err && fatal_signal_pending(current))
			err = -EINTR;
		if (!err) {
			ret = pk_session_start(tasks[i], req,
					       PK_START_UNLESS_ACTIVE);
			if (!ret)
				started++;
			else if (ret == -ENOSPC || ret == -ENOMEM ||
				 ret == -ESHUTDOWN)
				err = ret;
			/* This one counted itself; the rest have no room either. */
			if (ret == -ENOSPC)
				pk_collector_images_lost(req->collector,
							 n - i - 1);
		}
		put_task_struct(tasks[i]);
	}
	kvfree(tasks);
	return err ?: started;
}

/**
 * pk_machine_follow_all() - follow every process into a machine profile
 * @req: the parameters, with the claimed collector
 *
 * Context: process context, may sleep; a fatal signal interrupts it.
 * Return: 0, also when the profile filled up (its statistics say so), or
 * -EINTR or -ENOMEM. The sessions started stay: the collector's close
 * ends them.
 */
int pk_machine_follow_all(const struct pk_params *req)
{
	unsigned int pass;
	int started;

	for (pass = 0; pass < PK_MACHINE_PASSES; pass++) {
		started = pk_machine_pass(req);
		if (started == -ENOSPC)
			return 0;
		if (started <= 0)
			return started;
	}
	return 0;
}
