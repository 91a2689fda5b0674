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

/* The live image of process @key, from the hint @h if it still holds. */
static u32 pk_image_hinted(struct pk_collector *c, pid_t key,
			   const struct pk_image_hint *h)
{
	const struct pk_image *img;
	u32 slot;

	if (h->generation == c->generation && h->key == key && h->image) {
		img = &c->images[h->image - 1];
		if (img->key == key &&
		    READ_ONCE(img->reason) == PROFIL_STOP_NONE)
			return h->image;
	}
	return pk_image_find(c, key, &slot, NULL);
}

/*
 * The object of @vma, from the hint @h if it still holds, which is
 * updated otherwise. The hinted object is compared by its identity, not
 * by pointers a freed file or inode could leave to another.
 * Context: as pk_object_of().
 */
static u32 pk_object_hinted(struct pk_collector *c, struct vm_area_struct *vma,
			    struct pk_image_hint *h)
{
	const struct pk_object *o;
	const struct inode *inode;
	struct timespec64 ctime;
	u32 object;

	if (!vma->vm_file)
		return pk_object_of(c, vma);
	if (h->generation == c->generation && h->object) {
		/* Objects never change once published. */
		o = &c->objects[h->object - 1];
		inode = file_inode(vma->vm_file);
		ctime = pk_inode_ctime(inode);
		if (o->kind == PROFIL_OBJECT_FILE && o->ino == inode->i_ino &&
		    o->dev == new_encode_dev(inode->i_sb->s_dev) &&
		    o->generation == inode->i_generation &&
		    o->ctime == timespec64_to_ns(&ctime))
			return h->object;
	}
	object = pk_object_of(c, vma);
	h->object = object;
	return object;
}

static void pk_image_add(struct pk_collector *c, u32 image, enum profil_stat i,
			 u64 n)
{
	if (n)
		atomic64_add(n, &c->images[image - 1].stats[i]);
}

/**
 * pk_machine_image_collect() - attribute one machine-wide sample
 * @c: the machine-wide profile
 * @pc: the user PC the tick found
 * @missed: the sampling periods the tick came too late for
 * @system: the tick was in the kernel, and @pc where current entered it
 * @hints: the per-CPU hints (struct pk_image_hint)
 *
 * Into current's process's image, made if it has none. As for
 * pk_collect_pc(), the mapping that holds @pc now is the one that held it
 * at the tick; the caller checked that current->mm is the address space
 * the tick saw.
 *
 * Context: process context, task_work of the sampled thread, which has
 * an address space.
 */
void pk_machine_image_collect(struct pk_collector *c, u64 pc, u32 missed,
			      bool system, struct pk_image_hint __percpu *hints)
{
	struct mm_struct *mm = current->mm;
	pid_t key = task_tgid_nr(current);
	struct vm_area_struct *vma;
	enum profil_stat result;
	struct pk_image_hint h;
	u32 image, object;

	h = *get_cpu_ptr(hints);
	put_cpu_ptr(hints);
	if (h.generation != c->generation) {
		memset(&h, 0, sizeof(h));
		h.generation = c->generation;
	}
	if (!mmap_read_trylock(mm)) {
		image = pk_image_hinted(c, key, &h);
		if (!image) {
			atomic64_inc(&c->samples_lost);
			return;
		}
		pk_image_add(c, image, PROFIL_STAT_MMAP_BUSY, 1);
		result = PROFIL_STAT_DISCARDED;
		goto count;
	}
	image = pk_image_hinted(c, key, &h) ?: pk_image_make(c, key, mm);
	if (!image) {
		mmap_read_unlock(mm);
		atomic64_inc(&c->samples_lost);
		return;
	}
	vma = vma_lookup(mm, pc);
	if (!vma) {
		result = PROFIL_STAT_OUT_OF_RANGE;
		goto unlock;
	}
	object = pk_object_hinted(c, vma, &h);
	if (!object ||
	    !pk_sample_add(c, image, object, pk_vma_offset(vma, pc), 1)) {
		pk_image_add(c, image, PROFIL_STAT_PROFILE_FULL, 1);
		result = PROFIL_STAT_DISCARDED;
	} else {
		result = PROFIL_STAT_IN_RANGE;
	}
unlock:
	mmap_read_unlock(mm);
	h.key = key;
	h.image = image;
	*get_cpu_ptr(hints) = h;
	put_cpu_ptr(hints);
count:
	/* TICKS is the sum of the results: collector_dump.c adds it up. */
	pk_image_add(c, image, PROFIL_STAT_MISSED, missed);
	pk_image_add(c, image, PROFIL_STAT_SYSTEM_CHARGED, system);
	pk_image_add(c, image, result, 1);
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
