// SPDX-License-Identifier: GPL-2.0
/*
 * Region sets of the extended API (PROFIL_1.1) and the sprofil() drop-in:
 * the set object's argument errors, the requests' layout byte for byte
 * (one message for any set, past the 32 KiB receive buffer), the parsing
 * of GET and GET_REGIONS replies, and sprofil()'s checks, its on/off rule
 * and the period it returns.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/profil.h>
#include <sys/time.h>
#include <libmnl/libmnl.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <linux/profil.h>

#include "profil.h"
#include "internal.h"
#include "mock_mnl.h"

/* A region nest on the wire: 4 + 3 * 12 + 8 bytes. */
#define NEST_LEN	48
#define HDRS_LEN	(NLMSG_HDRLEN + GENL_HDRLEN)

struct reg {
	uint64_t buf, size, offset;
	uint32_t scale;
};

/* What a region request must carry; -1: the attribute is absent. */
struct want {
	const struct reg *reg;
	size_t n;
	int64_t pid, counter, mode, rate, flags;
};

static int setup(void **state)
{
	(void)state;
	unsetenv("PROFIL_HZ");
	pf_profil_reset();
	mock_mnl_reset();
	return 0;
}

static void expect_resolve(void)
{
	mock_expect_getfamily();
	mock_queue_family(NULL, 0);
}

static int check_u32(const char *name, const struct nlattr *a, int64_t want)
{
	if (want < 0 && !a)
		return 1;
	if (want < 0 || !a) {
		print_error("%s: %s\n", name, a ? "unexpected" : "missing");
		return 0;
	}
	if (mnl_attr_get_payload_len(a) != 4 ||
	    mnl_attr_get_u32(a) != (uint32_t)want) {
		print_error("%s: %u, expected %lld\n", name,
			    mnl_attr_get_u32(a), (long long)want);
		return 0;
	}
	return 1;
}

/* One region nest against @r: exactly its four attributes, in order. */
static int check_nest(const struct nlattr *nest, const struct reg *r,
		      size_t i)
{
	static const uint16_t type[] = { PROFIL_REGION_BUF, PROFIL_REGION_SIZE,
					 PROFIL_REGION_OFFSET,
					 PROFIL_REGION_SCALE };
	const uint64_t val[] = { r->buf, r->size, r->offset, r->scale };
	const struct nlattr *a;
	unsigned int k = 0;

	if (mnl_attr_get_payload_len(nest) != NEST_LEN - 4) {
		print_error("region %zu: nest of %u bytes\n", i,
			    mnl_attr_get_payload_len(nest));
		return 0;
	}
	mnl_attr_for_each_nested(a, nest) {
		uint16_t len = mnl_attr_get_payload_len(a);
		uint64_t v = len == 8 ? mnl_attr_get_u64(a) :
					mnl_attr_get_u32(a);

		if (k >= 4 || mnl_attr_get_type(a) != type[k] ||
		    len != (k == 3 ? 4 : 8) || v != val[k]) {
			print_error("region %zu: attribute %u: type %u len %u "
				    "value %#llx\n", i, k, mnl_attr_get_type(a),
				    len, (unsigned long long)v);
			return 0;
		}
		k++;
	}
	return k == 4;
}

static int check_regions(const LargestIntegralType value,
			 const LargestIntegralType check_data)
{
	const struct nlmsghdr *nlh = (const void *)(uintptr_t)value;
	const struct want *w = (const void *)(uintptr_t)check_data;
	const struct nlattr *a, *tb[PROFIL_ATTR_MAX + 1] = { NULL };
	size_t n = 0;
	int ok = 1;

	mnl_attr_for_each(a, nlh, GENL_HDRLEN) {
		uint16_t t = mnl_attr_get_type(a);

		if (t == PROFIL_ATTR_REGION) {
			if (n >= w->n) {
				print_error("more than %zu regions\n", w->n);
				return 0;
			}
			ok &= check_nest(a, &w->reg[n], n);
			n++;
		} else if (t > PROFIL_ATTR_MAX || tb[t]) {
			print_error("attribute %u unexpected or repeated\n", t);
			return 0;
		} else {
			tb[t] = a;
		}
	}
	if (n != w->n) {
		print_error("%zu regions, expected %zu\n", n, w->n);
		ok = 0;
	}
	ok &= check_u32("PID", tb[PROFIL_ATTR_PID], w->pid);
	ok &= check_u32("COUNTER", tb[PROFIL_ATTR_COUNTER], w->counter);
	ok &= check_u32("MODE", tb[PROFIL_ATTR_MODE], w->mode);
	ok &= check_u32("RATE", tb[PROFIL_ATTR_RATE], w->rate);
	ok &= check_u32("FLAGS", tb[PROFIL_ATTR_FLAGS], w->flags);
	/* Nothing of profil()'s four: the kernel refuses a mix. */
	if (tb[PROFIL_ATTR_BUF] || tb[PROFIL_ATTR_BUFSIZ] ||
	    tb[PROFIL_ATTR_OFFSET] || tb[PROFIL_ATTR_SCALE]) {
		print_error("BUF/BUFSIZ/OFFSET/SCALE beside regions\n");
		ok = 0;
	}
	return ok;
}

