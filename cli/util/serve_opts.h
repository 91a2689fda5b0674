/* SPDX-License-Identifier: GPL-2.0 */
/*
 * profil-ctl serve's options and the pure parts of its HTTP requests
 * (cli/util/serve_opts.c): the listen address, the rate, the auth file
 * and its check, the seconds of a profile request. No I/O but the auth
 * file's read, no HTTP library: builtin-serve.c serves.
 */
#ifndef PROFIL_CTL_SERVE_OPTS_H
#define PROFIL_CTL_SERVE_OPTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SERVE_DEFAULT_LISTEN "127.0.0.1:6060"
/* A prime, out of step with timers, as record's. */
#define SERVE_DEFAULT_RATE 97
/* Above 1000 Hz on every CPU for as long as a request runs: refused. */
#define SERVE_MAX_RATE 1000
/* A request without seconds: 30, as Go's net/http/pprof. */
#define SERVE_DEFAULT_SECONDS 30
#define SERVE_DEFAULT_MAX_SECONDS 300
#define SERVE_MAX_MAX_SECONDS 3600
/* The longest user and password of an auth file. */
#define SERVE_AUTH_MAX 256

/**
 * struct serve_opts - the command line
 * @host: the address to listen on ("" for every address), without
 *	brackets
 * @port: its port
 * @auth_file: --auth-file, or NULL
 * @no_auth: --no-auth
 * @rate: samples per CPU second
 * @max_seconds: the longest profile a request may ask for
 */
struct serve_opts {
	char host[256];
	unsigned int port;
	const char *auth_file;
	bool no_auth;
	uint32_t rate;
	unsigned int max_seconds;
};

/* serve_parse_opts()'s answers that end the command at once. */
enum {
	SERVE_PARSE_USAGE = -1, /* a usage error, printed */
	SERVE_PARSE_HELP = -2, /* --help, printed */
};

/**
 * serve_parse_opts() - @argv into @o, with the defaults
 * Return: 0, SERVE_PARSE_USAGE or SERVE_PARSE_HELP.
 */
int serve_parse_opts(int argc, char **argv, struct serve_opts *o);

/**
 * serve_parse_listen() - "HOST:PORT", "[IPV6]:PORT" or ":PORT" (every
 * address) into @host (@len bytes) and @port (1 to 65535)
 * Return: 0, or -1.
 */
int serve_parse_listen(const char *arg, char *host, size_t len,
		       unsigned int *port);

/**
 * serve_parse_seconds() - a request's "seconds" (@arg; NULL if absent:
 * SERVE_DEFAULT_SECONDS, or @max if lower) into @out: a whole number
 * from 1 to @max
 * @why: a one-line reason when refused (@len bytes)
 * Return: 0, or -1.
 */
int serve_parse_seconds(const char *arg, unsigned int max, unsigned int *out,
			char *why, size_t len);

/**
 * struct serve_auth - the credentials of basic authentication
 * @user: the user name
 * @password: its password
 */
struct serve_auth {
	char user[SERVE_AUTH_MAX + 1];
	char password[SERVE_AUTH_MAX + 1];
};

/**
 * serve_auth_parse() - @text, an auth file's content ("user:password",
 * one line, a newline or CRLF after it, blank lines after that), into @a
 * @why: the reason when refused (@len bytes)
 * Return: 0, or -1.
 */
int serve_auth_parse(const char *text, struct serve_auth *a, char *why,
		     size_t len);

/**
 * serve_auth_load() - read and parse the auth file @path; refused if it is
 * not a regular file, or if others may read, write or search it (mode &
 * 007), as ssh refuses a private key
 * @why: the reason when refused (@len bytes)
 * Return: 0, or -1.
 */
int serve_auth_load(const char *path, struct serve_auth *a, char *why,
		    size_t len);

/**
 * serve_equal() - whether @given is @secret, in a time that depends on
 * their lengths only, never on where they first differ
 */
bool serve_equal(const char *given, const char *secret);

/**
 * serve_auth_check() - whether @user and @password (NULL: none given)
 * are @a's; both are compared whatever the first's outcome
 */
bool serve_auth_check(const struct serve_auth *a, const char *user,
		      const char *password);

/** serve_auth_clear() - wipe @a's password from memory. */
void serve_auth_clear(struct serve_auth *a);

#endif /* PROFIL_CTL_SERVE_OPTS_H */
