// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * profil(3) as a drop-in for glibc's, driven by profil.ko.
 *
 * No _GNU_SOURCE/_DEFAULT_SOURCE here on purpose: glibc declares profil()
 * with __nonnull((1)), which would let the compiler drop our NULL test.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <libmnl/libmnl.h>

#include "profil.h"
#include "internal.h"

/* One socket shared by every thread, behind one mutex. */
static pthread_mutex_t pf_lock = PTHREAD_MUTEX_INITIALIZER;
static struct pf_nl pf_shared;
static pthread_once_t pf_atfork_once = PTHREAD_ONCE_INIT;

/*
 * pf_lock is held across a kernel round trip. A fork() by another thread
 * meanwhile would give the child a lock that nobody will ever release, so
 * fork() takes it first (prepare) and both sides release it. The shared
 * socket is then consistent in the child, which re-opens it (see owner).
 */
static void pf_lock_take(void)
{
	pthread_mutex_lock(&pf_lock);
}

static void pf_lock_release(void)
{
	pthread_mutex_unlock(&pf_lock);
}

static void pf_atfork_register(void)
{
	pthread_atfork(pf_lock_take, pf_lock_release, pf_lock_release);
}

void pf_profil_atfork(void)
{
	pthread_once(&pf_atfork_once, pf_atfork_register);
}

int pf_profil_env_rate(void)
{
	const char *s = getenv("PROFIL_HZ");
	char *end;
	long hz;

	if (!s || !*s)
		return 0;
	errno = 0;
	hz = strtol(s, &end, 10);
	if (errno || *end || hz < PROFIL_RATE_MIN || hz > PROFIL_RATE_MAX)
		return -1;
	return (int)hz;
}

uint32_t pf_rate_effective(int rate)
{
	return rate > 0 ? (uint32_t)rate : PROFIL_RATE_DEFAULT;
}

void pf_profil_reset(void)
{
	pf_profil_atfork();
	pthread_mutex_lock(&pf_lock);
	pf_nl_close(&pf_shared);
	pthread_mutex_unlock(&pf_lock);
}

/* Opens and resolves the shared socket once per process. Under pf_lock. */
static int pf_shared_get(void)
{
	if (pf_shared.sock && pf_shared.owner != getpid())
		pf_nl_close(&pf_shared);	/* inherited across fork() */
	if (pf_shared.sock && pf_shared.family)
		return 0;
	if (!pf_shared.sock && pf_nl_open(&pf_shared) < 0)
		return -1;
	if (pf_nl_resolve(&pf_shared) < 0) {
		int err = errno;

		pf_nl_close(&pf_shared);
		errno = err;
		return -1;
	}
	return 0;
}

static int pf_own_cb(const struct nlmsghdr *nlh, void *data)
{
	return pf_nl_parse_status(nlh, data, NULL, 0) < 0 ? MNL_CB_ERROR :
								MNL_CB_OK;
}

/*
 * Under pf_lock, the socket resolved: whether this process has an active
 * buffer session on another buffer than @p's, one another tool started.
 * A failed GET (ENOENT: no session) is not busy.
 */
static bool pf_busy_locked(const struct profil_params *p)
{
	struct profil_status st = { 0 };
	struct nlmsghdr *nlh;

	nlh = pf_nl_request(&pf_shared, PROFIL_CMD_GET, NLM_F_ACK);
	if (pf_nl_talk(&pf_shared, nlh, pf_own_cb, &st) < 0)
		return false;
	return st.state == PROFIL_STATE_ACTIVE && st.buf != p->buf;
}

static int pf_start_locked(const struct profil_params *p, bool off,
			   bool own)
{
	struct nlmsghdr *nlh;
	int attempt;

	for (attempt = 0; attempt < 2; attempt++) {
		if (pf_shared_get() < 0) {
			/* No family: nothing can run, so "off" succeeded. */
			if (errno != ENOENT && errno != EPROTONOSUPPORT &&
			    errno != EAFNOSUPPORT)
				return -1;
			if (off)
				return 0;
			pf_err_set(ENOSYS, profil_last_extack());
			return -1;
		}
		if (own && pf_busy_locked(p)) {
			pf_err_set(EBUSY, "busy (EBUSY): this process is "
				   "already profiled into another buffer; "
				   "that session is left alone");
			return -1;
		}
		nlh = pf_nl_request(&pf_shared, PROFIL_CMD_START, NLM_F_ACK);
		pf_nl_put_params(nlh, p);
		if (pf_nl_talk(&pf_shared, nlh, NULL, NULL) == 0)
			return 0;
		if (errno != ENOENT)
			return -1;
		if (off)
			return 0;	/* nothing was running */
		if (profil_last_extack())
			return -1;	/* the kernel's own ENOENT */
		/* A bare ENOENT: the family went away; resolve again. */
		pf_nl_close(&pf_shared);
	}
	return -1;
}

int pf_shared_run(pf_shared_fn fn, void *arg)
{
	int attempt, ret = -1, err;

	pf_profil_atfork();
	pthread_mutex_lock(&pf_lock);
	for (attempt = 0; attempt < 2; attempt++) {
		if (pf_shared_get() < 0) {
			if (errno == ENOENT || errno == EPROTONOSUPPORT ||
			    errno == EAFNOSUPPORT)
				pf_err_set(ENOSYS, profil_last_extack());
			ret = -1;
			break;
		}
		ret = fn(&pf_shared, arg);
		if (ret == 0 || errno != ENOENT || profil_last_extack())
			break;
		/* A bare ENOENT: the family went away; resolve again. */
		pf_nl_close(&pf_shared);
	}
	err = errno;
	pthread_mutex_unlock(&pf_lock);
	errno = err;
	return ret;
}

static int pf_profil_how(unsigned short *buf, size_t bufsiz, size_t offset,
			 unsigned int scale, bool own);

int pf_profil(unsigned short *buf, size_t bufsiz, size_t offset,
	      unsigned int scale)
{
	return pf_profil_how(buf, bufsiz, offset, scale, false);
}

int pf_profil_own(unsigned short *buf, size_t bufsiz, size_t offset,
		  unsigned int scale)
{
	return pf_profil_how(buf, bufsiz, offset, scale, true);
}

static int pf_profil_how(unsigned short *buf, size_t bufsiz, size_t offset,
			 unsigned int scale, bool own)
{
	struct profil_params p = {
		.buf = (uintptr_t)buf,
		.bufsiz = bufsiz,
		.offset = offset,
		.scale = scale,
	};
	bool off = !buf || !scale;
	int rate, ret, err;

	pf_err_clear();
	if (!off) {
		if (bufsiz && (uintptr_t)buf > UINTPTR_MAX - (bufsiz - 1)) {
			pf_err_set(EFAULT, "buffer wraps around the address space");
			return -1;
		}
		rate = pf_profil_env_rate();
		if (rate < 0) {
			pf_err_set(EINVAL, "PROFIL_HZ is not an integer in 10..10000");
			return -1;
		}
		p.rate = (uint32_t)rate;
	}
	pf_profil_atfork();
	pthread_mutex_lock(&pf_lock);
	ret = pf_start_locked(&p, off, own && !off);
	err = errno;
	pthread_mutex_unlock(&pf_lock);
	if (ret == 0)
		pf_err_clear();
	else
		errno = err;
	return ret;
}

PROFIL_EXPORT int profil(unsigned short *buf, size_t bufsiz, size_t offset,
			 unsigned int scale)
{
	int err = errno;
	int ret = pf_profil(buf, bufsiz, offset, scale);

	if (ret == 0)
		errno = err;	/* success leaves errno alone */
	return ret;
}
