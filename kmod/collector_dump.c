// SPDX-License-Identifier: GPL-2.0
/*
 * GET_PROFILE's messages: a collector's images, objects and samples, and
 * the profile's own counts, as many as fit in each part of the dump.
 * The tables are read as collector.c's comment says: images under the
 * collector's lock, objects and samples without it, after their
 * publication.
 */
#include <net/netlink.h>

#include "collector.h"
#include "collector_dump.h"
#include "session.h"

static int pk_put_stats(struct sk_buff *skb, int type, const u64 *stats,
			int first, int last, int pad)
{
	struct nlattr *nest = nla_nest_start(skb, type);
	int i;

	if (!nest)
		return -EMSGSIZE;
	for (i = first; i <= last; i++) {
		if (nla_put_u64_64bit(skb, i, stats[i], pad)) {
			nla_nest_cancel(skb, nest);
			return -EMSGSIZE;
		}
	}
	nla_nest_end(skb, nest);
	return 0;
}

static int pk_put_image(struct sk_buff *skb, struct pk_collector *c, u32 i)
{
	u64 stats[PROFIL_STAT_MAX + 1] = {};
	struct pk_session *s = NULL;
	struct pk_image img;
	struct nlattr *nest;
	int k;

	raw_spin_lock(&c->lock);
	img = c->images[i];
	if (!img.final && img.session && pk_session_tryget(img.session))
		s = img.session;
	raw_spin_unlock(&c->lock);
	if (s) {
		pk_session_stats(s, stats);
		pk_session_put(s);
	} else if (img.final || c->scope != PROFIL_SCOPE_PROCESS) {
		/* Final (else zero), or a machine-wide image's own. */
		for (k = 0; k <= PROFIL_STAT_MAX; k++)
			stats[k] = atomic64_read(&c->images[i].stats[k]);
	}
	/* Machine-wide, each sample is counted in its result alone. */
	if (c->scope != PROFIL_SCOPE_PROCESS)
		stats[PROFIL_STAT_TICKS] = stats[PROFIL_STAT_IN_RANGE] +
					   stats[PROFIL_STAT_OUT_OF_RANGE] +
					   stats[PROFIL_STAT_DISCARDED];

	nest = nla_nest_start(skb, PROFIL_ATTR_IMAGE);
	if (!nest)
		return -EMSGSIZE;
	if (nla_put_u32(skb, PROFIL_IMAGE_ID, i + 1) ||
	    nla_put_u32(skb, PROFIL_IMAGE_PARENT, img.parent) ||
	    nla_put_u32(skb, PROFIL_IMAGE_PID, img.pid) ||
	    nla_put_string(skb, PROFIL_IMAGE_COMM, img.comm) ||
	    nla_put_u32(skb, PROFIL_IMAGE_EXE, img.exe) ||
	    nla_put_u32(skb, PROFIL_IMAGE_REASON, img.reason) ||
	    nla_put_u64_64bit(skb, PROFIL_IMAGE_CGROUP, img.cgroup,
			      PROFIL_IMAGE_PAD) ||
	    pk_put_stats(skb, PROFIL_IMAGE_STATS, stats, PROFIL_STAT_TICKS,
			 PROFIL_STAT_MAX, PROFIL_STAT_PAD)) {
		nla_nest_cancel(skb, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(skb, nest);
	return 0;
}

static int pk_put_object(struct sk_buff *skb, struct pk_collector *c, u32 i)
{
	const struct pk_object *o = &c->objects[i];
	struct nlattr *nest = nla_nest_start(skb, PROFIL_ATTR_OBJECT);

	if (!nest)
		return -EMSGSIZE;
	/* Objects never change once added: no lock to read one. */
	if (nla_put_u32(skb, PROFIL_OBJECT_ID, i + 1) ||
	    nla_put_u32(skb, PROFIL_OBJECT_KIND, o->kind) ||
	    nla_put_u32(skb, PROFIL_OBJECT_DEV, o->dev) ||
	    nla_put_u64_64bit(skb, PROFIL_OBJECT_INO, o->ino,
			      PROFIL_OBJECT_PAD) ||
	    nla_put_u32(skb, PROFIL_OBJECT_GENERATION, o->generation) ||
	    nla_put_u64_64bit(skb, PROFIL_OBJECT_CTIME, o->ctime,
			      PROFIL_OBJECT_PAD) ||
	    nla_put_string(skb, PROFIL_OBJECT_PATH, c->names + o->name)) {
		nla_nest_cancel(skb, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(skb, nest);
	return 0;
}

/*
 * One PROFIL_ATTR_SAMPLES of the used entries from slot @cur->pos on, as
 * many as fit, leaving out those of images and objects the dump sent
 * none of (added after their phase: the next read has them); @cur->pos
 * moves past the slots read. Return: 0, or -EMSGSIZE if none fits.
 */
static int pk_put_samples(struct sk_buff *skb, struct pk_collector *c,
			  struct pk_fill_cursor *cur)
{
	/* The attribute's header, and its padding to 4 bytes. */
	int room = skb_tailroom(skb) - nla_total_size(0) - NLA_ALIGNTO;
	u32 max = room > 0 ? room / sizeof(struct profil_sample) : 0;
	struct profil_sample *out;
	struct nlattr *attr;
	unsigned long i;
	u32 n = 0, image;

	if (!max)
		return -EMSGSIZE;
	attr = nla_reserve(skb, PROFIL_ATTR_SAMPLES, max * sizeof(*out));
	if (!attr)
		return -EMSGSIZE;
	out = nla_data(attr);
	for (i = cur->pos; i <= c->sample_mask && n < max; i++) {
		const struct pk_sample *e = &c->samples[i];

		/* Pairs with pk_sample_add()'s release: fields after image. */
		image = smp_load_acquire(&e->image);
		if (!image || image > cur->images || e->object > cur->objects)
			continue;
		out[n].image = image;
		out[n].object = e->object;
		out[n].offset = e->offset;
		out[n].count = atomic64_read(&e->count);
		n++;
	}
	cur->pos = i;
	/* Give back what was reserved and not used. */
	nlmsg_trim(skb, (char *)attr + nla_total_size(n * sizeof(*out)));
	attr->nla_len = nla_attr_size(n * sizeof(*out));
	return 0;
}

static int pk_put_profile_stats(struct sk_buff *skb, struct pk_collector *c)
{
	u64 stats[PROFIL_PROFILE_MAX + 1] = {};

	raw_spin_lock(&c->lock);
	stats[PROFIL_PROFILE_IMAGES] = c->nr_images;
	stats[PROFIL_PROFILE_IMAGES_LOST] = c->images_lost;
	stats[PROFIL_PROFILE_OBJECTS] = c->nr_objects;
	stats[PROFIL_PROFILE_SAMPLES] = c->nr_samples;
	stats[PROFIL_PROFILE_BYTES] = c->bytes;
	raw_spin_unlock(&c->lock);
	stats[PROFIL_PROFILE_SAMPLES_LOST] = atomic64_read(&c->samples_lost);
	return pk_put_stats(skb, PROFIL_ATTR_PROFILE_STATS, stats,
			    PROFIL_PROFILE_IMAGES, PROFIL_PROFILE_MAX,
			    PROFIL_PROFILE_PAD);
}

/* How many images, or objects, the profile has now. */
static u32 pk_count(struct pk_collector *c, const u32 *n)
{
	u32 ret;

	raw_spin_lock(&c->lock);
	ret = *n;
	raw_spin_unlock(&c->lock);
	return ret;
}

/**
 * pk_collector_fill() - put the next part of a profile in a dump message
 * @skb: the message, its header put
 * @c: the collector
 * @cur: where the dump is
 *
 * Images first, then objects, then the samples, then the profile's own
 * counts. A sample is sent only if its image and object were: those
 * added during the dump wait for the next one.
 *
 * Context: process context.
 * Return: 0 when something was put (the dump goes on while @cur->phase
 * is not PK_FILL_DONE), or -EMSGSIZE when nothing fitted.
 */
int pk_collector_fill(struct sk_buff *skb, struct pk_collector *c,
		      struct pk_fill_cursor *cur)
{
	bool put = false;
	int err = 0;

	while (cur->phase != PK_FILL_DONE) {
		switch (cur->phase) {
		case PK_FILL_IMAGES:
			cur->images = pk_count(c, &c->nr_images);
			if (cur->pos < cur->images) {
				err = pk_put_image(skb, c, cur->pos);
				break;
			}
			goto next;
		case PK_FILL_OBJECTS:
			cur->objects = pk_count(c, &c->nr_objects);
			if (cur->pos < cur->objects) {
				err = pk_put_object(skb, c, cur->pos);
				break;
			}
			goto next;
		case PK_FILL_SAMPLES:
			if (cur->pos <= c->sample_mask) {
				err = pk_put_samples(skb, c, cur);
				if (!err)
					put = true;
				if (!err && cur->pos <= c->sample_mask)
					return 0; /* the message is full */
				if (err)
					break;
			}
			goto next;
		case PK_FILL_STATS:
			err = pk_put_profile_stats(skb, c);
			if (err)
				break;
			put = true;
			goto next;
		}
		if (err)
			break;
		put = true;
		cur->pos++;
		continue;
next:
		cur->phase++;
		cur->pos = 0;
	}
	return err && !put ? err : 0;
}
