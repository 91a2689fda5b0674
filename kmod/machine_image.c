// SPDX-License-Identifier: GPL-2.0
/*
 * The machine-wide profile's images.
 *
 * No process has a session in a machine-wide profile. Its image is made
 * when the first of its samples is attributed, on the sampled thread's
 * return to user mode (pk_machine_image_collect()), and ended by the exec
 * and exit probes (pk_machine_image_end()), which find it by the
 * process's tgid. A process no tick reaches costs the profile two
 * look-ups, at its exec and at its exit, and no memory.
 *
 * The image index maps a tgid in the initial PID namespace to image ids,
 * by open addressing, and is never removed from: an ended image stays in
 * its probe sequence, and a tgid has at most one live image (an exec ends
 * the old one before the new one's first sample). The index has twice
 * the slots of the image table, so a probe always ends at a free slot.
 * Slots are claimed under the collector's lock and read without it,
 * as the object index is.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cgroup.h>
#include <linux/fs.h>
#include <linux/hash.h>
#include <linux/irqflags.h>
#include <linux/kdev_t.h>
#include <linux/log2.h>
#include <linux/mm.h>
#include <linux/mmap_lock.h>
#include <linux/percpu.h>
#include <linux/pid_namespace.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/string.h>

#include "collector.h"
#include "compat.h"
#include "machine_image.h"

/*
 * The live image of the process @key, or 0; @slot: where the search
 * ended, the free slot for an insertion. @exec_parent, unless NULL: the
 * image of @key's previous program, if the latest image of @key ended at
 * an exec (one that ended at an exit was an earlier process's, whose pid
 * was reused), which needs the whole probe sequence. Without c->lock.
 */
static u32 pk_image_find(struct pk_collector *c, pid_t key, u32 *slot,
			 u32 *exec_parent)
{
	u32 i = hash_32(key, ilog2(c->image_mask + 1)), id, live = 0,
	    latest = 0;
	const struct pk_image *img;

	for (;; i++) {
		i &= c->image_mask;
		/* Pairs with pk_image_make()'s release: the image, then its id. */
		id = smp_load_acquire(&c->image_index[i]);
		if (!id)
			break;
		img = &c->images[id - 1];
		if (img->key != key)
			continue;
		if (READ_ONCE(img->reason) == PROFIL_STOP_NONE)
			live = id;
		latest = max(latest, id);
		if (live && !exec_parent)
			break;
	}
	if (exec_parent && latest && latest != live &&
	    READ_ONCE(c->images[latest - 1].reason) == PROFIL_STOP_EXEC)
		*exec_parent = latest;
	*slot = i;
	return live;
}

/*
 * The image that current's process came from: the one its previous
 * program had (the same process: started when it was, which a reused
 * pid's was not), else its parent process's live one, else 0.
 */
static u32 pk_image_parent(struct pk_collector *c, pid_t key, u64 start)
{
	u32 parent = 0, slot;
	pid_t ppid;

	pk_image_find(c, key, &slot, &parent);
	if (parent && c->images[parent - 1].start == start)
		return parent;
	rcu_read_lock();
	ppid = task_tgid_nr(rcu_dereference(current->real_parent));
	rcu_read_unlock();
	return pk_image_find(c, ppid, &slot, NULL);
}

/*
 * Make the image of current's process, @key, whose address space @mm is
 * locked for reading, unless another of its threads just did.
 * Return: its id, or 0 if the profile is closed or has no room.
 */
static u32 pk_image_make(struct pk_collector *c, pid_t key,
			 struct mm_struct *mm)
{
	struct pk_image img = {
		.key = key,
		.start = current->group_leader->start_boottime,
	};
	char comm[TASK_COMM_LEN];
	struct vm_area_struct *vma;
	u32 id, slot;

	/*
	 * Full: no image, and none of the work (nor an object that only
	 * its executable would have taken). The count is read without the
	 * lock: a sample that comes as the table fills does the work.
	 */
	if (READ_ONCE(c->nr_images) >= c->images_max) {
		raw_spin_lock(&c->lock);
		c->images_lost++;
		raw_spin_unlock(&c->lock);
		return 0;
	}
	/* The executable: the file whose text the ELF loader put there. */
	vma = vma_lookup(mm, mm->start_code);
	if (vma && vma->vm_file)
		img.exe = pk_object_of(c, vma);
	get_task_comm(comm, current);
	img.pid = task_tgid_nr_ns(current, c->pidns);
	rcu_read_lock();
	img.cgroup = cgroup_id(task_dfl_cgroup(current));
	rcu_read_unlock();
	img.parent = pk_image_parent(c, key, img.start);

