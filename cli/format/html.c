// SPDX-License-Identifier: GPL-2.0
/*
 * The HTML page of a whole profile (html.h), from its costs (costs.h):
 * the function table is the function view's counts, the source lines
 * the line view's. Every limit of html.h is said on the page where it
 * leaves something out.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "html.h"
#include "render.h"

/* Output bytes of one escaped name or source line, at most. */
#define MAX_NAME_CHARS 240

/* A source line with samples, summed over functions and objects. */
struct src_line {
	const char *file;
	unsigned int line;
	uint64_t count;
};

/* The lines of one file: a run of struct src_line. */
struct src_file {
	const char *file;
	size_t first, n;
	uint64_t count;
};

struct page {
	FILE *out;
	const struct profile *p;	/* as collected */
	const struct profile *m;	/* merged by object */
	const struct profile_syms *syms;
	struct costs c;
	size_t *funcs;			/* costs.funcs by samples */
	struct src_line *lines;
	size_t nlines;
	struct src_file *files;		/* by samples */
	size_t nfiles;
	uint64_t max_line;		/* the most samples of a line */
	bool calls;			/* the profile has arcs */
};

/* @s escaped for HTML text and attributes, cut after @max output bytes. */
static void esc(FILE *out, const char *s, size_t max)
{
	size_t n = 0;

	for (; *s && n < max; s++) {
		switch (*s) {
		case '&':
			n += 5;
			fputs("&amp;", out);
			break;
		case '<':
			n += 4;
			fputs("&lt;", out);
			break;
		case '>':
			n += 4;
			fputs("&gt;", out);
			break;
		case '"':
			n += 6;
			fputs("&quot;", out);
			break;
		default:
			n++;
			fputc((unsigned char)*s < 0x20 && *s != '\t' ? '?' :
			      *s, out);
		}
	}
	if (*s && *s != '\n')
		fputs("\xe2\x80\xa6", out);	/* U+2026, the rest cut */
}

static double pct(const struct page *g, double n)
{
	return g->c.total ? 100.0 * n / (double)g->c.total : 0.0;
}

static const char *base_name(const char *path)
{
	const char *b = strrchr(path, '/');

	return b && b[1] ? b + 1 : path;
}

static const char *const style =
	"body{font-family:sans-serif;margin:1em 2em;color:#222}"
	"table{border-collapse:collapse;margin:.5em 0}"
	"th,td{padding:1px 8px;text-align:left;vertical-align:top}"
	"th{background:#e8e8e8}td.n,th.n{text-align:right}"
	"table.sortable th{cursor:pointer}"
	"table.sortable th:hover{background:#d0d8f0}"
	"tbody tr:nth-child(even){background:#f6f6f6}"
	"table.src{font-family:monospace;white-space:pre}"
	"table.src td{padding:0 6px}table.src tr.gap td{color:#888}"
	"td.ln{color:#888;text-align:right}"
	"p.note{color:#a40}code{font-size:95%}";

/*
 * Sorting: a click on a header sorts by its column, numbers highest
 * first, names A to Z, a second click the other way; the page's address
 * may ask for one at load: #sort=KEY or #sort=KEY-asc|-desc, KEY a
 * header's data-key.
 */
static const char *const script =
	"function sortBy(t,k,dir){var h=t.tHead.rows[0].cells,c=-1,num;"
	"for(var i=0;i<h.length;i++)if(h[i].dataset.key===k)c=i;"
	"if(c<0)return;num=h[c].dataset.type==='num';"
	"if(!dir)dir=t.dataset.sortKey===k?"
	"(t.dataset.sortDir==='asc'?'desc':'asc'):(num?'desc':'asc');"
	"var b=t.tBodies[0],r=Array.prototype.slice.call(b.rows);"
	"r.sort(function(x,y){var a=x.cells[c],e=y.cells[c],d;"
	"if(num)d=parseFloat(a.dataset.v||a.textContent)-"
	"parseFloat(e.dataset.v||e.textContent);"
	"else d=a.textContent.localeCompare(e.textContent);"
	"return dir==='asc'?d:-d;});"
	"r.forEach(function(x){b.appendChild(x);});"
	"t.dataset.sortKey=k;t.dataset.sortDir=dir;}"
	"document.querySelectorAll('table.sortable').forEach(function(t){"
	"Array.prototype.forEach.call(t.tHead.rows[0].cells,function(h){"
	"h.addEventListener('click',function(){sortBy(t,h.dataset.key);});"
	"});});"
	"var m=/^#sort=(\\w+?)(?:-(asc|desc))?$/.exec(location.hash);"
	"if(m)document.querySelectorAll('table.sortable').forEach(function(t)"
	"{sortBy(t,m[1],m[2]);});";

