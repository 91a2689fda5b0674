// SPDX-License-Identifier: GPL-2.0
/*
 * The tick: from a clock to a counter in user memory.
 *
 * Two clocks drive the sampling, both counting the thread's own CPU time and
 * both running in hard interrupt context on the thread's CPU with current
 * == the thread. At rates up to HZ, pk_tick_runtime() rides the
 * scheduler tick the kernel takes anyway. Above HZ each thread owns a
 * task-clock perf event, whose hrtimer runs only while the thread runs and
 * calls pk_tick_event(). Either way pk_sample() maps the user PC
 * to a counter exactly as glibc's profil() does and increments it with
 * page faults disabled. A write that cannot be done that way (page not present, or
 * copy-on-write after fork) is recorded in the thread's pending slots and
 * finished by pk_deferred_write() on the thread's return to user mode,
 * where a real fault can be taken. Only a write that faults there turns
 * profiling off; one that finds no memory for the page is given up and
 * counted.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/math64.h>
#include <linux/mm.h>
#include <linux/mmap_lock.h>
#include <linux/module.h>
#include <linux/perf_event.h>
#include <linux/ptrace.h>
#include <linux/random.h>
#include <asm/irq_regs.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/sched/task_stack.h>
#include <linux/uaccess.h>

#include "collector.h"
#include "fault.h"
#include "lifecycle.h"
#include "machine.h"
#include "regions.h"
#include "sampler.h"
#include "session.h"
#include "thread.h"

/* Retries of the locked add before a plain one; contention is rare. */
#define PK_CMPXCHG_TRIES 16

#ifndef unsafe_try_cmpxchg_user
/* No user cmpxchg: every add is a plain read-modify-write. */
#define unsafe_try_cmpxchg_user(ptr, oldp, new, label) false
#endif

/*
 * What to add to a counter holding @val, of which @max is the largest
 * value: all of @count modulo the width (wrap), or up to @max (saturate).
 */
static u32 pk_counter_step(u32 val, u32 max, u32 count, bool saturate)
{
	return saturate ? min(count, max - val) : count;
}

/*
 * PK_COUNTER_ADD(type, max) defines pk_counter_add_<type>, for u16 and u32
 * counters: add @count to the counter of that width at @addr; return what
 * was added (less than @count only when saturating), or -EFAULT. The add is
 * a locked cmpxchg, so that threads ticking on other CPUs never lose a
 * count. A counter that is not naturally aligned (odd buffers only) could
 * straddle a cache line and make that a split lock: it gets a plain
 * read-modify-write as in glibc, as does one still contended after
 * PK_CMPXCHG_TRIES attempts. Wrapping, what is added is @count modulo the
 * width. Faults go to the caller: the tick disables them, the deferred
 * writer takes them.
 */
#define PK_COUNTER_ADD(type, max)                                              \
	static __always_inline long pk_counter_add_##type(u64 addr, u32 count, \
							  bool saturate)       \
	{                                                                      \
		type __user *counter = u64_to_user_ptr(addr);                  \
		bool atomic = IS_ALIGNED(addr, sizeof(type));                  \
		int tries = PK_CMPXCHG_TRIES;                                  \
		type val, add;                                                 \
		if (!user_access_begin(counter, sizeof(*counter)))             \
			return -EFAULT;                                        \
		unsafe_get_user(val, counter, efault);                         \
		for (;;) {                                                     \
			add = (type)pk_counter_step(val, max, count,           \
						    saturate);                 \
			if (!add || !atomic || !tries--)                       \
				break;                                         \
			if (unsafe_try_cmpxchg_user(                           \
				    counter, &val, (type)(val + add), efault)) \
				goto done;                                     \
		}                                                              \
		if (add)                                                       \
			unsafe_put_user((type)(val + add), counter, efault);   \
done:                                                                          \
		user_access_end();                                             \
		return saturate ? add : count;                                 \
efault:                                                                        \
		user_access_end();                                             \
		return -EFAULT;                                                \
	}

PK_COUNTER_ADD(u16, U16_MAX)
PK_COUNTER_ADD(u32, U32_MAX)

