// SPDX-License-Identifier: GPL-2.0
/*
 * The machine-wide profile: the tick samples whatever user task it
 * interrupts, with no session and no state per process.
 *
 * A COLLECT with a machine or cgroup scope makes a collector and claims
 * it as the machine-wide profile (one at a time), which the scheduler
 * tick's probe then samples into, as ``perf record -a`` samples each CPU:
 *
 *  - the clock is each CPU's: the CPU time of the tasks it runs, added up
 *    from every runtime update the scheduler makes (pk_machine_runtime());
 *    idle time adds nothing. Each time it crosses a sampling period the
 *    tick samples the task it interrupted, in user mode (or in the kernel
 *    with PROFIL_F_SYSTEM_TICKS, at the PC the task entered it), and
 *    counts the whole periods it came too late for as missed;
 *  - the PC goes into one of the CPU's few sample slots, queued as
 *    task_work of the task: on its return to user mode, with the mapping
 *    the tick saw, pk_machine_image_collect() attributes it to the
 *    (image, object, offset) of the profile, and makes the process's
 *    image at its first sample (machine_image.c). Where the kernel counts
 *    mapping changes, a sample in the mapping of the process's last one
 *    on the CPU, unchanged since, is counted by the tick itself
 *    (pk_machine_image_tick());
 *  - the exec and exit probes end a process's image, if it has one.
 *
 * A process's fork, exec and exit therefore cost the profile a look-up at
 * most, and a process no tick reaches costs nothing else. Kernel threads
 * run no user code: their ticks are not samples. A cgroup profile takes
 * the samples of the tasks in the cgroup, or below it, at their tick.
 * Rates above HZ would need a timer per CPU and are refused: the
 * machine-wide profile rides the tick alone.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bitops.h>
#include <linux/bits.h>
#include <linux/cgroup.h>
#include <linux/errno.h>
#include <linux/math64.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/random.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/sched/task_stack.h>
#include <linux/task_work.h>
#include <asm/irq_regs.h>

#include "collector.h"
#include "compat.h"
#include "lifecycle.h"
#include "machine.h"
#include "machine_image.h"
#include "sampler.h"

/*
 * Samples a CPU may have queued and not yet attributed. A sample taken
 * in user mode is attributed on the return from the tick's interrupt,
 * unless the task is preempted first; one taken in the kernel waits for
 * the system call to return, which may be long: those may take only
 * half the slots, so that tasks asleep in the kernel never starve the
 * CPU's samples in user mode. A sample that finds no slot is dropped and
 * counted in the profile's samples_lost.
 */
#define PK_MACHINE_SLOTS 16
#define PK_MACHINE_SYSTEM_SLOTS (PK_MACHINE_SLOTS / 2)

/**
 * struct pk_machine_sample - a sample on its way to the profile
 * @work: queued on the sampled task
 * @c: the profile (referenced)
 * @mm: the address space the tick saw, only ever compared
 * @pc: the user PC
 * @missed: whole periods the tick came too late for
 * @system: the tick was in the kernel
 * @cpu: the CPU whose slot this is
 * @index: the slot's bit in that CPU's @busy
 */
struct pk_machine_sample {
	struct callback_head work;
	struct pk_collector *c;
	const struct mm_struct *mm;
	u64 pc;
	u32 missed;
	bool system;
	u16 cpu;
	u8 index;
};

/**
 * struct pk_machine_cpu - one CPU's clock and sample slots
 * @clock: CPU time since the last sampling point, in ns
 * @generation: the profile @clock counts for
 * @phase: where @clock starts for the next profile, drawn at its claim
 *	(a random phase per CPU, drawn where no runqueue lock is held)
 * @system: slots taken by samples in the kernel, for PK_MACHINE_SYSTEM_SLOTS
 *	(atomic: taken by the tick, given back by the attribution)
 * @busy: the slots queued; set by the CPU's tick, cleared by the
 *	attribution, which may run on another CPU (atomic bit operations)
 * @slots: the sample slots
 * @hints: the attribution's hints (machine_image.c), used on this CPU
 *	with preemption off, read by its tick; what the tick reads is
 *	written with interrupts off
 *
 * @clock and @generation are written by the runtime updates of the
 * CPU's tasks, under its runqueue lock, which the scheduler holds
 * across every sched_stat_runtime tracepoint: a remote wakeup updates
 * another CPU's runtime, under that CPU's lock. @phase is written by a
 * claim, under pk_machine_mutex after the last profile's grace period,
 * before the new one is published: no probe reads it meanwhile.
 */