static int cmp_u64_desc(uint64_t x, uint64_t y)
{
	return x > y ? -1 : x < y;
}

static int cmp_func(const void *a, const void *b, void *ctx)
{
	const struct costs *c = ctx;
	const struct cost_func *x = &c->funcs[*(const size_t *)a];
	const struct cost_func *y = &c->funcs[*(const size_t *)b];

	if (x->self != y->self)
		return x->self > y->self ? -1 : 1;
	if (x->calls != y->calls)
		return cmp_u64_desc(x->calls, y->calls);
	return strcmp(x->name, y->name);
}

static int cmp_src_line(const void *a, const void *b)
{
	const struct src_line *x = a, *y = b;
	int d = strcmp(x->file, y->file);

	if (d)
		return d;
	return x->line < y->line ? -1 : x->line > y->line;
}

static int cmp_src_file(const void *a, const void *b)
{
	const struct src_file *x = a, *y = b;

	if (x->count != y->count)
		return cmp_u64_desc(x->count, y->count);
	return strcmp(x->file, y->file);
}

/* The lines with samples per file, the files by samples. */
static int group_sources(struct page *g)
{
	const struct costs *c = &g->c;
	size_t i, j;

	g->lines = malloc((c->nlines + 1) * sizeof(*g->lines));
	g->files = malloc((c->nlines + 1) * sizeof(*g->files));
	if (!g->lines || !g->files)
		return -1;
	for (i = 0; i < c->nlines; i++)
		if (c->lines[i].file && c->lines[i].count)
			g->lines[g->nlines++] = (struct src_line){
				.file = c->lines[i].file,
				.line = c->lines[i].line,
				.count = c->lines[i].count,
			};
	if (g->nlines > 1)
		qsort(g->lines, g->nlines, sizeof(*g->lines), cmp_src_line);
	for (i = 0, j = 0; i < g->nlines; i++) {
		if (j && !cmp_src_line(&g->lines[j - 1], &g->lines[i]))
			g->lines[j - 1].count += g->lines[i].count;
		else
			g->lines[j++] = g->lines[i];
	}
	g->nlines = j;
	for (i = 0; i < g->nlines; i++) {
		struct src_file *f = g->nfiles ? &g->files[g->nfiles - 1] :
					NULL;

		if (!f || strcmp(f->file, g->lines[i].file)) {
			f = &g->files[g->nfiles++];
			*f = (struct src_file){ .file = g->lines[i].file,
						.first = i };
		}
		f->n++;
		f->count += g->lines[i].count;
		if (g->lines[i].count > g->max_line)
			g->max_line = g->lines[i].count;
	}
	if (g->nfiles > 1)
		qsort(g->files, g->nfiles, sizeof(*g->files), cmp_src_file);
	return 0;
}

/* The index of @file among the files shown, or -1. */
static long shown_file(const struct page *g, const char *file)
{
	size_t i;

	for (i = 0; file && i < g->nfiles && i < HTML_MAX_FILES; i++)
		if (!strcmp(g->files[i].file, file))
			return (long)i;
	return -1;
}

static void put_count(FILE *out, double c)
{
	render_put_count(out, 0, c);
}