/*
 * Add @count to a counter of @kind (PK_KIND_*); see above. On a debug
 * kernel the fault attribute can make it fail as at a missing page.
 */
static __always_inline long pk_counter_add(u64 addr, u32 count, u32 kind)
{
	bool saturate = kind & PK_KIND_SATURATE;

	if (pk_fail_user_write())
		return -EFAULT;
	if (kind & PK_KIND_U32)
		return pk_counter_add_u32(addr, count, saturate);
	return pk_counter_add_u16(addr, count, saturate);
}

static __always_inline long pk_counter_add_nofault(u64 addr, u32 kind)
{
	long ret;

	pagefault_disable();
	ret = pk_counter_add(addr, 1, kind);
	pagefault_enable();
	return ret;
}

/*
 * Queue @t's deferred write on current. The scheduler-tick clock may hold
 * a record that is being reaped (its references gone, its memory kept by
 * RCU), and the module may be on its way out: then nothing is queued.
 */
static bool pk_defer_queue(struct pk_thread *t)
{
	if (!kref_get_unless_zero(&t->ref))
		return false;
	if (!try_module_get(THIS_MODULE))
		goto err_put;
	/* Fails past exit_task_work(): nothing would run it. */
	if (task_work_add(current, &t->twork, TWA_RESUME))
		goto err_module;
	t->work_queued = true;
	return true;

err_module:
	module_put(THIS_MODULE);
err_put:
	kref_put(&t->ref, pk_thread_release);
	return false;
}

/*
 * make bench also builds the module with PK_WRITE_ON_RETURN=1, where the
 * tick never writes and every add waits for the thread's return to user
 * mode, as BSD's addupc_intr() has it: the alternative this design is
 * measured against (Documentation/kmod/mechanism.rst, "Where the counter
 * is written").
 */
#ifndef PK_WRITE_ON_RETURN
#define PK_WRITE_ON_RETURN 0
#endif

/*
 * Record a tick whose counter could not be written from the tick. Runs in
 * hard interrupt context with current == t->task.
 */
static void pk_defer(struct pk_thread *t, u64 addr, u32 generation, u32 kind)
{
	struct pk_session *s = t->session;
	struct pk_pending *slot = NULL;
	unsigned int i;

	raw_spin_lock(&t->lock);
	for (i = 0; i < t->nr_pending; i++) {
		if (t->pending[i].addr == addr &&
		    t->pending[i].generation == generation &&
		    t->pending[i].kind == kind) {
			slot = &t->pending[i];
			break;
		}
	}
	if (!slot && t->nr_pending < PK_PENDING_SLOTS) {
		slot = &t->pending[t->nr_pending++];
		slot->addr = addr;
		slot->generation = generation;
		slot->kind = kind;
		slot->count = 0;
	}
	if (!slot) {
		/* Only distinct counters within one kernel entry get here. */
		pk_stat_inc(s, PROFIL_STAT_DISCARDED);
		goto unlock;
	}
	if (!t->work_queued && !pk_defer_queue(t)) {
		if (!slot->count)
			t->nr_pending--;
		pk_stat_inc(s, PROFIL_STAT_DISCARDED);
		goto unlock;
	}
	slot->count++;
	pk_stat_inc(s, PROFIL_STAT_DEFERRED);
	pk_stat_inc(s, PROFIL_STAT_PENDING);
unlock:
	raw_spin_unlock(&t->lock);
}

/*
 * Count one tick of @t interrupted at @regs. Hard interrupt context, on
 * the profiled thread's CPU, current == t->task; interrupts off make this
 * an RCU-sched read-side critical section, which is what
 * pk_session_stop_sync() waits for. Inlined into both clocks, with the
 * counter add: a call's frame and return were a fifth of what the timer
 * clock cost over an empty handler (Documentation/kmod/cost.rst).
 */