	raw_spin_lock(&c->lock);
	/* Under the lock no other insertion runs: a free slot stays free. */
	id = pk_image_find(c, key, &slot, NULL);
	if (id || c->closed)
		goto unlock;
	id = pk_collector_image_next(c, &img, comm);
	if (id) /* Publish: the image before its id (pk_image_find()). */
		smp_store_release(&c->image_index[slot], id);
unlock:
	raw_spin_unlock(&c->lock);
	return id;
}

/* Whether the image @id is still process @key's live one. Lockless. */
static bool pk_image_live(const struct pk_collector *c, pid_t key, u32 id)
{
	const struct pk_image *img = &c->images[id - 1];

	return img->key == key && READ_ONCE(img->reason) == PROFIL_STOP_NONE;
}

/* Whether the hint @h names process @key's live image. Lockless. */
static bool pk_hint_image_live(const struct pk_collector *c, pid_t key,
			       const struct pk_image_hint *h)
{
	return h->generation == c->generation && h->key == key && h->image &&
	       pk_image_live(c, key, h->image);
}

/* The live image of process @key, from the hint @h if it still holds. */
static u32 pk_image_hinted(struct pk_collector *c, pid_t key,
			   const struct pk_image_hint *h)
{
	u32 slot;

	if (pk_hint_image_live(c, key, h))
		return h->image;
	return pk_image_find(c, key, &slot, NULL);
}

/*
 * Whether @vma maps @h's object: a file of the identity @h keeps, not
 * pointers a freed file or inode could leave to another. Inline: every
 * sample compares. Context: @vma's mm locked for reading.
 */
static __always_inline bool
pk_object_hinted_is(const struct pk_image_hint *h,
		    const struct vm_area_struct *vma)
{
	const struct inode *inode;
	struct timespec64 ctime;

	if (!vma->vm_file || !h->file)
		return false;
	inode = file_inode(vma->vm_file);
	ctime = pk_inode_ctime(inode);
	return inode->i_ino == h->ino && inode->i_sb->s_dev == h->sdev &&
	       inode->i_generation == h->igen &&
	       timespec64_equal(&ctime, &h->ctime);
}

/*
 * The object of @vma, from the hint @h if it still holds; @h keeps its
 * identity, if a file's.
 * Context: as pk_object_of().
 */
static u32 pk_object_hinted(struct pk_collector *c, struct vm_area_struct *vma,
			    struct pk_image_hint *h)
{
	const struct inode *inode;

	if (pk_object_hinted_is(h, vma))
		return h->object;
	h->object = pk_object_of(c, vma);
	/* The identity goes with the object: none, if not a file's. */
	h->file = h->object && vma->vm_file;
	if (h->file) {
		inode = file_inode(vma->vm_file);
		h->ino = inode->i_ino;
		h->sdev = inode->i_sb->s_dev;
		h->igen = inode->i_generation;
		h->ctime = pk_inode_ctime(inode);
	}
	return h->object;
}

/*
 * Whether @pc is in the mapping @h found, unchanged since: @h is of @mm
 * and of the image @image, and the kernel's count of @mm's mapping
 * changes is where it was then, no writer holding mmap_lock now.
 */
static bool pk_mapping_hinted(const struct pk_image_hint *h,
			      struct mm_struct *mm, u32 image, u64 pc)
{
	u32 seq;

	return h->end && h->mm == mm && h->image == image &&
	       pc - h->start < h->end - h->start && pk_mm_seq(mm, &seq) &&
	       seq == h->mm_seq;
}

/*
 * Keep in @h the mapping @vma of @mm and its @bias; its range only where
 * the kernel counts mapping changes (pk_mapping_hinted()). Caller holds
 * @mm's mmap_lock for reading: the count is stable, no writer can hold it.
 */
static void pk_hint_mapping(struct pk_image_hint *h, struct mm_struct *mm,
			    const struct vm_area_struct *vma, u64 bias)
{
	h->bias = bias;
	h->end = 0;
	if (pk_mm_seq(mm, &h->mm_seq)) {
		h->mm = mm;
		h->start = vma->vm_start;
		h->end = vma->vm_end;
	}
}

/*
 * Find the mapping of @pc and its object, into @h. Caller holds @mm's
 * mmap_lock for reading.
 * Return: PROFIL_STAT_IN_RANGE (found: @h's object and bias are @pc's),
 * PROFIL_STAT_OUT_OF_RANGE (in no mapping) or PROFIL_STAT_PROFILE_FULL
 * (no room for its object).
 */
