// SPDX-License-Identifier: GPL-2.0
/*
 * profil-ctl's gmon.out reader on the host: the seconds gmon_read_mem()
 * takes on files of N TIME_HIST records (10^4, 10^5, 10^6 by default, or
 * the counts given), each its own 16-byte range of 4 bins, in the order
 * a writer emits them and shuffled. Numbers, not a test (the test that
 * the work grows linearly is test_cli_gmon's).
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gmon_read.h"

#define NBINS	4
#define SPAN	16
#define REC_LEN	(1 + 8 + 8 + 4 + 4 + 15 + 1 + 2 * NBINS)

static void put(unsigned char **p, uint64_t v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		*(*p)++ = (unsigned char)(v >> (8 * i));
}

/* @n records; @shuffle: in a pseudo-random order. */
static unsigned char *image(size_t n, int shuffle, size_t *len)
{
	unsigned char *buf = calloc(1, 20 + n * REC_LEN), *p = buf;
	size_t i, j, *order = malloc(n * sizeof(*order));
	uint64_t x = 88172645463325252ULL;

	if (!buf || !order)
		exit(1);
	for (i = 0; i < n; i++)
		order[i] = i;
	for (i = n; shuffle && i > 1; i--) {
		size_t t;

		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		j = x % i;
		t = order[i - 1];
		order[i - 1] = order[j];
		order[j] = t;
	}
	memcpy(p, "gmon\1\0\0\0", 8);
	p += 20;
	for (i = 0; i < n; i++) {
		uint64_t low = 0x400000 + order[i] * 2 * SPAN;

		*p++ = 0;
		put(&p, low, 8);
		put(&p, low + SPAN, 8);
		put(&p, NBINS, 4);
		put(&p, 100, 4);
		memcpy(p, "seconds", 7);
		p += 15;
		*p++ = 's';
		for (j = 0; j < NBINS; j++)
			put(&p, 1, 2);
	}
	free(order);
	*len = (size_t)(p - buf);
	return buf;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void row(size_t n, int shuffle)
{
	struct hist h = { .rate = 0 };
	unsigned char *buf;
	char err[256];
	double t0, t;
	size_t len;

	buf = image(n, shuffle, &len);
	t0 = now();
	if (gmon_read_mem(buf, len, 8, &h, err, sizeof(err))) {
		fprintf(stderr, "gmon_bench: %s\n", err);
		exit(1);
	}
	t = now() - t0;
	printf("gmon.out reader  %8zu records  %-9s %8.3f s  (%zu ranges)\n",
	       n, shuffle ? "shuffled" : "in order", t, h.nranges);
	hist_free(&h);
	free(buf);
}

int main(int argc, char **argv)
{
	static const size_t def[] = { 10000, 100000, 1000000 };
	int i, shuffle;

	for (shuffle = 0; shuffle <= 1; shuffle++) {
		if (argc > 1)
			for (i = 1; i < argc; i++)
				row(strtoul(argv[i], NULL, 10), shuffle);
		else
			for (i = 0; i < 3; i++)
				row(def[i], shuffle);
	}
	return 0;
}
