// SPDX-License-Identifier: GPL-2.0
/*
 * Attaching: how threads and processes join profiling.
 *
 * A start attaches the threads its process has, in passes over the
 * thread list until no thread is left without a record. From then on the
 * fork probe, pk_session_fork(), queues the attach of each new thread
 * (into its process's session) and each forked process (a session of its
 * own, with the parent's parameters) as a task_work that the child runs
 * before it first reaches user mode. The probe runs with preemption off
 * and never allocates: the record the child needs was made ahead, as its
 * parent's spare, and is made again as the parent returns from clone.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/mm.h>
#include <linux/module.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/sched/task.h>
#include <linux/slab.h>
#include <linux/task_work.h>

#include "access.h"
#include "attach.h"
#include "collector.h"
#include "regions.h"
#include "sampler.h"
#include "session.h"
#include "thread.h"

/*
 * What a newly cloned task needs to join profiling. Allocated ahead, as
 * its parent's pk_thread.spare: the fork probe runs with preemption
 * off, where PREEMPT_RT forbids allocating.
 */
struct pk_attach {
	struct callback_head twork;
	struct pk_session *session; /* for a thread */
	struct pk_params params; /* for a forked process */
};

/**
 * pk_attach_alloc() - a spare attach record, for a new thread record
 *
 * Context: process context, may sleep.
 * Return: the record, or NULL.
 */
struct pk_attach *pk_attach_alloc(void)
{
	return kzalloc(sizeof(struct pk_attach), GFP_KERNEL_ACCOUNT);
}

/*
 * Take references on the threads of @leader's process, up to @max.
 * Return: how many there are, which may exceed @max.
 */
static unsigned int pk_collect_threads(struct task_struct *leader,
				       struct task_struct **tasks,
				       unsigned int max)
{
	struct task_struct *task;
	unsigned int n = 0;

	rcu_read_lock();
	for_each_thread(leader, task) {
		if (n < max) {
			get_task_struct(task);
			tasks[n] = task;
		}
		n++;
	}
	rcu_read_unlock();
	return n;
}

/* One pass of pk_session_attach_all() over the thread list. */
static int pk_session_attach_pass(struct pk_session *s,
				  struct task_struct *leader)
{
	struct task_struct **tasks;
	unsigned int i, n, max;
	int err;

	/* Pairs with the barrier in pk_session_fork(). */
	smp_mb();
	for (max = get_nr_threads(leader) + 16;; max *= 2) {
		/* Sized by the process: ENOMEM fails the start, quietly. */
		tasks = kvmalloc_array(max, sizeof(*tasks),
				       GFP_KERNEL | __GFP_NOWARN);
		if (!tasks)
			return -ENOMEM;
		n = pk_collect_threads(leader, tasks, max);
		if (n <= max)
			break;
		for (i = 0; i < max; i++)
			put_task_struct(tasks[i]);
		kvfree(tasks);
	}
	err = pk_session_add_threads(s, tasks, n);
	for (i = 0; i < n; i++)
		put_task_struct(tasks[i]);
	kvfree(tasks);
	return err;
}

/*
 * task_work on a thread back from clone: the next child's record. If the
 * allocation fails, the next clone goes unprofiled and queues another try.
 * A thread cloned without a record (several in one system call) is found
 * by a pass over the thread list, as a start finds them.
 */
void pk_attach_refill(struct callback_head *head)
{
	struct pk_thread *t = container_of(head, struct pk_thread, refill_work);
	struct pk_attach *a = pk_attach_alloc();

	t->refill_queued = false;
	if (a)
		kfree(xchg(&t->spare, a));
	if (t->clone_missed) {
		t->clone_missed = false;
		if (pk_session_attach_pass(t->session, current))
			pr_debug("process %d: a clone not profiled\n",
				 current->tgid);
	}
	kref_put(&t->ref, pk_thread_release);
	module_put(THIS_MODULE);
}

/*
 * Passes before a start gives up on a process whose new threads clone
 * before a pass reaches them.
 */
#define PK_ATTACH_PASSES 8

/*
 * Sample every thread of the process. The session is already in the
 * table: a thread cloned from now on by a thread with a record is
 * attached by pk_session_fork(), and one cloned before is on the
 * thread list. One cloned by a thread without a record yet sets @rescan,
 * and the next pass finds it on the list.
 */
