// SPDX-License-Identifier: GPL-2.0
/*
 * profil-ctl start's collector (collector_daemon.h).
 *
 * One process, one connection at a time: each is a request line and an
 * answer (collector_sock.h), under timeouts, so that a client that
 * stalls holds the collector up for seconds, not for ever. A peer of
 * another uid than the collector's (and not root) is answered "error"
 * and nothing else. SIGTERM, SIGINT and SIGHUP end it as "stop" does,
 * without an answer; the vDSO copy the reads made is removed.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/time.h>
#include <unistd.h>

#include "collector_daemon.h"
#include "collector_sock.h"
#include "ctl.h"
#include "profile_file.h"

/* How long a client may take to send its request, or to read. */
#define COLLECTOR_PEER_TIMEOUT 10

/* The signals that end the collector cleanly. */
static void end_signals(sigset_t *set)
{
	sigemptyset(set);
	sigaddset(set, SIGTERM);
	sigaddset(set, SIGINT);
	sigaddset(set, SIGHUP);
}

/* Every signal at its default, none blocked: nothing of profil-ctl's. */
static void default_signals(void)
{
	struct sigaction sa = { .sa_handler = SIG_DFL };
	sigset_t none;
	int sig;

	for (sig = 1; sig < NSIG; sig++)
		if (sig != SIGKILL && sig != SIGSTOP)
			sigaction(sig, &sa, NULL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
}

/*
 * Close the fds profil-ctl was given (a caller's pipe would stay open for
 * as long as the collector runs) and its own, but @keep and the netlink
 * sockets: the profile's is one, and libprofil does not say which.
 */
static void close_inherited(int keep)
{
	DIR *d = opendir("/proc/self/fd");
	socklen_t len;
	struct dirent *e;
	int fd, domain;

	if (!d)
		return;
	while ((e = readdir(d))) {
		fd = atoi(e->d_name);
		len = sizeof(domain);
		if (fd <= 2 || fd == keep || fd == dirfd(d) ||
		    (!getsockopt(fd, SOL_SOCKET, SO_DOMAIN, &domain, &len) &&
		     domain == AF_NETLINK))
			continue;
		close(fd);
	}
	closedir(d);
}

/* Standard input, output and error on /dev/null; "/" the directory. */
static int detach_stdio(void)
{
	int fd = open("/dev/null", O_RDWR);

	if (fd < 0 || dup2(fd, 0) < 0 || dup2(fd, 1) < 0 || dup2(fd, 2) < 0)
		return -1;
	if (fd > 2)
		close(fd);
	return chdir("/");
}

/* Send all of @buf; MSG_NOSIGNAL: a client gone is no SIGPIPE. */
static int send_all(int fd, const char *buf, size_t len)
{
	ssize_t n;

	while (len) {
		n = send(fd, buf, len, MSG_NOSIGNAL);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

static void send_error(int fd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void send_error(int fd, const char *fmt, ...)
{
	char line[256];
	va_list ap;
	int n;

	n = snprintf(line, sizeof(line), "error ");
	va_start(ap, fmt);
	n += vsnprintf(line + n, sizeof(line) - (size_t)n - 1, fmt, ap);
	va_end(ap);
	if (n > (int)sizeof(line) - 2)
		n = (int)sizeof(line) - 2;
	line[n++] = '\n';
	send_all(fd, line, (size_t)n);
}

/* The profile as it is now, saved into a malloc()ed *@buf. */
static int profile_text(struct collect *c, char **buf, size_t *len)
{
	struct profile p = { 0 };
	struct held_notes notes;
	FILE *f;
	int ret = -1;

	*buf = NULL;
	if (collect_read(c, &p, &notes) < 0)
		goto out;
	if (c->cmd && profile_set_command(&p, c->cmd, c->ncmd))
		goto out;
	f = open_memstream(buf, len);
	if (!f)
		goto out;
	/* The notes, for show and stop to print as run does. */
	fprintf(f, "ok %d notes %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64
		" %" PRIu64 " %s\n", (int)getpid(), notes.secure_exec,
		notes.images_lost, notes.profile_full, notes.mmap_busy,
		notes.replaced, notes.secure_comm[0] ? notes.secure_comm : "-");
	ret = profile_save(f, &p);
	if (fclose(f))
		ret = -1;
out:
	if (ret) {
		free(*buf);
		*buf = NULL;
	}
	profile_free(&p);
	return ret;
}

/*
 * One connection: check the peer, read its request, answer. Return: 1
 * after a "stop" (answered or not), else 0.
 */
static int serve_one(struct collect *c, int fd)
{
	struct timeval tv = { .tv_sec = COLLECTOR_PEER_TIMEOUT };
	char req[COLLECTOR_REQ_MAX + 1], *nl, *text;
	struct ucred cred;
	socklen_t clen = sizeof(cred);
	size_t len = 0;
	ssize_t n;
	bool stop;

	if (setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)) < 0 ||
	    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv)) < 0 ||
	    getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &clen) < 0)
		return 0;
	/*
	 * The request first, whoever sent it: a close with it unread would
	 * reset the connection before the peer read the answer.
	 */
	do {
		n = read(fd, req + len, COLLECTOR_REQ_MAX - len);
		if (n > 0)
			len += (size_t)n;
		req[len] = '\0';
	} while ((n > 0 || (n < 0 && errno == EINTR)) && !strchr(req, '\n') &&
		 len < COLLECTOR_REQ_MAX);
	nl = strchr(req, '\n');
	if (!nl)
		return 0;
	*nl = '\0';
	if (!collector_trusted(cred.uid)) {
		send_error(fd, "%s: the collector of process %d serves uid %u "
			   "and root only", strerror(EPERM), (int)c->root,
			   (unsigned int)geteuid());
		return 0;
	}
	stop = !strcmp(req, COLLECTOR_REQ_STOP);
	if (!stop && strcmp(req, COLLECTOR_REQ_SHOW)) {
		send_error(fd, "unknown request '%.16s'", req);
		return 0;
	}
	if (profile_text(c, &text, &len) < 0) {
		send_error(fd, "the profile could not be read: %s",
			   strerror(errno));
	} else {
		send_all(fd, text, len);
		free(text);
	}
	return stop;
}

