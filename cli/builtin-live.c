// SPDX-License-Identifier: GPL-2.0
/*
 * profil-ctl start, stop, status and show.
 *
 * start follows a process as attach does (collect_attach()) and leaves a
 * collector behind (collector_daemon.h): the process that holds the
 * netlink socket, and so the profile the kernel keeps for it. show and
 * stop ask that collector for the profile (collector_sock.h); stop ends
 * it, and the kernel stops following the process and frees the profile.
 * Nothing is mapped or written in the process.
 *
 * A process without a collector may profile itself (profil(),
 * monstartup(), a -pg build): show reads that buffer from its memory,
 * and stop stops its session and leaves the buffer, the program's own,
 * alone. profil.ko lets only the tracer of another process stop its
 * session or see its buffer's address (CAP_SYS_PTRACE alone is not
 * enough): show and stop seize it for their requests, so that ptrace,
 * LSMs included, is the whole rule. status does not: it shows "-" for
 * the addresses it is not given.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "collect.h"
#include "collector_daemon.h"
#include "collector_sock.h"
#include "commands.h"
#include "ctl.h"
#include "live.h"
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
		if (errno == ENOENT && seize)
			ctl_errorf(op, "process %d has no collector (\"profil-"
				   "ctl start %d\" leaves one) and no profil "
				   "session of its own", (int)pid, (int)pid);
		else
			ctl_perror_lib(op);
		ret = -1;
	}
	if (seized && !tracer_interrupt(pid, &s))
		tracer_resume(pid, &s, true);
	profil_handle_close(h);
	return ret;
}

/* Why collector_listen() failed, for start. */
static void start_listen_error(const char *op, pid_t pid, int err)
{
	if (err == -EADDRINUSE)
		ctl_errorf(op, "process %d: @" COLLECTOR_NAME_FMT " is taken: "
			   "the collector of an earlier process %d? (\"profil-"
			   "ctl stop %d\" ends it)", (int)pid, (int)pid,
			   (int)pid, (int)pid);
	else
		ctl_errorf(op, "process %d: @" COLLECTOR_NAME_FMT ": %s",
			   (int)pid, (int)pid, strerror(-err));
}

int cmd_start(int argc, char **argv)
{
	struct live_opts o;
	struct collect c;
	pid_t collector;
	int lfd, err, ret = CTL_EXIT_FAIL;

	err = ctl_parse_pid_cmd(argc, argv, LIVE_OPTS_PROFILE |
				LIVE_OPTS_INHERIT, &o);
	if (err < 0)
		return live_parse_exit(err);
	if (o.pid == getpid())
		return ctl_usage_error(argv[0], "cannot start on itself");
	if (collect_init(&c, argv[0], &o) < 0)
		goto out;
	if (collect_command_of(&c, o.pid)) {
		ctl_perror(argv[0]);
		goto out;
	}
	if (collect_attach(&c, o.pid) < 0)
		goto out;
	lfd = collector_listen(o.pid);
	if (lfd < 0) {
		start_listen_error(argv[0], o.pid, lfd);
		goto out;
	}
	collector = collector_daemon_start(&c, lfd);
	close(lfd);
	if (collector < 0)
		goto out;
	printf("process %d: followed at %u Hz by collector %d until "
	       "\"profil-ctl stop %d\"; \"profil-ctl show %d\" reads the "
	       "profile meanwhile\n", (int)o.pid,
	       o.rate ? o.rate : PROFIL_RATE_DEFAULT, (int)collector,
	       (int)o.pid, (int)o.pid);
	ret = CTL_EXIT_OK;
out:
	/* The collector has the netlink socket now: ours only closes. */
	collect_free(&c);
	return ret;
}

/*
 * A process without a collector: its own buffer, one executable's
 * report, which the whole-program options do not shape. Refuse them
 * rather than drop them. Return: 0, or -1 after printing why.
 */
static int buffer_opts_check(const char *op, const struct live_opts *o)
{
	const char *opt = o->per_process ? "--per-process" :
			  o->save ? "--save" : report_whole_only(&o->report);

	if (!opt)
		return 0;
	ctl_errorf(op, "process %d has no collector (\"profil-ctl start\"): "
		   "%s applies to a whole program's profile, not to the one "
		   "executable of its own profil() buffer", (int)o->pid, opt);
	return -1;
}

/*
 * The profile of @pid's collector after request @req into @r. Return: 0,
 * COLLECTOR_NONE without a collector, or -1 after printing why.
 */