static void expect_regions(uint8_t cmd, const struct want *w)
{
	expect_value(__wrap_mnl_socket_sendto, type, MOCK_FAMILY_ID);
	expect_value(__wrap_mnl_socket_sendto, flags,
		     NLM_F_REQUEST | NLM_F_ACK);
	expect_value(__wrap_mnl_socket_sendto, cmd, cmd);
	expect_check(__wrap_mnl_socket_sendto, nlh, check_regions,
		     (uintptr_t)w);
	will_return(__wrap_mnl_socket_sendto, 0);
}

static struct profil_regions *set_of(const struct reg *r, size_t n)
{
	struct profil_regions *set = profil_regions_alloc();
	size_t i;

	assert_non_null(set);
	for (i = 0; i < n; i++)
		assert_int_equal(profil_regions_add(set, r[i].buf, r[i].size,
						    r[i].offset, r[i].scale),
				 0);
	return set;
}

static struct profil_handle *open_handle(void)
{
	struct profil_handle *h;

	expect_resolve();
	h = profil_handle_open();
	assert_non_null(h);
	return h;
}

/*
 * The set object.
 */

static void test_regions_add_args(void **state)
{
	struct profil_regions *r = profil_regions_alloc();

	(void)state;
	assert_non_null(r);
	assert_int_equal(profil_regions_count(r), 0);
	assert_int_equal(profil_regions_count(NULL), 0);
	errno = 0;
	assert_int_equal(profil_regions_add(NULL, 0x1000, 2, 0, 2), -1);
	assert_int_equal(errno, EINVAL);
	errno = 0;
	assert_int_equal(profil_regions_add(r, 0x1000, 0, 0, 2), -1);
	assert_int_equal(errno, EINVAL);
	assert_string_equal(profil_strerror(), strerror(EINVAL));
	/* The kernel's business, not the set's: scale 0 and 1 are kept. */
	assert_int_equal(profil_regions_add(r, 0x1000, 1, 0, 0), 0);
	assert_int_equal(profil_regions_count(r), 1);
	profil_regions_free(r);
	profil_regions_free(NULL);
}

static void test_regions_max(void **state)
{
	struct profil_regions *r = profil_regions_alloc();
	uint64_t off;
	size_t i;

	(void)state;
	for (i = 0; i < PROFIL_REGIONS_MAX; i++)
		assert_int_equal(profil_regions_add(r, 0x1000 + 2 * i, 2,
						    0x400000 + 64 * i, 0x10000),
				 0);
	errno = 0;
	assert_int_equal(profil_regions_add(r, 0x1000, 2, 0, 2), -1);
	assert_int_equal(errno, E2BIG);
	assert_non_null(profil_last_extack());
	assert_int_equal(profil_regions_count(r), PROFIL_REGIONS_MAX);
	assert_int_equal(profil_regions_get(r, PROFIL_REGIONS_MAX - 1, NULL,
					    NULL, &off, NULL), 0);
	assert_int_equal(off, 0x400000 + 64 * (PROFIL_REGIONS_MAX - 1));
	profil_regions_free(r);
}

