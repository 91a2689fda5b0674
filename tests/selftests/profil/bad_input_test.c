// SPDX-License-Identifier: GPL-2.0
/*
 * The netlink rows of the bad-input matrix (Documentation/bad-input.rst):
 * one variant per bad request, each naming the errno and the extack text
 * it must get, after which nothing was started and the socket still
 * works. Rows marked nobody run as user 65534. scripts/check-bad-input.sh
 * keeps the variants and the document's rows the same.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <grp.h>
#include <pthread.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "profil_harness.h"
#include "profil_nl.h"

/* Processes and addresses a row may name. */
struct ctx {
	uint64_t buf;		/* a good buffer of ours */
	pid_t mine;		/* a child of the same user, not traced */
	pid_t zombie;		/* a child that exited, not reaped */
	pid_t tid;		/* a thread of ours that is not the leader */
};

typedef void (*build_fn)(struct nlmsghdr *nlh, const struct ctx *c);

/* The four attributes START requires, good. */
static void put_required(struct nlmsghdr *nlh, const struct ctx *c)
{
	mnl_attr_put_u64(nlh, PROFIL_ATTR_BUF, c->buf);
	mnl_attr_put_u64(nlh, PROFIL_ATTR_BUFSIZ, 512);
	mnl_attr_put_u64(nlh, PROFIL_ATTR_OFFSET, 0);
	mnl_attr_put_u32(nlh, PROFIL_ATTR_SCALE, 0x10000);
}

#define BUILD(name, body)						\
static void build_##name(struct nlmsghdr *nlh, const struct ctx *c)	\
{									\
	(void)c;							\
	body;								\
}

BUILD(no_buf,
      mnl_attr_put_u64(nlh, PROFIL_ATTR_BUFSIZ, 512);
      mnl_attr_put_u64(nlh, PROFIL_ATTR_OFFSET, 0);
      mnl_attr_put_u32(nlh, PROFIL_ATTR_SCALE, 0x10000))
BUILD(no_bufsiz,
      mnl_attr_put_u64(nlh, PROFIL_ATTR_BUF, c->buf);
      mnl_attr_put_u64(nlh, PROFIL_ATTR_OFFSET, 0);
      mnl_attr_put_u32(nlh, PROFIL_ATTR_SCALE, 0x10000))
BUILD(no_offset,
      mnl_attr_put_u64(nlh, PROFIL_ATTR_BUF, c->buf);
      mnl_attr_put_u64(nlh, PROFIL_ATTR_BUFSIZ, 512);
      mnl_attr_put_u32(nlh, PROFIL_ATTR_SCALE, 0x10000))
BUILD(no_scale,
      mnl_attr_put_u64(nlh, PROFIL_ATTR_BUF, c->buf);
      mnl_attr_put_u64(nlh, PROFIL_ATTR_BUFSIZ, 512);
      mnl_attr_put_u64(nlh, PROFIL_ATTR_OFFSET, 0))
BUILD(empty, )
BUILD(buf_as_u32,
      mnl_attr_put_u32(nlh, PROFIL_ATTR_BUF, (uint32_t)c->buf);
      mnl_attr_put_u64(nlh, PROFIL_ATTR_BUFSIZ, 512);
      mnl_attr_put_u64(nlh, PROFIL_ATTR_OFFSET, 0);
      mnl_attr_put_u32(nlh, PROFIL_ATTR_SCALE, 0x10000))
BUILD(scale_as_u64,
      mnl_attr_put_u64(nlh, PROFIL_ATTR_BUF, c->buf);
      mnl_attr_put_u64(nlh, PROFIL_ATTR_BUFSIZ, 512);
      mnl_attr_put_u64(nlh, PROFIL_ATTR_OFFSET, 0);
      mnl_attr_put_u64(nlh, PROFIL_ATTR_SCALE, 0x10000))
BUILD(rate_9, put_required(nlh, c);
      mnl_attr_put_u32(nlh, PROFIL_ATTR_RATE, PROFIL_RATE_MIN - 1))
