// SPDX-License-Identifier: GPL-2.0
/*
 * Who may control another process's session, and what a session tells
 * whom: starting, extending, stopping and listing the regions of another
 * process take being its ptrace tracer, never CAP_SYS_PTRACE alone; stop
 * events carry no addresses; a fork child's inherited session never
 * replaces one its tracer started; rates above HZ take CAP_PERFMON
 * unless the administrator opens them; a region dump is resolved and
 * checked once, by the requester. Yama's ptrace_scope=3 is yama_test's,
 * in a boot's last program.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <grp.h>
#include <linux/capability.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>

#include "profil_harness.h"
#include "profil_nl.h"
#include "profil_util.h"

#define NOT_TRACER "must be the process or its ptrace tracer"

/* The target's counters: the same address in the test and its fork. */
static uint16_t counts[4096];

static struct pnl_start counts_req(uint32_t pid, uint32_t rate)
{
	return (struct pnl_start) {
		.buf = (uintptr_t)counts, .bufsiz = sizeof(counts),
		.offset = TEXT_OFFSET, .scale = 1, .rate = rate, .pid = pid,
	};
}

/* A child that spins in user mode until killed. */
static pid_t spinner(void)
{
	pid_t pid = fork();

	if (!pid) {
		for (;;)
			user_spin(1.0);
	}
	return pid;
}

static void end_child(pid_t pid)
{
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
}

