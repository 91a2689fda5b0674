/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Thread records (thread.c): one per profiled thread, with its clock
 * state and the writes its tick could not finish, and the table the
 * scheduler-tick clock finds them in.
 */
#ifndef _PK_THREAD_H
#define _PK_THREAD_H

#include <linux/kref.h>
#include <linux/list.h>
#include <linux/rcupdate.h>
#include <linux/rhashtable-types.h>
#include <linux/spinlock.h>
#include <linux/task_work.h>
#include <linux/types.h>

struct perf_event;
struct pk_attach;
struct pk_session;
struct task_struct;

/* Writes that could not be done in the tick, finished on return to user. */
#define PK_PENDING_SLOTS 8

struct pk_pending {
	u64 addr; /* user address of the counter */
	u32 generation; /* params generation the index was computed for */
	u32 count; /* ticks to add */
	u32 kind; /* PK_KIND_*: the counter's width and mode */
};

/**
 * struct pk_thread - one profiled thread
 * @session: owning session (holds a reference)
 * @task: the thread (holds a reference)
 * @event: its task-clock event above HZ, else NULL; also NULL above HZ
 *	between a start's publication of the record and the event's making,
 *	or for a thread that exited first. Written under @session->mutex,
 *	released in process context
 * @node: entry in @session->threads, under @session->mutex
 * @lock: protects @pending and @nr_pending; taken in the tick with
 *	interrupts off and by the deferred writer
 * @pending: deferred writes not done yet
 * @nr_pending: used slots of @pending
 * @work_queued: @twork is queued on @task (set in the tick, cleared by it)
 * @twork: runs pk_deferred_write() on the thread's return to user mode
 * @next_sample: the thread's CPU time at which the scheduler-tick clock
 *	samples next
 * @event_next: the task-clock count of @event at which the timer clock's
 *	next overflow is due
 * @clock_generation: the &pk_params.generation @next_sample and
 *	@event_next were set for; a restart makes them stale
 * @event_short: @event was made with a random first period that has not
 *	been replaced by the real one yet; set before the record is
 *	published and the event made (by the starting task, or a restart's
 *	clock change), cleared by @period_work as the thread itself, read
 *	in its tick
 * @period_queued: @period_work was queued (only the thread's tick sets it)
 * @period_work: restores @event's real period, from process context
 * @tnode: entry in the thread table, for the scheduler-tick clock and
 *	the fork probe
 * @spare: what the next clone of @task hands its child, so that the fork
 *	probe never allocates; taken with xchg() there, refilled by
 *	@refill_work
 * @refill_work: allocates the next @spare as @task returns from clone
 * @refill_queued: @refill_work is queued; only @task touches it
 * @clone_missed: a thread @task cloned found no @spare (io_uring makes
 *	several workers in one system call): @refill_work attaches it with a
 *	pass over the thread list; only @task touches it
 * @ref: the session list, a queued @twork, @period_work and @refill_work
 *	each hold one
 * @rcu: deferred free, the thread table is read locklessly
 */
struct pk_thread {
	struct pk_session *session;
	struct task_struct *task;
	struct perf_event *event;
	struct list_head node;
	raw_spinlock_t lock;
	struct pk_pending pending[PK_PENDING_SLOTS];
	unsigned int nr_pending;
	bool work_queued;
	struct callback_head twork;
	/* Only touched from the thread's own tick: hard irq on its CPU. */
	u64 next_sample;
	u64 event_next;
	u32 clock_generation;
	bool event_short;
	bool period_queued;
	struct callback_head period_work;
	struct rhlist_head tnode;
	struct pk_attach *spare;
	struct callback_head refill_work;
	bool refill_queued;
	bool clone_missed;
	struct kref ref;
	struct rcu_head rcu;
};

int pk_threads_init(void);
void pk_threads_exit(void);
struct pk_thread *pk_thread_next(struct task_struct *task,
				 struct pk_thread *prev);
struct pk_thread *pk_session_thread(struct pk_session *s,
				    struct task_struct *task);
void pk_thread_release(struct kref *ref);
void pk_thread_detach(struct pk_thread *t);
void pk_session_reap(struct pk_session *s);
int pk_session_add_threads(struct pk_session *s, struct task_struct **tasks,
			   unsigned int n);
int pk_session_thread_add(struct pk_session *s, struct task_struct *task);

#endif /* _PK_THREAD_H */
