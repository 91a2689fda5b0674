/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One machine-wide profile (profil_collect_machine()) shared by the
 * requests that overlap in time (profil-ctl serve). The first request
 * makes it; each takes a baseline of its raw counts when it starts and,
 * at its end, reads the profile again less that baseline (held.h):
 * what was counted during the request, whoever else reads. The last
 * request to end closes the handle, and the kernel frees the profile:
 * between requests there is none, so a server that runs for days holds
 * no profile that grows, and the profile of one burst of requests is
 * bounded by its images and samples (MACHINE_SHARE_IMAGES, the kernel's
 * PROFIL_SAMPLES_DEFAULT). Requests that never leave the server idle (a
 * scraper whose next request starts before the last one ends) would
 * keep one profile for good, full one day: a profile takes new requests
 * for MACHINE_SHARE_MAX_AGE seconds only; a later one waits for those
 * under way to end, and makes the next profile.
 *
 * Every call may come from any thread: one lock covers the handle and
 * the reader.
 */
#ifndef PROFIL_CTL_MACHINE_SHARE_H
#define PROFIL_CTL_MACHINE_SHARE_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "cgroups.h"
#include "held.h"
#include "profile.h"

/* Images the shared profile keeps, as record -a's. */
#define MACHINE_SHARE_IMAGES 65536
/*
 * Seconds a profile takes new requests; then it drains, and is closed
 * (a build may shorten it, to see it happen).
 */
#ifndef MACHINE_SHARE_MAX_AGE
#define MACHINE_SHARE_MAX_AGE 600
#endif

/**
 * struct machine_share - the shared profile
 * @lock: held for every use of @reader and the fields below
 * @cond: signalled by machine_share_stop(), and when a profile is closed
 * @rate: the profile's rate
 * @active: requests between begin and end
 * @stopping: machine_share_stop() was called
 * @reader: the profile's reader; @reader.h NULL while there is none
 * @cgroups: the cgroups, loaded again at each read
 * @profiles: how many profiles were made so far
 * @opened: when the profile was made (CLOCK_MONOTONIC seconds)
 */
struct machine_share {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	uint32_t rate;
	unsigned int active;
	bool stopping;
	struct held_reader reader;
	struct cgroups cgroups;
	uint64_t profiles;
	time_t opened;
};

/**
 * struct machine_req - one request's part
 * @base: the profile's counts when it began
 * @begun: between machine_share_begin() and machine_share_end()
 */
struct machine_req {
	struct held_baseline base;
	bool begun;
};

/**
 * machine_share_init() - a share whose profiles sample at @rate Hz
 * Return: 0, or -1 with errno.
 */
int machine_share_init(struct machine_share *s, uint32_t rate);

/**
 * machine_share_begin() - start request @q: make the profile if there is
 * none, else take @q's baseline of it; first wait for the end of a
 * profile older than MACHINE_SHARE_MAX_AGE
 * @why: the reason when it fails, one line (@len bytes)
 * Return: 0, or -1 with errno (EBUSY: another machine-wide profile runs,
 * a record -a; EPERM: no CAP_PERFMON; ECANCELED: stopping).
 */
int machine_share_begin(struct machine_share *s, struct machine_req *q,
			char *why, size_t len);

/**
 * machine_share_wait() - sleep @seconds, or until machine_share_stop()
 * Return: 0, or -1 with errno ECANCELED when stopped.
 */
int machine_share_wait(struct machine_share *s, unsigned int seconds);

/**
 * machine_share_end() - end request @q (begun): read what the profile
 * counted since its baseline into @out (zeroed by the caller, freed with
 * profile_free()), each process labelled with its cgroup; with @out
 * NULL, nothing read (a request given up). The last request closes the
 * profile. The request ends even when the read fails.
 * Return: 0, or -1 with errno and @why.
 */
int machine_share_end(struct machine_share *s, struct machine_req *q,
		      struct profile *out, char *why, size_t len);

/**
 * machine_share_open() - whether a profile is held now (active requests)
 */
bool machine_share_open(struct machine_share *s);

/** machine_share_stop() - wake every machine_share_wait(), for good. */
void machine_share_stop(struct machine_share *s);

/** machine_share_free() - close the profile if any; no request may run. */
void machine_share_free(struct machine_share *s);

#endif /* PROFIL_CTL_MACHINE_SHARE_H */
