/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the security programs share (security_test, security_bounds_test,
 * security_peer_test): dropping to nobody (65534) when run as root, and
 * a session of the caller's whose buffer faults. Each program opens the
 * timer clock to every user for its run (PROFIL_OPEN_TIMER_CLOCK).
 */
#ifndef PROFIL_SELFTEST_SECURITY_H
#define PROFIL_SELFTEST_SECURITY_H

#include <grp.h>
#include <unistd.h>

#include "profil_harness.h"
#include "profil_nl.h"
#include "profil_util.h"

static inline void become_nobody(struct __test_metadata *_metadata)
{
	if (geteuid())
		return;
	ASSERT_EQ(0, setgroups(0, NULL));
	ASSERT_EQ(0, setgid(65534));
	ASSERT_EQ(0, setuid(65534));
	ASSERT_NE(0, geteuid());
}

/*
 * Profile the caller with its buffer at @addr, which every user tick in
 * this program's text writes to; wait until the session stops.
 */
static inline int fault_session(struct pnl *nl, uint64_t addr,
				uint64_t size, struct pnl_status *st)
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

#endif /* PROFIL_SELFTEST_SECURITY_H */