/* "<td class="n">COUNT</td><td class="n">PERCENT</td>" */
static void count_cells(const struct page *g, double n)
{
	fputs("<td class=\"n\">", g->out);
	put_count(g->out, n);
	fprintf(g->out, "</td><td class=\"n\">%.2f</td>", pct(g, n));
}

static bool cpu_seconds(const struct profile *p, double *s)
{
	const struct profile_acct *a = &p->acct;

	if (!p->rate || a->ticks == PROFILE_UNKNOWN ||
	    a->missed == PROFILE_UNKNOWN)
		return false;
	*s = (double)(a->ticks + a->missed) / p->rate;
	return true;
}

static void acct_row(FILE *out, const char *name, uint64_t v)
{
	fprintf(out, "<tr><th>%s</th><td class=\"n\">", name);
	if (v == PROFILE_UNKNOWN)
		fputs("unknown", out);
	else
		fprintf(out, "%" PRIu64, v);
	fputs("</td></tr>\n", out);
}

static void summary(struct page *g)
{
	const struct profile *p = g->p;
	FILE *out = g->out;
	double s;

	fprintf(out, "<section id=\"summary\"><h2>Summary</h2>\n<table>\n"
		"<tr><th>user samples</th><td class=\"n\" id=\"samples\">%"
		PRIu64 "</td></tr>\n<tr><th>rate</th><td class=\"n\" "
		"id=\"rate\">", g->c.total);
	if (p->rate)
		fprintf(out, "%" PRIu32 " Hz", p->rate);
	else
		fputs("unknown", out);
	fputs("</td></tr>\n<tr><th>CPU time</th><td class=\"n\" "
	      "id=\"cpu\">", out);
	if (cpu_seconds(p, &s))
		fprintf(out, "%.3f s</td><td>(ticks + missed periods) / rate",
			s);
	else if (p->rate)
		fprintf(out, "%.3f s</td><td>samples / rate (the kernel's "
			"accounting is not known)",
			(double)g->c.total / p->rate);
	else
		fputs("unknown", out);
	fputs("</td></tr>\n", out);
	acct_row(out, "ticks", p->acct.ticks);
	acct_row(out, "kernel-mode ticks (not charged)", p->acct.kernel);
	acct_row(out, "outside (no mapping)", p->acct.outside);
	acct_row(out, "lost", p->acct.lost);
	acct_row(out, "missed periods", p->acct.missed);
	fprintf(out, "<tr><th>objects</th><td class=\"n\">%zu</td></tr>\n"
		"<tr><th>processes</th><td class=\"n\">%zu</td></tr>\n"
		"</table>\n", p->nobjects, p->nprocesses);
}

/* Indices 0..n-1 by @keys, highest first; NULL on ENOMEM. */
static int cmp_key(const void *a, const void *b, void *keys)
{
	const uint64_t *k = keys;
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	if (k[x] != k[y])
		return cmp_u64_desc(k[x], k[y]);
	return x < y ? -1 : x > y;
}

static size_t *by_key(const uint64_t *keys, size_t n)
{
	size_t *idx = malloc((n + 1) * sizeof(*idx));
	size_t i;

	for (i = 0; idx && i < n; i++)
		idx[i] = i;
	if (idx)
		qsort_r(idx, n, sizeof(*idx), cmp_key, (void *)keys);
	return idx;
}

static void cut_note(FILE *out, size_t shown, size_t all, const char *what)
{
	if (shown < all)
		fprintf(out, "<p class=\"note\">%zu of %zu %s shown (the page "
			"shows at most %zu).</p>\n", shown, all, what, shown);
}