/* The exit status of the child @pid, or -1. */
static int wait_status(pid_t pid)
{
	int status;

	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

/* The sum of @pid's copy of counts[], or -1. */
static long long child_counts_sum(pid_t pid)
{
	static uint16_t copy[4096];
	struct iovec local = { copy, sizeof(copy) };
	struct iovec remote = { counts, sizeof(counts) };
	long long sum = 0;
	size_t i;

	if (process_vm_readv(pid, &local, 1, &remote, 1, 0) != sizeof(copy))
		return -1;
	for (i = 0; i < 4096; i++)
		sum += copy[i];
	return sum;
}

/* Wait until @pid has used @secs more of CPU time (at most a minute). */
static void wait_child_cpu(pid_t pid, double secs)
{
	double start = pid_cpu(pid), end;

	for (end = now() + 60; pid_cpu(pid) < start + secs && now() < end;)
		usleep(10000);
}

/* Leave the tracee @pid running untraced. */
static int detach(pid_t pid)
{
	if (ptrace(PTRACE_INTERRUPT, pid, 0, 0) ||
	    waitpid(pid, NULL, 0) != pid)
		return -1;
	return ptrace(PTRACE_DETACH, pid, 0, 0);
}

/*
 * Root has CAP_SYS_PTRACE over every process, which ptrace itself does
 * not take as enough where an LSM says no (Yama's ptrace_scope=3): so
 * without tracing the process, root may not START, ADD_REGIONS, STOP or
 * list the regions of another process, and its counters stay zero. Its
 * status reads, without addresses. Once root traces it, all of that
 * works; after the detach, the addresses are gone from GET again.
 */
TEST(cap_sys_ptrace_is_not_enough)
{
	struct pnl_start req;
	struct pnl_region reg = {
		.buf = (uintptr_t)counts, .size = 64, .offset = TEXT_OFFSET,
		.scale = 2,
	};
	struct pnl_status st;
	struct pnl nl;
	pid_t pid;

	if (geteuid())
		SKIP(return, "needs CAP_SYS_PTRACE");
	ASSERT_EQ(0, pnl_open(&nl));
	pid = spinner();
	ASSERT_LT(0, pid);
	req = counts_req(pid, 100);

	EXPECT_EQ(-EPERM, pnl_start(&nl, &req));
	EXPECT_STREQ(NOT_TRACER, nl.extack);
	EXPECT_EQ(-EPERM, pnl_add_regions(&nl, pid, &reg, 1));
	EXPECT_STREQ(NOT_TRACER, nl.extack);
	EXPECT_EQ(-EPERM, pnl_stop(&nl, pid));
	EXPECT_STREQ(NOT_TRACER, nl.extack);
	EXPECT_EQ(-EPERM, pnl_get_regions(&nl, pid, NULL, NULL, NULL, NULL));
	EXPECT_STREQ(NOT_TRACER, nl.extack);
	EXPECT_EQ(-ENOENT, pnl_get(&nl, pid, &st));
	wait_child_cpu(pid, 0.2);
	EXPECT_EQ(0, child_counts_sum(pid));

	/* Its tracer may: PTRACE_SEIZE alone makes root that. */
	ASSERT_EQ(0, ptrace(PTRACE_SEIZE, pid, 0, 0));
	ASSERT_EQ(0, pnl_start(&nl, &req)) TH_LOG("%s", nl.extack);
	ASSERT_EQ(0, pnl_get(&nl, pid, &st));
	EXPECT_EQ((uintptr_t)counts, st.buf);
	wait_child_cpu(pid, 0.2);
	EXPECT_LT(0, child_counts_sum(pid));
	ASSERT_EQ(0, detach(pid));

	/* Untraced again: state and counts, no addresses, no control. */
	ASSERT_EQ(0, pnl_get(&nl, pid, &st));
	EXPECT_EQ(PROFIL_STATE_ACTIVE, st.state);
	EXPECT_FALSE(PNL_HAS(&st, PROFIL_ATTR_BUF));
	EXPECT_FALSE(PNL_HAS(&st, PROFIL_ATTR_OFFSET));
	EXPECT_EQ(-EPERM, pnl_stop(&nl, pid));
	EXPECT_EQ(-EPERM, pnl_add_regions(&nl, pid, &reg, 1));
	EXPECT_EQ(-EPERM, pnl_get_regions(&nl, pid, NULL, NULL, NULL, NULL));
	ASSERT_EQ(0, pnl_get(&nl, pid, &st));
	EXPECT_EQ(PROFIL_STATE_ACTIVE, st.state);
	end_child(pid);
	pnl_close(&nl);
}

/* A thread of a process whose leader exited, until the process is killed. */
static void *spin_thread(void *arg)
{
	for (;;)
		user_spin(1.0);
	return NULL;
}

/*
 * A leader that called pthread_exit() is a zombie that cannot be
 * attached to; tracing one of its running threads makes the caller the
 * process's tracer as well.
 */
TEST(tracer_of_any_thread)
{
	struct pnl_start req;
	struct pnl nl;
	pid_t pid, tid;
	double end;

	ASSERT_EQ(0, pnl_open(&nl));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		pthread_t t;

		pthread_create(&t, NULL, spin_thread, NULL);
		pthread_exit(NULL);
	}
	for (end = now() + 60; proc_state(pid) != 'Z' && now() < end;)
		usleep(10000);
	ASSERT_EQ('Z', proc_state(pid));
	tid = other_thread(pid);
	ASSERT_LT(0, tid);

	req = counts_req(pid, 100);
	EXPECT_EQ(-EPERM, pnl_start(&nl, &req));
	EXPECT_NE(0, ptrace(PTRACE_SEIZE, pid, 0, 0));	/* the zombie */
	ASSERT_EQ(0, ptrace(PTRACE_SEIZE, tid, 0, 0));
	EXPECT_EQ(0, pnl_start(&nl, &req)) TH_LOG("%s", nl.extack);
	EXPECT_EQ(0, pnl_stop(&nl, pid)) TH_LOG("%s", nl.extack);
	/* The traced thread is reaped before its process can be. */
	kill(pid, SIGKILL);
	waitpid(tid, NULL, __WALL);
	waitpid(pid, NULL, 0);
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

/* Keep CAP_NET_ADMIN alone, as nobody. */
static int only_net_admin(void)
{
	struct __user_cap_header_struct h = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct d[2] = {
		{ .effective = 1U << CAP_NET_ADMIN,
		  .permitted = 1U << CAP_NET_ADMIN },
	};

	if (prctl(PR_SET_KEEPCAPS, 1) || setgroups(0, NULL) ||
	    setgid(65534) || setuid(65534))
		return -1;
	return syscall(SYS_capset, &h, d);
}

struct event_seen {
	uint32_t pid, reason;
	bool addrs;	/* BUF, OFFSET or FAULT_ADDR */
};

/*
 * As a listener with only CAP_NET_ADMIN, the next @n STOPPED events, in
 * @seen; tells @ready once it listens. Returns an exit status.
 */
static int listen_events(int ready, struct event_seen *seen, int n)
{
	static char rx[1 << 16];
	struct pnl nl;
	int grp, got = 0;

	if (only_net_admin() || pnl_open(&nl))
		return 10;
	grp = events_group(&nl);
	if (grp <= 0 || mnl_socket_setsockopt(nl.sock, NETLINK_ADD_MEMBERSHIP,
					      &grp, sizeof(grp)))
		return 11;
	if (write(ready, "x", 1) != 1)
		return 12;
	while (got < n) {
		struct pollfd pfd = { .fd = mnl_socket_get_fd(nl.sock),
				      .events = POLLIN };
		const struct nlmsghdr *m = (const struct nlmsghdr *)rx;
		int len;

		if (poll(&pfd, 1, 60000) != 1)
			return 13;
		len = mnl_socket_recvfrom(nl.sock, rx, sizeof(rx));
		for (; mnl_nlmsg_ok(m, len) && got < n;
		     m = mnl_nlmsg_next(m, &len)) {
			struct pnl_status st = { 0 };

			mnl_attr_parse(m, GENL_HDRLEN, pnl_attr_cb, &st);
			seen[got].pid = st.pid;
			seen[got].reason = st.reason;
			seen[got].addrs = PNL_HAS(&st, PROFIL_ATTR_BUF) ||
					  PNL_HAS(&st, PROFIL_ATTR_OFFSET) ||
					  PNL_HAS(&st, PROFIL_ATTR_FAULT_ADDR);
			got++;
		}
	}
	return 0;
}

/*
 * Stop events go to any listener with CAP_NET_ADMIN, which is no ptrace
 * right over the processes they tell of: they carry the PID and the
 * reason, never an address (buffer, PC offset, fault address), here of
 * a stop by request and of a stop by a fault.
 */
TEST(events_carry_no_addresses)
{
	static struct event_seen *seen;
	struct pnl_start req = counts_req(0, 100);
	struct pnl_status st;
	int fds[2], status, i;
	struct pnl nl;
	pid_t listener;
	void *hole;
	char c;

	if (geteuid())
		SKIP(return, "needs root to keep CAP_NET_ADMIN alone");
	seen = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
		    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, seen);
	hole = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, hole);
	ASSERT_EQ(0, pipe(fds));
	listener = fork();
	ASSERT_LE(0, listener);
	if (!listener)
		_exit(listen_events(fds[1], seen, 2));
	ASSERT_EQ(1, read(fds[0], &c, 1));

	ASSERT_EQ(0, pnl_open(&nl));
	ASSERT_EQ(0, pnl_start(&nl, &req));
	ASSERT_EQ(0, pnl_stop(&nl, 0));
	/* A buffer nothing can be written to: the first write faults. */
	req.buf = (uintptr_t)hole;
	req.bufsiz = 4096;
	ASSERT_EQ(0, pnl_start(&nl, &req));
	for (i = 0; i < 300; i++) {
		user_spin(0.01);
		ASSERT_EQ(0, pnl_get(&nl, 0, &st));
		if (st.state != PROFIL_STATE_ACTIVE)
			break;
	}
	EXPECT_EQ(PROFIL_STOP_FAULT, st.reason);
	EXPECT_TRUE(PNL_HAS(&st, PROFIL_ATTR_FAULT_ADDR));	/* to the owner */

	ASSERT_EQ(listener, waitpid(listener, &status, 0));
	ASSERT_EQ(0, WEXITSTATUS(status));
	for (i = 0; i < 2; i++) {
		EXPECT_EQ(getpid(), seen[i].pid);
		EXPECT_FALSE(seen[i].addrs) TH_LOG("event %d", i);
	}
	EXPECT_EQ(PROFIL_STOP_REQUEST, seen[0].reason);
	EXPECT_EQ(PROFIL_STOP_FAULT, seen[1].reason);
	pnl_close(&nl);
}

