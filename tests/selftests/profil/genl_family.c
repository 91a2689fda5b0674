// SPDX-License-Identifier: GPL-2.0
/*
 * genl_family: the "profil" generic netlink family is registered, as
 * include/uapi/linux/profil.h describes it: version, attribute range, the
 * START/STOP/GET operations and the "events" multicast group.
 *
 * The harness has loaded profil.ko, so an absent family is a failure here.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#include <libmnl/libmnl.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <linux/profil.h>

#include "profil_harness.h"

#define MAX_OPS 32

struct family_info {
	char name[GENL_NAMSIZ];
	uint16_t id;
	uint32_t version;
	uint32_t maxattr;
	unsigned int n_ops;
	uint32_t op_id[MAX_OPS];
	uint32_t op_flags[MAX_OPS];
	bool has_events;
	uint32_t events_id;
};

static int parse_op(const struct nlattr *nest, struct family_info *fi)
{
	const struct nlattr *a;
	uint32_t id = 0, flags = 0;

	mnl_attr_for_each_nested(a, nest) {
		if (mnl_attr_get_type(a) == CTRL_ATTR_OP_ID)
			id = mnl_attr_get_u32(a);
		else if (mnl_attr_get_type(a) == CTRL_ATTR_OP_FLAGS)
			flags = mnl_attr_get_u32(a);
	}
	if (fi->n_ops < MAX_OPS) {
		fi->op_id[fi->n_ops] = id;
		fi->op_flags[fi->n_ops] = flags;
		fi->n_ops++;
	}
	return MNL_CB_OK;
}

static int parse_grp(const struct nlattr *nest, struct family_info *fi)
{
	const struct nlattr *a;
	const char *name = NULL;
	uint32_t id = 0;

	mnl_attr_for_each_nested(a, nest) {
		if (mnl_attr_get_type(a) == CTRL_ATTR_MCAST_GRP_NAME)
			name = mnl_attr_get_str(a);
		else if (mnl_attr_get_type(a) == CTRL_ATTR_MCAST_GRP_ID)
			id = mnl_attr_get_u32(a);
	}
	if (name && !strcmp(name, PROFIL_MCGRP_EVENTS)) {
		fi->has_events = true;
		fi->events_id = id;
	}
	return MNL_CB_OK;
}

static int ctrl_attr_cb(const struct nlattr *attr, void *data)
{
	struct family_info *fi = data;
	const struct nlattr *nest;

	switch (mnl_attr_get_type(attr)) {
	case CTRL_ATTR_FAMILY_ID:
		fi->id = mnl_attr_get_u16(attr);
		break;
	case CTRL_ATTR_FAMILY_NAME:
		snprintf(fi->name, sizeof(fi->name), "%s",
			 mnl_attr_get_str(attr));
		break;
	case CTRL_ATTR_VERSION:
		fi->version = mnl_attr_get_u32(attr);
		break;
	case CTRL_ATTR_MAXATTR:
		fi->maxattr = mnl_attr_get_u32(attr);
		break;
	case CTRL_ATTR_OPS:
		mnl_attr_for_each_nested(nest, attr)
			parse_op(nest, fi);
		break;
	case CTRL_ATTR_MCAST_GROUPS:
		mnl_attr_for_each_nested(nest, attr)
			parse_grp(nest, fi);
		break;
	}
	return MNL_CB_OK;
}

static int ctrl_cb(const struct nlmsghdr *nlh, void *data)
{
	return mnl_attr_parse(nlh, sizeof(struct genlmsghdr), ctrl_attr_cb,
			      data);
}

/* CTRL_CMD_GETFAMILY by name; 0, or -errno (-ENOENT: no such family). */
static int get_family(struct mnl_socket *nl, const char *name,
		      struct family_info *fi)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	unsigned int seq = time(NULL), portid = mnl_socket_get_portid(nl);
	struct genlmsghdr *genl;
	struct nlmsghdr *nlh;
	int ret;

	memset(fi, 0, sizeof(*fi));
	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = GENL_ID_CTRL;
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
	nlh->nlmsg_seq = seq;
	genl = mnl_nlmsg_put_extra_header(nlh, sizeof(*genl));
	genl->cmd = CTRL_CMD_GETFAMILY;
	genl->version = 1;
	mnl_attr_put_strz(nlh, CTRL_ATTR_FAMILY_NAME, name);

	if (mnl_socket_sendto(nl, nlh, nlh->nlmsg_len) < 0)
		return -errno;
	do {
		ret = mnl_socket_recvfrom(nl, buf, sizeof(buf));
		if (ret < 0)
			return -errno;
		ret = mnl_cb_run(buf, ret, seq, portid, ctrl_cb, fi);
	} while (ret > 0);
	return ret < 0 ? -errno : 0;
}

