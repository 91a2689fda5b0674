// SPDX-License-Identifier: GPL-2.0
/*
 * profil-ctl serve: the whole machine's profile over HTTP, as Go's
 * net/http/pprof serves a program's: GET /debug/pprof/profile?seconds=N
 * answers, N seconds later, with a gzip'ed pprof profile of every
 * process of the machine for those N seconds, which go tool pprof,
 * Parca and Grafana's agents fetch.
 *
 * libmicrohttpd serves, a thread per connection (a request blocks for
 * its N seconds), at most SERVE_CONNECTIONS at once. Overlapping
 * requests share one kernel profile (machine_share.h): each gets what
 * was counted during its own seconds. Basic authentication with the
 * credentials of --auth-file, or none with --no-auth.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <netdb.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <microhttpd.h>

#include "commands.h"
#include "ctl.h"
#include "export.h"
#include "live.h"
#include "machine_share.h"
#include "serve_opts.h"

#define SERVE_PATH "/debug/pprof/profile"
#define SERVE_REALM "profil"
/* Connections at once, and how long an idle one is kept. */
#define SERVE_CONNECTIONS 16
#define SERVE_IDLE_SECONDS 60
/* How long a stop waits for the answers of requests under way. */
#define SERVE_STOP_MS 10000

struct serve {
	atomic_uint inflight; /* requests not yet answered and sent */
	struct serve_opts o;
	struct serve_auth auth;
	struct machine_share share;
	/* One read and symbolization of ELF files at a time. */
	pthread_mutex_t elf_lock;
};

/* Queue @r with @status and the headers every answer has; drop @r. */
static enum MHD_Result queue(struct MHD_Connection *c, unsigned int status,
			     struct MHD_Response *r, const char *type)
{
	enum MHD_Result ret;

	if (!r)
		return MHD_NO; /* no memory: MHD closes the connection */
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, type);
	MHD_add_response_header(r, "X-Content-Type-Options", "nosniff");
	if (status == MHD_HTTP_METHOD_NOT_ALLOWED)
		MHD_add_response_header(r, MHD_HTTP_HEADER_ALLOW, "GET");
	if (status == MHD_HTTP_UNAUTHORIZED)
		ret = MHD_queue_basic_auth_fail_response(c, SERVE_REALM, r);
	else
		ret = MHD_queue_response(c, status, r);
	MHD_destroy_response(r);
	return ret;
}

/* A one-line text answer. */
static enum MHD_Result reply(struct MHD_Connection *c, unsigned int status,
			     const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static enum MHD_Result reply(struct MHD_Connection *c, unsigned int status,
			     const char *fmt, ...)
{
	struct MHD_Response *r;
	va_list ap;
	char *body;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&body, fmt, ap);
	va_end(ap);
	if (n < 0)
		return MHD_NO;
	r = MHD_create_response_from_buffer((size_t)n, body,
					    MHD_RESPMEM_MUST_FREE);
	if (!r)
		free(body);
	return queue(c, status, r, "text/plain; charset=utf-8");
}

static bool authorized(struct serve *sv, struct MHD_Connection *c)
{
	char *user, *password = NULL;
	bool ok;

	if (sv->o.no_auth)
		return true;
	user = MHD_basic_auth_get_username_password(c, &password);
	ok = serve_auth_check(&sv->auth, user, password);
	if (password) {
		explicit_bzero(password, strlen(password));
		MHD_free(password);
	}
	if (user)
		MHD_free(user);
	return ok;
}

/* @p as a gzip'ed pprof profile, in memory. */
static int serve_render(const struct profile *p, char **buf, size_t *size)
{
	struct report_opts ro;
	FILE *f;
	int ret, err;

	report_opts_init(&ro);
	ro.render.format = RENDER_PPROF;
	f = open_memstream(buf, size);
	if (!f)
		return -1;
	ret = export_profile(f, p, &ro, false, NULL);
	err = errno;
	if (fclose(f) && !ret) {
		err = errno;
		ret = -1;
	}
	if (ret) {
		free(*buf);
		*buf = NULL;
	}
	errno = err;
	return ret;
}

