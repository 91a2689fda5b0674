// SPDX-License-Identifier: GPL-2.0
/*
 * report with several files: merged ("report [BINARY] FILE...", as
 * gprof -s and nytprofmerge) or compared ("report --diff BASE NEW").
 * See report_merge.h.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "attrib.h"
#include "ctl.h"
#include "gmon_read.h"
#include "objsyms.h"
#include "profile_file.h"
#include "render.h"
#include "report.h"
#include "report_merge.h"

/* One FILE operand, read. */
struct rm_input {
	const char *file;
	bool saved;
	struct profile p;	/* the saved profile, or the gmon.out's */
	struct hist h;		/* a gmon.out's histogram and arcs */
};

/* The BINARY the gmon.out files are of. */
struct rm_binary {
	const char *path;
	struct symtab *st;
	char build_id[128];
};

static void rm_inputs_free(struct rm_input *in, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		profile_free(&in[i].p);
		hist_free(&in[i].h);
	}
	free(in);
}

/*
 * The BINARY for the gmon.out files: @path, else a.out if there is one
 * (gprof's default); NULL path: none, addresses only.
 */
static int rm_binary_open(const char *cmd, const char *path, bool force,
			  struct rm_binary *b)
{
	char err[256];

	memset(b, 0, sizeof(*b));
	if (!path && access("a.out", R_OK)) {
		ctl_errorf(cmd, "no program to name the gmon.out files' "
			   "addresses: a.out: %s (name it before the files%s)",
			   strerror(errno), force ? "; --force: addresses "
			   "only" : ", or --force for addresses only");
		return force ? 0 : -1;
	}
	b->path = path ? path : "a.out";
	b->st = symtab_open(b->path, err, sizeof(err));
	if (!b->st) {
		ctl_errorf(cmd, "%s: %s", b->path, err);
		return -1;
	}
	if (symtab_build_id(b->st, b->build_id, sizeof(b->build_id)))
		b->build_id[0] = '\0';
	return 0;
}

/* A gmon.out's histogram as a profile: one process (pid 0), one object. */
static int rm_gmon_profile(struct rm_input *in, const struct rm_binary *b)
{
	const char *path = b->path ? b->path : "[no binary]";
	const char *base = strrchr(in->file, '/');
	struct profile_count *c;
	ssize_t obj, proc;

	profile_acct_unknown(&in->p.acct);
	in->p.rate = in->h.rate;
	if (in->h.nranges && in->h.ranges[0].nbins)
		in->p.bin_bytes = (in->h.ranges[0].high_pc -
				   in->h.ranges[0].low_pc) /
				  in->h.ranges[0].nbins;
	obj = profile_object_add(&in->p, path,
				 b->build_id[0] ? b->build_id : NULL);
	proc = obj < 0 ? -1 : profile_process_add(&in->p, 0, 0,
						  base ? base + 1 : in->file,
						  path);
	if (proc < 0)
		return -1;
	profile_acct_unknown(&in->p.processes[proc].acct);
	c = profile_count_add(&in->p, (size_t)proc, (size_t)obj);
	if (!c)
		return -1;
	c->hist = in->h;
	memset(&in->h, 0, sizeof(in->h));
	free(c->hist.binary);
	c->hist.binary = NULL;
	return 0;
}

/* Read @in->file: a saved profile, or a gmon.out against @b. */
static int rm_read(const char *cmd, struct rm_input *in,
		   const struct rm_binary *b)
{
	unsigned char *data;
	char err[512];
	size_t len;
	int ret;

	if (gmon_read_whole(in->file, &data, &len, err, sizeof(err))) {
		ctl_errorf(cmd, "%s: %s", in->file, err);
		return -1;
	}
	in->saved = profile_file_is_saved(data, len);
	if (in->saved)
		ret = profile_load_mem(data, len, &in->p, err, sizeof(err));
	else
		ret = gmon_read_mem(data, len, b->st ? symtab_ptr_size(b->st) :
				    sizeof(void *), &in->h, err, sizeof(err));
	free(data);
	if (ret)
		ctl_errorf(cmd, "%s: %s", in->file, err);
	return ret;
}

/* Whether any of @files is a gmon.out (unreadable ones count as not). */
static bool rm_any_gmon(const char **files, size_t n)
{
	char head[4];
	size_t i;
	FILE *f;

	for (i = 0; i < n; i++) {
		f = strcmp(files[i], "-") ? fopen(files[i], "rbe") : NULL;
		if (!f)
			continue;
		if (fread(head, 1, 4, f) == 4 && !memcmp(head, "gmon", 4)) {
			fclose(f);
			return true;
		}
		fclose(f);
	}
	return false;
}

