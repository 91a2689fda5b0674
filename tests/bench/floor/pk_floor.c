// SPDX-License-Identifier: GPL-2.0
/*
 * The floor under profil.ko's timer clock, for make bench: a task-clock
 * perf event on one task, made as profil.ko makes its own, whose overflow
 * handler only counts. What this costs per overflow is what any
 * per-thread event with an interrupt of its own costs; the bench sets
 * profil.ko's timer clock beside it.
 *
 *   insmod pk_floor.ko pid=PID rate=HZ; ...; rmmod pk_floor
 *
 * reading /sys/module/pk_floor/parameters/overflows before the rmmod.
 */
#include <linux/module.h>
#include <linux/perf_event.h>
#include <linux/pid.h>
#include <linux/sched/task.h>

static int pid;
module_param(pid, int, 0444);
MODULE_PARM_DESC(pid, "the task to sample (its thread id)");

static uint rate = 1000;
module_param(rate, uint, 0444);
MODULE_PARM_DESC(rate, "overflows per second of the task's CPU time");

/* Written only by the handler, on the task's CPU; sysfs reads it racily. */
static ulong overflows;
module_param(overflows, ulong, 0444);
MODULE_PARM_DESC(overflows, "overflows so far");

static struct perf_event *floor_event;

static void floor_overflow(struct perf_event *event,
			   struct perf_sample_data *data, struct pt_regs *regs)
{
	WRITE_ONCE(overflows, overflows + 1);
}

static int __init floor_init(void)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_SOFTWARE,
		.config = PERF_COUNT_SW_TASK_CLOCK,
		.size = sizeof(attr),
		.exclude_hv = 1,
		.remove_on_exec = 1,
	};
	struct task_struct *task;

	if (!rate || rate > NSEC_PER_SEC)
		return -EINVAL;
	attr.sample_period = NSEC_PER_SEC / rate;
	rcu_read_lock();
	task = pid_task(find_vpid(pid), PIDTYPE_PID);
	if (task)
		get_task_struct(task);
	rcu_read_unlock();
	if (!task)
		return -ESRCH;
	floor_event = perf_event_create_kernel_counter(&attr, -1, task,
						       floor_overflow, NULL);
	put_task_struct(task);
	return PTR_ERR_OR_ZERO(floor_event);
}

static void __exit floor_exit(void)
{
	perf_event_release_kernel(floor_event);
}

module_init(floor_init);
module_exit(floor_exit);

MODULE_DESCRIPTION("make bench: an empty-handler task-clock event");
MODULE_LICENSE("GPL");