static void test_regions_get(void **state)
{
	struct profil_regions *r = profil_regions_alloc();
	uint64_t buf = 0, size = 0, off = 0;
	uint32_t scale = 0;

	(void)state;
	errno = 0;
	assert_int_equal(profil_regions_get(r, 0, &buf, &size, &off, &scale),
			 -1);
	assert_int_equal(errno, ERANGE);
	assert_int_equal(profil_regions_add(r, 0xa000, 10, 0x400000, 3), 0);
	assert_int_equal(profil_regions_add(r, 0xb000, 20, 0x500000, 4), 0);
	assert_int_equal(profil_regions_get(r, 1, &buf, &size, &off, &scale),
			 0);
	assert_int_equal(buf, 0xb000);
	assert_int_equal(size, 20);
	assert_int_equal(off, 0x500000);
	assert_int_equal(scale, 4);
	/* Any out pointer may be NULL. */
	assert_int_equal(profil_regions_get(r, 0, NULL, &size, NULL, NULL), 0);
	assert_int_equal(size, 10);
	errno = 0;
	assert_int_equal(profil_regions_get(r, 2, &buf, NULL, NULL, NULL), -1);
	assert_int_equal(errno, ERANGE);
	assert_int_equal(buf, 0xb000);	/* untouched */
	errno = 0;
	assert_int_equal(profil_regions_get(NULL, 0, &buf, NULL, NULL, NULL),
			 -1);
	assert_int_equal(errno, EINVAL);
	profil_regions_free(r);
}

static void test_regions_rules(void **state)
{
	struct profil_regions *r = profil_regions_alloc();

	(void)state;
	assert_int_equal(profil_regions_counter(r), PROFIL_COUNTER_U16);
	assert_int_equal(profil_regions_mode(r), PROFIL_MODE_WRAP);
	assert_int_equal(profil_regions_counter(NULL), PROFIL_COUNTER_U16);
	assert_int_equal(profil_regions_mode(NULL), PROFIL_MODE_WRAP);
	assert_int_equal(profil_regions_set_counter(r, PROFIL_COUNTER_U32), 0);
	assert_int_equal(profil_regions_set_mode(r, PROFIL_MODE_SATURATE), 0);
	errno = 0;
	assert_int_equal(profil_regions_set_counter(r, PROFIL_COUNTER_MAX + 1),
			 -1);
	assert_int_equal(errno, EINVAL);
	errno = 0;
	assert_int_equal(profil_regions_set_mode(r, PROFIL_MODE_MAX + 1), -1);
	assert_int_equal(errno, EINVAL);
	errno = 0;
	assert_int_equal(profil_regions_set_mode(NULL, PROFIL_MODE_WRAP), -1);
	assert_int_equal(errno, EINVAL);
	assert_int_equal(profil_regions_counter(r), PROFIL_COUNTER_U32);
	assert_int_equal(profil_regions_mode(r), PROFIL_MODE_SATURATE);
	profil_regions_free(r);
}

/*
 * Requests.
 */

/* 700 regions, 33620 bytes: one message, larger than PF_NL_BUFSIZE. */
static void test_start_regions_one_large_message(void **state)
{
	static struct reg r[700];
	struct want w = { r, 700, -1, PROFIL_COUNTER_U32, PROFIL_MODE_SATURATE,
			  1000, -1 };
	struct profil_handle *h = open_handle();
	struct profil_regions *set;
	size_t i;

	(void)state;
	for (i = 0; i < 700; i++)
		r[i] = (struct reg){ 0x10000 + 4 * i, 4 + i, 0x400000 + 64 * i,
				     (uint32_t)(2 + i) };
	set = set_of(r, 700);
	assert_int_equal(profil_regions_set_counter(set, PROFIL_COUNTER_U32),
			 0);
	assert_int_equal(profil_regions_set_mode(set, PROFIL_MODE_SATURATE), 0);
	expect_regions(PROFIL_CMD_START, &w);
	mock_queue_ack();
	assert_int_equal(profil_session_start_regions(h, 0, set, 1000, 0), 0);
	assert_int_equal(mock_requests, 2);
	assert_int_equal(mock_last_request->nlmsg_len,
			 HDRS_LEN + 700 * NEST_LEN + 3 * 8);
	assert_true(mock_last_request->nlmsg_len > PF_NL_BUFSIZE);
	profil_regions_free(set);
	profil_handle_close(h);
}

static void test_start_regions_largest(void **state)
{
	static struct reg r[PROFIL_REGIONS_MAX];
	struct want w = { r, PROFIL_REGIONS_MAX, 7, PROFIL_COUNTER_U16,
			  PROFIL_MODE_WRAP, -1, PROFIL_F_NO_INHERIT };
	struct profil_handle *h = open_handle();
	struct profil_regions *set;
	size_t i;

	(void)state;
	for (i = 0; i < PROFIL_REGIONS_MAX; i++)
		r[i] = (struct reg){ 0x10000 + 2 * i, 2, 0x400000 + 64 * i,
				     0x10000 };
	set = set_of(r, PROFIL_REGIONS_MAX);
	expect_regions(PROFIL_CMD_START, &w);
	mock_queue_ack();
	assert_int_equal(profil_session_start_regions(h, 7, set, 0,
						      PROFIL_F_NO_INHERIT), 0);
	/* PID, COUNTER, MODE, FLAGS */
	assert_int_equal(mock_last_request->nlmsg_len,
			 HDRS_LEN + PROFIL_REGIONS_MAX * NEST_LEN + 4 * 8);
	profil_regions_free(set);
	profil_handle_close(h);
}

