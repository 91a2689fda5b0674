// SPDX-License-Identifier: GPL-2.0
/*
 * COLLECT and GET_PROFILE: kernel-held sessions and their profile.
 *
 * A collector is a socket: its first COLLECT makes its profile, every
 * COLLECT from it adds a process (and what that process forks and
 * execs), GET_PROFILE on it reads the profile, and closing it stops
 * them all (collector.c). The rules for a process are START's: the
 * process itself, or its ptrace tracer; the switches as for START. A
 * machine-wide COLLECT has the tick sample every process instead
 * (machine.c), for a caller with CAP_PERFMON, as perf record -a.
 */
#include <linux/capability.h>
#include <linux/cgroup.h>
#include <linux/pid.h>
#include <linux/sched.h>
#include <linux/sched/task.h>
#include <net/genetlink.h>
#include <net/sock.h>

#include "collector.h"
#include "access.h"
#include "collector_dump.h"
#include "netlink.h"
#include "machine.h"
#include "netlink_collect.h"
#include "sampler.h"
#include "session.h"

/* Not const: 6.1's NLA_POLICY_FULL_RANGE() takes a plain pointer. */
static struct netlink_range_validation pk_images_range = {
	.min = 1,
	.max = PROFIL_IMAGES_LIMIT,
};

static struct netlink_range_validation pk_samples_range = {
	.min = 1,
	.max = PROFIL_SAMPLES_LIMIT,
};

const struct nla_policy pk_collect_policy[PROFIL_ATTR_MAX + 1] = {
	[PROFIL_ATTR_PAD] = { .type = NLA_REJECT },
	[PROFIL_ATTR_PID] = NLA_POLICY_MIN(NLA_U32, 1),
	[PROFIL_ATTR_RATE] =
		NLA_POLICY_RANGE(NLA_U32, PROFIL_RATE_MIN, PROFIL_RATE_MAX),
	[PROFIL_ATTR_FLAGS] = NLA_POLICY_MASK(NLA_U32, PROFIL_F_ALL),
	[PROFIL_ATTR_IMAGES_MAX] =
		NLA_POLICY_FULL_RANGE(NLA_U32, &pk_images_range),
	[PROFIL_ATTR_SAMPLES_MAX] =
		NLA_POLICY_FULL_RANGE(NLA_U32, &pk_samples_range),
	[PROFIL_ATTR_SCOPE] = NLA_POLICY_MAX(NLA_U32, PROFIL_SCOPE_MAX),
	[PROFIL_ATTR_CGROUP_FD] = { .type = NLA_U32 },
};

/* GET_PROFILE: nothing but the request. */
const struct nla_policy pk_profile_policy[PROFIL_ATTR_PAD + 1] = {
	[PROFIL_ATTR_PAD] = { .type = NLA_REJECT },
};

static u32 pk_nl_u32_or(struct nlattr *attr, u32 dflt)
{
	return attr ? nla_get_u32(attr) : dflt;
}

/*
 * The bounds a COLLECT asks for. Unprivileged users get the default
 * bounds, about 14 MiB, at most.
 */
static int pk_nl_collect_bounds(struct nlattr **attrs,
				struct pk_collector_spec *spec,
				struct netlink_ext_ack *extack)
{
	spec->images_max = pk_nl_u32_or(attrs[PROFIL_ATTR_IMAGES_MAX],
					PROFIL_IMAGES_DEFAULT);
	spec->samples_max = pk_nl_u32_or(attrs[PROFIL_ATTR_SAMPLES_MAX],
					 PROFIL_SAMPLES_DEFAULT);
	if ((spec->images_max > PROFIL_IMAGES_DEFAULT ||
	     spec->samples_max > PROFIL_SAMPLES_DEFAULT) &&
	    !perfmon_capable()) {
		NL_SET_ERR_MSG_MOD(extack, "larger bounds need CAP_PERFMON");
		return -EPERM;
	}
	return 0;
}

