// SPDX-License-Identifier: GPL-2.0
/*
 * What profil.ko lets an unprivileged user see, and write: no kernel
 * address in a histogram, a message or an event, no events without
 * CAP_NET_ADMIN, no buffer outside the user half, writes only to the
 * caller's own mappings. Run as root, each test drops to nobody (65534)
 * first, except where it says why not. Another user's process is refused
 * in profil_semantics_test (other_users_process_refused); what a user's
 * sessions may cost, security_bounds_test; what a user may see and do of
 * another process's session, security_peer_test.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <grp.h>
#include <pthread.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <signal.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "profil_security.h"

/* Where x86-64 kernel text, modules and the vsyscall page live. */
#define KERNEL_TEXT	0xffffffff80000000ULL
#define VSYSCALL_PAGE	0xffffffffff600000ULL
/*
 * The kernel half starts here with 5-level paging, 0xffff800000000000
 * with 4: user space ends below either (56 or 47 bits), and nothing of
 * the user's is at or above it.
 */
#define KERNEL_HALF	0xff00000000000000ULL

/* Time in the kernel: each call enters at the same user PC. */
static void kernel_loop(double secs)
{
	double end = process_cpu() + secs;

	while (process_cpu() < end)
		syscall(SYS_getppid);
}

/*
 * With system-mode ticks charged, a buffer laid over the kernel's text and
 * module area stays zero: the kernel charges such ticks to the user PC
 * where the thread entered the kernel, never to a kernel PC.
 */
static void no_kernel_pc(struct __test_metadata *_metadata, uint32_t rate)
{
	/* scale 1: 128 KiB per counter, so 32 KiB span the top 2 GiB. */
	const size_t nbins = (0 - KERNEL_TEXT) >> 17;
	struct pnl_status st;
	struct pnl_start req;
	uint16_t *buf;
	struct pnl nl;
	size_t i, hits = 0;

	become_nobody(_metadata);
	ASSERT_EQ(0, pnl_open(&nl));
	buf = calloc(nbins, 2);
	ASSERT_NE(NULL, buf);
	req = (struct pnl_start) {
		.buf = (uintptr_t)buf, .bufsiz = nbins * 2,
		.offset = KERNEL_TEXT, .scale = 1, .rate = rate,
		.flags = PROFIL_F_SYSTEM_TICKS,
	};
	ASSERT_EQ(0, pnl_start(&nl, &req)) TH_LOG("%s", nl.extack);
	kernel_loop(rate > 100 ? 0.2 : 1.0);
	ASSERT_EQ(0, pnl_stop(&nl, 0));
	ASSERT_EQ(0, pnl_get(&nl, 0, &st));
	for (i = 0; i < nbins; i++)
		hits += buf[i];
	EXPECT_GT(st.stats[PROFIL_STAT_SYSTEM_CHARGED], 0);
	EXPECT_EQ(0, st.stats[PROFIL_STAT_IN_RANGE]);
	EXPECT_EQ(0, hits);
	EXPECT_EQ(st.stats[PROFIL_STAT_TICKS], pnl_accounted(&st));
	free(buf);
	pnl_close(&nl);
}

TEST(no_kernel_pc_in_histogram_tick_clock)
{
	no_kernel_pc(_metadata, 100);
}

TEST(no_kernel_pc_in_histogram_timer_clock)
{
	no_kernel_pc(_metadata, 2000);
}

/* Send @nlh, collect every reply message, raw, up to the ACK or DONE. */
static ssize_t raw_talk(struct pnl *nl, struct nlmsghdr *nlh, char *out,
			size_t size)
{
	size_t len = 0;
	bool end = false;

	nlh->nlmsg_flags |= NLM_F_ACK;
	nlh->nlmsg_seq = ++nl->seq;
	if (mnl_socket_sendto(nl->sock, nlh, nlh->nlmsg_len) < 0)
		return -errno;
	while (!end) {
		const struct nlmsghdr *m;
		int n, left;

		if (size - len < MNL_SOCKET_BUFFER_SIZE)
			return -ENOBUFS;
		n = mnl_socket_recvfrom(nl->sock, out + len, size - len);
		if (n < 0)
			return -errno;
		m = (const struct nlmsghdr *)(out + len);
		for (left = n; mnl_nlmsg_ok(m, left);
		     m = mnl_nlmsg_next(m, &left))
			if (m->nlmsg_type == NLMSG_ERROR ||
			    m->nlmsg_type == NLMSG_DONE)
				end = true;
		len += n;
	}
	return len;
}

