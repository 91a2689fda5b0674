/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Region sets (regions.c): profil()'s single region or sprofil()'s
 * regions, resolved into disjoint pieces, and the map from a PC to its
 * counter that the tick uses.
 */
#ifndef _PK_REGIONS_H
#define _PK_REGIONS_H

#include <linux/bits.h>
#include <linux/overflow.h>
#include <linux/refcount.h>
#include <linux/types.h>
#include <linux/profil.h>
#include <net/netlink.h>

struct netlink_ext_ack;
struct nlattr;
struct pk_session;

/**
 * struct pk_region - one region of a set, as requested
 * @buf: user address of its counters
 * @size: its size in bytes
 * @offset: its lowest PC
 * @scale: 16.16 fixed-point scale
 * @nbins: counters in it: @size over the counter width
 */
struct pk_region {
	u64 buf;
	u64 size;
	u64 offset;
	u64 nbins;
	u32 scale;
};

/* Where a PC maps: a piece of the address space owned by one region. */
struct pk_piece {
	u64 end;
	u32 region;
};

/* What pk_counter_add() does: the counter's width and mode. */
#define PK_KIND_U32 BIT(0)
#define PK_KIND_SATURATE BIT(1)
/* A pending entry of a kernel-held session: a PC to attribute. */
#define PK_KIND_HELD BIT(2)

/**
 * struct pk_regions - a region set (regions.c)
 * @ref: each &struct pk_params naming it and each in-flight fork
 *	attach hold one; the last put frees it (process context)
 * @nr: regions in @region, in request order
 * @nr_pieces: entries of @start and @piece
 * @overflow: index of the overflow bin in @region, or -1
 * @counter: &enum profil_counter
 * @mode: &enum profil_mode
 * @kind: PK_KIND_* for @counter and @mode
 * @shift: log2 of the counter width in bytes
 * @single: made from BUF/BUFSIZ/OFFSET/SCALE: profil()'s rules (any scale
 *	but 0 counts, no overflow bin)
 * @start: sorted first PCs of the disjoint pieces the regions resolve to
 * @piece: for each piece, its end (exclusive) and its region
 * @region: the regions, as requested; @start and @piece follow them in
 *	the same allocation
 *
 * Immutable once built: a tick reads it under RCU through the params.
 */
struct pk_regions {
	refcount_t ref;
	u32 nr;
	u32 nr_pieces;
	int overflow;
	u32 counter;
	u32 mode;
	u32 kind;
	u32 shift;
	bool single;
	u64 *start;
	struct pk_piece *piece;
	struct pk_region region[];
};

struct pk_regions *pk_regions_single(u64 buf, u64 bufsiz, u64 offset, u32 scale,
				     u32 counter, u32 mode);
extern const struct nla_policy pk_region_policy[PROFIL_REGION_MAX + 1];
struct pk_regions *pk_regions_from_nl(const struct nlattr *head, int len,
				      const struct pk_regions *old, u32 counter,
				      u32 mode, struct netlink_ext_ack *extack);
void pk_regions_get(struct pk_regions *rs);
void pk_regions_put(struct pk_regions *rs);
int pk_session_add_regions(struct pk_session *s, const struct nlattr *head,
			   int len, struct netlink_ext_ack *extack);

/*
 * What pk_regions_map() found for a PC: a counter of a region, the
 * overflow bin's counter, or nothing.
 */
enum pk_map {
	PK_MAP_NONE,
	PK_MAP_REGION,
	PK_MAP_OVERFLOW,
};

/**
 * pk_regions_map() - the counter a PC is counted in
 * @rs: the set
 * @pc: the sampled user PC
 * @addr: on success, the user address of the counter
 *
 * A binary search of the pieces for the last one starting at or below @pc,
 * then glibc's index within its region. An index past the region's end
 * (which the pieces' ends exclude) or a PC in no piece goes to the
 * overflow bin, if the set has one.
 *
 * Context: any; the caller keeps @rs alive (RCU through the params).
 * Return: &enum pk_map.
 */
static inline enum pk_map pk_regions_map(const struct pk_regions *rs, u64 pc,
					 u64 *addr)
{
	const struct pk_region *r;
	const u64 *start = rs->start;
	u32 base = 0, n = rs->nr_pieces, half;
	u64 h, idx;

	if (!n || pc < start[0])
		goto overflow;
	while (n > 1) {
		half = n / 2;
		if (start[base + half] <= pc)
			base += half;
		n -= half;
	}
	if (pc >= rs->piece[base].end)
		goto overflow;
	r = &rs->region[rs->piece[base].region];
	h = (pc - r->offset) >> rs->shift;
	/* glibc's LP64 form, exact in 64 bits; overflows only past nbins. */
	if (!check_mul_overflow(h >> 16, (u64)r->scale, &idx) &&
	    !check_add_overflow(idx, ((h & 0xffff) * r->scale) >> 16, &idx) &&
	    idx < r->nbins) {
		*addr = r->buf + (idx << rs->shift);
		return PK_MAP_REGION;
	}
overflow:
	if (rs->overflow < 0)
		return PK_MAP_NONE;
	*addr = rs->region[rs->overflow].buf;
	return PK_MAP_OVERFLOW;
}

/**
 * pk_region_used() - whether a region's counters are ever written
 * @rs: the set
 * @r: one of its regions
 *
 * A region without a counter is ignored, as is one whose scale is below 2
 * in a set (sprofil()'s rule) or 0 in profil()'s single region.
 */
static inline bool pk_region_used(const struct pk_regions *rs,
				  const struct pk_region *r)
{
	return r->nbins && r->scale >= (rs->single ? 1 : 2);
}

#endif /* _PK_REGIONS_H */
