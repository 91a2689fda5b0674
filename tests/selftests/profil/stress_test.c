// SPDX-License-Identifier: GPL-2.0
/*
 * Lifecycle stress of profil.ko: fork/exec/exit cycles, thread churn,
 * concurrent start/stop from threads and from processes, SIGKILL mid-tick,
 * the buffer pulled away mid-tick, rmmod under load, CPU hotplug.
 *
 * Each workload runs in a process of its own, which checks its sessions
 * itself: stopped, nothing pending, and every tick accounted exactly once,
 *   TICKS == IN_RANGE + OUT_OF_RANGE + SYSTEM_DROPPED + PENDING + DISCARDED
 *	      + FAULTED.
 * Once it has exited, the test checks that a GET dump lists no session of
 * it or of anything it forked: nothing leaked.
 *
 * PROFIL_STRESS_SCALE=<percent> scales every count (default 100). The
 * defaults are the issue's numbers: 10^3 fork/exec/exit cycles (about
 * 30 to 65 s in the TCG guest; PROFIL_STRESS_FORKS=<n> sets another
 * count), 10^4 threads, 16 x 200 start/stop.
 *
 * PROFIL_TIMEOUT_SCALE=<n> multiplies every test's timeout (default 1):
 * the harness sets it on a slower kernel (KASAN). The counts stay,
 * except in the two heaviest workloads, which stop at half their
 * timeout past a quarter of their count (struct sizing).
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "profil_harness.h"
#include "profil_nl.h"
#include "profil_util.h"

#define RATE_TICK	100	/* the scheduler-tick clock */
#define RATE_TIMER	2000	/* a task-clock event per thread */
#define RATE_MAX	PROFIL_RATE_MAX

/* The harness forks each test: output must not wait in a buffer. */
__attribute__((constructor)) static void line_buffered(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
}

static unsigned int scaled(unsigned int n)
{
	const char *env = getenv("PROFIL_STRESS_SCALE");
	unsigned long pct = env ? strtoul(env, NULL, 0) : 100;

	n = (unsigned long long)n * pct / 100;
	return n ? n : 1;
}

/*
 * Sizing to the machine. On a KASAN kernel with kmemleak, on a loaded
 * two-core machine, a fork/exec/exit cycle takes up to 15 times as long
 * as on an idle Debian kernel and a thread's creation 20 to 50 times:
 * more than PROFIL_TIMEOUT_SCALE's 4 covers. So fork_exec_exit and
 * thread_churn go on with their count only until the first half of their
 * test's timeout is over, however fast they went so far, and never stop
 * before a quarter of it; they print what they ran. The other half is
 * the margin, for the checks that follow and a machine that slows down
 * further.
 */
struct sizing {
	unsigned int want;	/* the count */
	unsigned int floor;	/* the least that is run */
	double deadline;	/* now() after which floor is enough */
};

static struct sizing sizing(const struct __test_metadata *md, double t0,
			    unsigned int want)
{
	return (struct sizing){
		.want = want,
		.floor = want / 4 ? want / 4 : 1,
		.deadline = t0 + md->timeout / 2.0,
	};
}

/* Whether @done of @sz are enough: all, or the floor once past the deadline. */
static bool enough(const struct sizing *sz, unsigned int done)
{
	return done >= sz->want ||
	       (done >= sz->floor && now() >= sz->deadline);
}

static void print_sized(const char *what, const struct sizing *sz,
			unsigned int done)
{
	if (done < sz->want)
		printf("# %s: %u of %u by half the test's timeout\n", what,
		       done, sz->want);
}

static void spin(double secs)
{
	double end = thread_cpu() + secs;
	volatile unsigned long n = 0;
	int i;

	while (thread_cpu() < end)
		for (i = 0; i < 10000; i++)
			n++;
}

static volatile int spinners_stop;

static void *spinner(void *arg)
{
	volatile unsigned long n = 0;

	while (!spinners_stop)
		n++;
	return NULL;
}

