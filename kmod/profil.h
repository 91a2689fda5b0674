/* SPDX-License-Identifier: GPL-2.0 */
/*
 * profil.ko internals.
 *
 * A session profiles one process (thread group). Each of its threads is
 * sampled in hard interrupt context on its own CPU: from the scheduler
 * tick by profil_tick_runtime() at rates up to HZ, above that by
 * profil_tick_event(), the overflow handler of a task-clock perf event of
 * its own. Either adds the tick to a counter in the process's buffer.
 */
#ifndef _PROFIL_H
#define _PROFIL_H

#include <linux/atomic.h>
#include <linux/bits.h>
#include <linux/kref.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/overflow.h>
#include <linux/spinlock.h>
#include <linux/rcupdate.h>
#include <linux/refcount.h>
#include <linux/task_work.h>
#include <linux/types.h>
#include <linux/workqueue.h>
#include <linux/profil.h>
#include <net/netlink.h>

struct dentry;
struct mm_struct;
struct netlink_ext_ack;
struct nlattr;
struct perf_event;
struct profil_attach;
struct pid;
struct sk_buff;
struct task_struct;

/**
 * struct profil_region - one region of a set, as requested
 * @buf: user address of its counters
 * @size: its size in bytes
 * @offset: its lowest PC
 * @scale: 16.16 fixed-point scale
 * @nbins: counters in it: @size over the counter width
 */
struct profil_region {
	u64 buf;
	u64 size;
	u64 offset;
	u64 nbins;
	u32 scale;
};

/* Where a PC maps: a piece of the address space owned by one region. */
struct profil_piece {
	u64 end;
	u32 region;
};

/* What profil_counter_add() does: the counter's width and mode. */
#define PROFIL_KIND_U32 BIT(0)
#define PROFIL_KIND_SATURATE BIT(1)

/**
 * struct profil_regions - a region set (regions.c)
 * @ref: each &struct profil_params naming it and each in-flight fork
 *	attach hold one; the last put frees it (process context)
 * @nr: regions in @region, in request order
 * @nr_pieces: entries of @start and @piece
 * @overflow: index of the overflow bin in @region, or -1
 * @counter: &enum profil_counter
 * @mode: &enum profil_mode
 * @kind: PROFIL_KIND_* for @counter and @mode
 * @shift: log2 of the counter width in bytes
 * @single: made from BUF/BUFSIZ/OFFSET/SCALE: profil()'s rules (any scale
 *	but 0 counts, no overflow bin)
 * @start: sorted first PCs of the disjoint pieces the regions resolve to
 * @piece: for each piece, its end (exclusive) and its region
 * @region: the regions, as requested; @start and @piece follow them in
 *	the same allocation
 *
 * Immutable once built: a tick reads it under RCU through the params.
 */
struct profil_regions {
	refcount_t ref;
	u32 nr;
	u32 nr_pieces;
	int overflow;
	u32 counter;
	u32 mode;
	u32 kind;
	u32 shift;
	bool single;
	u64 *start;
	struct profil_piece *piece;
	struct profil_region region[];
};

/*
 * Parameters of one start request. Immutable once published: a restart
 * publishes a new copy with RCU, so the tick sees all of one or the other,
 * and waits for a grace period before freeing the old one. @serial is
 * unique to each publication (starts, restarts, extensions), for dumps.
 * The params own a reference on @regions, which holds the counters'
 * kind and the regions (status messages report the first).
 */
struct profil_params {
	struct profil_regions *regions;
	u32 rate;
	u32 flags;
	u32 generation;
	u32 serial;
};

/* Tick accounting; see enum profil_stat. Updated from interrupt context. */
struct profil_stats {
	atomic64_t ticks;
	atomic64_t in_range;
	atomic64_t out_of_range;
	atomic64_t system_dropped;
	atomic64_t system_charged;
	atomic64_t deferred;
	atomic64_t pending;
	atomic64_t discarded;
	atomic64_t faulted;
	atomic64_t missed;
	atomic64_t overflow;
	atomic64_t saturated;
	atomic64_t nomem;
};

/* Writes that could not be done in the tick, finished on return to user. */
#define PROFIL_PENDING_SLOTS 8

struct profil_pending {
	u64 addr; /* user address of the counter */
	u32 generation; /* params generation the index was computed for */
	u32 count; /* ticks to add */
	u32 kind; /* PROFIL_KIND_*: the counter's width and mode */
};

