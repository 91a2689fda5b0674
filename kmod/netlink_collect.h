/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel-held kind's requests (netlink_collect.c): COLLECT and
 * GET_PROFILE, in the family netlink.c registers.
 */
#ifndef _PK_NETLINK_COLLECT_H
#define _PK_NETLINK_COLLECT_H

#include <net/genetlink.h>
#include <linux/profil.h>

extern const struct nla_policy pk_collect_policy[PROFIL_ATTR_MAX + 1];
extern const struct nla_policy pk_profile_policy[PROFIL_ATTR_PAD + 1];

int pk_nl_collect(struct sk_buff *skb, struct genl_info *info);
int pk_nl_dump_profile_start(struct netlink_callback *cb);
int pk_nl_dump_profile(struct sk_buff *skb, struct netlink_callback *cb);
int pk_nl_dump_profile_done(struct netlink_callback *cb);

#endif /* _PK_NETLINK_COLLECT_H */