static enum profil_stat pk_mapping_find(struct pk_collector *c,
					struct mm_struct *mm, u64 pc,
					struct pk_image_hint *h)
{
	struct vm_area_struct *vma = vma_lookup(mm, pc);

	h->end = 0;
	if (!vma)
		return PROFIL_STAT_OUT_OF_RANGE;
	h->object = pk_object_hinted(c, vma, h);
	if (!h->object)
		return PROFIL_STAT_PROFILE_FULL;
	pk_hint_mapping(h, mm, vma, pc - pk_vma_offset(vma, pc));
	return PROFIL_STAT_IN_RANGE;
}

static void pk_image_add(struct pk_collector *c, u32 image, enum profil_stat i,
			 u64 n)
{
	if (n)
		atomic64_add(n, &c->images[image - 1].stats[i]);
}

/*
 * Count a sample whose attribution came to @result in @image: at
 * (@object, @offset) if IN_RANGE, with the periods it stands for. Inline
 * in both of pk_machine_image_collect()'s paths.
 */
static __always_inline void pk_image_count(struct pk_collector *c, u32 image,
					   enum profil_stat result, u32 object,
					   u64 offset, u32 missed, bool system)
{
	if (result == PROFIL_STAT_IN_RANGE &&
	    !pk_sample_add(c, image, object, offset, 1))
		result = PROFIL_STAT_PROFILE_FULL;
	/* Why a tick was discarded counts beside it. */
	if (result == PROFIL_STAT_MMAP_BUSY ||
	    result == PROFIL_STAT_PROFILE_FULL) {
		pk_image_add(c, image, result, 1);
		result = PROFIL_STAT_DISCARDED;
	}
	/* TICKS is the sum of the results: collector_dump.c adds it up. */
	pk_image_add(c, image, PROFIL_STAT_MISSED, missed);
	pk_image_add(c, image, PROFIL_STAT_SYSTEM_CHARGED, system);
	pk_image_add(c, image, result, 1);
}

/*
 * The common case of pk_machine_image_collect(), with the CPU's hint read
 * and written in place: the hint names the live image of current's
 * process, and @pc is in the hinted mapping (where the kernel counts
 * mapping changes) or in a mapping of the hinted object. Preemption stays
 * off throughout, so that no other attribution on this CPU rewrites the
 * hint meanwhile; nothing here sleeps (mmap_read_trylock(), vma_lookup()
 * and pk_sample_add() do not). The fields the tick reads are written
 * with interrupts off, where a tick reads them.
 * Return: whether the sample was counted; if not, nothing was.
 */
static bool pk_image_collect_hinted(struct pk_collector *c,
				    struct mm_struct *mm, pid_t key, u64 pc,
				    u32 missed, bool system,
				    struct pk_image_hints __percpu *hints)
{
	struct vm_area_struct *vma;
	struct pk_image_hint *h;
	bool counted = false;
	unsigned long flags;
	u64 offset;

	preempt_disable();
	h = this_cpu_ptr(&hints->by_key[key & (PK_IMAGE_HINTS - 1)]);
	if (!pk_hint_image_live(c, key, h))
		goto out;
	if (pk_mapping_hinted(h, mm, h->image, pc)) {
		offset = pc - h->bias;
	} else {
		if (!mmap_read_trylock(mm))
			goto out;
		vma = vma_lookup(mm, pc);
		if (!vma || !pk_object_hinted_is(h, vma)) {
			mmap_read_unlock(mm);
			goto out;
		}
		offset = pk_vma_offset(vma, pc);
		if (PK_MM_SEQ_COUNTS) {
			/* Whole, for pk_machine_image_tick() on this CPU. */
			local_irq_save(flags);
			pk_hint_mapping(h, mm, vma, pc - offset);
			local_irq_restore(flags);
		}
		mmap_read_unlock(mm);
	}
	pk_image_count(c, h->image, PROFIL_STAT_IN_RANGE, h->object, offset,
		       missed, system);
	counted = true;
out:
	preempt_enable();
	return counted;
}

/**
 * pk_machine_image_collect() - attribute one machine-wide sample
 * @c: the machine-wide profile
 * @pc: the user PC the tick found
 * @missed: the sampling periods the tick came too late for
 * @system: the tick was in the kernel, and @pc where current entered it
 * @hints: the per-CPU hints (struct pk_image_hints)
 *
 * Into current's process's image, made if it has none. As for
 * pk_collect_pc(), the mapping that holds @pc now is the one that held it
 * at the tick; the caller checked that current->mm is the address space
 * the tick saw. While the hint's mapping holds (pk_mapping_hinted()), no
 * mapping changed since it was found, and the sample needs no mmap_lock.
 * A sample of the hinted image and object, the common case, is counted
 * with the hint in place (pk_image_collect_hinted()); any other takes a
 * copy of it, and may sleep to make an image or an object.
 *
 * Context: process context, task_work of the sampled thread, which has
 * an address space.
 */
