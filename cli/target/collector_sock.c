// SPDX-License-Identifier: GPL-2.0
/*
 * The collector's socket: its name, its listening end, and the client's
 * request (collector_sock.h).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>

#include "collector_sock.h"
#include "ctl.h"
#include "profile_file.h"

/* How long a client waits for an answer (a large profile takes time). */
#define COLLECTOR_CLIENT_TIMEOUT 120

/* The answer's largest size: the loader's own limit and a header line. */
#define COLLECTOR_REPLY_MAX (PROFILE_FILE_MAX_SIZE + 64)

void collector_addr(pid_t pid, struct sockaddr_un *sa, socklen_t *len)
{
	int n;

	memset(sa, 0, sizeof(*sa));
	sa->sun_family = AF_UNIX;
	/* sun_path[0] stays '\0': the abstract namespace. */
	n = snprintf(sa->sun_path + 1, sizeof(sa->sun_path) - 1,
		     COLLECTOR_NAME_FMT, (int)pid);
	*len = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + n);
}

/*
 * A stream socket, and the collector of @pid's address in @sa, @len:
 * the fd, or -errno.
 */
static int collector_socket(pid_t pid, struct sockaddr_un *sa,
			    socklen_t *len)
{
	int fd;

	collector_addr(pid, sa, len);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	return fd < 0 ? -errno : fd;
}

/* Close @fd and return -errno of the call that failed on it. */
static int collector_fail(int fd)
{
	int err = -errno;

	close(fd);
	return err;
}

int collector_listen(pid_t pid)
{
	struct sockaddr_un sa;
	socklen_t len;
	int fd = collector_socket(pid, &sa, &len);

	if (fd >= 0 &&
	    (bind(fd, (struct sockaddr *)&sa, len) < 0 || listen(fd, 8) < 0))
		return collector_fail(fd);
	return fd;
}

bool collector_trusted(uid_t uid)
{
	return uid == geteuid() || uid == 0;
}

/* Connect to the collector of @pid: the fd, or -errno. */
static int collector_connect(pid_t pid)
{
	struct timeval tv = { .tv_sec = COLLECTOR_CLIENT_TIMEOUT };
	struct sockaddr_un sa;
	socklen_t len;
	int fd = collector_socket(pid, &sa, &len);

	if (fd >= 0 &&
	    (connect(fd, (struct sockaddr *)&sa, len) < 0 ||
	     setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)) < 0 ||
	     setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv)) < 0))
		return collector_fail(fd);
	return fd;
}

/* The whole answer on @fd, to its end, into a malloc()ed *@buf. */
static int read_all(int fd, char **buf, size_t *len)
{
	size_t cap = 65536, n = 0;
	char *b = malloc(cap + 1), *nb;
	ssize_t got;

	if (!b)
		return -1;
	for (;;) {
		if (n == cap) {
			if (cap >= COLLECTOR_REPLY_MAX) {
				errno = EFBIG;
				goto err;
			}
			cap *= 2;
			nb = realloc(b, cap + 1);
			if (!nb)
				goto err;
			b = nb;
		}
		got = read(fd, b + n, cap - n);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0)
			goto err;
		if (!got)
			break;
		n += (size_t)got;
	}
	b[n] = '\0';
	*buf = b;
	*len = n;
	return 0;
err:
	free(b);
	return -1;
}

/*
 * The "notes" words of the answer's first line [@buf, @end), if there:
 * secure exec, images lost, profile full, mmap busy, replaced, and the
 * first secure exec's command ("-": none). A collector without them
 * leaves @n zero.
 */
static void parse_notes(const char *buf, const char *end,
			struct held_notes *n)
{
	char line[256], comm[sizeof(n->secure_comm)];
	const char *w;

	memset(n, 0, sizeof(*n));
	snprintf(line, sizeof(line), "%.*s", (int)(end - buf), buf);
	w = strstr(line, " notes ");
	if (!w || sscanf(w, " notes %" SCNu64 " %" SCNu64 " %" SCNu64
			 " %" SCNu64 " %" SCNu64 " %15s", &n->secure_exec,
			 &n->images_lost, &n->profile_full, &n->mmap_busy,
			 &n->replaced, comm) != 6) {
		memset(n, 0, sizeof(*n));
		return;
	}
	if (strcmp(comm, "-"))
		memcpy(n->secure_comm, comm, sizeof(n->secure_comm));
}

/* The answer @buf of @len bytes into @r. */
static int parse_reply(const char *op, pid_t pid, const char *buf,
		       size_t len, struct collector_reply *r)
{
	const char *nl = memchr(buf, '\n', len);
	char err[256];
	int cpid;

	if (nl && !strncmp(buf, "error ", 6)) {
		snprintf(r->error, sizeof(r->error), "%.*s",
			 (int)(nl - buf - 6), buf + 6);
		ctl_errorf(op, "process %d: its collector: %s", (int)pid,
			   r->error);
		return -1;
	}
	if (!nl || sscanf(buf, "ok %d", &cpid) != 1 || cpid <= 0) {
		ctl_errorf(op, "process %d: its collector's answer is not "
			   "one (%zu bytes)", (int)pid, len);
		return -1;
	}
	r->pid = (pid_t)cpid;
	parse_notes(buf, nl, &r->notes);
	nl++;
	if (profile_load_mem(nl, len - (size_t)(nl - buf), &r->profile, err,
			     sizeof(err)) < 0) {
		ctl_errorf(op, "process %d: its collector's profile: %s",
			   (int)pid, err);
		return -1;
	}
	return 0;
}

int collector_request(const char *op, pid_t pid, const char *req,
		      struct collector_reply *r)
{
	struct ucred cred;
	socklen_t clen = sizeof(cred);
	char line[COLLECTOR_REQ_MAX], name[32];
	size_t len;
	char *buf;
	int fd, n, ret = -1;

	memset(r, 0, sizeof(*r));
	fd = collector_connect(pid);
	/* An abstract name nobody listens on: ECONNREFUSED. */
	if (fd == -ECONNREFUSED || fd == -ENOENT)
		return COLLECTOR_NONE;
	snprintf(name, sizeof(name), "@" COLLECTOR_NAME_FMT, (int)pid);
	if (fd < 0) {
		ctl_errorf(op, "process %d: %s: %s", (int)pid, name,
			   strerror(-fd));
		return -1;
	}
	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &clen) < 0) {
		ctl_errorf(op, "process %d: %s: %s", (int)pid, name,
			   strerror(errno));
		goto out;
	}
	if (!collector_trusted(cred.uid)) {
		ctl_errorf(op, "process %d: %s is held by uid %u, neither "
			   "this user nor root: not a collector to believe "
			   "(only its user or root may end it)", (int)pid,
			   name, (unsigned int)cred.uid);
		goto out;
	}
	n = snprintf(line, sizeof(line), "%s\n", req);
	if (send(fd, line, (size_t)n, MSG_NOSIGNAL) != n ||
	    read_all(fd, &buf, &len) < 0) {
		ctl_errorf(op, "process %d: %s: %s", (int)pid, name,
			   strerror(errno == EAGAIN ? ETIMEDOUT : errno));
		goto out;
	}
	ret = parse_reply(op, pid, buf, len, r);
	free(buf);
out:
	close(fd);
	if (ret)
		profile_free(&r->profile);
	return ret;
}
