// SPDX-License-Identifier: GPL-2.0
/*
 * A module that does nothing: tests/qemu/run.sh always loads one, and
 * the textpatch reproducer must run without profil.ko.
 */
#include <linux/module.h>

static int __init pk_nop_init(void)
{
	return 0;
}

static void __exit pk_nop_exit(void)
{
}

module_init(pk_nop_init);
module_exit(pk_nop_exit);
MODULE_DESCRIPTION("Nothing: the harness's module when profil.ko must stay out");
MODULE_LICENSE("GPL");