struct leak_check {
	struct __test_metadata *md;
	unsigned int messages, attrs;
};

/*
 * Every number the family sends is a PID, a user address or size, a
 * count or a small enum; the caller's own OFFSET is echoed as given. None
 * may look like a kernel address.
 */
static int check_attr(const struct nlattr *attr, void *data)
{
	struct leak_check *lc = data;
	struct __test_metadata *_metadata = lc->md;
	uint16_t type = mnl_attr_get_type(attr);
	uint16_t len = mnl_attr_get_payload_len(attr);

	lc->attrs++;
	if (type == PROFIL_ATTR_STATS && (attr->nla_type & NLA_F_NESTED))
		return mnl_attr_parse_nested(attr, check_attr, data) < 0 ?
		       MNL_CB_ERROR : MNL_CB_OK;
	if (len == 8 && type != PROFIL_ATTR_OFFSET)
		EXPECT_LT(mnl_attr_get_u64(attr), KERNEL_HALF)
			TH_LOG("attribute %u: %#llx", type,
			       (unsigned long long)mnl_attr_get_u64(attr));
	if (len == 4)
		EXPECT_LT(mnl_attr_get_u32(attr), 0xffff0000U)
			TH_LOG("attribute %u: %#x", type,
			       mnl_attr_get_u32(attr));
	return MNL_CB_OK;
}

static int check_errattr(const struct nlattr *attr, void *data)
{
	struct leak_check *lc = data;
	struct __test_metadata *_metadata = lc->md;

	lc->attrs++;
	if (mnl_attr_get_type(attr) == NLMSGERR_ATTR_MSG) {
		const char *msg = mnl_attr_get_str(attr);

		EXPECT_EQ(NULL, strcasestr(msg, "ffff")) TH_LOG("%s", msg);
		EXPECT_EQ(NULL, strstr(msg, "0x")) TH_LOG("%s", msg);
	}
	if (mnl_attr_get_type(attr) == NLMSGERR_ATTR_OFFS)
		EXPECT_LT(mnl_attr_get_u32(attr), 4096);
	return MNL_CB_OK;
}

static void check_messages(struct __test_metadata *_metadata,
			   struct leak_check *lc, const char *buf, ssize_t n)
{
	const struct nlmsghdr *m = (const struct nlmsghdr *)buf;
	int left = n;

	ASSERT_GT(n, 0) TH_LOG("%s", strerror(-n));
	for (; mnl_nlmsg_ok(m, left); m = mnl_nlmsg_next(m, &left)) {
		lc->messages++;
		if (m->nlmsg_type == NLMSG_ERROR) {
			const struct nlmsgerr *err = mnl_nlmsg_get_payload(m);
			unsigned int off = sizeof(*err);

			if (!(m->nlmsg_flags & NLM_F_CAPPED))
				off += mnl_nlmsg_get_payload_len(&err->msg);
			if (m->nlmsg_flags & NLM_F_ACK_TLVS)
				mnl_attr_parse(m, off, check_errattr, lc);
		} else if (m->nlmsg_type >= NLMSG_MIN_TYPE) {
			ASSERT_GE(mnl_attr_parse(m, GENL_HDRLEN, check_attr,
						 lc), 0);
		}
	}
}

/*
 * Replies to status requests and dumps, a fault's status and error
 * replies with their extack text, seen byte for byte.
 */
