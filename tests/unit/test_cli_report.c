// SPDX-License-Identifier: GPL-2.0
/*
 * profil-ctl's command line: the dispatcher of cli/profil-ctl.c (its
 * main() renamed profil_ctl_main), every command's help and usage
 * errors, and the report command, each case run in a child with its exit
 * status and output checked: 0 success, 1 failure, 2 usage error, and
 * the message that the bad-input table of
 * Documentation/profil-ctl/whole-program.rst lists.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "profil.h"
#include "ctl.h"
#include "gmon_read.h"
#include "cli_test.h"


#define TARGET UNIT_OUT "/cli_sym_target"
#define BOUNDS UNIT_OUT "/cli_bounds_target"
#define PG UNIT_OUT "/cli_pg_target"

static char dir[] = "/tmp/test_cli_reportXXXXXX";
static char good[64], bad[64], out_path[64], bounds[64];
static char bounds2[64], bounds_rate[64], bounds_shifted[64];
static unsigned long long bounds_base;
static char out[16384], err[16384];

/* profil-ctl ARGS... (NULL-terminated) in a child in dir. */
#define ctl(...) cli_test_run(dir, out, sizeof(out), err, sizeof(err), __VA_ARGS__)

/*
 * A gmon.out over cli_bounds_target's hand-made functions (see that
 * file): 3 samples in bt_first, 2 in its padding, 5 in bt_hidden (a
 * static function, gone from the .dynsym copy), 1 in bt_second.
 */
static int write_bounds_gmon(void)
{
	uint64_t counts[0x100 / 4] = { 0 };
	struct profil_gmon_hist g = {
		.hist_size = 0x100 / 4, .prof_rate = 100, .counts = counts,
		.width = 8,
	};
	unsigned long long base, d;
	FILE *p, *f;

	snprintf(bounds, sizeof(bounds), "%s/bounds.out", dir);
	p = popen(BOUNDS, "r");
	if (!p || fscanf(p, "bt_base %llx bt_dwarf %llx", &base, &d) != 2 ||
	    pclose(p))
		return -1;
	counts[0x00 / 4] = 3;
	counts[0x30 / 4] = 2;
	counts[0x48 / 4] = 5;
	counts[0x80 / 4] = 1;
	g.low_pc = base;
	g.high_pc = base + 0x100;
	bounds_base = base;
	f = fopen(bounds, "w");
	if (!f || profil_gmon_write(f, &g) || fclose(f))
		return -1;
	return 0;
}

/*
 * Another run over cli_bounds_target: bt_first 1, padding 2, bt_hidden
 * 5, bt_second 6, at @rate Hz, the range moved by @shift bytes.
 */
static int write_bounds2(char *path, const char *name, uint32_t rate,
			 uint64_t shift)
{
	uint64_t counts[0x100 / 4] = { 0 };
	struct profil_gmon_hist g = {
		.hist_size = 0x100 / 4, .prof_rate = rate, .counts = counts,
		.width = 8, .low_pc = bounds_base + shift,
		.high_pc = bounds_base + shift + 0x100,
	};
	FILE *f;

	snprintf(path, 64, "%s/%s", dir, name);
	counts[0x00 / 4] = 1;
	counts[0x30 / 4] = 2;
	counts[0x48 / 4] = 5;
	counts[0x80 / 4] = 6;
	f = fopen(path, "w");
	if (!f || profil_gmon_write(f, &g) || fclose(f))
		return -1;
	return 0;
}

/* A gmon.out with 4 samples in target_alpha (an address the target
 * prints) and 1 below the text. */
