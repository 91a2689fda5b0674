// SPDX-License-Identifier: GPL-2.0
/*
 * Sessions: one per profiled process and kind, keyed by its thread-group
 * pid and enum profil_kind.
 *
 * A session is ACTIVE from its start until a stop request, scale 0, exec,
 * a fault or exit; it never becomes active again. A stopped session stays
 * in the table, so that its status says why it stopped, until the process
 * exits or starts profiling anew. While active it pins the module, so the
 * module cannot be unloaded under a live session.
 *
 * Memory: one session per process and kind, and one record (with a spare
 * attach record) per thread and session, charged to the memory cgroup of the allocating task
 * (GFP_KERNEL_ACCOUNT), so a user's profiling counts against the limits of
 * the user's own processes.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/hashtable.h>
#include <linux/module.h>
#include <linux/percpu.h>
#include <linux/perf_event.h>
#include <linux/pid.h>
#include <linux/rculist.h>
#include <linux/sched.h>
#include <linux/sched/coredump.h>
#include <linux/sched/mm.h>
#include <linux/sched/signal.h>
#include <linux/sched/task.h>
#include <linux/slab.h>
#include <linux/task_work.h>

#include "access.h"
#include "attach.h"
#include "collector.h"
#include "follow.h"
#include "lifecycle.h"
#include "netlink.h"
#include "regions.h"
#include "sampler.h"
#include "session.h"
#include "thread.h"

#define PK_START_LOCKS_BITS 8

/*
 * Starts are serialised per process, so that a process never gets two
 * active sessions, while the start of one process never waits for
 * another's. A process being started has a struct pk_start_lock in
 * pk_start_locks, under pk_start_locks_lock, for as long as a
 * start uses it.
 */
struct pk_start_lock {
	struct hlist_node node;
	struct pid *tgid;
	unsigned int users; /* under pk_start_locks_lock */
	struct mutex mutex;
};

static DEFINE_HASHTABLE(pk_start_locks, PK_START_LOCKS_BITS);
static DEFINE_SPINLOCK(pk_start_locks_lock);

static struct workqueue_struct *pk_wq;

static void pk_session_free_work(struct work_struct *work)
{
	struct rcu_work *rwork = to_rcu_work(work);
	struct pk_session *s;

	s = container_of(rwork, struct pk_session, free_rwork);
	if (s->collector) {
		u64 stats[PROFIL_STAT_MAX + 1];

		/* Nothing counts for the session any more: final. */
		pk_session_stats(s, stats);
		pk_collector_image_final(s->collector, s->image, stats);
	}
	pk_params_free(rcu_dereference_protected(s->params, true));
	mmdrop(s->mm);
	put_pid(s->tgid);
	free_percpu(s->stats);
	kfree(s);
}

static void pk_session_release(struct kref *ref)
{
	struct pk_session *s = container_of(ref, struct pk_session, ref);

	/* Lockless readers may still hold a pointer; mmdrop() may sleep. */
	INIT_RCU_WORK(&s->free_rwork, pk_session_free_work);
	queue_rcu_work(pk_wq, &s->free_rwork);
}

void pk_session_put(struct pk_session *s)
{
	kref_put(&s->ref, pk_session_release);
}

bool pk_session_is_active(const struct pk_session *s)
{
	return READ_ONCE(s->state) == PROFIL_STATE_ACTIVE;
}

/* Take or drop the scheduler-tick clock for @s. Caller holds s->mutex. */
static int pk_session_use_tick(struct pk_session *s, bool use)
{
	int err = 0;

	if (use && !s->on_tick_clock)
		err = pk_tick_clock_get(true);
	else if (!use && s->on_tick_clock)
		pk_tick_clock_put(true);
	if (!err)
		s->on_tick_clock = use;
	return err;
}