static void print_status(const char *who, const struct pnl_status *st)
{
	printf("# %s: state %u reason %u ticks %" PRIu64 " = in %" PRIu64
	       " + out %" PRIu64 " + sys %" PRIu64 " + pending %" PRIu64
	       " + discarded %" PRIu64 " + faulted %" PRIu64 " (deferred %"
	       PRIu64 ")\n", who, st->state, st->reason,
	       st->stats[PROFIL_STAT_TICKS], st->stats[PROFIL_STAT_IN_RANGE],
	       st->stats[PROFIL_STAT_OUT_OF_RANGE],
	       st->stats[PROFIL_STAT_SYSTEM_DROPPED],
	       st->stats[PROFIL_STAT_PENDING],
	       st->stats[PROFIL_STAT_DISCARDED],
	       st->stats[PROFIL_STAT_FAULTED],
	       st->stats[PROFIL_STAT_DEFERRED]);
}

/*
 * The caller's session, after its profiling stopped: stopped for @reason
 * (0: any), nothing pending, the identity exact. 0 or a failure code.
 */
static int check_stopped(struct pnl *nl, uint32_t reason, const char *who,
			 bool verbose)
{
	struct pnl_status st;
	int err = pnl_get(nl, 0, &st);

	if (err) {
		printf("# %s: GET: %s\n", who, strerror(-err));
		return 2;
	}
	if (verbose)
		print_status(who, &st);
	if (st.state != PROFIL_STATE_STOPPED ||
	    (reason && st.reason != reason)) {
		print_status(who, &st);
		printf("# %s: not stopped as expected (reason %u)\n", who,
		       reason);
		return 3;
	}
	if (st.stats[PROFIL_STAT_PENDING] ||
	    st.stats[PROFIL_STAT_TICKS] != pnl_accounted(&st)) {
		print_status(who, &st);
		printf("# %s: accounting identity broken\n", who);
		return 4;
	}
	return 0;
}

/* Stop the caller's session, then check_stopped(). */
static int stop_and_check(struct pnl *nl, const char *who, bool verbose)
{
	int err = pnl_stop(nl, 0);

	if (err) {
		printf("# %s: STOP: %s\n", who, strerror(-err));
		return 1;
	}
	return check_stopped(nl, PROFIL_STOP_REQUEST, who, verbose);
}

/* ---- leak check: the sessions a GET dump lists ---- */

struct pids {
	pid_t *pid;
	unsigned int n, max;
};

static void pids_add(struct pids *p, pid_t pid)
{
	if (p->n == p->max) {
		p->max = p->max ? 2 * p->max : 64;
		p->pid = realloc(p->pid, p->max * sizeof(*p->pid));
	}
	p->pid[p->n++] = pid;
}

static void dump_cb(const struct pnl_status *st, void *data)
{
	pids_add(data, st->pid);
}

static int dump_sessions(struct pnl *nl, struct pids *out)
{
	out->n = 0;
	return pnl_dump(nl, dump_cb, out);
}

/* How many of @ours the dump still lists. */
static unsigned int leaked(struct pnl *nl, const struct pids *ours)
{
	struct pids d = {};
	unsigned int i, j, n = 0;

	if (dump_sessions(nl, &d))
		return ~0U;
	for (i = 0; i < d.n; i++)
		for (j = 0; j < ours->n; j++)
			if (d.pid[i] == (uint32_t)ours->pid[j]) {
				printf("# session of %d left behind\n",
				       ours->pid[j]);
				n++;
			}
	free(d.pid);
	return n;
}

/*
 * Run @fn in a child process; @fn returns 0 or a failure code. The pids
 * the workload wants checked for leaks go to a shared page.
 */
#define MAX_SHARED_PIDS	4096

struct shared {
	unsigned int n;
	pid_t pid[MAX_SHARED_PIDS];
};

static struct shared *shared;

static void share_pid(pid_t pid)
{
	unsigned int i = __atomic_fetch_add(&shared->n, 1, __ATOMIC_RELAXED);

	if (i < MAX_SHARED_PIDS)
		shared->pid[i] = pid;
}

