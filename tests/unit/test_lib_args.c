// SPDX-License-Identifier: GPL-2.0
/*
 * Argument handling of the drop-ins: profil(), monstartup()/moncontrol()/
 * _mcleanup() and monitor(), including what they send and what they write.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <pthread.h>
#include <semaphore.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/gmon.h>
#include <sys/wait.h>
#include <unistd.h>
#include <libmnl/libmnl.h>
#include <linux/netlink.h>
#include <linux/profil.h>

#include "profil.h"
#include "internal.h"
#include "mock_mnl.h"

#define HDR_LEN		20
#define REC_HDR_LEN	(1 + 2 * sizeof(void *) + 4 + 4 + 15 + 1)

static unsigned short hist[16];
static char tmpdir[64];

static int setup(void **state)
{
	(void)state;
	unsetenv("PROFIL_HZ");
	unsetenv("GMON_OUT_PREFIX");
	pf_profil_reset();
	pf_mcount_reset();
	pf_monitor_reset();
	mock_mnl_reset();
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/test_lib_args.XXXXXX");
	assert_non_null(mkdtemp(tmpdir));
	assert_int_equal(chdir(tmpdir), 0);
	return 0;
}

static int teardown(void **state)
{
	char cmd[128];

	(void)state;
	assert_int_equal(chdir("/"), 0);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", tmpdir);
	assert_int_equal(system(cmd), 0);
	return 0;
}

static void expect_resolve(void)
{
	mock_expect_getfamily();
	mock_queue_family(NULL, 0);
}

/* A START with these attributes; @buf_len may carry MOCK_ANY. */
static void expect_start_attrs(uint16_t buf_len, uint64_t buf,
			       uint64_t bufsiz, uint64_t offset,
			       uint32_t scale, uint32_t rate)
{
	const struct mock_attr attrs[] = {
		{ PROFIL_ATTR_BUF, buf_len, buf },
		{ PROFIL_ATTR_BUFSIZ, 8, bufsiz },
		{ PROFIL_ATTR_OFFSET, 8, offset },
		{ PROFIL_ATTR_SCALE, 4, scale },
		{ PROFIL_ATTR_RATE, rate ? 4 : 0, rate },
		{ 0 },
	};

	mock_expect_request(PROFIL_CMD_START, NLM_F_ACK, attrs);
	mock_queue_ack();
}

static void expect_start_any_buf(uint64_t bufsiz, uint64_t offset,
				 uint32_t scale, uint32_t rate)
{
	expect_start_attrs(8 | MOCK_ANY, 0, bufsiz, offset, scale, rate);
}

static void expect_start(const void *buf, uint64_t bufsiz, uint64_t offset,
			 uint32_t scale, uint32_t rate)
{
	expect_start_attrs(8, (uintptr_t)buf, bufsiz, offset, scale, rate);
}

static void expect_off(void)
{
	expect_start(NULL, 0, 0, 0, 0);
}

/*
 * monstartup() and moncontrol(1) ask, before their START, whether this
 * process has a session already (profil-ctl's): here it has none.
 */
static void expect_no_session(void)
{
	mock_expect_request(PROFIL_CMD_GET, NLM_F_ACK, NULL);
	mock_queue_error(ENOENT, "no session", true);
}

/* The BUF attribute of the last request. */
static unsigned short *last_buf(void)
{
	const struct nlattr *a;

	mnl_attr_for_each(a, mock_last_request, 4)
		if (mnl_attr_get_type(a) == PROFIL_ATTR_BUF)
			return (void *)(uintptr_t)mnl_attr_get_u64(a);
	fail_msg("no BUF attribute");
	return NULL;
}

/*
 * profil()
 */

static void test_profil_wrapping_buffer(void **state)
{
	unsigned short *top = (void *)(UINTPTR_MAX - 3);

	(void)state;
	/* No request may be sent: the mock has no expectation queued. */
	assert_int_equal(profil(top, 16, 0, 0x8000), -1);
	assert_int_equal(errno, EFAULT);
	assert_int_equal(mock_requests, 0);
	assert_non_null(profil_last_extack());
}