/**
 * struct profil_thread - one profiled thread
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
 * @twork: runs profil_deferred_write() on the thread's return to user mode
 * @next_sample: the thread's CPU time at which the scheduler-tick clock
 *	samples next
 * @event_next: the task-clock count of @event at which the timer clock's
 *	next overflow is due
 * @clock_generation: the &profil_params.generation @next_sample and
 *	@event_next were set for; a restart makes them stale
 * @event_short: @event was made with a random first period that has not
 *	been replaced by the real one yet; set before the record is
 *	published and the event made (by the starting task, or a restart's
 *	clock change), cleared by @period_work as the thread itself, read
 *	in its tick
 * @period_queued: @period_work was queued (only the thread's tick sets it)
 * @period_work: restores @event's real period, from process context
 * @tnode: entry in the thread table, for the scheduler-tick clock
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
struct profil_thread {
	struct profil_session *session;
	struct task_struct *task;
	struct perf_event *event;
	struct list_head node;
	raw_spinlock_t lock;
	struct profil_pending pending[PROFIL_PENDING_SLOTS];
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
	struct hlist_node tnode;
	struct profil_attach *spare;
	struct callback_head refill_work;
	bool refill_queued;
	bool clone_missed;
	struct kref ref;
	struct rcu_head rcu;
};

/**
 * struct profil_session - profiling of one process
 * @tgid: the thread group, the key in the session table
 * @mm: the address space the buffer lives in (mmgrab'd); ticks of any other
 *	address space are never written
 * @params: current parameters; RCU, read in the tick
 * @state: enum profil_state; written under @lock, read locklessly
 * @reason: enum profil_stop_reason, valid once stopped
 * @fault_addr: user address of the failed write for PROFIL_STOP_FAULT
 * @stats: tick accounting
 * @lock: protects the change of @state and @reason, @fault_addr and
 *	@rescan; taken from tracepoint probes (preemption off, hence raw) and
 *	task_work, never from the tick
 * @rescan: a thread without a record yet cloned while the session started
 * @quiet: the start that made the session failed: its stop sends no
 *	notification; set before that stop queues @teardown_work
 * @mutex: protects @threads and @on_tick_clock, serialises changes of
 *	@params
 * @on_tick_clock: the session holds a profil_tick_clock_get() reference
 * @write_mutex: serialises deferred writes against stop and restart, so
 *	that nothing is written once a stop request has returned; held
 *	only with page faults disabled, never across a fault
 * @threads: list of struct profil_thread, RCU for lockless readers
 * @hnode: entry in the session table
 * @teardown_work: releases the perf events after a stop
 * @free_rwork: frees the session after an RCU grace period
 * @ref: the table, each thread, a queued @teardown_work and each lookup
 *	hold one
 */
struct profil_session {
	struct pid *tgid;
	struct mm_struct *mm;
	struct profil_params __rcu *params;
	int state;
	int reason;
	u64 fault_addr;
	bool rescan;
	bool quiet;
	struct profil_stats stats;
	raw_spinlock_t lock; /* state changes, from any context */
	struct mutex mutex; /* threads, params changes */
	struct mutex write_mutex; /* deferred writes vs stop */
	struct list_head threads;
	bool on_tick_clock;
	struct hlist_node hnode;
	struct work_struct teardown_work;
	struct rcu_work free_rwork;
	struct kref ref;
};

/**
 * enum profil_start_how - what a start does to a session the process has
 * @PROFIL_START_REPLACE: restart an active session, replace a stopped
 *	one: a START
 * @PROFIL_START_UNLESS_ACTIVE: -EEXIST for an active session
 *	(PROFIL_ATTR_EXCL)
 * @PROFIL_START_UNLESS_ANY: -EEXIST for any: a fork child's inheritance,
 *	which must not replace what its tracer started before it first ran
 */
enum profil_start_how {
	PROFIL_START_REPLACE,
	PROFIL_START_UNLESS_ACTIVE,
	PROFIL_START_UNLESS_ANY,
};

/* session.c */
int profil_sessions_init(void);
void profil_sessions_exit(void);
struct profil_session *profil_session_lookup(struct pid *tgid);
struct profil_session *profil_session_find(struct pid *tgid);
struct profil_session *profil_session_next(unsigned long *pos);
unsigned int profil_session_table_seq(void);
void profil_session_put(struct profil_session *s);
bool profil_session_is_active(const struct profil_session *s);
int profil_session_start(struct task_struct *leader,
			 const struct profil_params *req,
			 enum profil_start_how how);
void profil_session_stop(struct profil_session *s, int reason, u64 addr);
void profil_session_stop_sync(struct profil_session *s, int reason);
void profil_session_exec(struct task_struct *task);
void profil_session_exit(struct task_struct *task);
void profil_session_stats(struct profil_session *s, u64 *out);
struct profil_params *profil_params_dup(const struct profil_params *req);
void profil_params_free(struct profil_params *p);

/* thread.c */
struct profil_thread *profil_thread_find(struct task_struct *task);
struct profil_thread *profil_session_thread(struct profil_session *s,
					    struct task_struct *task);
void profil_thread_release(struct kref *ref);
void profil_thread_detach(struct profil_thread *t);
void profil_session_reap(struct profil_session *s);
int profil_session_add_threads(struct profil_session *s,
			       struct task_struct **tasks, unsigned int n);
int profil_session_thread_add(struct profil_session *s,
			      struct task_struct *task);

