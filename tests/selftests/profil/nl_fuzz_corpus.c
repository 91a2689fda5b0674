// SPDX-License-Identifier: GPL-2.0
/*
 * nl_fuzz's corpus (nl_fuzz.c): the *.nl files of fuzz_corpus/ (format:
 * its README), parsed and replayed in name order before the generated
 * messages.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/wait.h>

#include "nl_fuzz.h"

static int errno_by_name(const char *name)
{
	static const struct { const char *n; int e; } t[] = {
		{ "0", 0 }, { "EINVAL", EINVAL }, { "ERANGE", ERANGE },
		{ "ESRCH", ESRCH }, { "EFAULT", EFAULT }, { "ENOENT", ENOENT },
		{ "EPERM", EPERM }, { "EOPNOTSUPP", EOPNOTSUPP },
	};
	size_t i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		if (!strcmp(t[i].n, name))
			return t[i].e;
	return -1;
}

static void put_le(struct msg *m, uint64_t v, int bytes)
{
	while (bytes-- && m->len < sizeof(m->b)) {
		m->b[m->len++] = v;
		v >>= 8;
	}
}

/* Parse one corpus file (format: fuzz_corpus/README); 0 or -1. */
static int corpus_load(struct fuzz *f, const char *path, struct msg *m,
		       struct expect *x)
{
	char line[512], *tok, *save;
	FILE *fp = fopen(path, "r");
	bool have_expect = false;

	if (!fp)
		return -1;
	memset(m, 0, sizeof(*m));
	memset(x, 0, sizeof(*x));
	x->what = "corpus";
	x->cls = NCLS - 1;
	while (fgets(line, sizeof(line), fp)) {
		char *hash = strchr(line, '#');

		if (hash)
			*hash = '\0';
		tok = strtok_r(line, " \t\n", &save);
		if (!tok)
			continue;
		if (!strcmp(tok, "expect")) {
			have_expect = true;
			x->reply = true;
			while ((tok = strtok_r(NULL, " \t\n", &save))) {
				int e;

				if (!strcmp(tok, "none")) {
					x->reply = false;
					continue;
				}
				if (!strcmp(tok, "get")) {
					x->get_reply = true;
					continue;
				}
				if (!strcmp(tok, "dump")) {
					x->dump = true;
					continue;
				}
				e = errno_by_name(tok);
				if (e < 0)
					goto bad;
				x->errs |= E(e);
			}
			continue;
		}
		for (; tok; tok = strtok_r(NULL, " \t\n", &save)) {
			char *end;
			unsigned long v;

			if (!strcmp(tok, "FAMILY"))
				put_le(m, f->family, 2);
			else if (!strcmp(tok, "SELF"))
				put_le(m, f->self, 4);
			else if (!strcmp(tok, "VICTIM"))
				put_le(m, f->victim[0], 4);
			else if (!strcmp(tok, "ARENA"))
				put_le(m, (uintptr_t)f->arena, 8);
			else if (!strcmp(tok, "ARENA_RO"))
				put_le(m, (uintptr_t)f->arena + ARENA_PART, 8);
			else {
				v = strtoul(tok, &end, 16);
				if (*end || v > 0xff || strlen(tok) != 2)
					goto bad;
				put_le(m, v, 1);
			}
		}
	}
	fclose(fp);
	return have_expect ? 0 : -1;
bad:
	fclose(fp);
	return -1;
}

static int corpus_filter(const struct dirent *d)
{
	size_t n = strlen(d->d_name);

	return n > 3 && !strcmp(d->d_name + n - 3, ".nl");
}

/* Replay every input; returns how many, or -1 if the corpus is unreadable. */
int corpus_replay(struct fuzz *f, const char *dir)
{
	struct dirent **names;
	unsigned long before = f->failures;
	int n, i, done = 0;

	n = scandir(dir, &names, corpus_filter, alphasort);
	if (n < 0)
		return -1;
	for (i = 0; i < n; i++) {
		char path[PATH_MAX + 256];
		struct msg m;
		struct expect x;

		snprintf(path, sizeof(path), "%s/%s", dir, names[i]->d_name);
		if (corpus_load(f, path, &m, &x)) {
			printf("# corpus: %s: cannot parse\n", path);
			f->failures++;
		} else {
			unsigned long fails = f->failures;

			x.what = names[i]->d_name;
			exchange(f, &m, &x);
			printf("# corpus: %s: %s\n", names[i]->d_name,
			       f->failures == fails ? "ok" : "FAILED");
			done++;
		}
		free(names[i]);
	}
	free(names);
	return f->failures == before ? done : -1;
}

const char *find_corpus(char *buf, size_t size)
{
	const char *env = getenv("PROFIL_FUZZ_CORPUS");
	char exe[PATH_MAX - 16];
	ssize_t n;

	if (env)
		return env;
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n > 0) {
		exe[n] = '\0';
		*strrchr(exe, '/') = '\0';
		snprintf(buf, size, "%s/fuzz_corpus", exe);
		if (!access(buf, R_OK))
			return buf;
	}
#ifdef NL_FUZZ_CORPUS
	return NL_FUZZ_CORPUS;
#else
	return "fuzz_corpus";
#endif
}