static void pk_session_teardown(struct work_struct *work)
{
	struct pk_session *s =
		container_of(work, struct pk_session, teardown_work);
	struct pk_thread *t, *tmp;

	mutex_lock(&s->mutex);
	list_for_each_entry_safe(t, tmp, &s->threads, node)
		pk_thread_detach(t);
	pk_session_use_tick(s, false);
	mutex_unlock(&s->mutex);

	/* queue_work() ordered the store of @quiet before this. */
	if (!READ_ONCE(s->quiet))
		pk_netlink_notify_stopped(s);
	pk_session_put(s);
	/* The reference an active session holds on the module. */
	module_put(THIS_MODULE);
}

/**
 * pk_session_stop() - turn profiling off
 * @s: the session
 * @reason: enum profil_stop_reason
 * @addr: the failed address for %PROFIL_STOP_FAULT, else 0
 *
 * The first caller wins; later calls do nothing. Releasing the events is
 * left to a work item. Ticks already running may still write; use
 * pk_session_stop_sync() to wait for them.
 *
 * Context: any but hard interrupt.
 * Return: true if this call stopped the session.
 */
bool pk_session_stop(struct pk_session *s, int reason, u64 addr)
{
	unsigned long flags;
	bool stopped = false;

	raw_spin_lock_irqsave(&s->lock, flags);
	if (s->state == PROFIL_STATE_ACTIVE) {
		WRITE_ONCE(s->state, PROFIL_STATE_STOPPED);
		s->reason = reason;
		s->fault_addr = addr;
		kref_get(&s->ref);
		queue_work(pk_wq, &s->teardown_work);
		stopped = true;
	}
	raw_spin_unlock_irqrestore(&s->lock, flags);
	if (stopped && s->collector)
		pk_collector_image_end(s->collector, s->image, reason, NULL);
	return stopped;
}

/**
 * pk_session_stop_sync() - turn profiling off and wait for writers
 * @s: the session
 * @reason: enum profil_stop_reason
 *
 * When this returns nothing writes to the buffer any more: every tick
 * that saw the session active has finished (they run with interrupts off,
 * so an RCU grace period covers them), every deferred write has either
 * finished or will see the session stopped, and the events are released.
 *
 * Context: process context, may sleep.
 */
void pk_session_stop_sync(struct pk_session *s, int reason)
{
	pk_session_stop(s, reason, 0);
	synchronize_rcu();
	mutex_lock(&s->write_mutex);
	mutex_unlock(&s->write_mutex);
	flush_work(&s->teardown_work);
}

/**
 * pk_session_end_stopped() - forget a session stopped a grace period ago
 * @s: the session, stopped by pk_session_stop() before a synchronize_rcu()
 *
 * pk_session_end() for many sessions at once (a machine-wide profile's
 * close) with one grace period instead of one each.
 *
 * Context: process context, may sleep.
 */
void pk_session_end_stopped(struct pk_session *s)
{
	mutex_lock(&s->write_mutex);
	mutex_unlock(&s->write_mutex);
	flush_work(&s->teardown_work);
	pk_table_remove(s);
}

/**
 * pk_session_end() - stop a session and forget it
 * @s: the session
 * @reason: enum profil_stop_reason
 *
 * As pk_session_stop_sync(), and the table lets go of @s: a kernel-held
 * session whose collector is gone is not reported any more.
 *
 * Context: process context, may sleep.
 */
void pk_session_end(struct pk_session *s, int reason)
{
	pk_session_stop_sync(s, reason);
	pk_table_remove(s);
}

/**
 * pk_sessions_flush() - let stopped sessions' teardowns and frees finish
 *
 * A collector's images get their final accounting as their sessions are
 * freed, from RCU work items: a read of the profile waits for those
 * already on their way.
 *
 * Context: process context, may sleep.
 */
void pk_sessions_flush(void)
{
	flush_workqueue(pk_wq);
	rcu_barrier();
	flush_workqueue(pk_wq);
}

/*
 * The address space of @leader's process, mmgrab'd, or NULL. Taken from
 * any thread: the group leader may have exited before the others.
 */
