/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Collectors (collector.c): profiles the kernel holds for a netlink
 * socket, filled by kernel-held sessions (PROFIL_KIND_HELD) or by the
 * machine-wide sampler (machine.c), and read with PROFIL_CMD_GET_PROFILE.
 *
 * A kernel-held session's tick records the user PC only, as a pending
 * entry of its thread (sampler.c); on the thread's return to user mode
 * pk_collect_pc() finds the mapping that holds it and adds the tick to
 * the (image, object, offset) entry of the session's collector. A
 * machine-wide tick does the same through pk_machine_image_collect(), which
 * also finds, or makes, the image of the process.
 */
#ifndef _PK_COLLECTOR_H
#define _PK_COLLECTOR_H

#include <linux/atomic.h>
#include <linux/cgroup.h>
#include <linux/kref.h>
#include <linux/list.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/sched.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/profil.h>

struct cgroup;
struct net;
struct sk_buff;
struct pk_collector;
struct pk_session;
struct task_struct;

/*
 * The profile's tables, owned by collector.c; collector_dump.c reads
 * them for GET_PROFILE.
 */
/**
 * struct pk_image - one process image of a profile
 * @session: its session while that exists (unreferenced: the session
 *	clears it, under the collector's lock, before it is freed); none in
 *	a machine-wide profile
 * @key: machine-wide: the process's tgid in the initial PID namespace,
 *	the image index's key
 * @start: machine-wide: when its process started (the group leader's
 *	start_boottime, which an exec keeps), to tell a reused pid's
 *	process from the one the image was
 * @pid: in the collector's PID namespace
 * @parent: the image it came from, 0 for one the collector named
 * @exe: its executable's object, 0 if unknown
 * @reason: enum profil_stop_reason, PROFIL_STOP_NONE while followed
 *	(written under the collector's lock, read with READ_ONCE() too)
 * @final: @stats hold its session's last accounting
 * @comm: its command name, at its end
 * @cgroup: the id of its process's cgroup v2 when it began
 * @stats: indexed by enum profil_stat: a session's final accounting, or
 *	a machine-wide image's own, added to from any CPU
 */
struct pk_image {
	struct pk_session *session;
	pid_t key;
	u32 pid;
	u64 start;
	u32 parent;
	u32 exe;
	int reason;
	bool final;
	char comm[TASK_COMM_LEN];
	u64 cgroup;
	atomic64_t stats[PROFIL_STAT_MAX + 1];
};

/* One object; @name is the offset of its NUL-terminated path in names. */
struct pk_object {
	u64 ino;
	u64 ctime;
	u32 dev;
	u32 generation;
	u32 kind;
	u32 name;
};

/* One sample entry; @image 0 marks it free. */
struct pk_sample {
	u32 image;
	u32 object;
	u64 offset;
	atomic64_t count;
};

/**
 * struct pk_collector - the profile of one netlink socket
 * @node: in pk_collectors, under pk_collectors_mutex, until closed
 * @net: the socket's network namespace (not referenced: only compared)
 * @portid: the socket's port id
 * @pidns: the PID namespace pids are reported in, the requester's
 * @scope: enum profil_scope; set at the making, before any session
 * @cgroup: for PROFIL_SCOPE_CGROUP, the cgroup whose threads count
 *	(referenced), else NULL; set at the making, read in the tick
 * @period: machine-wide: the sampling period in ns of CPU time, set
 *	before the profile is published to the tick
 * @flags: machine-wide: PROFIL_F_*, likewise
 * @generation: machine-wide: which profile this is since the module was
 *	loaded, likewise
 * @pins_module: machine-wide: its claim took a module reference, which
 *	the profile keeps until it is freed, after the last sample queued
 *	into it (pk_machine_claim())
 * @ref: the list, each session's parameters, each dump hold one
 * @lock: protects the additions below, @closed and the images' fields;
 *	lookups of objects and samples take it only to add
 * @closed: the socket is gone; nothing is followed any more (written
 *	under @lock, read with READ_ONCE() too)
 * @images: the image table, @images_max entries
 * @nr_images: images in it, ids 1 to @nr_images
 * @images_max: its size
 * @images_lost: processes not followed for want of room; machine-wide,
 *	samples whose process found no room for its image
 * @samples_lost: machine-wide: samples dropped before their attribution
 *	(atomic: from the tick and from any CPU's attribution)
 * @image_index: machine-wide: image ids by @key, open addressing, never
 *	removed from; published as the object index is
 * @image_mask: @image_index's size - 1
 * @objects: the object table, PK_OBJECTS_MAX entries
 * @nr_objects: objects in it, ids 1 to @nr_objects
 * @object_index: object ids by (dev, ino), open addressing
 * @object_mask: @object_index's size - 1
 * @names: the objects' paths, PK_NAMES_BYTES
 * @names_used: bytes of @names taken
 * @path_mutex: serialises the use of @path, taken under mmap_lock
 * @path: a PATH_MAX buffer for d_path(), allocated with the profile so
 *	that nothing is allocated under mmap_lock
 * @samples: the sample table, open addressing
 * @sample_mask: its size - 1
 * @nr_samples: entries used
 * @samples_max: the most entries used
 * @bytes: what the tables take
 */
