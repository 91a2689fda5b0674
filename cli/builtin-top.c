// SPDX-License-Identifier: GPL-2.0
/*
 * profil-ctl top: a live view of a whole program, as perf top has it.
 *
 * The program is followed as by attach (-p PID) or run (-- CMD): the
 * kernel holds its profile (collect.h). Every second the whole profile
 * is read as it is (the program runs on) and charged to functions
 * (attrib.h): the cumulative count; its change since the last second is
 * the interval's. Each object a process has samples in for the first
 * time is a note. format/top.c draws each frame.
 *
 * On a terminal the frame is redrawn in place (the alternate screen) at
 * the terminal's size, and q ends; otherwise one plain frame is written
 * per second. Ctrl-C ends too. attach's rules end a -p PID view (the
 * process runs on, no longer followed); a -- CMD view sends the command
 * SIGTERM (SIGKILL the second time) and ends when it has.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/timerfd.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "attrib.h"
#include "commands.h"
#include "ctl.h"
#include "symbols.h"
#include "top.h"
#include "collect.h"

#define TOP_PERIOD_NS	1000000000LL
#define TOP_MAX_NOTES	64
/* How long a note stays on a terminal's frames. */
#define TOP_NOTE_NS	5000000000LL

/*
 * One object's functions and their counts, by function index, then
 * [unknown]: @now this second, @prev the last second. An object's index
 * is the same in every read of the profile: the kernel numbers objects
 * in the order they were first sampled, for good.
 */
struct top_obj {
	bool opened;
	struct symtab *st;
	const struct sym_func *funcs;
	size_t nfuncs;
	char *base;
	double *now;
	double *prev;
};

/* A (process, object) with samples, noted once. */
struct top_seen {
	size_t process;
	size_t object;
};

struct top {
	struct collect *c;
	struct profile prof;
	const struct live_opts *o;
	int timer;
	char target[96];
	bool screen;
	bool keys;
	bool raw;
	struct termios saved;
	long long start_ns;
	long long last_ns;
	struct top_obj *objs;
	size_t nobjs;
	struct top_seen *seen;
	size_t nseen;
	char *notes[TOP_MAX_NOTES];
	long long note_ns[TOP_MAX_NOTES];
	size_t nnotes;
	size_t nnew;
	size_t dropped_notes;
	struct top_row *funcs;
	struct top_row *objrows;
	unsigned int quits;
	bool failed;
};

static long long top_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

/* Symbols of object @i, read the first time it has samples. */
static struct top_obj *top_obj(struct top *tp, size_t i)
{
	const struct profile_object *po = &tp->prof.objects[i];
	const char *file = po->symfile ? po->symfile : po->path;
	struct top_obj *ob;
	char err[256];
	size_t n;

	if (i >= tp->nobjs) {
		ob = realloc(tp->objs, (i + 1) * sizeof(*ob));
		if (!ob)
			return NULL;
		memset(ob + tp->nobjs, 0, (i + 1 - tp->nobjs) * sizeof(*ob));
		tp->objs = ob;
		tp->nobjs = i + 1;
	}
	ob = &tp->objs[i];
	if (ob->opened)
		return ob;
	ob->base = strdup(base_name(po->path));
	if (po->symfile || file[0] != '[')
		ob->st = symtab_open_as(file, po->path, err, sizeof(err));
	if (ob->st)
		ob->funcs = symtab_funcs(ob->st, &ob->nfuncs);
	n = ob->nfuncs + 1;
	ob->now = calloc(n, sizeof(double));
	ob->prev = calloc(n, sizeof(double));
	if (!ob->base || !ob->now || !ob->prev)
		return NULL;
	ob->opened = true;
	return ob;
}

