// SPDX-License-Identifier: GPL-2.0
/*
 * The scheduler tracepoints profil hooks: fork (and task_newtask for
 * io_uring's workers), exec and exit for the process lifecycle, and
 * sched_stat_runtime for the scheduler-tick clock and the machine-wide
 * profile's.
 *
 * fork keeps profiling on in parent and child, exec turns it off, and exit
 * forgets the session. The probes run with preemption disabled.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/binfmts.h>
#include <linux/debugfs.h>
#include <linux/kernel.h>
#include <linux/mutex.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/string.h>
#include <linux/tracepoint.h>
#include <linux/workqueue.h>
#include <trace/events/sched.h>
#include <trace/events/task.h>

#include "compat.h"
#include "attach.h"
#include "fault.h"
#include "lifecycle.h"
#include "machine.h"
#include "session.h"

static void pk_probe_fork(void *data, struct task_struct *parent,
			  struct task_struct *child)
{
	pk_session_fork(parent, child);
}

/*
 * io_uring's workers (PF_IO_WORKER) are threads of the process, made by
 * create_io_thread() with copy_process() alone: sched_process_fork never
 * fires for them. task_newtask fires for every new task, late in
 * copy_process() with the child in its thread group, as sched_process_fork
 * would; only the workers are taken here, the rest joins there.
 */
static void pk_probe_newtask(void *data, struct task_struct *task,
			     unsigned long clone_flags)
{
	if (task->flags & PF_IO_WORKER)
		pk_session_fork(current, task);
}

static void pk_probe_exec(void *data, struct task_struct *task, pid_t old_pid,
			  struct linux_binprm *bprm)
{
	pk_session_exec(task);
	pk_machine_exec(task);
}

static void pk_probe_exit(void *data, struct task_struct *task)
{
	/* Only the group's last threads (two may see it dead) end it. */
	if (!atomic_read(&task->signal->live)) {
		pk_session_exit(task);
		pk_machine_exit_task(task);
	}
}

/*
 * None of these tracepoints is exported to modules (neither 6.1's nor
 * 6.12's Module.symvers has their __tracepoint_<tp>), so the probes
 * cannot be registered with register_trace_<tp>(), which would check
 * their types: they are found by name and registered as void *.
 * <trace/events/sched.h> and <trace/events/task.h> still declare, from the TP_PROTO of the kernel
 * built against, check_trace_callback_type_<tp>(), whose one parameter
 * has the type the tracepoint calls its probes with. PK_PROBE()
 * compares @fn's type with it and adds zero to the name if they are the
 * same; otherwise the build fails ("negative width in bit-field", in
 * expansion of PK_PROBE(@tp, @fn)).
 */
#define PK_PROBE(tp, fn)                                               \
	{                                                              \
		.name = #tp + BUILD_BUG_ON_ZERO(!__same_type(          \
				      &check_trace_callback_type_##tp, \
				      void (*)(typeof(fn) *))),        \
		.func = fn,                                            \
	}

/* The lifecycle probes stay registered while the module is loaded. */
#define PK_LIFECYCLE_PROBES 4

static struct pk_probe {
	const char *name;
	void *func;
	struct tracepoint *tp;
} pk_probes[] = {
	PK_PROBE(sched_process_fork, pk_probe_fork),
	PK_PROBE(task_newtask, pk_probe_newtask),
	PK_PROBE(sched_process_exec, pk_probe_exec),
	PK_PROBE(sched_process_exit, pk_probe_exit),
	/* Registered only while a session uses the scheduler-tick clock. */
	PK_PROBE(sched_stat_runtime, pk_probe_stat_runtime),
};

static struct pk_probe *const pk_tick_probe = &pk_probes[PK_LIFECYCLE_PROBES];

/*
 * How long the scheduler-tick probe stays registered after its last user
 * stops. Registering and unregistering it flips a static key and a static
 * call, each a patch of kernel text with IPIs to every CPU; without the
 * grace time any user could have that done at the rate of START/STOP
 * pairs. With it, at most once per grace time.
 */
#define PK_TICK_GRACE (10 * HZ)

static void pk_tick_idle(struct work_struct *work);

/*
 * pk_tick_mutex protects the three below and serialises the probe's
 * registration; @pk_tick_registrations is also read, racily, by
 * debugfs. The probe itself (interrupt context) reads none of them.
 */
static DEFINE_MUTEX(pk_tick_mutex);
/* Sessions on the scheduler-tick clock, and the machine-wide profile. */
static unsigned int pk_tick_users;
/*
 * Sessions alone, which the probe looks up thread records for while
 * there are any: a machine-wide profile's ticks need none. Read by the
 * probe without the mutex: a tick that reads it stale is one of a
 * session's first on this clock, or one after it left it.
 */
