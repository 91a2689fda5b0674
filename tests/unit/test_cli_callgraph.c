// SPDX-License-Identifier: GPL-2.0
/*
 * profil-ctl report --callgraph: gprof's propagation (cli/symbols/cg.c)
 * on arc sets built by hand (a chain, a diamond, self-recursion, a
 * cycle, spontaneous callees, call sites merged, calls from and to no
 * function), the CSV and JSON renderers (cli/format/callgraph.c), and,
 * on a glibc -pg program (cli_cg_target.c), every arc, self and children
 * time against gprof -b -q, and the --format=gmon copy's call graph in
 * gprof against the original's.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "callgraph.h"
#include "cg.h"
#include "gmon_read.h"
#include "hist.h"
#include "render.h"
#include "symbols.h"

#define TARGET UNIT_OUT "/cli_cg_target"

/* Eight functions of 16 bytes from 0x1000; a gap at 0x1080. */
enum { A, B, C, D, E, F, G, H, NF };
static const struct sym_func funcs[NF] = {
	{ 0x1000, 0x1010, "a", 0 }, { 0x1010, 0x1020, "b", 0 },
	{ 0x1020, 0x1030, "c", 0 }, { 0x1030, 0x1040, "d", 0 },
	{ 0x1040, 0x1050, "e", 0 }, { 0x1050, 0x1060, "f", 0 },
	{ 0x1060, 0x1070, "g", 0 }, { 0x1070, 0x1080, "h", 0 },
};

#define NOWHERE 0x9000		/* in no function */

/* @self[i] samples in function i (its first 4-byte bin), at 100 Hz. */
static void make_hist(struct hist *h, const uint64_t self[NF])
{
	uint64_t bins[NF * 4] = { 0 };
	int i;

	memset(h, 0, sizeof(*h));
	h->rate = 100;
	for (i = 0; i < NF; i++)
		bins[4 * i] = self[i];
	assert_int_equal(hist_add_range(h, 0x1000, 0x1080, bins, NF * 4), 0);
}

/* @n calls of @callee from call site @site (0..7) of @caller. */
static void arc_at(struct hist *h, int caller, int site, int callee,
		   uint64_t n)
{
	assert_int_equal(hist_add_arc(h, funcs[caller].addr + 4 + site,
				      funcs[callee].addr + 2, n), 0);
}

static void arc(struct hist *h, int caller, int callee, uint64_t n)
{
	arc_at(h, caller, 0, callee, n);
}

static void build(struct cg *g, const struct hist *h)
{
	assert_int_equal(cg_build(g, h, funcs, NF), 0);
}

static const struct cg_arc *find_arc(const struct cg *g, int caller,
				     int callee)
{
	size_t i;

	for (i = 0; i < g->narcs; i++)
		if (g->arcs[i].caller == (size_t)caller &&
		    g->arcs[i].callee == (size_t)callee)
			return &g->arcs[i];
	fail_msg("no arc %s -> %s", funcs[caller].name, funcs[callee].name);
	return NULL;
}

#define assert_near(x, y) do {						\
	double x_ = (x), y_ = (y);					\
	if (fabs(x_ - y_) > 1e-9)					\
		fail_msg("%s: %g, expected %g", #x, x_, y_);		\
} while (0)

/* a -> b -> c: self 1, 2, 4; c passes 4 to b, b 2 + 4 to a. */
static void test_chain(void **state)
{
	static const uint64_t self[NF] = { [A] = 1, [B] = 2, [C] = 4 };
	const struct cg_arc *ab, *bc;
	struct hist h;
	struct cg g;

	(void)state;
	make_hist(&h, self);
	arc(&h, A, B, 1);
	arc(&h, B, C, 2);
	build(&g, &h);
	assert_near(g.nodes[C].child, 0);
	assert_near(g.nodes[B].child, 4);
	assert_near(g.nodes[A].child, 6);
	bc = find_arc(&g, B, C);
	assert_near(bc->self, 4);
	assert_near(bc->child, 0);
	ab = find_arc(&g, A, B);
	assert_near(ab->self, 2);
	assert_near(ab->child, 4);
	assert_int_equal(g.nodes[B].calls, 1);
	assert_int_equal(g.nodes[C].calls, 2);
	assert_true(g.nodes[A].spontaneous);
	assert_false(g.nodes[B].spontaneous);
	assert_false(g.nodes[D].in_graph);
	assert_near(g.total, 7);
	assert_int_equal(g.ncycles, 0);
	cg_free(&g);
	hist_free(&h);
}

