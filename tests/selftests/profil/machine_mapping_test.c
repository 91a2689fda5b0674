// SPDX-License-Identifier: GPL-2.0
/*
 * The machine-wide profile charges each sample to the mapping that held
 * its PC at the tick, however the process's mappings change
 * (Documentation/kmod/machine.rst, "Attribution"). Where the kernel
 * counts an address space's mapping changes (mm_lock_seq, a seqcount in
 * Debian's 6.12), a CPU reuses the mapping its last sample of a process
 * found while that count stands still; any change must end the reuse:
 *
 * - a process runs a loop of machine_dso.so, mapped whole from its file,
 *   then maps a copy of the file over it (MAP_FIXED: the same addresses,
 *   offsets and size, another file) and runs the same loop at the same
 *   address: each file has the samples of its own phase, at the loop's
 *   offsets;
 * - it then maps the library from its second page at the same address,
 *   and runs the loop where its bytes now are, a page lower: its samples
 *   are at the loop's offsets again, none a page before them;
 * - a process runs the loop in the library and a copy of it in anonymous
 *   memory by turns, a millisecond each: a CPU's hint names the object of
 *   its last sample, the file's or the anonymous one, and a sample in the
 *   file after one in anonymous memory must find the file's object, not
 *   the one the hint names.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "profil_harness.h"
#include "profil_nl.h"
#include "profil_util.h"
#include "profil_held.h"
#include "profil_machine.h"
#include "profil_machine_dso.h"

/* CPU time the worker spends in each mapping: 50 periods at 100 Hz. */
#define PHASE_SECS	0.5

/* What the worker mapped, for the test to find in the profile. */
struct remap {
	struct dso d;
	char copy[PATH_MAX];
	long page;
};

/*
 * Map @len bytes of the file @path from @offset, executable, at @at
 * (NULL: anywhere; else MAP_FIXED, over what is there).
 */
static void *map_code(const char *path, void *at, size_t len, off_t offset)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	void *p;

	if (fd < 0)
		return MAP_FAILED;
	p = mmap(at, len, PROT_READ | PROT_EXEC,
		 MAP_PRIVATE | (at ? MAP_FIXED : 0), fd, offset);
	close(fd);
	return p;
}

/* Call @fn for PHASE_SECS of this thread's CPU time. */
static void spin_in(dso_fn fn)
{
	double end = thread_cpu() + PHASE_SECS;

	while (thread_cpu() < end)
		fn(DSO_LOOP);
}

/*
 * The worker: maps the library and its copy, tells the test, and on its
 * go runs machine_dso_a in the library, then at the same address in the
 * copy, then in the library mapped from its second page at that address,
 * a page lower. The library's
 * loops are position-independent and call nothing: they run wherever
 * their bytes are mapped.
 */
static void __attribute__((noreturn)) remap_worker(int go, int res)
{
	struct remap r = { .page = sysconf(_SC_PAGESIZE) };
	struct stat sb;
	size_t len;
	char *code;
	dso_fn fn;
	char c;

	snprintf(r.copy, sizeof(r.copy), "/tmp/machine_mapping.%d", getpid());
	if (dso_load(&r.d) || copy_file(r.d.path, r.copy) ||
	    stat(r.d.path, &sb))
		_exit(2);
	len = sb.st_size;
	code = map_code(r.d.path, NULL, len, 0);
	if (code == MAP_FAILED || r.d.off[DSO_A] < (uint64_t)r.page)
		_exit(2);
	fn = (dso_fn)(code + r.d.off[DSO_A]);
	if (write(res, &r, sizeof(r)) != sizeof(r) || read(go, &c, 1) != 1)
		_exit(3);
	spin_in(fn);
	if (map_code(r.copy, code, len, 0) != code)
		_exit(4);
	spin_in(fn);
	/* The same start, another file offset: the loop a page lower. */
	if (map_code(r.d.path, code, len - r.page, r.page) != code)
		_exit(5);
	spin_in((dso_fn)(code + r.d.off[DSO_A] - r.page));
	_exit(0);
}

