// SPDX-License-Identifier: GPL-2.0
/*
 * libprofil's netlink layer: the requests it builds (checked attribute by
 * attribute in __wrap_mnl_socket_sendto) and how it reads canned replies:
 * family resolution, ACKs, errors with extack, GET, dumps and events.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <libmnl/libmnl.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <linux/profil.h>

#include "profil.h"
#include "internal.h"
#include "mock_mnl.h"

static unsigned short hist[64];
/*
 * glibc declares profil() __nonnull((1)); call it through a pointer, which
 * does not carry the attribute, to pass NULL (as C programs may).
 */
static int (*const profil_nn)(unsigned short *, size_t, size_t,
			      unsigned int) = profil;

static int setup(void **state)
{
	(void)state;
	unsetenv("PROFIL_HZ");
	pf_profil_reset();
	mock_mnl_reset();
	return 0;
}

static void expect_start(const void *buf, uint64_t bufsiz, uint64_t offset,
			 uint32_t scale, uint32_t rate)
{
	const struct mock_attr attrs[] = {
		{ PROFIL_ATTR_BUF, 8, (uintptr_t)buf },
		{ PROFIL_ATTR_BUFSIZ, 8, bufsiz },
		{ PROFIL_ATTR_OFFSET, 8, offset },
		{ PROFIL_ATTR_SCALE, 4, scale },
		{ PROFIL_ATTR_RATE, rate ? 4 : 0, rate },
		{ PROFIL_ATTR_FLAGS, 0, 0 },
		{ PROFIL_ATTR_PID, 0, 0 },
		{ 0 },
	};

	mock_expect_request(PROFIL_CMD_START, NLM_F_ACK, attrs);
}

static void test_profil_resolves_once(void **state)
{
	(void)state;
	mock_expect_getfamily();
	mock_queue_family(PROFIL_MCGRP_EVENTS, MOCK_MCGRP_ID);
	expect_start(hist, sizeof(hist), 0x401000, 0x8000, 0);
	mock_queue_ack();
	assert_int_equal(profil(hist, sizeof(hist), 0x401000, 0x8000), 0);

	/* The family is cached: the second call sends START only. */
	expect_start(hist, 6, 0x1234, 65536, 0);
	mock_queue_ack();
	assert_int_equal(profil(hist, 6, 0x1234, 65536), 0);
	assert_int_equal(mock_requests, 3);
}

static void test_profil_rate_from_env(void **state)
{
	(void)state;
	setenv("PROFIL_HZ", "1000", 1);
	mock_expect_getfamily();
	mock_queue_family(NULL, 0);
	expect_start(hist, sizeof(hist), 0, 0x10000, 1000);
	mock_queue_ack();
	assert_int_equal(profil(hist, sizeof(hist), 0, 0x10000), 0);
}

static void test_profil_extack(void **state)
{
	(void)state;
	mock_expect_getfamily();
	mock_queue_family(NULL, 0);
	expect_start(hist, sizeof(hist), 0, 2, 0);
	mock_queue_error(EFAULT, "buffer is not in user space", true);
	errno = 0;
	assert_int_equal(profil(hist, sizeof(hist), 0, 2), -1);
	assert_int_equal(errno, EFAULT);
	assert_string_equal(profil_strerror(), "buffer is not in user space");
	assert_string_equal(profil_last_extack(),
			    "buffer is not in user space");
}

static void test_profil_extack_uncapped(void **state)
{
	(void)state;
	mock_expect_getfamily();
	mock_queue_family(NULL, 0);
	expect_start(hist, sizeof(hist), 0, 2, 0);
	mock_queue_error(EPERM, "no permission", false);
	assert_int_equal(profil(hist, sizeof(hist), 0, 2), -1);
	assert_int_equal(errno, EPERM);
	assert_string_equal(profil_strerror(), "no permission");
}

static void *other_thread(void *arg)
{
	(void)arg;
	return (void *)profil_last_extack();
}