/* Read every file; @b opened when a gmon.out needs it. */
/* A file given twice is counted twice: say so (stdin is not compared). */
static void rm_warn_repeated(const char *cmd, const char **files, size_t n)
{
	struct stat a, b;
	size_t i, j;

	for (i = 0; i < n; i++) {
		if (!strcmp(files[i], "-") || stat(files[i], &a))
			continue;
		for (j = 0; j < i; j++)
			if (strcmp(files[j], "-") && !stat(files[j], &b) &&
			    a.st_dev == b.st_dev && a.st_ino == b.st_ino) {
				ctl_errorf(cmd, "warning: %s and %s are one "
					   "file: its samples count twice",
					   files[j], files[i]);
				break;
			}
	}
}

static struct rm_input *rm_read_all(const char *cmd, const char **files,
				    size_t n, const char *binary, bool force,
				    struct rm_binary *b)
{
	struct rm_input *in = calloc(n, sizeof(*in));
	size_t i;

	memset(b, 0, sizeof(*b));
	if (!in) {
		ctl_perror(cmd);
		return NULL;
	}
	if ((binary || rm_any_gmon(files, n)) &&
	    rm_binary_open(cmd, binary, force, b))
		goto err;
	for (i = 0; i < n; i++) {
		in[i].file = files[i];
		if (rm_read(cmd, &in[i], b))
			goto err;
	}
	return in;
err:
	rm_inputs_free(in, n);
	return NULL;
}

static uint32_t rm_rate(const struct rm_input *in)
{
	return in->saved ? in->p.rate : in->h.rate;
}

/* The build-id of @in's program, or NULL if not known. */
static const char *rm_build_id(const struct rm_input *in,
			       const struct rm_binary *b)
{
	ssize_t k;

	if (!in->saved)
		return b->build_id[0] ? b->build_id : NULL;
	k = profile_main_object(&in->p);
	return k < 0 ? NULL : in->p.objects[k].build_id;
}

/* The path of @in's program, or NULL if not known. */
static const char *rm_path(const struct rm_input *in,
			   const struct rm_binary *b)
{
	ssize_t k;

	if (!in->saved)
		return b->path;
	k = profile_main_object(&in->p);
	return k < 0 ? NULL : in->p.objects[k].path;
}

/* One file by two names ("./prog" and "/home/u/prog"), or one name. */
static bool rm_same_path(const char *x, const char *y)
{
	char *rx, *ry;
	bool same;

	if (!strcmp(x, y))
		return true;
	rx = realpath(x, NULL);
	ry = realpath(y, NULL);
	same = rx && ry && !strcmp(rx, ry);
	free(rx);
	free(ry);
	return same;
}

/*
 * @x and @y are of one program: the same build-id when both have one,
 * else the same path (@builds: also two builds of one path, as a diff
 * compares; their base names when the paths differ).
 */
static int rm_same_program(const char *cmd, const struct rm_input *x,
			   const struct rm_input *y, const struct rm_binary *b,
			   bool builds, bool force)
{
	const char *ix = rm_build_id(x, b), *iy = rm_build_id(y, b);
	const char *px = rm_path(x, b), *py = rm_path(y, b);
	const char *bx, *by;

	if (ix && iy && !strcmp(ix, iy))
		return 0;
	if (ix && iy && !builds) {
		ctl_errorf(cmd, "%s and %s: not profiles of one program "
			   "(build-id %s and %s)%s", x->file, y->file, ix, iy,
			   force ? ": --force" : "");
		return force ? 0 : -1;
	}
	if (!px || !py || rm_same_path(px, py))
		return 0;
	bx = strrchr(px, '/') ? strrchr(px, '/') + 1 : px;
	by = strrchr(py, '/') ? strrchr(py, '/') + 1 : py;
	if (builds && !strcmp(bx, by))
		return 0;
	ctl_errorf(cmd, "%s and %s: not profiles of one program (%s and %s%s)"
		   "%s", x->file, y->file, px, py, ix && iy ? "" :
		   ", one without a build-id", force ? ": --force" :
		   ": --force to combine them anyway");
	return force ? 0 : -1;
}

