/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Netlink seams for the libprofil unit tests: __wrap_mnl_socket_sendto()
 * checks each request against queued expectations, and
 * __wrap_mnl_socket_recvfrom() returns queued canned datagrams, with seq
 * and portid patched to match the last request unless queued "raw".
 * Link with -Wl,--wrap=mnl_socket_sendto,--wrap=mnl_socket_recvfrom.
 */
#ifndef MOCK_MNL_H
#define MOCK_MNL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct nlmsghdr;
struct profil_status;

#define MOCK_FAMILY_ID	0x2a
/* nlctrl's own "notify" group: joinable without privilege on any host. */
#define MOCK_MCGRP_ID	0x10

/* One expected attribute of a request; a list ends with .type == 0. */
struct mock_attr {
	uint16_t type;
	uint16_t len;	/* 4 or 8, | MOCK_ANY for any value; 0: absent */
	uint64_t value;
};

#define MOCK_ANY	0x100

void mock_mnl_reset(void);

/* Expectations for the next request (in order). */
void mock_expect_getfamily(void);
void mock_expect_request(uint8_t cmd, uint16_t flags,
			 const struct mock_attr *attrs);
void mock_expect_send_error(int err);	/* sendto() fails with err */

/* Canned datagrams for the next recvfrom() calls (in order). */
struct nlmsghdr *mock_msg_genl(uint16_t type, uint16_t flags, uint8_t cmd);
/* @raw: leave seq and portid as built (else patched to the last request). */
void mock_queue(const struct nlmsghdr *nlh, bool raw);
/* Seq patched, but the portid of another socket. */
void mock_queue_foreign(const struct nlmsghdr *nlh);
struct nlmsghdr *mock_msg_ack(void);
void mock_queue_family(const char *grp_name, uint32_t grp_id);
void mock_queue_ack(void);
void mock_queue_error(int err, const char *extack, bool capped);
void mock_queue_done(int err);
void mock_queue_recv_error(int err);
/* A PROFIL_CMD_GET reply (or STOPPED event) carrying every field of @st. */
struct nlmsghdr *mock_msg_status(uint8_t cmd, uint16_t flags,
				 const struct profil_status *st);

/*
 * Hooks for a round trip made by a thread other than the test's: cmocka's
 * queues are thread-local, so such a thread must not reach them. When set,
 * a hook serves the call instead (its return value is the call's); the
 * request is still recorded (mock_last_request, mock_requests), and
 * mock_put_ack() writes an ACK to it. A recv hook may block, holding the
 * thread inside the library's round trip and under its locks. Reset to
 * NULL by mock_mnl_reset().
 */
extern ssize_t (*mock_send_hook)(size_t len);
extern ssize_t (*mock_recv_hook)(void *buf, size_t bufsiz);
ssize_t mock_put_ack(void *buf, size_t bufsiz);

/* The last request sent, as the library built it. */
extern const struct nlmsghdr *mock_last_request;
extern unsigned int mock_requests;

#endif /* MOCK_MNL_H */
