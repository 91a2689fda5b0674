// SPDX-License-Identifier: GPL-2.0
/*
 * One machine-wide profile shared by overlapping requests
 * (machine_share.h).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "livebuf.h"
#include "machine_share.h"

int machine_share_init(struct machine_share *s, uint32_t rate)
{
	pthread_condattr_t ca;
	int err;

	memset(s, 0, sizeof(*s));
	s->rate = rate;
	s->reader = (struct held_reader){
		.op = "serve",
		.rate = rate,
		.bin_bytes = LIVEBUF_DEFAULT_BIN_BYTES,
		.cgroups = &s->cgroups,
	};
	err = pthread_condattr_init(&ca);
	if (!err)
		err = pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	if (!err)
		err = pthread_cond_init(&s->cond, &ca);
	pthread_condattr_destroy(&ca);
	if (!err)
		err = pthread_mutex_init(&s->lock, NULL);
	if (err) {
		errno = err;
		return -1;
	}
	return 0;
}

static time_t now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec;
}

/* The profile made, under the lock: the first request's. */
static int share_open(struct machine_share *s, char *why, size_t len)
{
	const struct profil_machine_params p = {
		.rate = s->rate,
		.images_max = MACHINE_SHARE_IMAGES,
		.cgroup_fd = -1,
	};
	int err;

	s->reader.h = profil_handle_open();
	if (!s->reader.h) {
		err = errno;
		snprintf(why, len, "cannot reach profil.ko: %s",
			 profil_strerror());
		errno = err;
		return -1;
	}
	if (profil_collect_machine(s->reader.h, &p) < 0) {
		err = errno;
		snprintf(why, len, "%s", profil_strerror());
		profil_handle_close(s->reader.h);
		s->reader.h = NULL;
		errno = err;
		return -1;
	}
	s->profiles++;
	s->opened = now();
	return 0;
}

/* The profile closed, under the lock: the kernel frees it. */
static void share_close(struct machine_share *s)
{
	profil_handle_close(s->reader.h);
	s->reader.h = NULL;
	/* Nor does the reader keep what it learnt of files past it. */
	held_reader_free(&s->reader);
	cgroups_free(&s->cgroups);
	/* Requests that wait for a new profile may make it. */
	pthread_cond_broadcast(&s->cond);
}

int machine_share_begin(struct machine_share *s, struct machine_req *q,
			char *why, size_t len)
{
	int ret = 0, err = 0;

	memset(q, 0, sizeof(*q));
	pthread_mutex_lock(&s->lock);
	/* An old profile: let it drain, and make the next one. */
	while (!s->stopping && s->reader.h &&
	       now() - s->opened >= MACHINE_SHARE_MAX_AGE)
		pthread_cond_wait(&s->cond, &s->lock);
	if (s->stopping) {
		snprintf(why, len, "the server is stopping");
		err = ECANCELED;
		ret = -1;
	} else if (!s->reader.h) {
		/* A new profile: nothing to subtract. */
		ret = share_open(s, why, len);
		err = errno;
	} else if (held_baseline_take(&s->reader, &q->base)) {
		err = errno;
		snprintf(why, len, "reading the profile: %s", strerror(err));
		ret = -1;
	}
	if (!ret) {
		s->active++;
		q->begun = true;
	}
	pthread_mutex_unlock(&s->lock);
	errno = err;
	return ret;
}

int machine_share_wait(struct machine_share *s, unsigned int seconds)
{
	struct timespec until;
	int err = 0;

	clock_gettime(CLOCK_MONOTONIC, &until);
	until.tv_sec += seconds;
	pthread_mutex_lock(&s->lock);
	while (!s->stopping && err != ETIMEDOUT)
		err = pthread_cond_timedwait(&s->cond, &s->lock, &until);
	err = s->stopping ? ECANCELED : 0;
	pthread_mutex_unlock(&s->lock);
	errno = err;
	return err ? -1 : 0;
}

int machine_share_end(struct machine_share *s, struct machine_req *q,
		      struct profile *out, char *why, size_t len)
{
	int ret = -1, err = EINVAL;

	if (!q->begun) {
		snprintf(why, len, "no request");
		errno = err;
		return -1;
	}
	pthread_mutex_lock(&s->lock);
	if (!out) {
		ret = 0; /* ended unread */
		err = 0;
	} else if (cgroups_load(&s->cgroups, CGROUPS_ROOT)) {
		err = errno;
		snprintf(why, len, "listing the cgroups: %s", strerror(err));
	} else {
		ret = held_read_since(&s->reader, &q->base, out, NULL);
		err = errno;
		if (ret)
			snprintf(why, len, "reading the profile: %s",
				 strerror(err));
	}
	q->begun = false;
	if (!--s->active)
		share_close(s);
	pthread_mutex_unlock(&s->lock);
	held_baseline_free(&q->base);
	errno = err;
	return ret;
}

bool machine_share_open(struct machine_share *s)
{
	bool open;

	pthread_mutex_lock(&s->lock);
	open = s->reader.h != NULL;
	pthread_mutex_unlock(&s->lock);
	return open;
}

void machine_share_stop(struct machine_share *s)
{
	pthread_mutex_lock(&s->lock);
	s->stopping = true;
	pthread_cond_broadcast(&s->cond);
	pthread_mutex_unlock(&s->lock);
}

void machine_share_free(struct machine_share *s)
{
	if (s->reader.h)
		share_close(s);
	held_reader_free(&s->reader);
	cgroups_free(&s->cgroups);
	pthread_cond_destroy(&s->cond);
	pthread_mutex_destroy(&s->lock);
}