static __always_inline void
pk_sample(struct pk_thread *t, const struct pk_params *p, struct pt_regs *regs)
{
	struct pk_session *s = t->session;
	long added;
	u64 addr;
	u32 kind;

	pk_stat_inc(s, PROFIL_STAT_TICKS);
	if (!user_mode(regs)) {
		/*
		 * A thread that never came from user mode (an io_uring
		 * worker) has no user PC to charge: dropped as without
		 * PROFIL_F_SYSTEM_TICKS.
		 */
		if (!(p->flags & PROFIL_F_SYSTEM_TICKS) ||
		    (current->flags & PK_NO_USER_REGS)) {
			pk_stat_inc(s, PROFIL_STAT_SYSTEM_DROPPED);
			return;
		}
		/* The user PC at which the thread entered the kernel. */
		regs = task_pt_regs(current);
		pk_stat_inc(s, PROFIL_STAT_SYSTEM_CHARGED);
	}

	if (p->collector) {
		/* Attributed on the return to user mode: pk_collect_pc(). */
		pk_defer(t, instruction_pointer(regs), p->generation,
			 PK_KIND_HELD);
		return;
	}

	switch (pk_regions_map(p->regions, instruction_pointer(regs), &addr)) {
	case PK_MAP_NONE:
		pk_stat_inc(s, PROFIL_STAT_OUT_OF_RANGE);
		return;
	case PK_MAP_OVERFLOW:
		pk_stat_inc(s, PROFIL_STAT_OVERFLOW);
		break;
	case PK_MAP_REGION:
		break;
	}
	kind = p->regions->kind;
	added = PK_WRITE_ON_RETURN ? -EFAULT :
				     pk_counter_add_nofault(addr, kind);
	if (added > 0)
		pk_stat_inc(s, PROFIL_STAT_IN_RANGE);
	else if (!added)
		pk_stat_inc(s, PROFIL_STAT_SATURATED);
	else
		pk_defer(t, addr, p->generation, kind);
}

/* The parameters if @t's session is sampling current now, else NULL. */
static const struct pk_params *pk_sampling(struct pk_thread *t)
{
	struct pk_session *s = t->session;

	if (READ_ONCE(s->state) != PROFIL_STATE_ACTIVE || current->mm != s->mm)
		return NULL;
	return rcu_dereference_sched(s->params);
}

/*
 * Whether @t's clock state was set for the parameters @p, making them
 * current if not: the first tick after a restart or a change of clock
 * only resynchronises, it cannot tell a missed period from the change.
 */
static bool pk_clock_current(struct pk_thread *t, const struct pk_params *p)
{
	if (t->clock_generation == p->generation)
		return true;
	t->clock_generation = p->generation;
	return false;
}

/*
 * The timer clock's missed periods. The event's hrtimer keeps a grid in
 * the thread's CPU time (perf saves the remainder of the period at
 * sched-out and restarts with it), and when it fires late it moves to the
 * next point of the grid after now: every whole period between the point
 * that was due, @t->event_next, and @now was skipped. An overflow before
 * the point due means the grid moved (a restart, a new period): re-anchor.
 */
static void pk_event_missed(struct pk_thread *t, const struct pk_params *p,
			    u64 now)
{
	u64 period = p->period, late;

	if (!pk_clock_current(t, p) || now < t->event_next) {
		t->event_next = now + period;
		return;
	}
	/* On time, as nearly always: no division. */
	late = now - t->event_next;
	if (late >= period) {
		late = div64_u64(late, period);
		pk_stat_add(t->session, PROFIL_STAT_MISSED, late);
		t->event_next += late * period;
	}
	t->event_next += period;
}

/*
 * Queue pk_period_restore() on current, t->task, from its tick. The
 * references are those of pk_defer_queue().
 */
static void pk_period_queue(struct pk_thread *t)
{
	if (!kref_get_unless_zero(&t->ref))
		return;
	if (!try_module_get(THIS_MODULE))
		goto err_put;
	if (task_work_add(current, &t->period_work, TWA_RESUME))
		goto err_module;
	return;

err_module:
	module_put(THIS_MODULE);
err_put:
	kref_put(&t->ref, pk_thread_release);
}

/*
 * An overflow of an event still on its random first period. The first
 * one is a sample and sets the beat, and has the real period restored
 * from process context (perf_event_period() cannot be called from here);
 * until then perf keeps overflowing at the short period, and those that
 * come before the beat's next point are not samples.
 * Return: true if this overflow is not a sample.
 */
