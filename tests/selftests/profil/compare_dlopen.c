// SPDX-License-Identifier: GPL-2.0
/*
 * make compare's dlopen case: sleeps 50 ms (so that profil-ctl has
 * covered the mappings of startup), then dlopen()s libcompare_hot.so from
 * its own directory and runs its hot_run(UNITS) (argv[1], millions).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <inttypes.h>
#include <libgen.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct timespec ts = { .tv_nsec = 50 * 1000 * 1000 };
	char self[PATH_MAX], so[PATH_MAX + 32];
	uint64_t (*run)(uint64_t);
	unsigned long units;
	ssize_t n;
	void *h;

	units = argc > 1 ? strtoul(argv[1], NULL, 10) : 20;
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n < 0) {
		perror("readlink");
		return 1;
	}
	self[n] = '\0';
	snprintf(so, sizeof(so), "%s/libcompare_hot.so", dirname(self));
	nanosleep(&ts, NULL);
	h = dlopen(so, RTLD_NOW);
	if (!h) {
		fprintf(stderr, "dlopen: %s\n", dlerror());
		return 1;
	}
	*(void **)&run = dlsym(h, "hot_run");
	if (!run) {
		fprintf(stderr, "dlsym: %s\n", dlerror());
		return 1;
	}
	printf("%" PRIx64 "\n", run(units * 1000000ULL));
	dlclose(h);
	return 0;
}
