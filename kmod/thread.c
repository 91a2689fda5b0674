// SPDX-License-Identifier: GPL-2.0
/*
 * Thread records: one per sampled thread of a session.
 *
 * A record (struct pk_thread) is made in process context, by a start's
 * pass over the thread list or by a new thread attaching itself, and is
 * published on its session's list and in the thread table, where the
 * scheduler tick's probe finds it under RCU. Its timer clock (above HZ)
 * is a perf event of its own. Records are added and removed under the
 * session's mutex; the last reference frees one after an RCU grace period.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/hash.h>
#include <linux/mm.h>
#include <linux/perf_event.h>
#include <linux/random.h>
#include <linux/rculist.h>
#include <linux/rhashtable.h>
#include <linux/sched.h>
#include <linux/sched/task.h>
#include <linux/slab.h>

#include "attach.h"
#include "sampler.h"
#include "session.h"
#include "thread.h"

/*
 * Threads by task, for the scheduler-tick clock and the fork probe: a
 * table that grows with the records (and shrinks), so that a lookup
 * costs the same however many threads the sessions sample. A task has
 * two records while a stopped session's lingers next to the session that
 * replaced it: the list table keeps both under one key. Inserts and
 * removals run in process context, under the table's bucket locks;
 * lookups hold RCU. The tick's, with interrupts off, is bounded:
 * pk_thread_lookup_tick().
 */
static u32 pk_task_hash(const void *data, u32 len, u32 seed);

static const struct rhashtable_params pk_threads_params = {
	.key_len = sizeof(struct task_struct *),
	.key_offset = offsetof(struct pk_thread, task),
	.head_offset = offsetof(struct pk_thread, tnode),
	.hashfn = pk_task_hash,
	.automatic_shrinking = true,
};

/*
 * The key is a task pointer: a multiply spreads it well enough, as
 * hash_ptr() does, in a few instructions where jhash takes some forty on
 * every tick of every task.
 */
static u32 pk_task_hash(const void *data, u32 len, u32 seed)
{
	return hash_64(*(const unsigned long *)data ^ seed, 32);
}

static struct rhltable pk_threads;

static void pk_thread_free_rcu(struct rcu_head *rcu)
{
	struct pk_thread *t = container_of(rcu, struct pk_thread, rcu);

	kfree(t->spare);
	kfree(t);
}

/*
 * Context: any. A last put from the tick or the fork probe comes from
 * t->task itself, so put_task_struct() does not free the task there.
 */
void pk_thread_release(struct kref *ref)
{
	struct pk_thread *t = container_of(ref, struct pk_thread, ref);

	put_task_struct(t->task);
	pk_session_put(t->session);
	/* The spare's kfree() may sleep on PREEMPT_RT: free it from RCU. */
	call_rcu(&t->rcu, pk_thread_free_rcu);
}

/*
 * How often a look-up from the tick walks its bucket again after ending
 * in another bucket's chain, before it gives up.
 */
#define PK_TICK_LOOKUP_PASSES 4

/*
 * rhltable_lookup() for the tick, without its unbounded retry. The
 * resize worker moves entries to the new table one at a time, and a
 * walk that meets one mid-move ends in its new bucket's chain: the
 * look-up walks the bucket again until it ends in its own. On 6.1 the
 * bucket locks only disable bottom halves (6.7 made them disable
 * interrupts), so the move itself can wait on this tick: the tick may
 * interrupt the worker between the two stores of a move on this CPU, or
 * an interrupt on the worker's CPU may spin on this CPU's runqueue lock,
 * which the tick holds. Either way rhltable_lookup() walks the bucket
 * for ever (a guest froze so in the stress test). After a few passes
 * this one gives up; the thread's next tick finds its record and counts
 * the periods this one missed.
 *
 * Context: hard interrupt, in an RCU read-side critical section.
 * Return: the list of @task's records, or NULL.
 */
static struct rhlist_head *pk_thread_lookup_tick(struct task_struct *task)
{
	struct rhashtable *ht = &pk_threads.ht;
	struct rhash_lock_head __rcu *const *bkt;
	unsigned int hash, passes = 0;
	struct bucket_table *tbl;
	struct rhash_head *he;

	tbl = rht_dereference_rcu(ht->tbl, ht);
	while (tbl) {
		hash = rht_key_hashfn(ht, tbl, &task, pk_threads_params);
		bkt = rht_bucket(tbl, hash);
		rht_for_each_rcu_from(he, rht_ptr_rcu(bkt), tbl, hash) {
			const struct pk_thread *t = rht_obj(ht, he);

			if (t->task == task)
				return container_of(he, struct rhlist_head,
						    rhead);
		}
		if (he != RHT_NULLS_MARKER(bkt)) {
			if (++passes == PK_TICK_LOOKUP_PASSES)
				return NULL;
			continue;
		}
		/* As rhltable_lookup(): see a table the resize added. */
		smp_rmb();
		tbl = rht_dereference_rcu(tbl->future_tbl, ht);
	}
	return NULL;
}