/* @pc's samples into its object's counts of this second. */
static int top_charge(struct top *tp, const struct profile_count *pc)
{
	struct top_obj *ob = top_obj(tp, pc->object);
	struct attrib a;
	size_t i;

	if (!ob)
		return -1;
	if (!pc->hist.nranges)
		return 0;
	if (attrib_funcs(&a, &pc->hist, ob->funcs, ob->nfuncs) < 0)
		return -1;
	for (i = 0; i < ob->nfuncs; i++)
		ob->now[i] += a.counts[i];
	ob->now[ob->nfuncs] += a.unknown;
	attrib_free(&a);
	return 0;
}

static void top_note(struct top *tp, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void top_note(struct top *tp, const char *fmt, ...)
{
	va_list ap;
	char *s;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if (tp->nnotes == TOP_MAX_NOTES) {	/* the oldest goes */
		free(tp->notes[0]);
		tp->nnotes--;
		memmove(tp->notes, tp->notes + 1,
			tp->nnotes * sizeof(tp->notes[0]));
		memmove(tp->note_ns, tp->note_ns + 1,
			tp->nnotes * sizeof(tp->note_ns[0]));
		if (tp->nnew > tp->nnotes) {
			tp->nnew--;
			tp->dropped_notes++;
		}
	}
	tp->notes[tp->nnotes] = s;
	tp->note_ns[tp->nnotes++] = top_now_ns();
	tp->nnew++;
}

/*
 * The notes a frame shows, newest first, into @v: on a terminal those
 * of the last TOP_NOTE_NS (older ones are dropped), else the interval's.
 */
static size_t top_notes_shown(struct top *tp, long long now,
			      const char **v)
{
	size_t i, n = 0, old = 0;

	while (old < tp->nnotes && now - tp->note_ns[old] > TOP_NOTE_NS)
		free(tp->notes[old++]);
	tp->nnotes -= old;
	memmove(tp->notes, tp->notes + old, tp->nnotes * sizeof(tp->notes[0]));
	memmove(tp->note_ns, tp->note_ns + old,
		tp->nnotes * sizeof(tp->note_ns[0]));
	if (tp->nnew > tp->nnotes)
		tp->nnew = tp->nnotes;
	for (i = tp->nnotes; i-- > (tp->screen ? 0 : tp->nnotes - tp->nnew);)
		v[n++] = tp->notes[i];
	return n;
}

/* A note for each (process, object) with samples for the first time. */
static int top_notes(struct top *tp)
{
	const struct profile *prof = &tp->prof;
	const struct profile_count *pc;
	struct top_seen *sn;
	size_t i, j;

	for (i = 0; i < prof->ncounts; i++) {
		pc = &prof->counts[i];
		for (j = 0; j < tp->nseen; j++)
			if (tp->seen[j].process == pc->process &&
			    tp->seen[j].object == pc->object)
				break;
		if (j < tp->nseen)
			continue;
		sn = realloc(tp->seen, (tp->nseen + 1) * sizeof(*sn));
		if (!sn)
			return -1;
		tp->seen = sn;
		tp->seen[tp->nseen++] = (struct top_seen){ pc->process,
							   pc->object };
		top_note(tp, "new object: process %d, %s",
			 (int)prof->processes[pc->process].pid,
			 base_name(prof->objects[pc->object].path));
	}
	return 0;
}

/*
 * The profile as it is now, into every object's @now; @live: the
 * processes still followed.
 */
static int top_count(struct top *tp, unsigned int *live)
{
	struct held_notes notes;
	size_t i;

	profile_free(&tp->prof);
	if (collect_read(tp->c, &tp->prof, &notes) < 0)
		return -1;
	*live = (unsigned int)notes.live;
	for (i = 0; i < tp->nobjs; i++)
		if (tp->objs[i].opened)
			memset(tp->objs[i].now, 0,
			       (tp->objs[i].nfuncs + 1) * sizeof(double));
	for (i = 0; i < tp->prof.ncounts; i++)
		if (top_charge(tp, &tp->prof.counts[i]) < 0)
			return -1;
	return top_notes(tp);
}

/* Rows by interval, then by total, then by name. */
static int top_row_cmp(const void *a, const void *b)
{
	const struct top_row *x = a, *y = b;

	if (x->interval != y->interval)
		return x->interval < y->interval ? 1 : -1;
	if (x->total != y->total)
		return x->total < y->total ? 1 : -1;
	return strcmp(x->name, y->name);
}

static const char *top_func_name(const struct top_obj *ob, size_t i)
{
	return i < ob->nfuncs ? ob->funcs[i].name : "[unknown]";
}

/* The frame's rows from @now and @prev; the sums into @fr. */
static int top_rows(struct top *tp, struct top_frame *fr)
{
	struct top_row *r, *orow;
	struct top_obj *ob;
	size_t i, j, n = 0, no = 0;
	double d;

	for (i = 0; i < tp->nobjs; i++)
		if (tp->objs[i].opened)
			n += tp->objs[i].nfuncs + 1;
	free(tp->funcs);
	free(tp->objrows);
	tp->funcs = malloc((n ? n : 1) * sizeof(*r));
	tp->objrows = malloc((tp->nobjs ? tp->nobjs : 1) * sizeof(*r));
	if (!tp->funcs || !tp->objrows)
		return -1;
	n = 0;
	for (i = 0; i < tp->nobjs; i++) {
		ob = &tp->objs[i];
		if (!ob->opened)
			continue;
		orow = &tp->objrows[no];
		*orow = (struct top_row){ .name = ob->base };
		for (j = 0; j < ob->nfuncs + 1; j++) {
			if (ob->now[j] <= 0)
				continue;
			/* An image gone by execve() took its samples along. */
			d = ob->now[j] > ob->prev[j] ? ob->now[j] - ob->prev[j]
						     : 0;
			tp->funcs[n++] = (struct top_row){
				.name = top_func_name(ob, j),
				.object = ob->base,
				.interval = d,
				.total = ob->now[j],
			};
			orow->interval += d;
			orow->total += ob->now[j];
		}
		if (orow->total > 0)
			no++;
		fr->interval += orow->interval;
		fr->total += orow->total;
	}
	qsort(tp->funcs, n, sizeof(*r), top_row_cmp);
	qsort(tp->objrows, no, sizeof(*r), top_row_cmp);
	fr->funcs = tp->funcs;
	fr->nfuncs = n;
	fr->objects = tp->objrows;
	fr->nobjects = no;
	return 0;
}

static void top_size(int *cols, int *lines)
{
	struct winsize ws;

	*cols = 80;
	*lines = 24;
	if (!ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) && ws.ws_col && ws.ws_row) {
		*cols = ws.ws_col;
		*lines = ws.ws_row;
	}
}

