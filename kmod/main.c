// SPDX-License-Identifier: GPL-2.0
/*
 * profil.ko: profil(2) for Linux, driven by the kernel's clock instead of
 * SIGPROF.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/init.h>
#include <linux/module.h>
#include <net/genetlink.h>

#include "collector.h"
#include "lifecycle.h"
#include "machine.h"
#include "netlink.h"
#include "session.h"
#include "thread.h"

/*
 * ORDER: the thread table, then the session table and its workqueue, since
 * the probes and the requests use them; then the lifecycle probes, so that
 * every session started through netlink sees forks, execs and exits; then
 * the collectors' socket notifier; the family last, so no request arrives
 * before the rest is ready. Exit in reverse.
 */
static int __init pk_init(void)
{
	int err;

	err = pk_machine_init();
	if (err)
		return err;
	err = pk_threads_init();
	if (err)
		goto err_machine;
	err = pk_sessions_init();
	if (err)
		goto err_threads;
	err = pk_lifecycle_init();
	if (err)
		goto err_sessions;
	err = pk_collectors_init();
	if (err)
		goto err_lifecycle;
	err = pk_netlink_init();
	if (err)
		goto err_collectors;
	return 0;

err_collectors:
	pk_collectors_stop();
	pk_collectors_exit();
err_lifecycle:
	pk_lifecycle_exit();
err_sessions:
	pk_sessions_exit();
err_threads:
	pk_threads_exit();
err_machine:
	pk_machine_exit();
	return err;
}

static void __exit pk_exit(void)
{
	pk_netlink_exit();
	pk_collectors_stop();
	pk_lifecycle_exit();
	pk_sessions_exit();
	/* After the sessions, whose parameters hold collectors. */
	pk_collectors_exit();
	pk_threads_exit();
	pk_machine_exit();
	/*
	 * A task_work callback or work item drops its module reference as
	 * its last act, and may still be running the few instructions after
	 * it, preempted: wait until every task has left the module's text
	 * (a voluntary switch or user mode) before it is freed.
	 */
	synchronize_rcu_tasks();
}

module_init(pk_init);
module_exit(pk_exit);

MODULE_DESCRIPTION("profil(2): kernel-driven execution-time profiling");
MODULE_LICENSE("GPL");
MODULE_VERSION(PROFIL_VERSION);
MODULE_ALIAS_GENL_FAMILY(PROFIL_GENL_NAME);