BUILD(rate_10001, put_required(nlh, c);
      mnl_attr_put_u32(nlh, PROFIL_ATTR_RATE, PROFIL_RATE_MAX + 1))
BUILD(rate_2000, put_required(nlh, c);
      mnl_attr_put_u32(nlh, PROFIL_ATTR_RATE, 2000))
BUILD(rate_u16, put_required(nlh, c);
      mnl_attr_put_u16(nlh, PROFIL_ATTR_RATE, 100))
BUILD(unknown_flag, put_required(nlh, c);
      mnl_attr_put_u32(nlh, PROFIL_ATTR_FLAGS, 0x80))
BUILD(all_flags, put_required(nlh, c);
      mnl_attr_put_u32(nlh, PROFIL_ATTR_FLAGS, ~0U))
BUILD(pid_0, put_required(nlh, c); mnl_attr_put_u32(nlh, PROFIL_ATTR_PID, 0))
BUILD(pid_absent, put_required(nlh, c);
      mnl_attr_put_u32(nlh, PROFIL_ATTR_PID, 0x3fffffff))
BUILD(pid_thread, put_required(nlh, c);
      mnl_attr_put_u32(nlh, PROFIL_ATTR_PID, c->tid))
BUILD(pid_kthreadd, put_required(nlh, c);
      mnl_attr_put_u32(nlh, PROFIL_ATTR_PID, 2))
BUILD(pid_init, put_required(nlh, c); mnl_attr_put_u32(nlh, PROFIL_ATTR_PID, 1))
BUILD(pid_mine_untraced, put_required(nlh, c);
      mnl_attr_put_u32(nlh, PROFIL_ATTR_PID, c->mine))
BUILD(pid_zombie, put_required(nlh, c);
      mnl_attr_put_u32(nlh, PROFIL_ATTR_PID, c->zombie))
BUILD(kernel_buf,
      mnl_attr_put_u64(nlh, PROFIL_ATTR_BUF, 0xffffffff81000000ULL);
      mnl_attr_put_u64(nlh, PROFIL_ATTR_BUFSIZ, 512);
      mnl_attr_put_u64(nlh, PROFIL_ATTR_OFFSET, 0);
      mnl_attr_put_u32(nlh, PROFIL_ATTR_SCALE, 0x10000))
BUILD(buf_wraps,
      mnl_attr_put_u64(nlh, PROFIL_ATTR_BUF, c->buf);
      mnl_attr_put_u64(nlh, PROFIL_ATTR_BUFSIZ, ~0ULL - 1);
      mnl_attr_put_u64(nlh, PROFIL_ATTR_OFFSET, 0);
      mnl_attr_put_u32(nlh, PROFIL_ATTR_SCALE, 0x10000))
BUILD(state_attr, put_required(nlh, c);
      mnl_attr_put_u32(nlh, PROFIL_ATTR_STATE, PROFIL_STATE_ACTIVE))
BUILD(reason_attr, put_required(nlh, c);
      mnl_attr_put_u32(nlh, PROFIL_ATTR_REASON, PROFIL_STOP_EXIT))
BUILD(fault_addr_attr, put_required(nlh, c);
      mnl_attr_put_u64(nlh, PROFIL_ATTR_FAULT_ADDR, c->buf))
BUILD(stats_nest, put_required(nlh, c);
      {
	      struct nlattr *n = mnl_attr_nest_start(nlh, PROFIL_ATTR_STATS);

	      mnl_attr_put_u64(nlh, PROFIL_STAT_TICKS, 1);
	      mnl_attr_nest_end(nlh, n);
      })
BUILD(pad_attr, put_required(nlh, c);
      mnl_attr_put_u32(nlh, PROFIL_ATTR_PAD, 0))
BUILD(attr_type_200, put_required(nlh, c); mnl_attr_put_u32(nlh, 200, 0))
BUILD(trailing_garbage, put_required(nlh, c);
      memset((char *)nlh + nlh->nlmsg_len, 0xee, 2);
      nlh->nlmsg_len += 2)