static void test_profil_bufsiz_zero_is_sent(void **state)
{
	(void)state;
	expect_resolve();
	expect_start(hist, 0, 0, 0x8000, 0);
	assert_int_equal(profil(hist, 0, 0, 0x8000), 0);
}

static void test_profil_large_scale_is_sent(void **state)
{
	(void)state;
	expect_resolve();
	expect_start(hist + 1, 3, 1, 0xffffffffu, 0);	/* odd sizes too */
	assert_int_equal(profil(hist + 1, 3, 1, 0xffffffffu), 0);
}

static void test_profil_hz_invalid(void **state)
{
	static const char *const bad[] = { "9", "10001", "abc", "100x", "-100",
					   "99999999999999999999" };
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		setenv("PROFIL_HZ", bad[i], 1);
		errno = 0;
		assert_int_equal(profil(hist, sizeof(hist), 0, 2), -1);
		assert_int_equal(errno, EINVAL);
	}
	assert_int_equal(mock_requests, 0);
}

static void test_profil_hz_bounds(void **state)
{
	(void)state;
	expect_resolve();
	setenv("PROFIL_HZ", "10", 1);
	expect_start(hist, sizeof(hist), 0, 2, 10);
	assert_int_equal(profil(hist, sizeof(hist), 0, 2), 0);
	setenv("PROFIL_HZ", "10000", 1);
	expect_start(hist, sizeof(hist), 0, 2, 10000);
	assert_int_equal(profil(hist, sizeof(hist), 0, 2), 0);
	setenv("PROFIL_HZ", "", 1);	/* empty: the kernel's default */
	expect_start(hist, sizeof(hist), 0, 2, 0);
	assert_int_equal(profil(hist, sizeof(hist), 0, 2), 0);
}

static void test_profil_hz_ignored_when_off(void **state)
{
	/* glibc's profil() is __nonnull((1)): call through a plain pointer. */
	int (*const profil_nn)(unsigned short *, size_t, size_t, unsigned int) =
		profil;

	(void)state;
	setenv("PROFIL_HZ", "bogus", 1);
	expect_resolve();
	expect_off();
	assert_int_equal(profil_nn(NULL, 0, 0, 0), 0);
}

/*
 * monstartup(), moncontrol(), _mcleanup()
 */

static unsigned char *slurp(const char *path, size_t *len)
{
	static unsigned char buf[8192];
	FILE *f = fopen(path, "r");

	if (!f) {
		*len = 0;
		return NULL;
	}
	*len = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	return buf;
}

static void check_hist(const char *path, uint64_t low, uint64_t high,
		       uint32_t n, uint32_t rate, const unsigned short *bins)
{
	uintptr_t l, h;
	uint32_t v;
	size_t len;
	const unsigned char *p = slurp(path, &len);

	assert_non_null(p);
	assert_int_equal(len, HDR_LEN + REC_HDR_LEN + 2 * n);
	assert_memory_equal(p, "gmon\1\0\0\0", 8);
	p += HDR_LEN;
	assert_int_equal(p[0], 0);
	memcpy(&l, p + 1, sizeof(l));
	memcpy(&h, p + 1 + sizeof(l), sizeof(h));
	assert_int_equal(l, low);
	assert_int_equal(h, high);
	memcpy(&v, p + 1 + 2 * sizeof(l), 4);
	assert_int_equal(v, n);
	memcpy(&v, p + 5 + 2 * sizeof(l), 4);
	assert_int_equal(v, rate);
	assert_memory_equal(p + REC_HDR_LEN, bins, 2 * n);
}

