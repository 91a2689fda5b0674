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
 * struct hist - a whole profile
 * @rate: samples per second (gmon.out's prof_rate; 0 if unknown)
 * @nranges: number of @ranges
 * @ranges: histogram ranges, sorted by @low_pc, not overlapping
 * @binary: path of the ELF file the addresses belong to, or NULL
 */
struct hist {
	uint32_t rate;
	size_t nranges;
	struct hist_range *ranges;
	char *binary;
};

#endif /* PROFIL_CTL_HIST_H */