static void test_start_regions_args(void **state)
{
	struct profil_handle *h = open_handle();
	struct profil_regions *set = profil_regions_alloc();

	(void)state;
	errno = 0;
	assert_int_equal(profil_session_start_regions(h, 0, set, 0, 0), -1);
	assert_int_equal(errno, EINVAL);
	errno = 0;
	assert_int_equal(profil_session_start_regions(h, 0, NULL, 0, 0), -1);
	assert_int_equal(errno, EINVAL);
	errno = 0;
	assert_int_equal(profil_session_add_regions(h, 0, set), -1);
	assert_int_equal(errno, EINVAL);
	assert_int_equal(profil_regions_add(set, 0x1000, 2, 0, 2), 0);
	errno = 0;
	assert_int_equal(profil_session_start_regions(NULL, 0, set, 0, 0), -1);
	assert_int_equal(errno, EINVAL);
	errno = 0;
	assert_int_equal(profil_session_get_regions(h, 0, NULL), -1);
	assert_int_equal(errno, EINVAL);
	assert_int_equal(mock_requests, 1);	/* the family only */
	profil_regions_free(set);
	profil_handle_close(h);
}

/* The kernel's errno and extack come back as they are. */
static void test_start_regions_kernel_error(void **state)
{
	const struct reg r[] = { { 0x1000, 2, 0x400000, 0x10000 } };
	struct want w = { r, 1, -1, PROFIL_COUNTER_U16, PROFIL_MODE_WRAP, -1,
			  -1 };
	struct profil_handle *h = open_handle();
	struct profil_regions *set = set_of(r, 1);

	(void)state;
	expect_regions(PROFIL_CMD_START, &w);
	mock_queue_error(EFAULT, "region buffer is not in user space", true);
	errno = 0;
	assert_int_equal(profil_session_start_regions(h, 0, set, 0, 0), -1);
	assert_int_equal(errno, EFAULT);
	assert_string_equal(profil_strerror(),
			    "region buffer is not in user space");
	profil_regions_free(set);
	profil_handle_close(h);
}

/* ADD_REGIONS carries PID and regions only: counter and mode stay. */
static void test_add_regions_layout(void **state)
{
	const struct reg r[] = { { 0x1000, 64, 0x400000, 0x8000 },
				 { 0x2000, 2, 0, 2 } };
	struct want w = { r, 2, 42, -1, -1, -1, -1 };
	struct profil_handle *h = open_handle();
	struct profil_regions *set = set_of(r, 2);

	(void)state;
	assert_int_equal(profil_regions_set_mode(set, PROFIL_MODE_SATURATE), 0);
	expect_regions(PROFIL_CMD_ADD_REGIONS, &w);
	mock_queue_ack();
	assert_int_equal(profil_session_add_regions(h, 42, set), 0);
	expect_regions(PROFIL_CMD_ADD_REGIONS, &w);
	mock_queue_error(ENOENT, "process is not profiled", true);
	errno = 0;
	assert_int_equal(profil_session_add_regions(h, 42, set), -1);
	assert_int_equal(errno, ENOENT);
	profil_regions_free(set);
	profil_handle_close(h);
}

/*
 * Replies.
 */

static void put_region(struct nlmsghdr *nlh, const struct reg *r, bool pad,
		       bool scale)
{
	struct nlattr *nest = mnl_attr_nest_start(nlh, PROFIL_ATTR_REGION);

	if (pad)
		mnl_attr_put(nlh, PROFIL_REGION_PAD, 0, NULL);
	mnl_attr_put_u64(nlh, PROFIL_REGION_BUF, r->buf);
	mnl_attr_put_u64(nlh, PROFIL_REGION_SIZE, r->size);
	mnl_attr_put_u64(nlh, PROFIL_REGION_OFFSET, r->offset);
	if (scale)
		mnl_attr_put_u32(nlh, PROFIL_REGION_SCALE, r->scale);
	mnl_attr_put_u32(nlh, PROFIL_REGION_MAX + 1, 0);	/* newer: skip */
	mnl_attr_nest_end(nlh, nest);
}

