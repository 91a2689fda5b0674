// SPDX-License-Identifier: GPL-2.0
/*
 * The "profil" generic netlink family: start, stop, status, and a
 * multicast notification when a session stops. The kernel-held kind's
 * requests, COLLECT and GET_PROFILE, are in netlink_collect.c.
 *
 * Requests run in the sender's process context, so "the caller" is
 * current. Profiling one's own process needs no privilege, as the BSD
 * system call. Status of another process needs the access that ptrace's
 * PTRACE_MODE_READ_REALCREDS would grant (perf_event_open's rule), and
 * shows its addresses only to its tracer; starting and stopping another
 * process need its tracer, whose attach the LSMs approved. Rates above
 * HZ make a perf event and need CAP_PERFMON unless the administrator
 * allows them (unprivileged_timer_clock); the privileged_only parameter
 * limits every start to CAP_PERFMON or CAP_SYS_ADMIN (access.c).
 * The family lives in the initial network namespace only.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/pid.h>
#include <linux/sched.h>
#include <linux/sched/task.h>
#include <linux/uaccess.h>
#include <net/genetlink.h>

#include "access.h"
#include "compat.h"
#include "netlink.h"
#include "netlink_collect.h"
#include "regions.h"
#include "sampler.h"
#include "session.h"

enum pk_nl_groups {
	PK_NLGRP_EVENTS,
};

static const struct nla_policy pk_start_policy[PROFIL_ATTR_MAX + 1] = {
	[PROFIL_ATTR_PAD] = { .type = NLA_REJECT },
	[PROFIL_ATTR_PID] = NLA_POLICY_MIN(NLA_U32, 1),
	[PROFIL_ATTR_BUF] = { .type = NLA_U64 },
	[PROFIL_ATTR_BUFSIZ] = { .type = NLA_U64 },
	[PROFIL_ATTR_OFFSET] = { .type = NLA_U64 },
	[PROFIL_ATTR_SCALE] = { .type = NLA_U32 },
	[PROFIL_ATTR_RATE] =
		NLA_POLICY_RANGE(NLA_U32, PROFIL_RATE_MIN, PROFIL_RATE_MAX),
	[PROFIL_ATTR_FLAGS] = NLA_POLICY_MASK(NLA_U32, PROFIL_F_ALL),
	[PROFIL_ATTR_STATE] = { .type = NLA_REJECT },
	[PROFIL_ATTR_REASON] = { .type = NLA_REJECT },
	[PROFIL_ATTR_FAULT_ADDR] = { .type = NLA_REJECT },
	[PROFIL_ATTR_STATS] = { .type = NLA_REJECT },
	[PROFIL_ATTR_REGION] = NLA_POLICY_NESTED(pk_region_policy),
	[PROFIL_ATTR_COUNTER] = NLA_POLICY_MAX(NLA_U32, PROFIL_COUNTER_MAX),
	[PROFIL_ATTR_MODE] = NLA_POLICY_MAX(NLA_U32, PROFIL_MODE_MAX),
	[PROFIL_ATTR_NR_REGIONS] = { .type = NLA_REJECT },
	[PROFIL_ATTR_EXCL] = { .type = NLA_FLAG },
};

/* ADD_REGIONS: the target and the regions; anything else is unknown. */
static const struct nla_policy pk_add_policy[PROFIL_ATTR_MAX + 1] = {
	[PROFIL_ATTR_PAD] = { .type = NLA_REJECT },
	[PROFIL_ATTR_PID] = NLA_POLICY_MIN(NLA_U32, 1),
	[PROFIL_ATTR_REGION] = NLA_POLICY_NESTED(pk_region_policy),
};

/* STOP, GET: the process and which of its sessions. */
static const struct nla_policy pk_target_policy[PROFIL_ATTR_KIND + 1] = {
	[PROFIL_ATTR_PAD] = { .type = NLA_REJECT },
	[PROFIL_ATTR_PID] = NLA_POLICY_MIN(NLA_U32, 1),
	[PROFIL_ATTR_KIND] = NLA_POLICY_MAX(NLA_U32, PROFIL_KIND_MAX),
};