static int objects(struct page *g)
{
	const struct profile *m = g->m;
	uint64_t *keys = calloc(m->nobjects + 1, sizeof(*keys));
	size_t *idx = NULL, i, n = 0, k;
	FILE *out = g->out;

	if (!keys)
		return -1;
	for (i = 0; i < m->nobjects; i++)
		keys[i] = g->syms[i].samples;
	idx = by_key(keys, m->nobjects);
	if (!idx) {
		free(keys);
		return -1;
	}
	fputs("<h3>Objects</h3>\n<table id=\"objects\"><thead><tr>"
	      "<th class=\"n\">samples</th><th class=\"n\">%</th>"
	      "<th>object</th><th>build-id</th><th>note</th></tr></thead>"
	      "<tbody>\n", out);
	for (i = 0; i < m->nobjects && n < HTML_MAX_ROWS; i++) {
		k = idx[i];
		if (!keys[k])
			continue;
		fputs("<tr>", out);
		count_cells(g, (double)keys[k]);
		fputs("<td>", out);
		esc(out, m->objects[k].path, MAX_NAME_CHARS);
		fputs("</td><td><code>", out);
		esc(out, m->objects[k].build_id ? m->objects[k].build_id : "",
		    MAX_NAME_CHARS);
		fputs("</code></td><td>", out);
		esc(out, g->syms[k].note, MAX_NAME_CHARS * 2);
		if (g->syms[k].hint[0]) {
			fputs(g->syms[k].note[0] ? "<br>" : "", out);
			fputs("<span class=\"hint\">", out);
			esc(out, g->syms[k].hint, MAX_NAME_CHARS * 3);
			fputs("</span>", out);
		}
		fputs("</td></tr>\n", out);
		n++;
	}
	fputs("</tbody></table>\n", out);
	for (k = 0, i = 0; i < m->nobjects; i++)
		k += keys[i] > 0;
	cut_note(out, n, k, "objects with samples");
	free(idx);
	free(keys);
	return 0;
}

static int processes(struct page *g)
{
	const struct profile *p = g->p;
	uint64_t *keys = calloc(p->nprocesses + 1, sizeof(*keys));
	size_t *idx = NULL, i, n;
	FILE *out = g->out;

	if (!keys)
		return -1;
	if (!p->nprocesses) {
		free(keys);
		return 0;
	}
	for (i = 0; i < p->nprocesses; i++)
		keys[i] = profile_process_total(p, i);
	idx = by_key(keys, p->nprocesses);
	if (!idx) {
		free(keys);
		return -1;
	}
	fputs("<h3>Processes</h3>\n<table id=\"processes\"><thead><tr>"
	      "<th class=\"n\">samples</th><th class=\"n\">%</th>"
	      "<th class=\"n\">pid</th><th class=\"n\">ppid</th><th>comm</th>"
	      "<th>executable</th></tr></thead><tbody>\n", out);
	n = p->nprocesses < HTML_MAX_ROWS ? p->nprocesses : HTML_MAX_ROWS;
	for (i = 0; i < n; i++) {
		const struct profile_process *pr = &p->processes[idx[i]];

		fputs("<tr>", out);
		count_cells(g, (double)keys[idx[i]]);
		fprintf(out, "<td class=\"n\">%d</td><td class=\"n\">%d</td>"
			"<td>", (int)pr->pid, (int)pr->ppid);
		esc(out, pr->comm, sizeof(pr->comm));
		fputs("</td><td>", out);
		esc(out, pr->exe ? pr->exe : "", MAX_NAME_CHARS);
		fputs("</td></tr>\n", out);
	}
	fputs("</tbody></table>\n", out);
	cut_note(out, n, p->nprocesses, "processes");
	free(idx);
	free(keys);
	return 0;
}

