// SPDX-License-Identifier: GPL-2.0
/*
 * Options of the live commands. One table, with their help; each command
 * says which options it takes, any other is a usage error, and its
 * "--help" lists those.
 */
#define _GNU_SOURCE
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctl.h"
#include "live.h"

enum {
	LIVE_OPT_BIN_BYTES = 0x200,
	LIVE_OPT_SYSTEM_TICKS,
	LIVE_OPT_NO_INHERIT,
	LIVE_OPT_PER_PROCESS,
	LIVE_OPT_SAVE,
};

#define LIVE_MAX_DURATION 1e7	/* seconds; about 116 days */

static const struct ctl_option live_options[] = {
	{ { "pid", required_argument, NULL, 'p' }, "PID",
	  "the process (or the one operand)" },
	{ { "rate", required_argument, NULL, 'r' }, "HZ",
	  "samples per CPU second, 10 to 10000 (default 100)" },
	{ { "freq", required_argument, NULL, 'F' }, "HZ",
	  "the same as --rate (perf's -F)" },
	{ { "bin-bytes", required_argument, NULL, LIVE_OPT_BIN_BYTES }, "N",
	  "bytes of text per counter, a power of two (default 4)" },
	{ { "system-ticks", no_argument, NULL, LIVE_OPT_SYSTEM_TICKS }, NULL,
	  "charge kernel-mode ticks (default: dropped)" },
	{ { "duration", required_argument, NULL, 'd' }, "SECS",
	  "stop after SECS seconds (default: until interrupted)" },
	{ { "no-inherit", no_argument, NULL, LIVE_OPT_NO_INHERIT }, NULL,
	  "only the process itself, not its children" },
	{ { "per-process", no_argument, NULL, LIVE_OPT_PER_PROCESS }, NULL,
	  "the report split by process: pid first in the list "
	  "(default: by command)" },
	{ { "save", required_argument, NULL, LIVE_OPT_SAVE }, "FILE",
	  "also save the profile there, for report" },
	{ { "all-cpus", no_argument, NULL, 'a' }, NULL,
	  "every process of the machine (needs CAP_PERFMON)" },
	{ { "cgroup", required_argument, NULL, 'G' }, "CGROUP",
	  "only the ticks of a cgroup v2 and below it: a path, or a name "
	  "under /sys/fs/cgroup (implies -a)" },
	REPORT_OPTIONS,
	{ { "output", required_argument, NULL, 'o' }, "FILE",
	  "write the report there (run, attach: also to stderr; stop: "
	  "the final profile's)" },
	{ { "help", no_argument, NULL, 'h' }, NULL, "this help" },
	{ { NULL, 0, NULL, 0 }, NULL, NULL },
};

/* status's --format: its own values, the same getopt entry. */
static const struct ctl_option status_format = {
	{ "format", required_argument, NULL, REPORT_OPT_FORMAT }, "FMT",
	"text (default) or json"
};

/* Which enum live_opt_set an option belongs to (0: every command). */
static unsigned int live_opt_owner(int c)
{
	switch (c) {
	case 'p':
		return LIVE_OPTS_PID;
	case 'r':
	case 'F':
	case LIVE_OPT_BIN_BYTES:
	case LIVE_OPT_SYSTEM_TICKS:
		return LIVE_OPTS_PROFILE;
	case 'd':
		return LIVE_OPTS_DURATION;
	case 'a':
		/* record's -a is perf record's; elsewhere the report's. */
		return LIVE_OPTS_MACHINE | LIVE_OPTS_REPORT;
	case 'G':
		return LIVE_OPTS_MACHINE;
	case LIVE_OPT_NO_INHERIT:
		return LIVE_OPTS_INHERIT;
	case LIVE_OPT_PER_PROCESS:
	case LIVE_OPT_SAVE:
	case REPORT_OPT_PER_OBJECT:
	case REPORT_OPT_COMMS:
	case REPORT_OPT_DSOS:
	case REPORT_OPT_SYMBOLS:
		return LIVE_OPTS_WHOLE;
	case REPORT_OPT_FORMAT:
		return LIVE_OPTS_REPORT | LIVE_OPTS_FORMAT;
	case 'h':
		return ~0U;
	default:
		return LIVE_OPTS_REPORT;	/* -o and the report options */
	}
}

