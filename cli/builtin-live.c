// SPDX-License-Identifier: GPL-2.0
/*
 * profil-ctl start, stop, status and show: sessions that run without
 * profil-ctl watching.
 *
 * start maps a buffer into the process (see live_setup()), starts its
 * session and detaches: the process runs untraced. The mapping begins
 * with a marker page (livebuf.h) that tells stop, later and from another
 * profil-ctl, that the buffer the kernel reports is one profil-ctl mapped
 * and how long the mapping is; stop then unmaps it (the process is
 * seized for that one munmap()). A buffer without the marker is the
 * program's own (profil(), monstartup()) and is never touched.
 *
 * profil.ko lets only the tracer of another process start or stop it or
 * see its buffer's address (CAP_SYS_PTRACE alone is not enough): start,
 * stop and show seize it for their requests, so that ptrace, LSMs
 * included, is the whole rule. status does not: it shows "-" for the
 * addresses it is not given.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <unistd.h>

#include "commands.h"
#include "ctl.h"
#include "live.h"
#include "procmaps.h"
#include "tracer.h"

static const char *const state_names[] = {
	[PROFIL_STATE_ACTIVE] = "active",
	[PROFIL_STATE_STOPPED] = "stopped",
};

static const char *const reason_names[] = {
	[PROFIL_STOP_NONE] = "none",
	[PROFIL_STOP_REQUEST] = "request",
	[PROFIL_STOP_SCALE0] = "scale0",
	[PROFIL_STOP_EXEC] = "exec",
	[PROFIL_STOP_FAULT] = "fault",
	[PROFIL_STOP_EXIT] = "exit",
};

#define NAME_OF(tab, v)							\
	((v) < sizeof(tab) / sizeof((tab)[0]) && (tab)[v] ? (tab)[v] : "?")

/*
 * Parse the options of a command that needs a PID (status: may take one)
 * and nothing else. Return: 0, or what live_parse_opts() returns for an
 * end at once (a usage error, printed, or the help).
 */
static int ctl_parse_pid_cmd(int argc, char **argv, unsigned int set,
			     struct live_opts *o)
{
	int first = live_parse_opts(argc, argv, set | LIVE_OPTS_PID, o);

	if (first < 0)
		return first;
	if (first < argc) {
		ctl_usage_error(argv[0], "unexpected argument '%s'",
				argv[first]);
		return LIVE_PARSE_USAGE;
	}
	if (!o->pid && !(set & LIVE_OPTS_FORMAT)) {
		ctl_usage_error(argv[0], "no PID given");
		return LIVE_PARSE_USAGE;
	}
	return 0;
}

/*
 * Seize @pid and wait for a stop at which to inject. On failure the
 * message is printed; *@exiting tells that it sits in its exit stop.
 */
static int ctl_grab(const char *op, pid_t pid, struct tracer_stop *s)
{
	int err = tracer_seize(pid, 0);

	if (!err) {
		err = tracer_interrupt(pid, s);
		if (err) {
			ptrace(PTRACE_DETACH, pid, 0, 0);
			ctl_errorf(op, "process %d: %s", (int)pid,
				   err == -ESRCH ? "it is exiting" :
				   strerror(-err));
		}
		return err;
	}
	ctl_errorf(op, "process %d: ptrace: %s", (int)pid,
		   tracer_strerror(err));
	return err;
}

/*
 * The session of @pid into @st, STOPped first if @stop, over a handle of
 * its own. With @seize, @pid is seized meanwhile (PTRACE_SEIZE does not
 * stop it): its tracer may stop it and is told its buffer's address. A
 * seize that fails is the reason, printed, unless @pid is profil-ctl's
 * own. PTRACE_DETACH needs a ptrace-stop, hence the interrupt at the end.
 * Return: 0, or -1 after printing why.
 */
static int ctl_session_get(const char *op, pid_t pid, bool stop, bool seize,
			   struct profil_status *st, uint64_t *missed)
{
	struct profil_handle *h = live_open(op);
	struct tracer_stop s;
	bool seized;
	uint64_t unused;
	int ret = 0;