/*
 * Fork @worker, read the @size bytes it reports into @out, profile the
 * machine at 100 Hz from its go to its end, and read the profile into
 * @p. Return: the worker's pid, -1 if it reported nothing, -2 if the
 * profile failed (@nl's extack says why).
 */
static pid_t profile_worker(void (*worker)(int go, int res), void *out,
			    size_t size, struct pnl *nl, struct held_profile *p)
{
	struct collect_req q = {
		.scope = PROFIL_SCOPE_MACHINE, .fd = NO_FD, .rate = 100,
	};
	int go[2], res[2];
	pid_t pid;
	bool ok;

	pid = worker_fork(go, res);
	if (pid < 0)
		return -1;
	if (pid == 0)
		worker(go[0], res[1]);
	ok = read(res[0], out, size) == (ssize_t)size;
	close(res[0]);
	if (ok && (pnl_open(nl) || collect_req(nl, &q))) {
		close(go[1]); /* The worker reads no go, and ends. */
		reaped(pid);
		return -2;
	}
	ok = ok && write(go[1], "g", 1) == 1;
	close(go[1]);
	if (!reaped(pid) || !ok)
		return -1;
	return held_read(nl, p) ? -2 : pid;
}

/*
 * Samples in the three phases, each half a second at 100 Hz: each phase
 * has at least a fifth of the samples in machine_dso_a (the loaded TCG
 * guest skips ticks, and counts them as missed), at the loop's offsets
 * in its own file. Charged to the first phase's mapping after the copy
 * replaced it, the copy would have none; charged by the first mapping's
 * file offset after the library moved, the third phase's samples would
 * be a page before the loop.
 */
TEST(mapping_replaced_at_the_same_address)
{
	struct held_profile *p = malloc(sizeof(*p));
	const struct held_object *lib, *copy;
	uint64_t in_lib, in_copy, stale, all;
	const struct held_image *img;
	struct remap r;
	struct pnl nl;
	pid_t pid;

	ASSERT_NE(NULL, p);
	pid = profile_worker(remap_worker, &r, sizeof(r), &nl, p);
	ASSERT_NE(-1, pid) TH_LOG("the worker could not map " DSO_NAME);
	ASSERT_LT(0, pid) TH_LOG("%s", nl.extack);
	lib = object_at(p, r.d.path);
	copy = object_at(p, r.copy);
	unlink(r.copy);
	img = image_of(p, pid, ANY_PARENT);
	ASSERT_NE(NULL, img);
	ASSERT_NE(NULL, lib) TH_LOG("no sample in " DSO_NAME);
	ASSERT_NE(NULL, copy)
		TH_LOG("no sample in the copy mapped over the library");
	EXPECT_TRUE(image_adds_up(p, img));
	in_lib = samples_in_fn(p, img->id, lib, &r.d, DSO_A);
	in_copy = samples_in_fn(p, img->id, copy, &r.d, DSO_A);
	stale = samples_at(p, img->id, lib->id, r.d.off[DSO_A] - r.page,
			   r.d.size[DSO_A]);
	all = img->stats[PROFIL_STAT_IN_RANGE];
	TH_LOG("%llu samples: %llu in the library's loop, %llu in the copy's, %llu a page before",
	       (unsigned long long)all, (unsigned long long)in_lib,
	       (unsigned long long)in_copy, (unsigned long long)stale);
	EXPECT_LE(10, all);
	/* The first and the third phase, the second. */
	EXPECT_LE(all * 2, 5 * in_lib);
	EXPECT_LE(all, 5 * in_copy);
	EXPECT_EQ(0, stale);
	/* The copy ran only the loop. */
	EXPECT_EQ(in_copy, samples_in(p, img->id, copy->id));
	pnl_close(&nl);
	free(p);
}

/* The profile's object of anonymous memory, or NULL. */
static const struct held_object *anon_object(const struct held_profile *p)
{
	unsigned int i;

	for (i = 0; i < p->nr_objects; i++)
		if (p->objects[i].kind == PROFIL_OBJECT_ANON)
			return &p->objects[i];
	return NULL;
}