unsigned int pk_tick_sessions;
/* The probe is registered: while there are users, and a grace time after. */
static bool pk_tick_registered;
/* How often the probe was registered since the module was loaded. */
static u64 pk_tick_registrations;
static DECLARE_DELAYED_WORK(pk_tick_idle_work, pk_tick_idle);
static struct dentry *pk_debugfs;

/**
 * pk_tick_clock_get() - a session or the machine-wide profile starts
 *	using the scheduler tick
 * @session: it is a session (with thread records), not the machine-wide
 *	profile
 *
 * Context: process context, may sleep.
 * Return: 0 or a negative errno.
 */
int pk_tick_clock_get(bool session)
{
	int err = 0;

	mutex_lock(&pk_tick_mutex);
	if (!pk_tick_registered) {
		err = tracepoint_probe_register(pk_tick_probe->tp,
						pk_tick_probe->func, NULL);
		if (!err) {
			pk_tick_registered = true;
			pk_tick_registrations++;
		}
	}
	if (!err) {
		pk_tick_users++;
		if (session)
			WRITE_ONCE(pk_tick_sessions, pk_tick_sessions + 1);
	}
	mutex_unlock(&pk_tick_mutex);
	return err;
}

/**
 * pk_tick_clock_put() - a session or the machine-wide profile stops using
 *	the scheduler tick
 * @session: as for pk_tick_clock_get()
 *
 * Unprofiled tasks pay for the probe on every update_curr(), so it goes
 * when no session has needed it for PK_TICK_GRACE.
 *
 * Context: process context, may sleep.
 */
void pk_tick_clock_put(bool session)
{
	mutex_lock(&pk_tick_mutex);
	if (session)
		WRITE_ONCE(pk_tick_sessions, pk_tick_sessions - 1);
	if (!--pk_tick_users)
		mod_delayed_work(system_wq, &pk_tick_idle_work, PK_TICK_GRACE);
	mutex_unlock(&pk_tick_mutex);
}

/* The grace time is over: unregister the probe unless it is used again. */
static void pk_tick_idle(struct work_struct *work)
{
	mutex_lock(&pk_tick_mutex);
	if (!pk_tick_users && pk_tick_registered) {
		tracepoint_probe_unregister(pk_tick_probe->tp,
					    pk_tick_probe->func, NULL);
		pk_tick_registered = false;
	}
	mutex_unlock(&pk_tick_mutex);
}

static void pk_find_tracepoint(struct tracepoint *tp, void *priv)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(pk_probes); i++)
		if (!strcmp(tp->name, pk_probes[i].name))
			pk_probes[i].tp = tp;
}

static void pk_unregister_probes(unsigned int n)
{
	while (n--)
		tracepoint_probe_unregister(pk_probes[n].tp, pk_probes[n].func,
					    NULL);
	tracepoint_synchronize_unregister();
}

int pk_lifecycle_init(void)
{
	unsigned int i;
	int err;

	for_each_kernel_tracepoint(pk_find_tracepoint, NULL);
	for (i = 0; i < ARRAY_SIZE(pk_probes); i++) {
		if (!pk_probes[i].tp) {
			pr_err("tracepoint %s not found\n", pk_probes[i].name);
			return -ENOENT;
		}
	}
	for (i = 0; i < PK_LIFECYCLE_PROBES; i++) {
		err = tracepoint_probe_register(pk_probes[i].tp,
						pk_probes[i].func, NULL);
		if (err)
			goto err_unregister;
	}
	/* Diagnostics only: a failure here leaves the module working. */
	pk_debugfs = debugfs_create_dir(KBUILD_MODNAME, NULL);
	debugfs_create_u64("tick_registrations", 0400, pk_debugfs,
			   &pk_tick_registrations);
	pk_fault_init(pk_debugfs);
	return 0;

err_unregister:
	pk_unregister_probes(i);
	return err;
}

/*
 * No session is active, so the tick probe has no user; it may still be
 * in its grace time.
 */
void pk_lifecycle_exit(void)
{
	debugfs_remove_recursive(pk_debugfs);
	pk_fault_exit();
	cancel_delayed_work_sync(&pk_tick_idle_work);
	if (pk_tick_registered)
		tracepoint_probe_unregister(pk_tick_probe->tp,
					    pk_tick_probe->func, NULL);
	pk_unregister_probes(PK_LIFECYCLE_PROBES);
}
