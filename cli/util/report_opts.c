// SPDX-License-Identifier: GPL-2.0
/*
 * The report options every command shares (report, run, attach, stop,
 * show, top): their defaults, parsing and checks.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ctl.h"
#include "report_opts.h"

void report_opts_init(struct report_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->render.view = RENDER_FUNCS;
	o->render.format = RENDER_TEXT;
	o->render.sort = true;
}

void report_help_columns(void)
{
	printf("\ncolumns of the text table:\n"
	       "  count     samples (profil's ticks) in the row\n"
	       "  %%         share of all samples\n"
	       "  seconds   count / rate: CPU time\n"
	       "  calls     calls counted by a -pg program (gmon.out arcs)\n"
	       "  load      (-v) samples per byte of the function's code "
	       "(readprofile's):\n"
	       "            count / size; high: a small, hot function\n");
}

/* --percent-limit: a percentage from 0 to 100, decimals allowed. */
static int report_parse_percent(const char *arg, double *out)
{
	char *end;
	double v;

	if (!*arg || *arg == ' ' || *arg == '-' || *arg == '+')
		return -1;
	v = strtod(arg, &end);
	if (*end == '%')
		end++;
	if (*end || !(v >= 0 && v <= 100))
		return -1;
	*out = v;
	return 0;
}

static const char *const key_names[] = {
	[REPORT_KEY_PID] = "pid",
	[REPORT_KEY_COMM] = "comm",
	[REPORT_KEY_DSO] = "dso",
	[REPORT_KEY_SYM] = "sym",
};

/*
 * One --sort word: a key of the ranked list (its enum report_key), -1
 * for samples, -2 for address, -3 for none of them.
 */
static int sort_word(const char *w, size_t len)
{
	size_t i;

	for (i = 0; i < sizeof(key_names) / sizeof(key_names[0]); i++)
		if (strlen(key_names[i]) == len && !strncmp(w, key_names[i], len))
			return (int)i;
	if (len == 7 && !strncmp(w, "samples", len))
		return -1;
	if (len == 7 && !strncmp(w, "address", len))
		return -2;
	return -3;
}

/*
 * "--sort WORD" is "--sort=WORD" when WORD is a list of keys, or names
 * no file (then a bad key, said so): an operand that follows a bare
 * --sort stays an operand.
 */
static bool report_sort_keys_ok(const char *arg)
{
	const char *w = arg, *end;

	if (access(arg, F_OK))
		return true;
	do {
		end = strchrnul(w, ',');
		if (sort_word(w, (size_t)(end - w)) == -3)
			return false;
		w = end + 1;
	} while (*end);
	return true;
}

/* --sort KEYS: "samples" alone (or no value) is the default order. */
static int report_parse_sort(struct report_opts *o, const char *cmd,
			     const char *arg)
{
	const char *w = arg, *end;
	size_t i;
	int k;

	o->nkeys = 0;
	o->render.sort = true;
	if (!arg)
		return 1;
	do {
		end = strchrnul(w, ',');
		k = sort_word(w, (size_t)(end - w));
		if (k == -3) {
			ctl_usage_error(cmd, "--sort: unknown key '%.*s' (comm, "
					"dso, sym, pid; samples or address)",
					(int)(end - w), w);
			return -1;
		}
		if (k == -2)
			o->render.sort = false;
		for (i = 0; k >= 0 && i < o->nkeys; i++)
			if (o->keys[i] == (enum report_key)k) {
				ctl_usage_error(cmd, "--sort: key '%s' given "
						"twice", key_names[k]);
				return -1;
			}
		if (k >= 0)
			o->keys[o->nkeys++] = (enum report_key)k;
		w = end + 1;
	} while (*end);
	return 1;
}

const char *report_whole_only(const struct report_opts *o)
{
	if (o->nkeys)
		return "--sort with pid, comm, dso or sym";
	if (o->per_object)
		return "--per-object";
	if (o->comms)
		return "--comms";
	if (o->dsos)
		return "--dsos";
	if (o->symbols)
		return "--symbols";
	return NULL;
}

