/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What every profil-ctl command shares: exit codes and error messages.
 */
#ifndef PROFIL_CTL_CTL_H
#define PROFIL_CTL_CTL_H

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
 * ctl_parse_u64() - a whole decimal (or 0x hex) number in [min, max]
 * Return: 0, or -1 (not a number, trailing characters, out of range).
 */
int ctl_parse_u64(const char *s, unsigned long long min,
		  unsigned long long max, unsigned long long *out);

#endif /* PROFIL_CTL_CTL_H */