	if (!h)
		return -1;
	seized = false;
	if (seize && pid != getpid()) {
		int err = tracer_seize(pid, 0);

		if (err) {
			ctl_errorf(op, "process %d: ptrace: %s", (int)pid,
				   tracer_strerror(err));
			profil_handle_close(h);
			return -1;
		}
		seized = true;
	}
	if ((stop && profil_session_stop(h, pid) < 0) ||
	    live_session_get(h, pid, st, missed ? missed : &unused) < 0) {
		ctl_perror_lib(op);
		ret = -1;
	}
	if (seized && !tracer_interrupt(pid, &s))
		tracer_resume(pid, &s, false, true);
	profil_handle_close(h);
	return ret;
}

int cmd_start(int argc, char **argv)
{
	struct profil_handle *h;
	struct inject_result res = { .exited = false };
	struct tracer_stop s;
	struct live_buf b;
	struct live_opts o;
	int err;

	err = ctl_parse_pid_cmd(argc, argv, LIVE_OPTS_PROFILE, &o);
	if (err < 0)
		return live_parse_exit(err);
	h = live_open(argv[0]);
	if (!h)
		return CTL_EXIT_FAIL;
	if (live_check_unprofiled(argv[0], h, o.pid) ||
	    ctl_grab(argv[0], o.pid, &s)) {
		profil_handle_close(h);
		return CTL_EXIT_FAIL;
	}
	/* Detach only after START: only a tracer may start another process. */
	err = live_setup(argv[0], h, o.pid, &o, &b, &res);
	profil_handle_close(h);
	if (!res.exited)
		tracer_resume(o.pid, &s, true, true);
	inject_redeliver(o.pid, &res);
	if (err)
		return CTL_EXIT_FAIL;
	printf("process %d: profiling %s [%#" PRIx64 ", %#" PRIx64 "), %"
	       PRIu64 " bytes per counter; %" PRIu64 " bytes of counters at %#"
	       PRIx64 " until \"profil-ctl stop %d\"\n", (int)o.pid,
	       b.text.exe, b.geom.offset - b.text.bias, b.text.end -
	       b.text.bias, o.bin_bytes, b.geom.bufsiz, b.map_addr +
	       live_page_size(), (int)o.pid);
	live_buf_free(&b);
	return CTL_EXIT_OK;
}

/*
 * The mapping that holds @st's buffer, if profil-ctl made it: the marker
 * in the page before the buffer, and private anonymous memory there of
 * (at least) the marker's extent.
 */
static bool ctl_our_mapping(const struct profil_status *st, uint64_t *addr,
			    uint64_t *len)
{
	uint64_t page = live_page_size();
	struct livebuf_marker m;
	struct procmaps_entry *v;
	bool ours = false;
	size_t n, i;

	if (st->buf < page || (st->buf & (page - 1)) ||
	    target_read(st->pid, st->buf - page, &m, sizeof(m)) ||
	    !livebuf_marker_matches(&m, st->bufsiz, page))
		return false;
	if (procmaps_load(st->pid, &v, &n) < 0)
		return false;
	/* Anonymous neighbours with the same protection merge with it. */
	for (i = 0; i < n && !ours; i++)
		ours = v[i].start <= st->buf - page &&
		       v[i].end - (st->buf - page) >= m.map_len &&
		       !strcmp(v[i].perms, "rw-p") && !v[i].path[0];
	free(v);
	*addr = st->buf - page;
	*len = m.map_len;
	return ours;
}

static int ctl_unmap(const char *op, pid_t pid, uint64_t addr, uint64_t len)
{
	struct inject_result res = { .exited = false };
	struct tracer_stop s;
	int err;

	if (ctl_grab(op, pid, &s))
		return -1;
	err = inject_munmap(pid, addr, len, &res);
	if (!res.exited)
		tracer_resume(pid, &s, !err, true);
	inject_redeliver(pid, &res);
	if (err)
		ctl_errorf(op, "process %d: munmap() in it: %s", (int)pid,
			   strerror(-err));
	return err ? -1 : 0;
}

/*
 * stop -o FILE: the final profile, read from the buffer before it is
 * unmapped, written as show -o would. Return: 0, or -1 after printing why.
 */
static int ctl_stop_save(const char *op, const struct profil_status *st,
			 uint64_t missed, const struct live_opts *o)
{
	struct hist hist = { .rate = 0 };
	int ret = -1;

	if (!live_snapshot(op, st, &hist))
		ret = live_report(op, &hist, st, missed, o) == CTL_EXIT_OK ?
		      0 : -1;
	hist_free(&hist);
	return ret;
}