TEST(no_kernel_address_in_messages)
{
	static char rx[1 << 17];
	char tx[MNL_SOCKET_BUFFER_SIZE];
	struct leak_check lc = { .md = _metadata };
	struct nlmsghdr *nlh;
	struct pnl_status st;
	uint16_t *buf;
	struct pnl nl;

	become_nobody(_metadata);
	ASSERT_EQ(0, pnl_open(&nl));
	/* A session that faults, so that its status carries FAULT_ADDR. */
	buf = mmap(NULL, 1 << 16, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, buf);
	ASSERT_EQ(0, munmap(buf, 1 << 16));
	ASSERT_EQ(0, fault_session(&nl, (uintptr_t)buf, 1 << 16, &st));
	ASSERT_EQ(PROFIL_STOP_FAULT, st.reason);

	nlh = pnl_msg(tx, nl.family, PROFIL_CMD_GET, PROFIL_GENL_VERSION);
	check_messages(_metadata, &lc, rx, raw_talk(&nl, nlh, rx, sizeof(rx)));
	nlh = pnl_msg(tx, nl.family, PROFIL_CMD_GET, PROFIL_GENL_VERSION);
	nlh->nlmsg_flags |= NLM_F_DUMP;
	check_messages(_metadata, &lc, rx, raw_talk(&nl, nlh, rx, sizeof(rx)));

	/* Errors: a kernel buffer, a wrapping range, a missing attribute. */
	nlh = pnl_msg(tx, nl.family, PROFIL_CMD_START, PROFIL_GENL_VERSION);
	mnl_attr_put_u64(nlh, PROFIL_ATTR_BUF, KERNEL_TEXT + 0x1000000);
	mnl_attr_put_u64(nlh, PROFIL_ATTR_BUFSIZ, 4096);
	mnl_attr_put_u64(nlh, PROFIL_ATTR_OFFSET, 0);
	mnl_attr_put_u32(nlh, PROFIL_ATTR_SCALE, 0x10000);
	check_messages(_metadata, &lc, rx, raw_talk(&nl, nlh, rx, sizeof(rx)));
	nlh = pnl_msg(tx, nl.family, PROFIL_CMD_START, PROFIL_GENL_VERSION);
	mnl_attr_put_u64(nlh, PROFIL_ATTR_BUF, 0x7fff00000000ULL);
	mnl_attr_put_u64(nlh, PROFIL_ATTR_BUFSIZ, ~0ULL);
	mnl_attr_put_u64(nlh, PROFIL_ATTR_OFFSET, 0);
	mnl_attr_put_u32(nlh, PROFIL_ATTR_SCALE, 0x10000);
	check_messages(_metadata, &lc, rx, raw_talk(&nl, nlh, rx, sizeof(rx)));
	nlh = pnl_msg(tx, nl.family, PROFIL_CMD_START, PROFIL_GENL_VERSION);
	mnl_attr_put_u32(nlh, PROFIL_ATTR_SCALE, 0x10000);
	check_messages(_metadata, &lc, rx, raw_talk(&nl, nlh, rx, sizeof(rx)));

	/* GET, its dump entry, and 3 errors plus their ACK and DONE. */
	EXPECT_GE(lc.messages, 6);
	EXPECT_GT(lc.attrs, 20);
	pnl_close(&nl);
}

/* The id of the "events" multicast group, or a negative errno. */
static int events_group(struct pnl *nl)
{
	struct pnl_reply r = { .nl = nl, .grp_id = -1,
			       .grp_name = PROFIL_MCGRP_EVENTS };
	int err = pnl_resolve(nl, PROFIL_GENL_NAME, &r);

	return err ? err : r.grp_id;
}

/* The STOPPED notification, which only CAP_NET_ADMIN may receive. */
TEST(no_kernel_address_in_events)
{
	static char rx[1 << 16];
	struct leak_check lc = { .md = _metadata };
	struct pnl nl;
	int status, n, grp;
	pid_t child;

	if (geteuid())
		SKIP(return, "the events group needs CAP_NET_ADMIN");
	ASSERT_EQ(0, pnl_open(&nl));
	grp = events_group(&nl);
	ASSERT_GT(grp, 0);
	ASSERT_EQ(0, mnl_socket_setsockopt(nl.sock, NETLINK_ADD_MEMBERSHIP,
					   &grp, sizeof(grp)));
	child = fork();
	ASSERT_GE(child, 0);
	if (!child) {
		static uint16_t cbuf[64];
		struct pnl_start req = {
			.buf = (uintptr_t)cbuf, .bufsiz = sizeof(cbuf),
			.scale = 0x10000, .rate = 100,
		};
		struct pnl cnl;

		if (setgid(65534) || setuid(65534) || pnl_open(&cnl) ||
		    pnl_start(&cnl, &req) || pnl_stop(&cnl, 0))
			_exit(1);
		_exit(0);
	}
	ASSERT_EQ(child, waitpid(child, &status, 0));
	ASSERT_EQ(0, WEXITSTATUS(status));
	n = mnl_socket_recvfrom(nl.sock, rx, sizeof(rx));
	check_messages(_metadata, &lc, rx, n);
	EXPECT_EQ(1, lc.messages);
	EXPECT_EQ(PROFIL_CMD_STOPPED,
		  ((struct genlmsghdr *)mnl_nlmsg_get_payload(
			  (struct nlmsghdr *)rx))->cmd);
	pnl_close(&nl);
}

