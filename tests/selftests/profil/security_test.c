// SPDX-License-Identifier: GPL-2.0
/*
 * What profil.ko lets an unprivileged user do, and see: no kernel address
 * in a histogram or a message, writes only to the caller's own mappings,
 * one session per process however often it starts, and no events without
 * CAP_NET_ADMIN. Run as root, each test drops to nobody (65534) first,
 * except where it says why not. Another user's process is refused in
 * profil_semantics_test (other_users_process_refused).
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

#include "profil_harness.h"
#include "profil_nl.h"
#include "profil_util.h"

/* Where x86-64 kernel text, modules and the vsyscall page live. */
#define KERNEL_TEXT	0xffffffff80000000ULL
#define VSYSCALL_PAGE	0xffffffffff600000ULL
/*
 * The kernel half starts here with 5-level paging, 0xffff800000000000
 * with 4: user space ends below either (56 or 47 bits), and nothing of
 * the user's is at or above it.
 */
#define KERNEL_HALF	0xff00000000000000ULL

static void become_nobody(struct __test_metadata *_metadata)
{
	if (geteuid())
		return;
	ASSERT_EQ(0, setgroups(0, NULL));
	ASSERT_EQ(0, setgid(65534));
	ASSERT_EQ(0, setuid(65534));
	ASSERT_NE(0, geteuid());
}

/* Time in the kernel: each call enters at the same user PC. */
static void kernel_loop(double secs)
{
	double end = process_cpu() + secs;

	while (process_cpu() < end)
		syscall(SYS_getppid);
}

/*
 * Profile the caller with its buffer at @addr, which every user tick in
 * this program's text writes to; wait until the session stops.
 */
static int fault_session(struct pnl *nl, uint64_t addr, uint64_t size,
			 struct pnl_status *st)
{
	struct pnl_start req = {
		.buf = addr, .bufsiz = size, .offset = TEXT_OFFSET,
		.scale = 1, .rate = 2000,
	};
	double end;
	int err;