int cmd_stop(int argc, char **argv)
{
	struct profil_status st;
	struct live_opts o;
	uint64_t addr, len, missed;
	const char *what;
	bool failed = false, saved = false;
	int err;

	err = ctl_parse_pid_cmd(argc, argv, LIVE_OPTS_KEEP | LIVE_OPTS_REPORT,
				&o);
	if (err < 0)
		return live_parse_exit(err);
	if (ctl_session_get(argv[0], o.pid, true, true, &st, &missed))
		return CTL_EXIT_FAIL;
	/* The session is STOPped: the counts are final. Save, then unmap. */
	if (o.output) {
		failed = ctl_stop_save(argv[0], &st, missed, &o) < 0;
		saved = !failed;
	}
	if (!ctl_our_mapping(&st, &addr, &len))
		what = "the buffer is not one profil-ctl mapped: left alone";
	else if (o.keep)
		what = "profil-ctl's buffer kept (\"profil-ctl show\" reads "
		       "it, \"profil-ctl stop\" again unmaps it)";
	else if (failed)
		what = "profil-ctl's buffer kept, since the profile could not "
		       "be saved (\"profil-ctl show\" reads it)";
	else if ((failed = ctl_unmap(argv[0], o.pid, addr, len) < 0))
		what = "profil-ctl's buffer could not be unmapped";
	else
		what = "profil-ctl's buffer unmapped";
	printf("process %d: stopped (%s), %" PRIu64 " ticks; %s%s%s\n",
	       (int)o.pid, NAME_OF(reason_names, st.reason), st.stats.ticks,
	       what, saved ? "; profile saved in " : "",
	       saved ? o.output : "");
	return failed ? CTL_EXIT_FAIL : CTL_EXIT_OK;
}

static void status_text_header(void)
{
	printf("%7s %-7s %-7s %5s %14s %9s %14s %6s %5s %9s %9s %9s %9s "
	       "%9s %9s %7s %9s %7s\n", "PID", "STATE", "REASON", "RATE",
	       "BUF", "BUFSIZ", "OFFSET", "SCALE", "FLAGS", "TICKS",
	       "IN_RANGE", "OUT_RANGE", "SYS_DROP", "SYS_CHRG", "DEFERRED",
	       "PENDING", "DISCARDED", "FAULTED");
}

/*
 * The kernel leaves a session's addresses (buffer, offset, fault address)
 * out for a caller that does not trace the process; a session's buffer is
 * never 0 otherwise.
 */
static bool status_has_addrs(const struct profil_status *st)
{
	return st->buf != 0;
}

/* @v in hexadecimal, or "-" without the addresses, into @buf. */
static const char *status_addr(char *buf, size_t len,
			       const struct profil_status *st, uint64_t v)
{
	if (!status_has_addrs(st))
		return "-";
	snprintf(buf, len, "%#" PRIx64, v);
	return buf;
}

static void status_text(const struct profil_status *st)
{
	const struct profil_stats *s = &st->stats;
	char buf[24], offset[24];

	printf("%7d %-7s %-7s %5u %14s %9" PRIu64 " %14s"
	       " %6u %#5x %9" PRIu64 " %9" PRIu64 " %9" PRIu64 " %9" PRIu64
	       " %9" PRIu64 " %9" PRIu64 " %7" PRIu64 " %9" PRIu64 " %7"
	       PRIu64 "\n", (int)st->pid, NAME_OF(state_names, st->state),
	       NAME_OF(reason_names, st->reason), st->rate,
	       status_addr(buf, sizeof(buf), st, st->buf), st->bufsiz,
	       status_addr(offset, sizeof(offset), st, st->offset),
	       st->scale, st->flags, s->ticks,
	       s->in_range, s->out_of_range, s->system_dropped,
	       s->system_charged, s->deferred, s->pending, s->discarded,
	       s->faulted);
}

