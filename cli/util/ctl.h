/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What every profil-ctl command shares: exit codes, error messages and
 * its options with their help.
 */
#ifndef PROFIL_CTL_CTL_H
#define PROFIL_CTL_CTL_H

#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>

enum {
	CTL_EXIT_OK = 0,	/* success */
	CTL_EXIT_FAIL = 1,	/* the operation failed */
	CTL_EXIT_USAGE = 2,	/* bad command line */
};

/**
 * ctl_perror() - "profil-ctl: <op>: <strerror(errno)>" on stderr
 */
void ctl_perror(const char *op);

/**
 * ctl_perror_lib() - as ctl_perror() for a failed libprofil call, with
 * ": <text>" added when the kernel sent an extended ack
 * (profil_last_extack())
 */
void ctl_perror_lib(const char *op);

/** ctl_errorf() - "profil-ctl: <op>: <formatted message>" on stderr */
void ctl_errorf(const char *op, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/**
 * ctl_usage_error() - print "profil-ctl: <cmd>: <message>" and the
 * command's synopsis on stderr.
 *
 * Return: CTL_EXIT_USAGE, to return from the command.
 */
int ctl_usage_error(const char *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/**
 * struct ctl_option - one option: getopt_long()'s entry and its help, so
 * that "--help" lists exactly what the parser takes
 * @lo: name, has_arg, val; a val below 0x100 is also the short option
 * @arg: the argument's name in the help (NULL: none)
 * @help: one line
 *
 * A table ends with an entry whose @lo.name is NULL.
 */
struct ctl_option {
	struct option lo;
	const char *arg;
	const char *help;
};

/* Options a command table may hold; ctl_getopt() copies them. */
#define CTL_MAX_OPTIONS 32

/**
 * ctl_getopt() - getopt_long() over @opts, its optstring made from them:
 * @flags (e.g. "+" to stop at the first operand), ':' (a missing
 * argument is ':', an unknown option '?'), then every short option.
 * A required argument is "--opt=VAL" or "--opt VAL"; for an optional
 * one, see ctl_optarg_next().
 */
int ctl_getopt(int argc, char **argv, const char *flags,
	       const struct ctl_option *opts);

/**
 * ctl_optarg_next() - for an option of optional argument that
 * ctl_getopt() returned without one: the next word of the command line
 * if it is not an option and @ok takes it, consumed as the option's
 * argument, so that "--opt VAL" reads as "--opt=VAL"
 * Return: that word, or NULL (the option has no argument).
 */
const char *ctl_optarg_next(bool (*ok)(const char *arg));

/**
 * ctl_help() - "profil-ctl CMD --help" on stdout: the synopsis and
 * summary of command @cmd (commands.h), then one line per option of
 * @opts ("  -r, --rate=HZ  text")
 */
void ctl_help(const char *cmd, const struct ctl_option *opts);

/**
 * ctl_parse_u64() - a whole number in [min, max]: decimal, or
 * hexadecimal after "0x"; never octal ("0100" is 100, as perf reads it)
 * Return: 0, or -1 (not a number, trailing characters, out of range).
 */
int ctl_parse_u64(const char *s, unsigned long long min,
		  unsigned long long max, unsigned long long *out);

#endif /* PROFIL_CTL_CTL_H */