/*
 * A diamond: a -> b (1 call), a -> c (3); b -> d (1), c -> d (3); d's 8
 * samples go up 2 to b and 6 to c, c's own 4 with them; a gets all.
 */
static void test_diamond(void **state)
{
	static const uint64_t self[NF] = { [C] = 4, [D] = 8 };
	struct hist h;
	struct cg g;

	(void)state;
	make_hist(&h, self);
	arc(&h, A, B, 1);
	arc(&h, A, C, 3);
	arc(&h, B, D, 1);
	arc(&h, C, D, 3);
	build(&g, &h);
	assert_int_equal(g.nodes[D].calls, 4);
	assert_near(find_arc(&g, B, D)->self, 2);
	assert_near(find_arc(&g, C, D)->self, 6);
	assert_near(g.nodes[B].child, 2);
	assert_near(g.nodes[C].child, 6);
	assert_near(find_arc(&g, A, C)->self, 4);
	assert_near(find_arc(&g, A, C)->child, 6);
	assert_near(find_arc(&g, A, B)->child, 2);
	assert_near(g.nodes[A].child, 12);
	assert_near(g.nodes[A].self + g.nodes[A].child, g.total);
	cg_free(&g);
	hist_free(&h);
}

/*
 * Self-recursion: a calls b twice, b calls itself 10 times. b's self
 * calls are counted apart and pass nothing; a gets b's 6 samples once.
 */
static void test_self_recursion(void **state)
{
	static const uint64_t self[NF] = { [B] = 6 };
	const struct cg_arc *bb;
	struct hist h;
	struct cg g;

	(void)state;
	make_hist(&h, self);
	arc(&h, A, B, 2);
	arc(&h, B, B, 10);
	build(&g, &h);
	assert_int_equal(g.nodes[B].calls, 2);
	assert_int_equal(g.nodes[B].self_calls, 10);
	assert_near(g.nodes[B].child, 0);
	bb = find_arc(&g, B, B);
	assert_int_equal(bb->count, 10);
	assert_near(bb->self + bb->child, 0);
	assert_near(find_arc(&g, A, B)->self, 6);
	assert_near(g.nodes[A].child, 6);
	assert_false(g.nodes[B].spontaneous);
	assert_int_equal(g.nodes[B].cycle, 0);
	cg_free(&g);
	hist_free(&h);
}

/*
 * A cycle: a -> b (1), b -> c (5), c -> b (4), c -> d (2). b and c are
 * cycle 1: they pass nothing to each other; the cycle's 2 + 3 samples
 * and d's 4 go to a, its one caller from outside.
 */
static void test_cycle(void **state)
{
	static const uint64_t self[NF] = { [B] = 2, [C] = 3, [D] = 4 };
	const struct cg_cycle *cy;
	struct hist h;
	struct cg g;

	(void)state;
	make_hist(&h, self);
	arc(&h, A, B, 1);
	arc(&h, B, C, 5);
	arc(&h, C, B, 4);
	arc(&h, C, D, 2);
	build(&g, &h);
	assert_int_equal(g.ncycles, 1);
	assert_int_equal(g.nodes[B].cycle, 1);
	assert_int_equal(g.nodes[C].cycle, 1);
	assert_int_equal(g.nodes[A].cycle, 0);
	assert_int_equal(g.nodes[D].cycle, 0);
	cy = &g.cycles[0];
	assert_int_equal(cy->nmembers, 2);
	assert_int_equal(cy->calls, 1);
	assert_int_equal(cy->internal_calls, 9);
	assert_near(cy->self, 5);
	assert_near(cy->child, 4);
	assert_near(find_arc(&g, B, C)->self, 0);
	assert_near(find_arc(&g, C, B)->child, 0);
	assert_near(g.nodes[C].child, 4);
	assert_near(g.nodes[B].child, 0);
	assert_near(find_arc(&g, A, B)->self, 5);
	assert_near(find_arc(&g, A, B)->child, 4);
	assert_near(g.nodes[A].child, 9);
	cg_free(&g);
	hist_free(&h);
}