/* A GET reply with the set's rules; then its ACK. */
static void queue_get(uint32_t counter, uint32_t mode, uint32_t nr)
{
	struct profil_status st = { .pid = 42, .state = PROFIL_STATE_ACTIVE,
				    .rate = 100 };
	struct nlmsghdr *nlh = mock_msg_status(PROFIL_CMD_GET, 0, &st);

	mnl_attr_put_u32(nlh, PROFIL_ATTR_COUNTER, counter);
	mnl_attr_put_u32(nlh, PROFIL_ATTR_MODE, mode);
	mnl_attr_put_u32(nlh, PROFIL_ATTR_NR_REGIONS, nr);
	mock_queue(nlh, false);
	mock_queue_ack();
}

static struct nlmsghdr *regions_msg(void)
{
	struct nlmsghdr *nlh = mock_msg_genl(MOCK_FAMILY_ID, NLM_F_MULTI,
					     PROFIL_CMD_GET_REGIONS);

	mnl_attr_put_u32(nlh, PROFIL_ATTR_PID, 42);
	return nlh;
}

static void expect_get_regions(void)
{
	const struct mock_attr pid[] = { { PROFIL_ATTR_PID, 4, 42 }, { 0 } };

	mock_expect_request(PROFIL_CMD_GET, NLM_F_ACK, pid);
}

static void expect_dump_regions(void)
{
	const struct mock_attr pid[] = { { PROFIL_ATTR_PID, 4, 42 }, { 0 } };

	mock_expect_request(PROFIL_CMD_GET_REGIONS, NLM_F_DUMP, pid);
}

/* GET's rules and GET_REGIONS' regions, over two messages, in order. */
static void test_get_regions_round_trip(void **state)
{
	const struct reg r[] = { { 0x1000, 64, 0x400000, 0x8000 },
				 { 0x2000, 4, 0, 2 },
				 { 0x3000, 400, 0x500000, 0x10000 } };
	struct profil_handle *h = open_handle();
	struct profil_regions *got = profil_regions_alloc();
	struct nlmsghdr *m1 = regions_msg(), *m2 = regions_msg();
	uint64_t buf, size, off;
	uint32_t scale;
	size_t i;

	(void)state;
	put_region(m1, &r[0], true, true);
	put_region(m1, &r[1], false, true);
	put_region(m2, &r[2], false, true);
	expect_get_regions();
	queue_get(PROFIL_COUNTER_U32, PROFIL_MODE_SATURATE, 3);
	expect_dump_regions();
	mock_queue(m1, false);
	mock_queue(m2, false);
	mock_queue_done(0);
	assert_int_equal(profil_session_get_regions(h, 42, got), 0);
	assert_int_equal(profil_regions_counter(got), PROFIL_COUNTER_U32);
	assert_int_equal(profil_regions_mode(got), PROFIL_MODE_SATURATE);
	assert_int_equal(profil_regions_count(got), 3);
	for (i = 0; i < 3; i++) {
		assert_int_equal(profil_regions_get(got, i, &buf, &size, &off,
						    &scale), 0);
		assert_int_equal(buf, r[i].buf);
		assert_int_equal(size, r[i].size);
		assert_int_equal(off, r[i].offset);
		assert_int_equal(scale, r[i].scale);
	}
	profil_regions_free(got);
	profil_handle_close(h);
}

/* More than the set can hold: E2BIG, what fit is kept. */
static void test_get_regions_e2big(void **state)
{
	const struct reg r = { 0x2000, 4, 0x600000, 2 };
	struct profil_handle *h = open_handle();
	struct profil_regions *got = profil_regions_alloc();
	struct nlmsghdr *m = regions_msg();
	size_t i;

	(void)state;
	for (i = 0; i < PROFIL_REGIONS_MAX - 1; i++)
		assert_int_equal(profil_regions_add(got, 0x1000, 2, 0, 2), 0);
	put_region(m, &r, false, true);
	put_region(m, &r, false, true);
	expect_get_regions();
	queue_get(PROFIL_COUNTER_U16, PROFIL_MODE_WRAP, 2);
	expect_dump_regions();
	mock_queue(m, false);
	errno = 0;
	assert_int_equal(profil_session_get_regions(h, 42, got), -1);
	assert_int_equal(errno, E2BIG);
	assert_int_equal(profil_regions_count(got), PROFIL_REGIONS_MAX);
	profil_regions_free(got);
	profil_handle_close(h);
}