void pk_machine_image_collect(struct pk_collector *c, u64 pc, u32 missed,
			      bool system,
			      struct pk_image_hints __percpu *hints)
{
	struct mm_struct *mm = current->mm;
	pid_t key = task_tgid_nr(current);
	struct pk_image_hint __percpu *hp =
		&hints->by_key[key & (PK_IMAGE_HINTS - 1)];
	/* Copied whole before it is read: no use zeroing it first. */
	struct pk_image_hint h __uninitialized;
	enum profil_stat result;
	unsigned long flags;
	u32 image;

	if (pk_image_collect_hinted(c, mm, key, pc, missed, system, hints))
		return;
	h = *get_cpu_ptr(hp);
	put_cpu_ptr(hp);
	if (h.generation != c->generation)
		h = (struct pk_image_hint){ .generation = c->generation };
	image = pk_image_hinted(c, key, &h);
	if (image && pk_mapping_hinted(&h, mm, image, pc)) {
		result = PROFIL_STAT_IN_RANGE;
	} else if (mmap_read_trylock(mm)) {
		if (!image)
			image = pk_image_make(c, key, mm);
		if (image) {
			h.key = key;
			h.image = image;
			result = pk_mapping_find(c, mm, pc, &h);
		}
		mmap_read_unlock(mm);
		if (image && PK_MM_SEQ_COUNTS) {
			/* Whole, for pk_machine_image_tick() on this CPU. */
			local_irq_save(flags);
			*this_cpu_ptr(hp) = h;
			local_irq_restore(flags);
		} else if (image) {
			/* No tick reads it: preemption off will do. */
			*get_cpu_ptr(hp) = h;
			put_cpu_ptr(hp);
		}
	} else {
		result = PROFIL_STAT_MMAP_BUSY;
	}
	if (!image) {
		atomic64_inc(&c->samples_lost);
		return;
	}
	pk_image_count(c, image, result, h.object, pc - h.bias, missed, system);
}

/**
 * pk_machine_image_tick() - attribute a sample at the tick, if it can be
 * @c: the machine-wide profile
 * @pc: the user PC the tick interrupted
 * @missed: the sampling periods the tick came too late for
 * @hints: this CPU's hints
 *
 * Where the kernel counts mapping changes, a sample whose process's hint
 * on this CPU still holds its mapping (pk_mapping_hinted()), at an
 * offset that has an entry already, needs no look-up that the tick could
 * not make: it is counted here, and costs no task_work.
 *
 * Context: the tick, hard interrupt, current interrupted in user mode.
 * The hints are read in place: this CPU's attributions write what it
 * reads with interrupts off.
 * Return: whether the sample was counted; if not, nothing was.
 */
bool pk_machine_image_tick(struct pk_collector *c, u64 pc, u32 missed,
			   const struct pk_image_hints *hints)
{
	pid_t key = task_tgid_nr(current);
	const struct pk_image_hint *h =
		&hints->by_key[key & (PK_IMAGE_HINTS - 1)];

	if (pk_collector_closed(c) || !pk_hint_image_live(c, key, h) ||
	    !pk_mapping_hinted(h, current->mm, h->image, pc) ||
	    !pk_sample_add_existing(c, h->image, h->object, pc - h->bias, 1))
		return false;
	pk_image_add(c, h->image, PROFIL_STAT_MISSED, missed);
	pk_image_add(c, h->image, PROFIL_STAT_IN_RANGE, 1);
	return true;
}

/**
 * pk_machine_image_end() - a process's image ends
 * @c: the machine-wide profile
 * @key: the process's tgid in the initial PID namespace
 * @reason: PROFIL_STOP_EXEC or PROFIL_STOP_EXIT
 * @task: as for pk_collector_image_end()
 *
 * Nothing to do for a process the profile has no image of.
 *
 * Context: the exec and exit probes, preemption disabled.
 */
void pk_machine_image_end(struct pk_collector *c, pid_t key, int reason,
			  struct task_struct *task)
{
	u32 slot, image = pk_image_find(c, key, &slot, NULL);

	if (image)
		pk_collector_image_end(c, image, reason, task);
}