static void test_extack_is_per_thread(void **state)
{
	pthread_t t;
	void *seen = &seen;

	(void)state;
	mock_expect_getfamily();
	mock_queue_family(NULL, 0);
	expect_start(hist, sizeof(hist), 0, 2, 0);
	mock_queue_error(EINVAL, "rate out of range", true);
	assert_int_equal(profil(hist, sizeof(hist), 0, 2), -1);
	assert_int_equal(pthread_create(&t, NULL, other_thread, NULL), 0);
	assert_int_equal(pthread_join(t, &seen), 0);
	assert_null(seen);
	assert_string_equal(profil_last_extack(), "rate out of range");
}

static void test_profil_error_without_extack(void **state)
{
	(void)state;
	mock_expect_getfamily();
	mock_queue_family(NULL, 0);
	expect_start(hist, sizeof(hist), 0, 2, 0);
	mock_queue_error(EINVAL, NULL, true);
	assert_int_equal(profil(hist, sizeof(hist), 0, 2), -1);
	assert_int_equal(errno, EINVAL);
	assert_null(profil_last_extack());
	assert_string_equal(profil_strerror(), strerror(EINVAL));
}

static void test_profil_success_keeps_errno(void **state)
{
	(void)state;
	mock_expect_getfamily();
	mock_queue_family(NULL, 0);
	expect_start(hist, sizeof(hist), 0, 2, 0);
	mock_queue_ack();
	errno = EDOM;
	assert_int_equal(profil(hist, sizeof(hist), 0, 2), 0);
	assert_int_equal(errno, EDOM);
	assert_null(profil_last_extack());
}

static void test_profil_module_absent(void **state)
{
	(void)state;
	mock_expect_getfamily();
	mock_queue_error(ENOENT, NULL, true);
	assert_int_equal(profil(hist, sizeof(hist), 0, 2), -1);
	assert_int_equal(errno, ENOSYS);

	/* Turning off what cannot be on succeeds, as glibc's would. */
	mock_expect_getfamily();
	mock_queue_error(ENOENT, NULL, true);
	assert_int_equal(profil_nn(NULL, 0, 0, 0), 0);
}

static void test_profil_module_unloaded(void **state)
{
	(void)state;
	mock_expect_getfamily();
	mock_queue_family(NULL, 0);
	expect_start(hist, sizeof(hist), 0, 2, 0);
	mock_queue_ack();
	assert_int_equal(profil(hist, sizeof(hist), 0, 2), 0);

	/* A bare ENOENT: the cached id is stale; resolve again. */
	expect_start(hist, sizeof(hist), 0, 2, 0);
	mock_queue_error(ENOENT, NULL, true);
	mock_expect_getfamily();
	mock_queue_error(ENOENT, NULL, true);
	assert_int_equal(profil(hist, sizeof(hist), 0, 2), -1);
	assert_int_equal(errno, ENOSYS);
}

static void test_profil_off_sends_start(void **state)
{
	(void)state;
	mock_expect_getfamily();
	mock_queue_family(NULL, 0);
	expect_start(NULL, 0, 0, 0, 0);
	mock_queue_ack();
	assert_int_equal(profil_nn(NULL, 0, 0, 0), 0);

	/* scale 0 is off too; the kernel's ENOENT means nothing ran. */
	expect_start(hist, sizeof(hist), 0, 0, 0);
	mock_queue_error(ENOENT, "process is not profiled", true);
	assert_int_equal(profil(hist, sizeof(hist), 0, 0), 0);
}

static void test_profil_stale_reply_skipped(void **state)
{
	struct nlmsghdr *stale = mock_msg_ack();

	(void)state;
	mock_expect_getfamily();
	mock_queue_family(NULL, 0);
	expect_start(hist, sizeof(hist), 0, 2, 0);
	/* The ACK of an abandoned earlier request, then ours. */
	stale->nlmsg_seq = 12345;
	mock_queue(stale, true);
	mock_queue_ack();
	assert_int_equal(profil(hist, sizeof(hist), 0, 2), 0);
}

static void test_profil_foreign_portid(void **state)
{
	(void)state;
	mock_expect_getfamily();
	mock_queue_family(NULL, 0);
	expect_start(hist, sizeof(hist), 0, 2, 0);
	mock_queue_foreign(mock_msg_ack());
	assert_int_equal(profil(hist, sizeof(hist), 0, 2), -1);
	assert_int_equal(errno, ESRCH);
}