/* A region without SCALE is malformed: EPROTO. */
static void test_get_regions_malformed(void **state)
{
	const struct reg r = { 0x2000, 4, 0x600000, 2 };
	struct profil_handle *h = open_handle();
	struct profil_regions *got = profil_regions_alloc();
	struct nlmsghdr *m = regions_msg();

	(void)state;
	put_region(m, &r, false, false);
	expect_get_regions();
	queue_get(PROFIL_COUNTER_U16, PROFIL_MODE_WRAP, 1);
	expect_dump_regions();
	mock_queue(m, false);
	errno = 0;
	assert_int_equal(profil_session_get_regions(h, 42, got), -1);
	assert_int_equal(errno, EPROTO);
	assert_int_equal(profil_regions_count(got), 0);
	profil_regions_free(got);
	profil_handle_close(h);
}

/* No session: GET's ENOENT, and no dump is asked for. */
static void test_get_regions_enoent(void **state)
{
	struct profil_handle *h = open_handle();
	struct profil_regions *got = profil_regions_alloc();

	(void)state;
	expect_get_regions();
	mock_queue_error(ENOENT, "process is not profiled", true);
	errno = 0;
	assert_int_equal(profil_session_get_regions(h, 42, got), -1);
	assert_int_equal(errno, ENOENT);
	assert_int_equal(mock_requests, 2);
	profil_regions_free(got);
	profil_handle_close(h);
}

/*
 * sprofil()
 */

static void expect_get_own(void)
{
	mock_expect_request(PROFIL_CMD_GET, NLM_F_ACK, NULL);
}

static void queue_not_profiled(void)
{
	mock_queue_error(ENOENT, "process is not profiled", true);
}

static void queue_status(uint32_t state, uint32_t rate)
{
	struct profil_status st = { .pid = 42, .state = state, .rate = rate };

	mock_queue(mock_msg_status(PROFIL_CMD_GET, 0, &st), false);
	mock_queue_ack();
}

static struct prof prof(uint64_t base, size_t size, size_t off,
			unsigned long scale)
{
	return (struct prof){ (void *)(uintptr_t)base, size, off, scale };
}

/* Argument errors: -1 and errno, and nothing sent. */
static void test_sprofil_args(void **state)
{
	struct prof p[2] = { prof(0x1000, 64, 0x400000, 0x10000),
			     prof(0x2000, 64, 0x500000, 0x10000) };
	struct timeval tv = { 7, 7 };

	(void)state;
	errno = 0;
	assert_int_equal(sprofil(p, -1, &tv, 0), -1);
	assert_int_equal(errno, EINVAL);
	errno = 0;
	assert_int_equal(sprofil(NULL, 1, &tv, 0), -1);
	assert_int_equal(errno, EFAULT);
	p[1].pr_scale = 0x100000000UL;	/* glibc would truncate it */
	errno = 0;
	assert_int_equal(sprofil(p, 2, &tv, PROF_UINT), -1);
	assert_int_equal(errno, EINVAL);
	assert_non_null(profil_last_extack());
	p[1] = prof(UINTPTR_MAX - 3, 16, 0x500000, 0x10000);
	errno = 0;
	assert_int_equal(sprofil(p, 2, &tv, 0), -1);
	assert_int_equal(errno, EFAULT);
	assert_int_equal(mock_requests, 0);
	assert_int_equal(tv.tv_sec, 7);		/* untouched on failure */
	assert_int_equal(tv.tv_usec, 7);
}

/* More regions than a set holds: E2BIG; those glibc ignores don't count. */
static void test_sprofil_too_many(void **state)
{
	static struct prof p[PROFIL_REGIONS_MAX + 1];
	static struct reg r[PROFIL_REGIONS_MAX];
	struct want w = { r, PROFIL_REGIONS_MAX, -1, PROFIL_COUNTER_U16,
			  PROFIL_MODE_SATURATE, -1, -1 };
	size_t i;

	(void)state;
	for (i = 0; i <= PROFIL_REGIONS_MAX; i++)
		p[i] = prof(0x10000 + 2 * i, 2, 0x400000 + 64 * i, 0x10000);
	errno = 0;
	assert_int_equal(sprofil(p, PROFIL_REGIONS_MAX + 1, NULL, 0), -1);
	assert_int_equal(errno, E2BIG);
	assert_int_equal(mock_requests, 0);

	p[0].pr_scale = 1;
	for (i = 0; i < PROFIL_REGIONS_MAX; i++)
		r[i] = (struct reg){ 0x10000 + 2 * (i + 1), 2,
				     0x400000 + 64 * (i + 1), 0x10000 };
	expect_resolve();
	expect_get_own();
	queue_not_profiled();
	expect_regions(PROFIL_CMD_START, &w);
	mock_queue_ack();
	assert_int_equal(sprofil(p, PROFIL_REGIONS_MAX + 1, NULL, 0), 0);
}