static int setup(void **state)
{
	unsigned long long alpha, beta;
	uint64_t counts[4] = { 1, 0, 4, 0 };
	struct profil_gmon_hist g = {
		.hist_size = 4, .prof_rate = 100, .counts = counts,
		.width = 8,
	};
	FILE *p, *f;

	(void)state;
	if (!mkdtemp(dir))
		return -1;
	snprintf(good, sizeof(good), "%s/gmon.out", dir);
	snprintf(bad, sizeof(bad), "%s/bad.out", dir);
	snprintf(out_path, sizeof(out_path), "%s/re.out", dir);
	p = popen(TARGET, "r");
	if (!p || fscanf(p, "target_alpha %llx target_beta %llx", &alpha,
			 &beta) != 2 || pclose(p))
		return -1;
	/* bin 2 starts at alpha; bin 0 at alpha - 8 (below it: [unknown]
	 * or another function). */
	g.low_pc = alpha - 8;
	g.high_pc = alpha + 8;
	f = fopen(good, "w");
	if (!f || profil_gmon_write(f, &g) || fclose(f))
		return -1;
	f = fopen(bad, "w");
	if (!f || fputs("not a gmon.out at all", f) < 0 || fclose(f))
		return -1;
	if (write_bounds_gmon() ||
	    write_bounds2(bounds2, "bounds2.out", 100, 0) ||
	    write_bounds2(bounds_rate, "bounds_rate.out", 1000, 0) ||
	    write_bounds2(bounds_shifted, "bounds_shifted.out", 100, 8))
		return -1;
	return 0;
}

static int rm_entry(const char *path, const struct stat *sb, int flag,
		    struct FTW *ftw)
{
	(void)sb;
	(void)flag;
	(void)ftw;
	return remove(path);
}

/* The directory and all in it (a debuginfod cache, say). */
static int teardown(void **state)
{
	(void)state;
	return nftw(dir, rm_entry, 8, FTW_DEPTH | FTW_PHYS);
}

static void expect(int code, int want, const char *buf, const char *msg)
{
	if (code != want || !strstr(buf, msg))
		fail_msg("exit %d (want %d), no \"%s\" in:\n%s\n--\n%s", code,
			 want, msg, out, err);
}

static void test_dispatch(void **state)
{
	(void)state;
	expect(ctl(NULL), 2, err, "usage: profil-ctl <command> [options]");
	expect(ctl("bogus", NULL), 2, err,
	       "profil-ctl: unknown command 'bogus'");
	expect(ctl("--version", NULL), 0, out, "profil-ctl ");
	expect(ctl("--help", NULL), 0, out, "report ");
	expect(ctl("help", "report", NULL), 0, out,
	       "usage: profil-ctl report [options] [BINARY] [FILE...]");
	expect(ctl("help", "help", NULL), 0, out,
	       "usage: profil-ctl help [COMMAND]");
	expect(ctl("help", "nope", NULL), 2, err,
	       "profil-ctl: help: unknown command 'nope'");
	expect(ctl("help", "a", "b", NULL), 2, err,
	       "profil-ctl: help: too many arguments");
}

/*
 * Each command's help, three ways, lists its synopsis and options (a few
 * of its own, and none of another command's); an unknown option is a
 * usage error with the synopsis. None of this reaches the kernel.
 */