/* GET_REGIONS: the process; regions are the buffer kind's. */
static const struct nla_policy pk_pid_policy[PROFIL_ATTR_PID + 1] = {
	[PROFIL_ATTR_PAD] = { .type = NLA_REJECT },
	[PROFIL_ATTR_PID] = NLA_POLICY_MIN(NLA_U32, 1),
};

/* The switches, for requests that start or extend profiling. */
int pk_nl_check_allowed(bool timer_clock, struct netlink_ext_ack *extack)
{
	if (!pk_start_allowed(true)) {
		NL_SET_ERR_MSG_MOD(extack,
				   "privileged_only is set: needs CAP_PERFMON");
		return -EPERM;
	}
	if (timer_clock && !pk_timer_clock_allowed(true)) {
		NL_SET_ERR_MSG_MOD(extack, "rates above HZ need CAP_PERFMON");
		return -EPERM;
	}
	return 0;
}

/* Refuse a request that needs pk_may_control() over @task. */
int pk_nl_check_control(struct task_struct *task, const struct nlattr *pid_attr,
			struct netlink_ext_ack *extack)
{
	if (pk_may_control(task))
		return 0;
	NL_SET_ERR_MSG_ATTR(extack, pid_attr,
			    "must be the process or its ptrace tracer");
	return -EPERM;
}

/*
 * The process a request is about: PROFIL_ATTR_PID among @attrs, or the
 * caller's.
 */
struct task_struct *pk_nl_target(struct nlattr **attrs,
				 struct netlink_ext_ack *extack)
{
	struct nlattr *attr = attrs ? attrs[PROFIL_ATTR_PID] : NULL;
	struct task_struct *task;

	if (!attr) {
		get_task_struct(current);
		return current;
	}

	rcu_read_lock();
	task = pid_task(find_vpid(nla_get_u32(attr)), PIDTYPE_TGID);
	if (task)
		get_task_struct(task);
	rcu_read_unlock();
	if (!task) {
		NL_SET_ERR_MSG_ATTR(extack, attr, "no such process");
		return ERR_PTR(-ESRCH);
	}
	if (!pk_may_access(task, true)) {
		put_task_struct(task);
		NL_SET_ERR_MSG_ATTR(extack, attr,
				    "no permission to profile this process");
		return ERR_PTR(-EPERM);
	}
	if (task->flags & PF_KTHREAD) {
		put_task_struct(task);
		NL_SET_ERR_MSG_ATTR(extack, attr,
				    "kernel threads cannot be profiled");
		return ERR_PTR(-EINVAL);
	}
	return task;
}

/* The session kind a request names, the buffer kind by default. */
static int pk_nl_kind(struct nlattr **attrs)
{
	return attrs && attrs[PROFIL_ATTR_KIND] ?
		       nla_get_u32(attrs[PROFIL_ATTR_KIND]) :
		       PROFIL_KIND_BUFFER;
}

static size_t pk_nl_msg_size(void)
{
	return nla_total_size(sizeof(u32)) * 10 + /* PID .. NR_REGIONS, KIND */
	       nla_total_size_64bit(sizeof(u64)) * 4 + /* BUF .. FAULT_ADDR */
	       nla_total_size(0) + /* STATS */
	       nla_total_size_64bit(sizeof(u64)) * PROFIL_STAT_MAX;
}

static int pk_nl_put_stats(struct sk_buff *skb, struct pk_session *s)
{
	u64 stats[PROFIL_STAT_MAX + 1];
	struct nlattr *nest;
	int i;

	pk_session_stats(s, stats);
	nest = nla_nest_start(skb, PROFIL_ATTR_STATS);
	if (!nest)
		return -EMSGSIZE;
	for (i = PROFIL_STAT_TICKS; i <= PROFIL_STAT_MAX; i++)
		if (nla_put_u64_64bit(skb, i, stats[i], PROFIL_STAT_PAD))
			return -EMSGSIZE;
	nla_nest_end(skb, nest);
	return 0;
}