/* The socket's collector, or why not, in the request's extack. */
static struct pk_collector *pk_nl_collector(struct genl_info *info,
					    struct pk_collector_spec *spec)
{
	struct netlink_ext_ack *extack = info->extack;
	struct pk_collector *c;

	c = pk_collector_get_or_create(genl_info_net(info), info->snd_portid,
				       spec);
	if (PTR_ERR_OR_ZERO(c) == -EEXIST)
		NL_SET_ERR_MSG_MOD(extack,
				   "a machine profile needs its own socket");
	else if (IS_ERR(c))
		NL_SET_ERR_MSG_MOD(extack, "no memory for the profile");
	return c;
}

/* Refusals of a machine-wide COLLECT that name no attribute of their own. */
#define PK_MSG_TICK_ONLY \
	"a machine-wide profile rides the scheduler tick: a rate of at most HZ"
#define PK_MSG_BUSY "another machine-wide profile is running"

/*
 * COLLECT with a machine or cgroup scope: a new collector for the
 * socket, claimed as the machine-wide profile, which the tick samples
 * into from then on.
 */
static int pk_nl_collect_machine(struct genl_info *info, struct pk_params *req,
				 int scope)
{
	struct netlink_ext_ack *extack = info->extack;
	struct nlattr **attrs = info->attrs;
	struct nlattr *fd = attrs[PROFIL_ATTR_CGROUP_FD];
	struct pk_collector_spec spec = { .scope = scope };
	struct pk_collector *c;
	int err;

	if (attrs[PROFIL_ATTR_PID]) {
		NL_SET_ERR_MSG_ATTR(extack, attrs[PROFIL_ATTR_PID],
				    "a machine-wide profile names no process");
		return -EINVAL;
	}
	if (!fd && scope == PROFIL_SCOPE_CGROUP) {
		NL_SET_ERR_MSG_MOD(extack,
				   "the cgroup scope needs a cgroup fd");
		return -EINVAL;
	}
	if (fd && scope != PROFIL_SCOPE_CGROUP) {
		NL_SET_ERR_MSG_ATTR(extack, fd,
				    "a cgroup fd goes with the cgroup scope");
		return -EINVAL;
	}
	if (!pk_machine_allowed()) {
		NL_SET_ERR_MSG_MOD(extack,
				   "a machine-wide profile needs CAP_PERFMON");
		return -EPERM;
	}
	if (!pk_rides_tick(req->rate)) {
		NL_SET_ERR_MSG_ATTR(extack, attrs[PROFIL_ATTR_RATE],
				    PK_MSG_TICK_ONLY);
		return -EINVAL;
	}
	err = pk_nl_collect_bounds(attrs, &spec, extack);
	if (err)
		return err;
	if (fd) {
		spec.cgroup = cgroup_get_from_fd(nla_get_u32(fd));
		if (IS_ERR(spec.cgroup)) {
			NL_SET_ERR_MSG_ATTR(extack, fd,
					    "not a cgroup v2 directory");
			return PTR_ERR(spec.cgroup);
		}
	}
	c = pk_nl_collector(info, &spec);
	/* A new collector took it over. */
	if (spec.cgroup)
		cgroup_put(spec.cgroup);
	if (IS_ERR(c))
		return PTR_ERR(c);
	err = pk_machine_claim(c, req->rate, req->flags);
	if (err == -EBUSY)
		NL_SET_ERR_MSG_MOD(extack, PK_MSG_BUSY);
	else if (err == -ENODEV)
		NL_SET_ERR_MSG_MOD(extack, "the module is being unloaded");
	if (err)
		pk_collector_discard(c);
	pk_collector_put(c);
	return err;
}