static void test_help(void **state)
{
	static const struct {
		const char *cmd, *synopsis, *has[3], *lacks;
	} cases[] = {
		{ "run", "run [options] -- PROGRAM",
		  { "-r, --rate=HZ", "-F, --freq=HZ", "--lines" }, "--pid" },
		{ "attach", "attach [options] PID",
		  { "-p, --pid=PID", "-d, --duration=SECS", "--sort" },
		  "text (default) or json" },
		{ "start", "start [options] PID",
		  { "--system-ticks", "-r, --rate=HZ", "--no-inherit" },
		  "--output" },
		{ "stop", "stop [options] PID",
		  { "-o, --output=FILE", "-p, --pid=PID", "--per-process" },
		  "--rate" },
		{ "status", "status [options] [PID]",
		  { "--format=FMT", "text (default) or json", "-p, --pid" },
		  "--lines" },
		{ "show", "show [options] PID",
		  { "-o, --output=FILE", "-a, --all", "--format=FMT" },
		  "--duration" },
		{ "report", "report [options] [BINARY] [FILE...]",
		  { "--sort[=KEYS]", "--top=N", "load      (-v) samples per byte" },
		  "--pid" },
	};
	static const char *const ways[][2] = {
		{ "help", NULL }, { NULL, "--help" }, { NULL, "-h" },
	};
	char usage[64];
	size_t i, w, k;
	int code;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		snprintf(usage, sizeof(usage), "usage: profil-ctl %s",
			 cases[i].synopsis);
		for (w = 0; w < 3; w++) {
			code = ways[w][0] ? ctl(ways[w][0], cases[i].cmd, NULL)
					  : ctl(cases[i].cmd, ways[w][1], NULL);
			expect(code, 0, out, usage);
			for (k = 0; k < 3; k++)
				expect(code, 0, out, cases[i].has[k]);
			if (strstr(out, cases[i].lacks))
				fail_msg("%s's help lists %s", cases[i].cmd,
					 cases[i].lacks);
		}
		expect(ctl(cases[i].cmd, "--bogus", NULL), 2, err,
		       "unknown option '--bogus'");
		expect(2, 2, err, usage);
		assert_string_equal(out, "");
	}
}

static void test_report_usage(void **state)
{
	(void)state;
	expect(ctl("report", "--format=xml", NULL), 2, err,
	       "profil-ctl: report: unknown format 'xml' (text, csv, json, "
	       "pprof, folded, gmon, callgrind or html)");
	expect(ctl("report", "--format=gmon", NULL), 2, err,
	       "profil-ctl: report: --format=gmon needs -o FILE");
	expect(ctl("report", "--callgraph", "--lines", NULL), 2, err,
	       "profil-ctl: report: --callgraph is a view of its own: text, "
	       "csv or json; not with --lines or -b");
	expect(ctl("report", "-b", "--callgraph", NULL), 2, err,
	       "--callgraph is a view of its own");
	expect(ctl("report", "--callgraph", "--format=gmon", "-o", "x", NULL),
	       2, err, "--callgraph is a view of its own");
	expect(ctl("report", "--callgraph", "--format=folded", NULL), 2, err,
	       "--callgraph is a view of its own");
	expect(ctl("report", "--bogus", NULL), 2, err,
	       "profil-ctl: report: unknown option '--bogus'");
	expect(ctl("report", "-f", NULL), 2, err,
	       "profil-ctl: report: option '-f' needs an argument");
	/* [BINARY] FILE...: a, then b and c to merge. */
	expect(ctl("report", "a", "b", "c", NULL), 1, err,
	       "profil-ctl: report: a: No such file or directory");
	expect(ctl("report", "-h", NULL), 0, out, "usage: profil-ctl report");
}

static void test_report_failures(void **state)
{
	char msg[PATH_MAX + 256];

	(void)state;
	expect(ctl("report", "-e", TARGET, "-f", "/nonexistent", NULL), 1,
	       err, "profil-ctl: report: /nonexistent: No such file or "
	       "directory");
	snprintf(msg, sizeof(msg), "profil-ctl: report: %s: offset 0: bad "
		 "magic", bad);
	expect(ctl("report", "-e", TARGET, "-f", bad, NULL), 1, err, msg);
	expect(ctl("report", "-e", "/nonexistent", "-f", good, NULL), 1, err,
	       "profil-ctl: report: /nonexistent: No such file or "
	       "directory");
	snprintf(msg, sizeof(msg), "profil-ctl: report: %s: not a valid ELF "
		 "file", bad);
	expect(ctl("report", "-e", bad, "-f", good, NULL), 1, err, msg);
	expect(ctl("report", "-e", TARGET, "-f", good, "-o",
		   "/nonexistent/x", NULL), 1, err,
	       "profil-ctl: report: /nonexistent/x: No such file or "
	       "directory");
	expect(ctl("report", "-f", "/", NULL), 1, err,
	       "profil-ctl: report: /: Is a directory");
}