static int run_workload(int (*fn)(void *), void *arg, struct pids *ours)
{
	int status, code;
	unsigned int i;
	pid_t pid;

	shared = mmap(NULL, sizeof(*shared), PROT_READ | PROT_WRITE,
		      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (shared == MAP_FAILED)
		return -1;
	fflush(stdout);
	pid = fork();
	if (pid < 0)
		return -1;
	if (!pid) {
		code = fn(arg);
		fflush(stdout);
		_exit(code);
	}
	pids_add(ours, pid);
	if (waitpid(pid, &status, 0) != pid)
		return -1;
	for (i = 0; i < shared->n && i < MAX_SHARED_PIDS; i++)
		pids_add(ours, shared->pid[i]);
	munmap(shared, sizeof(*shared));
	if (WIFSIGNALED(status)) {
		printf("# workload killed by signal %d\n", WTERMSIG(status));
		return 128 + WTERMSIG(status);
	}
	return WEXITSTATUS(status);
}

FIXTURE(stress) {
	struct pnl nl;
	struct pids ours;
	double t0;
};

FIXTURE_SETUP(stress)
{
	int err = pnl_open(&self->nl);

	if (err == -ENOENT || err == -EPERM)
		SKIP(return, "profil family: %s", strerror(-err));
	ASSERT_EQ(0, err) TH_LOG("family %s: %s", PROFIL_GENL_NAME,
				 strerror(-err));
	self->ours = (struct pids){};
	self->t0 = now();
}

FIXTURE_TEARDOWN(stress)
{
	printf("# %.1f s\n", now() - self->t0);
	free(self->ours.pid);
	pnl_close(&self->nl);
}

/* The workload's verdict, then no session of any of its processes. */
#define EXPECT_CLEAN(code)						\
	do {								\
		EXPECT_EQ(0, (code));					\
		EXPECT_EQ(0, leaked(&self->nl, &self->ours))		\
			TH_LOG("%u processes checked", self->ours.n);	\
	} while (0)

static struct pnl_start own_req(uint16_t *buf, size_t bufsiz, uint32_t rate)
{
	return (struct pnl_start) {
		.buf = (uintptr_t)buf, .bufsiz = bufsiz,
		.offset = (uintptr_t)spin & ~0xfffffULL, .scale = 0x1000,
		.rate = rate,
	};
}

/* ---- 10^3 fork/exec/exit cycles under profiling ---- */

/* Fork, exec /bin/true in 3 of 4 children, reap; how many cycles. */
static unsigned int fork_exec_cycles(const struct sizing *sz, bool share,
				     int *bad)
{
	char *argv[] = { "true", NULL };
	unsigned int i;
	int status;

	for (i = 0; !enough(sz, i) && !*bad; i++) {
		pid_t pid = fork();

		if (pid < 0) {
			*bad = 5;
			break;
		}
		if (!pid) {
			if (i % 4 != 3)
				execv("/bin/true", argv);
			_exit(0);
		}
		if (share)
			share_pid(pid);
		if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
		    WEXITSTATUS(status)) {
			printf("# child %u failed: %#x\n", i, status);
			*bad = 6;
		}
		if (i % 16 == 0)
			spin(0.001);
	}
	return i;
}

static int fork_exec_workload(void *arg)
{
	const struct sizing *sz = arg;
	unsigned int base = sz->want / 10 ? sz->want / 10 : 1, cycles;
	/* A tenth of the count, unprofiled, for comparison. */
	const struct sizing base_sz = { .want = base, .floor = base };
	static uint16_t buf[32768];
	struct pnl_start req = own_req(buf, sizeof(buf), RATE_TICK);
	double t_base, t;
	struct pnl nl;
	int bad = 0, code;

	if (pnl_open(&nl))
		return 1;
	t = now();
	fork_exec_cycles(&base_sz, false, &bad);
	t_base = now() - t;
	if (pnl_start(&nl, &req))
		return 2;
	t = now();
	cycles = fork_exec_cycles(sz, true, &bad);
	t = now() - t;
	if (bad)
		return bad;
	print_sized("fork/exit cycles", sz, cycles);
	printf("# %u fork/exit cycles (3 in 4 exec /bin/true) in %.1f s: "
	       "%.1f ms each, %.1f ms unprofiled\n", cycles, t,
	       1e3 * t / cycles, 1e3 * t_base / base);
	code = stop_and_check(&nl, "parent", true);
	pnl_close(&nl);
	return code;
}