struct pk_machine_cpu {
	u64 clock;
	u64 generation;
	u32 phase;
	unsigned long busy;
	atomic_t system;
	struct pk_machine_sample slots[PK_MACHINE_SLOTS];
	struct pk_image_hints hints;
};

/*
 * Allocated at the module's load rather than static: the static per-CPU
 * area that modules share is small.
 */
static struct pk_machine_cpu __percpu *pk_machine_cpus;

/*
 * The profile the tick samples into, or NULL. Published with
 * rcu_assign_pointer() once its period and flags are set, read by the
 * tracepoint probes (preemption disabled: an RCU read-side section);
 * pk_machine_release() waits a grace period after clearing it.
 */
static struct pk_collector __rcu *pk_machine_live;

/* The claimed profile, referenced, until its close; under the mutex. */
static struct pk_collector *pk_machine;
static DEFINE_MUTEX(pk_machine_mutex);
static u64 pk_machine_generation;

/**
 * pk_machine_claim() - make @c the machine-wide profile and start it
 * @c: a new machine-wide collector
 * @rate: samples per second of each CPU's time, at most HZ
 * @flags: PROFIL_F_*; PROFIL_F_SYSTEM_TICKS is the one that applies
 *
 * Context: process context, may sleep.
 * Return: 0, -EBUSY while another one runs, -ENODEV while the module is
 *	being unloaded, or an errno from the tick probe's registration.
 */
int pk_machine_claim(struct pk_collector *c, u32 rate, u32 flags)
{
	int err = -EBUSY;
	unsigned int cpu;

	mutex_lock(&pk_machine_mutex);
	if (pk_machine)
		goto unlock;
	/* A close of its socket first: nothing would release it. */
	err = -ENOENT;
	if (pk_collector_closed(c))
		goto unlock;
	/*
	 * The samples queued into it run module text as task_work, which
	 * cannot be withdrawn: the profile pins the module until it is freed,
	 * after the last of them (pk_collector_free()), so that no sample
	 * takes a reference of its own. A claim racing the unload fails.
	 */
	err = -ENODEV;
	if (c->pins_module || !try_module_get(THIS_MODULE))
		goto unlock;
	err = pk_tick_clock_get(false);
	if (err) {
		module_put(THIS_MODULE);
		goto unlock;
	}
	c->pins_module = true;
	pk_collector_get(c);
	pk_machine = c;
	c->period = NSEC_PER_SEC / rate;
	/* The last profile's grace period is over: no tick reads these. */
	for_each_possible_cpu(cpu)
		WRITE_ONCE(per_cpu_ptr(pk_machine_cpus, cpu)->phase,
			   get_random_u32_below(c->period));
	c->flags = flags;
	c->generation = ++pk_machine_generation;
	rcu_assign_pointer(pk_machine_live, c);
unlock:
	mutex_unlock(&pk_machine_mutex);
	return err;
}

/**
 * pk_machine_release() - stop sampling into a machine-wide profile
 * @c: the collector, closed
 *
 * The samples queued already hold their own references on @c: they are
 * dropped once they find it closed.
 *
 * Context: process context, the collector's close (a claimed profile pins
 *	the module: the module's exit finds none).
 */