/* Rates, and the program (build-ids, else paths), the same in every file. */
static int rm_check(const char *cmd, const struct rm_input *in, size_t n,
		    const struct rm_binary *b, bool force)
{
	size_t i;

	for (i = 1; i < n; i++)
		if (rm_rate(&in[i]) != rm_rate(&in[0])) {
			ctl_errorf(cmd, "%s and %s: rates differ (%u and %u "
				   "Hz): their counts do not add up", in[0].file,
				   in[i].file, rm_rate(&in[0]),
				   rm_rate(&in[i]));
			return -1;
		}
	for (i = 1; i < n; i++)
		if (rm_same_program(cmd, &in[0], &in[i], b, false, force))
			return -1;
	return 0;
}

/* gmon.out files only: summed into one, as gprof -s does. */
static int rm_merge_gmon(const char *cmd, struct rm_input *in, size_t n,
			 const struct rm_binary *b, const struct report_opts *o,
			 const char *output)
{
	struct report_opts ro = *o;
	struct hist *h = &in[0].h;
	char what[512];
	size_t i;

	for (i = 1; i < n; i++) {
		if (!hist_merge(h, &in[i].h))
			continue;
		if (errno == ENOMEM) {
			ctl_perror(cmd);
			return -1;
		}
		ctl_errorf(cmd, "%s and %s: histograms that do not fit (%s): "
			   "not profiles of one program", in[0].file,
			   in[i].file, errno == EDOM ? "one range, other bins" :
			   "ranges overlap partially");
		return -1;
	}
	if (b->path && !(h->binary = strdup(b->path))) {
		ctl_perror(cmd);
		return -1;
	}
	snprintf(what, sizeof(what), "%s and %zu more", in[0].file, n - 1);
	if (b->st && !o->gmon &&
	    !report_hist_fits(cmd, what, b->path, h, b->st, o->force))
		return -1;
	ro.render.gprof = true;
	return report_hist_out(cmd, h, &ro, b->st, output);
}

/* With a saved profile: one whole-program profile of every file. */
static int rm_merge_profiles(const char *cmd, struct rm_input *in, size_t n,
			     const struct rm_binary *b,
			     const struct report_opts *o, bool per_process,
			     const char *output)
{
	struct profile all = { .rate = 0 };
	size_t i;
	int ret = -1;

	for (i = 0; i < n; i++) {
		if (!in[i].saved && rm_gmon_profile(&in[i], b)) {
			ctl_perror(cmd);
			goto out;
		}
		if (i && in[i].p.bin_bytes != in[0].p.bin_bytes) {
			ctl_errorf(cmd, "%s and %s: bins of %" PRIu64 " and %"
				   PRIu64 " bytes: their histograms do not "
				   "add up", in[0].file, in[i].file,
				   in[0].p.bin_bytes, in[i].p.bin_bytes);
			goto out;
		}
		if (profile_merge(&all, &in[i].p)) {
			ctl_perror(cmd);
			goto out;
		}
	}
	ret = report_profile_out(cmd, &all, o, per_process, output);
out:
	profile_free(&all);
	return ret;
}

int report_merge_files(const char *cmd, const char **files, size_t n,
		       const char *binary, const struct report_opts *o,
		       bool per_process, const char *output)
{
	struct rm_input *in;
	struct rm_binary b;
	bool any_gmon = false, any_saved = false;
	size_t i;
	int ret = -1;

	rm_warn_repeated(cmd, files, n);
	in = rm_read_all(cmd, files, n, binary, o->force, &b);
	if (!in) {
		symtab_close(b.st);
		return CTL_EXIT_FAIL;
	}
	for (i = 0; i < n; i++) {
		any_saved |= in[i].saved;
		any_gmon |= !in[i].saved;
	}
	if (binary && !any_gmon) {
		ret = ctl_usage_error(cmd, "saved profiles name their objects: "
				      "no BINARY");
		goto out;
	}
	if (per_process && !any_saved) {
		ret = ctl_usage_error(cmd, "--per-process: no saved profile "
				      "among the files");
		goto out;
	}
	if (!any_saved && report_whole_only(o)) {
		ret = ctl_usage_error(cmd, "%s: gmon.out files are one "
				      "program's histogram: for saved "
				      "profiles", report_whole_only(o));
		goto out;
	}
	if (rm_check(cmd, in, n, &b, o->force))
		goto fail;
	if (!any_saved)
		ret = rm_merge_gmon(cmd, in, n, &b, o, output);
	else
		ret = rm_merge_profiles(cmd, in, n, &b, o, per_process,
					output);
fail:
	ret = ret ? CTL_EXIT_FAIL : CTL_EXIT_OK;
out:
	rm_inputs_free(in, n);
	symtab_close(b.st);
	return ret;
}