/*
 * Spontaneous: e is called from no function (a thread's start in libc)
 * and f from e; g only from no function and from itself. Call sites in
 * one function are merged; calls from or to no function are counted.
 */
static void test_spontaneous_and_merge(void **state)
{
	static const uint64_t self[NF] = { [E] = 1, [F] = 3, [H] = 2 };
	struct hist h;
	struct cg g;

	(void)state;
	make_hist(&h, self);
	assert_int_equal(hist_add_arc(&h, NOWHERE, funcs[E].addr + 2, 7), 0);
	arc_at(&h, E, 0, F, 2);
	arc_at(&h, E, 5, F, 3);
	assert_int_equal(hist_add_arc(&h, NOWHERE, funcs[G].addr + 2, 1), 0);
	arc(&h, G, G, 4);
	assert_int_equal(hist_add_arc(&h, funcs[E].addr + 1, NOWHERE, 9), 0);
	arc(&h, A, B, 0);	/* a count of 0 is no call */
	build(&g, &h);
	assert_int_equal(g.outside_calls, 8);
	assert_int_equal(g.lost_calls, 9);
	assert_int_equal(g.narcs, 2);
	assert_int_equal(find_arc(&g, E, F)->count, 5);
	assert_true(g.nodes[E].spontaneous);
	assert_int_equal(g.nodes[E].calls, 0);
	assert_near(g.nodes[E].child, 3);
	assert_false(g.nodes[F].spontaneous);
	assert_true(g.nodes[G].spontaneous);
	assert_int_equal(g.nodes[G].self_calls, 4);
	/* Samples and no arc: in the graph, spontaneous. */
	assert_true(g.nodes[H].in_graph);
	assert_true(g.nodes[H].spontaneous);
	assert_false(g.nodes[A].in_graph);
	cg_free(&g);
	hist_free(&h);
}

static char *render_str(const struct hist *h, enum render_format fmt,
			bool sort)
{
	struct render_opts o = { .view = RENDER_FUNCS, .format = fmt,
				 .sort = sort };
	struct render_syms s = { .funcs = funcs, .nfuncs = NF };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(render_callgraph(f, h, &s, &o), 0);
	assert_int_equal(fclose(f), 0);
	return buf;
}

/* The chain, b calling itself, h spontaneous: every arc in CSV. */
static void chain_hist(struct hist *h)
{
	static const uint64_t self[NF] = { [A] = 1, [B] = 2, [C] = 4,
					   [H] = 3 };

	make_hist(h, self);
	arc(h, A, B, 1);
	arc(h, B, C, 2);
	arc(h, B, B, 3);
}

static void test_csv(void **state)
{
	struct hist h;
	char *s;

	(void)state;
	chain_hist(&h);
	s = render_str(&h, RENDER_CSV, false);
	assert_string_equal(s,
		"caller,callee,count,self,children\n"
		"<spontaneous>,a,0,0.010000,0.060000\n"
		"<spontaneous>,h,0,0.030000,0.000000\n"
		"a,b,1,0.020000,0.040000\n"
		"b,b,3,0.000000,0.000000\n"
		"b,c,2,0.040000,0.000000\n");
	free(s);
	/* A rate of 0: no seconds. */
	h.rate = 0;
	s = render_str(&h, RENDER_CSV, false);
	assert_non_null(strstr(s, "\na,b,1,,\n"));
	free(s);
	hist_free(&h);
}