static void test_profil_recv_eintr_retried(void **state)
{
	(void)state;
	mock_expect_getfamily();
	mock_queue_family(NULL, 0);
	expect_start(hist, sizeof(hist), 0, 2, 0);
	mock_queue_recv_error(EINTR);
	mock_queue_ack();
	assert_int_equal(profil(hist, sizeof(hist), 0, 2), 0);
}

static void test_profil_truncated_reply(void **state)
{
	struct nlmsghdr *ack = mock_msg_ack();

	(void)state;
	mock_expect_getfamily();
	mock_queue_family(NULL, 0);
	expect_start(hist, sizeof(hist), 0, 2, 0);
	ack->nlmsg_len = 10;	/* shorter than a header */
	mock_queue(ack, false);
	assert_int_equal(profil(hist, sizeof(hist), 0, 2), -1);
	assert_int_equal(errno, EPROTO);
}

static void test_profil_send_error(void **state)
{
	(void)state;
	mock_expect_getfamily();
	mock_queue_family(NULL, 0);
	mock_expect_send_error(ENOBUFS);
	assert_int_equal(profil(hist, sizeof(hist), 0, 2), -1);
	assert_int_equal(errno, ENOBUFS);
}

/*
 * The extended API.
 */

static struct profil_handle *open_handle(const char *grp)
{
	struct profil_handle *h;

	mock_expect_getfamily();
	mock_queue_family(grp, MOCK_MCGRP_ID);
	h = profil_handle_open();
	assert_non_null(h);
	return h;
}

static const struct profil_status sample = {
	.pid = 4242,
	.buf = 0x7ffd00001000ULL,
	.bufsiz = 8192,
	.offset = 0x555555554000ULL,
	.scale = 32768,
	.rate = 1000,
	.flags = PROFIL_F_SYSTEM_TICKS,
	.state = PROFIL_STATE_STOPPED,
	.reason = PROFIL_STOP_FAULT,
	.fault_addr = 0x7ffd00001ffeULL,
	.stats = { 1, 2, 3, 4, 5, 6, 7, 8, 9 },
};

static void test_handle_absent(void **state)
{
	(void)state;
	mock_expect_getfamily();
	mock_queue_error(ENOENT, NULL, true);
	assert_null(profil_handle_open());
	assert_int_equal(errno, ENOSYS);
}

static void test_session_start_all_attrs(void **state)
{
	struct profil_handle *h = open_handle(NULL);
	struct profil_params p = {
		.buf = 0x1000, .bufsiz = 64, .offset = 0x400000,
		.scale = 0x8000, .rate = 250, .flags = PROFIL_F_SYSTEM_TICKS,
		.pid = 77,
	};
	const struct mock_attr attrs[] = {
		{ PROFIL_ATTR_BUF, 8, 0x1000 },
		{ PROFIL_ATTR_BUFSIZ, 8, 64 },
		{ PROFIL_ATTR_OFFSET, 8, 0x400000 },
		{ PROFIL_ATTR_SCALE, 4, 0x8000 },
		{ PROFIL_ATTR_RATE, 4, 250 },
		{ PROFIL_ATTR_FLAGS, 4, PROFIL_F_SYSTEM_TICKS },
		{ PROFIL_ATTR_PID, 4, 77 },
		{ 0 },
	};

	(void)state;
	mock_expect_request(PROFIL_CMD_START, NLM_F_ACK, attrs);
	mock_queue_ack();
	assert_int_equal(profil_session_start(h, &p), 0);
	profil_handle_close(h);
}

/* PROFIL_START_EXCL is the PROFIL_ATTR_EXCL flag, never a FLAGS bit. */
static void test_session_start_excl(void **state)
{
	struct profil_handle *h = open_handle(NULL);
	struct profil_params p = {
		.buf = 0x1000, .bufsiz = 64, .offset = 0x400000,
		.scale = 0x8000,
		.flags = PROFIL_F_SYSTEM_TICKS | PROFIL_START_EXCL,
	};
	const struct mock_attr attrs[] = {
		{ PROFIL_ATTR_BUF, 8, 0x1000 },
		{ PROFIL_ATTR_BUFSIZ, 8, 64 },
		{ PROFIL_ATTR_OFFSET, 8, 0x400000 },
		{ PROFIL_ATTR_SCALE, 4, 0x8000 },
		{ PROFIL_ATTR_FLAGS, 4, PROFIL_F_SYSTEM_TICKS },
		{ PROFIL_ATTR_EXCL, MOCK_ANY, 0 },	/* present, no payload */
		{ PROFIL_ATTR_PID, 0, 0 },
		{ 0 },
	};

	(void)state;
	mock_expect_request(PROFIL_CMD_START, NLM_F_ACK, attrs);
	mock_queue_error(EEXIST, "process has an active session", true);
	assert_int_equal(profil_session_start(h, &p), -1);
	assert_int_equal(errno, EEXIST);
	assert_non_null(strstr(profil_strerror(), "active session"));
	profil_handle_close(h);
}

