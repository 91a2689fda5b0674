/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The "profil" generic netlink family (netlink.c).
 */
#ifndef _PK_NETLINK_H
#define _PK_NETLINK_H

#include <linux/init.h>
#include <linux/types.h>

struct pk_session;

int __init pk_netlink_init(void);
void pk_netlink_exit(void);
void pk_netlink_notify_stopped(struct pk_session *s);

#endif /* _PK_NETLINK_H */
