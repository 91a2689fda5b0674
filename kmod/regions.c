// SPDX-License-Identifier: GPL-2.0
/*
 * Region sets: glibc's sprofil() model. A set is a list of regions, each
 * with a buffer, a size, a PC offset and a scale, resolved once into
 * disjoint pieces of the address space, sorted, so that the tick finds a
 * PC's region with a binary search (pk_regions_map() in profil.h).
 *
 * Where regions overlap the one with the higher offset wins, as glibc's
 * add_region() intends: regions are taken in decreasing offset and a lower
 * one fills only the gaps the higher ones left. Here that is one sweep
 * over the regions' bounds with a heap of the regions covering the point,
 * O(n log n). At equal offsets the region given first wins (glibc's qsort()
 * leaves that order unspecified). A region with a scale below 2 is ignored
 * and the first region with offset 0 and scale 2 is the overflow bin,
 * which takes the PCs of no region. A set made from profil()'s four
 * attributes keeps profil()'s rules instead: any scale but 0 counts, and
 * there is no overflow bin.
 *
 * A set never changes once built. A restart publishes a new one with the
 * session's parameters; pk_session_add_regions() publishes the old
 * set's regions plus new ones, in one step, so that every tick lands in
 * exactly one set.
 *
 * Memory: one allocation per set, at most PROFIL_REGIONS_MAX regions and
 * twice as many pieces (about 360 KiB), kvmalloc'd and charged to the
 * caller (GFP_KERNEL_ACCOUNT). A session holds one set, and for a moment
 * two while it replaces it.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/math64.h>
#include <linux/mm.h>
#include <linux/overflow.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/uaccess.h>
#include <net/netlink.h>

#include "regions.h"
#include "session.h"

const struct nla_policy pk_region_policy[PROFIL_REGION_MAX + 1] = {
	[PROFIL_REGION_PAD] = { .type = NLA_REJECT },
	[PROFIL_REGION_BUF] = { .type = NLA_U64 },
	[PROFIL_REGION_SIZE] = { .type = NLA_U64 },
	[PROFIL_REGION_OFFSET] = { .type = NLA_U64 },
	[PROFIL_REGION_SCALE] = { .type = NLA_U32 },
};

/* A set for @nr regions, with room for the pieces they can resolve to. */
static struct pk_regions *pk_regions_alloc(u32 nr, u32 counter, u32 mode)
{
	/* n intervals have at most 2n bounds, so 2n - 1 pieces between. */
	u32 max_pieces = 2 * max(nr, 1U);
	struct pk_regions *rs;
	size_t size;

	size = size_add(size_add(struct_size(rs, region, nr),
				 array_size(max_pieces, sizeof(*rs->start))),
			array_size(max_pieces, sizeof(*rs->piece)));
	/* Sized by the request: its ENOMEM is the requester's, no warning. */
	rs = kvzalloc(size, GFP_KERNEL_ACCOUNT | __GFP_NOWARN);
	if (!rs)
		return NULL;
	rs->start = (u64 *)(rs->region + nr);
	rs->piece = (struct pk_piece *)(rs->start + max_pieces);
	refcount_set(&rs->ref, 1);
	rs->nr = nr;
	rs->overflow = -1;
	rs->counter = counter;
	rs->mode = mode;
	rs->shift = counter == PROFIL_COUNTER_U32 ? 2 : 1;
	rs->kind = (counter == PROFIL_COUNTER_U32 ? PK_KIND_U32 : 0) |
		   (mode == PROFIL_MODE_SATURATE ? PK_KIND_SATURATE : 0);
	return rs;
}

void pk_regions_get(struct pk_regions *rs)
{
	refcount_inc(&rs->ref);
}

/* Context: process context (a large set is vmalloc'd). */
void pk_regions_put(struct pk_regions *rs)
{
	if (rs && refcount_dec_and_test(&rs->ref))
		kvfree(rs);
}

/*
 * The first PC past @r: the lowest with an index of r->nbins or more,
 * offset + w * ceil(nbins * 65536 / scale); U64_MAX if that is past 2^64.
 */