static void test_monstartup_empty_range(void **state)
{
	uint64_t b = pf_gmon_load_bias();
	size_t len;

	(void)state;
	monstartup(b + 0x2000, b + 0x2000);
	monstartup(b + 0x3000, b + 0x2000);
	moncontrol(1);
	_mcleanup();
	assert_int_equal(mock_requests, 0);
	assert_null(slurp("gmon.out", &len));
}

static void test_monstartup_exact_bins(void **state)
{
	uint64_t b = pf_gmon_load_bias();
	const unsigned short want[3] = { 7, 0, 65535 };
	unsigned short *kcount;

	(void)state;
	setenv("PROFIL_HZ", "500", 1);
	expect_resolve();
	/* low 0x1001 -> 0x1000; ceil(0xa / 4) = 3 bins; high 0x100c. */
	expect_no_session();
	expect_start_any_buf(6, b + 0x1000, 32768, 500);
	monstartup(b + 0x1001, b + 0x100a);
	kcount = last_buf();
	assert_non_null(kcount);

	monstartup(b + 0x5000, b + 0x6000);	/* ignored */
	assert_int_equal(mock_requests, 3);

	expect_off();
	moncontrol(0);
	expect_no_session();
	expect_start(kcount, 6, b + 0x1000, 32768, 500);
	moncontrol(1);

	memcpy(kcount, want, sizeof(want));	/* what the kernel counted */
	expect_off();
	_mcleanup();
	check_hist("gmon.out", 0x1000, 0x100c, 3, 500, want);
	_mcleanup();	/* once only */
	assert_int_equal(mock_requests, 7);
}

static void test_monstartup_prefix(void **state)
{
	uint64_t b = pf_gmon_load_bias();
	const unsigned short zero[1] = { 0 };
	char name[64];

	(void)state;
	setenv("GMON_OUT_PREFIX", "out", 1);
	expect_resolve();
	expect_no_session();
	expect_start_any_buf(2, b + 0x40, 32768, 0);
	monstartup(b + 0x40, b + 0x41);
	expect_off();
	_mcleanup();
	snprintf(name, sizeof(name), "out.%ld", (long)getpid());
	check_hist(name, 0x40, 0x44, 1, PROFIL_RATE_DEFAULT, zero);
}

/* stderr goes to a file while capturing; capture_end() returns its text. */
static int saved_stderr = -1;

static void capture_begin(void)
{
	int fd;

	fflush(stderr);
	saved_stderr = dup(2);
	fd = open("stderr.txt", O_CREAT | O_RDWR | O_TRUNC, 0600);
	assert_true(fd >= 0 && saved_stderr >= 0);
	dup2(fd, 2);
	close(fd);
}

static const char *capture_end(void)
{
	static char text[1024];
	size_t n;
	FILE *f;

	fflush(stderr);
	dup2(saved_stderr, 2);
	close(saved_stderr);
	f = fopen("stderr.txt", "r");
	assert_non_null(f);
	n = fread(text, 1, sizeof(text) - 1, f);
	text[n] = '\0';
	fclose(f);
	unlink("stderr.txt");
	return text;
}

static void test_monstartup_module_absent(void **state)
{
	uint64_t b = pf_gmon_load_bias();
	char want[512];
	const char *got;
	size_t len;
	FILE *f;

	(void)state;
	/* A profile of an earlier run, which a failed run must not replace. */
	f = fopen("gmon.out", "w");
	assert_non_null(f);
	fputs("an earlier profile\n", f);
	fclose(f);

	capture_begin();
	mock_expect_getfamily();
	mock_queue_error(ENOENT, NULL, true);
	monstartup(b + 0x100, b + 0x108);
	moncontrol(0);	/* nothing to stop, nothing sent */
	moncontrol(1);	/* nothing started either, as glibc's ERROR */
	_mcleanup();
	_mcleanup();	/* once only */
	got = capture_end();

	assert_int_equal(mock_requests, 1);
	assert_non_null(slurp("gmon.out", &len));
	assert_int_equal(len, strlen("an earlier profile\n"));
	snprintf(want, sizeof(want),
		 "monstartup: profil: %s (is profil.ko loaded?)\n"
		 "_mcleanup: gmon.out: not written, monstartup failed: "
		 "profil: %s (is profil.ko loaded?)\n",
		 strerror(ENOSYS), strerror(ENOSYS));
	assert_string_equal(got, want);
}