static int collector_get(const char *op, pid_t pid, const char *req,
			 struct collector_reply *r)
{
	int ret = collector_request(op, pid, req, r);

	if (!ret)
		held_notes_print(op, &r->notes);
	if (!ret && !r->profile.nprocesses) {
		ctl_errorf(op, "process %d: no process was profiled", (int)pid);
		profile_free(&r->profile);
		ret = -1;
	}
	return ret;
}

/*
 * stop -o FILE: the final profile, read from the buffer of a stopped
 * session, written as show -o would. Return: 0, or -1 after printing why.
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

/* stop of a process without a collector: its own session, if any. */
static int stop_buffer(const char *op, const struct live_opts *o)
{
	struct profil_status st;
	uint64_t missed;
	bool failed = false;

	if (buffer_opts_check(op, o) ||
	    ctl_session_get(op, o->pid, true, true, &st, &missed))
		return CTL_EXIT_FAIL;
	/* The session is STOPped: the counts are final. */
	if (o->output)
		failed = ctl_stop_save(op, &st, missed, o) < 0;
	printf("process %d: stopped (%s), %" PRIu64 " ticks; its own buffer "
	       "left alone%s%s\n", (int)o->pid,
	       NAME_OF(reason_names, st.reason), st.stats.ticks,
	       o->output && !failed ? "; profile saved in " : "",
	       o->output && !failed ? o->output : "");
	return failed ? CTL_EXIT_FAIL : CTL_EXIT_OK;
}

int cmd_stop(int argc, char **argv)
{
	struct collector_reply r;
	struct live_opts o;
	bool saved, failed = false;
	int ret;

	ret = ctl_parse_pid_cmd(argc, argv, LIVE_OPTS_REPORT | LIVE_OPTS_WHOLE,
				&o);
	if (ret < 0)
		return live_parse_exit(ret);
	ret = collector_get(argv[0], o.pid, COLLECTOR_REQ_STOP, &r);
	if (ret == COLLECTOR_NONE)
		return stop_buffer(argv[0], &o);
	if (ret < 0)
		return CTL_EXIT_FAIL;
	/* Without -o or --save, the final profile is not wanted. */
	saved = o.output || o.save;
	if (saved)
		failed = live_profile_report(argv[0], &r.profile, &o) < 0;
	printf("process %d: stopped: its collector (pid %d) exited, %" PRIu64
	       " ticks%s%s\n", (int)o.pid, (int)r.pid, r.profile.acct.ticks,
	       o.output && !failed ? "; profile saved in " : "",
	       o.output && !failed ? o.output : "");
	profile_free(&r.profile);
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

/* show of a process without a collector: its own buffer, if any. */
static int show_buffer(const char *op, const struct live_opts *o)
{
	struct profil_status st;
	struct hist hist = { .rate = 0 };
	uint64_t missed;
	int ret;

	if (buffer_opts_check(op, o) ||
	    ctl_session_get(op, o->pid, false, true, &st, &missed))
		return CTL_EXIT_FAIL;
	if (!status_has_addrs(&st)) {
		ctl_errorf(op, "process %d: the kernel did not tell the "
			   "buffer's address: only the process's ptrace tracer "
			   "is told", (int)o->pid);
		return CTL_EXIT_FAIL;
	}
	if (live_snapshot(op, &st, &hist) < 0) {
		hist_free(&hist);
		return CTL_EXIT_FAIL;
	}
	ret = live_report(op, &hist, &st, missed, o);
	hist_free(&hist);
	return ret;
}

int cmd_show(int argc, char **argv)
{
	struct collector_reply r;
	struct live_opts o;
	int ret;

	ret = ctl_parse_pid_cmd(argc, argv, LIVE_OPTS_REPORT | LIVE_OPTS_WHOLE,
				&o);
	if (ret < 0)
		return live_parse_exit(ret);
	ret = collector_get(argv[0], o.pid, COLLECTOR_REQ_SHOW, &r);
	if (ret == COLLECTOR_NONE)
		return show_buffer(argv[0], &o);
	if (ret < 0)
		return CTL_EXIT_FAIL;
	/* Not a program's output to keep apart: the report on stdout. */
	o.report_stdout = true;
	ret = live_profile_report(argv[0], &r.profile, &o) < 0 ?
	      CTL_EXIT_FAIL : CTL_EXIT_OK;
	profile_free(&r.profile);
	return ret;
}