/* GET /debug/pprof/profile?seconds=N: N seconds of the machine. */
static enum MHD_Result profile_request(struct serve *sv,
				       struct MHD_Connection *c,
				       unsigned int seconds)
{
	struct machine_req q;
	struct profile p = { 0 };
	struct MHD_Response *r;
	char why[512], *buf = NULL;
	size_t size = 0;
	int ret;

	if (machine_share_begin(&sv->share, &q, why, sizeof(why)))
		return reply(c,
			     errno == EBUSY || errno == ECANCELED ?
				     MHD_HTTP_SERVICE_UNAVAILABLE :
				     MHD_HTTP_INTERNAL_SERVER_ERROR,
			     "%s\n", why);
	if (machine_share_wait(&sv->share, seconds)) {
		/* Stopping: the request ends, unread. */
		machine_share_end(&sv->share, &q, NULL, why, sizeof(why));
		return reply(c, MHD_HTTP_SERVICE_UNAVAILABLE,
			     "the server is stopping\n");
	}
	/*
	 * The read opens the files the kernel sampled (libelf), as the
	 * rendering does (libdw): one request at a time does either.
	 */
	pthread_mutex_lock(&sv->elf_lock);
	ret = machine_share_end(&sv->share, &q, &p, why, sizeof(why));
	if (!ret && serve_render(&p, &buf, &size)) {
		snprintf(why, sizeof(why), "writing the profile: %s",
			 strerror(errno));
		ret = -1;
	}
	pthread_mutex_unlock(&sv->elf_lock);
	profile_free(&p);
	if (ret)
		return reply(c, MHD_HTTP_INTERNAL_SERVER_ERROR, "%s\n", why);
	r = MHD_create_response_from_buffer(size, buf, MHD_RESPMEM_MUST_FREE);
	if (!r) {
		free(buf);
		return MHD_NO;
	}
	/* As Go's net/http/pprof answers. */
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_DISPOSITION,
				"attachment; filename=\"profile\"");
	return queue(c, MHD_HTTP_OK, r, "application/octet-stream");
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *c,
				  const char *url, const char *method,
				  const char *version, const char *upload_data,
				  size_t *upload_data_size, void **con_cls)
{
	struct serve *sv = cls;
	unsigned int seconds;
	char why[256];

	(void)version;
	(void)upload_data;
	(void)upload_data_size;
	/* Answered at the first call: the one call of the request. */
	*con_cls = sv;
	atomic_fetch_add(&sv->inflight, 1);
	/* Nothing, not even which paths exist, before authentication. */
	if (!authorized(sv, c))
		return reply(c, MHD_HTTP_UNAUTHORIZED,
			     "authentication required\n");
	if (strcmp(url, SERVE_PATH))
		return reply(c, MHD_HTTP_NOT_FOUND,
			     "not found: profil-ctl "
			     "serve answers GET " SERVE_PATH "?seconds=N\n");
	if (strcmp(method, MHD_HTTP_METHOD_GET))
		return reply(c, MHD_HTTP_METHOD_NOT_ALLOWED,
			     "method not allowed: GET only\n");
	if (serve_parse_seconds(MHD_lookup_connection_value(
					c, MHD_GET_ARGUMENT_KIND, "seconds"),
				sv->o.max_seconds, &seconds, why, sizeof(why)))
		return reply(c, MHD_HTTP_BAD_REQUEST, "%s\n", why);
	return profile_request(sv, c, seconds);
}

/* A request ended: its answer sent, or its connection gone. */
static void on_completed(void *cls, struct MHD_Connection *c, void **con_cls,
			 enum MHD_RequestTerminationCode toe)
{
	struct serve *sv = cls;

	(void)c;
	(void)toe;
	if (*con_cls)
		atomic_fetch_sub(&sv->inflight, 1);
	*con_cls = NULL;
}

/*
 * Whether this process may profile the machine: a machine-wide profile
 * made and closed at once, so that a missing capability is said at the
 * start, not at the first request. Another one running is no error.
 */
static int serve_probe(const struct serve_opts *o)
{
	const struct profil_machine_params p = {
		.rate = o->rate,
		.images_max = 1,
		.samples_max = 1,
		.cgroup_fd = -1,
	};
	struct profil_handle *h = live_open("serve");
	int ret;

	if (!h)
		return -1;
	ret = profil_collect_machine(h, &p);
	if (ret < 0 && errno == EBUSY) {
		ctl_errorf("serve",
			   "note: %s: requests get 503 until it "
			   "ends",
			   profil_strerror());
		ret = 0;
	} else if (ret < 0 && errno == EPERM) {
		ctl_errorf("serve",
			   "%s (profiling every process takes "
			   "CAP_PERFMON or CAP_SYS_ADMIN, as perf record -a)",
			   profil_strerror());
	} else if (ret < 0) {
		ctl_perror_lib("serve");
	}
	profil_handle_close(h);
	return ret;
}