/* attach.c */
struct profil_attach *profil_attach_alloc(void);
void profil_attach_refill(struct callback_head *head);
int profil_session_attach_all(struct profil_session *s,
			      struct task_struct *leader);
void profil_session_fork(struct task_struct *parent, struct task_struct *child);

/* regions.c */
struct profil_regions *profil_regions_single(u64 buf, u64 bufsiz, u64 offset,
					     u32 scale, u32 counter, u32 mode);
extern const struct nla_policy profil_region_policy[PROFIL_REGION_MAX + 1];
struct profil_regions *profil_regions_from_nl(const struct nlattr *head,
					      int len,
					      const struct profil_regions *old,
					      u32 counter, u32 mode,
					      struct netlink_ext_ack *extack);
void profil_regions_get(struct profil_regions *rs);
void profil_regions_put(struct profil_regions *rs);
int profil_session_add_regions(struct profil_session *s,
			       const struct nlattr *head, int len,
			       struct netlink_ext_ack *extack);

/*
 * What profil_regions_map() found for a PC: a counter of a region, the
 * overflow bin's counter, or nothing.
 */
enum profil_map {
	PROFIL_MAP_NONE,
	PROFIL_MAP_REGION,
	PROFIL_MAP_OVERFLOW,
};

/**
 * profil_regions_map() - the counter a PC is counted in
 * @rs: the set
 * @pc: the sampled user PC
 * @addr: on success, the user address of the counter
 *
 * A binary search of the pieces for the last one starting at or below @pc,
 * then glibc's index within its region. An index past the region's end
 * (which the pieces' ends exclude) or a PC in no piece goes to the
 * overflow bin, if the set has one.
 *
 * Context: any; the caller keeps @rs alive (RCU through the params).
 * Return: &enum profil_map.
 */
static inline enum profil_map
profil_regions_map(const struct profil_regions *rs, u64 pc, u64 *addr)
{
	const struct profil_region *r;
	const u64 *start = rs->start;
	u32 base = 0, n = rs->nr_pieces, half;
	u64 h, idx;

	if (!n || pc < start[0])
		goto overflow;
	while (n > 1) {
		half = n / 2;
		if (start[base + half] <= pc)
			base += half;
		n -= half;
	}
	if (pc >= rs->piece[base].end)
		goto overflow;
	r = &rs->region[rs->piece[base].region];
	h = (pc - r->offset) >> rs->shift;
	/* glibc's LP64 form, exact in 64 bits; overflows only past nbins. */
	if (!check_mul_overflow(h >> 16, (u64)r->scale, &idx) &&
	    !check_add_overflow(idx, ((h & 0xffff) * r->scale) >> 16, &idx) &&
	    idx < r->nbins) {
		*addr = r->buf + (idx << rs->shift);
		return PROFIL_MAP_REGION;
	}
overflow:
	if (rs->overflow < 0)
		return PROFIL_MAP_NONE;
	*addr = rs->region[rs->overflow].buf;
	return PROFIL_MAP_OVERFLOW;
}

/**
 * profil_region_used() - whether a region's counters are ever written
 * @rs: the set
 * @r: one of its regions
 *
 * A region without a counter is ignored, as is one whose scale is below 2
 * in a set (sprofil()'s rule) or 0 in profil()'s single region.
 */
static inline bool profil_region_used(const struct profil_regions *rs,
				      const struct profil_region *r)
{
	return r->nbins && r->scale >= (rs->single ? 1 : 2);
}

/* sampler.c */
bool profil_rides_tick(u32 rate);
void profil_tick_runtime(struct task_struct *task, u64 pending);
struct perf_event *profil_sampler_create(struct profil_thread *t, u32 rate,
					 bool random_first);
int profil_sampler_set_rate(struct perf_event *event, u32 rate);
void profil_sampler_release(struct perf_event *event);
void profil_deferred_write(struct callback_head *head);
void profil_period_restore(struct callback_head *head);

/* lifecycle.c */
int profil_lifecycle_init(void);
void profil_lifecycle_exit(void);
int profil_tick_clock_get(void);
void profil_tick_clock_put(void);

/*
 * fault.c: the fault attribute of the writes to user memory, in debug
 * kernels only (CONFIG_FAULT_INJECTION); elsewhere the writes never fail
 * on purpose and there is nothing in debugfs.
 */
#ifdef CONFIG_FAULT_INJECTION
bool profil_fail_user_write(void);
void profil_fault_init(struct dentry *parent);
void profil_fault_exit(void);
#else
static inline bool profil_fail_user_write(void)
{
	return false;
}

static inline void profil_fault_init(struct dentry *parent)
{
}

static inline void profil_fault_exit(void)
{
}
#endif

/* netlink.c */
int __init profil_netlink_init(void);
bool profil_start_allowed(bool audit);
bool profil_timer_clock_allowed(bool audit);
void profil_netlink_exit(void);
void profil_netlink_notify_stopped(struct profil_session *s);

#endif /* _PROFIL_H */
