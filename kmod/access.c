// SPDX-License-Identifier: GPL-2.0
/*
 * Who may profile what: the administrator's switches (privileged_only,
 * unprivileged_timer_clock) and the checks on another process, read
 * access as ptrace's PTRACE_MODE_READ_REALCREDS would grant it and
 * control through the ptrace relation the LSMs approved.
 */
#include <linux/capability.h>
#include <linux/cred.h>
#include <linux/moduleparam.h>
#include <linux/ptrace.h>
#include <linux/sched.h>
#include <linux/sched/coredump.h>
#include <linux/sched/signal.h>
#include <linux/sched/task.h>

#include "access.h"

/*
 * The administrator's switch, perf_event_paranoid's counterpart (which
 * does not apply here): when set, only CAP_PERFMON or CAP_SYS_ADMIN in the
 * initial user namespace may start profiling. Read without a lock, as
 * sysfs writes it: a request sees the old or the new value.
 */
static bool privileged_only;
module_param(privileged_only, bool, 0644);
MODULE_PARM_DESC(privileged_only,
		 "starting needs CAP_PERFMON or CAP_SYS_ADMIN (default: N)");

/*
 * Rates above HZ are sampled by a perf event the module makes for each
 * thread, past perf_event_paranoid and security_perf_event_open(), which
 * a module cannot consult: they take CAP_PERFMON, as perf at Debian's
 * paranoid level 3, unless the administrator opens them to every user.
 * The tick clock makes no perf event and stays open, as profil(2) was.
 */
static bool unprivileged_timer_clock;
module_param(unprivileged_timer_clock, bool, 0644);
MODULE_PARM_DESC(unprivileged_timer_clock,
		 "rates above HZ without CAP_PERFMON (default: N)");

/* perfmon_capable(); @audit: a denial is recorded, as for a request. */
static bool pk_perfmon_capable(bool audit)
{
	if (audit)
		return perfmon_capable();
	return ns_capable_noaudit(&init_user_ns, CAP_PERFMON) ||
	       ns_capable_noaudit(&init_user_ns, CAP_SYS_ADMIN);
}

/**
 * pk_start_allowed() - whether privileged_only lets current start
 * @audit: record a denial in the audit log, as a request's check does
 *
 * CAP_PERFMON is the capability for performance monitoring (perf's
 * perfmon_capable()); CAP_SYS_ADMIN stays accepted, as perf accepts it.
 * Both in the initial user namespace: the switches are the host's, and a
 * container's root does not get past them.
 *
 * Context: process context, current is the task that would be profiled
 * or the requester.
 * Return: true if current may start profiling.
 */
bool pk_start_allowed(bool audit)
{
	return !READ_ONCE(privileged_only) || pk_perfmon_capable(audit);
}

/**
 * pk_machine_allowed() - whether current may profile the whole machine
 *
 * As ``perf record -a``: CAP_PERFMON (or CAP_SYS_ADMIN) in the initial
 * user namespace, whatever the switches say. A denial is audited.
 *
 * Context: process context, current is the requester.
 */
bool pk_machine_allowed(void)
{
	return pk_perfmon_capable(true);
}

/**
 * pk_timer_clock_allowed() - whether current may sample above HZ
 * @audit: as for pk_start_allowed()
 *
 * Context: as pk_start_allowed().
 * Return: true if unprivileged_timer_clock is set or current has
 * CAP_PERFMON (or CAP_SYS_ADMIN) in the initial user namespace.
 */
bool pk_timer_clock_allowed(bool audit)
{
	return READ_ONCE(unprivileged_timer_clock) || pk_perfmon_capable(audit);
}

/* CAP_SYS_PTRACE in @ns; @audit: a denial is recorded, as for a request. */
static bool pk_ptrace_capable(struct user_namespace *ns, bool audit)
{
	return audit ? ns_capable(ns, CAP_SYS_PTRACE) :
		       ns_capable_noaudit(ns, CAP_SYS_PTRACE);
}

/*
 * The dumpability half of PTRACE_MODE_READ_REALCREDS, on the process's
 * address space: taken from any thread, since a thread-group leader that
 * called pthread_exit() is a zombie without one while the others run. A
 * process none of whose threads has one any more has exited: only a
 * caller capable over its credentials' namespace (@tcred) sees it.
 * Context: rcu_read_lock() held, which keeps @tcred.
 */
static bool pk_may_access_mm(struct task_struct *task, const struct cred *tcred,
			     bool audit)
{
	struct mm_struct *mm = NULL;
	struct task_struct *t;
	bool ok = false;

	for_each_thread(task, t) {
		task_lock(t);
		mm = t->mm;
		if (mm)
			ok = get_dumpable(mm) == SUID_DUMP_USER ||
			     pk_ptrace_capable(mm->user_ns, audit);
		task_unlock(t);
		if (mm)
			return ok;
	}
	return pk_ptrace_capable(tcred->user_ns, audit);
}

/*
 * PTRACE_MODE_READ_REALCREDS without the LSM hook, which is not exported:
 * enough to read a session's state and counts, not its addresses.
 * @audit: false for dump entries, which are skipped, not refused.
 */
bool pk_may_access(struct task_struct *task, bool audit)
{
	const struct cred *cred = current_cred(), *tcred;
	bool ok;

	if (same_thread_group(task, current))
		return true;

	rcu_read_lock();
	tcred = __task_cred(task);
	ok = (uid_eq(cred->uid, tcred->euid) &&
	      uid_eq(cred->uid, tcred->suid) && uid_eq(cred->uid, tcred->uid) &&
	      gid_eq(cred->gid, tcred->egid) &&
	      gid_eq(cred->gid, tcred->sgid) &&
	      gid_eq(cred->gid, tcred->gid)) ||
	     pk_ptrace_capable(tcred->user_ns, audit);
	/*
	 * Dumpability after the credentials, as __ptrace_may_access(): a
	 * process that drops privileges becomes non-dumpable first. Pairs
	 * with the write barrier in commit_creds().
	 */
	smp_rmb();
	if (ok)
		ok = pk_may_access_mm(task, tcred, audit);
	rcu_read_unlock();
	return ok;
}

/*
 * Control of another process: starting it (which adds to counters at
 * addresses of the caller's choosing in it: write access), stopping it,
 * listing its regions, and seeing its buffer and fault addresses. ptrace
 * gates that with PTRACE_MODE_ATTACH, where the LSMs (Yama's
 * ptrace_scope, Landlock, AppArmor, SELinux) add their restrictions, even
 * for CAP_SYS_PTRACE. Neither ptrace_may_access() nor the LSM hook is
 * exported to modules, so the proof is the ptrace relation itself: a
 * thread of the caller's process traces a thread of the target, which
 * ptrace_attach() (or the tracee's PTRACE_TRACEME) let the LSMs approve,
 * and which may read and write anywhere in the target already. Any
 * thread: a leader that called pthread_exit() cannot be attached to.
 * CAP_SYS_PTRACE alone is not enough. A tracer attached before the policy
 * tightened keeps its tracee, as it does for ptrace. Without
 * tasklist_lock the tracer is read racily: see limitations.rst.
 */
bool pk_may_control(struct task_struct *task)
{
	struct task_struct *t, *tracer;
	bool ok = false;

	if (same_thread_group(task, current))
		return true;
	rcu_read_lock();
	for_each_thread(task, t) {
		tracer = ptrace_parent(t);
		if (tracer && same_thread_group(tracer, current)) {
			ok = true;
			break;
		}
	}
	rcu_read_unlock();
	return ok;
}