int report_parse_opt(struct report_opts *o, const char *cmd, int c,
		     const char *arg)
{
	unsigned long long v;

	switch (c) {
	case REPORT_OPT_LINES:
	case 'b':
		if (o->render.view != (c == 'b' ? RENDER_LINES : RENDER_BINS)) {
			o->render.view = c == 'b' ? RENDER_BINS : RENDER_LINES;
			return 1;
		}
		ctl_usage_error(cmd, "--lines and -b: one view or the other");
		return -1;
	case REPORT_OPT_SORT:
		return report_parse_sort(o, cmd, arg ? arg :
					 ctl_optarg_next(report_sort_keys_ok));
	case REPORT_OPT_TOP:
		if (ctl_parse_u64(arg, 1, SIZE_MAX, &v)) {
			ctl_usage_error(cmd, "--top: '%s' is not a number of "
					"rows from 1", arg);
			return -1;
		}
		o->render.top = (size_t)v;
		return 1;
	case REPORT_OPT_PERCENT_LIMIT:
		if (report_parse_percent(arg, &o->render.percent_limit)) {
			ctl_usage_error(cmd, "--percent-limit: '%s' is not a "
					"percentage from 0 to 100", arg);
			return -1;
		}
		return 1;
	case 'a':
		o->render.all = true;
		return 1;
	case 'v':
		o->render.verbose = true;
		return 1;
	case REPORT_OPT_PER_OBJECT:
		o->per_object = true;
		return 1;
	case REPORT_OPT_COMMS:
		o->comms = arg;
		return 1;
	case REPORT_OPT_DSOS:
		o->dsos = arg;
		return 1;
	case REPORT_OPT_SYMBOLS:
		o->symbols = arg;
		return 1;
	case REPORT_OPT_FORMAT:
		if (o->format_given) {
			ctl_usage_error(cmd, "--format given twice (%s, then "
					"%s)", report_format_name(o), arg);
			return -1;
		}
		o->format_given = true;
		o->gmon = false;
		if (!strcmp(arg, "text")) {
			o->render.format = RENDER_TEXT;
		} else if (!strcmp(arg, "csv")) {
			o->render.format = RENDER_CSV;
		} else if (!strcmp(arg, "json")) {
			o->render.format = RENDER_JSON;
		} else if (!strcmp(arg, "pprof")) {
			o->render.format = RENDER_PPROF;
		} else if (!strcmp(arg, "folded")) {
			o->render.format = RENDER_FOLDED;
		} else if (!strcmp(arg, "gmon")) {
			o->gmon = true;
		} else if (!strcmp(arg, "callgrind")) {
			o->render.format = RENDER_CALLGRIND;
		} else if (!strcmp(arg, "html")) {
			o->render.format = RENDER_HTML;
		} else {
			ctl_usage_error(cmd, "unknown format '%s' (text, csv, "
					"json, pprof, folded, gmon, callgrind "
					"or html)", arg);
			return -1;
		}
		return 1;
	default:
		return 0;
	}
}

const char *report_format_name(const struct report_opts *o)
{
	static const char *const names[] = {
		[RENDER_TEXT] = "text", [RENDER_CSV] = "csv",
		[RENDER_JSON] = "json", [RENDER_PPROF] = "pprof",
		[RENDER_FOLDED] = "folded", [RENDER_CALLGRIND] = "callgrind",
		[RENDER_HTML] = "html",
	};

	return o->gmon ? "gmon" : names[o->render.format];
}

bool report_format_is_table(const struct report_opts *o)
{
	return !o->gmon && (o->render.format == RENDER_TEXT ||
			    o->render.format == RENDER_CSV ||
			    o->render.format == RENDER_JSON);
}

int report_check_opts(const struct report_opts *o, const char *cmd,
		      const char *output)
{
	const char *fmt = report_format_name(o);

	if (o->gmon && !output) {
		ctl_usage_error(cmd, "--format=gmon needs -o FILE");
		return -1;
	}
	if (report_format_is_table(o))
		return 0;
	/* The other formats keep every sample in a layout of their own. */
	if (o->render.top || o->render.percent_limit > 0) {
		ctl_usage_error(cmd, "--top, --percent-limit: not with "
				"--format=%s, which keeps every sample", fmt);
		return -1;
	}
	if (o->render.view != RENDER_FUNCS) {
		ctl_usage_error(cmd, "--lines, -b: not with --format=%s, which "
				"has functions and lines in one", fmt);
		return -1;
	}
	if (report_whole_only(o)) {
		ctl_usage_error(cmd, "%s: not with --format=%s",
				report_whole_only(o), fmt);
		return -1;
	}
	return 0;
}

