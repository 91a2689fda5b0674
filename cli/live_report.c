// SPDX-License-Identifier: GPL-2.0
/*
 * The report of run and attach: on standard error, so that the program's
 * standard output stays its own; and in -o FILE, in --format.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "ctl.h"
#include "live.h"

/* Until the whole-program renderer lands: objects and their shares. */
static int profile_summary(FILE *out, const struct profile *p)
{
	uint64_t total = profile_total(p), n;
	size_t i;

	fprintf(out, "# %" PRIu64 " user samples at %u Hz; %% of all user "
		"samples\n", total, p->rate);
	for (i = 0; i < p->nobjects; i++) {
		n = profile_object_total(p, i);
		if (!n)
			continue;
		fprintf(out, "%6.2f%% %10" PRIu64 "  %s\n",
			100.0 * (double)n / (double)total, n,
			p->objects[i].path);
	}
	return ferror(out) ? -1 : 0;
}

/*
 * The kernel's accounting of the whole run in one line on standard
 * error, last, as perf record ends with its summary: what the samples
 * stand for, and what they do not.
 */
static void live_accounting(const char *op, const struct profile *p)
{
	const struct profile_acct *a = &p->acct;

	fprintf(stderr, "profil-ctl %s: %zu process%s: %" PRIu64 " ticks at "
		"%u Hz, %" PRIu64 " periods missed (late clock); %" PRIu64
		" user samples, %" PRIu64 " outside any mapping, %" PRIu64
		" in the kernel, %" PRIu64 " lost (%" PRIu64 " at exec)\n",
		op, p->nprocesses, p->nprocesses == 1 ? "" : "es", a->ticks,
		p->rate, a->missed, profile_total(p), a->outside, a->kernel,
		a->lost + a->lost_exec, a->lost_exec);
}

int live_profile_report(const char *op, const struct profile *p,
			const struct live_opts *o)
{
	FILE *out;
	int ret;

	ret = profile_summary(stderr, p);
	live_accounting(op, p);
	if (!o->output)
		return ret;
	out = fopen(o->output, "we");
	if (!out) {
		ctl_errorf(op, "%s: %s", o->output, strerror(errno));
		return -1;
	}
	ret = profile_summary(out, p);
	if (fclose(out) && !ret)
		ret = -1;
	if (ret) {
		ctl_errorf(op, "%s: %s", o->output, strerror(errno));
		unlink(o->output);
	}
	return ret;
}