/*
 * PROF_UINT: u32 counters; saturating; PROFIL_HZ's rate and its period;
 * a scale below 2 and a region too small for one counter left out.
 */
static void test_sprofil_layout(void **state)
{
	struct prof p[] = {
		prof(0x1000, 64, 0x400000, 0x10000),
		prof(0x2000, 64, 0x300000, 1),		/* scale < 2 */
		prof(0x3000, 3, 0x500000, 0x10000),	/* < one u32 */
		prof(0x4000, 4, 0, 2),			/* overflow bin */
	};
	const struct reg r[] = { { 0x1000, 64, 0x400000, 0x10000 },
				 { 0x4000, 4, 0, 2 } };
	struct want w = { r, 2, -1, PROFIL_COUNTER_U32, PROFIL_MODE_SATURATE,
			  1000, -1 };
	struct timeval tv = { 7, 7 };

	(void)state;
	setenv("PROFIL_HZ", "1000", 1);
	expect_resolve();
	expect_get_own();
	queue_not_profiled();
	expect_regions(PROFIL_CMD_START, &w);
	mock_queue_ack();
	errno = 1234;
	assert_int_equal(sprofil(p, 4, &tv, PROF_UINT | PROF_FAST), 0);
	assert_int_equal(errno, 1234);	/* success leaves errno alone */
	assert_int_equal(tv.tv_sec, 0);
	assert_int_equal(tv.tv_usec, 1000);
	assert_null(profil_last_extack());
}

/* PROF_USHORT and the kernel's default rate: 10 ms. */
static void test_sprofil_default_rate(void **state)
{
	struct prof p[] = { prof(0x1000, 3, 0x400000, 0x8000) };
	const struct reg r[] = { { 0x1000, 3, 0x400000, 0x8000 } };
	struct want w = { r, 1, -1, PROFIL_COUNTER_U16, PROFIL_MODE_SATURATE,
			  -1, -1 };
	struct timeval tv = { 7, 7 };

	(void)state;
	expect_resolve();
	expect_get_own();
	queue_status(PROFIL_STATE_STOPPED, 1000);	/* stopped: start */
	expect_regions(PROFIL_CMD_START, &w);
	mock_queue_ack();
	assert_int_equal(sprofil(p, 1, &tv, PROF_USHORT), 0);
	assert_int_equal(tv.tv_sec, 0);
	assert_int_equal(tv.tv_usec, 10000);
}

/*
 * A call while the session is active turns it off, whatever its
 * arguments (a bad PROFIL_HZ too), and returns the running rate's period;
 * the next call starts again (glibc's third call frees twice).
 */
static void test_sprofil_second_call_stops(void **state)
{
	struct prof p[] = { prof(0x1000, 64, 0x400000, 0x10000) };
	const struct reg r[] = { { 0x1000, 64, 0x400000, 0x10000 } };
	struct want w = { r, 1, -1, PROFIL_COUNTER_U16, PROFIL_MODE_SATURATE,
			  250, -1 };
	struct timeval tv = { 7, 7 };

	(void)state;
	setenv("PROFIL_HZ", "bogus", 1);
	expect_resolve();
	expect_get_own();
	queue_status(PROFIL_STATE_ACTIVE, 500);
	mock_expect_request(PROFIL_CMD_STOP, NLM_F_ACK, NULL);
	mock_queue_ack();
	assert_int_equal(sprofil(p, 1, &tv, 0), 0);
	assert_int_equal(tv.tv_usec, 2000);
	assert_int_equal(mock_requests, 3);

	setenv("PROFIL_HZ", "250", 1);
	expect_get_own();
	queue_status(PROFIL_STATE_STOPPED, 500);
	expect_regions(PROFIL_CMD_START, &w);
	mock_queue_ack();
	assert_int_equal(sprofil(p, 1, &tv, 0), 0);
	assert_int_equal(tv.tv_usec, 4000);
}

