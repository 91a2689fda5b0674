/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What profil-ctl's live commands (run, attach, start, stop, status,
 * show, top) share: their options, the netlink handle, the reports; and
 * for show and stop, a program's own profiling buffer read from its
 * memory.
 */
#ifndef PROFIL_CTL_LIVE_H
#define PROFIL_CTL_LIVE_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "profil.h"
#include "hist.h"
#include "livebuf.h"
#include "profile.h"
#include "report_opts.h"
#include "target.h"

/* Snapshots of larger buffers are refused (a session's bufsiz is free). */
#define LIVE_MAX_SNAPSHOT (1ULL << 30)

/**
 * struct live_opts - the live commands' options
 * @rate: samples per second, 0 for the kernel's default
 * @bin_bytes: bytes of text per counter
 * @flags: PROFIL_F_*
 * @duration: attach: seconds to profile, 0 until interrupted
 * @pid: the target, 0 if not given
 * @no_inherit: run, attach, start: not the children
 * @per_process: run, attach: the report by process
 * @json: status: --format=json
 * @output: -o FILE, or NULL for standard output (run, attach: error)
 * @report_stdout: show: a whole program's report on standard output
 *	(run and attach leave that to the program)
 * @save: run, attach: --save FILE, the saved profile, or NULL
 * @all: record: -a, every process of the machine
 * @cgroup: record: -G CGROUP, a cgroup v2 directory, or NULL
 * @report: how to show the profile
 */
struct live_opts {
	uint32_t rate;
	uint64_t bin_bytes;
	uint32_t flags;
	double duration;
	pid_t pid;
	bool no_inherit;
	bool per_process;
	bool json;
	const char *output;
	bool report_stdout;
	const char *save;
	bool all;
	const char *cgroup;
	struct report_opts report;
};

/* Which options a command takes, for live_parse_opts(). */
enum live_opt_set {
	LIVE_OPTS_PID = 1 << 0,		/* -p PID or one PID operand */
	LIVE_OPTS_PROFILE = 1 << 1,	/* --rate, --bin-bytes, --system-ticks */
	LIVE_OPTS_REPORT = 1 << 2,	/* -o and the report options */
	LIVE_OPTS_DURATION = 1 << 3,	/* --duration */
	LIVE_OPTS_FORMAT = 1 << 5,	/* --format=text|json (status) */
	LIVE_OPTS_COMMAND = 1 << 6,	/* stop at the first operand (run) */
	LIVE_OPTS_WHOLE = 1 << 7,	/* --per-process, --save, --comms.. */
	LIVE_OPTS_INHERIT = 1 << 8,	/* --no-inherit */
	LIVE_OPTS_MACHINE = 1 << 9,	/* -a, -G (record) */
};

/* live_parse_opts()'s answers that end the command at once. */
enum {
	LIVE_PARSE_USAGE = -1,	/* a usage error, printed */
	LIVE_PARSE_HELP = -2,	/* -h/--help, printed */
};

/**
 * live_parse_opts() - parse @argv (argv[0] the command) into @o
 * @set: the options the command takes (enum live_opt_set)
 *
 * Prints the usage error, or the help.
 *
 * Return: the index of the first operand left (after a PID operand taken
 * as -p), or LIVE_PARSE_USAGE or LIVE_PARSE_HELP: see live_parse_exit().
 */
int live_parse_opts(int argc, char **argv, unsigned int set,
		    struct live_opts *o);

/**
 * live_parse_exit() - the exit status for a negative live_parse_opts()
 * result: CTL_EXIT_OK after the help, else CTL_EXIT_USAGE
 */
int live_parse_exit(int parsed);

/**
 * live_session_get() - @pid's session: its status into @st and its
 * PROFIL_STAT_MISSED into *@missed (periods the clock came too late for,
 * which struct profil_stats does not hold)
 * Return: 0, or -1 with errno and the library's message set.
 */
int live_session_get(struct profil_handle *h, pid_t pid,
		     struct profil_status *st, uint64_t *missed);

/**
 * live_snapshot() - @hist from the buffer a session @st describes, read
 * from its process as it is now (a live session keeps counting)
 * Return: 0, or -1 after printing why.
 */
int live_snapshot(const char *op, const struct profil_status *st,
		  struct hist *hist);

/**
 * live_report() - show @hist as @o->report says, with the session's
 * tick accounting @st and @missed (@st NULL if unknown); the accounting
 * also goes to standard error in one line, as perf record's summary does
 * Return: CTL_EXIT_OK or CTL_EXIT_FAIL.
 */
int live_report(const char *op, const struct hist *hist,
		const struct profil_status *st, uint64_t missed,
		const struct live_opts *o);

/**
 * live_profile_report() - the report of a whole-program profile @p, on
 * standard error (the program's standard output stays its own), and in
 * @o->output in @o's format if given
 * Return: 0, or -1 after printing why.
 */
int live_profile_report(const char *op, const struct profile *p,
			const struct live_opts *o);

/**
 * live_parse_pid() - a PID argument: a positive decimal number
 * Return: 0, or -1.
 */
int live_parse_pid(const char *s, pid_t *pid);

/**
 * live_open() - profil_handle_open(), with a message on failure: when the
 * kernel has no profil family, whether a module exists for the running
 * kernel (an unsupported kernel has none: DKMS skipped it).
 */
struct profil_handle *live_open(const char *op);

/**
 * live_module_version() - the loaded module's version
 * (/sys/module/profil/version), read into @buf of @len bytes
 * Return: @buf; "none" for a module loaded without one; NULL when no
 * module is loaded (built in: no version either).
 */
const char *live_module_version(char *buf, size_t len);

#endif /* PROFIL_CTL_LIVE_H */