BUILD(attr_len_overrun, put_required(nlh, c);
      {
	      struct nlattr *a = (struct nlattr *)((char *)nlh +
						    nlh->nlmsg_len);

	      a->nla_type = PROFIL_ATTR_RATE;
	      a->nla_len = 64;	/* but only 8 bytes follow */
	      memset(a + 1, 0, 4);
	      nlh->nlmsg_len += 8;
      })
BUILD(stop_pid_0, mnl_attr_put_u32(nlh, PROFIL_ATTR_PID, 0))
BUILD(stop_pid_u64, mnl_attr_put_u64(nlh, PROFIL_ATTR_PID, getpid()))
BUILD(stop_pid_absent, mnl_attr_put_u32(nlh, PROFIL_ATTR_PID, 0x3fffffff))
BUILD(stop_pid_init, mnl_attr_put_u32(nlh, PROFIL_ATTR_PID, 1))
BUILD(pid_only_mine, mnl_attr_put_u32(nlh, PROFIL_ATTR_PID, c->mine))
BUILD(stop_with_buf, mnl_attr_put_u64(nlh, PROFIL_ATTR_BUF, c->buf))
BUILD(get_pid_init, mnl_attr_put_u32(nlh, PROFIL_ATTR_PID, 1))
BUILD(get_pid_thread, mnl_attr_put_u32(nlh, PROFIL_ATTR_PID, c->tid))
BUILD(nothing_to_add, )

/* One good region of @size bytes at @buf, for the region rows. */
static void put_region(struct nlmsghdr *nlh, uint64_t buf, uint64_t size,
		       uint32_t scale)
{
	struct pnl_region r = { buf, size, 0x1000, scale };

	pnl_put_regions(nlh, &r, 1);
}

BUILD(regions_and_buf, put_required(nlh, c); put_region(nlh, c->buf, 512, 2))
BUILD(region_size_0, put_region(nlh, c->buf, 0, 0x10000))
BUILD(region_u32_size_2, put_region(nlh, c->buf, 2, 0x10000);
      mnl_attr_put_u32(nlh, PROFIL_ATTR_COUNTER, PROFIL_COUNTER_U32))
BUILD(region_kernel_buf, put_region(nlh, 0xffffffff81000000ULL, 512, 2))
BUILD(region_wraps, put_region(nlh, c->buf, ~0ULL - 1, 2))
BUILD(region_without_scale,
      {
	      struct nlattr *n = mnl_attr_nest_start(nlh, PROFIL_ATTR_REGION);

	      mnl_attr_put_u64(nlh, PROFIL_REGION_BUF, c->buf);
	      mnl_attr_put_u64(nlh, PROFIL_REGION_SIZE, 512);
	      mnl_attr_put_u64(nlh, PROFIL_REGION_OFFSET, 0);
	      mnl_attr_nest_end(nlh, n);
      })
BUILD(region_unknown_attr, put_region(nlh, c->buf, 512, 2);
      {
	      struct nlattr *n = mnl_attr_nest_start(nlh, PROFIL_ATTR_REGION);

	      mnl_attr_put_u32(nlh, 9, 0);
	      mnl_attr_nest_end(nlh, n);
      })
BUILD(region_not_nested, mnl_attr_put_u64(nlh, PROFIL_ATTR_REGION, c->buf))
BUILD(region_pad, put_region(nlh, c->buf, 512, 2);
      {
	      struct nlattr *n = mnl_attr_nest_start(nlh, PROFIL_ATTR_REGION);

	      mnl_attr_put_u64(nlh, PROFIL_REGION_BUF, c->buf);
	      mnl_attr_put_u64(nlh, PROFIL_REGION_SIZE, 512);
	      mnl_attr_put_u64(nlh, PROFIL_REGION_OFFSET, 0);
	      mnl_attr_put_u32(nlh, PROFIL_REGION_SCALE, 2);
	      mnl_attr_put_u32(nlh, PROFIL_REGION_PAD, 0);
	      mnl_attr_nest_end(nlh, n);
      })