/*
 * What does not match fails (exit 1) unless --force, naming what is
 * wrong; options a format or mode would drop are refused (exit 2).
 */
static void test_report_fails_loudly(void **state)
{
	char msg[PATH_MAX + 256];

	(void)state;
	/* No program: gprof fails there too. */
	snprintf(msg, sizeof(msg), "profil-ctl: report: no program to name "
		 "%s's addresses: a.out: No such file or directory (name it: "
		 "report BINARY GMON, or -e BINARY; --force for addresses "
		 "only)", good);
	expect(ctl("report", "-f", good, NULL), 1, err, msg);
	assert_string_equal(out, "");
	/* Another program (PIE, far from the target's addresses). */
	snprintf(msg, sizeof(msg), "profil-ctl: report: %s: none of its 5 "
		 "samples is in a function of %s: is that the program that "
		 "wrote it? (--force: report them as [unknown])", good, PG);
	expect(ctl("report", PG, good, NULL), 1, err, msg);
	expect(ctl("report", "--force", PG, good, NULL), 0, out,
	       "        5 100.00     0.050  [unknown]\n");
	snprintf(msg, sizeof(msg), "profil-ctl: report: %s and 1 more: none "
		 "of its 10 samples is in a function of %s", good, PG);
	expect(ctl("report", PG, good, good, NULL), 1, err, msg);
	/* The operand the user gave is the one named. */
	expect(ctl("report", "/nonexistent.profile", NULL), 1, err,
	       "profil-ctl: report: /nonexistent.profile: No such file or "
	       "directory");
	/* Options that would be dropped. */
	expect(ctl("report", "--format=pprof", "--percent-limit=5", TARGET,
		   good, NULL), 2, err, "--top, --percent-limit: not with "
	       "--format=pprof, which keeps every sample");
	expect(ctl("report", "--format=callgrind", "--top=3", TARGET, good,
		   NULL), 2, err, "not with --format=callgrind");
	expect(ctl("report", "--format=html", "--lines", TARGET, good, NULL),
	       2, err, "--lines, -b: not with --format=html");
	expect(ctl("report", "--lines", "-b", TARGET, good, NULL), 2, err,
	       "--lines and -b: one view or the other");
	/* The live commands' report options, refused before any kernel. */
	expect(ctl("run", "--format=pprof", "--top=3", "-o", "r.pb", "--",
		   "true", NULL), 2, err, "--top, --percent-limit: not with "
	       "--format=pprof");
	/*
	 * show of a process without a collector reads its own buffer, one
	 * executable: a whole program's options are refused, before any
	 * kernel (there is no collector for process 1).
	 */
	expect(ctl("show", "--sort", "dso", "1", NULL), 1, err,
	       "process 1 has no collector (\"profil-ctl start\"): --sort "
	       "with pid, comm, dso or sym applies to a whole program's "
	       "profile");
	expect(ctl("report", "--format=csv", "--format", "json", TARGET, good,
		   NULL), 2, err, "--format given twice (csv, then json)");
	expect(ctl("report", "--diff", "--format=pprof", "-o", "d.pprof",
		   TARGET, good, good, NULL), 2, err,
	       "--diff: text, csv or json, not --format=pprof");
	assert_int_not_equal(access("d.pprof", F_OK), 0);
	expect(ctl("report", "--diff", "--format=html", TARGET, good, good,
		   NULL), 2, err, "not --format=html");
	expect(ctl("report", "--diff", "--per-process", TARGET, good, good,
		   NULL), 2, err, "--diff: the functions of two profiles, not "
	       "--per-process");
	/* The same file twice: said, then summed. */
	snprintf(msg, sizeof(msg), "warning: %s and %s are one file: its "
		 "samples count twice", good, good);
	expect(ctl("report", TARGET, good, good, NULL), 0, err, msg);
}

