// SPDX-License-Identifier: GPL-2.0
/*
 * profil-ctl serve's options, auth file and request arguments
 * (serve_opts.h).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ctl.h"
#include "serve_opts.h"

enum {
	SERVE_OPT_LISTEN = 0x200,
	SERVE_OPT_AUTH_FILE,
	SERVE_OPT_NO_AUTH,
	SERVE_OPT_MAX_SECONDS,
};

static const struct ctl_option serve_options[] = {
	{ { "listen", required_argument, NULL, SERVE_OPT_LISTEN },
	  "HOST:PORT",
	  "the address to serve on (default " SERVE_DEFAULT_LISTEN
	  "; [::1]:PORT for IPv6, :PORT for every "
	  "address)" },
	{ { "auth-file", required_argument, NULL, SERVE_OPT_AUTH_FILE },
	  "FILE",
	  "HTTP basic authentication with the \"user:password\" "
	  "line of FILE (no access for others: chmod o= FILE)" },
	{ { "no-auth", no_argument, NULL, SERVE_OPT_NO_AUTH },
	  NULL,
	  "no authentication: anyone who reaches the address profiles "
	  "the machine" },
	{ { "rate", required_argument, NULL, 'r' },
	  "HZ",
	  "samples per CPU second, 10 to 1000 and at most the kernel's HZ "
	  "(default 97)" },
	{ { "freq", required_argument, NULL, 'F' },
	  "HZ",
	  "the same as --rate (perf's -F)" },
	{ { "max-seconds", required_argument, NULL, SERVE_OPT_MAX_SECONDS },
	  "N",
	  "the longest profile a request may ask for (default 300)" },
	{ { "help", no_argument, NULL, 'h' }, NULL, "this help" },
	{ { NULL, 0, NULL, 0 }, NULL, NULL },
};

int serve_parse_listen(const char *arg, char *host, size_t len,
		       unsigned int *port)
{
	const char *colon, *h = arg;
	unsigned long long v;
	size_t hl;

	if (arg[0] == '[') {
		colon = strchr(arg, ']');
		if (!colon || colon[1] != ':')
			return -1;
		h = arg + 1;
		hl = (size_t)(colon - h);
		colon++;
		if (!hl)
			return -1;
	} else {
		colon = strrchr(arg, ':');
		if (!colon)
			return -1;
		hl = (size_t)(colon - arg);
		/* A bare IPv6 address is ambiguous: brackets, as URLs. */
		if (memchr(arg, ':', hl))
			return -1;
	}
	if (hl >= len || ctl_parse_u64(colon + 1, 1, 65535, &v) < 0)
		return -1;
	memcpy(host, h, hl);
	host[hl] = '\0';
	*port = (unsigned int)v;
	return 0;
}

int serve_parse_seconds(const char *arg, unsigned int max, unsigned int *out,
			char *why, size_t len)
{
	unsigned long long v = 0;
	const char *s;

	if (!arg) {
		*out = SERVE_DEFAULT_SECONDS < max ? SERVE_DEFAULT_SECONDS :
						     max;
		return 0;
	}
	s = arg[0] == '+' || arg[0] == '-' ? arg + 1 : arg;
	if (!*s || s[strspn(s, "0123456789")]) {
		snprintf(why, len,
			 "seconds: '%.64s' is not a whole number "
			 "of seconds",
			 arg);
		return -1;
	}
	/* Digits only: saturate instead of overflowing. */
	for (; *s; s++)
		v = v > 1000000000ULL ? v : v * 10 + (unsigned)(*s - '0');
	if (arg[0] == '-' || !v) {
		snprintf(why, len, "seconds: '%.64s' is not above 0", arg);
		return -1;
	}
	if (v > max) {
		snprintf(why, len,
			 "seconds: '%.64s' is above this server's "
			 "limit, %u (--max-seconds)",
			 arg, max);
		return -1;
	}
	*out = (unsigned int)v;
	return 0;
}

static int refuse(char *why, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int refuse(char *why, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, len, fmt, ap);
	va_end(ap);
	return -1;
}

int serve_auth_parse(const char *text, struct serve_auth *a, char *why,
		     size_t len)
{
	size_t n = strcspn(text, "\r\n"), ul;
	const char *colon = memchr(text, ':', n), *rest = text + n;

	memset(a, 0, sizeof(*a));
	if (!colon)
		return refuse(why, len, "not a \"user:password\" line");
	ul = (size_t)(colon - text);
	if (!ul)
		return refuse(why, len, "an empty user name");
	if (colon + 1 == text + n)
		return refuse(why, len, "an empty password");
	if (ul > SERVE_AUTH_MAX || n - ul - 1 > SERVE_AUTH_MAX)
		return refuse(why, len,
			      "a user or password longer than %d "
			      "bytes",
			      SERVE_AUTH_MAX);
	if (rest[0] == '\r' && rest[1] != '\n')
		return refuse(why, len, "a carriage return in the line");
	if (rest[strspn(rest, "\r\n \t")])
		return refuse(why, len, "more than one line");
	memcpy(a->user, text, ul);
	memcpy(a->password, colon + 1, n - ul - 1);
	return 0;
}

