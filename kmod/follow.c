// SPDX-License-Identifier: GPL-2.0
/*
 * Following a program across execve(): a kernel-held session's image
 * ends at an exec, and the new image gets a session of its own before it
 * first runs in user mode, unless the exec raised privileges.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/sched.h>
#include <linux/sched/coredump.h>
#include <linux/task_work.h>

#include "access.h"
#include "collector.h"
#include "follow.h"
#include "sampler.h"
#include "session.h"

/* Whether the switches let the new image be followed. */
static bool pk_follow_allowed(const struct pk_params *req)
{
	return pk_start_allowed(false) &&
	       (pk_rides_tick(req->rate) || pk_timer_clock_allowed(false));
}

/*
 * task_work of a process that exec'd, queued by pk_session_exec() with a
 * reference on @s, its old image's kernel-held session: the new image
 * gets a session of its own, before it first runs in user mode. The
 * administrator's switches apply, as to a fork's child.
 */
static void pk_follow_run(struct callback_head *head)
{
	struct pk_session *s =
		container_of(head, struct pk_session, follow_work);
	struct pk_params req;

	bool allowed;
	int err;

	/* A stopped session's parameters stay until it is freed. */
	req = *rcu_dereference_protected(s->params, true);
	req.parent_image = s->image;
	req.generation = 0;
	allowed = !(current->flags & PF_EXITING) &&
		  !pk_collector_closed(s->collector) && pk_follow_allowed(&req);
	/*
	 * Not over an active one: the new image's tracer may have given it
	 * a session of another collector at its exec stop.
	 */
	err = allowed ?
		      pk_session_start(current, &req, PK_START_UNLESS_ACTIVE) :
		      -EPERM;
	if (err)
		pr_debug("process %d: new image not followed: %d\n",
			 current->tgid, err);
	pk_session_put(s);
	module_put(THIS_MODULE);
}

/*
 * A kernel-held session's process exec'd: its image ends, and the new one
 * is followed, unless the exec raised privileges (a setuid, setgid or
 * file-capability image made the address space undumpable, which is where
 * perf stops too, in begin_new_exec()).
 *
 * Context: the sched_process_exec tracepoint, preemption disabled,
 * current == @task.
 */
void pk_follow_exec(struct pk_session *s, struct task_struct *task)
{
	bool secure = get_dumpable(task->mm) != SUID_DUMP_USER;
	int reason = secure ? PROFIL_STOP_SECURE_EXEC : PROFIL_STOP_EXEC;

	/* Only the stop that ended it follows: not one a STOP came before. */
	if (!pk_session_stop(s, reason, 0) || secure ||
	    !try_module_get(THIS_MODULE))
		return;
	kref_get(&s->ref);
	init_task_work(&s->follow_work, pk_follow_run);
	if (task_work_add(task, &s->follow_work, TWA_RESUME)) {
		pk_session_put(s);
		module_put(THIS_MODULE);
	}
}