static void test_session_stop(void **state)
{
	struct profil_handle *h = open_handle(NULL);
	const struct mock_attr self[] = { { PROFIL_ATTR_PID, 0, 0 }, { 0 } };
	const struct mock_attr other[] = { { PROFIL_ATTR_PID, 4, 99 }, { 0 } };

	(void)state;
	mock_expect_request(PROFIL_CMD_STOP, NLM_F_ACK, self);
	mock_queue_ack();
	assert_int_equal(profil_session_stop(h, 0), 0);

	mock_expect_request(PROFIL_CMD_STOP, NLM_F_ACK, other);
	mock_queue_error(ESRCH, "no such process", true);
	assert_int_equal(profil_session_stop(h, 99), -1);
	assert_int_equal(errno, ESRCH);
	assert_string_equal(profil_strerror(), "no such process");
	profil_handle_close(h);
}

static void test_session_get(void **state)
{
	struct profil_handle *h = open_handle(NULL);
	const struct mock_attr attrs[] = { { PROFIL_ATTR_PID, 4, 4242 }, { 0 } };
	struct profil_status st;

	(void)state;
	mock_expect_request(PROFIL_CMD_GET, NLM_F_ACK, attrs);
	mock_queue(mock_msg_status(PROFIL_CMD_GET, 0, &sample), false);
	mock_queue_ack();
	memset(&st, 0xff, sizeof(st));
	assert_int_equal(profil_session_get(h, 4242, &st), 0);
	assert_memory_equal(&st, &sample, sizeof(st));
	profil_handle_close(h);
}

static void test_session_get_skips_unknown(void **state)
{
	struct profil_handle *h = open_handle(NULL);
	struct profil_status st, want = { .pid = 5, .rate = 100 };
	struct nlmsghdr *nlh;
	struct nlattr *nest;

	(void)state;
	nlh = mock_msg_genl(MOCK_FAMILY_ID, 0, PROFIL_CMD_GET);
	mnl_attr_put_u32(nlh, PROFIL_ATTR_PAD, 0);
	mnl_attr_put_u32(nlh, PROFIL_ATTR_PID, 5);
	mnl_attr_put_u64(nlh, PROFIL_ATTR_MAX + 7, 0xdead);	/* newer kernel */
	mnl_attr_put_u32(nlh, PROFIL_ATTR_RATE, 100);
	nest = mnl_attr_nest_start(nlh, PROFIL_ATTR_STATS);
	mnl_attr_put_u64(nlh, PROFIL_STAT_MAX + 3, 77);
	mnl_attr_put_u64(nlh, PROFIL_STAT_FAULTED, 9);
	mnl_attr_nest_end(nlh, nest);
	want.stats.faulted = 9;

	mock_expect_request(PROFIL_CMD_GET, NLM_F_ACK, NULL);
	mock_queue(nlh, false);
	mock_queue_ack();
	assert_int_equal(profil_session_get(h, 0, &st), 0);
	assert_memory_equal(&st, &want, sizeof(st));
	profil_handle_close(h);
}

/* Counters by index, bounded by the caller's array; newer ones skipped. */
static struct nlmsghdr *stats_reply(void)
{
	struct nlmsghdr *nlh = mock_msg_genl(MOCK_FAMILY_ID, 0, PROFIL_CMD_GET);
	struct nlattr *nest;

