// SPDX-License-Identifier: GPL-2.0
/*
 * textpatch_load: patch the kernel text profil.ko makes the kernel patch,
 * without profil.ko. Each per-thread task-clock perf event created or
 * closed flips perf's scheduler jump labels (perf_sched_events), and each
 * enable or disable of the sched_stat_runtime trace event patches its
 * static key, while other threads keep switching CPUs through
 * __schedule(). Used to tell a guest kernel's or QEMU's fault from the
 * module's (Documentation/testing/linux-6.12.rst, "The 6.12 guest under
 * multi-threaded TCG").
 *
 * usage: textpatch_load SECONDS [TRACEFS]
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static atomic_bool stop;
static atomic_ulong nr_events, nr_toggles, nr_switches;
static const char *tracefs = "/sys/kernel/tracing";

static void nap_us(unsigned long us)
{
	struct timespec ts = { us / 1000000, (us % 1000000) * 1000 };

	nanosleep(&ts, NULL);
}

/* Per-thread task-clock events, held from 0 to 1.6 s, as profil.ko's. */
static void *event_churn(void *arg)
{
	unsigned int seed = (unsigned int)(unsigned long)arg;
	struct perf_event_attr attr = {
		.size = sizeof(attr),
		.type = PERF_TYPE_SOFTWARE,
		.config = PERF_COUNT_SW_TASK_CLOCK,
		.sample_period = 1000000,
		.exclude_kernel = 1,
	};

	while (!atomic_load(&stop)) {
		int fd = syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0);

		if (fd < 0) {
			perror("perf_event_open");
			exit(1);
		}
		atomic_fetch_add(&nr_events, 1);
		nap_us(rand_r(&seed) % 1600000);
		close(fd);
	}
	return NULL;
}

static void write_enable(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY);

	if (fd < 0 || write(fd, val, 1) != 1) {
		fprintf(stderr, "%s: %s\n", path, strerror(errno));
		exit(1);
	}
	close(fd);
}

/* The sched_stat_runtime tracepoint on and off every 50 ms. */
static void *trace_toggle(void *arg)
{
	char path[256];

	(void)arg;
	snprintf(path, sizeof(path), "%s/events/sched/sched_stat_runtime/enable",
		 tracefs);
	while (!atomic_load(&stop)) {
		write_enable(path, "1");
		nap_us(50000);
		write_enable(path, "0");
		nap_us(50000);
		atomic_fetch_add(&nr_toggles, 1);
	}
	return NULL;
}

/* Two threads hand a byte back and forth: a context switch each way. */
static int ping[2], pong[2];

static void *ping_pong(void *arg)
{
	int in = arg ? ping[0] : pong[0], out = arg ? pong[1] : ping[1];
	char c = 0;

	if (arg && write(out, &c, 1) != 1)
		return NULL;
	while (!atomic_load(&stop) && read(in, &c, 1) == 1) {
		atomic_fetch_add(&nr_switches, 1);
		if (write(out, &c, 1) != 1)
			break;
	}
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t t[8];
	unsigned int secs;
	int i, n = 0;

	if (argc < 2) {
		fprintf(stderr, "usage: %s SECONDS [TRACEFS]\n", argv[0]);
		return 2;
	}
	secs = strtoul(argv[1], NULL, 0);
	if (argc > 2)
		tracefs = argv[2];
	if (pipe(ping) || pipe(pong)) {
		perror("pipe");
		return 1;
	}
	for (i = 0; i < 4; i++)
		pthread_create(&t[n++], NULL, event_churn, (void *)(long)(i + 1));
	pthread_create(&t[n++], NULL, trace_toggle, NULL);
	pthread_create(&t[n++], NULL, ping_pong, (void *)1L);
	pthread_create(&t[n++], NULL, ping_pong, NULL);
	for (i = 0; i < (int)secs; i++) {
		sleep(1);
		if (i % 30 == 29)
			printf("# %d s: %lu events, %lu toggles, %lu switches\n",
			       i + 1, atomic_load(&nr_events),
			       atomic_load(&nr_toggles),
			       atomic_load(&nr_switches));
		fflush(stdout);
	}
	/* The ping-pong pair may sit in read(): exit rather than join. */
	atomic_store(&stop, true);
	printf("ok 1 textpatch_load %u s: %lu events, %lu toggles, %lu switches\n",
	       secs, atomic_load(&nr_events), atomic_load(&nr_toggles),
	       atomic_load(&nr_switches));
	fflush(stdout);
	_exit(0);
}