/* Flags of operation @cmd, or -1 if the family does not have it. */
static int64_t op_flags(const struct family_info *fi, uint32_t cmd)
{
	unsigned int i;

	for (i = 0; i < fi->n_ops; i++)
		if (fi->op_id[i] == cmd)
			return fi->op_flags[i];
	return -1;
}

FIXTURE(family)
{
	struct mnl_socket *nl;
	struct family_info fi;
};

FIXTURE_SETUP(family)
{
	int err;

	self->nl = mnl_socket_open(NETLINK_GENERIC);
	ASSERT_NE(NULL, self->nl)
		TH_LOG("netlink socket: %s", strerror(errno));
	ASSERT_EQ(0, mnl_socket_bind(self->nl, 0, MNL_SOCKET_AUTOPID));
	err = get_family(self->nl, PROFIL_GENL_NAME, &self->fi);
	ASSERT_EQ(0, err)
		TH_LOG("family \"%s\" not found (%s): is profil.ko loaded?",
		       PROFIL_GENL_NAME, strerror(-err));
}

FIXTURE_TEARDOWN(family)
{
	if (self->nl)
		mnl_socket_close(self->nl);
}

TEST_F(family, resolves)
{
	EXPECT_STREQ(PROFIL_GENL_NAME, self->fi.name);
	EXPECT_LE(GENL_MIN_ID, self->fi.id);
}

TEST_F(family, version)
{
	EXPECT_EQ((uint32_t)PROFIL_GENL_VERSION, self->fi.version);
}

TEST_F(family, maxattr)
{
	EXPECT_EQ((uint32_t)PROFIL_ATTR_MAX, self->fi.maxattr);
}

TEST_F(family, ops)
{
	static const uint32_t cmds[] = {
		PROFIL_CMD_START, PROFIL_CMD_STOP, PROFIL_CMD_GET
	};
	unsigned int i;

	for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		int64_t flags = op_flags(&self->fi, cmds[i]);

		ASSERT_LE(0, flags) TH_LOG("command %u missing", cmds[i]);
		EXPECT_TRUE(flags & GENL_CMD_CAP_DO)
			TH_LOG("command %u has no doit", cmds[i]);
		EXPECT_TRUE(flags & GENL_CMD_CAP_HASPOL)
			TH_LOG("command %u has no policy", cmds[i]);
	}
}

TEST_F(family, get_dumps)
{
	int64_t flags = op_flags(&self->fi, PROFIL_CMD_GET);

	ASSERT_LE(0, flags);
	EXPECT_TRUE(flags & GENL_CMD_CAP_DUMP);
}

/* Profiling one's own process needs no privilege (style.md 3). */
TEST_F(family, ops_unprivileged)
{
	static const uint32_t cmds[] = {
		PROFIL_CMD_START, PROFIL_CMD_STOP, PROFIL_CMD_GET
	};
	unsigned int i;

	for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		int64_t flags = op_flags(&self->fi, cmds[i]);

		ASSERT_LE(0, flags);
		EXPECT_FALSE(flags & (GENL_ADMIN_PERM | GENL_UNS_ADMIN_PERM))
			TH_LOG("command %u needs CAP_NET_ADMIN", cmds[i]);
	}
}

TEST_F(family, no_notification_op)
{
	EXPECT_EQ(-1, op_flags(&self->fi, PROFIL_CMD_STOPPED));
}

TEST_F(family, events_group)
{
	EXPECT_TRUE(self->fi.has_events);
	EXPECT_NE(0U, self->fi.events_id);
}

/* The lookup itself tells an absent family apart. */
TEST_F(family, unknown_family_enoent)
{
	struct family_info other;

	EXPECT_EQ(-ENOENT, get_family(self->nl, "profil-absent", &other));
}

PROFIL_HARNESS_MAIN