	err = pnl_start(nl, &req);
	if (err)
		return err;
	for (end = process_cpu() + 3.0; process_cpu() < end;) {
		user_spin(0.01);
		err = pnl_get(nl, 0, st);
		if (err || st->state != PROFIL_STATE_ACTIVE)
			break;
	}
	return err;
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

static void count_mine(const struct pnl_status *st, void *data)
{
	if (st->pid == (uint32_t)getpid())
		(*(unsigned int *)data)++;
}

/*
 * Kernel memory follows the caller's own tasks: one session per process
 * however many starts, restarts and stops it makes (and one record per
 * live thread, see stress_test's thread_churn).
 */
TEST(one_session_per_process)
{
	static uint16_t buf[256];
	struct pnl_start req = {
		.buf = (uintptr_t)buf, .bufsiz = sizeof(buf), .scale = 0x8000,
		.rate = 100,
	};
	unsigned int mine = 0;
	struct pnl nl;
	int i;

	become_nobody(_metadata);
	ASSERT_EQ(0, pnl_open(&nl));
	for (i = 0; i < 300; i++) {
		/* Each clock, and moves between them. */
		req.rate = i % 100 < 50 ? 100 : 2000;
		ASSERT_EQ(0, pnl_start(&nl, &req));
		if (i % 3 == 0)
			ASSERT_EQ(0, pnl_stop(&nl, 0));
	}
	ASSERT_EQ(0, pnl_dump(&nl, count_mine, &mine));
	EXPECT_EQ(1, mine);
	ASSERT_EQ(0, pnl_stop(&nl, 0));
	pnl_close(&nl);
}

/* The exit status of the child @pid, or -1. */
static int wait_status(pid_t pid)
{
	int status;

	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

/* How often profil.ko registered its scheduler-tick probe (debugfs). */
#define TICK_REGISTRATIONS "/sys/kernel/debug/profil/tick_registrations"

/*
 * The counter, or -1. Opened anew each time: a debugfs attribute file is
 * not seekable, and a second read of one open file only continues the
 * first.
 */
static long long tick_registrations(void)
{
	int fd = open(TICK_REGISTRATIONS, O_RDONLY);
	char buf[32];
	ssize_t n;

	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	return atoll(buf);
}

/*
 * As nobody: START/STOP pairs at rate 100 (the scheduler-tick clock), in
 * batches of 50, each followed by a byte on @done; goes on while the byte
 * read back from @go is 'g'. Returns an exit status.
 */
static int start_stop_batches(int done, int go)
{
	static uint16_t buf[256];
	struct pnl_start req = {
		.buf = (uintptr_t)buf, .bufsiz = sizeof(buf), .scale = 0x8000,
		.rate = 100,
	};
	struct pnl nl;
	char c = 'g';
	int i;

	if (setgroups(0, NULL) || setgid(65534) || setuid(65534) ||
	    pnl_open(&nl))
		return 10;
	while (c == 'g') {
		for (i = 0; i < 50; i++)
			if (pnl_start(&nl, &req) || pnl_stop(&nl, 0))
				return 11;
		if (write(done, &c, 1) != 1 || read(go, &c, 1) != 1)
			return 12;
	}
	return 0;
}

/*
 * Registering the scheduler-tick probe flips a static key and a static
 * call: kernel text patched with IPIs to every CPU. An unprivileged user's
 * START/STOP pairs on that clock must not cause one each: the probe stays
 * registered for a grace time after its last user. 1000 pairs by nobody
 * register it at most twice (once if a grace time was running, at most
 * once more should one end between two pairs). Root reads the debugfs
 * counter after each batch of 50, and ends the run early once it is past
 * the bound.
 */
TEST(start_stop_pairs_patch_text_rarely)
{
	long long before, now;
	int done[2], go[2], pairs = 0;
	pid_t pid;
	char c;

	if (geteuid())
		SKIP(return, "needs root to read debugfs");
	if (access(TICK_REGISTRATIONS, R_OK) && errno == ENOENT)
		mount("debugfs", "/sys/kernel/debug", "debugfs", 0, NULL);
	before = tick_registrations();
	ASSERT_LE(0, before)
		TH_LOG("%s: %s", TICK_REGISTRATIONS, strerror(errno));
	ASSERT_EQ(0, pipe(done));
	ASSERT_EQ(0, pipe(go));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid)
		_exit(start_stop_batches(done[1], go[0]));
	now = before;
	while (read(done[0], &c, 1) == 1) {
		pairs += 50;
		now = tick_registrations();
		c = pairs < 1000 && now - before <= 2 ? 'g' : 's';
		if (write(go[1], &c, 1) != 1 || c == 's')
			break;
	}
	EXPECT_EQ(0, wait_status(pid));
	EXPECT_EQ(1000, pairs);
	EXPECT_LE(now - before, 2)
		TH_LOG("%lld registrations in %d pairs", now - before, pairs);
}

#define PRIVILEGED_ONLY "/sys/module/profil/parameters/privileged_only"

/*
 * As nobody: START, and the result coded as an exit status: 0 if it was
 * refused with EPERM and extack text (@refused) or accepted (!@refused).
 */
static int nobody_start(bool refused)
{
	static uint16_t buf[256];
	struct pnl_start req = {
		.buf = (uintptr_t)buf, .bufsiz = sizeof(buf), .scale = 0x8000,
		.rate = 100,
	};
	struct pnl nl;
	int err;

	if (setgroups(0, NULL) || setgid(65534) || setuid(65534) ||
	    pnl_open(&nl))
		return 10;
	err = pnl_start(&nl, &req);
	if (refused)
		return err == -EPERM && strstr(nl.extack, "privileged_only") ?
			       0 : 11;
	return err ? 12 : 0;
}

/*
 * A process of nobody's that started profiling while privileged_only was
 * off: once the switch is on, its session goes on, its fork child is not
 * profiled (the child counts as a new start), and a STOP still works.
 * Waits on @go before forking; returns an exit status.
 */
static int nobody_started_then_switch(int ready, int go)
{
	struct pnl_status st;
	struct pnl nl;
	pid_t child;
	char c = 0;
	int ret;

	ret = nobody_start(false);
	if (ret)
		return ret;
	if (pnl_open(&nl) || write(ready, &c, 1) != 1 || read(go, &c, 1) != 1)
		return 20;
	child = fork();
	if (!child) {
		struct pnl cnl;

		if (pnl_open(&cnl))
			_exit(1);
		_exit(pnl_get(&cnl, 0, &st) == -ENOENT ? 0 : 1);
	}
	if (wait_status(child))
		return 21;
	if (pnl_get(&nl, 0, &st) || st.state != PROFIL_STATE_ACTIVE)
		return 22;
	return pnl_stop(&nl, 0) ? 23 : 0;
}

/*
 * privileged_only, the administrator's switch: when on, nobody's START is
 * refused with EPERM and extack text, and a process with CAP_SYS_ADMIN
 * (root, here) starts; when off, nobody starts. Sessions started while it
 * was off run on, but their fork children are not profiled. The switch is
 * left off, as the module loads.
 */
TEST(privileged_only_switch)
{
	static uint16_t buf[256];
	struct pnl_start req = {
		.buf = (uintptr_t)buf, .bufsiz = sizeof(buf), .scale = 0x8000,
		.rate = 100,
	};
	int on_nobody, on_root, off_nobody, inherited;
	int ready[2], go[2];
	struct pnl nl;
	pid_t pid;

	if (geteuid())
		SKIP(return, "needs root to set the module parameter");
	ASSERT_EQ(0, access(PRIVILEGED_ONLY, W_OK))
		TH_LOG("%s: %s", PRIVILEGED_ONLY, strerror(errno));
	ASSERT_EQ(0, pipe(ready));
	ASSERT_EQ(0, pipe(go));
	ASSERT_EQ(0, pnl_open(&nl));

	/* Off: a nobody process starts, and stays profiled. */
	ASSERT_EQ(0, write_param(PRIVILEGED_ONLY, "N"));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid)
		_exit(nobody_started_then_switch(ready[1], go[0]));
	off_nobody = read(ready[0], &buf[0], 1) == 1 ? 0 : -1;