static bool pk_event_early(struct pk_thread *t, const struct pk_params *p,
			   u64 now)
{
	if (!t->period_queued) {
		t->period_queued = true;
		pk_period_queue(t);
		/* Due now: pk_event_missed() sets the next point. */
		t->clock_generation = p->generation;
		t->event_next = now;
		return false;
	}
	return t->clock_generation == p->generation && now < t->event_next;
}

/* Clock one, above HZ: the overflow handler of the thread's task-clock. */
static void pk_tick_event(struct perf_event *event,
			  struct perf_sample_data *data, struct pt_regs *regs)
{
	struct pk_thread *t = event->overflow_handler_context;
	const struct pk_params *p = pk_sampling(t);
	u64 now;

	if (!p || pk_rides_tick(p->rate))
		return;
	/* perf_swevent_hrtimer() has just brought the count up to now. */
	now = local64_read(&event->count);
	if (READ_ONCE(t->event_short) && pk_event_early(t, p, now))
		return;
	pk_event_missed(t, p, now);
	pk_sample(t, p, regs);
}

/**
 * pk_period_restore() - give a thread's event its real period
 * @head: &pk_thread.period_work
 *
 * task_work callback, queued by the first overflow of an event made with
 * a random first period: process context, current == the thread. Under
 * the session's mutex, the event is the thread's (a stop, an exit or a
 * move to the scheduler-tick clock releases it and clears @t->event); a
 * stopped session's is left alone.
 */
void pk_period_restore(struct callback_head *head)
{
	struct pk_thread *t = container_of(head, struct pk_thread, period_work);
	struct pk_session *s = t->session;
	const struct pk_params *p;
	int err;

	mutex_lock(&s->mutex);
	p = rcu_dereference_protected(s->params, lockdep_is_held(&s->mutex));
	/*
	 * A stopped session's events only wait for its teardown. A stop is
	 * for good, so one after the check finds a live event still. Exec
	 * stops it before this can run inside execve() (ptrace_notify() of a
	 * traced thread), where perf has removed the exec'd task's context's
	 * last event and deactivated it (a warning in event_function()).
	 */
	if (t->event && pk_session_is_active(s) && current->mm == s->mm &&
	    !pk_rides_tick(p->rate)) {
		err = perf_event_period(t->event, NSEC_PER_SEC / p->rate);
		/* Else the short period stays, and its early overflows skipped. */
		if (!err)
			WRITE_ONCE(t->event_short, false);
		else
			pr_debug("thread %d: period not restored: %d\n",
				 current->pid, err);
	}
	mutex_unlock(&s->mutex);
	kref_put(&t->ref, pk_thread_release);
	module_put(THIS_MODULE);
}

/*
 * The scheduler-tick clock for @t, whose CPU time is @now: a sample each
 * time it crosses a sampling point. Context: as pk_tick_runtime().
 */
static void pk_tick_thread(struct pk_thread *t, const struct pk_params *p,
			   u64 now, struct pt_regs *regs)
{
	u64 period, late;

	if (now < t->next_sample)
		return;
	period = p->period;
	late = now - t->next_sample;
	/*
	 * A period or more behind: the tick came late (a starved vCPU, a
	 * long irqs-off section), or the thread comes from the other clock.
	 * One sample stands for the point that was due; the whole periods
	 * after it were missed. Restart the beat from now.
	 */
	if (late >= period) {
		if (pk_clock_current(t, p))
			pk_stat_add(t->session, PROFIL_STAT_MISSED,
				    div64_u64(late, period));
		t->next_sample = now + period;
	} else {
		pk_clock_current(t, p);
		t->next_sample += period;
	}
	pk_sample(t, p, regs);
}

/*
 * The sessions' side of the scheduler-tick clock: sample current for each
 * of its thread records on the tick clock, in hard interrupt context each
 * time the thread's CPU time crosses a sampling period, from the
 * interrupted registers, so the sample costs no interrupt of its own.
 * Other calls (from schedule(), wakeups in process context) return at
 * once. Context: as pk_tick_runtime().
 */
