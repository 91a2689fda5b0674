/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The library machine_bounds_test and machine_mapping_test load
 * (machine_dso.c, machine_dso.so next to them): its two loops, their
 * file offsets and sizes, and the samples in them. Include it after
 * profil_held.h; link with -ldl.
 */
#ifndef PROFIL_SELFTEST_MACHINE_DSO_H
#define PROFIL_SELFTEST_MACHINE_DSO_H

#include <dlfcn.h>
#include <limits.h>
#include <link.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* The library next to this program (machine_dso.c), and its loops. */
#define DSO_NAME	"machine_dso.so"
#define DSO_A		0
#define DSO_B		1
/* Iterations of a loop per call: a few ms of a TCG guest's CPU. */
#define DSO_LOOP	(1UL << 18)

typedef unsigned long (*dso_fn)(unsigned long);

/* The library, loaded: its functions, their file offsets and sizes. */
struct dso {
	char path[PATH_MAX];
	dso_fn fn[2];
	uint64_t off[2], size[2];
};

/* The library next to this program. */
static inline int dso_path(char *path, size_t size)
{
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	if (n < 0)
		return -1;
	exe[n] = '\0';
	if (!strrchr(exe, '/'))
		return -1;
	*strrchr(exe, '/') = '\0';
	return snprintf(path, size, "%s/" DSO_NAME, exe) < (int)size ? 0 : -1;
}

/* The file offset and size of the function at @fn, from its mapping. */
static inline int fn_range(void *fn, uint64_t *off, uint64_t *size)
{
	unsigned long start, end, pgoff;
	const ElfW(Sym) *sym = NULL;
	uintptr_t a = (uintptr_t)fn;
	char line[512];
	Dl_info info;
	int ret = -1;
	FILE *f;

	if (!dladdr1(fn, &info, (void **)&sym, RTLD_DL_SYMENT) || !sym ||
	    !sym->st_size)
		return -1;
	*size = sym->st_size;
	f = fopen("/proc/self/maps", "r");
	if (!f)
		return -1;
	while (ret && fgets(line, sizeof(line), f))
		if (sscanf(line, "%lx-%lx %*s %lx", &start, &end, &pgoff) == 3 &&
		    a >= start && a < end) {
			*off = a - start + pgoff;
			ret = 0;
		}
	fclose(f);
	return ret;
}

/* dlopen() the library into this process; 0 or -1. */
static inline int dso_load(struct dso *d)
{
	static const char *const names[] = { "machine_dso_a", "machine_dso_b" };
	void *h;
	int i;

	if (dso_path(d->path, sizeof(d->path)))
		return -1;
	h = dlopen(d->path, RTLD_NOW);
	if (!h)
		return -1;
	for (i = 0; i < 2; i++) {
		d->fn[i] = (dso_fn)dlsym(h, names[i]);
		if (!d->fn[i] || fn_range(d->fn[i], &d->off[i], &d->size[i]))
			return -1;
	}
	return 0;
}

/* Samples of @image in @object at offsets [@off, @off + @size). */
static inline uint64_t samples_at(const struct held_profile *p,
				  uint32_t image, uint32_t object,
				  uint64_t off, uint64_t size)
{
	const struct profil_sample *s;
	uint64_t sum = 0;
	unsigned int i;

	for (i = 0; i < p->nr_samples; i++) {
		s = &p->samples[i];
		if (s->image == image && s->object == object &&
		    s->offset >= off && s->offset < off + size)
			sum += s->count;
	}
	return sum;
}

/* Samples of @image in the library's function @which. */
static inline uint64_t samples_in_fn(const struct held_profile *p,
				     uint32_t image,
				     const struct held_object *obj,
				     const struct dso *d, int which)
{
	return samples_at(p, image, obj->id, d->off[which], d->size[which]);
}

#endif /* PROFIL_SELFTEST_MACHINE_DSO_H */
