// SPDX-License-Identifier: GPL-2.0
/*
 * Exit codes, error messages and option tables shared by profil-ctl's
 * commands.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profil.h"
#include "commands.h"
#include "ctl.h"

void ctl_perror(const char *op)
{
	fprintf(stderr, "profil-ctl: %s: %s\n", op, strerror(errno));
}

/* What to do about a refusal whose extack @msg profil-ctl knows. */
static const char *ctl_extack_hint(const char *msg)
{
	if (strstr(msg, "above HZ need"))
		return "a rate up to the kernel's HZ (the scheduler tick, 250"
		       " on Debian) needs no privilege; above it, CAP_PERFMON,"
		       " or an administrator's \"echo Y >"
		       " /sys/module/profil/parameters/unprivileged_timer_clock\"";
	if (strstr(msg, "ptrace tracer"))
		return "another process is reached as far as ptrace reaches it"
		       " (kernel.yama.ptrace_scope, LSMs); CAP_SYS_PTRACE"
		       " alone is not enough";
	return NULL;
}

void ctl_perror_lib(const char *op)
{
	const char *msg = profil_last_extack();
	const char *hint;
	int err = errno;

	if (!msg || !*msg) {
		fprintf(stderr, "profil-ctl: %s: %s\n", op, strerror(err));
		return;
	}
	fprintf(stderr, "profil-ctl: %s: %s: %s\n", op, strerror(err), msg);
	hint = ctl_extack_hint(msg);
	if (hint)
		fprintf(stderr, "profil-ctl: %s: hint: %s\n", op, hint);
}

static void ctl_verrorf(const char *op, const char *fmt, va_list ap)
{
	fprintf(stderr, "profil-ctl: %s: ", op);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void ctl_errorf(const char *op, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	ctl_verrorf(op, fmt, ap);
	va_end(ap);
}

int ctl_usage_error(const char *cmd, const char *fmt, ...)
{
	const struct ctl_command *c = ctl_command_find(cmd);
	va_list ap;

	va_start(ap, fmt);
	ctl_verrorf(cmd, fmt, ap);
	va_end(ap);
	if (c)
		fprintf(stderr, "usage: profil-ctl %s %s\n"
			"(\"profil-ctl %s --help\" lists the options)\n",
			c->name, c->args, c->name);
	return CTL_EXIT_USAGE;
}

/* The command line ctl_getopt() parses, for ctl_optarg_next(). */
static int ctl_argc;
static char **ctl_argv;

int ctl_getopt(int argc, char **argv, const char *flags,
	       const struct ctl_option *opts)
{
	/* One command runs per process: rebuilding them each call is cheap. */
	static struct option lo[CTL_MAX_OPTIONS + 1];
	static char optstring[8 + 2 * CTL_MAX_OPTIONS + 1];
	size_t n, i;

	n = (size_t)snprintf(optstring, 8, "%s:", flags);
	for (i = 0; opts[i].lo.name && i < CTL_MAX_OPTIONS; i++) {
		lo[i] = opts[i].lo;
		if (lo[i].val <= 0 || lo[i].val >= 0x100)
			continue;
		optstring[n++] = (char)lo[i].val;
		if (lo[i].has_arg == required_argument)
			optstring[n++] = ':';
	}
	optstring[n] = '\0';
	memset(&lo[i], 0, sizeof(lo[i]));
	ctl_argc = argc;
	ctl_argv = argv;
	return getopt_long(argc, argv, optstring, lo, NULL);
}

const char *ctl_optarg_next(bool (*ok)(const char *arg))
{
	const char *w;

	if (!ctl_argv || optind >= ctl_argc)
		return NULL;
	w = ctl_argv[optind];
	if (w[0] == '-' || !ok(w))
		return NULL;
	optind++;
	return w;
}

static void ctl_help_option(const struct ctl_option *o)
{
	char spec[40];
	int n;

	if (o->lo.val > 0 && o->lo.val < 0x100)
		n = snprintf(spec, sizeof(spec), "-%c, --%s", o->lo.val,
			     o->lo.name);
	else
		n = snprintf(spec, sizeof(spec), "    --%s", o->lo.name);
	if (o->arg && n > 0 && (size_t)n < sizeof(spec))
		snprintf(spec + n, sizeof(spec) - (size_t)n,
			 o->lo.has_arg == optional_argument ? "[=%s]" : "=%s",
			 o->arg);
	printf("  %-22s %s\n", spec, o->help);
}

void ctl_help(const char *cmd, const struct ctl_option *opts)
{
	const struct ctl_command *c = ctl_command_find(cmd);

	if (c)
		printf("usage: profil-ctl %s %s\n\n  %s\n", c->name, c->args,
		       c->summary);
	if (!opts || !opts->lo.name)
		return;
	printf("\noptions:\n");
	for (; opts->lo.name; opts++)
		ctl_help_option(opts);
}

int ctl_parse_u64(const char *s, unsigned long long min,
		  unsigned long long max, unsigned long long *out)
{
	unsigned long long v;
	int base = 10;
	char *end;

	if (!s)
		return -1;
	/* Decimal, or hex after 0x: never octal ("0100" is 100). */
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		s += 2;
		base = 16;
	}
	/* Digits only: no sign, space or second 0x that strtoull takes. */
	if (!*s || s[strspn(s, base == 16 ? "0123456789abcdefABCDEF" :
			    "0123456789")])
		return -1;
	errno = 0;
	v = strtoull(s, &end, base);
	if (errno || *end || v < min || v > max)
		return -1;
	*out = v;
	return 0;
}