/* Nothing to count (no region, or only ignored ones): nothing started. */
static void test_sprofil_nothing_to_count(void **state)
{
	struct prof p[] = { prof(0x1000, 64, 0x400000, 0),
			    prof(0x2000, 1, 0x500000, 0x10000) };
	struct timeval tv = { 7, 7 };

	(void)state;
	expect_resolve();
	expect_get_own();
	queue_not_profiled();
	assert_int_equal(sprofil(p, 2, &tv, 0), 0);
	assert_int_equal(tv.tv_usec, 10000);
	expect_get_own();
	queue_not_profiled();
	assert_int_equal(sprofil(NULL, 0, NULL, 0), 0);
	assert_int_equal(mock_requests, 3);	/* no START */
}

/* A bad PROFIL_HZ fails a call that would start, after the GET. */
static void test_sprofil_bad_hz(void **state)
{
	struct prof p[] = { prof(0x1000, 64, 0x400000, 0x10000) };

	(void)state;
	setenv("PROFIL_HZ", "5", 1);
	expect_resolve();
	expect_get_own();
	queue_not_profiled();
	errno = 0;
	assert_int_equal(sprofil(p, 1, NULL, 0), -1);
	assert_int_equal(errno, EINVAL);
	assert_int_equal(mock_requests, 2);
}

static void test_sprofil_module_absent(void **state)
{
	struct prof p[] = { prof(0x1000, 64, 0x400000, 0x10000) };

	(void)state;
	mock_expect_getfamily();
	mock_queue_error(ENOENT, NULL, true);
	errno = 0;
	assert_int_equal(sprofil(p, 1, NULL, 0), -1);
	assert_int_equal(errno, ENOSYS);
}

/* The kernel's refusal and its text; the period is not written. */
static void test_sprofil_kernel_error(void **state)
{
	struct prof p[] = { prof(0x1000, 64, 0x400000, 0x10000) };
	const struct reg r[] = { { 0x1000, 64, 0x400000, 0x10000 } };
	struct want w = { r, 1, -1, PROFIL_COUNTER_U16, PROFIL_MODE_SATURATE,
			  -1, -1 };
	struct timeval tv = { 7, 7 };

	(void)state;
	expect_resolve();
	expect_get_own();
	queue_not_profiled();
	expect_regions(PROFIL_CMD_START, &w);
	mock_queue_error(EFAULT, "region buffer is not in user space", true);
	errno = 0;
	assert_int_equal(sprofil(p, 1, &tv, 0), -1);
	assert_int_equal(errno, EFAULT);
	assert_string_equal(profil_strerror(),
			    "region buffer is not in user space");
	assert_int_equal(tv.tv_sec, 7);
	assert_int_equal(tv.tv_usec, 7);
}

/* The module went away and came back: a bare ENOENT resolves again. */
static void test_sprofil_family_reloaded(void **state)
{
	struct prof p[] = { prof(0x1000, 64, 0x400000, 0x10000) };
	const struct reg r[] = { { 0x1000, 64, 0x400000, 0x10000 } };
	struct want w = { r, 1, -1, PROFIL_COUNTER_U16, PROFIL_MODE_SATURATE,
			  -1, -1 };

	(void)state;
	expect_resolve();
	expect_get_own();
	mock_queue_error(ENOENT, NULL, true);
	expect_resolve();
	expect_get_own();
	queue_not_profiled();
	expect_regions(PROFIL_CMD_START, &w);
	mock_queue_ack();
	assert_int_equal(sprofil(p, 1, NULL, 0), 0);
	assert_int_equal(mock_requests, 5);
}

int main(void)
{
#define T(f) cmocka_unit_test_setup(f, setup)
	const struct CMUnitTest tests[] = {
		T(test_regions_add_args),
		T(test_regions_max),
		T(test_regions_get),
		T(test_regions_rules),
		T(test_start_regions_one_large_message),
		T(test_start_regions_largest),
		T(test_start_regions_args),
		T(test_start_regions_kernel_error),
		T(test_add_regions_layout),
		T(test_get_regions_round_trip),
		T(test_get_regions_e2big),
		T(test_get_regions_malformed),
		T(test_get_regions_enoent),
		T(test_sprofil_args),
		T(test_sprofil_too_many),
		T(test_sprofil_layout),
		T(test_sprofil_default_rate),
		T(test_sprofil_second_call_stops),
		T(test_sprofil_nothing_to_count),
		T(test_sprofil_bad_hz),
		T(test_sprofil_module_absent),
		T(test_sprofil_kernel_error),
		T(test_sprofil_family_reloaded),
	};

	return cmocka_run_group_tests_name("libprofil region sets", tests,
					   NULL, NULL);
}