	/* On: nobody is refused, root is not. */
	ASSERT_EQ(0, write_param(PRIVILEGED_ONLY, "Y"));
	if (write(go[1], &buf[0], 1) != 1)
		off_nobody = -1;
	inherited = wait_status(pid);
	pid = fork();
	if (!pid)
		_exit(nobody_start(true));
	on_nobody = wait_status(pid);
	on_root = pnl_start(&nl, &req);
	pnl_stop(&nl, 0);

	/* Off again, as the module loads. */
	ASSERT_EQ(0, write_param(PRIVILEGED_ONLY, "N"));
	pid = fork();
	if (!pid)
		_exit(nobody_start(false));
	EXPECT_EQ(0, wait_status(pid)) TH_LOG("nobody starts when off");
	EXPECT_EQ(0, off_nobody);
	EXPECT_EQ(0, inherited) TH_LOG("session kept, child unprofiled");
	EXPECT_EQ(0, on_nobody) TH_LOG("nobody refused when on");
	EXPECT_EQ(0, on_root) TH_LOG("%s", nl.extack);
	pnl_close(&nl);
}

/* A thread that outlives its group leader, until the process is killed. */
static void *linger_thread(void *arg)
{
	for (;;)
		pause();
	return arg;
}

/*
 * A non-dumpable process of nobody's, profiling itself, whose group
 * leader has called pthread_exit(): the leader is a zombie without an mm,
 * the other thread runs on. Writes its buffer's address to @fd.
 */