/**
 * pk_thread_next() - the records of a sampled thread, one by one
 * @task: the thread
 * @prev: the record found last, or NULL for the first
 *
 * A thread has a record in each session of its process that samples it,
 * one of each kind. A stopped session's record may linger until its
 * teardown work runs, next to the record of the session that replaced
 * it: skipped.
 *
 * Context: the scheduler tick (hard interrupt), in an RCU read-side
 * critical section, which the result is valid in.
 * Return: the next record of an active session, or NULL, also when the
 *	look-up gave up (pk_thread_lookup_tick()).
 */
struct pk_thread *pk_thread_next(struct task_struct *task,
				 struct pk_thread *prev)
{
	struct rhlist_head *pos;
	struct pk_thread *t;

	pos = prev ? rcu_dereference(prev->tnode.next) :
		     pk_thread_lookup_tick(task);
	for (; pos; pos = rcu_dereference(pos->next)) {
		t = container_of(pos, struct pk_thread, tnode);
		if (pk_session_is_active(t->session))
			return t;
	}
	return NULL;
}

/**
 * pk_session_thread() - the record a session keeps for a thread
 * @s: the session
 * @task: the thread
 *
 * After a restart replaced a stopped session, the old record may still
 * be in the table: only @s's counts.
 *
 * Context: an RCU read-side critical section, which the result is valid in.
 * Return: the record, or NULL.
 */
struct pk_thread *pk_session_thread(struct pk_session *s,
				    struct task_struct *task)
{
	struct rhlist_head *list, *pos;
	struct pk_thread *t;

	list = rhltable_lookup(&pk_threads, &task, pk_threads_params);
	rhl_for_each_entry_rcu(t, pos, list, tnode)
		if (t->session == s)
			return t;
	return NULL;
}

/*
 * Take @t off its session's list and the thread table, stop its clock and
 * drop the list's reference. Caller holds @t->session->mutex.
 */
void pk_thread_detach(struct pk_thread *t)
{
	list_del_rcu(&t->node);
	rhltable_remove(&pk_threads, &t->tnode, pk_threads_params);
	if (t->event)
		perf_event_release_kernel(t->event);
	/* A queued pk_period_restore() finds no event. */
	t->event = NULL;
	kref_put(&t->ref, pk_thread_release);
}

/* Drop records of threads that have exited. Caller holds s->mutex. */
void pk_session_reap(struct pk_session *s)
{
	struct pk_thread *t, *tmp;

	list_for_each_entry_safe(t, tmp, &s->threads, node)
		if (t->task->flags & PF_EXITING)
			pk_thread_detach(t);
}

static const struct pk_params *pk_session_params(struct pk_session *s)
{
	return rcu_dereference_protected(s->params, lockdep_is_held(&s->mutex));
}

static bool pk_session_has_thread(struct pk_session *s,
				  struct task_struct *task)
{
	bool found;

	rcu_read_lock();
	found = pk_session_thread(s, task);
	rcu_read_unlock();
	return found;
}

/*
 * A record for @task, neither published nor with a clock: its spare and
 * its first sampling point. Return: the record; NULL if @task needs none
 * (the session stopped, @task is exiting or has one); or an ERR_PTR.
 */
static struct pk_thread *pk_thread_alloc(struct pk_session *s,
					 struct task_struct *task)
{
	struct pk_thread *t;
	u32 rate;

	lockdep_assert_held(&s->mutex);
	if (!pk_session_is_active(s) || (task->flags & PF_EXITING) ||
	    pk_session_has_thread(s, task))
		return NULL;

	t = kzalloc(sizeof(*t), GFP_KERNEL_ACCOUNT);
	if (!t)
		return ERR_PTR(-ENOMEM);
	t->spare = pk_attach_alloc();
	if (!t->spare) {
		kfree(t);
		return ERR_PTR(-ENOMEM);
	}
	t->session = s;
	t->task = task;
	raw_spin_lock_init(&t->lock);
	init_task_work(&t->twork, pk_deferred_write);
	init_task_work(&t->refill_work, pk_attach_refill);
	init_task_work(&t->period_work, pk_period_restore);
	kref_init(&t->ref);

	/*
	 * The first sampling point falls anywhere in the first period: a
	 * thread shorter than a period is then sampled in proportion to its
	 * CPU time, not never.
	 */
	rate = pk_session_params(s)->rate;
	t->next_sample = task->se.sum_exec_runtime + 1 +
			 get_random_u32_below(NSEC_PER_SEC / rate);
	/* The timer clock's first point is random too: see the tick. */
	t->event_short = true;
	t->clock_generation = pk_session_params(s)->generation;
	return t;
}

/* Free a record that was never published. */
static void pk_thread_discard(struct pk_thread *t)
{
	kfree(t->spare);
	kfree(t);
}

