// SPDX-License-Identifier: GPL-2.0
/*
 * The exports (cli/format/export.c, pprof.c, folded.c) on a whole
 * profile built by hand: two processes and three objects (a program, a
 * shared library with uncovered samples, a library whose file is gone),
 * as cli_test_profile.c builds one for test_cli_profile*:
 * - folded: the lines, their order, counts summed per key, the sum, the
 *   per-process first frame, ';' out of names;
 * - pprof: gunzip'ed by zlib and unpacked by protobuf-c: sample types,
 *   period, default type, mappings (main first, build-ids, symbol
 *   flags), the totals per function and per type, lines and files,
 *   labels; with arcs, a third type that leaves the others' totals
 *   alone and (callee, caller) locations.
 * go tool pprof reads the same files in pprof_test.sh.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "folded.h"
#include "profile.h"
#include "profile.pb-c.h"
#include "profile_report.h"
#include "report.h"
#include "symbols.h"
#include "cli_test.h"

#define SYM UNIT_OUT "/cli_sym_target"
#define SO UNIT_OUT "/cli_so_target.so"
#define GONE "/nonexistent/lib;gone.so"
#define WRONG_ID "0011223344556677"

typedef Perftools__Profiles__Profile pb_profile;
typedef Perftools__Profiles__Label pb_label;

/* A 4-byte bin inside function @name of @path. */
static uint64_t bin_of(const char *path, const char *name)
{
	return (cli_test_func_addr(path, name) + 3) & ~3ULL;
}

/*
 * Objects: 0 SYM, 1 SO (recorded with a wrong build-id), 2 GONE.
 * Processes: 0 pid 100 "sym", 1 pid 101 "so user".
 * (sym, SYM) 10 in target_alpha, 2 in no function; (sym, SO) 3
 * uncovered; (so user, SO) 5 in so_work; (so user, GONE) 1 + 3: 24.
 */
static void build(struct profile *p)
{
	const uint64_t b10[1] = { 10 }, b2[2] = { 2, 0 }, b5[2] = { 5, 0 };
	const uint64_t b13[4] = { 1, 0, 3, 0 };
	uint64_t alpha = bin_of(SYM, "target_alpha");
	uint64_t work = bin_of(SO, "so_work");
	struct profile_count *c;

	memset(p, 0, sizeof(*p));
	p->rate = 100;
	p->bin_bytes = 4;
	profile_acct_unknown(&p->acct);
	assert_int_equal(profile_object_add(p, SO, WRONG_ID), 0);
	assert_int_equal(profile_object_add(p, SYM, NULL), 1);
	assert_int_equal(profile_object_add(p, GONE, NULL), 2);
	assert_int_equal(profile_process_add(p, 100, 1, "sym", SYM), 0);
	assert_int_equal(profile_process_add(p, 101, 100, "so user", NULL),
			 1);
	c = profile_count_get(p, 0, 1);
	assert_int_equal(hist_add_range(&c->hist, alpha, alpha + 4, b10, 1),
			 0);
	assert_int_equal(hist_add_range(&c->hist, 0x100, 0x108, b2, 2), 0);
	c = profile_count_get(p, 0, 0);
	c->uncovered = 3;
	c = profile_count_get(p, 1, 0);
	assert_int_equal(hist_add_range(&c->hist, work, work + 8, b5, 2), 0);
	c = profile_count_get(p, 1, 2);
	assert_int_equal(hist_add_range(&c->hist, 0x1000, 0x1010, b13, 4), 0);
}

/* profile_report() in @fmt into a buffer; its length in *@len. */
static char *export_str(const struct profile *p, enum render_format fmt,
			bool per_process, size_t *len)
{
	struct report_opts o;
	char *buf = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&buf, &n);

	assert_non_null(f);
	report_opts_init(&o);
	o.render.format = fmt;
	assert_int_equal(profile_report(f, p, &o, per_process, "test"), 0);
	assert_int_equal(fclose(f), 0);
	if (len)
		*len = n;
	return buf;
}

/* The sum of the counts ending the lines of @s; keys in order, once. */
static uint64_t folded_sum(const char *s)
{
	char *prev = NULL, *key;
	const char *l;
	uint64_t sum = 0;

	for (l = s; *l; l = strchr(l, '\n') + 1) {
		key = strndup(l, strcspn(l, "\n"));
		assert_non_null(key);
		assert_non_null(strrchr(key, ' '));
		sum += strtoull(strrchr(key, ' ') + 1, NULL, 10);
		*strrchr(key, ' ') = '\0';
		if (prev && strcmp(prev, key) >= 0)
			fail_msg("out of order: %s, then %s", prev, key);
		free(prev);
		prev = key;
	}
	free(prev);
	return sum;
}