static void __attribute__((noreturn)) zombie_leader(int fd)
{
	static uint16_t buf[256];
	struct pnl_start req = {
		.buf = (uintptr_t)buf, .bufsiz = sizeof(buf), .scale = 0x8000,
		.rate = 100,
	};
	uint64_t addr = (uintptr_t)buf;
	pthread_t thread;
	struct pnl nl;

	if (setgroups(0, NULL) || setgid(65534) || setuid(65534) ||
	    prctl(PR_SET_DUMPABLE, 0) || pnl_open(&nl) ||
	    pnl_start(&nl, &req) ||
	    pthread_create(&thread, NULL, linger_thread, NULL))
		_exit(1);
	if (write(fd, &addr, sizeof(addr)) != sizeof(addr))
		_exit(1);
	pthread_exit(NULL);
}

/*
 * Dumpability is checked on the process's address space, which a zombie
 * group leader no longer has: a process of the same user may neither read
 * (GET, which shows the buffer's address, often the PIE base) nor stop a
 * non-dumpable process's session once its leader has exited. Root runs
 * the process and checks its session; the caller is nobody.
 */
TEST(nondumpable_zombie_leader_refused)
{
	struct pnl_status st;
	pid_t target, caller;
	uint64_t addr = 0;
	int fds[2], status;
	struct pnl nl;
	double end;

	if (geteuid())
		SKIP(return, "needs root to run a process as nobody");
	ASSERT_EQ(0, pnl_open(&nl));
	ASSERT_EQ(0, pipe(fds));
	target = fork();
	ASSERT_LE(0, target);
	if (!target) {
		close(fds[0]);
		zombie_leader(fds[1]);
	}
	close(fds[1]);
	ASSERT_EQ(sizeof(addr), read(fds[0], &addr, sizeof(addr)));
	close(fds[0]);
	for (end = now() + 60; proc_state(target) != 'Z' && now() < end;)
		usleep(10000);
	ASSERT_EQ('Z', proc_state(target));

	caller = fork();
	ASSERT_LE(0, caller);
	if (!caller) {
		struct pnl cnl;

		if (setgroups(0, NULL) || setgid(65534) || setuid(65534) ||
		    pnl_open(&cnl))
			_exit(1);
		if (pnl_get(&cnl, target, &st) != -EPERM)
			_exit(st.buf == addr ? 2 : 3);
		_exit(pnl_stop(&cnl, target) == -EPERM ? 0 : 4);
	}
	ASSERT_EQ(caller, waitpid(caller, &status, 0));
	EXPECT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status))
		TH_LOG("%s", WEXITSTATUS(status) == 2 ?
		       "GET showed the buffer's address" :
		       WEXITSTATUS(status) == 4 ? "STOP was let through" :
		       "GET was let through");

	/* Untouched: still profiled. */
	ASSERT_EQ(0, pnl_get(&nl, target, &st));
	EXPECT_EQ(PROFIL_STATE_ACTIVE, st.state);
	kill(target, SIGKILL);
	waitpid(target, NULL, 0);
	pnl_close(&nl);
}

#define CGROOT	"/sys/fs/cgroup"

static int write_str(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY), ok;

	if (fd < 0)
		return -1;
	ok = write(fd, s, strlen(s)) == (ssize_t)strlen(s);
	close(fd);
	return ok ? 0 : -1;
}

static long long read_ll(const char *path)
{
	char buf[64] = "";
	int fd = open(path, O_RDONLY);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	return n > 0 ? atoll(buf) : -1;
}

/* The value of @key in the memory.stat of cgroup @dir, or -1. */
static long long read_memstat(const char *dir, const char *key)
{
	char path[96], name[64];
	long long val, ret = -1;
	FILE *f;

	snprintf(path, sizeof(path), "%s/memory.stat", dir);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fscanf(f, "%63s %lld", name, &val) == 2)
		if (!strcmp(name, key)) {
			ret = val;
			break;
		}
	fclose(f);
	return ret;
}