static struct mm_struct *pk_process_mm(struct task_struct *leader)
{
	struct mm_struct *mm = NULL;
	struct task_struct *task;

	rcu_read_lock();
	for_each_thread(leader, task) {
		task_lock(task);
		mm = task->mm;
		if (mm)
			mmgrab(mm);
		task_unlock(task);
		if (mm)
			break;
	}
	rcu_read_unlock();
	return mm;
}

/*
 * Serials of published parameters, module-wide, so that a dump that
 * spans a stop and a new start of one process sees them differ. 0 is
 * left out: genl_dump_check_consistent() does not compare it.
 */
static atomic_t pk_params_serial = ATOMIC_INIT(0);

/**
 * pk_params_dup() - a copy of parameters, for publishing
 * @req: the parameters; the copy takes a reference on their set
 *
 * The copy gets a serial no other publication had (until the 32-bit
 * counter wraps, 2^32 publications later).
 *
 * Context: process context.
 * Return: the copy, or NULL.
 */
struct pk_params *pk_params_dup(const struct pk_params *req)
{
	struct pk_params *p = kmemdup(req, sizeof(*req), GFP_KERNEL_ACCOUNT);

	if (!p)
		return NULL;
	if (p->collector)
		pk_collector_get(p->collector);
	else
		pk_regions_get(p->regions);
	/* Once here, so that no tick divides by the rate. */
	p->period = p->rate ? NSEC_PER_SEC / p->rate : 0;
	do {
		p->serial = atomic_inc_return(&pk_params_serial);
	} while (!p->serial);
	return p;
}

/* Context: process context; nothing reads @p any more. */
void pk_params_free(struct pk_params *p)
{
	if (!p)
		return;
	if (p->collector)
		pk_collector_put(p->collector);
	else
		pk_regions_put(p->regions);
	kfree(p);
}

static struct pk_session *pk_session_alloc(struct task_struct *leader,
					   const struct pk_params *req)
{
	struct pk_params *params;
	struct pk_session *s;
	struct mm_struct *mm;
	int err = -ENOMEM;

	s = kzalloc(sizeof(*s), GFP_KERNEL_ACCOUNT);
	params = pk_params_dup(req);
	if (!s || !params)
		goto err_free;
	s->stats = alloc_percpu_gfp(struct pk_stats, GFP_KERNEL_ACCOUNT);
	if (!s->stats)
		goto err_free;

	/* No thread has one when the process has exited and awaits reaping. */
	mm = pk_process_mm(leader);
	err = -ESRCH;
	if (!mm)
		goto err_free;

	s->mm = mm;
	s->tgid = get_pid(task_tgid(leader));
	s->kind = pk_params_kind(req);
	s->collector = params->collector;
	RCU_INIT_POINTER(s->params, params);
	s->state = PROFIL_STATE_ACTIVE;
	raw_spin_lock_init(&s->lock);
	mutex_init(&s->mutex);
	mutex_init(&s->write_mutex);
	INIT_LIST_HEAD(&s->threads);
	INIT_WORK(&s->teardown_work, pk_session_teardown);
	kref_init(&s->ref);
	if (s->collector) {
		s->image = pk_collector_image_add(s->collector, s, leader,
						  req->parent_image);
		err = pk_collector_closed(s->collector) ? -ESHUTDOWN : -ENOSPC;
		if (!s->image) {
			pk_session_put(s);
			return ERR_PTR(err);
		}
	}
	return s;

err_free:
	pk_params_free(params);
	if (s)
		free_percpu(s->stats);
	kfree(s);
	return ERR_PTR(err);
}

/*
 * Move the threads of @s to the clock @rate needs. New task-clock events
 * are made before the new parameters are published and return at once
 * until then; old ones go after. Caller holds s->mutex.
 */