/* One function's (or line's) samples in one profile. */
struct rm_key {
	char *name;
	double count;
};

struct rm_keys {
	struct rm_key *v;
	size_t n;
	size_t cap;
	double total;
};

static void rm_keys_free(struct rm_keys *k)
{
	size_t i;

	for (i = 0; i < k->n; i++)
		free(k->v[i].name);
	free(k->v);
	memset(k, 0, sizeof(*k));
}

/* Add @count to "@name@suffix". */
static int rm_key_add(struct rm_keys *k, const char *name, const char *suffix,
		      double count)
{
	struct rm_key *nv;

	k->total += count;
	if (count <= 0)
		return 0;
	if (k->n == k->cap) {
		nv = realloc(k->v, (k->cap ? 2 * k->cap : 64) * sizeof(*nv));
		if (!nv)
			return -1;
		k->v = nv;
		k->cap = k->cap ? 2 * k->cap : 64;
	}
	if (asprintf(&k->v[k->n].name, "%s%s", name, suffix) < 0)
		return -1;
	k->v[k->n++].count = count;
	return 0;
}

static int rm_key_cmp(const void *a, const void *b)
{
	return strcmp(((const struct rm_key *)a)->name,
		      ((const struct rm_key *)b)->name);
}

/* Sorted by name, one entry per name (a name twice: summed). */
static void rm_keys_sum(struct rm_keys *k)
{
	size_t i, j;

	if (k->n < 2)
		return;
	qsort(k->v, k->n, sizeof(*k->v), rm_key_cmp);
	for (i = 1, j = 0; i < k->n; i++) {
		if (!strcmp(k->v[j].name, k->v[i].name)) {
			k->v[j].count += k->v[i].count;
			free(k->v[i].name);
		} else {
			k->v[++j] = k->v[i];
		}
	}
	k->n = j + 1;
}

/* Each function of @st (none: NULL) in @h, or each file:line. */
static int rm_keys_hist(struct rm_keys *k, const struct hist *h,
			struct symtab *st, bool lines, const char *suffix)
{
	const struct sym_func *funcs = NULL;
	struct attrib a = { .counts = NULL };
	struct sym_line l;
	size_t nfuncs = 0, i, j;
	uint64_t lo, hi;
	char name[4096];
	int ret = 0;

	if (lines) {
		for (i = 0; i < h->nranges && !ret; i++)
			for (j = 0; j < h->ranges[i].nbins && !ret; j++) {
				if (!h->ranges[i].bins[j])
					continue;
				hist_bin_range(&h->ranges[i], j, &lo, &hi);
				if (st && !symtab_line(st, lo, &l))
					snprintf(name, sizeof(name), "%s:%u",
						 l.file, l.line);
				else
					snprintf(name, sizeof(name), "%s",
						 "[unknown]");
				ret = rm_key_add(k, name, suffix,
						 (double)h->ranges[i].bins[j]);
			}
		return ret;
	}
	if (st)
		funcs = symtab_funcs(st, &nfuncs);
	if (attrib_funcs(&a, h, funcs, nfuncs))
		return -1;
	for (i = 0; i < nfuncs && !ret; i++)
		ret = rm_key_add(k, funcs[i].name, suffix, a.counts[i]);
	if (!ret)
		ret = rm_key_add(k, "[unknown]", suffix, a.unknown);
	attrib_free(&a);
	return ret;
}

/*
 * @p's samples by function (or line), its processes summed: the
 * program's own names bare, other objects' with " (object)" after.
 */
static int rm_keys_profile(const char *cmd, const struct profile *p,
			   bool lines, struct rm_keys *k)
{
	struct profile m;
	struct symtab *st;
	char err[256], suffix[512];
	const char *file, *base;
	ssize_t main_obj;
	size_t i;
	int ret = 0;

	if (profile_merge_processes(p, &m))
		return -1;
	main_obj = profile_main_object(&m);
	if (main_obj < 0 && m.nobjects == 1)
		main_obj = 0;
	for (i = 0; i < m.ncounts && !ret; i++) {
		const struct profile_count *c = &m.counts[i];
		const struct profile_object *ob = &m.objects[c->object];

		base = strrchr(ob->path, '/');
		snprintf(suffix, sizeof(suffix), "%s%s%s",
			 (ssize_t)c->object == main_obj ? "" : " (",
			 (ssize_t)c->object == main_obj ? "" :
			 base ? base + 1 : ob->path,
			 (ssize_t)c->object == main_obj ? "" : ")");
		file = ob->symfile ? ob->symfile : ob->path;
		st = objsyms_open(ob, err, sizeof(err));
		if (!st && err[0])
			ctl_errorf(cmd, "note: %s: %s: its samples are "
				   "[unknown]", file, err);
		ret = rm_keys_hist(k, &c->hist, st, lines, suffix);
		if (!ret)
			ret = rm_key_add(k, "[not covered]", suffix,
					 (double)c->uncovered);
		symtab_close(st);
	}
	profile_free(&m);
	rm_keys_sum(k);
	return ret;
}

