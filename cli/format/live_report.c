// SPDX-License-Identifier: GPL-2.0
/*
 * The report of run, attach, show and stop: on standard error, so that
 * the program's standard output stays its own (show: on standard output),
 * or in -o FILE; in --format (one
 * gmon.out per object for gmon); the saved profile in --save FILE; and
 * the kernel's accounting on standard error, last.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "ctl.h"
#include "live.h"
#include "profile_file.h"
#include "profile_report.h"

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

/* Write @p to @path with @fn; a failed file is removed. */
static int write_file(const char *op, const char *path,
		      int (*fn)(const char *op, FILE *f,
				const struct profile *p,
				const struct live_opts *o),
		      const struct profile *p, const struct live_opts *o)
{
	FILE *f = fopen(path, "we");
	int ret;

	if (!f) {
		ctl_errorf(op, "%s: %s", path, strerror(errno));
		return -1;
	}
	ret = fn(op, f, p, o);
	if (fclose(f) && !ret)
		ret = -1;
	if (ret) {
		ctl_errorf(op, "%s: %s", path, strerror(errno));
		unlink(path);
	}
	return ret;
}

static int render_to(const char *op, FILE *f, const struct profile *p,
		     const struct live_opts *o)
{
	return profile_report(f, p, &o->report, o->per_process, op);
}

static int save_to(const char *op, FILE *f, const struct profile *p,
		   const struct live_opts *o)
{
	(void)op;
	(void)o;
	return profile_save(f, p);
}

int live_profile_report(const char *op, const struct profile *p,
			const struct live_opts *o)
{
	int ret = 0;

	if (o->report.gmon)
		ret = profile_write_gmon(o->output, p, op);
	else if (o->output)
		ret = write_file(op, o->output, render_to, p, o);
	else
		ret = profile_report(o->report_stdout ? stdout : stderr, p,
				     &o->report, o->per_process, op);
	if (o->save && write_file(op, o->save, save_to, p, o))
		ret = -1;
	live_accounting(op, p);
	return ret;
}