static int pk_session_set_clocks(struct pk_session *s, u32 rate, bool published)
{
	bool tick = pk_rides_tick(rate);
	struct perf_event *event;
	struct pk_thread *t;

	pk_session_reap(s);
	if (tick || published) {
		int err = pk_session_use_tick(s, tick);

		if (err)
			return err;
	}
	list_for_each_entry(t, &s->threads, node) {
		if (tick && t->event && published) {
			perf_event_release_kernel(t->event);
			t->event = NULL;
		} else if (!tick && !t->event && !published) {
			/* Not a new thread: its clock keeps its phase. */
			WRITE_ONCE(t->event_short, false);
			event = pk_sampler_create(t, rate, false);
			/* A thread exiting under us needs no clock. */
			if (IS_ERR(event) && PTR_ERR(event) != -ESRCH)
				return PTR_ERR(event);
			t->event = IS_ERR(event) ? NULL : event;
		} else if (!tick && t->event && published) {
			int err = perf_event_period(t->event,
						    NSEC_PER_SEC / rate);

			/* perf checked the period: cannot fail for ours. */
			WARN_ON_ONCE(err);
		}
	}
	return 0;
}

/*
 * Undo a failed move to the timer clock: on the scheduler tick's clock
 * (@rate), no thread has an event. Caller holds s->mutex.
 */
static void pk_session_drop_events(struct pk_session *s, u32 rate)
{
	struct pk_thread *t;

	if (!pk_rides_tick(rate))
		return;
	list_for_each_entry(t, &s->threads, node) {
		if (t->event) {
			perf_event_release_kernel(t->event);
			t->event = NULL;
		}
	}
}

/* Swap the parameters of an active session. Caller holds s->mutex. */
static int pk_session_restart(struct pk_session *s, const struct pk_params *req)
{
	struct pk_params *old, *params;
	int err;

	old = rcu_dereference_protected(s->params, lockdep_is_held(&s->mutex));
	params = pk_params_dup(req);
	if (!params)
		return -ENOMEM;
	params->generation = old->generation + 1;

	err = pk_session_set_clocks(s, params->rate, false);
	if (err) {
		pk_session_drop_events(s, old->rate);
		pk_params_free(params);
		return err;
	}
	/* Deferred writes compare generations under write_mutex. */
	mutex_lock(&s->write_mutex);
	rcu_assign_pointer(s->params, params);
	mutex_unlock(&s->write_mutex);
	/* Ticks still using the old buffer finish before the caller goes on. */
	synchronize_rcu();
	pk_session_set_clocks(s, params->rate, true);
	pk_params_free(old);
	return 0;
}

/*
 * The process may have exited, or exec'd, between the moment its address
 * space was taken and the session's insertion, when the exit and exec
 * probes could not see the session yet. Their probes run after the group's
 * live count drops and after the new mm is in place; the barrier pairs
 * with theirs (atomic_dec_and_test(), task_unlock()): either they see the
 * session or this sees them.
 */
static void pk_session_check_gone(struct pk_session *s,
				  struct task_struct *leader)
{
	struct mm_struct *mm;

	/* Pairs with the exit and exec paths, as above. */
	smp_mb();
	if (!atomic_read(&leader->signal->live)) {
		pk_session_stop(s, PROFIL_STOP_EXIT, 0);
		pk_table_remove(s);
		return;
	}
	mm = pk_process_mm(leader);
	if (mm != s->mm)
		pk_session_stop(s, PROFIL_STOP_EXEC, 0);
	if (mm)
		mmdrop(mm);
}

/* Release what pk_start_lock() took; @held: the mutex is held. */
static void pk_start_unlock(struct pk_start_lock *l, bool held)
{
	bool last;

	if (held)
		mutex_unlock(&l->mutex);
	spin_lock(&pk_start_locks_lock);
	last = !--l->users;
	if (last)
		hash_del(&l->node);
	spin_unlock(&pk_start_locks_lock);
	if (last) {
		put_pid(l->tgid);
		kfree(l);
	}
}

