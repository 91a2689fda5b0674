// SPDX-License-Identifier: GPL-2.0
/*
 * Exit codes and error messages shared by profil-ctl's commands.
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

void ctl_perror_lib(const char *op)
{
	const char *msg = profil_last_extack();
	int err = errno;

	if (msg && *msg)
		fprintf(stderr, "profil-ctl: %s: %s: %s\n", op, strerror(err),
			msg);
	else
		fprintf(stderr, "profil-ctl: %s: %s\n", op, strerror(err));
}

void ctl_errorf(const char *op, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "profil-ctl: %s: ", op);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

int ctl_usage_error(const char *cmd, const char *fmt, ...)
{
	const struct ctl_command *c = ctl_command_find(cmd);
	va_list ap;

	fprintf(stderr, "profil-ctl: %s: ", cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	if (c)
		fprintf(stderr, "usage: profil-ctl %s %s\n", c->name, c->args);
	return CTL_EXIT_USAGE;
}

int ctl_parse_u64(const char *s, unsigned long long min,
		  unsigned long long max, unsigned long long *out)
{
	unsigned long long v;
	char *end;

	if (!s || !*s || *s == '-' || *s == '+' || *s == ' ')
		return -1;
	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || *end || v < min || v > max)
		return -1;
	*out = v;
	return 0;
}