int pk_nl_collect(struct sk_buff *skb, struct genl_info *info)
{
	struct netlink_ext_ack *extack = info->extack;
	struct nlattr **attrs = info->attrs;
	struct pk_collector_spec spec = {};
	struct pk_params req = {};
	struct pk_collector *c;
	struct task_struct *task;
	u32 scope;
	int err;

	req.rate = pk_nl_u32_or(attrs[PROFIL_ATTR_RATE], PROFIL_RATE_DEFAULT);
	req.flags = pk_nl_u32_or(attrs[PROFIL_ATTR_FLAGS], 0);
	scope = pk_nl_u32_or(attrs[PROFIL_ATTR_SCOPE], PROFIL_SCOPE_PROCESS);
	if (scope != PROFIL_SCOPE_PROCESS)
		return pk_nl_collect_machine(info, &req, scope);
	if (attrs[PROFIL_ATTR_CGROUP_FD]) {
		NL_SET_ERR_MSG_ATTR(extack, attrs[PROFIL_ATTR_CGROUP_FD],
				    "a cgroup fd goes with the cgroup scope");
		return -EINVAL;
	}
	err = pk_nl_check_allowed(!pk_rides_tick(req.rate), extack);
	if (err)
		return err;
	task = pk_nl_target(attrs, extack);
	if (IS_ERR(task))
		return PTR_ERR(task);
	err = pk_nl_check_control(task, attrs[PROFIL_ATTR_PID], extack);
	if (err)
		goto out;
	err = pk_nl_collect_bounds(attrs, &spec, extack);
	if (err)
		goto out;
	c = pk_nl_collector(info, &spec);
	if (IS_ERR(c)) {
		err = PTR_ERR(c);
		goto out;
	}
	req.collector = c;
	err = pk_session_start(task, &req, PK_START_UNLESS_ACTIVE);
	if (err == -EEXIST)
		NL_SET_ERR_MSG_MOD(extack, "process is followed already");
	else if (err == -ENOSPC)
		NL_SET_ERR_MSG_MOD(extack, "the profile has no room for it");
	else if (err)
		NL_SET_ERR_MSG_MOD(extack, "cannot follow the process");
	pk_collector_put(c);
out:
	put_task_struct(task);
	return err;
}

/*
 * A GET_PROFILE dump's state in cb->args: the collector (referenced from
 * start to done), where pk_collector_fill() is, and a refusal that the
 * first part reports, with its text.
 */
struct pk_profile_dump {
	struct pk_collector *c;
	struct pk_fill_cursor cur;
	const char *msg;
};

static struct pk_profile_dump *pk_profile_dump(struct netlink_callback *cb)
{
	BUILD_BUG_ON(sizeof(struct pk_profile_dump) > sizeof(cb->ctx));
	return (struct pk_profile_dump *)cb->ctx;
}

int pk_nl_dump_profile_start(struct netlink_callback *cb)
{
	struct pk_profile_dump *d = pk_profile_dump(cb);

	d->c = pk_collector_find(sock_net(cb->skb->sk),
				 NETLINK_CB(cb->skb).portid);
	if (!d->c) {
		d->msg = "this socket has no profile (no COLLECT)";
		return 0;
	}
	/* Images of sessions on their way out get their final accounting. */
	pk_sessions_flush();
	return 0;
}

int pk_nl_dump_profile_done(struct netlink_callback *cb)
{
	struct pk_profile_dump *d = pk_profile_dump(cb);

	if (d->c)
		pk_collector_put(d->c);
	return 0;
}

int pk_nl_dump_profile(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct pk_profile_dump *d = pk_profile_dump(cb);
	void *hdr;
	int err;

	if (!d->c) {
		/* NL_SET_ERR_MSG() takes a literal; the text is one. */
		if (cb->extack)
			cb->extack->_msg = d->msg;
		return -ENOENT;
	}
	if (d->cur.phase == PK_FILL_DONE)
		return 0;
	hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid, cb->nlh->nlmsg_seq,
			  &pk_family, NLM_F_MULTI, PROFIL_CMD_GET_PROFILE);
	if (!hdr)
		return -EMSGSIZE;
	err = pk_collector_fill(skb, d->c, &d->cur);
	if (err) {
		genlmsg_cancel(skb, hdr);
		return err;
	}
	genlmsg_end(skb, hdr);
	return skb->len;
}