static void pk_tick_threads(struct task_struct *task, u64 pending)
{
	const struct pk_params *p;
	struct pk_thread *t;
	struct pt_regs *regs;

	/*
	 * A kernel thread runs no user code and has no record. Among them
	 * is the thread table's resize worker, whose moves a look-up from
	 * its own tick must not walk into (pk_thread_lookup_tick()).
	 */
	if (task != current || !in_hardirq() || (task->flags & PF_KTHREAD))
		return;
	regs = get_irq_regs();
	if (!regs)
		return;
	/*
	 * Interrupts off already hold off the grace period that records
	 * are freed after; rcu_read_lock() says so to the thread table.
	 */
	rcu_read_lock();
	for (t = pk_thread_next(task, NULL); t; t = pk_thread_next(task, t)) {
		p = pk_sampling(t);
		if (p && pk_rides_tick(p->rate))
			pk_tick_thread(t, p,
				       task->se.sum_exec_runtime + pending,
				       regs);
	}
	rcu_read_unlock();
}

/**
 * pk_tick_runtime_sessions() - pk_tick_runtime() while a session uses
 *	the tick clock
 * @task: as for pk_tick_runtime()
 * @delta: as for pk_tick_runtime()
 * @pending: as for pk_tick_runtime()
 *
 * Both clocks: the sessions' threads, then the machine-wide profile's.
 * Out of line, so that the probe's path without sessions (a machine-wide
 * profile alone: thousands of updates a second on each CPU) saves no
 * registers for it and ends in a tail call.
 *
 * Context: as pk_tick_runtime().
 */
noinline void pk_tick_runtime_sessions(struct task_struct *task, u64 delta,
				       u64 pending)
{
	pk_tick_threads(task, pending);
	pk_machine_runtime(task, delta);
}

/* Attempts of one deferred write before its ticks are given up. */
#define PK_WRITE_TRIES 4

/* What became of one deferred write: pk_deferred_one(). */
enum pk_write {
	PK_WRITE_ADDED,
	PK_WRITE_DISCARD,
	PK_WRITE_NOMEM,
	PK_WRITE_FAULT,
};

/*
 * Whether the pending write @w may still go to its counter: the session
 * is active, its parameters are those @w's index was computed for, and
 * current runs in its address space. Caller holds s->write_mutex.
 */
static bool pk_write_live(struct pk_session *s, const struct pk_pending *w)
{
	const struct pk_params *p;

	p = rcu_dereference_protected(s->params,
				      lockdep_is_held(&s->write_mutex));
	return READ_ONCE(s->state) == PROFIL_STATE_ACTIVE &&
	       w->generation == p->generation && current->mm == s->mm;
}

/*
 * Fault in for writing the page, or the two pages, of the @width-byte
 * counter at @addr, as fault_in_safe_writeable() does (breaking a
 * copy-on-write share too), but keeping why it failed, which that
 * function reduces to a count of bytes: -EFAULT (no mapping, not
 * writable, SIGBUS or SIGSEGV: a real fault), -EHWPOISON, -ENOMEM (no
 * memory for the page or its tables, a memory cgroup at its memory.max:
 * transient), -EINTR (a fatal signal; the waits are killable).
 * Context: process context, current->mm is the session's, no profil lock
 * held.
 */
static int pk_fault_in(u64 addr, size_t width)
{
	unsigned long first = addr & PAGE_MASK;
	unsigned long last = (addr + width - 1) & PAGE_MASK;
	struct mm_struct *mm = current->mm;
	bool unlocked = false;
	int err;

	if (mmap_read_lock_killable(mm))
		return -EINTR;
	err = fixup_user_fault(mm, first, FAULT_FLAG_WRITE, &unlocked);
	if (!err && last != first)
		err = fixup_user_fault(mm, last, FAULT_FLAG_WRITE, &unlocked);
	mmap_read_unlock(mm);
	return err;
}

/*
 * One deferred write. The add runs under s->write_mutex, so that a stop
 * or a restart waits for it, but with page faults disabled: no profil
 * lock is ever held while a fault sleeps. When the page is not there,
 * it is faulted in with no lock held (a userfaultfd nobody serves, or a
 * dead FUSE daemon, then holds up this thread only, and SIGKILL ends the
 * wait), and the add is tried again after state, generation and mm are
 * checked again. Only a fault-in that fails for good is a fault; one
 * short of memory is tried again, as is a page that goes again before
 * the add, up to PK_WRITE_TRIES attempts in all, and then given up
 * (NOMEM, or DISCARD), the session left active: the next tick on that
 * counter defers again and tries anew.
 * Return: &enum pk_write; @added, the ticks added for ADDED.
 */