/*
 * Take the start lock of the process @tgid, killably: a start waits at
 * most for another start of the same process.
 * Return: the lock, held, or an ERR_PTR().
 */
static struct pk_start_lock *pk_start_lock(struct pid *tgid)
{
	struct pk_start_lock *l, *new;

	new = kzalloc(sizeof(*new), GFP_KERNEL_ACCOUNT);
	if (!new)
		return ERR_PTR(-ENOMEM);
	spin_lock(&pk_start_locks_lock);
	hash_for_each_possible(pk_start_locks, l, node, (unsigned long)tgid)
		if (l->tgid == tgid)
			goto found;
	l = new;
	new = NULL;
	l->tgid = get_pid(tgid);
	mutex_init(&l->mutex);
	hash_add(pk_start_locks, &l->node, (unsigned long)tgid);
found:
	l->users++;
	spin_unlock(&pk_start_locks_lock);
	kfree(new);

	if (mutex_lock_killable(&l->mutex)) {
		pk_start_unlock(l, false);
		return ERR_PTR(-EINTR);
	}
	return l;
}

/**
 * pk_session_start() - start or restart profiling of a process
 * @leader: any thread of the process
 * @req: the parameters; buf and scale are non-zero
 * @how: what becomes of a session the process has already
 *
 * Context: process context, may sleep.
 * Return: 0 or a negative errno.
 */
int pk_session_start(struct task_struct *leader, const struct pk_params *req,
		     enum pk_start_how how)
{
	struct pk_start_lock *lock;
	struct pk_session *old, *s;
	bool restarted = false;
	int err;

	lock = pk_start_lock(task_tgid(leader));
	if (IS_ERR(lock))
		return PTR_ERR(lock);
	old = pk_session_find(task_tgid(leader), pk_params_kind(req));
	if (old && how == PK_START_UNLESS_ANY) {
		err = -EEXIST;
		goto out_put_old;
	}
	if (old) {
		err = mutex_lock_killable(&old->mutex);
		if (err)
			goto out_put_old;
		/*
		 * An active session is restarted, or refused (under
		 * the start lock, so no START slips in between); a stopped
		 * one is replaced.
		 */
		restarted = pk_session_is_active(old);
		/* A kernel-held session's collector and image are for good. */
		if (restarted)
			err = how == PK_START_UNLESS_ACTIVE || req->collector ?
				      -EEXIST :
				      pk_session_restart(old, req);
		mutex_unlock(&old->mutex);
		if (restarted)
			goto out_put_old;
	}

	s = pk_session_alloc(leader, req);
	err = PTR_ERR_OR_ZERO(s);
	if (err)
		goto out_put_old;
	/* An active session pins the module; refused once unloading began. */
	err = -ENODEV;
	if (!try_module_get(THIS_MODULE))
		goto err_put_new;
	mutex_lock(&s->mutex);
	err = pk_session_use_tick(s, pk_rides_tick(req->rate));
	mutex_unlock(&s->mutex);
	if (err)
		goto err_module;

	/*
	 * The table owns the initial reference from here on; this start
	 * keeps one of its own, since an exit probe may take the session
	 * out of the table while the threads are attached.
	 */
	kref_get(&s->ref);
	err = pk_table_replace(old, s);
	if (err) {
		/* Not the last reference: the caller's is still there. */
		pk_session_put(s);
		mutex_lock(&s->mutex);
		pk_session_use_tick(s, false);
		mutex_unlock(&s->mutex);
		goto err_module;
	}
	err = pk_session_attach_all(s, leader);
	if (err) {
		/* Nobody asked for this stop: no STOPPED with reason REQUEST. */
		WRITE_ONCE(s->quiet, true);
		pk_session_stop_sync(s, PROFIL_STOP_REQUEST);
		pk_table_remove(s);
		goto out_put_new;
	}
	pk_session_check_gone(s, leader);
	/*
	 * Only now may the collector's close see the session: one that
	 * closed meanwhile is left to end it here.
	 */
	if (s->collector &&
	    !pk_collector_image_publish(s->collector, s->image, s))
		pk_session_end(s, PROFIL_STOP_CLOSED);
out_put_new:
	pk_session_put(s);
out_put_old:
	if (old)
		pk_session_put(old);
	pk_start_unlock(lock, true);
	return err;

err_module:
	module_put(THIS_MODULE);
err_put_new:
	pk_session_put(s);
	goto out_put_old;
}