/* Count, and show a frame; @end: the last one. */
static void top_frame(struct top *tp, bool end)
{
	long long now = top_now_ns();
	struct top_frame fr = {
		.target = tp->target,
		.rate = tp->o->rate ? tp->o->rate : PROFIL_RATE_DEFAULT,
		.elapsed = (double)(now - tp->start_ns) / 1e9,
		.seconds = (double)(now - tp->last_ns) / 1e9,
		.end = end,
	};
	const char *notes[TOP_MAX_NOTES + 1];
	struct top_obj *ob;
	double *d;
	size_t i;
	int cols, lines;

	tp->last_ns = now;
	if (top_count(tp, &fr.live) < 0 || top_rows(tp, &fr) < 0) {
		ctl_perror(tp->c->op);
		tp->failed = true;
		collect_finish(tp->c);
		return;
	}
	fr.nnotes = top_notes_shown(tp, now, notes);
	if (tp->dropped_notes && !tp->screen)
		notes[fr.nnotes++] = "(more regions added: too many to list)";
	fr.notes = notes;
	if (tp->screen) {
		top_size(&cols, &lines);
		top_render_screen(stdout, &fr, cols, lines);
	} else {
		top_render_plain(stdout, &fr, TOP_PLAIN_FUNCS);
	}
	fflush(stdout);
	tp->nnew = 0;
	tp->dropped_notes = 0;
	for (i = 0; i < tp->nobjs; i++) {
		ob = &tp->objs[i];
		d = ob->prev;
		ob->prev = ob->now;
		ob->now = d;
	}
}