static void test_folded(void **state)
{
	struct profile p;
	char *s;

	(void)state;
	build(&p);
	s = export_str(&p, RENDER_FOLDED, false, NULL);
	cli_test_has(s, SYM ";target_alpha;" UNIT_SRC "/cli_sym_target.c:");
	cli_test_has(s, SYM ";[unknown] 2\n");
	cli_test_has(s, SO ";so_work;" UNIT_SRC "/cli_so_target.c:");
	cli_test_has(s, SO ";" PROFILE_UNCOVERED_ROW " 3\n");
	/* Two bins of one key summed; ';' of a name is not a frame. */
	cli_test_has(s, "/nonexistent/lib_gone.so;[unknown] 4\n");
	assert_int_equal(folded_sum(s), 24);
	free(s);

	s = export_str(&p, RENDER_FOLDED, true, NULL);
	cli_test_has(s, "sym-100;" SYM ";[unknown] 2\n");
	cli_test_has(s, "sym-100;" SO ";" PROFILE_UNCOVERED_ROW " 3\n");
	cli_test_has(s, "so user-101;" SO ";so_work;");
	assert_int_equal(folded_sum(s), 24);
	free(s);
	profile_free(&p);
}

/* The pprof export of @p, gunzip'ed and unpacked. */
static pb_profile *pprof_of(const struct profile *p)
{
	z_stream z = { .next_in = NULL };
	size_t len, cap = 1 << 20;
	unsigned char *raw = malloc(cap);
	char *gz = export_str(p, RENDER_PPROF, false, &len);
	pb_profile *m;

	assert_non_null(raw);
	assert_true(len > 2 && (unsigned char)gz[0] == 0x1f &&
		    (unsigned char)gz[1] == 0x8b);
	assert_int_equal(inflateInit2(&z, 15 + 16), Z_OK);
	z.next_in = (Bytef *)gz;
	z.avail_in = (uInt)len;
	z.next_out = raw;
	z.avail_out = (uInt)cap;
	assert_int_equal(inflate(&z, Z_FINISH), Z_STREAM_END);
	m = perftools__profiles__profile__unpack(NULL, z.total_out, raw);
	assert_non_null(m);
	inflateEnd(&z);
	free(raw);
	free(gz);
	return m;
}

static const char *s_of(const pb_profile *m, int64_t i)
{
	assert_true(i >= 0 && (size_t)i < m->n_string_table);
	return m->string_table[i];
}

static const Perftools__Profiles__Location *loc_of(const pb_profile *m,
						   uint64_t id)
{
	assert_true(id > 0 && id <= m->n_location);
	assert_int_equal(m->location[id - 1]->id, id);
	return m->location[id - 1];
}

static const Perftools__Profiles__Function *func_of(const pb_profile *m,
						    uint64_t id)
{
	assert_true(id > 0 && id <= m->n_function);
	assert_int_equal(m->function[id - 1]->id, id);
	return m->function[id - 1];
}

/* The leaf function of sample @i. */
static const Perftools__Profiles__Function *leaf(const pb_profile *m,
						 size_t i)
{
	const Perftools__Profiles__Location *l =
		loc_of(m, m->sample[i]->location_id[0]);

	assert_int_equal(l->n_line, 1);
	return func_of(m, l->line[0]->function_id);
}

/* Value @v of the samples whose leaf is function @name. */
static int64_t value_of(const pb_profile *m, const char *name, size_t v)
{
	int64_t sum = 0;
	size_t i;

	for (i = 0; i < m->n_sample; i++)
		if (!strcmp(s_of(m, leaf(m, i)->name), name))
			sum += m->sample[i]->value[v];
	return sum;
}

static int64_t total(const pb_profile *m, size_t v)
{
	int64_t sum = 0;
	size_t i;

	for (i = 0; i < m->n_sample; i++) {
		assert_int_equal(m->sample[i]->n_value, m->n_sample_type);
		sum += m->sample[i]->value[v];
	}
	return sum;
}

static void type_is(const pb_profile *m, size_t i, const char *t,
		    const char *u)
{
	assert_string_equal(s_of(m, m->sample_type[i]->type), t);
	assert_string_equal(s_of(m, m->sample_type[i]->unit), u);
}