	mnl_attr_put_u32(nlh, PROFIL_ATTR_PID, 5);
	nest = mnl_attr_nest_start(nlh, PROFIL_ATTR_STATS);
	mnl_attr_put_u64(nlh, PROFIL_STAT_PAD, 1);
	mnl_attr_put_u64(nlh, PROFIL_STAT_TICKS, 11);
	mnl_attr_put_u64(nlh, PROFIL_STAT_FAULTED, 9);
	mnl_attr_put_u64(nlh, PROFIL_STAT_MISSED, 3);
	mnl_attr_put_u64(nlh, PROFIL_STAT_MAX + 3, 77);	/* newer kernel */
	mnl_attr_nest_end(nlh, nest);
	return nlh;
}

static void test_session_get_stats(void **state)
{
	struct profil_handle *h = open_handle(NULL);
	uint64_t all[PROFIL_STAT_MAX + 1], few[PROFIL_STAT_MISSED + 1];
	size_t i;

	(void)state;
	mock_expect_request(PROFIL_CMD_GET, NLM_F_ACK, NULL);
	mock_queue(stats_reply(), false);
	mock_queue_ack();
	memset(all, 0xff, sizeof(all));
	assert_int_equal(profil_session_get_stats(h, 0, all,
						  PROFIL_STAT_MAX + 1), 0);
	for (i = 0; i <= PROFIL_STAT_MAX; i++) {
		uint64_t want = i == PROFIL_STAT_TICKS ? 11 :
				i == PROFIL_STAT_FAULTED ? 9 :
				i == PROFIL_STAT_MISSED ? 3 : 0;

		assert_int_equal(all[i], want);
	}

	/* A shorter array: MISSED and beyond are not written. */
	mock_expect_request(PROFIL_CMD_GET, NLM_F_ACK, NULL);
	mock_queue(stats_reply(), false);
	mock_queue_ack();
	memset(few, 0xee, sizeof(few));
	assert_int_equal(profil_session_get_stats(h, 0, few,
						  PROFIL_STAT_MISSED), 0);
	assert_int_equal(few[PROFIL_STAT_TICKS], 11);
	assert_int_equal(few[PROFIL_STAT_FAULTED], 9);
	assert_int_equal(few[PROFIL_STAT_MISSED], 0xeeeeeeeeeeeeeeeeULL);

	assert_int_equal(profil_session_get_stats(h, 0, NULL, 2), -1);
	assert_int_equal(errno, EINVAL);
	profil_handle_close(h);
}

static void test_session_get_malformed(void **state)
{
	struct profil_handle *h = open_handle(NULL);
	struct profil_status st;
	struct nlmsghdr *nlh;

	(void)state;
	nlh = mock_msg_genl(MOCK_FAMILY_ID, 0, PROFIL_CMD_GET);
	mnl_attr_put_u32(nlh, PROFIL_ATTR_BUF, 1);	/* must be a u64 */
	mock_expect_request(PROFIL_CMD_GET, NLM_F_ACK, NULL);
	mock_queue(nlh, false);
	assert_int_equal(profil_session_get(h, 0, &st), -1);
	assert_int_equal(errno, EPROTO);
	profil_handle_close(h);
}

static void test_session_get_not_profiled(void **state)
{
	struct profil_handle *h = open_handle(NULL);
	struct profil_status st;

	(void)state;
	mock_expect_request(PROFIL_CMD_GET, NLM_F_ACK, NULL);
	mock_queue_error(ENOENT, "profil: process is not profiled", true);
	assert_int_equal(profil_session_get(h, 0, &st), -1);
	assert_int_equal(errno, ENOENT);
	assert_string_equal(profil_strerror(),
			    "profil: process is not profiled");
	profil_handle_close(h);
}

struct seen {
	int n;
	pid_t pids[4];
	int stop_after;
	int stop_with;
};

static int dump_cb(const struct profil_status *st, void *data)
{
	struct seen *s = data;

	assert_true(s->n < 4);
	s->pids[s->n++] = st->pid;
	return s->n == s->stop_after ? s->stop_with : 0;
}

static void queue_dump(void)
{
	struct profil_status a = sample, b = sample;

	a.pid = 10;
	b.pid = 20;
	mock_expect_request(PROFIL_CMD_GET, NLM_F_DUMP, NULL);
	mock_queue(mock_msg_status(PROFIL_CMD_GET, NLM_F_MULTI, &a), false);
	mock_queue(mock_msg_status(PROFIL_CMD_GET, NLM_F_MULTI, &b), false);
	mock_queue_done(0);
}