static void *block_thread(void *arg)
{
	char c;

	return read(*(int *)arg, &c, 1) < 0 ? arg : NULL;
}

/*
 * The kernel memory of a session, one record per thread, is charged to
 * the memory cgroup of the process that starts it: a user's profiling
 * counts against the limits of the user's own cgroups.
 *
 * The witness is the cgroup's accounted slab, memory.stat's
 * slab_unreclaimable: each GFP_KERNEL_ACCOUNT object is charged to the
 * cgroup and added there in bytes, at its slab size (a thread's record
 * is over 256 bytes, so kmalloc-512, plus its spare attach record; more
 * under KASAN). Its blur is small: reading memory.stat flushes the
 * per-CPU deltas once they add up to more than 64 per online CPU (bytes
 * here), and each CPU holds back at most a page of one cgroup's slab
 * bytes; so at most 2 pages per CPU and reading, the slack below.
 *
 * THREADS = 1000 then proves it: the bound is 256,000 bytes less 8 pages
 * (32 KiB) of slack on the guest's two vCPUs, 223,232, nearly seven
 * times the most a module that charged nothing per thread could show
 * (the slack; with GFP_KERNEL records, -3112 bytes), and well under what
 * the records cost (593 bytes a thread on Debian's kernel, 1171 under
 * KASAN). 1000 threads also fit the timeout of a KASAN kernel with
 * kmemleak on a loaded machine: the test takes 20 s there, of its 120.
 *
 * (memory.current is not the witness: the charge behind it moves in
 * per-CPU batches of 64 pages, 256 KiB, so a start of N threads can move
 * it anywhere between N * 256 - 256 KiB per CPU and a batch per CPU with
 * no record charged at all; it takes over 4000 threads on two CPUs to
 * tell the two apart. The 4000 threads of this test's first version
 * did not: their bound, 4000 * 256 bytes less 1 MiB, was below zero.)
 */
TEST(kernel_memory_charged_to_cgroup)
{
	enum { THREADS = 1000 };
	static pthread_t tids[THREADS];
	static uint16_t buf[256];
	struct pnl_start req = {
		.buf = (uintptr_t)buf, .bufsiz = sizeof(buf), .scale = 0x8000,
		.rate = 100,
	};
	const long long slack = 4 * sysconf(_SC_NPROCESSORS_CONF) *
				sysconf(_SC_PAGESIZE);
	long long before, after, cur_before, cur_after;
	char dir[64], path[96], pid[16];
	double t_test = now(), t0, t_threads, t_start;
	int fds[2], i, n = 0;
	struct pnl nl;

	if (geteuid())
		SKIP(return, "creating a cgroup needs root");
	mkdir(CGROOT, 0755);
	mount("none", CGROOT, "cgroup2", 0, NULL);	/* EBUSY: mounted */
	if (write_str(CGROOT "/cgroup.subtree_control", "+memory"))
		SKIP(return, "no cgroup2 memory controller");
	snprintf(dir, sizeof(dir), CGROOT "/profil_security.%d", getpid());
	ASSERT_EQ(0, mkdir(dir, 0755));
	snprintf(path, sizeof(path), "%s/cgroup.procs", dir);
	snprintf(pid, sizeof(pid), "%d", getpid());
	ASSERT_EQ(0, write_str(path, pid));
	snprintf(path, sizeof(path), "%s/memory.current", dir);

	ASSERT_EQ(0, pnl_open(&nl));
	ASSERT_EQ(0, pipe(fds));
	t0 = now();
	for (i = 0; i < THREADS; i++, n++)
		if (pthread_create(&tids[i], NULL, block_thread, &fds[0]))
			break;
	ASSERT_EQ(THREADS, n);
	t_threads = now() - t0;
	before = read_memstat(dir, "slab_unreclaimable");
	ASSERT_GE(before, 0);
	cur_before = read_ll(path);
	t0 = now();
	ASSERT_EQ(0, pnl_start(&nl, &req));
	t_start = now() - t0;
	after = read_memstat(dir, "slab_unreclaimable");
	/*
	 * A read racing the periodic flush (every 2 s, later on a loaded
	 * machine) misses what that flush has not summed yet: look again
	 * for up to 30 s.
	 */
	for (i = 0; i < 300 && after - before <= THREADS * 256LL - slack; i++) {
		usleep(100000);
		after = read_memstat(dir, "slab_unreclaimable");
	}
	cur_after = read_ll(path);
	EXPECT_GT(after - before, THREADS * 256LL - slack)
		TH_LOG("slab_unreclaimable %lld -> %lld for %d threads",
		       before, after, THREADS);
	TH_LOG("%d threads in %.1f s, started in %.2f s: slab %+lld bytes "
	       "(%lld a thread), memory.current %+lld", THREADS, t_threads,
	       t_start, after - before, (after - before) / THREADS,
	       cur_after - cur_before);
	ASSERT_EQ(0, pnl_stop(&nl, 0));

	close(fds[1]);
	for (i = 0; i < n; i++)
		pthread_join(tids[i], NULL);
	TH_LOG("threads joined, %.1f s in all", now() - t_test);
	pnl_close(&nl);
	snprintf(path, sizeof(path), CGROOT "/cgroup.procs");
	write_str(path, pid);
	rmdir(dir);
}