/* What the turns worker ran: the library, and the loop's anonymous copy. */
struct turns {
	struct dso d;
	uint64_t anon;
};

/*
 * The turns worker: the library's loop and its copy in anonymous memory
 * (the loop calls nothing and reads no data: its bytes run anywhere),
 * a millisecond or so each by turns, for twice PHASE_SECS of its CPU time.
 */
static void __attribute__((noreturn)) turns_worker(int go, int res)
{
	struct turns t = { 0 };
	dso_fn file_fn, anon_fn;
	double end;
	void *anon;
	char c;

	if (dso_load(&t.d))
		_exit(2);
	file_fn = t.d.fn[DSO_A];
	anon = mmap(NULL, t.d.size[DSO_A], PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (anon == MAP_FAILED)
		_exit(2);
	memcpy(anon, (void *)file_fn, t.d.size[DSO_A]);
	if (mprotect(anon, t.d.size[DSO_A], PROT_READ | PROT_EXEC))
		_exit(2);
	anon_fn = (dso_fn)anon;
	t.anon = (uintptr_t)anon;
	if (write(res, &t, sizeof(t)) != sizeof(t) || read(go, &c, 1) != 1)
		_exit(3);
	end = thread_cpu() + 2 * PHASE_SECS;
	while (thread_cpu() < end) {
		file_fn(DSO_LOOP / 4);
		anon_fn(DSO_LOOP / 4);
	}
	_exit(0);
}

/*
 * A second at 100 Hz, the two loops by turns: at least 20 samples, and
 * half the periods with the ones missed; each loop has at least a fifth
 * of the samples, the file's at the loop's offsets in the library, the
 * anonymous memory's at the copy's addresses (an anonymous mapping's
 * offset is the address). A file sample charged to the object of the
 * anonymous one before it would be an anonymous sample outside the copy.
 */
TEST(file_and_anonymous_code_by_turns)
{
	struct held_profile *p = malloc(sizeof(*p));
	const struct held_object *lib, *anon;
	uint64_t in_lib, in_anon, all, missed;
	const struct held_image *img;
	struct turns t;
	struct pnl nl;
	pid_t pid;

	ASSERT_NE(NULL, p);
	pid = profile_worker(turns_worker, &t, sizeof(t), &nl, p);
	ASSERT_NE(-1, pid) TH_LOG("the worker could not load " DSO_NAME);
	ASSERT_LT(0, pid) TH_LOG("%s", nl.extack);
	img = image_of(p, pid, ANY_PARENT);
	ASSERT_NE(NULL, img);
	lib = object_at(p, t.d.path);
	anon = anon_object(p);
	ASSERT_NE(NULL, lib) TH_LOG("no sample in " DSO_NAME);
	ASSERT_NE(NULL, anon) TH_LOG("no sample in anonymous memory");
	EXPECT_TRUE(image_adds_up(p, img));
	in_lib = samples_in_fn(p, img->id, lib, &t.d, DSO_A);
	in_anon = samples_at(p, img->id, anon->id, t.anon, t.d.size[DSO_A]);
	all = img->stats[PROFIL_STAT_IN_RANGE];
	missed = img->stats[PROFIL_STAT_MISSED];
	TH_LOG("%llu samples: %llu in the library's loop, %llu in its anonymous copy; %llu periods missed",
	       (unsigned long long)all, (unsigned long long)in_lib,
	       (unsigned long long)in_anon, (unsigned long long)missed);
	/* 100 periods, less the ones a loaded guest's tick came late for. */
	EXPECT_LE(50, all + missed);
	EXPECT_LE(20, all);
	EXPECT_LE(all, 5 * in_lib);
	EXPECT_LE(all, 5 * in_anon);
	/* Anonymous samples only in the copy: none charged from the file. */
	EXPECT_EQ(in_anon, samples_in(p, img->id, anon->id));
	pnl_close(&nl);
	free(p);
}

TEST_HARNESS_MAIN
