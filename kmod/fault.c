// SPDX-License-Identifier: GPL-2.0
/*
 * Fault injection into profil.ko's writes to user memory, for debug
 * kernels (CONFIG_FAULT_INJECTION; this file is built only there).
 *
 * The counter add goes through unsafe_get_user()/unsafe_put_user(),
 * which FAULT_INJECTION_USERCOPY does not hook, so the module has a fault
 * attribute of its own, in debugfs as profil/fail_user_write (the
 * kernel's Documentation/fault-injection/fault-injection.rst describes its
 * files). When it fires, a counter add fails as at a page that is not
 * there, and the deferred writer's fault-in fails as for an address with
 * no mapping: the tick defers the tick, the deferred writer counts it
 * FAULTED and stops the session with PROFIL_STOP_FAULT. A task's
 * /proc/<pid>/fail-nth reaches it too, in the deferred writer (the tick
 * runs in interrupt context, where fail-nth does not apply).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/dcache.h>
#include <linux/debugfs.h>
#include <linux/fault-inject.h>

#include "fault.h"

/*
 * Read and updated by should_fail() from the tick (hard interrupt, under
 * the runqueue lock on the scheduler-tick clock) and from task_work; its
 * counters are atomic_t or tolerate races (interval's count), as for the
 * kernel's own attributes. Written only through debugfs.
 */
static DECLARE_FAULT_ATTR(pk_fail_user_write_attr);

/**
 * pk_fail_user_write() - whether to fail this write to user memory
 *
 * Context: any; called from the tick with interrupts off.
 * Return: true if the fault attribute injects a failure here.
 */
bool pk_fail_user_write(void)
{
	return should_fail(&pk_fail_user_write_attr, 1);
}

/**
 * pk_fault_init() - create debugfs @parent/fail_user_write
 * @parent: the module's debugfs directory
 *
 * Diagnostics only, as the rest of the directory: a failure is ignored.
 */
void pk_fault_init(struct dentry *parent)
{
	/*
	 * No messages by default: the scheduler-tick clock calls
	 * should_fail() under the runqueue lock, where printk() may
	 * deadlock. Raise "verbose" only with rates above HZ.
	 */
	pk_fail_user_write_attr.verbose = 0;
	fault_create_debugfs_attr("fail_user_write", parent,
				  &pk_fail_user_write_attr);
}

/**
 * pk_fault_exit() - drop the directory's reference the attribute holds
 *
 * fault_create_debugfs_attr() keeps one (attr->dname) for its messages.
 * Context: after the module's debugfs directory is removed.
 */
void pk_fault_exit(void)
{
	dput(pk_fail_user_write_attr.dname);
	pk_fail_user_write_attr.dname = NULL;
}