/*
 * Make @t's timer clock, if @s's rate needs one; @t may be published
 * already (the event's handler only uses its own record). Every change
 * of t->event holds s->mutex. Return: 0, -ESRCH if the thread exited (it
 * needs no clock), or another negative errno.
 */
static int pk_thread_make_clock(struct pk_session *s, struct pk_thread *t)
{
	u32 rate = pk_session_params(s)->rate;
	struct perf_event *event;

	lockdep_assert_held(&s->mutex);
	if (pk_rides_tick(rate))
		return 0;
	event = pk_sampler_create(t, rate, true);
	if (IS_ERR(event))
		return PTR_ERR(event);
	t->event = event;
	return 0;
}

/*
 * Make @t its thread's: from here on the tick samples the thread, and
 * the fork probe finds the record (and its spare) when the thread clones.
 * Return: 0, or -ENOMEM or -EBUSY when the table cannot take it (the
 * record is then still @t's caller's to discard).
 */
static int pk_thread_publish(struct pk_session *s, struct pk_thread *t)
{
	int err;

	lockdep_assert_held(&s->mutex);
	get_task_struct(t->task);
	kref_get(&s->ref);
	err = rhltable_insert(&pk_threads, &t->tnode, pk_threads_params);
	if (err) {
		pk_session_put(s);
		put_task_struct(t->task);
		return err;
	}
	list_add_tail_rcu(&t->node, &s->threads);
	return 0;
}

/**
 * pk_session_add_threads() - records for the threads a pass found
 * @s: the session
 * @tasks: threads of @s's process
 * @n: how many
 *
 * Every record is made first, all are published, and only then does each
 * get its timer clock: from its publication a thread's clones are
 * attached by the fork probe, while making a clock first (perf installs
 * an event on a running task with an IPI to its CPU) left each thread a
 * window to clone unseen in, which a chain of short-lived threads kept
 * cloning through, pass after pass. A thread whose clock cannot be made
 * is detached again; one that exited meanwhile keeps a record without a
 * clock until the reap.
 *
 * Context: process context, may sleep.
 * Return: 0, or the first negative errno.
 */
int pk_session_add_threads(struct pk_session *s, struct task_struct **tasks,
			   unsigned int n)
{
	struct pk_thread **recs;
	unsigned int i;
	int err = 0, ret;

	recs = kvcalloc(n, sizeof(*recs), GFP_KERNEL | __GFP_NOWARN);
	if (!recs)
		return -ENOMEM;
	mutex_lock(&s->mutex);
	pk_session_reap(s);
	for (i = 0; i < n && !err; i++) {
		recs[i] = pk_thread_alloc(s, tasks[i]);
		if (IS_ERR(recs[i])) {
			err = PTR_ERR(recs[i]);
			recs[i] = NULL;
		}
	}
	for (i = 0; i < n; i++) {
		if (!recs[i])
			continue;
		if (!err)
			err = pk_thread_publish(s, recs[i]);
		if (err) {
			pk_thread_discard(recs[i]);
			recs[i] = NULL;
		}
	}
	for (i = 0; i < n; i++) {
		if (!recs[i])
			continue;
		ret = pk_thread_make_clock(s, recs[i]);
		if (ret && ret != -ESRCH) {
			/* Unsampled, but found again by the next pass. */
			pk_thread_detach(recs[i]);
			err = err ?: ret;
		}
	}
	mutex_unlock(&s->mutex);
	kvfree(recs);
	return err;
}

/* pk_session_thread_add() without the reaping; holds s->mutex. */
static int pk_session_thread_add_locked(struct pk_session *s,
					struct task_struct *task)
{
	struct pk_thread *t;
	int err;

	t = pk_thread_alloc(s, task);
	if (IS_ERR_OR_NULL(t))
		return PTR_ERR_OR_ZERO(t);
	err = pk_thread_make_clock(s, t);
	if (!err)
		err = pk_thread_publish(s, t);
	if (err) {
		if (t->event)
			perf_event_release_kernel(t->event);
		pk_thread_discard(t);
		/* The thread exited under us: nothing to sample. */
		return err == -ESRCH ? 0 : err;
	}
	return 0;
}

/**
 * pk_session_thread_add() - sample one more thread of the process
 * @s: an active session
 * @task: a thread of @s's process; adding it twice is harmless
 *
 * Context: process context, may sleep; the wait for the session's mutex
 * is killable.
 * Return: 0, or a negative errno if the thread's event cannot be made.
 */
int pk_session_thread_add(struct pk_session *s, struct task_struct *task)
{
	int err;

	err = mutex_lock_killable(&s->mutex);
	if (err)
		return err;
	pk_session_reap(s);
	err = pk_session_thread_add_locked(s, task);
	mutex_unlock(&s->mutex);
	return err;
}

int pk_threads_init(void)
{
	return rhltable_init(&pk_threads, &pk_threads_params);
}

/* Context: module exit, after every session and its records are gone. */
void pk_threads_exit(void)
{
	rhltable_destroy(&pk_threads);
}
