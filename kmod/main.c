// SPDX-License-Identifier: GPL-2.0
/*
 * profil.ko: profil(2) for Linux, driven by the kernel's clock instead of
 * SIGPROF.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/init.h>
#include <linux/module.h>
#include <net/genetlink.h>

#include "profil.h"

/*
 * ORDER: the session table and its workqueue first, since the probes and
 * the requests use them; then the lifecycle probes, so that every session
 * started through netlink sees forks, execs and exits; the family last, so
 * no request arrives before the rest is ready. Exit in reverse.
 */
static int __init profil_init(void)
{
	int err;

	err = profil_sessions_init();
	if (err)
		return err;
	err = profil_lifecycle_init();
	if (err)
		goto err_sessions;
	err = profil_netlink_init();
	if (err)
		goto err_lifecycle;
	return 0;

err_lifecycle:
	profil_lifecycle_exit();
err_sessions:
	profil_sessions_exit();
	return err;
}

static void __exit profil_exit(void)
{
	profil_netlink_exit();
	profil_lifecycle_exit();
	profil_sessions_exit();
}

module_init(profil_init);
module_exit(profil_exit);

MODULE_DESCRIPTION("profil(2): kernel-driven execution-time profiling");
MODULE_LICENSE("GPL");
MODULE_ALIAS_GENL_FAMILY(PROFIL_GENL_NAME);