static void test_report_ok(void **state)
{
	struct hist h = { .rate = 0 };
	char e[256];

	(void)state;
	expect(ctl("report", "-e", TARGET, "-f", good, NULL), 0, out,
	       "        4  80.00     0.040  target_alpha");
	expect(0, 0, out, "        5 100.00     0.050  total");
	/* load, readprofile's samples per byte, is -v's, with the sizes. */
	expect(ctl("report", "-e", TARGET, "-f", good, NULL), 0, out,
	       "  function\n");
	assert_null(strstr(out, "load"));
	expect(ctl("report", "-v", "-e", TARGET, "-f", good, NULL), 0, out,
	       "  function                              load\n");
	/* gprof's positional form, and the line view. */
	expect(ctl("report", TARGET, good, "--lines", NULL), 0, out,
	       "cli_sym_target.c:");
	expect(ctl("report", "-e", TARGET, "-f", good, "--format=csv", NULL),
	       0, out, "target_alpha,0x");
	/* No a.out in the directory: --force gives addresses only. */
	expect(ctl("report", "--force", "-f", good, NULL), 0, err,
	       "a.out: No such file or directory (name it: report BINARY "
	       "GMON, or -e BINARY; --force: addresses only)");
	expect(0, 0, out, "# no program read for symbols (name it: BINARY "
	       "GMON, or -e): every sample is [unknown]");
	/* The rewrite reads back. */
	expect(ctl("report", "-f", good, "--format=gmon", "-o", out_path,
		   NULL), 0, out, "");
	assert_int_equal(gmon_read_file(out_path, 8, &h, e, sizeof(e)), 0);
	assert_int_equal(hist_total(&h), 5);
	hist_free(&h);
}

/*
 * A function's samples are those inside its bounds: the summary says how
 * many gprof would charge to the function before them instead, and -v
 * where they are. With the static function's symbol, its 5 are its own.
 */
static void test_report_bounds(void **state)
{
	(void)state;
	expect(ctl("report", "-e", BOUNDS ".dynsym", "-f", bounds, NULL), 0,
	       out, "        3  27.27     0.030  bt_first");
	expect(0, 0, out, "        7  63.64     0.070  [unknown]\n");
	expect(0, 0, out, "# gprof would charge 7 of the [unknown] samples "
	       "(63.64%) to the function whose entry precedes them (-v: "
	       "where)\n");
	expect(ctl("report", "-e", BOUNDS ".dynsym", "-f", bounds, "-v",
		   NULL), 0, out, "       28         7  63.64     0.070    "
	       "after bt_first+0x30\n");
	expect(ctl("report", "-e", BOUNDS ".dynsym", "-f", bounds,
		   "--format=json", NULL), 0, out, "\"gprof_preceding\": "
	       "{\"count\": 7, ");
	expect(ctl("report", "-e", BOUNDS, "-f", bounds, NULL), 0, out,
	       "        5  45.45     0.050  bt_hidden");
	expect(0, 0, out, "        2  18.18     0.020  [unknown]\n");
	expect(0, 0, out, "# gprof would charge 2 of the [unknown] samples");
}

static unsigned int count_str(const char *hay, const char *needle)
{
	unsigned int n = 0;

	for (; (hay = strstr(hay, needle)); hay++)
		n++;
	return n;
}

/*
 * A binary without local debuginfo, DEBUGINFOD_URLS set: one debuginfod
 * query per view (DEBUGINFOD_VERBOSE prints each), though report reads
 * the binary for its pointer width and its symbols, and libdwfl looks
 * for debuginfo for both its symbol table and its DWARF. The server is
 * a closed port: the query fails at once and nothing is cached.
 */
/* @a appears in out before @b. */
static void expect_order(const char *a, const char *b)
{
	const char *pa = strstr(out, a), *pb = strstr(out, b);

	if (!pa || !pb || pa > pb)
		fail_msg("\"%s\" not before \"%s\" in:\n%s", a, b, out);
}