static void test_pprof(void **state)
{
	const Perftools__Profiles__Function *f;
	struct profile p;
	pb_profile *m;
	size_t i;

	(void)state;
	build(&p);
	m = pprof_of(&p);
	assert_string_equal(m->string_table[0], "");
	assert_int_equal(m->n_sample_type, 2);
	type_is(m, 0, "samples", "count");
	type_is(m, 1, "cpu", "nanoseconds");
	assert_string_equal(s_of(m, m->period_type->type), "cpu");
	assert_string_equal(s_of(m, m->period_type->unit), "nanoseconds");
	assert_int_equal(m->period, 10000000);
	assert_string_equal(s_of(m, m->default_sample_type), "samples");

	/* The first process's program first; ids 1..n in order. */
	assert_int_equal(m->n_mapping, 3);
	assert_string_equal(s_of(m, m->mapping[0]->filename), SYM);
	assert_string_equal(s_of(m, m->mapping[1]->filename), SO);
	assert_string_equal(s_of(m, m->mapping[1]->build_id), WRONG_ID);
	assert_string_equal(s_of(m, m->mapping[2]->filename), GONE);
	for (i = 0; i < 3; i++)
		assert_int_equal(m->mapping[i]->id, i + 1);
	assert_true(m->mapping[0]->has_functions &&
		    m->mapping[0]->has_line_numbers);
	assert_false(m->mapping[2]->has_functions);

	/* The report's totals, per function and in all. */
	assert_int_equal(total(m, 0), 24);
	assert_int_equal(total(m, 1), 24 * 10000000LL);
	assert_int_equal(value_of(m, "target_alpha", 0), 10);
	assert_int_equal(value_of(m, "so_work", 0), 5);
	/* Each object's unknown and uncovered samples its own function. */
	assert_int_equal(value_of(m, "[unknown] [cli_sym_target]", 0), 2);
	assert_int_equal(value_of(m, "[unknown] [lib;gone.so]", 0), 4);
	assert_int_equal(value_of(m, PROFILE_UNCOVERED_ROW
				  " [cli_so_target.so]", 0), 3);
	assert_int_equal(value_of(m, "so_work", 1), 50000000);

	for (i = 0; i < m->n_sample; i++) {
		f = leaf(m, i);
		/*
		 * Labels: the process of every sample here; its executable
		 * where known (pid 100's), no cgroup (only serve's).
		 */
		assert_int_equal(m->sample[i]->n_label,
				 m->sample[i]->label[0]->num == 100 ? 3 : 2);
		assert_string_equal(s_of(m, m->sample[i]->label[0]->key), "pid");
		assert_string_equal(s_of(m, m->sample[i]->label[1]->key),
				    "comm");
		if (m->sample[i]->n_label == 3) {
			assert_string_equal(s_of(m, m->sample[i]->label[2]->key),
					    "executable");
			assert_string_equal(s_of(m, m->sample[i]->label[2]->str),
					    SYM);
		}
		if (strcmp(s_of(m, f->name), "target_alpha"))
			continue;
		assert_string_equal(s_of(m, f->filename),
				    UNIT_SRC "/cli_sym_target.c");
		assert_true(f->start_line > 0);
		assert_true(loc_of(m, m->sample[i]->location_id[0])->line[0]
			    ->line >= f->start_line);
		assert_int_equal(m->sample[i]->label[0]->num, 100);
		assert_string_equal(s_of(m, m->sample[i]->label[1]->str),
				    "sym");
	}
	perftools__profiles__profile__free_unpacked(m, NULL);
	profile_free(&p);
}

/* A cgroup path (serve's) labels its process's samples, and no other's. */
static void test_pprof_cgroup(void **state)
{
	const pb_label *l;
	struct profile p;
	pb_profile *m;
	size_t i, n = 0;

	(void)state;
	build(&p);
	assert_int_equal(profile_process_set_cgroup(&p, 1, "/system.slice/"
						    "a.service"), 0);
	m = pprof_of(&p);
	for (i = 0; i < m->n_sample; i++) {
		l = m->sample[i]->label[m->sample[i]->n_label - 1];
		if (m->sample[i]->label[0]->num != 101) {
			assert_string_not_equal(s_of(m, l->key), "cgroup");
			continue;
		}
		assert_int_equal(m->sample[i]->n_label, 3);
		assert_string_equal(s_of(m, l->key), "cgroup");
		assert_string_equal(s_of(m, l->str), "/system.slice/a.service");
		n++;
	}
	assert_true(n > 0);
	perftools__profiles__profile__free_unpacked(m, NULL);
	profile_free(&p);
}