static uint16_t child_counts[4096];

/*
 * A child of the caller that profiles itself, then waits to be killed:
 * an active session on child_counts, or with @fault_at (an unmapped
 * range) one that faulted there. Its PID once the session is set up.
 */
static pid_t profiled_child(struct __test_metadata *_metadata,
			    void *fault_at)
{
	struct pnl_start req = {
		.buf = (uintptr_t)child_counts, .bufsiz = sizeof(child_counts),
		.offset = TEXT_OFFSET, .scale = 1,
	};
	int fds[2];
	pid_t pid;
	char c;

	ASSERT_EQ(0, pipe(fds));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		struct pnl_status st;
		struct pnl nl;

		close(fds[0]);
		if (pnl_open(&nl))
			_exit(1);
		if (fault_at && (fault_session(&nl, (uintptr_t)fault_at, 4096,
					       &st) ||
				 st.reason != PROFIL_STOP_FAULT))
			_exit(2);
		if (!fault_at && pnl_start(&nl, &req))
			_exit(3);
		if (write(fds[1], "x", 1) != 1)
			_exit(4);
		for (;;)
			pause();
	}
	close(fds[1]);
	EXPECT_EQ(1, read(fds[0], &c, 1));
	close(fds[0]);
	return pid;
}

static void end_child(pid_t pid)
{
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
}

/*
 * STOP of another process, even of the same user, takes being its tracer
 * (ptrace_attach() consulted the LSMs) or CAP_SYS_PTRACE over it; a
 * same-user caller that is neither is refused, and says why.
 */
TEST(same_user_stop_needs_tracer)
{
	struct pnl_status st;
	struct pnl nl;
	pid_t pid;

	if (ptrace_scope() >= 2)
		SKIP(return, "Yama ptrace_scope %d", ptrace_scope());
	become_nobody(_metadata);
	ASSERT_EQ(0, prctl(PR_SET_DUMPABLE, 1));	/* setuid() cleared it */
	ASSERT_EQ(0, pnl_open(&nl));
	pid = profiled_child(_metadata, NULL);

	EXPECT_EQ(-EPERM, pnl_stop(&nl, pid));
	EXPECT_STREQ("must be the process or its ptrace tracer", nl.extack);
	ASSERT_EQ(0, pnl_get(&nl, pid, &st));
	EXPECT_EQ(PROFIL_STATE_ACTIVE, st.state);

	/* Its tracer may: PTRACE_SEIZE alone makes the caller that. */
	ASSERT_EQ(0, ptrace(PTRACE_SEIZE, pid, 0, 0));
	EXPECT_EQ(0, pnl_stop(&nl, pid)) TH_LOG("%s", nl.extack);
	ASSERT_EQ(0, pnl_get(&nl, pid, &st));
	EXPECT_EQ(PROFIL_STATE_STOPPED, st.state);
	EXPECT_EQ(PROFIL_STOP_REQUEST, st.reason);
	end_child(pid);
	pnl_close(&nl);
}