static void test_json(void **state)
{
	struct hist h;
	char *s;

	(void)state;
	chain_hist(&h);
	s = render_str(&h, RENDER_JSON, true);
	assert_non_null(strstr(s, "\"view\": \"callgraph\""));
	assert_non_null(strstr(s, "\"total_samples\": 10.0000"));
	/* --sort: a first (all 7 of the chain's samples), then h (3). */
	assert_non_null(strstr(s, "{\"index\": 1, \"function\": \"a\", "
			       "\"address\": 4096, \"percent\": 70.0000, "
			       "\"self_samples\": 1.0000, \"self\": 0.010000, "
			       "\"children_samples\": 6.0000, \"children\": "
			       "0.060000, \"calls\": 0, \"self_calls\": 0, "
			       "\"spontaneous\": true, \"cycle\": null}"));
	assert_non_null(strstr(s, "{\"index\": 2, \"function\": \"b\""));
	assert_non_null(strstr(s, "\"calls\": 1, \"self_calls\": 3"));
	assert_non_null(strstr(s, "{\"index\": 3, \"function\": \"c\""));
	assert_non_null(strstr(s, "{\"index\": 4, \"function\": \"h\""));
	assert_non_null(strstr(s, "{\"caller\": \"b\", \"callee\": \"c\", "
			       "\"caller_index\": 2, \"callee_index\": 3, "
			       "\"count\": 2, \"self_samples\": 4.0000, "
			       "\"self\": 0.040000, \"children_samples\": "
			       "0.0000, \"children\": 0.000000}"));
	assert_non_null(strstr(s, "\"cycles\": []"));
	assert_non_null(strstr(s, "\"reason\": null"));
	free(s);
	hist_free(&h);
}

/*
 * Text: the entry of b, its self-calls with a count only, its callers
 * most time last, its callees most time first.
 */
static void test_text(void **state)
{
	struct hist h;
	char *s;

	(void)state;
	chain_hist(&h);
	s = render_str(&h, RENDER_TEXT, false);
	assert_non_null(strstr(s,
		"                                          3             b [2]\n"
		"                   0.020     0.040        1/1           a [1]\n"
		"[2]       60.0     0.020     0.040        1+3        b [2]\n"
		"                   0.040     0.000        2/2           c [3]\n"
		"                                          3             b [2]\n"));
	assert_non_null(strstr(s, "<spontaneous>\n[1] "));
	assert_null(strstr(s, "# no call arcs"));
	free(s);
	/* No arcs: said, and every function with samples spontaneous. */
	hist_free(&h);
	make_hist(&h, (const uint64_t[NF]){ [C] = 1 });
	s = render_str(&h, RENDER_TEXT, false);
	assert_non_null(strstr(s, "# no call arcs"));
	assert_non_null(strstr(s, "<spontaneous>\n[1] "));
	free(s);
	hist_free(&h);
}

/* ---- against gprof, on a glibc -pg program ---- */

static char dir[] = "/tmp/test_cli_callgraphXXXXXX";
static char gmon[64], copy[64];

static int setup_gprof(void **state)
{
	pid_t pid;
	int st;

	(void)state;
	if (!mkdtemp(dir))
		return -1;
	snprintf(gmon, sizeof(gmon), "%s/gmon.out", dir);
	snprintf(copy, sizeof(copy), "%s/copy.out", dir);
	pid = fork();
	if (pid < 0)
		return -1;
	if (!pid) {
		if (chdir(dir))
			_exit(127);
		execl(TARGET, TARGET, (char *)NULL);
		_exit(127);
	}
	if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st) ||
	    WEXITSTATUS(st))
		return -1;
	return access(gmon, R_OK);
}

static int teardown_gprof(void **state)
{
	(void)state;
	unlink(gmon);
	unlink(copy);
	return rmdir(dir);
}

