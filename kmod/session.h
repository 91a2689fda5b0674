/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Sessions (session.c): the profiling of one process, its parameters and
 * its tick accounting, and the table that finds it by process.
 *
 * A session profiles one process (thread group). Each of its threads is
 * sampled in hard interrupt context on its own CPU: from the scheduler
 * tick by pk_tick_runtime() at rates up to HZ, above that by
 * pk_tick_event(), the overflow handler of a task-clock perf event of
 * its own (sampler.c). A session of the buffer kind adds the tick to a
 * counter in the process's buffer; one of the kernel-held kind has it
 * added to its collector's profile (collector.c), as does one of the
 * machine-wide kind (machine.c). A process has at most one session of
 * each kind, and all count every tick.
 */
#ifndef _PK_SESSION_H
#define _PK_SESSION_H

#include <linux/percpu.h>
#include <linux/kref.h>
#include <linux/list.h>
#include <linux/llist.h>
#include <linux/mutex.h>
#include <linux/rcupdate.h>
#include <linux/rhashtable-types.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/workqueue.h>
#include <linux/profil.h>

#include "collector.h"
#include "session_table.h"

struct mm_struct;
struct pid;
struct pk_collector;
struct pk_regions;
struct task_struct;

/*
 * Parameters of one start request. Immutable once published: a restart
 * publishes a new copy with RCU, so the tick sees all of one or the other,
 * and waits for a grace period before freeing the old one. @serial is
 * unique to each publication (starts, restarts, extensions), for dumps.
 * The params own a reference on @regions, which holds the counters'
 * kind and the regions (status messages report the first), or, for a
 * kernel-held session, on @collector instead. @parent_image: where a
 * kernel-held session's new image came from (a fork's or an exec's), 0
 * for one a request made.
 */
struct pk_params {
	struct pk_regions *regions;
	struct pk_collector *collector;
	u32 parent_image;
	u32 rate;
	u32 period; /* NSEC_PER_SEC / rate: the sampling period, in ns */
	u32 flags;
	u32 generation;
	u32 serial;
};

/*
 * Tick accounting, indexed by enum profil_stat (0 and PAD unused). One
 * copy per CPU, so that threads ticking on different CPUs never write the
 * same cache line: added to with this_cpu operations, whole and safe
 * against interrupts on the CPU that runs them, from the tick and from
 * the deferred writer alike; summed over the CPUs by pk_session_stats().
 */
struct pk_stats {
	u64 count[PROFIL_STAT_MAX + 1];
};

/**
 * struct pk_session - profiling of one process
 * @tgid: the thread group, with @kind the key in the session table
 * @kind: enum profil_kind
 * @collector: a kernel-held session's collector (its params' reference),
 *	else NULL
 * @image: a kernel-held session's image in @collector, 0 if none
 * @follow_work: a kernel-held session's exec: starts the new image's
 *	session as the process returns to user mode (holds a reference)
 * @mm: the address space the buffer lives in (mmgrab'd); ticks of any other
 *	address space are never written
 * @params: current parameters; RCU, read in the tick
 * @state: enum profil_state; written under @lock, read locklessly
 * @reason: enum profil_stop_reason, valid once stopped
 * @fault_addr: user address of the failed write for PROFIL_STOP_FAULT
 * @stats: tick accounting, per CPU (pk_stat_add())
 * @lock: protects the change of @state and @reason, @fault_addr and
 *	@rescan; taken from tracepoint probes (preemption off, hence raw) and
 *	task_work, never from the tick
 * @rescan: a thread without a record yet cloned while the session started
 * @quiet: the start that made the session failed: its stop sends no
 *	notification; set before that stop queues @teardown_work
 * @mutex: protects @threads and @on_tick_clock, serialises changes of
 *	@params
 * @on_tick_clock: the session holds a pk_tick_clock_get() reference
 * @write_mutex: serialises deferred writes against stop and restart, so
 *	that nothing is written once a stop request has returned; held
 *	only with page faults disabled, never across a fault
 * @threads: list of struct pk_thread, RCU for lockless readers
 * @hnode: entry in the session table (session_table.c)
 * @hidden: 1 once the process exited: look-ups pass the session by
 *	until a work item takes it out of the table; set once, by the
 *	xchg() of pk_table_hide()
 * @unhash_node: entry in the list of hidden sessions
 * @teardown_work: releases the perf events after a stop
 * @free_rwork: frees the session after an RCU grace period
 * @ref: the table, each thread, a queued @teardown_work and each lookup
 *	hold one
 */
struct pk_session {
	struct pid *tgid;
	int kind;
	struct pk_collector *collector;
	u32 image;
	struct callback_head follow_work;
	struct mm_struct *mm;
	struct pk_params __rcu *params;
	int state;
	int reason;
	u64 fault_addr;
	bool rescan;
	bool quiet;
	struct pk_stats __percpu *stats;
	raw_spinlock_t lock; /* state changes, from any context */
	struct mutex mutex; /* threads, params changes */
	struct mutex write_mutex; /* deferred writes vs stop */
	struct list_head threads;
	bool on_tick_clock;
	struct rhlist_head hnode;
	int hidden;
	struct llist_node unhash_node;
	struct work_struct teardown_work;
	struct rcu_work free_rwork;
	struct kref ref;
};

/* Add @n to statistic @i of @s, on this CPU; any context. */
static inline void pk_stat_add(struct pk_session *s, enum profil_stat i, u64 n)
{
	this_cpu_add(s->stats->count[i], n);
}

static inline void pk_stat_inc(struct pk_session *s, enum profil_stat i)
{
	this_cpu_inc(s->stats->count[i]);
}

/* The kind of session a start with @p makes. */
static inline int pk_params_kind(const struct pk_params *p)
{
	return p->collector ? PROFIL_KIND_HELD : PROFIL_KIND_BUFFER;
}

/* A reference on @s unless it is being freed. */
static inline bool pk_session_tryget(struct pk_session *s)
{
	return kref_get_unless_zero(&s->ref);
}

static inline struct pk_collector *pk_session_collector(struct pk_session *s)
{
	return s->collector;
}

/**
 * enum pk_start_how - what a start does to a session the process has
 * @PK_START_REPLACE: restart an active session, replace a stopped
 *	one: a START
 * @PK_START_UNLESS_ACTIVE: -EEXIST for an active session
 *	(PROFIL_ATTR_EXCL)
 * @PK_START_UNLESS_ANY: -EEXIST for any: a fork child's inheritance,
 *	which must not replace what its tracer started before it first ran
 */
enum pk_start_how {
	PK_START_REPLACE,
	PK_START_UNLESS_ACTIVE,
	PK_START_UNLESS_ANY,
};

int pk_sessions_init(void);
void pk_sessions_exit(void);
void pk_session_put(struct pk_session *s);
bool pk_session_is_active(const struct pk_session *s);
int pk_session_start(struct task_struct *leader, const struct pk_params *req,
		     enum pk_start_how how);
bool pk_session_stop(struct pk_session *s, int reason, u64 addr);
void pk_session_stop_sync(struct pk_session *s, int reason);
void pk_session_end(struct pk_session *s, int reason);
void pk_session_end_stopped(struct pk_session *s);
void pk_sessions_flush(void);
void pk_session_exec(struct task_struct *task);
void pk_session_exit(struct task_struct *task);
void pk_session_stats(struct pk_session *s, u64 *out);
struct pk_params *pk_params_dup(const struct pk_params *req);
void pk_params_free(struct pk_params *p);

#endif /* _PK_SESSION_H */