int pk_session_attach_all(struct pk_session *s, struct task_struct *leader)
{
	unsigned int pass;
	bool again;
	int err;

	for (pass = 0; pass < PK_ATTACH_PASSES; pass++) {
		/*
		 * A clone that set @rescan before this was on the thread
		 * list already, so this pass finds it.
		 */
		raw_spin_lock_irq(&s->lock);
		s->rescan = false;
		raw_spin_unlock_irq(&s->lock);
		err = pk_session_attach_pass(s, leader);
		if (err)
			return err;
		/* Records added above are seen by any probe locking after. */
		raw_spin_lock_irq(&s->lock);
		again = s->rescan;
		raw_spin_unlock_irq(&s->lock);
		if (!again)
			return 0;
	}
	return -EAGAIN;
}

/*
 * Whether a counter of @rs lies, even in part, in a shared mapping of
 * current's address space (MAP_SHARED, a shared memfd or tmpfs file):
 * after fork such a page is the parent's too, and the child's session
 * would go on writing it after the parent's STOP returned. Each region
 * is checked over every mapping its counters span. Gaps are not shared:
 * a write there faults and stops the session.
 *
 * Context: process context; current is a forked process's only thread,
 * before it first reaches user mode, so nothing maps or unmaps under
 * this but current itself.
 * Return: 1 if shared, 0 if not, or -EINTR on a fatal signal.
 */
static int pk_regions_shared(const struct pk_regions *rs)
{
	struct mm_struct *mm = current->mm;
	const struct pk_region *r;
	struct vm_area_struct *vma;
	int shared = 0;
	u32 i;

	if (mmap_read_lock_killable(mm))
		return -EINTR;
	for (i = 0; i < rs->nr && !shared; i++) {
		VMA_ITERATOR(vmi, mm, rs->region[i].buf);

		r = &rs->region[i];
		if (!pk_region_used(rs, r))
			continue;
		/* No overflow: a region's size was checked against its buf. */
		for_each_vma_range(vmi, vma, r->buf + (r->nbins << rs->shift))
			shared |= !!(vma->vm_flags & VM_MAYSHARE);
	}
	mmap_read_unlock(mm);
	return shared;
}

/*
 * Whether the forked current takes its parent's session: not if the
 * switches forbid it, nor if a buffer is shared with the parent. A
 * kernel-held session has no buffer, nor a closed collector's.
 */
static bool pk_attach_inherits(const struct pk_params *p)
{
	if (current->flags & PF_EXITING)
		return false;
	/* A forked process has its parent's credentials: no audit. */
	if (!pk_start_allowed(false) ||
	    (!pk_rides_tick(p->rate) && !pk_timer_clock_allowed(false)))
		return false;
	if (p->collector)
		return !pk_collector_closed(p->collector);
	return !pk_regions_shared(p->regions);
}

/*
 * The references a forked process's copy of its parent's parameters
 * holds on their set or their collector: taken in the fork probe, where
 * the parent's parameters hold theirs, so a put there is never the last.
 */
static void pk_attach_params_get(struct pk_params *p)
{
	if (p->collector)
		pk_collector_get(p->collector);
	else
		pk_regions_get(p->regions);
}

/* Context: process context, or a put that is not the last. */
static void pk_attach_params_put(struct pk_params *p)
{
	if (p->collector)
		pk_collector_put(p->collector);
	else
		pk_regions_put(p->regions);
}

/* task_work on a new task, before it first reaches user mode. */
static void pk_attach_run(struct callback_head *head)
{
	struct pk_attach *a = container_of(head, struct pk_attach, twork);

	if (a->session) {
		if (pk_session_thread_add(a->session, current))
			pr_debug("thread %d not profiled\n", current->pid);
		pk_session_put(a->session);
	} else {
		if (pk_attach_inherits(&a->params) &&
		    pk_session_start(current, &a->params, PK_START_UNLESS_ANY))
			pr_debug("process %d not profiled\n", current->tgid);
		pk_attach_params_put(&a->params);
	}
	kfree(a);
	module_put(THIS_MODULE);
}

/*
 * Have @t's next spare allocated as current, t->task, returns to user
 * mode. Only t->task queues it and runs it: no lock for @refill_queued.
 */
static void pk_attach_refill_queue(struct pk_thread *t)
{
	if (t->refill_queued || !kref_get_unless_zero(&t->ref))
		return;
	if (!try_module_get(THIS_MODULE))
		goto err_put;
	if (task_work_add(current, &t->refill_work, TWA_RESUME))
		goto err_module;
	t->refill_queued = true;
	return;

err_module:
	module_put(THIS_MODULE);
err_put:
	kref_put(&t->ref, pk_thread_release);
}

