// SPDX-License-Identifier: GPL-2.0
/*
 * The tick: from a clock to a u16 counter in user memory.
 *
 * Two clocks drive the sampling, both counting the thread's own CPU time and
 * both running in hard interrupt context on the thread's CPU with current
 * == the thread. At rates up to HZ, profil_tick_runtime() rides the
 * scheduler tick the kernel takes anyway. Above HZ each thread owns a
 * task-clock perf event, whose hrtimer runs only while the thread runs and
 * calls profil_tick_event(). Either way profil_sample() maps the user PC
 * to a counter exactly as glibc's profil() does and increments it with
 * page faults disabled. A write that cannot be done that way (page not present, or
 * copy-on-write after fork) is recorded in the thread's pending slots and
 * finished by profil_deferred_write() on the thread's return to user mode,
 * where a real fault can be taken. Only a write that fails there turns
 * profiling off.
 */
#include <linux/kernel.h>
#include <linux/math64.h>
#include <linux/module.h>
#include <linux/perf_event.h>
#include <linux/ptrace.h>
#include <asm/irq_regs.h>
#include <linux/sched.h>
#include <linux/sched/task_stack.h>
#include <linux/uaccess.h>

#include "profil.h"

/* Retries of the locked add before a plain one; contention is rare. */
#define PROFIL_CMPXCHG_TRIES 16

/*
 * Add @count to the u16 counter at @addr. The add is a locked cmpxchg, so
 * that threads ticking on other CPUs never lose a count; a counter that
 * straddles a cache line (odd buffers only) would make that a split lock,
 * and gets a plain read-modify-write as in glibc. Faults go to the caller:
 * the tick disables them, the deferred writer takes them.
 */
static bool profil_counter_add(u64 addr, u16 count)
{
	u16 __user *counter = u64_to_user_ptr(addr);
	bool atomic = (addr & (L1_CACHE_BYTES - 1)) != L1_CACHE_BYTES - 1;
	int tries = PROFIL_CMPXCHG_TRIES;
	u16 val;

	if (!user_access_begin(counter, sizeof(*counter)))
		return false;
	unsafe_get_user(val, counter, efault);
#ifdef unsafe_try_cmpxchg_user
	while (atomic && tries--)
		if (unsafe_try_cmpxchg_user(counter, &val, val + count, efault))
			goto done;
#endif
	unsafe_put_user(val + count, counter, efault);
done:
	user_access_end();
	return true;
efault:
	user_access_end();
	return false;
}

static bool profil_counter_add_nofault(u64 addr)
{
	bool ok;

	pagefault_disable();
	ok = profil_counter_add(addr, 1);
	pagefault_enable();
	return ok;
}

/*
 * Queue @t's deferred write on current. The scheduler-tick clock may hold
 * a record that is being reaped (its references gone, its memory kept by
 * RCU), and the module may be on its way out: then nothing is queued.
 */
static bool profil_defer_queue(struct profil_thread *t)
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
	kref_put(&t->ref, profil_thread_release);
	return false;
}

/*
 * Record a tick whose counter could not be written from the tick. Runs in
 * hard interrupt context with current == t->task.
 */
static void profil_defer(struct profil_thread *t, u64 addr, u32 generation)
{
	struct profil_stats *st = &t->session->stats;
	struct profil_pending *slot = NULL;
	unsigned int i;

	raw_spin_lock(&t->lock);
	for (i = 0; i < t->nr_pending; i++) {
		if (t->pending[i].addr == addr &&
		    t->pending[i].generation == generation) {
			slot = &t->pending[i];
			break;
		}
	}
	if (!slot && t->nr_pending < PROFIL_PENDING_SLOTS) {
		slot = &t->pending[t->nr_pending++];
		slot->addr = addr;
		slot->generation = generation;
		slot->count = 0;
	}
	if (!slot) {
		/* Only distinct counters within one kernel entry get here. */
		atomic64_inc(&st->discarded);
		goto unlock;
	}
	if (!t->work_queued && !profil_defer_queue(t)) {
		if (!slot->count)
			t->nr_pending--;
		atomic64_inc(&st->discarded);
		goto unlock;
	}
	slot->count++;
	atomic64_inc(&st->deferred);
	atomic64_inc(&st->pending);
unlock:
	raw_spin_unlock(&t->lock);
}