/* One row of the diff. */
struct rm_drow {
	const char *name;
	double base, new;
	double dshare;
};

static int rm_drow_cmp(const void *a, const void *b)
{
	const struct rm_drow *x = a, *y = b;
	double dx = fabs(x->dshare), dy = fabs(y->dshare);

	if (dx != dy)
		return dx > dy ? -1 : 1;
	dx = fabs(x->new - x->base);
	dy = fabs(y->new - y->base);
	if (dx != dy)
		return dx > dy ? -1 : 1;
	return strcmp(x->name, y->name);
}

static double rm_share(double c, double total)
{
	return total > 0 ? 100.0 * c / total : 0;
}

/* Both sides' names joined (both sorted): one row per name. */
static struct rm_drow *rm_join(const struct rm_keys *b, const struct rm_keys *n,
			       size_t *nrows)
{
	struct rm_drow *r = calloc(b->n + n->n + 1, sizeof(*r));
	size_t i = 0, j = 0, k = 0;
	int c;

	if (!r)
		return NULL;
	while (i < b->n || j < n->n) {
		c = i == b->n ? 1 : j == n->n ? -1 :
		    strcmp(b->v[i].name, n->v[j].name);
		r[k].name = c <= 0 ? b->v[i].name : n->v[j].name;
		r[k].base = c <= 0 ? b->v[i++].count : 0;
		r[k].new = c >= 0 ? n->v[j++].count : 0;
		r[k].dshare = rm_share(r[k].new, n->total) -
			      rm_share(r[k].base, b->total);
		k++;
	}
	qsort(r, k, sizeof(*r), rm_drow_cmp);
	*nrows = k;
	return r;
}

static void rm_diff_text(FILE *out, const struct rm_drow *r, size_t n,
			 const struct rm_keys *b, const struct rm_keys *nk,
			 const char **files, bool lines)
{
	size_t i;

	fprintf(out, "# base %s: ", files[0]);
	render_put_count(out, 0, b->total);
	fprintf(out, " samples\n# new  %s: ", files[1]);
	render_put_count(out, 0, nk->total);
	fprintf(out, " samples\n%9s %9s %9s %7s %7s %8s  %s\n", "base", "new",
		"delta", "base%", "new%", "delta%",
		lines ? "file:line" : "function");
	for (i = 0; i < n; i++) {
		render_put_count(out, 9, r[i].base);
		fputc(' ', out);
		render_put_count(out, 9, r[i].new);
		fprintf(out, " %+9.*f %7.2f %7.2f %+8.2f  %s\n",
			r[i].new - r[i].base == floor(r[i].new - r[i].base) ?
			0 : 2, r[i].new - r[i].base,
			rm_share(r[i].base, b->total),
			rm_share(r[i].new, nk->total), r[i].dshare, r[i].name);
	}
}

static void rm_diff_csv(FILE *out, const struct rm_drow *r, size_t n,
			const struct rm_keys *b, const struct rm_keys *nk,
			bool lines)
{
	size_t i;

	fprintf(out, "%s,base,new,delta,base_percent,new_percent,"
		"delta_percent\n", lines ? "line" : "function");
	for (i = 0; i < n; i++) {
		render_csv_str(out, r[i].name);
		fprintf(out, ",%g,%g,%g,%.4f,%.4f,%.4f\n", r[i].base, r[i].new,
			r[i].new - r[i].base, rm_share(r[i].base, b->total),
			rm_share(r[i].new, nk->total), r[i].dshare);
	}
}

