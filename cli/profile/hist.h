/* SPDX-License-Identifier: GPL-2.0 */
/*
 * profil-ctl's in-memory histogram: what every source (a gmon.out file, a
 * live buffer read from a profiled process) turns into, and what every
 * renderer reads.
 *
 * Geometry is gprof's: the nbins bins split [low_pc, high_pc) evenly, bin i
 * covering [low_pc + i * width, low_pc + (i + 1) * width) with
 * width = (high_pc - low_pc) / nbins (a real number). Addresses are those of
 * the ELF file (link-time): the load bias is already subtracted.
 */
#ifndef PROFIL_CTL_HIST_H
#define PROFIL_CTL_HIST_H

#include <stdint.h>
#include <stddef.h>

/**
 * struct hist_range - one contiguous histogram, e.g. one gmon.out
 * TIME_HIST record (records with an identical range are summed into one)
 * @low_pc: first address covered (link-time)
 * @high_pc: end of the range (exclusive)
 * @nbins: number of bins
 * @bins: @nbins counts; u64 so that summed records and restarts never wrap
 */
struct hist_range {
	uint64_t low_pc;
	uint64_t high_pc;
	size_t nbins;
	uint64_t *bins;
};

/**
 * struct hist_arc - one gmon.out CG_ARC record (link-time addresses)
 * @from_pc: the call site
 * @self_pc: the callee (mcount's caller, just past its prologue)
 * @count: number of calls
 */
struct hist_arc {
	uint64_t from_pc;
	uint64_t self_pc;
	uint64_t count;
};

/**
 * struct hist - a whole profile
 * @rate: samples per second (gmon.out's prof_rate; 0 if unknown)
 * @nranges: number of @ranges
 * @ranges: histogram ranges, sorted by @low_pc, not overlapping
 * @binary: path of the ELF file the addresses belong to, or NULL
 * @narcs: number of @arcs (0 for a live buffer: profil records no calls)
 * @arcs: call-graph arcs of a -pg program's gmon.out, as read
 *
 * Zero-initialise it, fill it (hist_add_range() keeps @ranges sorted and
 * merged as gprof does), release it with hist_free(). @binary and the
 * arrays are malloc'ed and owned by the struct.
 */
struct hist {
	uint32_t rate;
	size_t nranges;
	struct hist_range *ranges;
	char *binary;
	size_t narcs;
	struct hist_arc *arcs;
};

/** hist_free() - free what @h owns and zero it; NULL is a no-op. */
void hist_free(struct hist *h);

/**
 * hist_bin_range() - the addresses [*@lo, *@hi) bin @i of @r covers,
 * truncated to 2-byte units as gprof does (exact for libprofil's
 * power-of-two bins); the last bin ends at @r->high_pc.
 */
void hist_bin_range(const struct hist_range *r, size_t i, uint64_t *lo,
		    uint64_t *hi);

/**
 * hist_each_bin() - call @fn for each bin of @h with samples, in order,
 * with its addresses (hist_bin_range()) and count, until @fn returns
 * non-zero
 * Return: 0, or what @fn returned.
 */
int hist_each_bin(const struct hist *h,
		  int (*fn)(void *ctx, uint64_t lo, uint64_t hi,
			    uint64_t count),
		  void *ctx);

/** hist_range_total(), hist_total() - sum of the counts. */
uint64_t hist_range_total(const struct hist_range *r);
uint64_t hist_total(const struct hist *h);

/**
 * hist_add_range() - add @nbins counts over [@low, @high) to @h
 *
 * A range identical to one already there is summed into it (gprof's rule
 * for repeated TIME_HIST records); a new range is copied in, in order.
 *
 * Return: 0, or -1 with errno: EINVAL (empty range, no bins, more bins
 * than bytes), EDOM (identical range, other number of bins), EEXIST
 * (partial overlap with a range already there), ENOMEM.
 */
int hist_add_range(struct hist *h, uint64_t low, uint64_t high,
		   const uint64_t *bins, size_t nbins);

/** hist_add_arc() - append one arc. Return: 0, or -1 with errno ENOMEM. */
int hist_add_arc(struct hist *h, uint64_t from_pc, uint64_t self_pc,
		 uint64_t count);

/**
 * hist_merge() - add @from's ranges (hist_add_range()'s rules) and arcs
 * to @to, as gprof -s sums gmon.out files; arcs of one (from, self) pair
 * are summed into one, in (from, self) order. @to keeps its rate.
 * Return: 0, or -1 with errno as hist_add_range() (@to is then partly
 * merged: free it).
 */
int hist_merge(struct hist *to, const struct hist *from);

#endif /* PROFIL_CTL_HIST_H */