TEST_F_TIMEOUT(stress, fork_exec_exit, 180)
{
	const char *env = getenv("PROFIL_STRESS_FORKS");
	struct sizing sz = sizing(_metadata, self->t0,
				  scaled(env ? strtoul(env, NULL, 0) : 1000));

	EXPECT_CLEAN(run_workload(fork_exec_workload, &sz, &self->ours));
}

/* ---- 10^4 threads created and exiting while profiling ---- */

#define BATCH	50

static void *short_thread(void *arg)
{
	volatile unsigned long n = 0;
	int i;

	for (i = 0; i < 20000; i++)
		n++;
	return NULL;
}

static int threads_workload(void *arg)
{
	const struct sizing *sz = arg;
	unsigned int done, i, n;
	static uint16_t buf[32768];
	pthread_t tid[BATCH];
	double t0 = now();
	struct pnl nl;
	int code;

	if (pnl_open(&nl))
		return 1;
	for (done = 0; !enough(sz, done); done += n) {
		/* Both clocks: the tick, and a perf event per thread. */
		if (done % 1000 == 0) {
			struct pnl_start req = own_req(buf, sizeof(buf),
				(done / 1000) % 2 ? RATE_TIMER : RATE_TICK);

			if (pnl_start(&nl, &req))
				return 2;
		}
		n = sz->want - done < BATCH ? sz->want - done : BATCH;
		for (i = 0; i < n; i++)
			if (pthread_create(&tid[i], NULL, short_thread, NULL))
				return 5;
		for (i = 0; i < n; i++)
			pthread_join(tid[i], NULL);
	}
	print_sized("threads", sz, done);
	printf("# %u threads in %.1f s\n", done, now() - t0);
	code = stop_and_check(&nl, "threads", true);
	pnl_close(&nl);
	return code;
}

TEST_F_TIMEOUT(stress, thread_churn, 180)
{
	struct sizing sz = sizing(_metadata, self->t0, scaled(10000));

	EXPECT_CLEAN(run_workload(threads_workload, &sz, &self->ours));
}

/* ---- 8 threads starting and stopping the process's session ---- */

#define STARTERS	8

static uint16_t starter_buf[STARTERS][4096];
static unsigned int starter_rounds;

static void *starter(void *arg)
{
	long id = (long)arg;
	struct pnl_start req = own_req(starter_buf[id], sizeof(starter_buf[0]),
				       id % 2 ? RATE_TIMER : RATE_TICK);
	struct pnl_status st;
	struct pnl nl;
	unsigned int i;
	long bad = 0;
	int err;

	if (pnl_open(&nl))
		return (void *)1L;
	for (i = 0; i < starter_rounds; i++) {
		err = pnl_start(&nl, &req);
		if (err) {
			printf("# thread %ld: START: %s (%s)\n", id,
			       strerror(-err), nl.extack);
			bad++;
		}
		spin(0.0002);
		err = pnl_get(&nl, 0, &st);
		/*
		 * A START replacing a stopped session swaps it in the table
		 * in one step: a GET always finds one or the other.
		 */
		if (err || (st.state == PROFIL_STATE_ACTIVE && st.reason) ||
		    (st.state == PROFIL_STATE_STOPPED && !st.reason)) {
			printf("# thread %ld: GET: %s\n", id, strerror(-err));
			bad++;
		}
		err = pnl_stop(&nl, 0);
		if (err) {
			printf("# thread %ld: STOP: %s\n", id, strerror(-err));
			bad++;
		}
	}
	pnl_close(&nl);
	return (void *)bad;
}