static u64 pk_region_end(const struct pk_region *r, u32 shift)
{
	u32 rem;
	u64 q = div_u64_rem(r->nbins, r->scale, &rem);
	u64 h, end;

	/* rem < scale < 2^32: rem * 65536 cannot overflow. */
	if (check_mul_overflow(q, 65536ULL, &h) ||
	    check_add_overflow(h, DIV_ROUND_UP((u64)rem << 16, r->scale), &h) ||
	    check_shl_overflow(h, shift, &h) ||
	    check_add_overflow(r->offset, h, &end))
		return U64_MAX;
	return end;
}

/* A region's place in the sweep. */
struct pk_rkey {
	u64 offset;
	u64 end;
	u32 idx;
};

static int pk_rkey_cmp(const void *a, const void *b)
{
	const struct pk_rkey *l = a, *r = b;

	if (l->offset != r->offset)
		return l->offset < r->offset ? -1 : 1;
	return l->idx < r->idx ? -1 : l->idx > r->idx;
}

static int pk_u64_cmp(const void *a, const void *b)
{
	u64 l = *(const u64 *)a, r = *(const u64 *)b;

	return l < r ? -1 : l > r;
}

/* Whether region key @a owns a point that @b covers too. */
static bool pk_rkey_wins(const struct pk_rkey *a, const struct pk_rkey *b)
{
	return a->offset > b->offset ||
	       (a->offset == b->offset && a->idx < b->idx);
}

/*
 * A max-heap of indices into the sorted keys, by pk_rkey_wins().
 * Not <linux/min_heap.h>: between 6.1 and 6.12 it changed its heap type
 * (typed heaps), its callbacks (an args pointer) and every call, so a
 * compat shim for both would be longer than these three functions.
 */
struct pk_heap {
	const struct pk_rkey *key;
	u32 *slot;
	u32 n;
};

static void pk_heap_swap(struct pk_heap *h, u32 a, u32 b)
{
	swap(h->slot[a], h->slot[b]);
}

static void pk_heap_push(struct pk_heap *h, u32 k)
{
	u32 i = h->n++, parent;

	h->slot[i] = k;
	while (i) {
		parent = (i - 1) / 2;
		if (!pk_rkey_wins(&h->key[h->slot[i]],
				  &h->key[h->slot[parent]]))
			break;
		pk_heap_swap(h, i, parent);
		i = parent;
	}
}

static void pk_heap_pop(struct pk_heap *h)
{
	u32 i = 0, best, c;

	h->slot[0] = h->slot[--h->n];
	for (;;) {
		best = i;
		for (c = 2 * i + 1; c <= 2 * i + 2 && c < h->n; c++)
			if (pk_rkey_wins(&h->key[h->slot[c]],
					 &h->key[h->slot[best]]))
				best = c;
		if (best == i)
			return;
		pk_heap_swap(h, i, best);
		i = best;
	}
}

/* Append [start, end) of region @idx, merging with a neighbour of it. */
static void pk_piece_add(struct pk_regions *rs, u64 start, u64 end, u32 idx)
{
	u32 n = rs->nr_pieces;

	if (n && rs->piece[n - 1].region == idx &&
	    rs->piece[n - 1].end == start) {
		rs->piece[n - 1].end = end;
		return;
	}
	rs->start[n] = start;
	rs->piece[n].end = end;
	rs->piece[n].region = idx;
	rs->nr_pieces++;
}

/*
 * Resolve the regions of @rs into disjoint pieces. Between two successive
 * bounds of the regions, the point belongs to the region covering it with
 * the highest offset: the top of a heap of the regions that begin at or
 * below it, once those that end at or below it are dropped.
 */