/*
 * q, --duration: let a -p PID go; end a -- CMD (SIGKILL the 2nd time),
 * or what is left of it.
 */
static void top_quit(struct top *tp)
{
	if (tp->c->attach || tp->c->root_exited)
		collect_finish(tp->c);
	else
		kill(tp->c->root, tp->quits ? SIGKILL : SIGTERM);
	tp->quits++;
}

static int top_tick(struct collect *c, void *arg)
{
	struct top *tp = arg;
	uint64_t expirations;

	(void)c;
	if (read(tp->timer, &expirations, sizeof(expirations)) < 0)
		return 0;
	top_frame(tp, false);
	/* Past the duration: SIGTERM, and a second later SIGKILL. */
	if (tp->o->duration > 0 &&
	    top_now_ns() - tp->start_ns >= (long long)(tp->o->duration * 1e9))
		top_quit(tp);
	return 0;
}

static int top_key(struct collect *c, void *arg)
{
	struct top *tp = arg;
	char buf[64];
	ssize_t n, i;

	(void)c;
	n = read(STDIN_FILENO, buf, sizeof(buf));
	if (n <= 0)
		return n < 0 && errno == EINTR ? 0 : -1;
	for (i = 0; i < n; i++)
		if (buf[i] == 'q' || buf[i] == 'Q')
			top_quit(tp);
	return 0;
}

/*
 * The terminal: keys one at a time, not echoed, ^Z off (top would stop
 * with the program); the alternate screen, the cursor hidden.
 */
static void term_enter(struct top *tp)
{
	struct termios raw;

	/* One write per frame: a frame is never seen half drawn. */
	setvbuf(stdout, NULL, _IOFBF, 1 << 16);
	if (isatty(STDIN_FILENO) && !tcgetattr(STDIN_FILENO, &tp->saved)) {
		raw = tp->saved;
		raw.c_lflag &= ~(tcflag_t)(ICANON | ECHO);
		raw.c_cc[VMIN] = 1;
		raw.c_cc[VTIME] = 0;
		raw.c_cc[VSUSP] = _POSIX_VDISABLE;
		tp->raw = !tcsetattr(STDIN_FILENO, TCSANOW, &raw);
		tp->keys = tp->raw;
	}
	fputs("\033[?1049h\033[?25l\033[H\033[2J", stdout);
	fflush(stdout);
}

static void term_leave(struct top *tp)
{
	fputs("\033[?25h\033[?1049l", stdout);
	fflush(stdout);
	if (tp->raw)
		tcsetattr(STDIN_FILENO, TCSAFLUSH, &tp->saved);
	tp->raw = false;
}

static void top_free(struct top *tp)
{
	size_t i;

	for (i = 0; i < tp->nobjs; i++) {
		symtab_close(tp->objs[i].st);
		free(tp->objs[i].base);
		free(tp->objs[i].now);
		free(tp->objs[i].prev);
	}
	free(tp->objs);
	for (i = 0; i < tp->nnotes; i++)
		free(tp->notes[i]);
	free(tp->seen);
	free(tp->funcs);
	free(tp->objrows);
	profile_free(&tp->prof);
}