static struct MHD_Daemon *serve_start(struct serve *sv)
{
	unsigned int flags = MHD_USE_AUTO | MHD_USE_INTERNAL_POLLING_THREAD |
			     MHD_USE_THREAD_PER_CONNECTION | MHD_USE_ITC |
			     MHD_USE_ERROR_LOG;
	struct addrinfo hints = {
		.ai_socktype = SOCK_STREAM,
		.ai_flags = AI_NUMERICSERV | AI_PASSIVE,
	}, *ai = NULL;
	struct MHD_Daemon *d;
	char port[8];
	int err;

	snprintf(port, sizeof(port), "%u", sv->o.port);
	if (!sv->o.host[0]) /* every address, IPv4 and IPv6 */
		return MHD_start_daemon(flags | MHD_USE_DUAL_STACK,
					(uint16_t)sv->o.port, NULL, NULL,
					on_request, sv,
					MHD_OPTION_CONNECTION_LIMIT,
					(unsigned int)SERVE_CONNECTIONS,
					MHD_OPTION_CONNECTION_TIMEOUT,
					(unsigned int)SERVE_IDLE_SECONDS,
					MHD_OPTION_NOTIFY_COMPLETED,
					on_completed, sv, MHD_OPTION_END);
	err = getaddrinfo(sv->o.host, port, &hints, &ai);
	if (err) {
		ctl_errorf("serve", "--listen: %s: %s", sv->o.host,
			   gai_strerror(err));
		return NULL;
	}
	if (ai->ai_family == AF_INET6)
		flags |= MHD_USE_IPv6;
	d = MHD_start_daemon(
		flags, (uint16_t)sv->o.port, NULL, NULL, on_request, sv,
		MHD_OPTION_SOCK_ADDR, ai->ai_addr, MHD_OPTION_CONNECTION_LIMIT,
		(unsigned int)SERVE_CONNECTIONS, MHD_OPTION_CONNECTION_TIMEOUT,
		(unsigned int)SERVE_IDLE_SECONDS, MHD_OPTION_NOTIFY_COMPLETED,
		on_completed, sv, MHD_OPTION_END);
	if (!d)
		ctl_errorf("serve",
			   "cannot serve on %s port %s (in use, or "
			   "not an address of this machine)",
			   sv->o.host, port);
	freeaddrinfo(ai);
	return d;
}

int cmd_serve(int argc, char **argv)
{
	struct serve sv;
	struct MHD_Daemon *d;
	sigset_t set, old;
	char why[512];
	int sig, i, ret = CTL_EXIT_FAIL;

	memset(&sv, 0, sizeof(sv));
	ret = serve_parse_opts(argc, argv, &sv.o);
	if (ret)
		return ret == SERVE_PARSE_HELP ? CTL_EXIT_OK : CTL_EXIT_USAGE;
	ret = CTL_EXIT_FAIL;
	if (sv.o.auth_file &&
	    serve_auth_load(sv.o.auth_file, &sv.auth, why, sizeof(why))) {
		ctl_errorf(argv[0], "--auth-file: %s", why);
		return CTL_EXIT_FAIL;
	}
	if (serve_probe(&sv.o))
		goto out_auth;
	if (machine_share_init(&sv.share, sv.o.rate) ||
	    pthread_mutex_init(&sv.elf_lock, NULL)) {
		ctl_perror(argv[0]);
		goto out_auth;
	}
	/* The threads MHD starts inherit the mask: signals come here. */
	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	signal(SIGPIPE, SIG_IGN);
	pthread_sigmask(SIG_BLOCK, &set, &old);
	d = serve_start(&sv);
	if (!d)
		goto out;
	ctl_errorf(argv[0],
		   "serving http://%s%s%s:%u" SERVE_PATH " (%u Hz, %s)",
		   strchr(sv.o.host, ':') ? "[" : "",
		   sv.o.host[0] ? sv.o.host : "*",
		   strchr(sv.o.host, ':') ? "]" : "", sv.o.port, sv.o.rate,
		   sv.o.no_auth ? "no authentication" : "basic authentication");
	while (sigwait(&set, &sig) == 0 && sig != SIGINT && sig != SIGTERM &&
	       sig != SIGHUP)
		;
	ctl_errorf(argv[0], "stopping");
	/* Requests that wait end now (503); MHD joins their threads. */
	machine_share_stop(&sv.share);
	/* Their 503s sent before MHD closes every connection. */
	for (i = 0; i < SERVE_STOP_MS / 50 && atomic_load(&sv.inflight); i++)
		nanosleep(&(struct timespec){ .tv_nsec = 50000000 }, NULL);
	MHD_stop_daemon(d);
	ret = CTL_EXIT_OK;
out:
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	machine_share_free(&sv.share);
	pthread_mutex_destroy(&sv.elf_lock);
out_auth:
	serve_auth_clear(&sv.auth);
	return ret;
}