static void test_session_dump(void **state)
{
	struct profil_handle *h = open_handle(NULL);
	struct seen s = { 0 };

	(void)state;
	queue_dump();
	assert_int_equal(profil_session_dump(h, dump_cb, &s), 0);
	assert_int_equal(s.n, 2);
	assert_int_equal(s.pids[0], 10);
	assert_int_equal(s.pids[1], 20);

	/* An early stop still reads the dump to its end. */
	memset(&s, 0, sizeof(s));
	s.stop_after = 1;
	s.stop_with = 42;
	queue_dump();
	assert_int_equal(profil_session_dump(h, dump_cb, &s), 42);
	assert_int_equal(s.n, 1);
	profil_handle_close(h);
}

static void test_session_dump_negative_stop(void **state)
{
	struct profil_handle *h = open_handle(NULL);
	struct seen s = { .stop_after = 2, .stop_with = -1 };

	(void)state;
	/* A callback's -1 stops the walk but is no failure of the library. */
	pf_err_set(EFAULT, "an earlier failure");
	errno = 0;
	queue_dump();
	assert_int_equal(profil_session_dump(h, dump_cb, &s), 1);
	assert_int_equal(s.n, 2);
	assert_int_equal(errno, 0);

	memset(&s, 0, sizeof(s));
	s.stop_after = 1;
	s.stop_with = INT_MIN;
	queue_dump();
	assert_int_equal(profil_session_dump(h, dump_cb, &s), 1);
	assert_int_equal(s.n, 1);
	profil_handle_close(h);
}

static void test_session_dump_error(void **state)
{
	struct profil_handle *h = open_handle(NULL);
	struct seen s = { 0 };

	(void)state;
	mock_expect_request(PROFIL_CMD_GET, NLM_F_DUMP, NULL);
	mock_queue_done(EINTR);
	assert_int_equal(profil_session_dump(h, dump_cb, &s), -1);
	assert_int_equal(errno, EINTR);
	profil_handle_close(h);
}

static void test_events(void **state)
{
	struct profil_handle *h = open_handle(PROFIL_MCGRP_EVENTS);
	struct profil_status st;
	struct nlmsghdr *other;

	(void)state;
	assert_int_equal(profil_event_fd(h), -1);
	assert_int_equal(errno, EBADF);
	assert_int_equal(profil_event_subscribe(h), 0);
	assert_true(profil_event_fd(h) >= 0);
	assert_int_equal(profil_event_subscribe(h), 0);	/* idempotent */

	/* Another command is skipped; the STOPPED event is returned. */
	other = mock_msg_genl(MOCK_FAMILY_ID, 0, PROFIL_CMD_GET);
	mock_queue(other, true);
	mock_queue(mock_msg_status(PROFIL_CMD_STOPPED, 0, &sample), true);
	assert_int_equal(profil_event_read(h, &st), 0);
	assert_memory_equal(&st, &sample, sizeof(st));

	mock_queue_recv_error(ENOBUFS);
	assert_int_equal(profil_event_read(h, &st), -1);
	assert_int_equal(errno, ENOBUFS);
	profil_handle_close(h);
}

static void test_events_no_group(void **state)
{
	struct profil_handle *h = open_handle(NULL);
	struct profil_status st;

	(void)state;
	assert_int_equal(profil_event_subscribe(h), -1);
	assert_int_equal(errno, ENOENT);
	assert_int_equal(profil_event_read(h, &st), -1);
	assert_int_equal(errno, EBADF);
	profil_handle_close(h);
}

/*
 * Every failure sets the thread's last error: an errno alone would leave
 * profil_strerror() with the text of an earlier failure.
 */
static void plant_stale_error(void)
{
	pf_err_set(EFAULT, "an earlier failure");
	assert_string_equal(profil_strerror(), "an earlier failure");
}

static void assert_last_error(int err)
{
	assert_int_equal(errno, err);
	assert_string_equal(profil_strerror(), strerror(err));
	assert_null(profil_last_extack());
}