/*
 * @cb: the dump this message is part of, else NULL. @addrs: with BUF,
 * OFFSET and FAULT_ADDR, for a recipient that passed pk_may_control().
 */
static int pk_nl_fill(struct sk_buff *skb, struct pk_session *s, u32 portid,
		      u32 seq, int flags, u8 cmd, struct netlink_callback *cb,
		      bool addrs)
{
	u32 rate, pflags, nr = 0, counter = 0, mode = 0;
	const struct pk_params *p;
	struct pk_region r0 = {};
	unsigned long irqflags;
	int state, reason;
	u64 fault_addr;
	void *hdr;

	/* BUF to SCALE report the first region; a held session has none. */
	rcu_read_lock();
	p = rcu_dereference(s->params);
	if (p->regions) {
		r0 = p->regions->region[0];
		nr = p->regions->nr;
		counter = p->regions->counter;
		mode = p->regions->mode;
	}
	rate = p->rate;
	pflags = p->flags;
	rcu_read_unlock();
	raw_spin_lock_irqsave(&s->lock, irqflags);
	state = s->state;
	reason = s->reason;
	fault_addr = s->fault_addr;
	raw_spin_unlock_irqrestore(&s->lock, irqflags);

	hdr = genlmsg_put(skb, portid, seq, &pk_family, flags, cmd);
	if (!hdr)
		return -EMSGSIZE;
	if (cb)
		genl_dump_check_consistent(cb, hdr);
	if (nla_put_u32(skb, PROFIL_ATTR_PID, pid_vnr(s->tgid)) ||
	    nla_put_u32(skb, PROFIL_ATTR_KIND, s->kind) ||
	    (addrs && nla_put_u64_64bit(skb, PROFIL_ATTR_BUF, r0.buf,
					PROFIL_ATTR_PAD)) ||
	    nla_put_u64_64bit(skb, PROFIL_ATTR_BUFSIZ, r0.size,
			      PROFIL_ATTR_PAD) ||
	    (addrs && nla_put_u64_64bit(skb, PROFIL_ATTR_OFFSET, r0.offset,
					PROFIL_ATTR_PAD)) ||
	    nla_put_u32(skb, PROFIL_ATTR_SCALE, r0.scale) ||
	    nla_put_u32(skb, PROFIL_ATTR_RATE, rate) ||
	    nla_put_u32(skb, PROFIL_ATTR_FLAGS, pflags) ||
	    nla_put_u32(skb, PROFIL_ATTR_STATE, state) ||
	    nla_put_u32(skb, PROFIL_ATTR_REASON, reason) ||
	    nla_put_u32(skb, PROFIL_ATTR_COUNTER, counter) ||
	    nla_put_u32(skb, PROFIL_ATTR_MODE, mode) ||
	    nla_put_u32(skb, PROFIL_ATTR_NR_REGIONS, nr))
		goto nla_put_failure;
	if (addrs && reason == PROFIL_STOP_FAULT &&
	    nla_put_u64_64bit(skb, PROFIL_ATTR_FAULT_ADDR, fault_addr,
			      PROFIL_ATTR_PAD))
		goto nla_put_failure;
	if (pk_nl_put_stats(skb, s))
		goto nla_put_failure;
	genlmsg_end(skb, hdr);
	return 0;

nla_put_failure:
	genlmsg_cancel(skb, hdr);
	return -EMSGSIZE;
}

static void pk_nl_stop_task(struct task_struct *task, int kind, int reason)
{
	struct pk_session *s = pk_session_find(task_tgid(task), kind);

	if (s) {
		pk_session_stop_sync(s, reason);
		pk_session_put(s);
	}
}

/*
 * The set a START asks for: its PROFIL_ATTR_REGION nests, or profil()'s
 * four attributes. @off: profil()'s off switch, NULL buffer or scale 0.
 */
static struct pk_regions *pk_nl_regions(struct genl_info *info, int *off)
{
	struct netlink_ext_ack *extack = info->extack;
	struct nlattr **attrs = info->attrs;
	u32 counter = PROFIL_COUNTER_U16, mode = PROFIL_MODE_WRAP, scale;
	struct pk_regions *rs;
	u64 buf, bufsiz;