/**
 * pk_session_exec() - a process called execve()
 * @task: current, after the new image is in place
 *
 * A buffer session goes off, as profil(2) has it; kernel-held ones
 * follow the new image.
 *
 * Context: the sched_process_exec tracepoint, preemption disabled.
 */
void pk_session_exec(struct task_struct *task)
{
	struct pk_session *s;

	s = pk_session_find(task_tgid(task), PROFIL_KIND_BUFFER);
	if (s) {
		pk_session_stop(s, PROFIL_STOP_EXEC, 0);
		pk_session_put(s);
	}
	s = pk_session_find(task_tgid(task), PROFIL_KIND_HELD);
	if (s) {
		pk_follow_exec(s, task);
		pk_session_put(s);
	}
}

/**
 * pk_session_exit() - a process is gone: forget its sessions
 * @task: current, a thread exiting after its group died (two threads
 *	exiting together may both come here: pk_table_hide() picks one)
 *
 * Context: the sched_process_exit tracepoint, preemption disabled.
 */
void pk_session_exit(struct task_struct *task)
{
	struct pk_session *s;
	int kind;

	for (kind = 0; kind <= PROFIL_KIND_MAX; kind++) {
		s = pk_session_find(task_tgid(task), kind);
		if (!s)
			continue;
		/* Another thread exiting with this one ends it. */
		if (pk_table_hide(s)) {
			/* Its last command name, before the stop's. */
			if (s->collector)
				pk_collector_image_end(s->collector, s->image,
						       PROFIL_STOP_EXIT, task);
			pk_session_stop(s, PROFIL_STOP_EXIT, 0);
		}
		pk_session_put(s);
	}
}

/**
 * pk_session_stats() - sum the tick accounting over the CPUs
 * @s: the session
 * @out: indexed by enum profil_stat
 *
 * Exact once the session is stopped and its writes are done; while it
 * runs, each count lies between its values at the call's start and end.
 */
void pk_session_stats(struct pk_session *s, u64 *out)
{
	unsigned int cpu, i;

	memset(out, 0, sizeof(u64) * (PROFIL_STAT_MAX + 1));
	for_each_possible_cpu(cpu) {
		const struct pk_stats *c = per_cpu_ptr(s->stats, cpu);

		for (i = PROFIL_STAT_TICKS; i <= PROFIL_STAT_MAX; i++)
			out[i] += READ_ONCE(c->count[i]);
	}
	/*
	 * A deferred tick leaves PENDING on the CPU its write ran on, maybe
	 * not the one it entered on: a sum read while both move can fall
	 * below zero for a moment.
	 */
	if ((s64)out[PROFIL_STAT_PENDING] < 0)
		out[PROFIL_STAT_PENDING] = 0;
}

int pk_sessions_init(void)
{
	int err;

	pk_wq = alloc_workqueue("profil", 0, 0);
	if (!pk_wq)
		return -ENOMEM;
	err = pk_table_init();
	if (err)
		destroy_workqueue(pk_wq);
	return err;
}

/*
 * Context: module exit. No session is active (each pins the module), no
 * probe runs any more and the family is gone.
 */
void pk_sessions_exit(void)
{
	pk_table_exit();
	/* The frees are RCU work items on pk_wq. */
	rcu_barrier();
	destroy_workqueue(pk_wq);
	/* task_work callbacks drop their module reference as they return. */
	synchronize_rcu_tasks();
}