static int pk_regions_resolve(struct pk_regions *rs)
{
	/* As the set: sized by the request, failure reported to it. */
	const gfp_t gfp = GFP_KERNEL_ACCOUNT | __GFP_NOWARN;
	struct pk_heap heap = {};
	struct pk_rkey *key;
	u32 i, j, k, n = 0, nb = 0;
	u64 *bound;
	int err = -ENOMEM;

	key = kvmalloc_array(rs->nr, sizeof(*key), gfp);
	bound = kvmalloc_array(2 * rs->nr, sizeof(*bound), gfp);
	heap.slot = kvmalloc_array(rs->nr, sizeof(*heap.slot), gfp);
	if (!key || !bound || !heap.slot)
		goto out;

	for (i = 0; i < rs->nr; i++) {
		const struct pk_region *r = &rs->region[i];
		u64 end;

		if (!pk_region_used(rs, r))
			continue;
		end = pk_region_end(r, rs->shift);
		if (end <= r->offset)
			continue;
		key[n] = (struct pk_rkey){ r->offset, end, i };
		bound[nb++] = r->offset;
		bound[nb++] = end;
		n++;
	}
	sort(key, n, sizeof(*key), pk_rkey_cmp, NULL);
	sort(bound, nb, sizeof(*bound), pk_u64_cmp, NULL);
	for (i = 0, k = 0; k < nb; k++)
		if (!i || bound[k] != bound[i - 1])
			bound[i++] = bound[k];
	nb = i;

	/* Every end is a bound: a top covers all of [bound[k], bound[k+1]). */
	heap.key = key;
	for (j = 0, k = 0; k + 1 < nb; k++) {
		while (j < n && key[j].offset <= bound[k])
			pk_heap_push(&heap, j++);
		while (heap.n && key[heap.slot[0]].end <= bound[k])
			pk_heap_pop(&heap);
		if (heap.n)
			pk_piece_add(rs, bound[k], bound[k + 1],
				     key[heap.slot[0]].idx);
	}
	err = 0;
out:
	kvfree(heap.slot);
	kvfree(bound);
	kvfree(key);
	return err;
}

/* Fill region @i of @rs; its counters are r->size over the width. */
static void pk_region_set(struct pk_regions *rs, u32 i, u64 buf, u64 size,
			  u64 offset, u32 scale)
{
	struct pk_region *r = &rs->region[i];

	r->buf = buf;
	r->size = size;
	r->offset = offset;
	r->scale = scale;
	r->nbins = size >> rs->shift;
}

/**
 * pk_regions_single() - the set of a profil() request
 * @buf: user address of the counters
 * @bufsiz: their size in bytes
 * @offset: lowest PC counted
 * @scale: 16.16 fixed-point scale, not 0
 * @counter: &enum profil_counter
 * @mode: &enum profil_mode
 *
 * Context: process context.
 * Return: a set with one reference, or an ERR_PTR().
 */
struct pk_regions *pk_regions_single(u64 buf, u64 bufsiz, u64 offset, u32 scale,
				     u32 counter, u32 mode)
{
	struct pk_regions *rs = pk_regions_alloc(1, counter, mode);
	int err;

	if (!rs)
		return ERR_PTR(-ENOMEM);
	rs->single = true;
	pk_region_set(rs, 0, buf, bufsiz, offset, scale);
	err = pk_regions_resolve(rs);
	if (err) {
		pk_regions_put(rs);
		return ERR_PTR(err);
	}
	return rs;
}

/* One PROFIL_ATTR_REGION nest into region @i of @rs. */
static int pk_region_from_nl(struct pk_regions *rs, u32 i,
			     const struct nlattr *nest,
			     struct netlink_ext_ack *extack)
{
	struct nlattr *tb[PROFIL_REGION_MAX + 1];
	u64 buf, size;
	int err;

	err = nla_parse_nested(tb, PROFIL_REGION_MAX, nest, pk_region_policy,
			       extack);
	if (err)
		return err;
	if (!tb[PROFIL_REGION_BUF] || !tb[PROFIL_REGION_SIZE] ||
	    !tb[PROFIL_REGION_OFFSET] || !tb[PROFIL_REGION_SCALE]) {
		NL_SET_ERR_MSG_ATTR(extack, nest,
				    "a region needs BUF, SIZE, OFFSET, SCALE");
		return -EINVAL;
	}
	buf = nla_get_u64(tb[PROFIL_REGION_BUF]);
	size = nla_get_u64(tb[PROFIL_REGION_SIZE]);
	if (size >> rs->shift == 0) {
		NL_SET_ERR_MSG_ATTR(extack, tb[PROFIL_REGION_SIZE],
				    "region smaller than one counter");
		return -EINVAL;
	}
	if (buf + size < buf || !access_ok(u64_to_user_ptr(buf), size)) {
		NL_SET_ERR_MSG_ATTR(extack, tb[PROFIL_REGION_BUF],
				    "region buffer is not in user space");
		return -EFAULT;
	}
	pk_region_set(rs, i, buf, size, nla_get_u64(tb[PROFIL_REGION_OFFSET]),
		      nla_get_u32(tb[PROFIL_REGION_SCALE]));
	if (rs->overflow < 0 && !rs->region[i].offset &&
	    rs->region[i].scale == 2)
		rs->overflow = i;
	return 0;
}