BUILD(too_many_regions,
      {
	      unsigned int i;

	      for (i = 0; i <= PROFIL_REGIONS_MAX; i++)
		      put_region(nlh, c->buf, 2, 0x10000);
      })
BUILD(counter_2, put_required(nlh, c);
      mnl_attr_put_u32(nlh, PROFIL_ATTR_COUNTER, PROFIL_COUNTER_MAX + 1))
BUILD(mode_2, put_required(nlh, c);
      mnl_attr_put_u32(nlh, PROFIL_ATTR_MODE, PROFIL_MODE_MAX + 1))
BUILD(nr_regions_attr, put_required(nlh, c);
      mnl_attr_put_u32(nlh, PROFIL_ATTR_NR_REGIONS, 1))
BUILD(excl_with_payload, put_required(nlh, c);
      mnl_attr_put_u32(nlh, PROFIL_ATTR_EXCL, 1))
BUILD(excl_stopping, mnl_attr_put_u64(nlh, PROFIL_ATTR_BUF, 0);
      mnl_attr_put_u64(nlh, PROFIL_ATTR_BUFSIZ, 512);
      mnl_attr_put_u64(nlh, PROFIL_ATTR_OFFSET, 0);
      mnl_attr_put_u32(nlh, PROFIL_ATTR_SCALE, 0x10000);
      mnl_attr_put(nlh, PROFIL_ATTR_EXCL, 0, NULL))
BUILD(stop_excl, mnl_attr_put(nlh, PROFIL_ATTR_EXCL, 0, NULL))
BUILD(add_region, put_region(nlh, c->buf, 512, 2))
BUILD(add_with_buf, put_region(nlh, c->buf, 512, 2);
      mnl_attr_put_u64(nlh, PROFIL_ATTR_BUF, c->buf))
BUILD(add_pid_init, put_region(nlh, c->buf, 512, 2);
      mnl_attr_put_u32(nlh, PROFIL_ATTR_PID, 1))

FIXTURE(bad) {
	struct pnl nl;
	struct ctx c;
	uint16_t buf[256];
	pthread_t thread;
	int thread_pipe[2];
};

/*
 * @cmd: the generic netlink command sent
 * @flags: extra nlmsg_flags (NLM_F_DUMP)
 * @genl_len: send only this many bytes of the genetlink header (0: all)
 * @build: adds the attributes
 * @err: the answer, 0 or a negative errno
 * @extack: a substring of the extack text, "" for none
 * @nobody: run the row as user 65534
 */
FIXTURE_VARIANT(bad) {
	uint8_t cmd;
	uint16_t flags;
	int genl_len;
	build_fn build;
	int err;
	const char *extack;
	bool nobody;
};

#define ROW(name, ...) FIXTURE_VARIANT_ADD(bad, name) { __VA_ARGS__ }
#define START(f)	.cmd = PROFIL_CMD_START, .build = build_##f
#define STOP(f)		.cmd = PROFIL_CMD_STOP, .build = build_##f
#define GET(f)		.cmd = PROFIL_CMD_GET, .build = build_##f
#define ADD(f)		.cmd = PROFIL_CMD_ADD_REGIONS, .build = build_##f
#define REGIONS(f)	.cmd = PROFIL_CMD_GET_REGIONS, .build = build_##f
#define EINVAL_POLICY	.err = -EINVAL, .extack = "Attribute failed policy validation"

ROW(start_without_buf, START(no_buf), .err = -EINVAL,
    .extack = "a required attribute is missing");
ROW(start_without_bufsiz, START(no_bufsiz), .err = -EINVAL,
    .extack = "a required attribute is missing");
ROW(start_without_offset, START(no_offset), .err = -EINVAL,
    .extack = "a required attribute is missing");
ROW(start_without_scale, START(no_scale), .err = -EINVAL,
    .extack = "a required attribute is missing");
ROW(start_empty, START(empty), .err = -EINVAL,
    .extack = "a required attribute is missing");
ROW(start_buf_as_u32, START(buf_as_u32), .err = -EINVAL,
    .extack = "invalid attribute length");
