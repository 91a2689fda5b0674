/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The "profil" generic netlink family (netlink.c), and the checks every
 * request makes, which netlink_collect.c shares.
 */
#ifndef _PK_NETLINK_H
#define _PK_NETLINK_H

#include <linux/init.h>
#include <linux/types.h>

struct genl_family;
struct netlink_ext_ack;
struct nlattr;
struct pk_session;
struct task_struct;

extern struct genl_family pk_family;

int __init pk_netlink_init(void);
void pk_netlink_exit(void);
void pk_netlink_notify_stopped(struct pk_session *s);
struct task_struct *pk_nl_target(struct nlattr **attrs,
				 struct netlink_ext_ack *extack);
int pk_nl_check_control(struct task_struct *task, const struct nlattr *pid_attr,
			struct netlink_ext_ack *extack);
int pk_nl_check_allowed(bool timer_clock, struct netlink_ext_ack *extack);

#endif /* _PK_NETLINK_H */