/*
 * Queue the attach of @child, a clone of current, with the record its
 * parent's @t keeps ready, and have the next one made.
 * Context: RCU read side, preemption off; @t belongs to @s.
 */
static void pk_attach_queue(struct pk_session *s, struct pk_thread *t,
			    struct task_struct *child, bool thread)
{
	struct pk_attach *a = xchg(&t->spare, NULL);

	pk_attach_refill_queue(t);
	if (!a) {
		/* A thread joins through the refill's pass over the list. */
		if (thread)
			t->clone_missed = true;
		else
			pr_debug("process %d: no record for the clone %d\n",
				 current->tgid, child->pid);
		return;
	}
	if (thread) {
		if (!kref_get_unless_zero(&s->ref))
			goto err_restore;
		a->session = s;
	} else {
		a->session = NULL;
		a->params = *rcu_dereference(s->params);
		a->params.generation = 0;
		a->params.parent_image = s->image;
		/* The params hold one until a grace period after they go. */
		pk_attach_params_get(&a->params);
	}
	init_task_work(&a->twork, pk_attach_run);
	if (!try_module_get(THIS_MODULE))
		goto err_session;
	if (task_work_add(child, &a->twork, TWA_RESUME))
		goto err_module;
	return;

err_module:
	module_put(THIS_MODULE);
err_session:
	/* Never the last reference: the params' is still there. */
	if (a->session)
		pk_session_put(a->session);
	else
		pk_attach_params_put(&a->params);
err_restore:
	/* The refill, queued above, runs later and frees what it replaces. */
	WRITE_ONCE(t->spare, a);
}

/*
 * pk_session_fork() for the session of @kind of @parent's process, if it
 * has an active one. Context: as pk_session_fork().
 */
static void pk_session_fork_kind(struct task_struct *parent,
				 struct task_struct *child, int kind)
{
	bool thread = same_thread_group(parent, child);
	struct pk_session *s;
	struct pk_thread *t;
	unsigned long flags;

	if (!thread && child->mm == parent->mm && kind == PROFIL_KIND_BUFFER)
		return;
	rcu_read_lock();
	s = pk_session_lookup(task_tgid(parent), kind);
	if (!s || !pk_session_is_active(s))
		goto unlock;
	if (!thread &&
	    (rcu_dereference(s->params)->flags & PROFIL_F_NO_INHERIT))
		goto unlock;
	t = pk_session_thread(s, parent);
	/*
	 * No record: the session is starting and has not reached @parent.
	 * A new thread joins through the start's next pass; a new process
	 * was forked before its parent's profiling began and is not profiled.
	 */
	if (!t && thread) {
		raw_spin_lock_irqsave(&s->lock, flags);
		t = pk_session_thread(s, parent);
		if (!t)
			s->rescan = true;
		raw_spin_unlock_irqrestore(&s->lock, flags);
	}
	if (t)
		pk_attach_queue(s, t, child, thread);
unlock:
	rcu_read_unlock();
}

/**
 * pk_session_fork() - let a new thread or process join profiling
 * @parent: the cloning task, current
 * @child: the new task, not yet running
 *
 * A new thread is sampled into its process's sessions; a forked process
 * gets sessions of its own with the parent's parameters, counting into
 * its own copy of the buffer, or its parent's collector, unless the
 * session has PROFIL_F_NO_INHERIT. Either way the child attaches itself
 * from a task_work before it first runs in user mode, so no user tick is
 * missed. A child sharing the parent's memory without being a thread
 * (vfork) gets no buffer session, which would count into the parent's
 * buffer, but a kernel-held one: it runs code of its own until it execs.
 * Nothing is allocated here: the record the child needs was made ahead
 * for its parent.
 *
 * Context: the sched_process_fork tracepoint, or task_newtask for an
 * io_uring worker, preemption disabled.
 */
void pk_session_fork(struct task_struct *parent, struct task_struct *child)
{
	int kind;

	if (child->flags & PF_KTHREAD)
		return;
	/* Pairs with pk_session_attach_pass(): see the thread or be seen. */
	smp_mb();
	for (kind = 0; kind <= PROFIL_KIND_MAX; kind++)
		pk_session_fork_kind(parent, child, kind);
}