static void pin_to_cpu0(void)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(0, &set);
	sched_setaffinity(0, sizeof(set), &set);
}

/*
 * A fork child inherits its parent's session as it first returns to user
 * mode. If its tracer STARTed it before that, at the parent's fork event
 * stop, the inheritance must leave the tracer's session alone. Tracer,
 * parent and child on one CPU, the tracer first in line (SCHED_FIFO), so
 * that its START comes before the child runs.
 */
TEST(inherited_session_leaves_tracers)
{
	struct sched_param fifo = { .sched_priority = 1 };
	struct pnl_start req;
	struct pnl_status st;
	unsigned long msg;
	int status, ret;
	pid_t parent, child;
	struct pnl nl;

	if (geteuid())
		SKIP(return, "needs root for SCHED_FIFO");
	ASSERT_EQ(0, pnl_open(&nl));
	pin_to_cpu0();
	parent = fork();
	ASSERT_LE(0, parent);
	if (!parent) {
		struct pnl_start own = counts_req(0, 100);
		struct pnl pnl;

		raise(SIGSTOP);	/* until the tracer has seized */
		if (pnl_open(&pnl) || pnl_start(&pnl, &own))
			_exit(1);
		if (!fork()) {
			for (;;)
				user_spin(1.0);
		}
		wait(NULL);
		_exit(0);
	}
	ASSERT_EQ(0, ptrace(PTRACE_SEIZE, parent, 0, PTRACE_O_TRACEFORK));
	ASSERT_EQ(parent, waitpid(parent, &status, WSTOPPED));
	ASSERT_EQ(0, sched_setscheduler(0, SCHED_FIFO, &fifo));
	ASSERT_EQ(0, ptrace(PTRACE_CONT, parent, 0, 0));
	/* The parent's fork event stop. */
	ASSERT_EQ(parent, waitpid(parent, &status, 0));
	ASSERT_EQ(SIGTRAP | (PTRACE_EVENT_FORK << 8), status >> 8);
	ASSERT_EQ(0, ptrace(PTRACE_GETEVENTMSG, parent, 0, &msg));
	child = msg;
	req = counts_req(child, 200);
	ret = pnl_start(&nl, &req);
	sched_setscheduler(0, SCHED_OTHER, &(struct sched_param){ 0 });
	ASSERT_EQ(0, ret) TH_LOG("%s", nl.extack);

	/* The child's first stop: it has been to user mode's doorstep. */
	ASSERT_EQ(child, waitpid(child, &status, __WALL));
	ASSERT_EQ(0, pnl_get(&nl, child, &st));
	EXPECT_EQ(200, st.rate);
	EXPECT_EQ(PROFIL_STATE_ACTIVE, st.state);
	ASSERT_EQ(0, ptrace(PTRACE_CONT, child, 0, 0));
	wait_child_cpu(child, 0.1);
	ASSERT_EQ(0, pnl_get(&nl, child, &st));
	EXPECT_EQ(200, st.rate) TH_LOG("the inheritance replaced it");
	EXPECT_EQ(PROFIL_STATE_ACTIVE, st.state);
	kill(child, SIGKILL);
	kill(parent, SIGKILL);
	while (waitpid(-1, &status, __WALL) > 0)
		;
	pnl_close(&nl);
}