	if (attrs[PROFIL_ATTR_COUNTER])
		counter = nla_get_u32(attrs[PROFIL_ATTR_COUNTER]);
	if (attrs[PROFIL_ATTR_MODE])
		mode = nla_get_u32(attrs[PROFIL_ATTR_MODE]);
	*off = 0;
	if (attrs[PROFIL_ATTR_REGION] &&
	    (attrs[PROFIL_ATTR_BUF] || attrs[PROFIL_ATTR_BUFSIZ] ||
	     attrs[PROFIL_ATTR_OFFSET] || attrs[PROFIL_ATTR_SCALE])) {
		NL_SET_ERR_MSG_ATTR(extack, attrs[PROFIL_ATTR_REGION],
				    "regions exclude BUF/BUFSIZ/OFFSET/SCALE");
		return ERR_PTR(-EINVAL);
	}
	if (attrs[PROFIL_ATTR_REGION]) {
		return pk_regions_from_nl(genlmsg_data(info->genlhdr),
					  genlmsg_len(info->genlhdr), NULL,
					  counter, mode, extack);
	}

	buf = nla_get_u64(attrs[PROFIL_ATTR_BUF]);
	bufsiz = nla_get_u64(attrs[PROFIL_ATTR_BUFSIZ]);
	scale = nla_get_u32(attrs[PROFIL_ATTR_SCALE]);
	if (!buf || !scale) {
		*off = buf ? PROFIL_STOP_SCALE0 : PROFIL_STOP_REQUEST;
		return NULL;
	}
	if (buf + bufsiz < buf || !access_ok(u64_to_user_ptr(buf), bufsiz)) {
		NL_SET_ERR_MSG_ATTR(extack, attrs[PROFIL_ATTR_BUF],
				    "buffer is not in user space");
		return ERR_PTR(-EFAULT);
	}
	rs = pk_regions_single(buf, bufsiz,
			       nla_get_u64(attrs[PROFIL_ATTR_OFFSET]), scale,
			       counter, mode);
	if (IS_ERR(rs))
		NL_SET_ERR_MSG_MOD(extack, "no memory for the region set");
	return rs;
}

static int pk_nl_start(struct sk_buff *skb, struct genl_info *info)
{
	struct netlink_ext_ack *extack = info->extack;
	struct nlattr **attrs = info->attrs;
	struct nlattr *excl = attrs[PROFIL_ATTR_EXCL];
	struct pk_params req = {};
	enum pk_start_how how;
	struct pk_regions *rs;
	struct task_struct *task;
	int err, off;

	/* The core names the missing attribute; 6.1 adds no text. */
	if (!attrs[PROFIL_ATTR_REGION] &&
	    (GENL_REQ_ATTR_CHECK(info, PROFIL_ATTR_BUF) ||
	     GENL_REQ_ATTR_CHECK(info, PROFIL_ATTR_BUFSIZ) ||
	     GENL_REQ_ATTR_CHECK(info, PROFIL_ATTR_OFFSET) ||
	     GENL_REQ_ATTR_CHECK(info, PROFIL_ATTR_SCALE))) {
		NL_SET_ERR_MSG_MOD(extack, "a required attribute is missing");
		return -EINVAL;
	}
	req.rate = PROFIL_RATE_DEFAULT;
	if (attrs[PROFIL_ATTR_RATE])
		req.rate = nla_get_u32(attrs[PROFIL_ATTR_RATE]);
	if (attrs[PROFIL_ATTR_FLAGS])
		req.flags = nla_get_u32(attrs[PROFIL_ATTR_FLAGS]);

	task = pk_nl_target(info->attrs, info->extack);
	if (IS_ERR(task))
		return PTR_ERR(task);
	err = pk_nl_check_control(task, attrs[PROFIL_ATTR_PID], extack);
	if (err)
		goto out;

	rs = pk_nl_regions(info, &off);
	err = PTR_ERR_OR_ZERO(rs);
	if (err)
		goto out;
	if (!rs) {
		/* A START that stops would not leave an active session. */
		if (excl) {
			NL_SET_ERR_MSG_ATTR(extack, excl,
					    "EXCL with a START that stops");
			err = -EINVAL;
			goto out;
		}
		pk_nl_stop_task(task, PROFIL_KIND_BUFFER, off);
		goto out;
	}
	err = pk_nl_check_allowed(!pk_rides_tick(req.rate), extack);
	if (err)
		goto out_put_regions;
	req.regions = rs;
	how = excl ? PK_START_UNLESS_ACTIVE : PK_START_REPLACE;
	err = pk_session_start(task, &req, how);
	if (excl && err == -EEXIST)
		NL_SET_ERR_MSG_ATTR(extack, excl,
				    "process has an active session");
	else if (err)
		NL_SET_ERR_MSG_MOD(extack, "cannot start sampling the process");
out_put_regions:
	pk_regions_put(rs);
out:
	put_task_struct(task);
	return err;
}