static int starters_workload(void *arg)
{
	pthread_t tid[STARTERS];
	double t0 = now();
	struct pnl nl;
	void *ret;
	long bad = 0, i;

	starter_rounds = *(unsigned int *)arg;
	if (pnl_open(&nl))
		return 1;
	for (i = 0; i < STARTERS; i++)
		pthread_create(&tid[i], NULL, starter, (void *)i);
	for (i = 0; i < STARTERS; i++) {
		pthread_join(tid[i], &ret);
		bad += (long)ret;
	}
	printf("# %d threads x %u start/get/stop in %.1f s, %ld errors\n",
	       STARTERS, starter_rounds, now() - t0, bad);
	if (bad)
		return 2;
	return check_stopped(&nl, PROFIL_STOP_REQUEST, "starters", true);
}

TEST_F_TIMEOUT(stress, threads_start_stop, 120)
{
	unsigned int rounds = scaled(100);

	EXPECT_CLEAN(run_workload(starters_workload, &rounds, &self->ours));
}

/* ---- 16 processes x 200 start/stop ---- */

#define STORM_PROCS	16

static int storm_workload(void *arg)
{
	unsigned int rounds = *(unsigned int *)arg, p;
	double t0 = now();
	int status, bad = 0;
	pid_t pid[STORM_PROCS];

	for (p = 0; p < STORM_PROCS; p++) {
		pid[p] = fork();
		if (pid[p] < 0)
			return 5;
		if (!pid[p]) {
			static uint16_t buf[4096];
			struct pnl_start req = own_req(buf, sizeof(buf),
				p % 2 ? RATE_TIMER : RATE_TICK);
			struct pnl nl;
			unsigned int i;
			int err;

			if (pnl_open(&nl))
				_exit(1);
			for (i = 0; i < rounds; i++) {
				req.flags = i % 3 ? 0 : PROFIL_F_SYSTEM_TICKS;
				err = pnl_start(&nl, &req);
				if (!err && i % 8 == 0)
					spin(0.001);
				if (err || pnl_stop(&nl, 0)) {
					printf("# %d: round %u: %s\n", getpid(),
					       i, strerror(-err));
					_exit(2);
				}
			}
			_exit(check_stopped(&nl, PROFIL_STOP_REQUEST,
					    "storm", false));
		}
		share_pid(pid[p]);
	}
	for (p = 0; p < STORM_PROCS; p++) {
		waitpid(pid[p], &status, 0);
		if (!WIFEXITED(status) || WEXITSTATUS(status)) {
			printf("# storm process %u: status %#x\n", p, status);
			bad++;
		}
	}
	printf("# %d processes x %u start/stop in %.1f s\n", STORM_PROCS,
	       rounds, now() - t0);
	return bad ? 2 : 0;
}

TEST_F_TIMEOUT(stress, process_storm, 120)
{
	unsigned int rounds = scaled(200);

	EXPECT_CLEAN(run_workload(storm_workload, &rounds, &self->ours));
}

/* ---- SIGKILL mid-tick ---- */