/*
 * As nobody: a START at @rate, coded as an exit status: 0 if it was
 * refused with EPERM and the timer clock's text (@refused) or accepted.
 */
static int nobody_start_at(uint32_t rate, bool refused)
{
	struct pnl_start req = counts_req(0, rate);
	struct pnl nl;
	int err;

	if (setgroups(0, NULL) || setgid(65534) || setuid(65534) ||
	    pnl_open(&nl))
		return 10;
	err = pnl_start(&nl, &req);
	if (refused)
		return err == -EPERM && strstr(nl.extack, "above HZ") ? 0 : 11;
	if (err)
		return 12;
	return pnl_stop(&nl, 0) ? 13 : 0;
}

/*
 * With the switch on, a session of nobody's at 2000 Hz whose fork child
 * comes after the switch went off: the session runs on, the child is not
 * profiled. Returns an exit status.
 */
static int nobody_timer_then_switch(int ready, int go)
{
	struct pnl_start req = counts_req(0, 2000);
	struct pnl_status st;
	struct pnl nl;
	pid_t child;
	char c;

	if (setgroups(0, NULL) || setgid(65534) || setuid(65534) ||
	    pnl_open(&nl) || pnl_start(&nl, &req))
		return 20;
	if (write(ready, "x", 1) != 1 || read(go, &c, 1) != 1)
		return 21;
	child = fork();
	if (!child) {
		struct pnl cnl;

		if (pnl_open(&cnl))
			_exit(1);
		_exit(pnl_get(&cnl, 0, &st) == -ENOENT ? 0 : 2);
	}
	if (wait_status(child))
		return 22;
	if (pnl_get(&nl, 0, &st) || st.state != PROFIL_STATE_ACTIVE)
		return 23;
	return pnl_stop(&nl, 0) ? 24 : 0;
}