/* Horizontal bars of the functions with the most samples. */
static void chart(struct page *g)
{
	const int w = 720, bar = 20, left = 360;
	size_t n = 0, i;
	double max;
	FILE *out = g->out;

	while (n < g->c.nfuncs && n < HTML_CHART_FUNCS &&
	       g->c.funcs[g->funcs[n]].self > 0)
		n++;
	if (!n)
		return;
	max = g->c.funcs[g->funcs[0]].self;
	fprintf(out, "<section id=\"chart\"><h2>Top functions</h2>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
		"height=\"%zu\" role=\"img\" aria-label=\"samples of the top "
		"functions\">\n", w, n * bar + 4);
	for (i = 0; i < n; i++) {
		const struct cost_func *f = &g->c.funcs[g->funcs[i]];
		double len = (w - left - 110) * f->self / max;

		fprintf(out, "<g class=\"bar\"><title>");
		esc(out, f->name, MAX_NAME_CHARS);
		fputs(": ", out);
		put_count(out, f->self);
		fprintf(out, " samples</title><text x=\"%d\" y=\"%zu\" "
			"text-anchor=\"end\" font-size=\"12\">", left - 6,
			i * bar + 15);
		esc(out, f->name, g->m->nobjects > 1 ? 32 : 48);
		if (g->m->nobjects > 1) {
			fputs(" [", out);
			esc(out, base_name(g->m->objects[f->object].path), 16);
			fputc(']', out);
		}
		fprintf(out, "</text><rect x=\"%d\" y=\"%zu\" width=\"%.1f\" "
			"height=\"%d\" fill=\"#c0392b\"/><text x=\"%.1f\" "
			"y=\"%zu\" font-size=\"12\">", left, i * bar + 2,
			len < 1 ? 1 : len, bar - 4, left + len + 4,
			i * bar + 15);
		put_count(out, f->self);
		fprintf(out, " (%.1f%%)</text></g>\n", pct(g, f->self));
	}
	fputs("</svg></section>\n", out);
}

static void func_row(struct page *g, const struct cost_func *f)
{
	FILE *out = g->out;
	long k = shown_file(g, f->file);

	fputs("<tr>", out);
	fputs("<td class=\"n\">", out);
	put_count(out, f->self);
	fprintf(out, "</td><td class=\"n\">%.2f</td><td class=\"n\">",
		pct(g, f->self));
	if (g->p->rate)
		fprintf(out, "%.3f", f->self / g->p->rate);
	fputs("</td>", out);
	if (g->calls)
		fprintf(out, "<td class=\"n\">%" PRIu64 "</td>", f->calls);
	fputs("<td class=\"fn\">", out);
	esc(out, f->name, MAX_NAME_CHARS);
	fputs("</td><td>", out);
	esc(out, base_name(g->m->objects[f->object].path), MAX_NAME_CHARS);
	fputs("</td><td>", out);
	if (f->file) {
		if (k >= 0)
			fprintf(out, "<a href=\"#F%ld\">", k);
		esc(out, base_name(f->file), MAX_NAME_CHARS);
		if (f->line)
			fprintf(out, ":%u", f->line);
		fputs(k >= 0 ? "</a>" : "", out);
	}
	fputs("</td></tr>\n", out);
}

static void functions(struct page *g)
{
	FILE *out = g->out;
	size_t n = g->c.nfuncs < HTML_MAX_FUNCS ? g->c.nfuncs : HTML_MAX_FUNCS;
	size_t i;

	fputs("<section id=\"functions\"><h2>Functions</h2>\n<p>Samples as "
	      "the function view counts them (a bin across a function's "
	      "bound is split); click a column to sort.</p>\n"
	      "<table id=\"funcs\" class=\"sortable\"><thead><tr>"
	      "<th class=\"n\" data-key=\"samples\" data-type=\"num\">"
	      "samples</th><th class=\"n\" data-key=\"percent\" "
	      "data-type=\"num\">%</th><th class=\"n\" data-key=\"seconds\" "
	      "data-type=\"num\">seconds</th>", out);
	if (g->calls)
		fputs("<th class=\"n\" data-key=\"calls\" data-type=\"num\">"
		      "calls</th>", out);
	fputs("<th data-key=\"function\">function</th><th data-key=\"object\">"
	      "object</th><th data-key=\"source\">source</th></tr></thead>"
	      "<tbody>\n", out);
	for (i = 0; i < n; i++)
		func_row(g, &g->c.funcs[g->funcs[i]]);
	fputs("</tbody></table>\n", out);
	cut_note(out, n, g->c.nfuncs, "functions with samples or calls");
	fputs("</section>\n", out);
}