static void test_moncontrol_failure_keeps_profile(void **state)
{
	uint64_t b = pf_gmon_load_bias();
	const unsigned short want[2] = { 4, 2 };
	unsigned short *kcount;
	const char *got;

	(void)state;
	/* Started once: what was counted is written even if a restart fails. */
	expect_resolve();
	expect_no_session();
	expect_start_any_buf(4, b + 0x100, 32768, 0);
	monstartup(b + 0x100, b + 0x108);
	kcount = last_buf();
	expect_off();
	moncontrol(0);
	memcpy(kcount, want, sizeof(want));
	capture_begin();
	expect_no_session();
	mock_expect_request(PROFIL_CMD_START, NLM_F_ACK,
			    (const struct mock_attr[]) {
				{ PROFIL_ATTR_BUF, 8, (uintptr_t)kcount },
				{ PROFIL_ATTR_BUFSIZ, 8, 4 },
				{ PROFIL_ATTR_OFFSET, 8, b + 0x100 },
				{ PROFIL_ATTR_SCALE, 4, 32768 },
				{ 0 },
			    });
	mock_queue_error(EINVAL, "rate out of range", true);
	moncontrol(1);
	got = capture_end();
	assert_string_equal(got, "moncontrol: profil: rate out of range\n");
	expect_off();
	_mcleanup();
	check_hist("gmon.out", 0x100, 0x108, 2, PROFIL_RATE_DEFAULT, want);
}

/*
 * A process with a buffer session already, on another tool's
 * buffer: monstartup() does not restart it (EBUSY, no START) and
 * _mcleanup() writes nothing.
 */
static void test_monstartup_busy(void **state)
{
	uint64_t b = pf_gmon_load_bias();
	struct profil_status theirs = {
		.pid = getpid(), .buf = 0x7f0000000000ULL, .bufsiz = 4096,
		.scale = 65536, .rate = 100, .state = PROFIL_STATE_ACTIVE,
	};
	const char *got;
	size_t len;

	(void)state;
	capture_begin();
	expect_resolve();
	mock_expect_request(PROFIL_CMD_GET, NLM_F_ACK, NULL);
	mock_queue(mock_msg_status(PROFIL_CMD_GET, 0, &theirs), false);
	mock_queue_ack();
	monstartup(b + 0x100, b + 0x108);
	assert_int_equal(errno, EBUSY);
	_mcleanup();
	got = capture_end();
	assert_int_equal(mock_requests, 2);	/* resolve, GET: no START */
	assert_null(slurp("gmon.out", &len));
	assert_non_null(strstr(got, "monstartup: profil: busy (EBUSY): "
			       "this process is already profiled"));
	assert_non_null(strstr(got, "_mcleanup: gmon.out: not written"));
}

/*
 * fork() while another thread is inside the round trip, under the locks
 * of moncontrol() and profil(): the child must not inherit them locked.
 */
static sem_t in_trip, go_on;

/* The stopping thread's round trip, served without cmocka. */
static ssize_t send_in_thread(size_t len)
{
	mock_send_hook = NULL;	/* once */
	return (ssize_t)len;
}

static ssize_t block_in_trip(void *buf, size_t bufsiz)
{
	mock_recv_hook = NULL;	/* once */
	sem_post(&in_trip);
	sem_wait(&go_on);
	return mock_put_ack(buf, bufsiz);
}

static void *stop_in_thread(void *arg)
{
	(void)arg;
	moncontrol(0);
	return NULL;
}

static void *release_later(void *arg)
{
	(void)arg;
	usleep(200 * 1000);	/* fork() has been called by then */
	sem_post(&go_on);
	return NULL;
}