/*
 * Rates above HZ make a perf event for each thread, past the
 * administrator's perf_event_paranoid: they take CAP_PERFMON (root has
 * it), unless unprivileged_timer_clock is set. The tick clock stays open
 * to everyone. The switch is left off, as the module loads.
 */
TEST(timer_clock_needs_perfmon)
{
	struct pnl_start req = counts_req(0, 2000);
	int fds[2], go[2];
	struct pnl nl;
	pid_t pid;
	char c;

	if (geteuid())
		SKIP(return, "needs root to set the module parameter");
	ASSERT_EQ(0, access(UNPRIVILEGED_TIMER_CLOCK, W_OK))
		TH_LOG("%s: %s", UNPRIVILEGED_TIMER_CLOCK, strerror(errno));
	ASSERT_EQ(0, pnl_open(&nl));
	ASSERT_EQ(0, write_param(UNPRIVILEGED_TIMER_CLOCK, "N"));

	pid = fork();
	if (!pid)
		_exit(nobody_start_at(2000, true));
	EXPECT_EQ(0, wait_status(pid)) TH_LOG("nobody refused above HZ");
	pid = fork();
	if (!pid)
		_exit(nobody_start_at(100, false));
	EXPECT_EQ(0, wait_status(pid)) TH_LOG("nobody starts at 100 Hz");
	EXPECT_EQ(0, pnl_start(&nl, &req)) TH_LOG("%s", nl.extack);
	EXPECT_EQ(0, pnl_stop(&nl, 0));

	ASSERT_EQ(0, write_param(UNPRIVILEGED_TIMER_CLOCK, "Y"));
	pid = fork();
	if (!pid)
		_exit(nobody_start_at(2000, false));
	EXPECT_EQ(0, wait_status(pid)) TH_LOG("nobody starts with the switch");

	ASSERT_EQ(0, pipe(fds));
	ASSERT_EQ(0, pipe(go));
	pid = fork();
	if (!pid)
		_exit(nobody_timer_then_switch(fds[1], go[0]));
	EXPECT_EQ(1, read(fds[0], &c, 1));
	ASSERT_EQ(0, write_param(UNPRIVILEGED_TIMER_CLOCK, "N"));
	EXPECT_EQ(1, write(go[1], "x", 1));
	EXPECT_EQ(0, wait_status(pid)) TH_LOG("session kept, child unprofiled");
	pnl_close(&nl);
}

/* A region set of PROFIL_REGIONS_MAX, told apart by @tag in the offsets. */
static void make_set(struct pnl_region *r, uint64_t tag)
{
	unsigned int i;

	for (i = 0; i < PROFIL_REGIONS_MAX; i++)
		r[i] = (struct pnl_region) {
			.buf = (uintptr_t)&counts[i], .size = 2,
			.offset = tag + 64 * i, .scale = 0x10000,
		};
}

struct regions_seen {
	unsigned int n, tagged[2];
	uint64_t tags[2];
};

static void regions_seen_cb(const struct pnl_region *r, void *data)
{
	struct regions_seen *s = data;
	int i;

	s->n++;
	for (i = 0; i < 2; i++)
		if ((r->offset & ~0xfffffULL) == s->tags[i])
			s->tagged[i]++;
}

/*
 * Read one part of a GET_REGIONS dump from @nl (sent already); 1 while
 * more follow, 0 at its end, or -errno. Each recvmsg() makes the next
 * part, in its caller's context.
 */