/*
 * perf's and gprof's habits: most samples first by default, address
 * order on request; --top and --percent-limit with a line for the rows
 * they leave out; -F for --rate; numbers decimal or 0x, never octal.
 */
static void test_report_habits(void **state)
{
	unsigned long long v;

	(void)state;
	/* bt_hidden 5, bt_first 3, bt_second 1; 2 in padding: 11. */
	expect(ctl("report", "-e", BOUNDS, "-f", bounds, NULL), 0, out,
	       "bt_hidden");
	expect_order("bt_hidden", "bt_first");
	expect_order("bt_first", "bt_second");
	expect(ctl("report", "-e", BOUNDS, "-f", bounds, "--sort=address",
		   NULL), 0, out, "bt_hidden");
	expect_order("bt_first", "bt_hidden");
	expect_order("bt_hidden", "bt_second");
	expect(ctl("report", "-e", BOUNDS, "-f", bounds, "--sort", NULL), 0,
	       out, "bt_hidden");
	expect_order("bt_hidden", "bt_first");

	expect(ctl("report", "-e", BOUNDS, "-f", bounds, "--top", "1", NULL),
	       0, out, "        5  45.45     0.050  bt_hidden");
	expect(0, 0, out, "# 2 more rows (--top, --percent-limit): count 4, "
	       "36.36%\n");
	expect(0, 0, out, "       11 100.00     0.110  total");
	if (strstr(out, "bt_first"))
		fail_msg("--top 1 shows bt_first:\n%s", out);
	/* In address order, --top keeps the highest, in address order. */
	expect(ctl("report", "-e", BOUNDS, "-f", bounds, "--top=2",
		   "--sort=address", NULL), 0, out, "bt_hidden");
	expect_order("bt_first", "bt_hidden");
	expect(0, 0, out, "# 1 more row (--top, --percent-limit): count 1, "
	       "9.09%\n");
	expect(ctl("report", "-e", BOUNDS, "-f", bounds, "--percent-limit",
		   "20", NULL), 0, out, "bt_first");
	expect(0, 0, out, "# 1 more row (--top, --percent-limit): count 1, "
	       "9.09%\n");
	expect(ctl("report", "-e", BOUNDS, "-f", bounds, "--percent-limit",
		   "10", "--format=json", NULL), 0, out,
	       "\"hidden\": {\"rows\": 1, \"count\": 1, ");

	expect(ctl("report", "--top", "0", NULL), 2, err,
	       "profil-ctl: report: --top: '0' is not a number of rows from 1");
	expect(ctl("report", "--top", "010x", NULL), 2, err, "--top: '010x'");
	expect(ctl("report", "--percent-limit", "101", NULL), 2, err,
	       "--percent-limit: '101' is not a percentage from 0 to 100");
	expect(ctl("report", "--sort=size", NULL), 2, err,
	       "--sort: unknown key 'size' (comm, dso, sym, pid; samples or "
	       "address)");
	/* perf's habit: "--sort KEY" as "--sort=KEY", -i FILE as -f. */
	expect(ctl("report", "-e", BOUNDS, "-i", bounds, "--sort", "address",
		   NULL), 0, out, "bt_hidden");
	expect_order("bt_first", "bt_hidden");
	expect(ctl("report", "--sort", "size", NULL), 2, err,
	       "--sort: unknown key 'size'");
	/* -F is --rate: the same check, before any kernel is asked. */
	expect(ctl("start", "-F", "5", "1", NULL), 2, err,
	       "--rate: '5' is not a rate from 10 to 10000 Hz");
	expect(ctl("start", "--rate", "0x", "1", NULL), 2, err,
	       "--rate: '0x' is not a rate");

	assert_int_equal(ctl_parse_u64("0100", 0, 1000, &v), 0);
	assert_int_equal(v, 100);
	assert_int_equal(ctl_parse_u64("0x100", 0, 1000, &v), 0);
	assert_int_equal(v, 256);
	assert_int_equal(ctl_parse_u64("0X1f", 0, 1000, &v), 0);
	assert_int_equal(v, 31);
	assert_int_equal(ctl_parse_u64("0", 0, 1000, &v), 0);
	assert_int_equal(v, 0);
	assert_int_equal(ctl_parse_u64("0x0x10", 0, 1000, &v), -1);
	assert_int_equal(ctl_parse_u64("0x-1", 0, 1000, &v), -1);
	assert_int_equal(ctl_parse_u64("0x", 0, 1000, &v), -1);
	assert_int_equal(ctl_parse_u64(" 1", 0, 1000, &v), -1);
	assert_int_equal(ctl_parse_u64("1e3", 0, 1000, &v), -1);
	assert_int_equal(ctl_parse_u64("1001", 0, 1000, &v), -1);
	assert_int_equal(ctl_parse_u64("99999999999999999999", 0, ~0ULL,
				       &v), -1);
}