struct dump_pick {
	pid_t pid[2];
	struct pnl_status st[2];
	int seen[2];
};

static void dump_pick_cb(const struct pnl_status *st, void *data)
{
	struct dump_pick *d = data;
	int i;

	for (i = 0; i < 2; i++)
		if (st->pid == (uint32_t)d->pid[i]) {
			d->st[i] = *st;
			d->seen[i]++;
		}
}

/* State and counts, never the addresses: BUF, OFFSET, FAULT_ADDR. */
static void check_no_addresses(struct __test_metadata *_metadata,
			       const struct pnl_status *st, uint32_t reason)
{
	EXPECT_TRUE(PNL_HAS(st, PROFIL_ATTR_STATE));
	EXPECT_TRUE(PNL_HAS(st, PROFIL_ATTR_REASON));
	EXPECT_TRUE(PNL_HAS(st, PROFIL_ATTR_STATS));
	EXPECT_TRUE(PNL_HAS(st, PROFIL_ATTR_BUFSIZ));
	EXPECT_TRUE(PNL_HAS(st, PROFIL_ATTR_SCALE));
	EXPECT_EQ(reason, st->reason);
	EXPECT_FALSE(PNL_HAS(st, PROFIL_ATTR_BUF))
		TH_LOG("pid %u: BUF %#llx", st->pid,
		       (unsigned long long)st->buf);
	EXPECT_FALSE(PNL_HAS(st, PROFIL_ATTR_OFFSET));
	EXPECT_FALSE(PNL_HAS(st, PROFIL_ATTR_FAULT_ADDR));
}

/*
 * GET and dumps by a same-user caller that does not trace the process
 * show its state and counts but none of its addresses, which only ptrace
 * (with the LSMs' consent) or CAP_SYS_PTRACE would reveal. Its tracer
 * sees them.
 */
