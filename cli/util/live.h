/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What profil-ctl's live commands (run, attach, start, stop, status,
 * show) share: their options, and a profiling buffer mapped into another
 * process: set up, read, taken down.
 */
#ifndef PROFIL_CTL_LIVE_H
#define PROFIL_CTL_LIVE_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "profil.h"
#include "hist.h"
#include "inject.h"
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
 * @keep: stop: leave the buffer mapped
 * @no_inherit: run, attach: not the children
 * @per_process: run, attach: the report by process
 * @json: status: --format=json
 * @output: -o FILE, or NULL for standard output (run, attach: error)
 * @save: run, attach: --save FILE, the saved profile, or NULL
 * @report: how to show the profile
 */
struct live_opts {
	uint32_t rate;
	uint64_t bin_bytes;
	uint32_t flags;
	double duration;
	pid_t pid;
	bool keep;
	bool no_inherit;
	bool per_process;
	bool json;
	const char *output;
	const char *save;
	struct report_opts report;
};

/* Which options a command takes, for live_parse_opts(). */
enum live_opt_set {
	LIVE_OPTS_PID = 1 << 0,		/* -p PID or one PID operand */
	LIVE_OPTS_PROFILE = 1 << 1,	/* --rate, --bin-bytes, --system-ticks */
	LIVE_OPTS_REPORT = 1 << 2,	/* -o and the report options */
	LIVE_OPTS_DURATION = 1 << 3,	/* --duration */
	LIVE_OPTS_KEEP = 1 << 4,	/* --keep */
	LIVE_OPTS_FORMAT = 1 << 5,	/* --format=text|json (status) */
	LIVE_OPTS_COMMAND = 1 << 6,	/* stop at the first operand (run) */
	LIVE_OPTS_WHOLE = 1 << 7,	/* --no-inherit, --per-process */
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
 * struct live_buf - a buffer profil-ctl mapped into process @pid
 * @pid: the process
 * @map_addr, @map_len: the mapping: marker page, then the counters
 * @geom: the counters' geometry (runtime addresses)
 * @text: the executable the counters cover
 */
struct live_buf {
	pid_t pid;
	uint64_t map_addr;
	uint64_t map_len;
	struct livebuf_geom geom;
	struct target_text text;
};

/** live_page_size() - the page size, as a u64. */
uint64_t live_page_size(void);

/**
 * live_setup() - map a buffer into @pid, stopped at an injectable stop,
 * and START its session
 * @res: the injections' outcome (the caller resumes or handles an exit)
 *
 * The caller must be @pid's tracer until this returns: the kernel lets
 * only a tracer START its tracee.
 *
 * Prints "profil-ctl: <op>: ..." on failure, with the kernel's text.
 * Return: 0, or -errno (ESRCH: the process exited or is exiting, see
 * @res).
 */
int live_setup(const char *op, struct profil_handle *h, pid_t pid,
	       const struct live_opts *o, struct live_buf *b,
	       struct inject_result *res);

/** live_buf_free() - forget @b (the mapping, if any, is left alone). */
void live_buf_free(struct live_buf *b);

/**
 * live_collect() - STOP @b's session (the kernel writes nothing more once
 * it returns), read its status into @st and its counters into @hist
 * (link-time addresses, @hist->binary and @hist->rate set)
 * Return: 0, or -1 after printing why.
 */
int live_collect(const char *op, struct profil_handle *h,
		 const struct live_buf *b, struct hist *hist,
		 struct profil_status *st, uint64_t *missed);

/**
 * live_check_unprofiled() - refuse @pid when it has an active session:
 * its own (profil(), monstartup(), a -pg build) or profil-ctl start's.
 * START would replace it, and the program would lose its profile (or
 * start's buffer would stay mapped, counting nothing). A stopped session,
 * none, or one the caller may not see (the ptrace check then speaks) is
 * no obstacle.
 * Return: 0, or -1 after printing why.
 */
int live_check_unprofiled(const char *op, struct profil_handle *h, pid_t pid);

/*
 * live_refuse_active() - say that @pid has an active session, which @op
 * would replace: the message of live_check_unprofiled() and of a START
 * with PROFIL_START_EXCL that met one after that check.
 */
void live_refuse_active(const char *op, pid_t pid);

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