static void test_pprof_arcs(void **state)
{
	uint64_t alpha = bin_of(SYM, "target_alpha");
	uint64_t beta = bin_of(SYM, "target_beta");
	const Perftools__Profiles__Sample *s = NULL;
	struct profile_count *c;
	struct profile p;
	pb_profile *m;
	size_t i;

	(void)state;
	build(&p);
	c = profile_count_get(&p, 0, 1);
	assert_int_equal(hist_add_arc(&c->hist, beta + 8, alpha + 4, 7), 0);
	m = pprof_of(&p);
	assert_int_equal(m->n_sample_type, 3);
	type_is(m, 2, "calls", "count");
	assert_string_equal(s_of(m, m->default_sample_type), "samples");
	/* The arc adds no sample, and no sample a call. */
	assert_int_equal(total(m, 0), 24);
	assert_int_equal(total(m, 1), 24 * 10000000LL);
	assert_int_equal(total(m, 2), 7);
	for (i = 0; i < m->n_sample; i++)
		if (m->sample[i]->value[2])
			s = m->sample[i];
	assert_non_null(s);
	assert_int_equal(s->value[0], 0);
	assert_int_equal(s->n_location_id, 2);
	assert_int_equal(loc_of(m, s->location_id[0])->address, alpha + 4);
	assert_int_equal(loc_of(m, s->location_id[1])->address, beta + 8);
	assert_string_equal(s_of(m, func_of(m, loc_of(m, s->location_id[1])
					    ->line[0]->function_id)->name),
			    "target_beta");
	assert_int_equal(value_of(m, "target_alpha", 2), 7);
	perftools__profiles__profile__free_unpacked(m, NULL);
	profile_free(&p);
}

/* No sample at all: still a profile, with its types and mappings. */
static void test_empty(void **state)
{
	struct profile p = { .rate = 0 };
	pb_profile *m;
	char *s;

	(void)state;
	profile_acct_unknown(&p.acct);
	assert_int_equal(profile_object_add(&p, SYM, NULL), 0);
	m = pprof_of(&p);
	assert_int_equal(m->n_sample, 0);
	assert_int_equal(m->n_sample_type, 2);
	assert_int_equal(m->period, 0);
	assert_int_equal(m->n_mapping, 1);
	perftools__profiles__profile__free_unpacked(m, NULL);
	s = export_str(&p, RENDER_FOLDED, false, NULL);
	assert_string_equal(s, "");
	free(s);
	profile_free(&p);
}

/*
 * The exports' cost, counted rather than timed (csv took 0.3 s on a
 * 385 000-bin profile, folded 42 s and pprof 44 s): over 4096 bins of
 * the program, folded and pprof make no DWARF scope walk, as csv makes
 * none (they were one per bin), and folded makes one key per distinct
 * function and line, not one per bin.
 */
static void test_work(void **state)
{
	const uint64_t lo = cli_test_func_addr(SYM, "main") & ~3ULL;
	struct profile p = { .rate = 100, .bin_bytes = 4 };
	unsigned long long walks, keys;
	uint64_t bins[4096];
	struct profile_count *c;
	size_t i, nlines = 0;
	char *s, *l;

	(void)state;
	for (i = 0; i < 4096; i++)
		bins[i] = 1 + i % 3;
	assert_int_equal(profile_object_add(&p, SYM, NULL), 0);
	assert_int_equal(profile_process_add(&p, 1, 0, "sym", SYM), 0);
	c = profile_count_get(&p, 0, 0);
	assert_non_null(c);
	assert_int_equal(hist_add_range(&c->hist, lo, lo + 4 * 4096, bins,
					4096), 0);
	walks = symtab_scope_work();
	free(export_str(&p, RENDER_CSV, false, NULL));
	assert_true(symtab_scope_work() == walks);
	keys = folded_work();
	s = export_str(&p, RENDER_FOLDED, false, NULL);
	for (l = s; *l; l = strchr(l, '\n') + 1)
		nlines++;
	free(s);
	assert_true(symtab_scope_work() == walks);
	/* Each key made once: as many as the output's lines (< bins). */
	assert_true(folded_work() - keys == nlines);
	assert_true(nlines < 4096 / 4);
	free(export_str(&p, RENDER_PPROF, false, NULL));
	assert_true(symtab_scope_work() == walks);
	profile_free(&p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_folded),
		cmocka_unit_test(test_pprof),
		cmocka_unit_test(test_pprof_cgroup),
		cmocka_unit_test(test_pprof_arcs),
		cmocka_unit_test(test_empty),
		cmocka_unit_test(test_work),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