/*
 * Count one tick of @t interrupted at @regs. Hard interrupt context, on
 * the profiled thread's CPU, current == t->task; interrupts off make this
 * an RCU-sched read-side critical section, which is what
 * profil_session_stop_sync() waits for.
 */
static void profil_sample(struct profil_thread *t,
			  const struct profil_params *p, struct pt_regs *regs)
{
	struct profil_stats *st = &t->session->stats;
	u64 idx, addr;

	atomic64_inc(&st->ticks);
	if (!user_mode(regs)) {
		if (!(p->flags & PROFIL_F_SYSTEM_TICKS)) {
			atomic64_inc(&st->system_dropped);
			return;
		}
		/* The user PC at which the thread entered the kernel. */
		regs = task_pt_regs(current);
		atomic64_inc(&st->system_charged);
	}

	if (!profil_pc_to_index(instruction_pointer(regs), p->offset, p->scale,
				p->bufsiz, &idx)) {
		atomic64_inc(&st->out_of_range);
		return;
	}
	addr = p->buf + 2 * idx;
	if (profil_counter_add_nofault(addr))
		atomic64_inc(&st->in_range);
	else
		profil_defer(t, addr, p->generation);
}

/* The parameters if @t's session is sampling current now, else NULL. */
static const struct profil_params *profil_sampling(struct profil_thread *t)
{
	struct profil_session *s = t->session;

	if (READ_ONCE(s->state) != PROFIL_STATE_ACTIVE || current->mm != s->mm)
		return NULL;
	return rcu_dereference_sched(s->params);
}

/*
 * Whether @t's clock state was set for the parameters @p, making them
 * current if not: the first tick after a restart or a change of clock
 * only resynchronises, it cannot tell a missed period from the change.
 */
static bool profil_clock_current(struct profil_thread *t,
				 const struct profil_params *p)
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
static void profil_event_missed(struct profil_thread *t,
				const struct profil_params *p, u64 now)
{
	u64 period = NSEC_PER_SEC / p->rate, late;

	if (!profil_clock_current(t, p) || now < t->event_next) {
		t->event_next = now + period;
		return;
	}
	late = div64_u64(now - t->event_next, period);
	atomic64_add(late, &t->session->stats.missed);
	t->event_next += (late + 1) * period;
}

/* Clock one, above HZ: the overflow handler of the thread's task-clock. */
static void profil_tick_event(struct perf_event *event,
			      struct perf_sample_data *data,
			      struct pt_regs *regs)
{
	struct profil_thread *t = event->overflow_handler_context;
	const struct profil_params *p = profil_sampling(t);

	if (!p || profil_rides_tick(p->rate))
		return;
	/* perf_swevent_hrtimer() has just brought the count up to now. */
	profil_event_missed(t, p, local64_read(&event->count));
	profil_sample(t, p, regs);
}

/**
 * profil_tick_runtime() - clock two, at or below HZ: the scheduler tick
 * @data: unused
 * @task: the task whose runtime was just updated
 * @runtime: CPU time since the last update, in ns
 * @vruntime: unused
 *
 * A probe on the sched_stat_runtime tracepoint, which update_curr() hits
 * from every scheduler tick. In hard interrupt context for current it
 * samples the interrupted registers each time the thread's CPU time
 * crosses a sampling period, so the sample costs no interrupt of its own.
 * Other calls (from schedule(), wakeups in process context) return at
 * once.
 */