/**
 * pk_regions_from_nl() - build a set from a request's region nests
 * @head: the request's attributes
 * @len: their length
 * @old: a set whose regions come first (an extension), or NULL
 * @counter: &enum profil_counter
 * @mode: &enum profil_mode
 * @extack: where to say what is wrong
 *
 * Every %PROFIL_ATTR_REGION among @head is a region, in order; the policy
 * has checked each already.
 *
 * Context: process context.
 * Return: a set with one reference, or an ERR_PTR().
 */
struct pk_regions *pk_regions_from_nl(const struct nlattr *head, int len,
				      const struct pk_regions *old, u32 counter,
				      u32 mode, struct netlink_ext_ack *extack)
{
	u32 n = 0, i = old ? old->nr : 0;
	const struct nlattr *a;
	struct pk_regions *rs;
	int rem, err;

	nla_for_each_attr(a, head, len, rem)
		if (nla_type(a) == PROFIL_ATTR_REGION)
			n++;
	if (!n) {
		NL_SET_ERR_MSG_MOD(extack, "no region given");
		return ERR_PTR(-EINVAL);
	}
	if (n > PROFIL_REGIONS_MAX - i) {
		NL_SET_ERR_MSG_MOD(extack, "too many regions in the set");
		return ERR_PTR(-E2BIG);
	}
	rs = pk_regions_alloc(i + n, counter, mode);
	if (!rs) {
		NL_SET_ERR_MSG_MOD(extack, "no memory for the region set");
		return ERR_PTR(-ENOMEM);
	}
	if (old) {
		memcpy(rs->region, old->region, i * sizeof(*rs->region));
		rs->overflow = old->overflow;
	}
	nla_for_each_attr(a, head, len, rem) {
		if (nla_type(a) != PROFIL_ATTR_REGION)
			continue;
		err = pk_region_from_nl(rs, i++, a, extack);
		if (err)
			goto err_put;
	}
	err = pk_regions_resolve(rs);
	if (err) {
		NL_SET_ERR_MSG_MOD(extack, "no memory for the region set");
		goto err_put;
	}
	return rs;

err_put:
	pk_regions_put(rs);
	return ERR_PTR(err);
}

/**
 * pk_session_add_regions() - extend the set of an active session
 * @s: the session
 * @head: the request's attributes, with %PROFIL_ATTR_REGION nests
 * @len: their length
 * @extack: where to say what is wrong
 *
 * The new set, the old regions followed by the new ones, replaces the old
 * in one step. It keeps the generation: the old regions stay, so pending
 * writes into them are still good.
 *
 * Context: process context, may sleep.
 * Return: 0 or a negative errno.
 */
int pk_session_add_regions(struct pk_session *s, const struct nlattr *head,
			   int len, struct netlink_ext_ack *extack)
{
	struct pk_params *old, *params, new;
	struct pk_regions *rs;
	int err;

	err = mutex_lock_killable(&s->mutex);
	if (err)
		return err;
	old = rcu_dereference_protected(s->params, lockdep_is_held(&s->mutex));
	err = -ENOENT;
	if (!pk_session_is_active(s)) {
		NL_SET_ERR_MSG_MOD(extack, "process is not profiled");
		goto out_unlock;
	}
	err = -EINVAL;
	if (old->regions->single) {
		NL_SET_ERR_MSG_MOD(extack,
				   "the session was started without regions");
		goto out_unlock;
	}
	rs = pk_regions_from_nl(head, len, old->regions, old->regions->counter,
				old->regions->mode, extack);
	err = PTR_ERR_OR_ZERO(rs);
	if (err)
		goto out_unlock;
	new = *old;
	new.regions = rs;
	params = pk_params_dup(&new);
	pk_regions_put(rs);
	err = -ENOMEM;
	if (!params) {
		NL_SET_ERR_MSG_MOD(extack, "no memory for the parameters");
		goto out_unlock;
	}
	/* Deferred writes read the params under write_mutex. */
	mutex_lock(&s->write_mutex);
	rcu_assign_pointer(s->params, params);
	mutex_unlock(&s->write_mutex);
	synchronize_rcu();
	pk_params_free(old);
	err = 0;
out_unlock:
	mutex_unlock(&s->mutex);
	return err;
}