static enum pk_write pk_deferred_one(struct pk_session *s,
				     const struct pk_pending *w, u32 *added)
{
	size_t width = w->kind & PK_KIND_U32 ? sizeof(u32) : sizeof(u16);
	int tries, err = 0;
	long ret;

	for (tries = 0; tries < PK_WRITE_TRIES; tries++) {
		mutex_lock(&s->write_mutex);
		if (!pk_write_live(s, w)) {
			mutex_unlock(&s->write_mutex);
			return PK_WRITE_DISCARD;
		}
		pagefault_disable();
		ret = pk_counter_add(w->addr, w->count, w->kind);
		pagefault_enable();
		mutex_unlock(&s->write_mutex);
		if (ret >= 0) {
			*added = ret;
			return PK_WRITE_ADDED;
		}
		/*
		 * current->mm is the session's: checked above. The fault
		 * attribute fails the fault-in as for an unmapped address.
		 */
		if (pk_fail_user_write())
			err = -EFAULT;
		else
			err = pk_fault_in(w->addr, width);
		if (err && fatal_signal_pending(current))
			return PK_WRITE_DISCARD;
		if (err && err != -ENOMEM)
			return PK_WRITE_FAULT;
	}
	return err == -ENOMEM ? PK_WRITE_NOMEM : PK_WRITE_DISCARD;
}

/*
 * A kernel-held session's ticks at one PC, into its collector's profile;
 * their count lands in one category. They were taken while the session
 * was active: they are attributed whatever it is now, if the address
 * space is still there.
 */
static void pk_deferred_collect(struct pk_session *s,
				const struct pk_pending *w)
{
	switch (pk_collect_pc(s, w->addr, w->count)) {
	case PK_COLLECT_ADDED:
		pk_stat_add(s, PROFIL_STAT_IN_RANGE, w->count);
		break;
	case PK_COLLECT_OUTSIDE:
		pk_stat_add(s, PROFIL_STAT_OUT_OF_RANGE, w->count);
		break;
	case PK_COLLECT_GONE:
		pk_stat_add(s, PROFIL_STAT_DISCARDED, w->count);
		break;
	case PK_COLLECT_BUSY:
		pk_stat_add(s, PROFIL_STAT_MMAP_BUSY, w->count);
		pk_stat_add(s, PROFIL_STAT_DISCARDED, w->count);
		break;
	case PK_COLLECT_FULL:
		pk_stat_add(s, PROFIL_STAT_PROFILE_FULL, w->count);
		pk_stat_add(s, PROFIL_STAT_DISCARDED, w->count);
		break;
	}
}

/**
 * pk_deferred_write() - finish the ticks the tick could not write
 * @head: &pk_thread.twork
 *
 * task_work callback: process context, current == the thread, on its way
 * back to user mode (or exiting). Page faults are taken here, with no
 * lock held: see pk_deferred_one().
 */