/* A file's bytes, NUL-terminated; NULL with errno (EFBIG: too large). */
static char *read_source(const char *path, size_t *len)
{
	FILE *f = fopen(path, "re");
	char *buf;
	size_t n;

	if (!f)
		return NULL;
	buf = malloc(HTML_MAX_SOURCE + 1);
	n = buf ? fread(buf, 1, HTML_MAX_SOURCE + 1, f) : 0;
	if (buf && (ferror(f) || n > HTML_MAX_SOURCE)) {
		errno = ferror(f) ? EIO : EFBIG;
		free(buf);
		buf = NULL;
	}
	fclose(f);
	if (buf) {
		buf[n] = '\0';
		*len = n;
	}
	return buf;
}

/* The heat of @count: from pale yellow to red, by its share of the max. */
static void heat(const struct page *g, uint64_t count)
{
	double t = g->max_line ? (double)count / (double)g->max_line : 0;

	fprintf(g->out, " style=\"background:hsl(%.0f,100%%,%.0f%%)\"",
		55 * (1 - t), 88 - 30 * t);
}

static void src_row(struct page *g, long k, unsigned int ln,
		    const char *text, uint64_t count)
{
	FILE *out = g->out;

	fprintf(out, "<tr id=\"F%ld-L%u\"", k, ln);
	if (count)
		heat(g, count);
	fputs("><td class=\"n\">", out);
	if (count)
		fprintf(out, "%" PRIu64, count);
	fprintf(out, "</td><td class=\"ln\">%u</td><td>", ln);
	if (text)
		esc(out, text, HTML_MAX_LINE_CHARS);
	fputs("</td></tr>\n", out);
}

/* The lines of @f with samples, when its source cannot be shown. */
static void src_counts_only(struct page *g, const struct src_file *f,
			    long k)
{
	size_t i;

	fputs("<table class=\"src\"><tbody>\n", g->out);
	for (i = 0; i < f->n && i < HTML_MAX_FILE_LINES; i++)
		src_row(g, k, g->lines[f->first + i].line, NULL,
			g->lines[f->first + i].count);
	fputs("</tbody></table>\n", g->out);
	cut_note(g->out, i, f->n, "lines with samples");
}

/*
 * The source of @f: every line if it has at most HTML_MAX_FILE_LINES,
 * else those within HTML_CONTEXT of a line with samples, up to that
 * many; a "..." row where lines are skipped.
 */
static void src_lines(struct page *g, const struct src_file *f, long k,
		      char *text)
{
	const struct src_line *sl = &g->lines[f->first], *end = sl + f->n;
	unsigned int ln, nlines = 0, shown = 0, last = 0;
	bool all, gap = false;
	char *s, *nl;

	for (s = text; *s; s = nl + 1, nlines++)
		if (!(nl = strchr(s, '\n')))
			break;
	nlines += *s != '\0';
	all = nlines <= HTML_MAX_FILE_LINES;
	fputs("<table class=\"src\"><tbody>\n", g->out);
	for (s = text, ln = 1; *s && shown < HTML_MAX_FILE_LINES; ln++) {
		nl = strchr(s, '\n');
		if (nl)
			*nl = '\0';
		for (; sl < end && sl->line < ln; sl++)
			last = sl->line;
		if (all || (sl < end && sl->line <= ln + HTML_CONTEXT) ||
		    (last && last + HTML_CONTEXT >= ln)) {
			if (gap)
				fputs("<tr class=\"gap\"><td></td><td class="
				      "\"ln\">\xe2\x80\xa6</td><td></td></tr>\n",
				      g->out);
			gap = false;
			src_row(g, k, ln, s, sl < end && sl->line == ln ?
				sl->count : 0);
			shown++;
		} else {
			gap = true;
		}
		if (!nl)
			break;
		s = nl + 1;
	}
	fputs("</tbody></table>\n", g->out);
	if (!all)
		fprintf(g->out, "<p class=\"note\">%u of %u lines shown: those "
			"within %d of a line with samples, at most %d.</p>\n",
			shown, nlines, HTML_CONTEXT, HTML_MAX_FILE_LINES);
	if (f->n && end[-1].line > nlines)
		fprintf(g->out, "<p class=\"note\">samples on line %u, past "
			"the end of the file: is it the source the program was "
			"built from?</p>\n", end[-1].line);
}