/* In the child: its own copy of the mock's queues; a hang ends in SIGALRM. */
static void fork_child(uint64_t b)
{
	int fd = open("/dev/null", O_WRONLY);
	char name[64];

	alarm(5);
	/* A failure would run the rest of the group here: keep it quiet. */
	dup2(fd, 1);
	mock_mnl_reset();
	expect_resolve();	/* a new process: the socket is re-opened */
	expect_no_session();
	expect_start_any_buf(4, b + 0x100, 32768, 0);
	moncontrol(1);
	expect_off();
	_mcleanup();
	/* A forked child writes its own file, never the parent's. */
	snprintf(name, sizeof(name), "gmon.out.%ld", (long)getpid());
	_exit(access(name, F_OK) == 0 && access("gmon.out", F_OK) ? 0 : 3);
}

static void test_fork_during_round_trip(void **state)
{
	uint64_t b = pf_gmon_load_bias();
	pthread_t stopper, releaser;
	int status;
	pid_t pid;

	(void)state;
	expect_resolve();
	expect_no_session();
	expect_start_any_buf(4, b + 0x100, 32768, 0);
	monstartup(b + 0x100, b + 0x108);

	assert_int_equal(sem_init(&in_trip, 0, 0), 0);
	assert_int_equal(sem_init(&go_on, 0, 0), 0);
	mock_send_hook = send_in_thread;
	mock_recv_hook = block_in_trip;
	assert_int_equal(pthread_create(&stopper, NULL, stop_in_thread, NULL),
			 0);
	sem_wait(&in_trip);	/* it holds both locks, waiting for the ACK */
	assert_int_equal(pthread_create(&releaser, NULL, release_later, NULL),
			 0);
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	assert_true(pid >= 0);
	if (!pid)
		fork_child(b);
	pthread_join(releaser, NULL);
	pthread_join(stopper, NULL);
	assert_int_equal(mock_requests, 4);	/* resolve, GET, START, STOP */
	assert_int_equal(waitpid(pid, &status, 0), pid);
	if (WIFSIGNALED(status))
		fail_msg("the child hung (signal %d)", WTERMSIG(status));
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
	sem_destroy(&in_trip);
	sem_destroy(&go_on);
}

/*
 * monitor()
 */

typedef int (*pc_t)(void);

static pc_t pc(uint64_t a)
{
	return (pc_t)(uintptr_t)a;
}

static void test_monitor_rejects(void **state)
{
	static unsigned short buf[64];
	uint64_t b = pf_gmon_load_bias();

	(void)state;
	/* header (12 shorts) + 2 slots (16 shorts) leave no bin. */
	errno = 0;
	monitor(pc(b + 0x1000), pc(b + 0x2000), buf, 28, 2);
	assert_int_equal(errno, EINVAL);
	errno = 0;
	monitor(pc(b + 0x2000), pc(b + 0x1000), buf, 64, 0);
	assert_int_equal(errno, EINVAL);
	errno = 0;
	monitor(pc(b + 0x1000), pc(b + 0x2000), NULL, 64, 0);
	assert_int_equal(errno, EINVAL);
	errno = 0;
	monitor(pc(b + 0x1000), pc(b + 0x2000), buf, 64, SIZE_MAX / 4);
	assert_int_equal(errno, EINVAL);
	monitor(NULL, NULL, NULL, 0, 0);	/* not running: nothing */
	assert_int_equal(mock_requests, 0);
}

/* A failure reported by errno alone would leave this text behind. */
static void plant_stale_error(void)
{
	pf_err_set(EFAULT, "an earlier failure");
}

static void assert_last_error(int err)
{
	assert_int_equal(errno, err);
	assert_string_equal(profil_strerror(), strerror(err));
	assert_null(profil_last_extack());
}