static int pk_nl_add_regions(struct sk_buff *skb, struct genl_info *info)
{
	struct netlink_ext_ack *extack = info->extack;
	struct pk_session *s;
	struct task_struct *task;
	int err;

	err = pk_nl_check_allowed(false, extack);
	if (err)
		return err;
	task = pk_nl_target(info->attrs, info->extack);
	if (IS_ERR(task))
		return PTR_ERR(task);
	err = pk_nl_check_control(task, info->attrs[PROFIL_ATTR_PID], extack);
	if (err)
		goto out_put_task;
	err = -ENOENT;
	s = pk_session_find(task_tgid(task), PROFIL_KIND_BUFFER);
	if (!s) {
		NL_SET_ERR_MSG_MOD(extack, "process is not profiled");
		goto out_put_task;
	}
	err = pk_session_add_regions(s, genlmsg_data(info->genlhdr),
				     genlmsg_len(info->genlhdr), extack);
	pk_session_put(s);
out_put_task:
	put_task_struct(task);
	return err;
}

static int pk_nl_stop(struct sk_buff *skb, struct genl_info *info)
{
	struct task_struct *task;
	int err;

	/* A machine-wide profile is not for its processes to leave. */
	if (pk_nl_kind(info->attrs) == PROFIL_KIND_MACHINE &&
	    !pk_machine_allowed()) {
		NL_SET_ERR_MSG_MOD(info->extack,
				   "a machine-wide profile needs CAP_PERFMON");
		return -EPERM;
	}
	task = pk_nl_target(info->attrs, info->extack);
	if (IS_ERR(task))
		return PTR_ERR(task);
	err = pk_nl_check_control(task, info->attrs[PROFIL_ATTR_PID],
				  info->extack);
	if (!err)
		pk_nl_stop_task(task, pk_nl_kind(info->attrs),
				PROFIL_STOP_REQUEST);
	put_task_struct(task);
	return err;
}

static int pk_nl_get(struct sk_buff *skb, struct genl_info *info)
{
	struct pk_session *s;
	struct task_struct *task;
	struct sk_buff *msg;
	bool addrs;
	int err;

	task = pk_nl_target(info->attrs, info->extack);
	if (IS_ERR(task))
		return PTR_ERR(task);
	/* Not a refusal: the reply only leaves the addresses out. */
	addrs = pk_may_control(task);
	s = pk_session_find(task_tgid(task), pk_nl_kind(info->attrs));
	put_task_struct(task);
	if (!s) {
		NL_SET_ERR_MSG_MOD(info->extack, "process is not profiled");
		return -ENOENT;
	}

	err = -ENOMEM;
	msg = genlmsg_new(pk_nl_msg_size(), GFP_KERNEL);
	if (!msg) {
		NL_SET_ERR_MSG_MOD(info->extack, "no memory for the reply");
		goto out;
	}
	err = pk_nl_fill(msg, s, info->snd_portid, info->snd_seq, 0,
			 PROFIL_CMD_GET, NULL, addrs);
	if (err) {
		nlmsg_free(msg);
		goto out;
	}
	err = genlmsg_reply(msg, info);
out:
	pk_session_put(s);
	return err;
}

