// SPDX-License-Identifier: GPL-2.0
/*
 * What a scheduler tick costs a task while another session samples many
 * threads: the tick's probe looks the current task up among every
 * profiled thread of the machine, so its cost must not grow with them.
 *
 * A holder process samples itself on the scheduler-tick clock and keeps
 * 1, 10^3, 10^4 and 3x10^4 threads asleep in it, each with its record in
 * the module's thread table. For each count this process times a fixed
 * loop unprofiled and profiled (its own session, on the same clock), next
 * to a baseline without any session, and prints guest-ns per tick (ticks
 * counted as local timer interrupts, /proc/interrupts' LOC) and per
 * sample. Meant for `make bench`: one vCPU, -icount, where guest time
 * counts instructions. Needs the pid_max, threads-max and max_map_count
 * that tests/bench/run.sh sets.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../selftests/profil/profil_nl.h"
#include "bench_util.h"

#define REPEATS		5
#define WORK_NS		6e9
#define HOLDER_RATE	100

static const unsigned int thread_counts[] = { 1, 1000, 10000, 30000 };

static unsigned short hist[1 << 12];

/* Local timer interrupts so far, over every CPU. */
static unsigned long long timer_ticks(void)
{
	unsigned long long sum = 0, v;
	char line[4096], *p, *end;
	FILE *f = fopen("/proc/interrupts", "r");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		p = line + strspn(line, " ");
		if (strncmp(p, "LOC:", 4))
			continue;
		for (p += 4;; p = end) {
			v = strtoull(p, &end, 10);
			if (end == p)
				break;
			sum += v;
		}
	}
	fclose(f);
	return sum;
}

struct timing {
	double ns;
	double worst;
	unsigned long long ticks;
	uint64_t samples;
};

/*
 * The fastest of REPEATS runs of @n iterations, profiled at @rate or not,
 * and the slowest, whose distance to it bounds the error.
 */
static int timed(struct pnl *nl, unsigned long n, unsigned int rate,
		 struct timing *best)
{
	struct pnl_start req = {
		.buf = (uintptr_t)hist, .bufsiz = sizeof(hist),
		.offset = (uintptr_t)work, .scale = 0x10000, .rate = rate,
	};
	unsigned long long ticks;
	struct pnl_status st;
	double t;
	int i, err;

	best->ns = 1e300;
	best->worst = 0;
	for (i = 0; i < REPEATS; i++) {
		if (rate) {
			err = pnl_start(nl, &req);
			if (err)
				return err;
		}
		ticks = timer_ticks();
		t = now();
		work(n);
		t = now() - t;
		ticks = timer_ticks() - ticks;
		if (rate) {
			pnl_stop(nl, 0);
			err = pnl_get(nl, 0, &st);
			if (err)
				return err;
		}
		if (t > best->worst)
			best->worst = t;
		if (t < best->ns) {
			best->ns = t;
			best->ticks = ticks;
			best->samples = rate ? st.stats[PROFIL_STAT_TICKS] : 0;
		}
	}
	return 0;
}

static void *sleeper(void *arg)
{
	for (;;)
		pause();
	return arg;
}

/*
 * The holder: profiles itself at HOLDER_RATE, then grows to each thread
 * count read from @cmd and answers on @ack once they all exist. Its
 * threads attach themselves to its session as they start.
 */
static void holder(int cmd, int ack)
{
	struct pnl_start req = {
		.buf = (uintptr_t)hist, .bufsiz = sizeof(hist),
		.offset = (uintptr_t)work, .scale = 0x10000, .rate = HOLDER_RATE,
	};
	unsigned int have = 1, want;
	pthread_attr_t attr;
	pthread_t th;
	struct pnl nl;
	int err;

	err = pnl_open(&nl) ?: pnl_start(&nl, &req);
	if (err) {
		printf("# holder: start: %s %s\n", strerror(-err), nl.extack);
		_exit(1);
	}
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, 16384);
	while (read(cmd, &want, sizeof(want)) == sizeof(want)) {
		for (; have < want; have++) {
			err = pthread_create(&th, &attr, sleeper, NULL);
			if (err) {
				printf("# holder: thread %u: %s\n", have,
				       strerror(err));
				_exit(1);
			}
		}
		if (write(ack, &have, sizeof(have)) != sizeof(have))
			_exit(1);
	}
	_exit(0);
}

/*
 * One row: the cost per tick unprofiled and per sample profiled, over the
 * baseline; the error bound is the spread of the baseline's runs.
 */
static void row(const char *what, const struct timing *base,
		const struct timing *unprof, const struct timing *prof)
{
	double spread = base->worst - base->ns;

	printf("# %-31s unprofiled %6.1f +- %4.1f guest-ns/tick (%llu ticks), profiled %6.1f +- %4.1f guest-ns/sample (%lu samples)\n",
	       what, (unprof->ns - base->ns) / unprof->ticks,
	       spread / unprof->ticks, unprof->ticks,
	       (prof->ns - base->ns) / prof->samples, spread / prof->samples,
	       (unsigned long)prof->samples);
}

int main(void)
{
	struct timing base, unprof, prof;
	int cmd[2], ack[2], err;
	unsigned int i, have;
	unsigned long n;
	char what[64];
	struct pnl nl;
	pid_t pid;
	double t;

	err = pnl_open(&nl);
	if (err) {
		printf("# profil family: %s\n", strerror(-err));
		return 1;
	}
	t = now();
	work(10000000);
	n = (unsigned long)(10000000 * WORK_NS / (now() - t));

	/*
	 * The baseline: no session anywhere, so no probe on the tick; after
	 * a first run, which pays for faulting in and warming up.
	 */
	work(n);
	err = timed(&nl, n, 0, &base);
	if (err)
		return 1;
	if (pipe(cmd) || pipe(ack))
		return 1;
	pid = fork();
	if (!pid) {
		close(cmd[1]);
		close(ack[0]);
		holder(cmd[0], ack[1]);
	}
	close(cmd[0]);
	close(ack[1]);
	for (i = 0; i < sizeof(thread_counts) / sizeof(thread_counts[0]);
	     i++) {
		if (write(cmd[1], &thread_counts[i], sizeof(have)) !=
			    sizeof(have) ||
		    read(ack[0], &have, sizeof(have)) != sizeof(have))
			break;
		err = timed(&nl, n, 0, &unprof) ?:
		      timed(&nl, n, HOLDER_RATE, &prof);
		if (err) {
			printf("# start: %s %s\n", strerror(-err), nl.extack);
			break;
		}
		snprintf(what, sizeof(what), "%u threads in another session",
			 have);
		row(what, &base, &unprof, &prof);
	}
	close(cmd[1]);
	waitpid(pid, NULL, 0);
	pnl_close(&nl);
	return err || i < sizeof(thread_counts) / sizeof(thread_counts[0]);
}
