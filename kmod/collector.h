/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Collectors (collector.c): profiles the kernel holds for a netlink
 * socket, filled by kernel-held sessions (PROFIL_KIND_HELD) and read
 * with PROFIL_CMD_GET_PROFILE.
 *
 * A kernel-held session's tick records the user PC only, as a pending
 * entry of its thread (sampler.c); on the thread's return to user mode
 * pk_collect_pc() finds the mapping that holds it and adds the tick to
 * the (image, object, offset) entry of the session's collector.
 */
#ifndef _PK_COLLECTOR_H
#define _PK_COLLECTOR_H

#include <linux/types.h>
#include <linux/profil.h>

struct net;
struct sk_buff;
struct pk_collector;
struct pk_session;
struct task_struct;

/* What became of a tick pk_collect_pc() was given. */
enum pk_collect {
	PK_COLLECT_ADDED, /* in the profile */
	PK_COLLECT_OUTSIDE, /* the PC is in no mapping */
	PK_COLLECT_GONE, /* the address space is gone (exit, exec) */
	PK_COLLECT_BUSY, /* its mapping lock is held for writing */
	PK_COLLECT_FULL, /* no room in the profile */
};

/* Where a GET_PROFILE dump is: pk_collector_fill(). */
enum pk_fill_phase {
	PK_FILL_IMAGES,
	PK_FILL_OBJECTS,
	PK_FILL_SAMPLES,
	PK_FILL_STATS,
	PK_FILL_DONE,
};

struct pk_collector *pk_collector_get_or_create(struct net *net, u32 portid,
						u32 images_max,
						u32 samples_max);
void pk_collector_get(struct pk_collector *c);
void pk_collector_put(struct pk_collector *c);
struct pk_collector *pk_collector_find(struct net *net, u32 portid);
bool pk_collector_closed(struct pk_collector *c);

u32 pk_collector_image_add(struct pk_collector *c, struct pk_session *s,
			   struct task_struct *leader, u32 parent);
bool pk_collector_image_publish(struct pk_collector *c, u32 image,
				struct pk_session *s);
void pk_collector_image_end(struct pk_collector *c, u32 image, int reason,
			    struct task_struct *task);
void pk_collector_image_final(struct pk_collector *c, u32 image,
			      const u64 *stats);
enum pk_collect pk_collect_pc(struct pk_session *s, u64 pc, u32 count);

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
int pk_collectors_init(void);
void pk_collectors_stop(void);
void pk_collectors_exit(void);

#endif /* _PK_COLLECTOR_H */