void profil_tick_runtime(void *data, struct task_struct *task, u64 runtime,
			 u64 vruntime)
{
	const struct profil_params *p;
	struct profil_thread *t;
	struct pt_regs *regs;
	u64 now, period, late;

	if (task != current || !in_hardirq())
		return;
	regs = get_irq_regs();
	t = regs ? profil_thread_find(task) : NULL;
	p = t ? profil_sampling(t) : NULL;
	if (!p || !profil_rides_tick(p->rate))
		return;

	now = task->se.sum_exec_runtime;
	if (now < t->next_sample)
		return;
	period = NSEC_PER_SEC / p->rate;
	late = now - t->next_sample;
	/*
	 * A period or more behind: the tick came late (a starved vCPU, a
	 * long irqs-off section), or the thread comes from the other clock.
	 * One sample stands for the point that was due; the whole periods
	 * after it were missed. Restart the beat from now.
	 */
	if (late >= period) {
		if (profil_clock_current(t, p))
			atomic64_add(div64_u64(late, period),
				     &t->session->stats.missed);
		t->next_sample = now + period;
	} else {
		profil_clock_current(t, p);
		t->next_sample += period;
	}
	profil_sample(t, p, regs);
}

/**
 * profil_deferred_write() - finish the ticks profil_tick() could not write
 * @head: &profil_thread.twork
 *
 * task_work callback: process context, current == the thread, on its way
 * back to user mode (or exiting). Page faults are allowed here. Holds
 * &profil_session.write_mutex so that a stop request waits for it.
 */
void profil_deferred_write(struct callback_head *head)
{
	struct profil_thread *t =
		container_of(head, struct profil_thread, twork);
	struct profil_pending todo[PROFIL_PENDING_SLOTS];
	struct profil_session *s = t->session;
	struct profil_stats *st = &s->stats;
	const struct profil_params *p;
	unsigned int i, n;

	raw_spin_lock_irq(&t->lock);
	n = t->nr_pending;
	memcpy(todo, t->pending, n * sizeof(todo[0]));
	t->nr_pending = 0;
	t->work_queued = false;
	raw_spin_unlock_irq(&t->lock);

	mutex_lock(&s->write_mutex);
	p = rcu_dereference_protected(s->params,
				      lockdep_is_held(&s->write_mutex));
	for (i = 0; i < n; i++) {
		u32 count = todo[i].count;

		if (READ_ONCE(s->state) != PROFIL_STATE_ACTIVE ||
		    todo[i].generation != p->generation ||
		    current->mm != s->mm) {
			atomic64_add(count, &st->discarded);
		} else if (profil_counter_add(todo[i].addr, count)) {
			atomic64_add(count, &st->in_range);
		} else {
			atomic64_add(count, &st->faulted);
			profil_session_stop(s, PROFIL_STOP_FAULT, todo[i].addr);
		}
		atomic64_sub(count, &st->pending);
	}
	mutex_unlock(&s->write_mutex);

	kref_put(&t->ref, profil_thread_release);
	module_put(THIS_MODULE);
}

/**
 * profil_rides_tick() - whether a rate is sampled from the scheduler tick
 * @rate: samples per second
 *
 * At or below HZ the scheduler tick comes often enough, and a sample taken
 * there costs no interrupt; above it each thread needs a timer of its own.
 */
bool profil_rides_tick(u32 rate)
{
	return rate <= HZ;
}

/**
 * profil_sampler_create() - give a thread a clock of its own
 * @t: the thread record, passed to every tick
 * @rate: samples per second of the thread's CPU time
 *
 * Context: process context, may sleep.
 * Return: the event or an ERR_PTR().
 */
struct perf_event *profil_sampler_create(struct profil_thread *t, u32 rate)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_SOFTWARE,
		.config = PERF_COUNT_SW_TASK_CLOCK,
		.size = sizeof(attr),
		.sample_period = NSEC_PER_SEC / rate,
		.exclude_hv = 1,
		.remove_on_exec = 1,
	};

	return perf_event_create_kernel_counter(&attr, -1, t->task,
						profil_tick_event, t);
}

/**
 * profil_sampler_set_rate() - change the sampling rate of a thread
 * @event: from profil_sampler_create()
 * @rate: samples per second
 *
 * Return: 0 or a negative errno.
 */
int profil_sampler_set_rate(struct perf_event *event, u32 rate)
{
	return perf_event_period(event, NSEC_PER_SEC / rate);
}

/**
 * profil_sampler_release() - stop sampling one thread
 * @event: from profil_sampler_create()
 *
 * Once this returns, profil_tick() no longer runs for @event.
 * Context: process context, may sleep.
 */
void profil_sampler_release(struct perf_event *event)
{
	perf_event_release_kernel(event);
}