static void status_json(const struct profil_status *st, bool first)
{
	const struct profil_stats *s = &st->stats;
	bool addrs = status_has_addrs(st);

	printf("%s\n  {\"pid\": %d, \"state\": \"%s\", \"reason\": \"%s\", "
	       "\"rate\": %u, ", first ? "" : ",", (int)st->pid,
	       NAME_OF(state_names, st->state),
	       NAME_OF(reason_names, st->reason), st->rate);
	/* Without the addresses: null, and no fault_addr. */
	if (addrs)
		printf("\"buf\": %" PRIu64 ", ", st->buf);
	else
		printf("\"buf\": null, ");
	printf("\"bufsiz\": %" PRIu64 ", ", st->bufsiz);
	if (addrs)
		printf("\"offset\": %" PRIu64 ", ", st->offset);
	else
		printf("\"offset\": null, ");
	printf("\"scale\": %u, \"flags\": %u, ", st->scale, st->flags);
	if (addrs && st->reason == PROFIL_STOP_FAULT)
		printf("\"fault_addr\": %" PRIu64 ", ", st->fault_addr);
	printf("\"ticks\": %" PRIu64 ", \"in_range\": %" PRIu64
	       ", \"out_of_range\": %" PRIu64 ", \"system_dropped\": %" PRIu64
	       ", \"system_charged\": %" PRIu64 ", \"deferred\": %" PRIu64
	       ", \"pending\": %" PRIu64 ", \"discarded\": %" PRIu64
	       ", \"faulted\": %" PRIu64 "}", s->ticks, s->in_range,
	       s->out_of_range, s->system_dropped, s->system_charged,
	       s->deferred, s->pending, s->discarded, s->faulted);
}

struct status_walk {
	bool json;
	unsigned long n;
};

static int status_cb(const struct profil_status *st, void *data)
{
	struct status_walk *w = data;

	if (w->json)
		status_json(st, !w->n);
	else
		status_text(st);
	w->n++;
	return 0;
}

#ifndef PROFIL_CTL_VERSION
#define PROFIL_CTL_VERSION "unknown"
#endif

/*
 * The loaded module and this profil-ctl come from one package version
 * (profil-dkms and profil-ctl): after an upgrade, the module loaded before
 * it runs until it is unloaded. Say so; nothing fails.
 */
static void status_version_check(const char *op)
{
	char buf[128];
	const char *v = live_module_version(buf, sizeof(buf));

	if (v && strcmp(v, PROFIL_CTL_VERSION))
		fprintf(stderr, "profil-ctl: %s: warning: the loaded profil "
			"module is version %s, profil-ctl is %s; unload it when "
			"no session runs (sudo modprobe -r profil): the next "
			"request loads the installed one\n", op, v,
			PROFIL_CTL_VERSION);
}

int cmd_status(int argc, char **argv)
{
	struct profil_handle *h = NULL;
	struct profil_status st;
	struct status_walk w = { .n = 0 };
	struct live_opts o;
	int err;

	err = ctl_parse_pid_cmd(argc, argv, LIVE_OPTS_FORMAT, &o);
	if (err < 0)
		return live_parse_exit(err);
	w.json = o.json;
	/* One session, or a handle to dump them all. */
	if (o.pid && ctl_session_get(argv[0], o.pid, false, false, &st, NULL))
		return CTL_EXIT_FAIL;
	if (!o.pid && !(h = live_open(argv[0])))
		return CTL_EXIT_FAIL;
	if (w.json)
		printf("[");
	else
		status_text_header();
	if (h)
		err = profil_session_dump(h, status_cb, &w);
	else
		err = status_cb(&st, &w);
	if (w.json)
		printf("%s]\n", w.n ? "\n" : "");
	if (err < 0) {
		fflush(stdout);
		ctl_perror_lib(argv[0]);
	}
	profil_handle_close(h);
	status_version_check(argv[0]);
	return err < 0 ? CTL_EXIT_FAIL : CTL_EXIT_OK;
}

int cmd_show(int argc, char **argv)
{
	struct profil_status st;
	struct hist hist = { .rate = 0 };
	struct live_opts o;
	uint64_t missed;
	int ret;

	ret = ctl_parse_pid_cmd(argc, argv, LIVE_OPTS_REPORT, &o);
	if (ret < 0)
		return live_parse_exit(ret);
	if (ctl_session_get(argv[0], o.pid, false, true, &st, &missed))
		return CTL_EXIT_FAIL;
	if (!status_has_addrs(&st)) {
		ctl_errorf(argv[0], "process %d: the kernel did not tell the "
			   "buffer's address: only the process's ptrace tracer "
			   "is told", (int)o.pid);
		return CTL_EXIT_FAIL;
	}
	if (live_snapshot(argv[0], &st, &hist) < 0) {
		hist_free(&hist);
		return CTL_EXIT_FAIL;
	}
	ret = live_report(argv[0], &hist, &st, missed, &o);
	hist_free(&hist);
	return ret;
}