TEST(same_user_status_without_addresses)
{
	struct dump_pick d = { .seen = { 0 } };
	struct pnl_status st;
	struct pnl nl;
	void *hole;
	int i;

	if (ptrace_scope() >= 2)
		SKIP(return, "Yama ptrace_scope %d", ptrace_scope());
	become_nobody(_metadata);
	ASSERT_EQ(0, prctl(PR_SET_DUMPABLE, 1));
	ASSERT_EQ(0, pnl_open(&nl));
	hole = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, hole);
	ASSERT_EQ(0, munmap(hole, 4096));
	d.pid[0] = profiled_child(_metadata, NULL);
	d.pid[1] = profiled_child(_metadata, hole);

	ASSERT_EQ(0, pnl_get(&nl, d.pid[0], &st));
	EXPECT_EQ(PROFIL_STATE_ACTIVE, st.state);
	check_no_addresses(_metadata, &st, PROFIL_STOP_NONE);
	ASSERT_EQ(0, pnl_get(&nl, d.pid[1], &st));
	EXPECT_EQ(PROFIL_STATE_STOPPED, st.state);
	EXPECT_GT(st.stats[PROFIL_STAT_FAULTED], 0);
	check_no_addresses(_metadata, &st, PROFIL_STOP_FAULT);
	ASSERT_EQ(0, pnl_dump(&nl, dump_pick_cb, &d));
	for (i = 0; i < 2; i++) {
		ASSERT_EQ(1, d.seen[i]);
		check_no_addresses(_metadata, &d.st[i], i ? PROFIL_STOP_FAULT :
					      PROFIL_STOP_NONE);
	}

	/* The tracer of both sees their addresses, in GET and dumps. */
	for (i = 0; i < 2; i++)
		ASSERT_EQ(0, ptrace(PTRACE_SEIZE, d.pid[i], 0, 0));
	ASSERT_EQ(0, pnl_get(&nl, d.pid[0], &st));
	EXPECT_EQ((uintptr_t)child_counts, st.buf);
	EXPECT_TRUE(PNL_HAS(&st, PROFIL_ATTR_OFFSET));
	ASSERT_EQ(0, pnl_get(&nl, d.pid[1], &st));
	EXPECT_TRUE(PNL_HAS(&st, PROFIL_ATTR_FAULT_ADDR));
	EXPECT_LE((uintptr_t)hole, st.fault_addr);
	EXPECT_GT((uintptr_t)hole + 4096, st.fault_addr);
	memset(&d.seen, 0, sizeof(d.seen));
	ASSERT_EQ(0, pnl_dump(&nl, dump_pick_cb, &d));
	ASSERT_EQ(1, d.seen[0]);
	ASSERT_EQ(1, d.seen[1]);
	EXPECT_EQ((uintptr_t)child_counts, d.st[0].buf);
	EXPECT_TRUE(PNL_HAS(&d.st[1], PROFIL_ATTR_FAULT_ADDR));
	for (i = 0; i < 2; i++)
		end_child(d.pid[i]);
	pnl_close(&nl);
}

struct ns_dump {
	unsigned int entries, self, outside;
};

static void ns_dump_cb(const struct pnl_status *st, void *data)
{
	struct ns_dump *d = data;

	d->entries++;
	if (st->pid == (uint32_t)getpid())
		d->self++;
	else
		d->outside++;
}

/*
 * A dump lists the sessions of processes in the caller's PID namespace
 * only, not the others under PID 0. Root on both sides, so that access
 * is not what hides them: a session here, and a dump from the first
 * process of a new PID namespace that has one of its own.
 */
TEST(dump_only_own_pid_namespace)
{
	struct pnl_start req = {
		.buf = (uintptr_t)child_counts, .bufsiz = sizeof(child_counts),
		.offset = TEXT_OFFSET, .scale = 1,
	};
	struct pnl nl;
	int status;
	pid_t pid;

	if (geteuid())
		SKIP(return, "a new PID namespace needs root");
	ASSERT_EQ(0, pnl_open(&nl));
	ASSERT_EQ(0, pnl_start(&nl, &req)) TH_LOG("%s", nl.extack);
	if (unshare(CLONE_NEWPID)) {
		/* The debug kernel (allnoconfig) has no CONFIG_PID_NS. */
		ASSERT_EQ(EINVAL, errno);
		pnl_stop(&nl, 0);
		pnl_close(&nl);
		SKIP(return, "no PID namespaces in this kernel");
	}
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		struct ns_dump d = { 0 };
		struct pnl cnl;

		if (getpid() != 1 || pnl_open(&cnl) || pnl_start(&cnl, &req))
			_exit(1);
		if (pnl_dump(&cnl, ns_dump_cb, &d))
			_exit(2);
		if (d.self != 1)
			_exit(3);
		_exit(d.outside ? 4 : 0);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status))
		TH_LOG("%s", WEXITSTATUS(status) == 4 ?
		       "the dump listed sessions outside the namespace" :
		       WEXITSTATUS(status) == 3 ? "its own session not listed" :
		       "setup failed");
	EXPECT_EQ(0, pnl_stop(&nl, 0));
	pnl_close(&nl);
}

PROFIL_OPEN_TIMER_CLOCK
PROFIL_HARNESS_MAIN