static void rm_diff_json(FILE *out, const struct rm_drow *r, size_t n,
			 const struct rm_keys *b, const struct rm_keys *nk,
			 const char **files, bool lines)
{
	size_t i;

	fputs("{\n  \"base\": {\"file\": ", out);
	render_json_str(out, files[0]);
	fprintf(out, ", \"samples\": %g},\n  \"new\": {\"file\": ", b->total);
	render_json_str(out, files[1]);
	fprintf(out, ", \"samples\": %g},\n  \"view\": \"%s\",\n  \"rows\": [",
		nk->total, lines ? "lines" : "functions");
	for (i = 0; i < n; i++) {
		fputs(i ? ",\n    {\"name\": " : "\n    {\"name\": ", out);
		render_json_str(out, r[i].name);
		fprintf(out, ", \"base\": %g, \"new\": %g, \"delta\": %g, "
			"\"base_percent\": %.4f, \"new_percent\": %.4f, "
			"\"delta_percent\": %.4f}", r[i].base, r[i].new,
			r[i].new - r[i].base, rm_share(r[i].base, b->total),
			rm_share(r[i].new, nk->total), r[i].dshare);
	}
	fputs(n ? "\n  ]\n}\n" : "]\n}\n", out);
}

/* --percent-limit (on the change of share), then --top. */
static size_t rm_diff_limit(struct rm_drow *r, size_t n,
			    const struct render_opts *o)
{
	size_t i, j = 0;

	for (i = 0; i < n; i++)
		if (fabs(r[i].dshare) >= o->percent_limit ||
		    o->percent_limit <= 0)
			r[j++] = r[i];
	return o->top && j > o->top ? o->top : j;
}

static int rm_diff_write(const char *cmd, struct rm_keys *k,
			 const char **files, const struct report_opts *o,
			 const char *output)
{
	bool lines = o->render.view == RENDER_LINES;
	struct rm_drow *r;
	FILE *out = stdout;
	size_t n;
	int ret = 0;

	r = rm_join(&k[0], &k[1], &n);
	if (!r) {
		ctl_perror(cmd);
		return -1;
	}
	n = rm_diff_limit(r, n, &o->render);
	if (output && !(out = fopen(output, "we"))) {
		ctl_errorf(cmd, "%s: %s", output, strerror(errno));
		free(r);
		return -1;
	}
	if (o->render.format == RENDER_CSV)
		rm_diff_csv(out, r, n, &k[0], &k[1], lines);
	else if (o->render.format == RENDER_JSON)
		rm_diff_json(out, r, n, &k[0], &k[1], files, lines);
	else
		rm_diff_text(out, r, n, &k[0], &k[1], files, lines);
	if (ferror(out) || (output ? fclose(out) : fflush(out))) {
		ctl_errorf(cmd, "%s: %s", output ? output : "standard output",
			   strerror(errno ? errno : EIO));
		ret = -1;
	}
	if (ret && output)
		unlink(output);
	free(r);
	return ret;
}

int report_diff_files(const char *cmd, const char **files, size_t n,
		      const char *binary, const struct report_opts *o,
		      const char *output)
{
	struct rm_keys k[2] = { { .v = NULL }, { .v = NULL } };
	bool lines = o->render.view == RENDER_LINES;
	struct rm_input *in;
	struct rm_binary b;
	size_t i;
	int ret = -1;

	if (n != 2)
		return ctl_usage_error(cmd, "--diff takes two files, BASE and "
				       "NEW (%zu given)", n);
	if (o->gmon || o->render.view == RENDER_BINS)
		return ctl_usage_error(cmd, "--diff: per function or per "
				       "line (--lines) only");
	if (report_whole_only(o))
		return ctl_usage_error(cmd, "%s: not with --diff",
				       report_whole_only(o));
	in = rm_read_all(cmd, files, n, binary, o->force, &b);
	if (!in) {
		symtab_close(b.st);
		return CTL_EXIT_FAIL;
	}
	if (rm_same_program(cmd, &in[0], &in[1], &b, true, o->force))
		goto out;
	for (i = 0; i < 2; i++) {
		if (!in[i].saved && rm_gmon_profile(&in[i], &b)) {
			ctl_perror(cmd);
			goto out;
		}
		if (rm_keys_profile(cmd, &in[i].p, lines, &k[i])) {
			ctl_errorf(cmd, "%s: %s", files[i], strerror(errno));
			goto out;
		}
	}
	ret = rm_diff_write(cmd, k, files, o, output);
out:
	rm_keys_free(&k[0]);
	rm_keys_free(&k[1]);
	rm_inputs_free(in, n);
	symtab_close(b.st);
	return ret ? CTL_EXIT_FAIL : CTL_EXIT_OK;
}
