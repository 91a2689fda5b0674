/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The "profil" generic netlink family (netlink.c), and the permission
 * checks a start shares with the fork probe.
 */
#ifndef _PK_NETLINK_H
#define _PK_NETLINK_H

#include <linux/init.h>
#include <linux/types.h>

struct pk_session;

int __init pk_netlink_init(void);
bool pk_start_allowed(bool audit);
bool pk_timer_clock_allowed(bool audit);
void pk_netlink_exit(void);
void pk_netlink_notify_stopped(struct pk_session *s);

#endif /* _PK_NETLINK_H */