int serve_auth_load(const char *path, struct serve_auth *a, char *why,
		    size_t len)
{
	char buf[4 * SERVE_AUTH_MAX];
	struct stat st;
	ssize_t n;
	int fd, ret;

	memset(a, 0, sizeof(*a));
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return refuse(why, len, "%s: %s", path, strerror(errno));
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return refuse(why, len, "%s: not a regular file", path);
	}
	if (st.st_mode & 007) {
		close(fd);
		return refuse(why, len,
			      "%s: other users may read or write it "
			      "(mode %04o): \"chmod o= %s\" first, as ssh asks "
			      "of a private key",
			      path, (unsigned int)(st.st_mode & 07777), path);
	}
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n < 0)
		return refuse(why, len, "%s: %s", path, strerror(errno));
	buf[n] = '\0';
	if ((size_t)n == sizeof(buf) - 1 || strlen(buf) != (size_t)n) {
		explicit_bzero(buf, sizeof(buf));
		return refuse(why, len, "%s: not one \"user:password\" line",
			      path);
	}
	ret = serve_auth_parse(buf, a, why, len);
	explicit_bzero(buf, sizeof(buf));
	if (ret) {
		/* The reason, prefixed by the file; never the password. */
		char r[128];

		snprintf(r, sizeof(r), "%s", why);
		refuse(why, len, "%s: %s", path, r);
	}
	return ret;
}

bool serve_equal(const char *given, const char *secret)
{
	size_t lg = strlen(given), ls = strlen(secret), i;
	volatile unsigned char d = lg != ls;

	for (i = 0; i < ls; i++)
		d |= (unsigned char)(given[i < lg ? i : 0] ^ secret[i]);
	return !d;
}

bool serve_auth_check(const struct serve_auth *a, const char *user,
		      const char *password)
{
	bool u = serve_equal(user ? user : "", a->user);
	bool p = serve_equal(password ? password : "", a->password);

	return u & p & (user != NULL) & (password != NULL);
}

void serve_auth_clear(struct serve_auth *a)
{
	explicit_bzero(a, sizeof(*a));
}

int serve_parse_opts(int argc, char **argv, struct serve_opts *o)
{
	const char *cmd = argv[0], *listen = SERVE_DEFAULT_LISTEN;
	unsigned long long v;
	int c;

	memset(o, 0, sizeof(*o));
	o->rate = SERVE_DEFAULT_RATE;
	o->max_seconds = SERVE_DEFAULT_MAX_SECONDS;
	optind = 1;
	opterr = 0;
	while ((c = ctl_getopt(argc, argv, "", serve_options)) != -1) {
		switch (c) {
		case SERVE_OPT_LISTEN:
			listen = optarg;
			break;
		case SERVE_OPT_AUTH_FILE:
			o->auth_file = optarg;
			break;
		case SERVE_OPT_NO_AUTH:
			o->no_auth = true;
			break;
		case 'r':
		case 'F':
			if (ctl_parse_u64(optarg, 10, SERVE_MAX_RATE, &v) < 0) {
				ctl_usage_error(cmd,
						"--rate: '%s' is not a "
						"rate from 10 to %d Hz",
						optarg, SERVE_MAX_RATE);
				return SERVE_PARSE_USAGE;
			}
			o->rate = (uint32_t)v;
			break;
		case SERVE_OPT_MAX_SECONDS:
			if (ctl_parse_u64(optarg, 1, SERVE_MAX_MAX_SECONDS,
					  &v) < 0) {
				ctl_usage_error(cmd,
						"--max-seconds: '%s' is "
						"not from 1 to %d",
						optarg, SERVE_MAX_MAX_SECONDS);
				return SERVE_PARSE_USAGE;
			}
			o->max_seconds = (unsigned int)v;
			break;
		case 'h':
			ctl_help(cmd, serve_options);
			return SERVE_PARSE_HELP;
		case ':':
			ctl_usage_error(cmd, "option '%s' needs an argument",
					argv[optind - 1]);
			return SERVE_PARSE_USAGE;
		default:
			ctl_usage_error(cmd, "unknown option '%s'",
					argv[optind - 1]);
			return SERVE_PARSE_USAGE;
		}
	}
	if (optind < argc) {
		ctl_usage_error(cmd, "unexpected argument '%s'", argv[optind]);
		return SERVE_PARSE_USAGE;
	}
	if (serve_parse_listen(listen, o->host, sizeof(o->host), &o->port)) {
		ctl_usage_error(cmd,
				"--listen: '%s' is not HOST:PORT (a port "
				"from 1 to 65535)",
				listen);
		return SERVE_PARSE_USAGE;
	}
	if (!o->auth_file == !o->no_auth) {
		ctl_usage_error(
			cmd,
			o->no_auth ?
				"--auth-file and --no-auth "
				"are exclusive" :
				"--auth-file=FILE, or "
				"--no-auth to serve every profile to anyone "
				"who reaches the address");
		return SERVE_PARSE_USAGE;
	}
	return 0;
}