static int live_parse_one(struct live_opts *o, const char *cmd, int c,
			  const char *arg, unsigned int set, bool *format)
{
	unsigned long long v;
	char *end;

	switch (c) {
	case 'p':
		if (live_parse_pid(arg, &o->pid) < 0)
			return ctl_usage_error(cmd, "bad PID '%s'", arg);
		return 0;
	case 'r':
	case 'F':
		if (ctl_parse_u64(arg, PROFIL_RATE_MIN, PROFIL_RATE_MAX,
				  &v) < 0)
			return ctl_usage_error(cmd, "--rate: '%s' is not a "
					       "rate from %d to %d Hz", arg,
					       PROFIL_RATE_MIN,
					       PROFIL_RATE_MAX);
		o->rate = (uint32_t)v;
		return 0;
	case LIVE_OPT_BIN_BYTES:
		if (ctl_parse_u64(arg, 2, LIVEBUF_MAX_BIN_BYTES, &v) < 0 ||
		    !livebuf_bin_bytes_valid(v))
			return ctl_usage_error(cmd, "--bin-bytes: '%s' is not "
					       "a power of two from 2 to %d",
					       arg, LIVEBUF_MAX_BIN_BYTES);
		o->bin_bytes = v;
		return 0;
	case LIVE_OPT_SYSTEM_TICKS:
		o->flags |= PROFIL_F_SYSTEM_TICKS;
		return 0;
	case 'd':
		o->duration = strtod(arg, &end);
		if (!*arg || *end || !isfinite(o->duration) ||
		    o->duration <= 0 || o->duration > LIVE_MAX_DURATION)
			return ctl_usage_error(cmd, "--duration: '%s' is not "
					       "a number of seconds above 0",
					       arg);
		return 0;
	case 'o':
		o->output = arg;
		return 0;
	case LIVE_OPT_NO_INHERIT:
		o->no_inherit = true;
		return 0;
	case LIVE_OPT_PER_PROCESS:
		o->per_process = true;
		return 0;
	case LIVE_OPT_SAVE:
		o->save = arg;
		return 0;
	case 'a':
		if (!(set & LIVE_OPTS_MACHINE))
			break;	/* the report's --all */
		o->all = true;
		return 0;
	case 'G':
		if (!*arg)
			return ctl_usage_error(cmd, "-G: an empty cgroup");
		o->cgroup = arg;
		o->all = true;
		return 0;
	case REPORT_OPT_FORMAT:
		*format = true;
		if (!(set & LIVE_OPTS_REPORT)) {
			if (!strcmp(arg, "json") || !strcmp(arg, "text")) {
				o->json = !strcmp(arg, "json");
				return 0;
			}
			return ctl_usage_error(cmd, "--format: '%s' is not "
					       "text or json", arg);
		}
		break;
	}
	switch (report_parse_opt(&o->report, cmd, c, arg)) {
	case 1:
		return 0;
	case 0:
		return ctl_usage_error(cmd, "unknown option");
	default:
		return CTL_EXIT_USAGE;
	}
}

/* How the user spelt option @c, for messages. */
static const char *live_opt_name(int c, char *buf, size_t len)
{
	const struct ctl_option *o;

	for (o = live_options; o->lo.name; o++)
		if (o->lo.val == c)
			break;
	if (o->lo.name && c < 0x100)
		snprintf(buf, len, "-%c/--%s", c, o->lo.name);
	else if (o->lo.name)
		snprintf(buf, len, "--%s", o->lo.name);
	else
		snprintf(buf, len, "-%c", c);
	return buf;
}

/* The options of the commands that take @set, and their help. */
static void live_help(const char *cmd, unsigned int set)
{
	struct ctl_option opts[CTL_MAX_OPTIONS + 1];
	const struct ctl_option *o;
	size_t n = 0;

	for (o = live_options; o->lo.name && n < CTL_MAX_OPTIONS; o++) {
		if (!(live_opt_owner(o->lo.val) & set))
			continue;
		/* -a: all CPUs (record) or the report's rows (the rest). */
		if (o->lo.val == 'a' &&
		    !strcmp(o->lo.name, "all") == !!(set & LIVE_OPTS_MACHINE))
			continue;
		if (o->lo.val == REPORT_OPT_FORMAT && !(set & LIVE_OPTS_REPORT))
			opts[n++] = status_format;
		else
			opts[n++] = *o;
	}
	memset(&opts[n], 0, sizeof(opts[n]));
	ctl_help(cmd, opts);
	if (set & LIVE_OPTS_REPORT)
		report_help_columns();
}

int live_parse_opts(int argc, char **argv, unsigned int set,
		    struct live_opts *o)
{
	/* Only run stops at its first operand: the program's arguments. */
	const char *flags = set & LIVE_OPTS_COMMAND ? "+" : "";
	const char *cmd = argv[0];
	bool format = false;
	char name[32];
	int c;

	memset(o, 0, sizeof(*o));
	o->bin_bytes = LIVEBUF_DEFAULT_BIN_BYTES;
	report_opts_init(&o->report);
	optind = 1;
	opterr = 0;
	while ((c = ctl_getopt(argc, argv, flags, live_options)) != -1) {
		if (c == '?') {
			ctl_usage_error(cmd, "unknown option '%s'",
					argv[optind - 1]);
			return LIVE_PARSE_USAGE;
		}
		if (c == ':') {
			ctl_usage_error(cmd, "option '%s' needs an argument",
					argv[optind - 1]);
			return LIVE_PARSE_USAGE;
		}
		if (!(live_opt_owner(c) & set)) {
			ctl_usage_error(cmd, "option '%s' does not apply",
					live_opt_name(c, name, sizeof(name)));
			return LIVE_PARSE_USAGE;
		}
		if (c == 'h') {
			live_help(cmd, set);
			return LIVE_PARSE_HELP;
		}
		if (live_parse_one(o, cmd, c, optarg, set, &format))
			return LIVE_PARSE_USAGE;
	}
	if ((set & LIVE_OPTS_PROFILE) && o->bin_bytes < 4) {
		ctl_usage_error(cmd, "--bin-bytes: a whole program is counted "
				"in u32 bins of 4 bytes or more");
		return LIVE_PARSE_USAGE;
	}
	if ((set & LIVE_OPTS_REPORT) &&
	    report_check_opts(&o->report, cmd, o->output))
		return LIVE_PARSE_USAGE;
	if ((set & LIVE_OPTS_PID) && !o->pid && optind < argc &&
	    !(set & LIVE_OPTS_COMMAND)) {
		if (live_parse_pid(argv[optind], &o->pid) < 0) {
			ctl_usage_error(cmd, "bad PID '%s'", argv[optind]);
			return LIVE_PARSE_USAGE;
		}
		optind++;
	}
	return optind;
}

int live_parse_exit(int parsed)
{
	return parsed == LIVE_PARSE_HELP ? CTL_EXIT_OK : CTL_EXIT_USAGE;
}