/*
 * Whether a dump lists @s: a process in the caller's PID namespace that
 * pk_may_access() lets it read; *@addrs: with its addresses. Checks
 * without audit records, since a session left out is no refusal.
 */
static bool pk_nl_visible(struct pk_session *s, bool *addrs)
{
	struct task_struct *task;
	bool ok;

	if (!pid_vnr(s->tgid))
		return false;
	task = get_pid_task(s->tgid, PIDTYPE_TGID);
	if (!task)
		return false;
	ok = pk_may_access(task, false);
	*addrs = ok && pk_may_control(task);
	put_task_struct(task);
	return ok;
}

/*
 * The session dump walks the table (session_table.c), resuming where its
 * last part stopped. cb->seq is the table's change count plus the walk's
 * restarts: if a session was inserted or removed between two parts of
 * the dump, or a resize restarted the walk, what follows carries
 * NLM_F_DUMP_INTR.
 */
static int pk_nl_dump_start(struct netlink_callback *cb)
{
	struct pk_table_walk *w = pk_table_walk_begin();

	if (!w)
		return -ENOMEM;
	cb->args[0] = (long)w;
	return 0;
}

static int pk_nl_dump_done(struct netlink_callback *cb)
{
	pk_table_walk_end((struct pk_table_walk *)cb->args[0]);
	return 0;
}

static int pk_nl_dump(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct pk_table_walk *w = (struct pk_table_walk *)cb->args[0];
	struct nlattr *pid = pk_dump_attrs(cb)[PROFIL_ATTR_PID];
	struct pk_session *s;
	bool addrs;
	int err = 0;

	if (pid) {
		NL_SET_ERR_MSG_ATTR(cb->extack, pid,
				    "no PID in a dump of every session");
		return -EINVAL;
	}
	while ((s = pk_table_walk_next(w))) {
		cb->seq = pk_session_table_seq() + w->restarts;
		if (pk_nl_visible(s, &addrs))
			err = pk_nl_fill(skb, s, NETLINK_CB(cb->skb).portid,
					 cb->nlh->nlmsg_seq, NLM_F_MULTI,
					 PROFIL_CMD_GET, cb, addrs);
		if (err) {
			/* The part is full: @s opens the next one. */
			pk_table_walk_unget(w, s);
			break;
		}
		pk_session_put(s);
	}
	return err && !skb->len ? err : skb->len;
}