/* The frame's name of the target: "pid N (comm)", or the command's. */
static void top_target(struct top *tp, pid_t pid, const char *cmd)
{
	char path[64], comm[32] = "?";
	FILE *f;

	if (cmd) {
		snprintf(tp->target, sizeof(tp->target), "%s", base_name(cmd));
		return;
	}
	snprintf(path, sizeof(path), "/proc/%d/comm", (int)pid);
	f = fopen(path, "re");
	if (f) {
		if (fgets(comm, sizeof(comm), f))
			comm[strcspn(comm, "\n")] = '\0';
		fclose(f);
	}
	snprintf(tp->target, sizeof(tp->target), "pid %d (%s)", (int)pid,
		 comm);
}

static int top_timer(void)
{
	struct itimerspec its = {
		.it_value = { TOP_PERIOD_NS / 1000000000LL,
			      TOP_PERIOD_NS % 1000000000LL },
		.it_interval = { TOP_PERIOD_NS / 1000000000LL,
				 TOP_PERIOD_NS % 1000000000LL },
	};
	int fd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC);

	if (fd >= 0 && timerfd_settime(fd, 0, &its, NULL) < 0) {
		close(fd);
		fd = -1;
	}
	return fd;
}

int cmd_top(int argc, char **argv)
{
	struct top tp = { 0 };
	struct live_opts o, co;
	struct collect c;
	int first, ret;
	char **cmd;

	first = live_parse_opts(argc, argv, LIVE_OPTS_PID | LIVE_OPTS_PROFILE |
				LIVE_OPTS_DURATION | LIVE_OPTS_COMMAND, &o);
	if (first < 0)
		return live_parse_exit(first);
	cmd = first < argc ? argv + first : NULL;
	if (!cmd == !o.pid)
		return ctl_usage_error(argv[0], "either -p PID or -- COMMAND");
	if (o.pid == getpid())
		return ctl_usage_error(argv[0], "cannot attach to itself");
	/* --duration is top's own: it ends a -- CMD by SIGTERM. */
	co = o;
	co.duration = 0;
	tp.c = &c;
	tp.o = &o;
	tp.timer = -1;
	if (collect_init(&c, argv[0], &co) < 0) {
		tp.failed = true;
		goto out;
	}
	/* A JIT's perf map, reread every second, would name nothing here. */
	c.reader.no_perfmap = true;
	top_target(&tp, o.pid, cmd ? cmd[0] : NULL);
	tp.timer = top_timer();
	if (tp.timer < 0 || collect_watch(&c, tp.timer, top_tick, &tp)) {
		ctl_perror(argv[0]);
		tp.failed = true;
		goto out;
	}
	/*
	 * -p attaches before the screen is taken, so that a refusal stays
	 * in sight; -- CMD is spawned after, its standard input set by
	 * whether the keys are top's.
	 */
	if (!cmd && collect_attach(&c, o.pid) < 0)
		goto out_failed;
	tp.screen = isatty(STDOUT_FILENO);
	if (tp.screen)
		term_enter(&tp);
	if (tp.keys)
		collect_watch(&c, STDIN_FILENO, top_key, &tp);
	tp.start_ns = top_now_ns();
	tp.last_ns = tp.start_ns;
	if (cmd && collect_spawn(&c, cmd, tp.keys) < 0)
		goto out_failed;
	if (collect_loop(&c) < 0) {
		tp.failed = true;
		if (!c.attach)
			kill(c.root, SIGKILL);
	}
	/* The last frame stays, as plain text, on a terminal too. */
	if (tp.screen)
		term_leave(&tp);
	tp.screen = false;
	if (!tp.failed)
		top_frame(&tp, true);
	goto out;
out_failed:
	tp.failed = true;
out:
	if (tp.screen)
		term_leave(&tp);
	ret = tp.failed || c.failed ? CTL_EXIT_FAIL : CTL_EXIT_OK;
	if (!ret && !tp.prof.nprocesses) {
		ctl_errorf(argv[0], "no process was profiled");
		ret = CTL_EXIT_FAIL;
	}
	collect_free(&c);
	top_free(&tp);
	if (tp.timer >= 0)
		close(tp.timer);
	return ret;
}