/* gprof -b -q's output on @file, whole. */
static char *gprof_q(const char *file)
{
	char cmd[512], *buf = NULL;
	size_t len = 0, n;
	char chunk[4096];
	FILE *p, *m;

	snprintf(cmd, sizeof(cmd), "gprof -b -q '%s' '%s' 2>&1", TARGET, file);
	p = popen(cmd, "r");
	assert_non_null(p);
	m = open_memstream(&buf, &len);
	assert_non_null(m);
	while ((n = fread(chunk, 1, sizeof(chunk), p)) > 0)
		assert_int_equal(fwrite(chunk, 1, n, m), n);
	assert_int_equal(pclose(p), 0);
	assert_int_equal(fclose(m), 0);
	return buf;
}

/* "name <cycle 1> [8]" -> "name". */
static void bare_name(char *s)
{
	char *p = strstr(s, " <cycle");

	if (!p)
		p = strstr(s, " [");
	if (p)
		*p = '\0';
}

static size_t func_of(const struct sym_func *fs, size_t n, const char *name)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(fs[i].name, name))
			return i;
	fail_msg("gprof names %s, profil-ctl not", name);
	return 0;
}

struct gprof_check {
	const struct cg *g;
	const struct sym_func *fs;
	size_t nfs;
	uint32_t rate;
	size_t arcs, entries, spontaneous;
};

/* A time of gprof's (two decimals) against ours, in samples. */
static void check_time(const struct gprof_check *c, const char *what,
		       const char *name, double gprof_s, double samples)
{
	double ours = samples / c->rate;

	if (fabs(ours - gprof_s) > 0.005 + 1e-9)
		fail_msg("%s %s: gprof %.2f s, profil-ctl %.6f s", name, what,
			 gprof_s, ours);
}

/* A callee line of @caller's entry: "self children count[/all] name". */
static void check_callee(struct gprof_check *c, size_t caller,
			 const char *line)
{
	unsigned long long count;
	double self, child;
	char name[256];
	const struct cg_arc *a = NULL;
	size_t callee, i;

	if (sscanf(line, " %lf %lf %llu/%*u %255[^\n]", &self, &child, &count,
		   name) != 4) {
		/* A self-call, or a call within a cycle: a count only. */
		assert_int_equal(sscanf(line, " %llu %255[^\n]", &count, name),
				 2);
		self = child = -1;
	}
	bare_name(name);
	callee = func_of(c->fs, c->nfs, name);
	for (i = 0; i < c->g->narcs; i++)
		if (c->g->arcs[i].caller == caller &&
		    c->g->arcs[i].callee == callee)
			a = &c->g->arcs[i];
	if (!a)
		fail_msg("gprof: %s -> %s, profil-ctl: no arc",
			 c->fs[caller].name, name);
	if (a->count != count)
		fail_msg("%s -> %s: gprof %llu calls, profil-ctl %llu",
			 c->fs[caller].name, name, count,
			 (unsigned long long)a->count);
	if (self >= 0) {
		check_time(c, "arc self", name, self, a->self);
		check_time(c, "arc children", name, child, a->child);
	}
	c->arcs++;
}

/* One entry of gprof -q: lines up to its separator. */
static void check_entry(struct gprof_check *c, char **lines, size_t n)
{
	double pct, self, child;
	bool spont = false;
	char name[256];
	size_t i, f;
	int idx;

	for (i = 0; i < n; i++) {
		if (strstr(lines[i], "<spontaneous>"))
			spont = true;
		if (lines[i][0] == '[')
			break;
	}
	assert_true(i < n);
	if (strstr(lines[i], "as a whole>"))
		return;
	assert_int_equal(sscanf(lines[i], "[%d] %lf %lf %lf", &idx, &pct,
				&self, &child), 4);
	/* The name follows the called column, if any. */
	snprintf(name, sizeof(name), "%s", strrchr(lines[i], ']') ?
		 lines[i] : "");
	*strrchr(name, '[') = '\0';
	name[strlen(name) - 1] = '\0';
	bare_name(name);
	memmove(name, strrchr(name, ' ') + 1, strlen(strrchr(name, ' ')));
	f = func_of(c->fs, c->nfs, name);
	check_time(c, "self", name, self, c->g->nodes[f].self);
	check_time(c, "children", name, child, c->g->nodes[f].child);
	assert_int_equal(c->g->nodes[f].spontaneous, spont);
	c->spontaneous += spont;
	for (i++; i < n; i++)
		check_callee(c, f, lines[i]);
	c->entries++;
}