ROW(start_scale_as_u64, START(scale_as_u64), .err = -EINVAL,
    .extack = "invalid attribute length");
ROW(start_rate_below_min, START(rate_9), .err = -ERANGE,
    .extack = "integer out of range");
ROW(start_rate_above_max, START(rate_10001), .err = -ERANGE,
    .extack = "integer out of range");
ROW(start_rate_as_u16, START(rate_u16), .err = -EINVAL,
    .extack = "invalid attribute length");
ROW(start_unknown_flag, START(unknown_flag), .err = -EINVAL,
    .extack = "reserved bit set");
ROW(start_all_flags, START(all_flags), .err = -EINVAL,
    .extack = "reserved bit set");
ROW(start_pid_0, START(pid_0), .err = -ERANGE,
    .extack = "integer out of range");
ROW(start_pid_absent, START(pid_absent), .err = -ESRCH,
    .extack = "no such process");
ROW(start_pid_of_a_thread, START(pid_thread), .err = -ESRCH,
    .extack = "no such process");
ROW(start_kernel_thread, START(pid_kthreadd), .err = -EINVAL,
    .extack = "kernel threads cannot be profiled");
ROW(start_other_users_process, START(pid_init), .err = -EPERM,
    .extack = "no permission to profile this process", .nobody = true);
ROW(start_own_users_process_untraced, START(pid_mine_untraced),
    .err = -EPERM, .extack = "must be the process or its ptrace tracer",
    .nobody = true);
ROW(start_own_process_untraced_as_root, START(pid_mine_untraced),
    .err = -EPERM, .extack = "must be the process or its ptrace tracer");
ROW(start_above_hz_without_perfmon, START(rate_2000), .err = -EPERM,
    .extack = "rates above HZ need CAP_PERFMON",
    .nobody = true);
ROW(start_zombie, START(pid_zombie), .err = -ESRCH,
    .extack = "cannot start sampling the process");
ROW(start_kernel_buffer, START(kernel_buf), .err = -EFAULT,
    .extack = "buffer is not in user space", .nobody = true);
ROW(start_buffer_wraps, START(buf_wraps), .err = -EFAULT,
    .extack = "buffer is not in user space", .nobody = true);
ROW(start_state_attribute, START(state_attr), EINVAL_POLICY);
ROW(start_reason_attribute, START(reason_attr), EINVAL_POLICY);
ROW(start_fault_addr_attribute, START(fault_addr_attr), EINVAL_POLICY);
ROW(start_stats_nest, START(stats_nest), .err = -EINVAL,
    .extack = "NLA_F_NESTED not expected");
ROW(start_pad_attribute, START(pad_attr), EINVAL_POLICY);
ROW(start_unknown_attribute, START(attr_type_200), .err = -EINVAL,
    .extack = "Unknown attribute type");
ROW(start_trailing_bytes, START(trailing_garbage), .err = -EINVAL,
    .extack = "bytes leftover after parsing attributes");
ROW(start_attribute_overruns, START(attr_len_overrun), .err = -EINVAL,
    .extack = "bytes leftover after parsing attributes");
ROW(start_as_dump, START(nothing_to_add), .flags = NLM_F_DUMP,
    .err = -EOPNOTSUPP, .extack = "");
ROW(start_genl_header_truncated, START(nothing_to_add), .genl_len = 2,
    .err = -EINVAL, .extack = "");
ROW(stop_pid_0, STOP(stop_pid_0), .err = -ERANGE,
    .extack = "integer out of range");
ROW(stop_pid_as_u64, STOP(stop_pid_u64), .err = -EINVAL,
    .extack = "invalid attribute length");
ROW(stop_pid_absent, STOP(stop_pid_absent), .err = -ESRCH,
    .extack = "no such process");
ROW(stop_other_users_process, STOP(stop_pid_init), .err = -EPERM,
    .extack = "no permission to profile this process", .nobody = true);
ROW(stop_own_users_process_untraced, STOP(pid_only_mine), .err = -EPERM,
    .extack = "must be the process or its ptrace tracer", .nobody = true);