static void test_no_stale_error_text(void **state)
{
	struct profil_handle *h = open_handle(NULL);
	struct profil_status st;

	(void)state;
	plant_stale_error();
	assert_int_equal(profil_event_fd(h), -1);
	assert_last_error(EBADF);
	plant_stale_error();
	assert_int_equal(profil_event_fd(NULL), -1);
	assert_last_error(EBADF);
	plant_stale_error();
	assert_int_equal(profil_event_read(h, &st), -1);
	assert_last_error(EBADF);
	plant_stale_error();
	assert_int_equal(profil_session_get(h, 0, NULL), -1);
	assert_last_error(EINVAL);
	plant_stale_error();
	assert_int_equal(profil_session_dump(h, NULL, NULL), -1);
	assert_last_error(EINVAL);
	plant_stale_error();
	mock_expect_request(PROFIL_CMD_STOP, NLM_F_ACK, NULL);
	mock_queue_recv_error(ENOBUFS);
	assert_int_equal(profil_session_stop(h, 0), -1);
	assert_last_error(ENOBUFS);
	plant_stale_error();
	mock_expect_send_error(EAGAIN);
	assert_int_equal(profil_session_stop(h, 0), -1);
	assert_last_error(EAGAIN);
	profil_handle_close(h);

	plant_stale_error();
	mock_expect_getfamily();
	mock_queue_error(ENOENT, NULL, true);
	assert_null(profil_handle_open());
	assert_last_error(ENOSYS);
}

static void test_null_args(void **state)
{
	struct profil_status st;

	(void)state;
	assert_int_equal(profil_session_stop(NULL, 0), -1);
	assert_int_equal(errno, EINVAL);
	assert_int_equal(profil_session_get(NULL, 0, &st), -1);
	assert_int_equal(errno, EINVAL);
	assert_int_equal(profil_session_dump(NULL, dump_cb, NULL), -1);
	assert_int_equal(errno, EINVAL);
	profil_handle_close(NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_profil_resolves_once, setup),
		cmocka_unit_test_setup(test_profil_rate_from_env, setup),
		cmocka_unit_test_setup(test_profil_extack, setup),
		cmocka_unit_test_setup(test_profil_extack_uncapped, setup),
		cmocka_unit_test_setup(test_extack_is_per_thread, setup),
		cmocka_unit_test_setup(test_profil_error_without_extack, setup),
		cmocka_unit_test_setup(test_profil_success_keeps_errno, setup),
		cmocka_unit_test_setup(test_profil_module_absent, setup),
		cmocka_unit_test_setup(test_profil_module_unloaded, setup),
		cmocka_unit_test_setup(test_profil_off_sends_start, setup),
		cmocka_unit_test_setup(test_profil_stale_reply_skipped, setup),
		cmocka_unit_test_setup(test_profil_foreign_portid, setup),
		cmocka_unit_test_setup(test_profil_recv_eintr_retried, setup),
		cmocka_unit_test_setup(test_profil_truncated_reply, setup),
		cmocka_unit_test_setup(test_profil_send_error, setup),
		cmocka_unit_test_setup(test_handle_absent, setup),
		cmocka_unit_test_setup(test_session_start_all_attrs, setup),
		cmocka_unit_test_setup(test_session_start_excl, setup),
		cmocka_unit_test_setup(test_session_stop, setup),
		cmocka_unit_test_setup(test_session_get, setup),
		cmocka_unit_test_setup(test_session_get_skips_unknown, setup),
		cmocka_unit_test_setup(test_session_get_stats, setup),
		cmocka_unit_test_setup(test_session_get_malformed, setup),
		cmocka_unit_test_setup(test_session_get_not_profiled, setup),
		cmocka_unit_test_setup(test_session_dump, setup),
		cmocka_unit_test_setup(test_session_dump_negative_stop, setup),
		cmocka_unit_test_setup(test_session_dump_error, setup),
		cmocka_unit_test_setup(test_events, setup),
		cmocka_unit_test_setup(test_events_no_group, setup),
		cmocka_unit_test_setup(test_no_stale_error_text, setup),
		cmocka_unit_test_setup(test_null_args, setup),
	};

	return cmocka_run_group_tests_name("libprofil netlink", tests, NULL,
					   NULL);
}
