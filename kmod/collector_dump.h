/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A collector's profile into GET_PROFILE dump messages (collector_dump.c).
 */
#ifndef _PK_COLLECTOR_DUMP_H
#define _PK_COLLECTOR_DUMP_H

#include <linux/types.h>

struct pk_collector;
struct sk_buff;

/* Where a GET_PROFILE dump is: pk_collector_fill(). */
enum pk_fill_phase {
	PK_FILL_IMAGES,
	PK_FILL_OBJECTS,
	PK_FILL_SAMPLES,
	PK_FILL_STATS,
	PK_FILL_DONE,
};

/**
 * struct pk_fill_cursor - where a GET_PROFILE dump is
 * @phase: enum pk_fill_phase
 * @pos: the index in that phase's table
 * @images, @objects: how many of each the dump sent: its samples name no
 *	other
 */
struct pk_fill_cursor {
	unsigned long phase;
	unsigned long pos;
	u32 images;
	u32 objects;
};

int pk_collector_fill(struct sk_buff *skb, struct pk_collector *c,
		      struct pk_fill_cursor *cur);

#endif /* _PK_COLLECTOR_DUMP_H */