ROW(stop_with_start_attribute, STOP(stop_with_buf), .err = -EINVAL,
    .extack = "Unsupported attribute");
ROW(stop_with_excl, STOP(stop_excl), .err = -EINVAL,
    .extack = "Unsupported attribute");
ROW(start_excl_with_payload, START(excl_with_payload), .err = -ERANGE,
    .extack = "Attribute failed policy validation");
ROW(start_excl_that_stops, START(excl_stopping), .err = -EINVAL,
    .extack = "EXCL with a START that stops");
ROW(get_not_profiled, GET(nothing_to_add), .err = -ENOENT,
    .extack = "process is not profiled", .nobody = true);
ROW(get_other_users_process, GET(get_pid_init), .err = -EPERM,
    .extack = "no permission to profile this process", .nobody = true);
ROW(get_dump_with_pid, GET(pid_only_mine), .flags = NLM_F_DUMP,
    .err = -EINVAL,
    .extack = "no PID in a dump of every session");
ROW(get_pid_of_a_thread, GET(get_pid_thread), .err = -ESRCH,
    .extack = "no such process");
ROW(start_regions_and_buf, START(regions_and_buf), .err = -EINVAL,
    .extack = "regions exclude BUF/BUFSIZ/OFFSET/SCALE");
ROW(start_region_size_0, START(region_size_0), .err = -EINVAL,
    .extack = "region smaller than one counter");
ROW(start_region_u32_size_2, START(region_u32_size_2), .err = -EINVAL,
    .extack = "region smaller than one counter");
ROW(start_region_kernel_buffer, START(region_kernel_buf), .err = -EFAULT,
    .extack = "region buffer is not in user space", .nobody = true);
ROW(start_region_buffer_wraps, START(region_wraps), .err = -EFAULT,
    .extack = "region buffer is not in user space");
ROW(start_region_without_scale, START(region_without_scale), .err = -EINVAL,
    .extack = "a region needs BUF, SIZE, OFFSET, SCALE");
ROW(start_region_unknown_attribute, START(region_unknown_attr),
    .err = -EINVAL, .extack = "Unknown attribute type");
ROW(start_region_not_nested, START(region_not_nested), .err = -EINVAL,
    .extack = "NLA_F_NESTED is missing");
ROW(start_region_pad_attribute, START(region_pad), EINVAL_POLICY);
ROW(start_too_many_regions, START(too_many_regions), .err = -E2BIG,
    .extack = "too many regions in the set");
ROW(start_counter_above_max, START(counter_2), .err = -ERANGE,
    .extack = "integer out of range");
ROW(start_mode_above_max, START(mode_2), .err = -ERANGE,
    .extack = "integer out of range");
ROW(start_nr_regions_attribute, START(nr_regions_attr), EINVAL_POLICY);
ROW(add_regions_not_profiled, ADD(add_region), .err = -ENOENT,
    .extack = "process is not profiled");
ROW(add_regions_with_buf, ADD(add_with_buf), .err = -EINVAL,
    .extack = "Unsupported attribute");
ROW(add_regions_other_users_process, ADD(add_pid_init), .err = -EPERM,
    .extack = "no permission to profile this process", .nobody = true);
ROW(get_regions_not_dump, REGIONS(nothing_to_add), .err = -EOPNOTSUPP,
    .extack = "");
ROW(get_regions_not_profiled, REGIONS(nothing_to_add), .flags = NLM_F_DUMP,
    .err = -ENOENT, .extack = "process is not profiled");
ROW(get_regions_own_users_process_untraced, REGIONS(pid_only_mine),
    .flags = NLM_F_DUMP, .err = -EPERM,
    .extack = "must be the process or its ptrace tracer", .nobody = true);
ROW(stopped_sent_as_request, .cmd = PROFIL_CMD_STOPPED,
    .build = build_nothing_to_add, .err = -EOPNOTSUPP, .extack = "");
ROW(unknown_command, .cmd = 99, .build = build_nothing_to_add,
    .err = -EOPNOTSUPP, .extack = "");