void pk_machine_release(struct pk_collector *c)
{
	bool ours;

	mutex_lock(&pk_machine_mutex);
	ours = pk_machine == c;
	if (ours) {
		RCU_INIT_POINTER(pk_machine_live, NULL);
		/*
		 * No tick holds it any more once a grace period has passed;
		 * under the mutex, so that no claim rewrites the CPUs' phases
		 * before.
		 */
		synchronize_rcu();
		pk_machine = NULL;
	}
	mutex_unlock(&pk_machine_mutex);
	if (!ours)
		return;
	pk_tick_clock_put(false);
	pk_collector_put(c);
}

/**
 * pk_machine_init() - the per-CPU clocks and sample slots
 *
 * Context: module load, before any request.
 * Return: 0 or -ENOMEM.
 */
int pk_machine_init(void)
{
	pk_machine_cpus = alloc_percpu(struct pk_machine_cpu);
	return pk_machine_cpus ? 0 : -ENOMEM;
}

/**
 * pk_machine_exit() - free them
 *
 * Context: module exit: no profile is claimed, and no sample queued (each
 * holds a reference on its profile, which pins the module).
 */
void pk_machine_exit(void)
{
	free_percpu(pk_machine_cpus);
}

/*
 * task_work of a sampled task, queued by pk_machine_sample(): process
 * context, current the sampled task, on its way back to user mode (or
 * exiting, with no address space left: the sample is lost).
 */
static void pk_machine_attribute(struct callback_head *head)
{
	struct pk_machine_sample *slot =
		container_of(head, struct pk_machine_sample, work);
	struct pk_machine_sample ms = *slot;
	struct pk_machine_cpu *mc = per_cpu_ptr(pk_machine_cpus, ms.cpu);

	/* The slot is free again, for its CPU's next tick. */
	if (ms.system)
		atomic_dec(&mc->system);
	clear_bit_unlock(ms.index, &mc->busy);
	if (!pk_collector_closed(ms.c)) {
		/* An exec since the tick: the PC was the old program's. */
		if (current->mm && current->mm == ms.mm)
			pk_machine_image_collect(ms.c, ms.pc, ms.missed,
						 ms.system,
						 &pk_machine_cpus->hints);
		else
			atomic64_inc(&ms.c->samples_lost);
	}
	/* May free the profile, and let the module go: nothing after it. */
	pk_collector_put(ms.c);
}

/*
 * Whether current's tick counts into @c: in a cgroup profile, only that
 * of a task in the cgroup or below it.
 */
static bool pk_machine_counts(const struct pk_collector *c)
{
	bool in;

	if (!c->cgroup)
		return true;
	rcu_read_lock();
	in = task_under_cgroup_hierarchy(current, c->cgroup);
	rcu_read_unlock();
	return in;
}

/*
 * Take a sample of current, interrupted at @regs, into @c.
 * Context: the tick, hard interrupt, @mc is this CPU's.
 */
static void pk_machine_sample(struct pk_collector *c, struct pk_machine_cpu *mc,
			      u32 missed, struct pt_regs *regs)
{
	struct pk_machine_sample *slot;
	bool system = false;
	unsigned long free;
	unsigned int i;

	if ((current->flags & PF_KTHREAD) || !current->mm)
		return;
	if (!user_mode(regs)) {
		/*
		 * In execve() past the new mm, task_pt_regs() still holds
		 * the old program's PC, which the new one's would be charged.
		 */
		if (!(c->flags & PROFIL_F_SYSTEM_TICKS) ||
		    (current->flags & PK_NO_USER_REGS) || current->in_execve)
			return;
		/* The user PC at which the task entered the kernel. */
		regs = task_pt_regs(current);
		system = true;
	}
	if (!pk_machine_counts(c))
		return;
	/*
	 * Counted at once where the CPU's hint holds its mapping, which only
	 * a kernel that counts mapping changes can tell.
	 */
	if (PK_MM_SEQ_COUNTS && !system &&
	    pk_machine_image_tick(c, instruction_pointer(regs), missed,
				  &mc->hints))
		return;

	/* Only this CPU sets its bits: a free one found stays free. */
	free = ~READ_ONCE(mc->busy) & GENMASK(PK_MACHINE_SLOTS - 1, 0);
	if (!free)
		goto lost;
	i = __ffs(free);
	if (system &&
	    atomic_inc_return(&mc->system) > PK_MACHINE_SYSTEM_SLOTS) {
		atomic_dec(&mc->system);
		goto lost;
	}
	if (test_and_set_bit_lock(i, &mc->busy))
		goto unclaim;
	slot = &mc->slots[i];
	slot->c = c;
	slot->mm = current->mm;
	slot->pc = instruction_pointer(regs);
	slot->missed = missed;
	slot->system = system;
	slot->cpu = smp_processor_id();
	slot->index = i;
	init_task_work(&slot->work, pk_machine_attribute);
	/*
	 * Fails past exit_task_work(): nothing would run it. Else it runs
	 * no sooner than current leaves this interrupt: the reference on
	 * the profile, which pins the module, is taken in time (the claim's
	 * holds until a grace period after this tick).
	 */
	if (!task_work_add(current, &slot->work, TWA_RESUME)) {
		pk_collector_get(c);
		return;
	}
	clear_bit_unlock(i, &mc->busy);
unclaim:
	if (system)
		atomic_dec(&mc->system);
lost:
	atomic64_inc(&c->samples_lost);
}

