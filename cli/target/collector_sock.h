/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The socket of profil-ctl start's collector (collector_daemon.h): an
 * abstract unix stream socket named "profil-ctl/PID" after the process
 * it follows, in the network namespace it was started in. The kernel
 * follows a process for one collector only, hence one name per PID.
 * Abstract names have no owner: each end checks the other's credentials
 * (SO_PEERCRED), and trusts only its own uid and root's.
 *
 * The protocol: the client sends one request line ("show\n" or
 * "stop\n"); the collector answers "ok PID\n" (PID: its own) and the
 * profile in the saved format (profile_file.h), or "error TEXT\n", and
 * closes the connection. After "stop" it closes its netlink socket
 * before the connection: a client that saw the end of the answer finds
 * the process followed no more.
 */
#ifndef PROFIL_CTL_COLLECTOR_SOCK_H
#define PROFIL_CTL_COLLECTOR_SOCK_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <sys/un.h>

#include "held.h"
#include "profile.h"

/* The requests a collector serves. */
#define COLLECTOR_REQ_SHOW "show"
#define COLLECTOR_REQ_STOP "stop"

/* The longest request line, its newline included. */
#define COLLECTOR_REQ_MAX 16

/* The name's text, for messages ("@profil-ctl/PID", as ss -x shows it). */
#define COLLECTOR_NAME_FMT "profil-ctl/%d"

/**
 * collector_addr() - the abstract address of the collector of @pid into
 * @sa, its length into *@len
 */
void collector_addr(pid_t pid, struct sockaddr_un *sa, socklen_t *len);

/**
 * collector_listen() - a listening socket (close-on-exec) bound to the
 * collector name of @pid
 * Return: the fd, or -errno (EADDRINUSE: a collector, or something else,
 * holds the name).
 */
int collector_listen(pid_t pid);

/**
 * collector_trusted() - whether a peer of uid @uid may be served or
 * believed: our own uid, or root
 */
bool collector_trusted(uid_t uid);

/**
 * struct collector_reply - what a collector answered
 * @pid: the collector's pid ("ok PID")
 * @profile: the profile it sent (zeroed by the caller, freed with
 *	profile_free())
 * @notes: what its read of the profile found that the report must say
 *	(the answer's "notes" words; all 0 from a collector without them)
 * @error: its "error" text, or empty
 */
struct collector_reply {
	pid_t pid;
	struct profile profile;
	struct held_notes notes;
	char error[256];
};

/* collector_request()'s answers besides 0. */
enum {
	COLLECTOR_NONE = 1,	/* no collector listens for the PID */
};

/**
 * collector_request() - ask the collector of @pid for @req
 * (COLLECTOR_REQ_*) and read its answer into @r
 * @op: the command, for messages
 *
 * Return: 0 with @r filled; COLLECTOR_NONE when none listens (nothing
 * printed); -1 after printing why: a collector of a uid not trusted, one
 * that refused or failed (its text), a malformed answer.
 */
int collector_request(const char *op, pid_t pid, const char *req,
		      struct collector_reply *r);

#endif /* PROFIL_CTL_COLLECTOR_SOCK_H */