void pk_deferred_write(struct callback_head *head)
{
	struct pk_thread *t = container_of(head, struct pk_thread, twork);
	struct pk_pending todo[PK_PENDING_SLOTS];
	struct pk_session *s = t->session;
	unsigned int i, n;
	u32 added;

	raw_spin_lock_irq(&t->lock);
	n = t->nr_pending;
	memcpy(todo, t->pending, n * sizeof(todo[0]));
	t->nr_pending = 0;
	t->work_queued = false;
	raw_spin_unlock_irq(&t->lock);

	/* Each slot's count lands in exactly one category, then leaves PENDING. */
	for (i = 0; i < n; i++) {
		u32 count = todo[i].count;

		if (todo[i].kind & PK_KIND_HELD) {
			pk_deferred_collect(s, &todo[i]);
			goto done;
		}
		switch (pk_deferred_one(s, &todo[i], &added)) {
		case PK_WRITE_ADDED:
			pk_stat_add(s, PROFIL_STAT_IN_RANGE, added);
			pk_stat_add(s, PROFIL_STAT_SATURATED, count - added);
			break;
		case PK_WRITE_DISCARD:
			pk_stat_add(s, PROFIL_STAT_DISCARDED, count);
			break;
		case PK_WRITE_NOMEM:
			/* Discarded, and why: the session goes on. */
			pk_stat_add(s, PROFIL_STAT_NOMEM, count);
			pk_stat_add(s, PROFIL_STAT_DISCARDED, count);
			break;
		case PK_WRITE_FAULT:
			pk_stat_add(s, PROFIL_STAT_FAULTED, count);
			pk_session_stop(s, PROFIL_STOP_FAULT, todo[i].addr);
			break;
		}
done:
		pk_stat_add(s, PROFIL_STAT_PENDING,
			    -(u64)count); /* from any CPU */
	}

	kref_put(&t->ref, pk_thread_release);
	module_put(THIS_MODULE);
}

/**
 * pk_rides_tick() - whether a rate is sampled from the scheduler tick
 * @rate: samples per second
 *
 * At or below HZ the scheduler tick comes often enough, and a sample taken
 * there costs no interrupt; above it each thread needs a timer of its own.
 */
bool pk_rides_tick(u32 rate)
{
	return rate <= HZ;
}

/*
 * The shortest first period of a new thread's event: the period of the
 * highest rate, 100 us. Until pk_period_restore() runs, at the
 * thread's next return to user mode, perf re-arms the event with its
 * first period; a thread that stays in the kernel meanwhile (a long
 * system call, the start's own request) takes an overflow every first
 * period. perf throttles an event that overflows max_samples_per_tick
 * times in one tick, about kernel.perf_event_max_sample_rate / HZ, i.e.
 * at periods of 10 us and below by default and longer ones where that
 * rate was lowered; a throttled event is silent until the next tick, its
 * periods MISSED. With this floor the first period is never shorter than
 * a real one: the early overflows come no faster than a session at
 * PROFIL_RATE_MAX takes them, which perf leaves alone unless that sysctl
 * is below 10000.
 */
#define PK_FIRST_MIN_NS (NSEC_PER_SEC / PROFIL_RATE_MAX)

/*
 * A new thread's first period: a point drawn uniformly in (0, @period],
 * moved up to PK_FIRST_MIN_NS if it falls below. The expected count
 * of a thread's samples, its CPU time in periods, then falls short by at
 * most PK_FIRST_MIN_NS worth of a period, once per thread; a thread
 * of less CPU time than that is never sampled (one of less than perf's
 * own floor of 10 us never was), and at PROFIL_RATE_MAX the first point
 * is not random.
 */
static u64 pk_first_period(u32 period)
{
	u32 first = 1 + get_random_u32_below(period);

	return max_t(u32, first, min_t(u32, period, PK_FIRST_MIN_NS));
}

/**
 * pk_sampler_create() - give a thread a clock of its own
 * @t: the thread record, passed to every tick
 * @rate: samples per second of the thread's CPU time
 * @random_first: the first overflow falls anywhere in the first period,
 *	but not before PK_FIRST_MIN_NS (pk_first_period()), so that
 *	a thread shorter than a period is sampled in proportion to its CPU
 *	time; the first overflow has the real period restored. The caller
 *	set @t->event_short to it.
 *
 * Context: process context, may sleep.
 * Return: the event or an ERR_PTR().
 */
struct perf_event *pk_sampler_create(struct pk_thread *t, u32 rate,
				     bool random_first)
{
	u32 period = NSEC_PER_SEC / rate;
	struct perf_event_attr attr = {
		.type = PERF_TYPE_SOFTWARE,
		.config = PERF_COUNT_SW_TASK_CLOCK,
		.size = sizeof(attr),
		.sample_period = period,
		.exclude_hv = 1,
		.remove_on_exec = 1,
	};

	if (random_first)
		attr.sample_period = pk_first_period(period);

	return perf_event_create_kernel_counter(&attr, -1, t->task,
						pk_tick_event, t);
}