static int dump_part(struct pnl *nl, struct pnl_reply *r)
{
	static char rx[1 << 16];
	int ret = mnl_socket_recvfrom(nl->sock, rx, sizeof(rx));

	if (ret < 0)
		return -errno;
	ret = mnl_cb_run2(rx, ret, nl->seq, mnl_socket_get_portid(nl->sock),
			  pnl_data_cb, r, pnl_ctl_cbs, NLMSG_MIN_TYPE);
	return ret < 0 ? -errno : ret > 0;
}

static void send_regions_dump(struct __test_metadata *_metadata,
			      struct pnl *nl, pid_t pid)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh;

	nlh = pnl_msg(buf, nl->family, PROFIL_CMD_GET_REGIONS,
		      PROFIL_GENL_VERSION);
	nlh->nlmsg_flags |= NLM_F_DUMP | NLM_F_ACK;
	nlh->nlmsg_seq = ++nl->seq;
	mnl_attr_put_u32(nlh, PROFIL_ATTR_PID, pid);
	ASSERT_LT(0, mnl_socket_sendto(nl->sock, nlh, nlh->nlmsg_len));
}

/*
 * A region dump is the requester's: its target and permission are
 * settled when it is asked for. Its tracer detaches after the first
 * parts and reads on: the dump runs to its end. Then the process is
 * stopped and started anew with another set in the middle of a dump: the
 * dump still lists one set only, the one it began with, or says it was
 * interrupted.
 */
TEST(regions_dump_settled_once)
{
	static struct pnl_region set_a[PROFIL_REGIONS_MAX],
		set_b[PROFIL_REGIONS_MAX];
	struct regions_seen seen = { .tags = { 0x100000, 0x200000 } };
	struct pnl_reply r = { .region_cb = regions_seen_cb,
			       .dump_data = &seen };
	struct pnl_set a = { .reg = set_a, .n = PROFIL_REGIONS_MAX };
	struct pnl_set b = { .reg = set_b, .n = PROFIL_REGIONS_MAX };
	struct pnl nl, ctl;
	pid_t pid;
	int ret;

	ASSERT_EQ(0, pnl_open(&nl));
	ASSERT_EQ(0, pnl_open(&ctl));
	r.nl = &nl;
	make_set(set_a, seen.tags[0]);
	make_set(set_b, seen.tags[1]);
	pid = spinner();
	ASSERT_LT(0, pid);
	ASSERT_EQ(0, ptrace(PTRACE_SEIZE, pid, 0, 0));
	a.pid = b.pid = pid;
	ASSERT_EQ(0, pnl_start_set(&nl, &a)) TH_LOG("%s", nl.extack);

	/* The tracer goes away between parts. */
	send_regions_dump(_metadata, &nl, pid);
	ASSERT_EQ(1, dump_part(&nl, &r));
	ASSERT_EQ(0, detach(pid));
	while ((ret = dump_part(&nl, &r)) > 0)
		;
	EXPECT_EQ(0, ret) TH_LOG("%s", nl.extack);
	EXPECT_EQ(PROFIL_REGIONS_MAX, seen.n);
	EXPECT_LT(2, r.msgs);

	/* A new session with another set in the middle of a dump. */
	ASSERT_EQ(0, ptrace(PTRACE_SEIZE, pid, 0, 0));
	seen.n = seen.tagged[0] = seen.tagged[1] = 0;
	r.msgs = 0;
	send_regions_dump(_metadata, &nl, pid);
	ASSERT_EQ(1, dump_part(&nl, &r));
	ASSERT_EQ(0, pnl_stop(&ctl, pid)) TH_LOG("%s", ctl.extack);
	ASSERT_EQ(0, pnl_start_set(&ctl, &b)) TH_LOG("%s", ctl.extack);
	while ((ret = dump_part(&nl, &r)) > 0)
		;
	EXPECT_EQ(0, ret) TH_LOG("%s", nl.extack);
	EXPECT_TRUE(r.intr || !seen.tagged[0] || !seen.tagged[1])
		TH_LOG("%u regions of the old set, %u of the new",
		       seen.tagged[0], seen.tagged[1]);
	EXPECT_EQ(PROFIL_REGIONS_MAX, seen.n);
	end_child(pid);
	pnl_close(&ctl);
	pnl_close(&nl);
}

PROFIL_HARNESS_MAIN