struct pk_collector {
	struct list_head node;
	struct net *net;
	u32 portid;
	struct pid_namespace *pidns;
	int scope;
	struct cgroup *cgroup;
	u32 period;
	u32 flags;
	u64 generation;
	bool pins_module;
	struct kref ref;
	raw_spinlock_t lock; /* additions, from any context but the tick */
	bool closed;
	struct pk_image *images;
	u32 nr_images;
	u32 images_max;
	u64 images_lost;
	atomic64_t samples_lost;
	u32 *image_index;
	u32 image_mask;
	struct pk_object *objects;
	u32 nr_objects;
	u32 *object_index;
	u32 object_mask;
	char *names;
	u32 names_used;
	struct mutex path_mutex; /* @path, under mmap_lock */
	char *path;
	struct pk_sample *samples;
	u32 sample_mask;
	u32 nr_samples;
	u32 samples_max;
	size_t bytes;
};

/* What became of a tick pk_collect_pc() was given. */
enum pk_collect {
	PK_COLLECT_ADDED, /* in the profile */
	PK_COLLECT_OUTSIDE, /* the PC is in no mapping */
	PK_COLLECT_GONE, /* the address space is gone (exit, exec) */
	PK_COLLECT_BUSY, /* its mapping lock is held for writing */
	PK_COLLECT_FULL, /* no room in the profile */
};

/* What a collector follows, and how large its tables are. */
struct pk_collector_spec {
	u32 images_max;
	u32 samples_max;
	int scope; /* enum profil_scope */
	struct cgroup *cgroup; /* PROFIL_SCOPE_CGROUP: the collector's */
};

struct pk_collector *pk_collector_get_or_create(struct net *net, u32 portid,
						struct pk_collector_spec *spec);

/* Inline: the machine-wide tick takes one for each sample it queues. */
static inline void pk_collector_get(struct pk_collector *c)
{
	kref_get(&c->ref);
}

void pk_collector_put(struct pk_collector *c);

/**
 * pk_collector_closed() - whether @c's socket is gone
 * @c: the collector
 *
 * Context: any; a plain read of a flag set once (the machine-wide tick
 * reads it in hard interrupt context, and every sample's attribution).
 */
static inline bool pk_collector_closed(const struct pk_collector *c)
{
	return READ_ONCE(c->closed);
}

struct pk_collector *pk_collector_find(struct net *net, u32 portid);
void pk_collector_discard(struct pk_collector *c);

u32 pk_collector_image_next(struct pk_collector *c, const struct pk_image *img,
			    const char *comm);
u32 pk_collector_image_add(struct pk_collector *c, struct pk_session *s,
			   struct task_struct *leader, u32 parent);
bool pk_collector_image_publish(struct pk_collector *c, u32 image,
				struct pk_session *s);
void pk_collector_image_end(struct pk_collector *c, u32 image, int reason,
			    struct task_struct *task);
void pk_collector_image_final(struct pk_collector *c, u32 image,
			      const u64 *stats);
enum pk_collect pk_collect_pc(struct pk_session *s, u64 pc, u32 count);

/* For the machine-wide profile's images (machine_image.c). */
struct vm_area_struct;
u32 pk_object_of(struct pk_collector *c, struct vm_area_struct *vma);
bool pk_sample_add(struct pk_collector *c, u32 image, u32 object, u64 offset,
		   u32 count);
bool pk_sample_add_existing(struct pk_collector *c, u32 image, u32 object,
			    u64 offset, u32 count);

/**
 * pk_vma_offset() - the offset of a user PC in its object
 * @vma: the mapping that holds it
 * @pc: the user PC
 *
 * Inline: every sample's attribution takes it.
 *
 * Return: a file offset in a file, the offset from the start of a special
 * mapping (the vDSO), the address itself in anonymous memory.
 */
static inline u64 pk_vma_offset(const struct vm_area_struct *vma, u64 pc)
{
	if (vma->vm_file)
		return pc - vma->vm_start + ((u64)vma->vm_pgoff << PAGE_SHIFT);
	if (vma->vm_ops && vma->vm_ops->name)
		return pc - vma->vm_start;
	return pc;
}

int pk_collectors_init(void);
void pk_collectors_stop(void);
void pk_collectors_exit(void);

#endif /* _PK_COLLECTOR_H */
