/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fault.c: the fault attribute of the writes to user memory, in debug
 * kernels only (CONFIG_FAULT_INJECTION); elsewhere the writes never fail
 * on purpose and there is nothing in debugfs.
 */
#ifndef _PK_FAULT_H
#define _PK_FAULT_H

#include <linux/types.h>

struct dentry;

#ifdef CONFIG_FAULT_INJECTION
bool pk_fail_user_write(void);
void pk_fault_init(struct dentry *parent);
void pk_fault_exit(void);
#else
static inline bool pk_fail_user_write(void)
{
	return false;
}

static inline void pk_fault_init(struct dentry *parent)
{
}

static inline void pk_fault_exit(void)
{
}
#endif

#endif /* _PK_FAULT_H */