/*
 * The tick has brought the CPU's clock to a sampling period or past it:
 * take the periods off and sample. Out of line, so that
 * pk_machine_runtime()'s common path saves no registers for it.
 */
static noinline void pk_machine_tick(struct pk_collector *c,
				     struct pk_machine_cpu *mc, u64 period)
{
	struct pt_regs *regs = get_irq_regs();
	u64 n;

	if (!regs)
		return;
	/* On time, as nearly always: no division. */
	n = 1;
	if (unlikely(mc->clock >= 2 * period))
		n = div64_u64(mc->clock, period);
	mc->clock -= n * period;
	pk_machine_sample(c, mc, min_t(u64, n - 1, U32_MAX), regs);
}

/**
 * pk_machine_runtime() - the machine-wide profile's clock
 * @task: the task whose runtime was just updated, running on its CPU
 * @delta: the runtime the update adds
 *
 * Called by the sched_stat_runtime probe on every runtime update of a
 * running task while the probe is registered. Adds @delta to the CPU's
 * clock; at the scheduler tick (hard interrupt, @task current) takes a
 * sample each time the clock has crossed a sampling period.
 *
 * Context: the tracepoint, preemption disabled, the runqueue lock of
 * @task's CPU held.
 */
void pk_machine_runtime(struct task_struct *task, u64 delta)
{
	struct pk_machine_cpu *mc;
	struct pk_collector *c;
	u64 period;

	c = rcu_dereference_sched(pk_machine_live);
	if (!c)
		return;
	mc = per_cpu_ptr(pk_machine_cpus, task_cpu(task));
	period = c->period;
	if (unlikely(mc->generation != c->generation)) {
		/* A new profile: its claim wrote the phase before publishing. */
		mc->generation = c->generation;
		mc->clock = READ_ONCE(mc->phase);
	}
	mc->clock += delta;
	if (task == current && mc->clock >= period && in_hardirq())
		pk_machine_tick(c, mc, period);
}

/**
 * pk_machine_exec() - a process exec'd: its old program's image ends
 * @task: current
 *
 * Context: the sched_process_exec tracepoint, preemption disabled.
 */
void pk_machine_exec(struct task_struct *task)
{
	struct pk_collector *c = rcu_dereference_sched(pk_machine_live);

	if (c)
		pk_machine_image_end(c, task_tgid_nr(task), PROFIL_STOP_EXEC,
				     NULL);
}

/**
 * pk_machine_exit_task() - a process is gone: its image ends
 * @task: current, a thread exiting after its group died
 *
 * Context: the sched_process_exit tracepoint, preemption disabled.
 */
void pk_machine_exit_task(struct task_struct *task)
{
	struct pk_collector *c = rcu_dereference_sched(pk_machine_live);

	if (c)
		pk_machine_image_end(c, task_tgid_nr(task), PROFIL_STOP_EXIT,
				     task);
}
