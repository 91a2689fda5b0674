// SPDX-License-Identifier: GPL-2.0
/*
 * What the live commands share (live.h): the netlink handle and its
 * messages, and a program's own profiling buffer, its counters read
 * with process_vm_readv(), rendered by report_render().
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/utsname.h>

#include "ctl.h"
#include "live.h"
#include "report.h"

int live_parse_pid(const char *s, pid_t *pid)
{
	unsigned long long v;

	if (ctl_parse_u64(s, 1, INT_MAX, &v) < 0)
		return -1;
	*pid = (pid_t)v;
	return 0;
}

/*
 * Whether the running kernel has a profil module to load: a line of its
 * modules.dep naming profil.ko (DKMS's updates/dkms/profil.ko, make
 * install's extra/profil.ko, compressed or not).
 */
static bool live_module_installed(void)
{
	struct utsname u;
	char path[320], line[4096];
	bool found = false;
	FILE *f;

	if (uname(&u) < 0)
		return true;
	snprintf(path, sizeof(path), "/lib/modules/%s/modules.dep", u.release);
	f = fopen(path, "r");
	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':');

		if (!colon)
			continue;
		*colon = '\0';
		found = !strcmp(line, "profil.ko") ||
			strstr(line, "/profil.ko") != NULL;
	}
	fclose(f);
	return found;
}

/* The kernel series the module is built for (dkms.conf.in). */
static bool live_series_supported(const char *release)
{
	return !strncmp(release, "6.1.", 4) || !strncmp(release, "6.12.", 5);
}

struct profil_handle *live_open(const char *op)
{
	struct profil_handle *h = profil_handle_open();
	struct utsname u;
	int err = errno;

	if (h)
		return h;
	if (err != ENOSYS) {
		ctl_perror_lib(op);
	} else if (!live_module_installed() && uname(&u) == 0) {
		if (live_series_supported(u.release))
			ctl_errorf(op, "%s: no profil module installed for "
				   "Linux %s (profil-dkms builds it when the "
				   "kernel's headers are installed; `dkms status "
				   "profil` lists the kernels it was built for)",
				   strerror(err), u.release);
		else
			ctl_errorf(op, "%s: Linux %s is not supported: the "
				   "profil module is built for the 6.1 and 6.12 "
				   "series only", strerror(err), u.release);
	} else {
		ctl_errorf(op, "%s (is profil.ko loaded? it is installed but did "
			   "not load: `sudo modprobe profil` says why)",
			   strerror(err));
	}
	errno = err;
	return NULL;
}

const char *live_module_version(char *buf, size_t len)
{
	FILE *f = fopen("/sys/module/profil/version", "r");

	if (!f)
		return access("/sys/module/profil", F_OK) ? NULL : "none";
	if (!fgets(buf, (int)len, f))
		buf[0] = '\0';
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	return buf;
}

static int live_read_counts(const char *op, pid_t pid, uint64_t buf,
			    size_t nbins, uint16_t **counts)
{
	int err;

	*counts = malloc(nbins * sizeof(**counts));
	if (!*counts) {
		ctl_perror(op);
		return -1;
	}
	err = target_read(pid, buf, *counts, nbins * sizeof(**counts));
	if (err) {
		ctl_errorf(op, "process %d: reading its buffer at %#llx: %s",
			   (int)pid, (unsigned long long)buf, strerror(-err));
		free(*counts);
		*counts = NULL;
		return -1;
	}
	return 0;
}

int live_session_get(struct profil_handle *h, pid_t pid,
		     struct profil_status *st, uint64_t *missed)
{
	uint64_t stats[PROFIL_STAT_MAX + 1];

	if (profil_session_get(h, pid, st) < 0 ||
	    profil_session_get_stats(h, pid, stats, PROFIL_STAT_MAX + 1) < 0)
		return -1;
	*missed = stats[PROFIL_STAT_MISSED];
	return 0;
}

int live_snapshot(const char *op, const struct profil_status *st,
		  struct hist *hist)
{
	struct target_text t;
	uint64_t bias = 0, end;
	uint16_t *counts;
	size_t nbins = st->bufsiz / 2;
	int ret, err;

	if (st->state == PROFIL_STATE_STOPPED &&
	    st->reason == PROFIL_STOP_EXEC) {
		ctl_errorf(op, "process %d: its session stopped at execve(): "
			   "the buffer went with the old program", st->pid);
		return -1;
	}
	if (!nbins || !st->scale ||
	    livebuf_range_end(st->offset, nbins, st->scale, &end) < 0) {
		ctl_errorf(op, "process %d: the buffer holds no counter",
			   st->pid);
		return -1;
	}
	if (st->bufsiz > LIVE_MAX_SNAPSHOT) {
		ctl_errorf(op, "process %d: a buffer of %llu bytes is too "
			   "large to read", st->pid,
			   (unsigned long long)st->bufsiz);
		return -1;
	}
	err = target_text(st->pid, &t);
	if (!err && st->offset < t.end && t.start < end &&
	    st->offset >= t.bias) {
		bias = t.bias;
		hist->binary = strdup(t.exe);
	} else {
		ctl_errorf(op, "note: process %d: the buffer does not cover "
			   "its executable's text: raw addresses", st->pid);
	}
	if (!err)
		target_text_free(&t);
	if (live_read_counts(op, st->pid, st->buf, nbins, &counts) < 0)
		return -1;
	ret = livebuf_to_hist(counts, nbins, st->offset, st->scale, bias,
			      hist);
	free(counts);
	if (ret) {
		ctl_perror(op);
		return -1;
	}
	hist->rate = st->rate;
	return 0;
}

/*
 * The kernel's accounting in one line on standard error: what the
 * samples stand for, and what they do not (periods the clock missed,
 * ticks outside the range or in the kernel).
 */
static void live_summary(const char *op, const struct profil_status *st,
			 uint64_t missed)
{
	const struct profil_stats *s = &st->stats;

	fprintf(stderr, "profil-ctl %s: process %d: %" PRIu64 " ticks at %u Hz"
		", %" PRIu64 " periods missed (late clock); %" PRIu64
		" in the profiled range, %" PRIu64 " outside it, %" PRIu64
		" in the kernel\n", op, (int)st->pid, s->ticks, st->rate,
		missed, s->in_range, s->out_of_range, s->system_dropped);
}

int live_report(const char *op, const struct hist *hist,
		const struct profil_status *st, uint64_t missed,
		const struct live_opts *o)
{
	struct report_opts ro = o->report;
	struct render_ticks ticks;
	FILE *out = stdout;
	int ret;

	if (st) {
		live_summary(op, st, missed);
		ticks = (struct render_ticks){
			.ticks = st->stats.ticks,
			.out_of_range = st->stats.out_of_range,
			.system_dropped = st->stats.system_dropped,
		};
		ro.render.ticks = &ticks;
	}
	if (o->output) {
		out = fopen(o->output, ro.gmon ? "wbe" : "we");
		if (!out) {
			ctl_errorf(op, "%s: %s", o->output, strerror(errno));
			return CTL_EXIT_FAIL;
		}
	}
	ret = report_render_cmd(op, hist, &ro, out);
	if (out != stdout && fclose(out) && !ret) {
		ctl_errorf(op, "%s: %s", o->output, strerror(errno));
		ret = -1;
	}
	if (ret && out != stdout)
		unlink(o->output);
	return ret ? CTL_EXIT_FAIL : CTL_EXIT_OK;
}
