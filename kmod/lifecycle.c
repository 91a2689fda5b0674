// SPDX-License-Identifier: GPL-2.0
/*
 * The scheduler tracepoints profil hooks: fork, exec and exit for the
 * process lifecycle, and sched_stat_runtime for the scheduler-tick clock.
 *
 * fork keeps profiling on in parent and child, exec turns it off, and exit
 * forgets the session. The probes run with preemption disabled.
 */
#include <linux/binfmts.h>
#include <linux/kernel.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/string.h>
#include <linux/tracepoint.h>

#include "profil.h"

static void profil_probe_fork(void *data, struct task_struct *parent,
			      struct task_struct *child)
{
	profil_session_fork(parent, child);
}

static void profil_probe_exec(void *data, struct task_struct *task,
			      pid_t old_pid, struct linux_binprm *bprm)
{
	profil_session_exec(task);
}

static void profil_probe_exit(void *data, struct task_struct *task)
{
	/* Only the last thread of the group ends the process. */
	if (!atomic_read(&task->signal->live))
		profil_session_exit(task);
}

static struct profil_probe {
	const char *name;
	void *func;
	struct tracepoint *tp;
} profil_probes[] = {
	{ .name = "sched_process_fork", .func = profil_probe_fork },
	{ .name = "sched_process_exec", .func = profil_probe_exec },
	{ .name = "sched_process_exit", .func = profil_probe_exit },
	{ .name = "sched_stat_runtime", .func = profil_tick_runtime },
};

static void profil_find_tracepoint(struct tracepoint *tp, void *priv)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(profil_probes); i++)
		if (!strcmp(tp->name, profil_probes[i].name))
			profil_probes[i].tp = tp;
}

static void profil_unregister_probes(unsigned int n)
{
	while (n--)
		tracepoint_probe_unregister(profil_probes[n].tp,
					    profil_probes[n].func, NULL);
	tracepoint_synchronize_unregister();
}

int profil_lifecycle_init(void)
{
	unsigned int i;
	int err;

	for_each_kernel_tracepoint(profil_find_tracepoint, NULL);
	for (i = 0; i < ARRAY_SIZE(profil_probes); i++) {
		if (!profil_probes[i].tp) {
			pr_err("tracepoint %s not found\n",
			       profil_probes[i].name);
			err = -ENOENT;
			goto err_unregister;
		}
		err = tracepoint_probe_register(profil_probes[i].tp,
						profil_probes[i].func, NULL);
		if (err)
			goto err_unregister;
	}
	return 0;

err_unregister:
	profil_unregister_probes(i);
	return err;
}

void profil_lifecycle_exit(void)
{
	profil_unregister_probes(ARRAY_SIZE(profil_probes));
}