/*
 * report [BINARY] FILE...: gmon.out files summed as gprof -s sums them;
 * files of other rates or ranges that do not fit are refused by name.
 * report --diff BASE NEW: the change per function, largest change of
 * share first.
 */
static void test_report_merge_diff(void **state)
{
	char msg[PATH_MAX + 256];

	(void)state;
	/* 3+1, 2+2 (padding), 5+5, 1+6: 25. */
	expect(ctl("report", BOUNDS, bounds, bounds2, NULL), 0, out,
	       "        7  28.00     0.070  bt_second");
	expect(0, 0, out, "        4  16.00     0.040  bt_first");
	expect(0, 0, out, "       10  40.00     0.100  bt_hidden");
	expect(0, 0, out, "       25 100.00     0.250  total");
	/* The same through -e and -f, and written back as one gmon.out. */
	expect(ctl("report", "-e", BOUNDS, "-f", bounds, bounds2,
		   "--format=gmon", "-o", out_path, NULL), 0, out, "");
	expect(ctl("report", BOUNDS, out_path, NULL), 0, out,
	       "       25 100.00     0.250  total");
	snprintf(msg, sizeof(msg), "profil-ctl: report: %s and %s: rates "
		 "differ (100 and 1000 Hz)", bounds, bounds_rate);
	expect(ctl("report", BOUNDS, bounds, bounds_rate, NULL), 1, err, msg);
	snprintf(msg, sizeof(msg), "profil-ctl: report: %s and %s: "
		 "histograms that do not fit (ranges overlap partially): not "
		 "profiles of one program", bounds, bounds_shifted);
	expect(ctl("report", BOUNDS, bounds, bounds_shifted, NULL), 1, err,
	       msg);
	expect(ctl("report", BOUNDS, bounds, "/nonexistent", NULL), 1, err,
	       "profil-ctl: report: /nonexistent: No such file or directory");

	/* 11 then 14 samples: bt_second 9.09% -> 42.86%, and so on. */
	expect(ctl("report", "--diff", BOUNDS, bounds, bounds2, NULL), 0, out,
	       "        1         6        +5    9.09   42.86   +33.77  "
	       "bt_second\n");
	expect(0, 0, out, "        3         1        -2   27.27    7.14   "
	       "-20.13  bt_first\n");
	expect(0, 0, out, "        5         5        +0   45.45   35.71    "
	       "-9.74  bt_hidden\n");
	expect_order("bt_second", "bt_first");
	expect_order("bt_first", "bt_hidden");
	expect_order("bt_hidden", "[unknown]");
	snprintf(msg, sizeof(msg), "# base %s: 11 samples\n# new  %s: 14 "
		 "samples\n", bounds, bounds2);
	expect(0, 0, out, msg);
	expect(ctl("report", "--diff", "--top=1", "--format=csv", BOUNDS,
		   bounds, bounds2, NULL), 0, out, "function,base,new,delta,"
	       "base_percent,new_percent,delta_percent\n"
	       "bt_second,1,6,5,9.0909,42.8571,33.7662\n");
	if (strstr(out, "bt_first"))
		fail_msg("--top=1 shows bt_first:\n%s", out);
	expect(ctl("report", "--diff", "--lines", BOUNDS, bounds, bounds2,
		   NULL), 0, out, "file:line");
	expect(ctl("report", "--diff", BOUNDS, bounds, NULL), 2, err,
	       "--diff takes two files, BASE and NEW (1 given)");
	expect(ctl("report", "--diff", "-b", BOUNDS, bounds, bounds2, NULL), 2,
	       err, "--diff: per function or per line (--lines) only");
}