static int pk_nl_put_region(struct sk_buff *skb, const struct pk_region *r)
{
	struct nlattr *nest = nla_nest_start(skb, PROFIL_ATTR_REGION);

	if (!nest)
		return -EMSGSIZE;
	if (nla_put_u64_64bit(skb, PROFIL_REGION_BUF, r->buf,
			      PROFIL_REGION_PAD) ||
	    nla_put_u64_64bit(skb, PROFIL_REGION_SIZE, r->size,
			      PROFIL_REGION_PAD) ||
	    nla_put_u64_64bit(skb, PROFIL_REGION_OFFSET, r->offset,
			      PROFIL_REGION_PAD) ||
	    nla_put_u32(skb, PROFIL_REGION_SCALE, r->scale)) {
		nla_nest_cancel(skb, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(skb, nest);
	return 0;
}

/*
 * A GET_REGIONS dump's state in cb->ctx. Its target is resolved and its
 * permission checked once, by .start in the requester's context: the
 * parts that follow run in whoever's recvmsg(). 6.1 gives .start no
 * extack (only the dump's parts have one), so a refusal is kept here and
 * reported by the first part.
 * @pos: the index of the next region
 * @s: the session, referenced until .done; NULL after a refusal
 * @pid: the process's number in the requester's PID namespace
 * @err: the refusal's errno
 * @msg: its text
 * @bad_attr: the attribute it names, in the request (kept until .done)
 */
struct pk_regions_dump {
	unsigned long pos;
	struct pk_session *s;
	u32 pid;
	int err;
	const char *msg;
	const struct nlattr *bad_attr;
};

static struct pk_regions_dump *pk_regions_dump(struct netlink_callback *cb)
{
	BUILD_BUG_ON(sizeof(struct pk_regions_dump) > sizeof(cb->ctx));
	return (struct pk_regions_dump *)cb->ctx;
}

/* Fill one GET_REGIONS message with the regions of @rs from d->pos. */
static int pk_nl_fill_regions(struct sk_buff *skb, struct netlink_callback *cb,
			      struct pk_regions_dump *d,
			      const struct pk_regions *rs)
{
	unsigned long i = d->pos;
	void *hdr;

	hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid, cb->nlh->nlmsg_seq,
			  &pk_family, NLM_F_MULTI, PROFIL_CMD_GET_REGIONS);
	if (!hdr)
		return -EMSGSIZE;
	genl_dump_check_consistent(cb, hdr);
	if (nla_put_u32(skb, PROFIL_ATTR_PID, d->pid))
		goto nla_put_failure;
	while (i < rs->nr && !pk_nl_put_region(skb, &rs->region[i]))
		i++;
	if (i == d->pos)
		goto nla_put_failure;
	genlmsg_end(skb, hdr);
	d->pos = i;
	return 0;

nla_put_failure:
	genlmsg_cancel(skb, hdr);
	return -EMSGSIZE;
}

static int pk_nl_dump_regions_start(struct netlink_callback *cb)
{
	struct pk_regions_dump *d = pk_regions_dump(cb);
	struct nlattr **attrs = pk_dump_attrs(cb);
	struct netlink_ext_ack extack = {};
	struct task_struct *task;
	int err;

	task = pk_nl_target(attrs, &extack);
	err = PTR_ERR_OR_ZERO(task);
	if (err)
		goto refused;
	/* Regions are addresses: as START's, not as GET's. */
	err = pk_nl_check_control(task, attrs[PROFIL_ATTR_PID], &extack);
	if (!err) {
		d->s = pk_session_find(task_tgid(task), PROFIL_KIND_BUFFER);
		d->pid = task_tgid_vnr(task);
		if (!d->s) {
			NL_SET_ERR_MSG_MOD(&extack, "process is not profiled");
			err = -ENOENT;
		}
	}
	put_task_struct(task);
	if (!err)
		return 0;
refused:
	d->err = err;
	d->msg = extack._msg;
	d->bad_attr = extack.bad_attr;
	return 0;
}

static int pk_nl_dump_regions_done(struct netlink_callback *cb)
{
	struct pk_regions_dump *d = pk_regions_dump(cb);

	if (d->s)
		pk_session_put(d->s);
	return 0;
}

/*
 * GET_REGIONS: one message per call with as many regions as fit, resuming
 * at the index in d->pos. cb->seq is the serial of the set, unique to each
 * publication: if a restart or an extension replaced it during the dump,
 * what follows carries NLM_F_DUMP_INTR.
 */
static int pk_nl_dump_regions(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct pk_regions_dump *d = pk_regions_dump(cb);
	const struct pk_params *p;
	struct pk_regions *rs;
	int err = 0;

	if (!d->s) {
		/* NL_SET_ERR_MSG() takes a literal; the text is one. */
		if (cb->extack) {
			cb->extack->_msg = d->msg;
			NL_SET_BAD_ATTR(cb->extack, d->bad_attr);
		}
		return d->err;
	}
	/* The params hold a reference on their set until a grace period. */
	rcu_read_lock();
	p = rcu_dereference(d->s->params);
	rs = p->regions;
	pk_regions_get(rs);
	cb->seq = p->serial;
	rcu_read_unlock();

	if (d->pos < rs->nr)
		err = pk_nl_fill_regions(skb, cb, d, rs);
	pk_regions_put(rs);
	return err ?: skb->len;
}

/**
 * pk_netlink_notify_stopped() - announce that a session stopped
 * @s: the stopped session
 *
 * Context: process context.
 */
void pk_netlink_notify_stopped(struct pk_session *s)
{
	struct sk_buff *msg;

	if (!genl_has_listeners(&pk_family, &init_net, PK_NLGRP_EVENTS))
		return;
	msg = genlmsg_new(pk_nl_msg_size(), GFP_KERNEL);
	if (!msg)
		return;
	/*
	 * Listeners have CAP_NET_ADMIN, which is no ptrace right over the
	 * process: no addresses; its owner reads them with GET.
	 */
	if (pk_nl_fill(msg, s, 0, 0, 0, PROFIL_CMD_STOPPED, NULL, false)) {
		nlmsg_free(msg);
		return;
	}
	genlmsg_multicast(&pk_family, msg, 0, PK_NLGRP_EVENTS, GFP_KERNEL);
}

static const struct genl_ops pk_ops[] = {
	{
		.cmd = PROFIL_CMD_START,
		.doit = pk_nl_start,
		.policy = pk_start_policy,
		.maxattr = PROFIL_ATTR_MAX,
	},
	{
		.cmd = PROFIL_CMD_STOP,
		.doit = pk_nl_stop,
		.policy = pk_target_policy,
		.maxattr = PROFIL_ATTR_KIND,
	},
	{
		.cmd = PROFIL_CMD_GET,
		.doit = pk_nl_get,
		.start = pk_nl_dump_start,
		.dumpit = pk_nl_dump,
		.done = pk_nl_dump_done,
		.policy = pk_target_policy,
		.maxattr = PROFIL_ATTR_KIND,
	},
	{
		.cmd = PROFIL_CMD_ADD_REGIONS,
		.doit = pk_nl_add_regions,
		.policy = pk_add_policy,
		.maxattr = PROFIL_ATTR_MAX,
	},
	{
		.cmd = PROFIL_CMD_GET_REGIONS,
		.start = pk_nl_dump_regions_start,
		.dumpit = pk_nl_dump_regions,
		.done = pk_nl_dump_regions_done,
		.policy = pk_pid_policy,
		.maxattr = PROFIL_ATTR_PID,
	},
	{
		.cmd = PROFIL_CMD_COLLECT,
		.doit = pk_nl_collect,
		.policy = pk_collect_policy,
		.maxattr = PROFIL_ATTR_MAX,
	},
	{
		.cmd = PROFIL_CMD_GET_PROFILE,
		.start = pk_nl_dump_profile_start,
		.dumpit = pk_nl_dump_profile,
		.done = pk_nl_dump_profile_done,
		.policy = pk_profile_policy,
		.maxattr = PROFIL_ATTR_PAD,
	},
};

/*
 * Stop events tell of every user's processes (no addresses): listeners
 * need CAP_NET_ADMIN. Headers without the flag (before 6.7 and its 6.1.y
 * backport) would leave the group world-readable: no build there.
 */
#ifndef GENL_MCAST_CAP_NET_ADMIN
#error "GENL_MCAST_CAP_NET_ADMIN missing: the events group would be world-readable"
#endif

static const struct genl_multicast_group pk_mcgrps[] = {
	[PK_NLGRP_EVENTS] = {
		.name = PROFIL_MCGRP_EVENTS,
		.flags = GENL_MCAST_CAP_NET_ADMIN,
	},
};

struct genl_family pk_family __ro_after_init = {
	.name = PROFIL_GENL_NAME,
	.version = PROFIL_GENL_VERSION,
	.maxattr = PROFIL_ATTR_MAX,
	/*
	 * Sessions have locks of their own; a STOP waiting for a write that
	 * faults on a slow file must not hold up every other family.
	 */
	.parallel_ops = true,
	.module = THIS_MODULE,
	.ops = pk_ops,
	.n_ops = ARRAY_SIZE(pk_ops),
	.mcgrps = pk_mcgrps,
	.n_mcgrps = ARRAY_SIZE(pk_mcgrps),
};

int __init pk_netlink_init(void)
{
	return genl_register_family(&pk_family);
}

void pk_netlink_exit(void)
{
	genl_unregister_family(&pk_family);
}