static int sigkill_workload(void *arg)
{
	unsigned int rounds = *(unsigned int *)arg, r;
	struct pnl nl;
	int status;

	if (pnl_open(&nl))
		return 1;
	for (r = 0; r < rounds; r++) {
		int fds[2];
		pid_t pid;
		char c;

		if (pipe(fds))
			return 5;
		pid = fork();
		if (pid < 0)
			return 5;
		if (!pid) {
			/* Fresh pages: ticks take the deferred path too. */
			size_t size = 1 << 20;
			uint16_t *buf = mmap(NULL, size, PROT_READ | PROT_WRITE,
					     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
			struct pnl_start req = own_req(buf, size,
				r % 2 ? RATE_MAX : RATE_TICK);
			struct pnl cnl;
			pthread_t t;

			req.flags = r % 3 ? PROFIL_F_SYSTEM_TICKS : 0;
			req.offset = 0;
			req.scale = 0x10000 >> (r % 8);
			if (pnl_open(&cnl) || pnl_start(&cnl, &req))
				_exit(1);
			pthread_create(&t, NULL, spinner, NULL);
			if (write(fds[1], "x", 1) != 1)
				_exit(1);
			for (;;)
				spin(1);
		}
		share_pid(pid);
		close(fds[1]);
		if (read(fds[0], &c, 1) != 1) {
			printf("# round %u: child did not start\n", r);
			return 6;
		}
		close(fds[0]);
		usleep(1000 * (r % 20));
		kill(pid, SIGKILL);
		if (waitpid(pid, &status, 0) != pid || !WIFSIGNALED(status) ||
		    WTERMSIG(status) != SIGKILL) {
			printf("# round %u: status %#x\n", r, status);
			return 7;
		}
		if (pnl_get(&nl, pid, &(struct pnl_status){}) != -ESRCH) {
			printf("# round %u: the killed process is visible\n", r);
			return 8;
		}
	}
	printf("# %u profiled processes killed mid-tick\n", rounds);
	return 0;
}

TEST_F_TIMEOUT(stress, sigkill_mid_tick, 120)
{
	unsigned int rounds = scaled(40);

	EXPECT_CLEAN(run_workload(sigkill_workload, &rounds, &self->ours));
}

/* ---- the buffer unmapped or made read-only from another thread ---- */

static int pull_buffer_workload(void *arg)
{
	unsigned int rounds = *(unsigned int *)arg, r, i;
	size_t size = 1 << 16;
	struct pnl nl;
	pthread_t t[2];

	if (pnl_open(&nl))
		return 1;
	for (r = 0; r < rounds; r++) {
		bool unmap = r % 2;
		uint16_t *buf = mmap(NULL, size, PROT_READ | PROT_WRITE,
				     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		struct pnl_start req = own_req(buf, size,
					       r % 4 < 2 ? RATE_MAX : RATE_TICK);
		struct pnl_status st;
		int code;

		if (buf == MAP_FAILED)
			return 5;
		memset(buf, 0, size);
		/* Counted where the spinners run: a write on every tick. */
		req.offset = (uintptr_t)spinner & ~0xfffULL;
		req.scale = 0x8000;
		spinners_stop = 0;
		for (i = 0; i < 2; i++)
			pthread_create(&t[i], NULL, spinner, NULL);
		if (pnl_start(&nl, &req))
			return 2;
		spin(0.02);
		if (unmap ? munmap(buf, size) : mprotect(buf, size, PROT_READ))
			return 5;
		/* Wait for the fault to turn profiling off. */
		for (i = 0; i < 500; i++) {
			if (pnl_get(&nl, 0, &st))
				return 3;
			if (st.state == PROFIL_STATE_STOPPED)
				break;
			spin(0.002);
		}
		spinners_stop = 1;
		for (i = 0; i < 2; i++)
			pthread_join(t[i], NULL);
		code = check_stopped(&nl, PROFIL_STOP_FAULT,
				     unmap ? "munmap" : "mprotect", r < 2);
		if (code)
			return code;
		if (st.fault_addr < (uintptr_t)buf ||
		    st.fault_addr >= (uintptr_t)buf + size ||
		    !st.stats[PROFIL_STAT_FAULTED]) {
			printf("# round %u: fault at %#" PRIx64 ", buffer %p\n",
			       r, st.fault_addr, buf);
			return 6;
		}
		if (!unmap)
			munmap(buf, size);
	}
	printf("# %u buffers pulled mid-tick, the process lives on\n", rounds);
	return 0;
}

TEST_F_TIMEOUT(stress, buffer_pulled_mid_tick, 120)
{
	unsigned int rounds = scaled(20);

	EXPECT_CLEAN(run_workload(pull_buffer_workload, &rounds, &self->ours));
}

/* ---- rmmod under load ---- */

static int rmmod_workload(void *arg)
{
	static uint16_t buf[32768];
	struct pnl_start req = own_req(buf, sizeof(buf), RATE_MAX);
	struct pnl_status before, after;
	struct stat sb;
	struct pnl nl;
	pthread_t t[2];
	int i, refused = 0;

	if (pnl_open(&nl))
		return 1;
	req.offset = (uintptr_t)spinner & ~0xfffULL;
	req.flags = PROFIL_F_SYSTEM_TICKS;
	if (pnl_start(&nl, &req))
		return 2;
	spinners_stop = 0;
	for (i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, spinner, NULL);
	spin(0.02);
	for (i = 0; i < 5; i++) {
		refused += system("rmmod profil 2>/dev/null") != 0;
		if (pnl_get(&nl, 0, &before))
			return 3;
		spin(0.02);
	}
	if (refused != 5 || stat("/sys/module/profil", &sb)) {
		printf("# rmmod went through with a session active\n");
		return 4;
	}
	spin(0.05);
	if (pnl_get(&nl, 0, &after))
		return 3;
	spinners_stop = 1;
	for (i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	printf("# 5 rmmod refused; ticks %" PRIu64 " -> %" PRIu64 "\n",
	       before.stats[PROFIL_STAT_TICKS], after.stats[PROFIL_STAT_TICKS]);
	if (after.state != PROFIL_STATE_ACTIVE ||
	    after.stats[PROFIL_STAT_TICKS] <= before.stats[PROFIL_STAT_TICKS])
		return 5;
	return stop_and_check(&nl, "rmmod", true);
}

TEST_F(stress, rmmod_refused_under_load)
{
	if (system("command -v rmmod >/dev/null 2>&1"))
		SKIP(return, "no rmmod");
	EXPECT_CLEAN(run_workload(rmmod_workload, NULL, &self->ours));
}

/* ---- CPU hotplug ---- */

#define CPU1_ONLINE	"/sys/devices/system/cpu/cpu1/online"

static int cpu1_set(int on)
{
	int fd = open(CPU1_ONLINE, O_WRONLY);
	int ok;

	if (fd < 0)
		return -errno;
	ok = write(fd, on ? "1" : "0", 1) == 1;
	close(fd);
	return ok ? 0 : -errno;
}

static int hotplug_workload(void *arg)
{
	unsigned int rounds = *(unsigned int *)arg, r;
	static uint16_t buf[32768];
	struct pnl_status st;
	struct pnl nl;
	pthread_t t[3];
	int i, err;

	if (pnl_open(&nl))
		return 1;
	for (r = 0; r < rounds; r++) {
		struct pnl_start req = own_req(buf, sizeof(buf),
					       r % 2 ? RATE_TIMER : RATE_TICK);
		uint64_t ticks;

		req.offset = (uintptr_t)spinner & ~0xfffULL;
		if (pnl_start(&nl, &req))
			return 2;
		spinners_stop = 0;
		for (i = 0; i < 3; i++)
			pthread_create(&t[i], NULL, spinner, NULL);
		spin(0.02);
		err = cpu1_set(0);
		spin(0.05);
		err = err ? err : cpu1_set(1);
		if (err) {
			cpu1_set(1);
			printf("# round %u: cpu1: %s\n", r, strerror(-err));
			return 6;
		}
		if (pnl_get(&nl, 0, &st))
			return 3;
		ticks = st.stats[PROFIL_STAT_TICKS];
		spin(0.05);
		spinners_stop = 1;
		for (i = 0; i < 3; i++)
			pthread_join(t[i], NULL);
		if (pnl_get(&nl, 0, &st))
			return 3;
		if (st.state != PROFIL_STATE_ACTIVE ||
		    st.stats[PROFIL_STAT_TICKS] <= ticks) {
			print_status("hotplug", &st);
			printf("# round %u: not ticking after cpu1 came back\n",
			       r);
			return 7;
		}
		err = stop_and_check(&nl, "hotplug", r == 0);
		if (err)
			return err;
	}
	printf("# cpu1 offline/online %u times while profiling\n", rounds);
	return 0;
}

TEST_F_TIMEOUT(stress, cpu_hotplug, 120)
{
	unsigned int rounds = scaled(6);
	int fd = open(CPU1_ONLINE, O_WRONLY);

	if (fd < 0)
		SKIP(return, "%s: %s", CPU1_ONLINE, strerror(errno));
	close(fd);
	EXPECT_CLEAN(run_workload(hotplug_workload, &rounds, &self->ours));
	/* Whatever happened, leave the CPU online. */
	cpu1_set(1);
}

PROFIL_HARNESS_MAIN