static void sources(struct page *g)
{
	FILE *out = g->out;
	size_t n = g->nfiles < HTML_MAX_FILES ? g->nfiles : HTML_MAX_FILES;
	size_t i, len;
	char *text;

	fputs("<section id=\"sources\"><h2>Source files</h2>\n<p>Samples per "
	      "line as the line view counts them (a bin whole to the line "
	      "of its first address), coloured by heat.</p>\n", out);
	if (!g->nfiles)
		fputs("<p class=\"note\">No sample has line information "
		      "(built without -g?).</p>\n", out);
	for (i = 0; i < n; i++) {
		const struct src_file *f = &g->files[i];

		fprintf(out, "<h3 id=\"F%zu\"><code>", i);
		esc(out, f->file, 4 * MAX_NAME_CHARS);
		fprintf(out, "</code>: %" PRIu64 " samples, %.2f%%</h3>\n",
			f->count, pct(g, (double)f->count));
		text = read_source(f->file, &len);
		if (!text) {
			fprintf(out, "<p class=\"note\">source not readable: "
				"%s; the lines with samples:</p>\n",
				strerror(errno));
			src_counts_only(g, f, (long)i);
			continue;
		}
		src_lines(g, f, (long)i, text);
		free(text);
	}
	cut_note(out, n, g->nfiles, "source files with samples");
	fputs("</section>\n", out);
}

static void head(struct page *g)
{
	const struct profile *p = g->p;
	/* The command profiled, else the first process's program. */
	const char *what = p->command ? p->command : p->nprocesses &&
		p->processes[0].exe ? p->processes[0].exe : p->nobjects ?
		p->objects[0].path : "";
	FILE *out = g->out;

	fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8"
	      "\">\n<title>profil-ctl: ", out);
	esc(out, what, MAX_NAME_CHARS);
	fprintf(out, "</title>\n<style>%s</style></head>\n<body>\n<h1>Profile "
		"of <code>", style);
	esc(out, what, MAX_NAME_CHARS);
	fprintf(out, "</code></h1>\n<p>Written by profil-ctl. Limits of this "
		"page: %d functions, %d source files of at most %d lines "
		"(%d bytes each), %d objects and %d processes.</p>\n",
		HTML_MAX_FUNCS, HTML_MAX_FILES, HTML_MAX_FILE_LINES,
		HTML_MAX_LINE_CHARS, HTML_MAX_ROWS, HTML_MAX_ROWS);
}

static int page(struct page *g)
{
	size_t i;

	g->funcs = malloc((g->c.nfuncs + 1) * sizeof(*g->funcs));
	if (!g->funcs || group_sources(g))
		return -1;
	for (i = 0; i < g->c.nfuncs; i++) {
		g->funcs[i] = i;
		g->calls |= g->c.funcs[i].calls > 0;
	}
	qsort_r(g->funcs, g->c.nfuncs, sizeof(*g->funcs), cmp_func, &g->c);
	head(g);
	summary(g);
	if (objects(g) || processes(g))
		return -1;
	fputs("</section>\n", g->out);
	chart(g);
	functions(g);
	sources(g);
	fprintf(g->out, "<script>%s</script>\n</body></html>\n", script);
	return 0;
}

int render_html(FILE *out, const struct profile *p,
		const struct profile *merged, const struct profile_syms *syms)
{
	struct page g = { .out = out, .p = p, .m = merged, .syms = syms };
	int ret;

	if (costs_build(&g.c, merged, syms))
		return -1;
	ret = page(&g);
	if (ret)
		errno = ENOMEM;
	else if (ferror(out) || fflush(out))
		ret = -1;
	if (ret && !errno)
		errno = EIO;
	free(g.funcs);
	free(g.lines);
	free(g.files);
	costs_free(&g.c);
	return ret;
}
