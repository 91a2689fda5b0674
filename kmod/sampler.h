/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The tick (sampler.c): both clocks, the map to a counter, the write with
 * page faults disabled, and the deferred write on return to user mode.
 */
#ifndef _PK_SAMPLER_H
#define _PK_SAMPLER_H

#include <linux/sched.h>
#include <linux/types.h>

#include "lifecycle.h"
#include "machine.h"

struct callback_head;
struct perf_event;
struct pk_thread;
struct task_struct;

/*
 * Threads whose saved user registers are not a user context: io_uring's
 * workers (PF_IO_WORKER), and from 6.4 every thread create_io_thread() or
 * vhost makes (PF_USER_WORKER). They run kernel code from their first
 * instruction; copy_thread() gives them the creator's registers with the
 * PC and the stack pointer zeroed, so task_pt_regs() would charge PC 0.
 */
#ifdef PF_USER_WORKER
#define PK_NO_USER_REGS (PF_IO_WORKER | PF_USER_WORKER)
#else
#define PK_NO_USER_REGS PF_IO_WORKER
#endif

bool pk_rides_tick(u32 rate);
void pk_tick_runtime_sessions(struct task_struct *task, u64 delta, u64 pending);
struct perf_event *pk_sampler_create(struct pk_thread *t, u32 rate,
				     bool random_first);
void pk_deferred_write(struct callback_head *head);
void pk_period_restore(struct callback_head *head);

/**
 * pk_tick_runtime() - clock two, at or below HZ: the scheduler tick
 * @task: the task whose runtime was just updated
 * @delta: the runtime this update adds
 * @pending: runtime of this update not yet in its sum_exec_runtime
 *
 * Called by the probe on the sched_stat_runtime tracepoint,
 * pk_probe_stat_runtime() (its prototype follows the kernel series:
 * compat.h), which update_curr() hits from every scheduler tick and
 * every other runtime update. While a session uses the tick clock,
 * pk_tick_runtime_sessions() samples its threads and counts the
 * machine-wide clock; otherwise pk_machine_runtime() counts it alone.
 * Inline: on that common path the probe makes one call, a tail call,
 * not three (a machine-wide profile sees thousands of updates a second
 * on each CPU).
 *
 * Context: the tracepoint, hard interrupt at the tick, preemption
 * disabled and @task's runqueue lock held always.
 */
static inline void pk_tick_runtime(struct task_struct *task, u64 delta,
				   u64 pending)
{
	if (unlikely(pk_tick_sessions_active()))
		pk_tick_runtime_sessions(task, delta, pending);
	else /* A machine-wide profile alone: no thread to look for. */
		pk_machine_runtime(task, delta);
}

#endif /* _PK_SAMPLER_H */
