// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The call-graph arc table of the -pg runtime: one open-addressing hash
 * shared by every thread, lock-free.
 *
 * A slot is a 64-bit key and a 64-bit count. The key packs the caller's
 * and the callee's offsets in the profiled text, (from << 32) | self, so a
 * slot is claimed by one compare-and-swap of one word and a count is one
 * atomic add: every call is counted exactly, whatever the number of
 * threads, and a thread that claims a slot never leaves it half-written
 * for another to wait on. That also makes the table safe to enter from a
 * signal handler that interrupted it on the same thread: the handler's
 * calls are recorded like any other.
 *
 * from == 0 is the key of calls from outside the text (thread start
 * routines run by libc, qsort() callbacks): counted per callee, never
 * written to gmon.out, as glibc drops them. self == 0 cannot happen (the
 * callee's PC lies after its call to mcount), so key 0 marks a free slot.
 *
 * Probing is linear and bounded by PF_ARCS_PROBES: a call whose arc finds
 * no slot within that many is lost, and counted in lost. The table never
 * grows: it is sized once from the text size (see pf_arcs_slots()).
 *
 * The functions the mcount stubs reach are built with general registers
 * only and call nothing: the stubs save only what glibc's save, and the
 * profiled function's vector arguments are live in its xmm registers.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <sys/mman.h>

#include "profil.h"
#include "internal.h"

#define PF_ARCS_HASH	0x9e3779b97f4a7c15ULL	/* 2^64 / golden ratio */

#define PF_HOT __attribute__((target("general-regs-only")))

size_t pf_arcs_slots(uint64_t textsize)
{
	/* glibc's: 3 arcs per 100 bytes of text; ours at half load. */
	uint64_t want = textsize / 100 * 3 * 2;
	size_t n = PF_ARCS_DEF_SLOTS;

	while (n < want && n < PF_ARCS_MAX_SLOTS)
		n *= 2;
	return n;
}

int pf_arcs_init(struct pf_arcs *a, uint64_t lowpc, uint64_t highpc,
		 size_t nslots)
{
	size_t n = PF_ARCS_MIN_SLOTS;
	unsigned int bits = 4;
	void *p;

	if (highpc <= lowpc || highpc - lowpc > UINT32_MAX || !nslots ||
	    nslots > PF_ARCS_MAX_SLOTS) {
		errno = EINVAL;
		return -1;
	}
	while (n < nslots) {
		n *= 2;
		bits++;
	}
	/* Anonymous memory: pages no arc reaches are never touched. */
	p = mmap(NULL, n * sizeof(struct pf_arc), PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return -1;
	a->slot = p;
	a->nslots = n;
	a->mask = n - 1;
	a->shift = 64 - bits;
	a->lowpc = lowpc;
	a->textsize = highpc - lowpc;
	a->lost = 0;
	a->foreign = 0;
	a->limit = 0;
	return 0;
}

void pf_arcs_set_on(struct pf_arcs *a, bool on)
{
	__atomic_store_n(&a->limit, on ? a->textsize : 0, __ATOMIC_RELEASE);
}

void pf_arcs_free(struct pf_arcs *a)
{
	pf_arcs_set_on(a, false);
	if (a->slot)
		munmap(a->slot, a->nslots * sizeof(struct pf_arc));
	a->slot = NULL;
	a->nslots = 0;
}

void pf_arcs_clear(struct pf_arcs *a)
{
	size_t len = a->nslots * sizeof(struct pf_arc);

	/* Private anonymous pages read back as zeros once dropped. */
	if (a->slot && madvise(a->slot, len, MADV_DONTNEED) < 0) {
		size_t i;

		for (i = 0; i < a->nslots; i++)
			a->slot[i] = (struct pf_arc){ 0, 0 };
	}
	__atomic_store_n(&a->lost, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&a->foreign, 0, __ATOMIC_RELAXED);
}

/*
 * The probe loop, inlined into pf_arcs_record(): mcount's common case, a
 * known arc at its home slot, is a load, a compare and an atomic add.
 */
static inline __attribute__((always_inline)) PF_HOT int
pf_arcs_bump(struct pf_arcs *a, uint64_t key, uint64_t n)
{
	uint64_t i = (key * PF_ARCS_HASH) >> a->shift, k;
	struct pf_arc *s;
	unsigned int p;

	for (p = 0; p < PF_ARCS_PROBES; p++, i = (i + 1) & a->mask) {
		s = &a->slot[i];
		k = __atomic_load_n(&s->key, __ATOMIC_RELAXED);
		if (k != key) {
			if (k)
				continue;
			/* Free: claim it, unless another got it first. */
			if (!__atomic_compare_exchange_n(&s->key, &k, key,
							 false,
							 __ATOMIC_RELAXED,
							 __ATOMIC_RELAXED) &&
			    k != key)
				continue;
		}
		__atomic_fetch_add(&s->count, n, __ATOMIC_RELAXED);
		return 0;
	}
	__atomic_fetch_add(&a->lost, n, __ATOMIC_RELAXED);
	return -1;
}

PF_HOT int pf_arcs_add(struct pf_arcs *a, uint64_t key, uint64_t n)
{
	return pf_arcs_bump(a, key, n);
}

/*
 * self is never 0 (the callee's PC follows its call to mcount, and lowpc
 * is at or below the text's start), so neither is the key.
 */
PF_HOT void pf_arcs_record(struct pf_arcs *a, uint64_t frompc,
			   uint64_t selfpc)
{
	/* limit is the text size when on, 0 when off: one test for both. */
	uint64_t limit = __atomic_load_n(&a->limit, __ATOMIC_ACQUIRE);
	uint64_t from = frompc - a->lowpc, self = selfpc - a->lowpc;

	if (self >= limit) {
		/* Off, or a -pg shared library's function: not graphed. */
		if (limit)
			__atomic_fetch_add(&a->foreign, 1, __ATOMIC_RELAXED);
		return;
	}
	if (from >= limit)
		from = 0;	/* from outside the text: counted, not graphed */
	pf_arcs_bump(a, from << 32 | self, 1);
}

size_t pf_arcs_collect(const struct pf_arcs *a, struct profil_gmon_arc *out,
		       size_t max, struct pf_arcs_totals *t)
{
	uint64_t key, count;
	size_t i, n = 0;

	*t = (struct pf_arcs_totals){
		.lost = __atomic_load_n(&a->lost, __ATOMIC_RELAXED),
		.foreign = __atomic_load_n(&a->foreign, __ATOMIC_RELAXED),
	};
	for (i = 0; i < a->nslots; i++) {
		key = __atomic_load_n(&a->slot[i].key, __ATOMIC_RELAXED);
		count = __atomic_load_n(&a->slot[i].count, __ATOMIC_RELAXED);
		if (!key || !count)
			continue;
		if (!(key >> 32)) {
			t->spontaneous += count;
			continue;
		}
		t->arcs++;
		t->calls += count;
		if (n < max)
			out[n++] = (struct profil_gmon_arc){
				.from_pc = a->lowpc + (key >> 32),
				.self_pc = a->lowpc + (uint32_t)key,
				.count = count,
			};
	}
	return n;
}