/* Without CAP_NET_ADMIN, joining the events group is refused. */
TEST(events_need_net_admin)
{
	struct pnl nl;
	int grp;

	become_nobody(_metadata);
	ASSERT_EQ(0, pnl_open(&nl));
	grp = events_group(&nl);
	ASSERT_GT(grp, 0);
	EXPECT_EQ(-1, mnl_socket_setsockopt(nl.sock, NETLINK_ADD_MEMBERSHIP,
					    &grp, sizeof(grp)));
	EXPECT_EQ(EPERM, errno);
	pnl_close(&nl);
}

static int start_at(struct pnl *nl, uint64_t addr, uint64_t size)
{
	struct pnl_start req = {
		.buf = addr, .bufsiz = size, .offset = TEXT_OFFSET, .scale = 1,
		.rate = 2000,
	};

	return pnl_start(nl, &req);
}

/*
 * Buffers outside the user half are refused at START; so is a range that
 * wraps or runs past the user half.
 */
TEST(kernel_buffers_refused)
{
	const uint64_t bad[][2] = {
		{ KERNEL_TEXT + 0x1000000, 4096 },	/* kernel text */
		{ VSYSCALL_PAGE, 4096 },		/* vsyscall page */
		{ 0xffff800000000000ULL, 2 },		/* 4-level kernel half */
		{ KERNEL_HALF, 2 },			/* 5-level kernel half */
		{ KERNEL_HALF - 2, 4 },			/* straddles into it */
		{ 0x1000, ~0ULL },			/* wraps */
		{ ~0ULL - 1, 2 },			/* last bytes */
	};
	struct pnl_status st;
	struct pnl nl;
	size_t i;

	become_nobody(_metadata);
	ASSERT_EQ(0, pnl_open(&nl));
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		EXPECT_EQ(-EFAULT, start_at(&nl, bad[i][0], bad[i][1]))
			TH_LOG("buf %#llx size %#llx",
			       (unsigned long long)bad[i][0],
			       (unsigned long long)bad[i][1]);
		EXPECT_NE(0, nl.extack[0]);
		/* Nothing was started. */
		EXPECT_EQ(-ENOENT, pnl_get(&nl, 0, &st));
	}
	pnl_close(&nl);
}

/*
 * A buffer address mapped in another process but not in the caller's:
 * the caller's ticks fault there, the session stops with the address, and
 * the other process's page is untouched.
 */
TEST(writes_only_own_mappings)
{
	const size_t size = 1 << 16;
	int ready[2], done[2], status;
	struct pnl_status st;
	void *addr;
	pid_t other;
	struct pnl nl;
	char c;

	ASSERT_EQ(0, pipe(ready));
	ASSERT_EQ(0, pipe(done));
	/* Find a free range, then leave it mapped only in the other. */
	addr = mmap(NULL, size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, addr);
	other = fork();
	ASSERT_GE(other, 0);
	if (!other) {
		uint16_t *page;
		size_t i;

		page = mmap(addr, size, PROT_READ | PROT_WRITE,
			    MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
		if (page != addr)
			_exit(1);
		memset(page, 0x5a, size);
		if (write(ready[1], "r", 1) != 1 || read(done[0], &c, 1) != 1)
			_exit(2);
		for (i = 0; i < size / 2; i++)
			if (page[i] != 0x5a5a)
				_exit(3);
		_exit(0);
	}
	ASSERT_EQ(0, munmap(addr, size));
	ASSERT_EQ(1, read(ready[0], &c, 1));

	become_nobody(_metadata);
	ASSERT_EQ(0, pnl_open(&nl));
	ASSERT_EQ(0, fault_session(&nl, (uintptr_t)addr, size, &st));
	EXPECT_EQ(PROFIL_STATE_STOPPED, st.state);
	EXPECT_EQ(PROFIL_STOP_FAULT, st.reason);
	EXPECT_GE(st.fault_addr, (uintptr_t)addr);
	EXPECT_LT(st.fault_addr, (uintptr_t)addr + size);
	EXPECT_GT(st.stats[PROFIL_STAT_FAULTED], 0);
	EXPECT_EQ(st.stats[PROFIL_STAT_TICKS], pnl_accounted(&st));

	ASSERT_EQ(1, write(done[1], "d", 1));
	ASSERT_EQ(other, waitpid(other, &status, 0));
	EXPECT_EQ(0, WEXITSTATUS(status)) TH_LOG("other process: %d",
						 WEXITSTATUS(status));
	pnl_close(&nl);
}

PROFIL_OPEN_TIMER_CLOCK
PROFIL_HARNESS_MAIN