/* The collector's life: serve until a "stop" or a signal that ends it. */
static void serve(struct collect *c, int listen_fd, int sig_fd)
{
	struct pollfd pfd[2] = {
		{ .fd = listen_fd, .events = POLLIN },
		{ .fd = sig_fd, .events = POLLIN },
	};
	bool stop = false;
	int fd;

	while (!stop) {
		if (poll(pfd, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			return;
		}
		if (pfd[1].revents)
			return;
		if (!(pfd[0].revents & POLLIN))
			continue;
		fd = accept4(listen_fd, NULL, NULL, SOCK_CLOEXEC);
		if (fd < 0)
			continue;
		stop = serve_one(c, fd);
		if (stop) {
			/*
			 * The netlink socket first, the connection after:
			 * the client that sees the end of the answer finds
			 * the process followed no more.
			 */
			profil_handle_close(c->reader.h);
			c->reader.h = NULL;
		}
		close(fd);
	}
}

/* The child: detach, serve, clean up, exit. */
static void collector_main(struct collect *c, int listen_fd)
{
	sigset_t set;
	int sig_fd;

	setsid();
	/* collect_init()'s signalfd and timer, attach's pidfd: closed. */
	close_inherited(listen_fd);
	c->sig_fd = -1;
	c->root_fd = -1;
	c->timer_fd = -1;
	default_signals();
	end_signals(&set);
	sigprocmask(SIG_BLOCK, &set, NULL);
	c->old_mask = set;	/* collect_free() leaves them blocked */
	sig_fd = signalfd(-1, &set, SFD_CLOEXEC);
	if (detach_stdio() < 0 || sig_fd < 0)
		_exit(1);
	serve(c, listen_fd, sig_fd);
	close(listen_fd);
	collect_free(c);
	_exit(0);
}

pid_t collector_daemon_start(struct collect *c, int listen_fd)
{
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		ctl_perror(c->op);
		return -1;
	}
	if (!pid)
		collector_main(c, listen_fd);
	return pid;
}