/* Runs @cmd (a format, then its arguments) with sh -c; its exit code. */
static int sh(const char *fmt, ...)
{
	char cmd[1024];
	va_list ap;
	int st;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	st = system(cmd);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/*
 * Two runs of a glibc -pg program merged: what profil-ctl shows, calls
 * included, is what it shows of gprof -s's gmon.sum of the same two.
 */
static void test_report_merge_like_gprof(void **state)
{
	static char merged[sizeof(out)];

	(void)state;
	if (sh("command -v gprof >/dev/null"))
		skip();
	assert_int_equal(sh("cd %s && mkdir -p r1 r2 && (cd r1 && %s) >/dev/null"
			    " && (cd r2 && %s) >/dev/null && gprof -s %s "
			    "r1/gmon.out r2/gmon.out", dir, PG, PG, PG), 0);
	expect(ctl("report", "--format=csv", PG, "r1/gmon.out", "r2/gmon.out",
		   NULL), 0, out, "pg_fifty,");
	memcpy(merged, out, sizeof(out));
	expect(ctl("report", "--format=csv", PG, "gmon.sum", NULL), 0, out,
	       "pg_fifty,");
	assert_string_equal(merged, out);
	/* Calls: 4 per function per run. */
	expect(ctl("report", PG, "r1/gmon.out", "r2/gmon.out", NULL), 0, out,
	       "         8  pg_fifty");
}

static void test_report_debuginfo_once(void **state)
{
	static const char *const views[] = { "--sort", "--lines", "-b" };
	char cache[96];
	unsigned int n;
	size_t i;

	(void)state;
	snprintf(cache, sizeof(cache), "%s/debuginfod", dir);
	setenv("DEBUGINFOD_URLS", "http://127.0.0.1:9", 1);
	setenv("DEBUGINFOD_CACHE_PATH", cache, 1);
	setenv("DEBUGINFOD_TIMEOUT", "5", 1);
	setenv("DEBUGINFOD_VERBOSE", "1", 1);
	for (i = 0; i < sizeof(views) / sizeof(views[0]); i++) {
		expect(ctl("report", "-e", TARGET ".dynsym", "-f", good,
			   views[i], NULL), 0, out, "total");
		n = count_str(err, "debuginfod_find_debuginfo");
		if (!n && !i) {
			/* libdw found no libdebuginfod.so.1 to dlopen. */
			unsetenv("DEBUGINFOD_VERBOSE");
			skip();
		}
		if (n != 1)
			fail_msg("%s: %u debuginfod queries:\n%s", views[i], n,
				 err);
	}
	unsetenv("DEBUGINFOD_VERBOSE");
	unsetenv("DEBUGINFOD_TIMEOUT");
	unsetenv("DEBUGINFOD_CACHE_PATH");
	unsetenv("DEBUGINFOD_URLS");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dispatch),
		cmocka_unit_test(test_help),
		cmocka_unit_test(test_report_usage),
		cmocka_unit_test(test_report_failures),
		cmocka_unit_test(test_report_ok),
		cmocka_unit_test(test_report_fails_loudly),
		cmocka_unit_test(test_report_bounds),
		cmocka_unit_test(test_report_habits),
		cmocka_unit_test(test_report_merge_diff),
		cmocka_unit_test(test_report_merge_like_gprof),
		cmocka_unit_test(test_report_debuginfo_once),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