static void *idle_thread(void *arg)
{
	int *fds = arg;
	char c;

	return read(fds[0], &c, 1) < 0 ? arg : NULL;
}

/* A thread of ours other than the leader, from the kernel's list. */
static pid_t other_tid(void)
{
	char path[64];
	struct dirent *d;
	pid_t tid = 0;
	DIR *dir;

	snprintf(path, sizeof(path), "/proc/%d/task", getpid());
	dir = opendir(path);
	if (!dir)
		return 0;
	while ((d = readdir(dir)))
		if (atoi(d->d_name) > 0 && atoi(d->d_name) != getpid())
			tid = atoi(d->d_name);
	closedir(dir);
	return tid;
}

FIXTURE_SETUP(bad)
{
	if (variant->nobody && !geteuid()) {
		ASSERT_EQ(0, setgroups(0, NULL));
		ASSERT_EQ(0, setgid(65534));
		ASSERT_EQ(0, setuid(65534));
		prctl(PR_SET_DUMPABLE, 1);
	}
	ASSERT_EQ(0, pnl_open(&self->nl));
	self->c.buf = (uintptr_t)self->buf;

	self->c.mine = fork();
	ASSERT_GE(self->c.mine, 0);
	if (!self->c.mine) {
		pause();
		_exit(0);
	}
	self->c.zombie = fork();
	ASSERT_GE(self->c.zombie, 0);
	if (!self->c.zombie) {
		pause();
		_exit(0);
	}
	/*
	 * A zombie: exited, waited for with WNOWAIT only; traced, so that a
	 * START gets past the permission check to the process that is gone.
	 */
	ASSERT_EQ(0, ptrace(PTRACE_SEIZE, self->c.zombie, 0, 0));
	ASSERT_EQ(0, kill(self->c.zombie, SIGKILL));
	ASSERT_EQ(0, waitid(P_PID, self->c.zombie, NULL, WEXITED | WNOWAIT));

	ASSERT_EQ(0, pipe(self->thread_pipe));
	ASSERT_EQ(0, pthread_create(&self->thread, NULL, idle_thread,
				    self->thread_pipe));
	self->c.tid = other_tid();
	ASSERT_GT(self->c.tid, 0);
}

FIXTURE_TEARDOWN(bad)
{
	kill(self->c.mine, SIGKILL);
	waitpid(self->c.mine, NULL, 0);
	waitpid(self->c.zombie, NULL, 0);
	if (write(self->thread_pipe[1], "x", 1) == 1)
		pthread_join(self->thread, NULL);
	pnl_stop(&self->nl, 0);
	pnl_close(&self->nl);
}

TEST_F(bad, answer)
{
	/* Room for a set one region too large. */
	static char buf[PNL_REGIONS_BUF(PROFIL_REGIONS_MAX + 1)];
	struct pnl_reply r = { .nl = &self->nl };
	struct pnl_status st;
	struct nlmsghdr *nlh;
	int err;

	nlh = pnl_msg(buf, self->nl.family, variant->cmd, PROFIL_GENL_VERSION);
	nlh->nlmsg_flags |= variant->flags;
	if (variant->genl_len)
		nlh->nlmsg_len = NLMSG_HDRLEN + variant->genl_len;
	else
		variant->build(nlh, &self->c);

	err = pnl_talk(&self->nl, nlh, NULL, &r);
	EXPECT_EQ(variant->err, err) TH_LOG("%s: %s", strerror(-err),
					    self->nl.extack);
	if (variant->extack[0]) {
		EXPECT_NE(NULL, strstr(self->nl.extack, variant->extack))
			TH_LOG("extack \"%s\"", self->nl.extack);
	} else {
		EXPECT_EQ(0, self->nl.extack[0]) TH_LOG("extack \"%s\"",
							self->nl.extack);
	}

	/* Nothing started, and the socket still answers. */
	EXPECT_EQ(-ENOENT, pnl_get(&self->nl, 0, &st));
	EXPECT_EQ(-ENOENT, pnl_get(&self->nl, self->c.mine, &st));
}

PROFIL_HARNESS_MAIN