static void test_dropins_set_last_error(void **state)
{
	static unsigned short buf[64];
	uint64_t b = pf_gmon_load_bias();

	(void)state;
	capture_begin();
	plant_stale_error();
	monitor(pc(b + 0x1000), pc(b + 0x2000), buf, 28, 2);
	assert_last_error(EINVAL);
	plant_stale_error();
	monitor(pc(b + 0x1000), pc(b + 0x2000), NULL, 64, 0);
	assert_last_error(EINVAL);
	plant_stale_error();
	monstartup(b + 0x3000, b + 0x2000);
	assert_last_error(EINVAL);
	capture_end();
}

static void test_monitor_layout(void **state)
{
	static unsigned short buf[1024];
	uint64_t b = pf_gmon_load_bias(), v;
	unsigned short *h = buf + 28;	/* (24 + 2 * 16) / 2 */
	unsigned short want[512] = { 0 };

	(void)state;
	/* 4096 bytes over 996 bins: 8 bytes per bin, 512 bins, scale 16384. */
	expect_resolve();
	expect_start(h, 1024, b + 0x2000, 16384, 0);
	monitor(pc(b + 0x2000), pc(b + 0x3000), buf, 1024, 2);
	memcpy(&v, buf, 8);
	assert_int_equal(v, b + 0x2000);
	memcpy(&v, buf + 4, 8);
	assert_int_equal(v, b + 0x3000);
	memcpy(&v, buf + 8, 8);
	assert_int_equal(v, 2);

	h[0] = 3;
	h[511] = 4;
	want[0] = 3;
	want[511] = 4;
	expect_off();
	monitor(NULL, NULL, NULL, 0, 0);
	check_hist("gmon.out", 0x2000, 0x3000, 512, PROFIL_RATE_DEFAULT, want);
}

static void test_geometry(void **state)
{
	struct pf_geometry g;

	(void)state;
	assert_int_equal(pf_geometry(0x1000, 0x2000, 2048, &g), 0);
	assert_int_equal(g.scale, 65536);
	assert_int_equal(g.nbins, 2048);
	assert_int_equal(g.high_pc, 0x2000);

	assert_int_equal(pf_geometry(0x1003, 0x2000, 1000, &g), 0);
	assert_int_equal(g.low_pc, 0x1000);
	assert_int_equal(g.scale, 16384);
	assert_int_equal(g.nbins, 512);
	assert_int_equal(g.high_pc, 0x2000);

	assert_int_equal(pf_geometry(0x1000, 0x1001, 100, &g), 0);
	assert_int_equal(g.scale, 65536);
	assert_int_equal(g.nbins, 1);
	assert_int_equal(g.high_pc, 0x1002);

	/* Even 128 KiB bins cannot cover 1 GiB in 4 bins: truncate. */
	assert_int_equal(pf_geometry(0, 1ULL << 30, 4, &g), 0);
	assert_int_equal(g.scale, 1);
	assert_int_equal(g.nbins, 4);
	assert_int_equal(g.high_pc, 4 * 131072);

	assert_int_equal(pf_geometry(0x10, 0x10, 4, &g), -1);
	assert_int_equal(pf_geometry(0x10, 0x20, 0, &g), -1);
}

int main(void)
{
#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)
	const struct CMUnitTest tests[] = {
		T(test_profil_wrapping_buffer),
		T(test_profil_bufsiz_zero_is_sent),
		T(test_profil_large_scale_is_sent),
		T(test_profil_hz_invalid),
		T(test_profil_hz_bounds),
		T(test_profil_hz_ignored_when_off),
		T(test_monstartup_empty_range),
		T(test_monstartup_exact_bins),
		T(test_monstartup_prefix),
		T(test_monstartup_module_absent),
		T(test_moncontrol_failure_keeps_profile),
		T(test_monstartup_busy),
		T(test_monitor_rejects),
		T(test_fork_during_round_trip),
		T(test_dropins_set_last_error),
		T(test_monitor_layout),
		T(test_geometry),
	};

	return cmocka_run_group_tests_name("libprofil arguments", tests, NULL,
					   NULL);
}