static void check_against_gprof(struct gprof_check *c, char *text)
{
	char *lines[64], *line, *save;
	size_t n = 0;
	bool in_graph = false;

	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (!strncmp(line, "index", 5)) {
			in_graph = true;
			continue;
		}
		if (!in_graph)
			continue;
		if (!strncmp(line, "Index by function name", 22))
			break;
		if (!strncmp(line, "-----", 5)) {
			check_entry(c, lines, n);
			n = 0;
			continue;
		}
		assert_true(n < 64);
		lines[n++] = line;
	}
}

static void test_against_gprof(void **state)
{
	struct gprof_check c = { .arcs = 0 };
	struct hist h = { .rate = 0 };
	struct symtab *st;
	char err[256], *text;
	struct cg g;

	(void)state;
	st = symtab_open(TARGET, err, sizeof(err));
	if (!st)
		fail_msg("%s: %s", TARGET, err);
	if (gmon_read_file(gmon, symtab_ptr_size(st), &h, err, sizeof(err)))
		fail_msg("%s: %s", gmon, err);
	c.fs = symtab_funcs(st, &c.nfs);
	c.rate = h.rate;
	assert_true(c.rate > 0);
	assert_int_equal(cg_build(&g, &h, c.fs, c.nfs), 0);
	c.g = &g;
	text = gprof_q(gmon);
	check_against_gprof(&c, text);
	/* Every arc of ours is one of gprof's, and the shape is known. */
	assert_int_equal(c.arcs, g.narcs);
	assert_true(c.entries >= 13);
	assert_int_equal(c.spontaneous, 2);	/* main, cg_thread */
	assert_int_equal(g.ncycles, 1);
	assert_int_equal(g.nodes[func_of(c.fs, c.nfs, "cg_rec")].self_calls,
			 35);
	assert_int_equal(g.nodes[func_of(c.fs, c.nfs, "cg_bottom")].calls, 6);
	assert_true(g.nodes[func_of(c.fs, c.nfs, "cg_thread")].spontaneous);
	free(text);
	cg_free(&g);
	hist_free(&h);
	symtab_close(st);
}

/* report --format=gmon's copy: gprof -q prints the same graph. */
static void test_gmon_copy_keeps_arcs(void **state)
{
	struct hist h = { .rate = 0 };
	char err[256], *a, *b;
	FILE *f;

	(void)state;
	assert_int_equal(gmon_read_file(gmon, sizeof(void *), &h, err,
					sizeof(err)), 0);
	assert_true(h.narcs > 0);
	f = fopen(copy, "w");
	assert_non_null(f);
	assert_int_equal(render_gmon(f, &h), 0);
	assert_int_equal(fclose(f), 0);
	hist_free(&h);
	a = gprof_q(gmon);
	b = gprof_q(copy);
	assert_non_null(strstr(a, "cg_chain_b [")); /* a graph, not empty */
	assert_string_equal(a, b);
	free(a);
	free(b);
}

int main(void)
{
	const struct CMUnitTest unit[] = {
		cmocka_unit_test(test_chain),
		cmocka_unit_test(test_diamond),
		cmocka_unit_test(test_self_recursion),
		cmocka_unit_test(test_cycle),
		cmocka_unit_test(test_spontaneous_and_merge),
		cmocka_unit_test(test_csv),
		cmocka_unit_test(test_json),
		cmocka_unit_test(test_text),
	};
	const struct CMUnitTest gprof[] = {
		cmocka_unit_test(test_against_gprof),
		cmocka_unit_test(test_gmon_copy_keeps_arcs),
	};
	int ret;

	ret = cmocka_run_group_tests_name("callgraph", unit, NULL, NULL);
	return ret | cmocka_run_group_tests_name("callgraph_gprof", gprof,
						 setup_gprof, teardown_gprof);
}
