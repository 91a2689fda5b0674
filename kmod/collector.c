// SPDX-License-Identifier: GPL-2.0
/*
 * Profiles the kernel holds: what kernel-held sessions count into.
 *
 * A collector is the profile of one netlink socket, made by its first
 * PROFIL_CMD_COLLECT and closed with the socket (NETLINK_URELEASE). It
 * holds three tables, all allocated at its making by the task that asked,
 * charged to that task's memory cgroup and never grown, so a profile's
 * memory is bounded from the start and the profiled threads never
 * allocate:
 *
 *  - images: one per process image followed, a process from its fork or
 *    exec to its exit or next exec, with its pid, command, parent image
 *    and, once its session is gone, its final tick accounting;
 *  - objects: the files (and the vDSO, and anonymous memory) the samples
 *    fell in, by device, inode, generation and ctime, with the path they
 *    were first seen at, so that user space finds the ELF file, and
 *    tells a file replaced since from the one that ran;
 *  - samples: ticks by (image, object, offset), an open-addressing hash
 *    table; offsets are file offsets, which user space turns into the
 *    object's link-time addresses.
 *
 * Entries are added under @lock, a raw spinlock, since image ends come
 * from the exec and exit tracepoints with preemption off. A sample entry
 * found is counted without it: its fields are written before its image
 * is published with a release store, and its count is atomic.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cgroup.h>
#include <linux/dcache.h>
#include <linux/fs.h>
#include <linux/hash.h>
#include <linux/kdev_t.h>
#include <linux/kref.h>
#include <linux/list.h>
#include <linux/mm.h>
#include <linux/mmap_lock.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/netlink.h>
#include <linux/notifier.h>
#include <linux/pid_namespace.h>
#include <linux/sched.h>
#include <linux/sched/mm.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <net/net_namespace.h>
#include <net/netlink.h>

#include "collector.h"
#include "compat.h"
#include "machine.h"
#include "session.h"

/* Objects a profile keeps, and bytes for their paths. */
#define PK_OBJECTS_MAX 16384
#define PK_NAMES_BYTES BIT(20)
/* Slots probed for an entry before the sample table counts as full. */
#define PK_PROBE_MAX 32

static LIST_HEAD(pk_collectors);
static DEFINE_MUTEX(pk_collectors_mutex);

static void pk_collector_free(struct pk_collector *c)
{
	bool pins_module = c->pins_module;

	kvfree(c->images);
	kvfree(c->image_index);
	kvfree(c->objects);
	kvfree(c->object_index);
	kvfree(c->names);
	kfree(c->path);
	kvfree(c->samples);
	if (c->pidns)
		put_pid_ns(c->pidns);
	if (c->cgroup)
		cgroup_put(c->cgroup);
	kfree(c);
	/* Last: the module may go now (see pk_exit()). */
	if (pins_module)
		module_put(THIS_MODULE);
}

static void pk_collector_release(struct kref *ref)
{
	pk_collector_free(container_of(ref, struct pk_collector, ref));
}

/* Context: process context (kvfree()). */
void pk_collector_put(struct pk_collector *c)
{
	kref_put(&c->ref, pk_collector_release);
}

static void *pk_table_alloc(struct pk_collector *c, size_t n, size_t size)
{
	void *p = kvcalloc(n, size, GFP_KERNEL_ACCOUNT);

	if (p)
		c->bytes += n * size;
	return p;
}

static struct pk_collector *
pk_collector_alloc(struct net *net, u32 portid,
		   const struct pk_collector_spec *spec)
{
	struct pk_collector *c = kzalloc(sizeof(*c), GFP_KERNEL_ACCOUNT);
	u32 images_max = spec->images_max, samples_max = spec->samples_max;
	u32 slots = roundup_pow_of_two(samples_max) * 2;

	if (!c)
		return NULL;
	c->net = net;
	c->portid = portid;
	kref_init(&c->ref);
	raw_spin_lock_init(&c->lock);
	c->images_max = images_max;
	c->samples_max = samples_max;
	c->sample_mask = slots - 1;
	c->object_mask = PK_OBJECTS_MAX * 2 - 1;
	c->images = pk_table_alloc(c, images_max, sizeof(*c->images));
	/* Machine-wide, images are found by process: twice as many slots. */
	if (spec->scope != PROFIL_SCOPE_PROCESS) {
		c->image_mask = roundup_pow_of_two(images_max) * 2 - 1;
		c->image_index =
			pk_table_alloc(c, c->image_mask + 1, sizeof(u32));
		if (!c->image_index)
			goto err;
	}
	c->objects = pk_table_alloc(c, PK_OBJECTS_MAX, sizeof(*c->objects));
	c->object_index = pk_table_alloc(c, c->object_mask + 1, sizeof(u32));
	c->names = pk_table_alloc(c, PK_NAMES_BYTES, 1);
	c->samples = pk_table_alloc(c, slots, sizeof(*c->samples));
	c->path = kmalloc(PATH_MAX, GFP_KERNEL_ACCOUNT);
	mutex_init(&c->path_mutex);
	if (!c->images || !c->objects || !c->object_index || !c->names ||
	    !c->samples || !c->path)
		goto err;
	c->pidns = get_pid_ns(task_active_pid_ns(current));
	return c;

err:
	pk_collector_free(c);
	return NULL;
}

/* Caller holds pk_collectors_mutex. */
static struct pk_collector *pk_collector_lookup(struct net *net, u32 portid)
{
	struct pk_collector *c;

	list_for_each_entry(c, &pk_collectors, node)
		if (c->net == net && c->portid == portid)
			return c;
	return NULL;
}

/**
 * pk_collector_find() - the open collector of a socket
 * @net: the socket's namespace
 * @portid: its port id
 *
 * Context: process context.
 * Return: a referenced collector, or NULL.
 */
struct pk_collector *pk_collector_find(struct net *net, u32 portid)
{
	struct pk_collector *c;

	mutex_lock(&pk_collectors_mutex);
	c = pk_collector_lookup(net, portid);
	if (c)
		pk_collector_get(c);
	mutex_unlock(&pk_collectors_mutex);
	return c;
}

/**
 * pk_collector_get_or_create() - the collector of a socket, made if new
 * @net: the socket's namespace
 * @portid: its port id
 * @spec: for a new one, its bounds and scope; a new one takes over the
 *	reference on @spec->cgroup (and clears it)
 *
 * A socket's collector is made by its first COLLECT. Later ones add
 * processes to it, unless either is machine-wide: a machine-wide
 * profile is all its socket does.
 *
 * Context: process context: the request of the socket's owner, whose
 * memory cgroup the tables are charged to.
 * Return: a referenced collector, or an ERR_PTR(): -EEXIST if a
 * machine-wide one was asked for, or the socket has one, and they differ.
 */
struct pk_collector *pk_collector_get_or_create(struct net *net, u32 portid,
						struct pk_collector_spec *spec)
{
	struct pk_collector *c, *new;

	c = pk_collector_find(net, portid);
	if (c)
		goto found;
	/* Megabytes to zero: not under the mutex every socket close takes. */
	new = pk_collector_alloc(net, portid, spec);
	if (!new)
		return ERR_PTR(-ENOMEM);
	mutex_lock(&pk_collectors_mutex);
	c = pk_collector_lookup(net, portid);
	if (!c) {
		/* Set before anyone can find it. */
		new->scope = spec->scope;
		new->cgroup = spec->cgroup;
		spec->cgroup = NULL;
		/* The list's reference, dropped at close. */
		c = new;
		new = NULL;
		list_add(&c->node, &pk_collectors);
	}
	pk_collector_get(c);
	mutex_unlock(&pk_collectors_mutex);
	if (!new)
		return c;
	pk_collector_free(new);
found:
	if (c->scope != PROFIL_SCOPE_PROCESS ||
	    spec->scope != PROFIL_SCOPE_PROCESS) {
		pk_collector_put(c);
		return ERR_PTR(-EEXIST);
	}
	return c;
}

/**
 * pk_collector_image_next() - add an image
 * @c: the collector
 * @img: the image's fields but its command name; the rest zero
 * @comm: its command name
 *
 * Context: c->lock held.
 * Return: its id, or 0 if the table is full (counted in images_lost).
 */
u32 pk_collector_image_next(struct pk_collector *c, const struct pk_image *img,
			    const char *comm)
{
	struct pk_image *new;

	if (c->nr_images == c->images_max) {
		c->images_lost++;
		return 0;
	}
	new = &c->images[c->nr_images];
	*new = *img;
	memcpy(new->comm, comm, sizeof(new->comm));
	/* Read without the lock by the machine-wide sampler's early out. */
	WRITE_ONCE(c->nr_images, c->nr_images + 1);
	return c->nr_images;
}

/**
 * pk_collector_image_add() - a new image for a session being made
 * @c: the collector
 * @s: the session, which the image points to until it is gone
 * @leader: a thread of its process
 * @parent: the image it came from, or 0
 *
 * Context: process context; @leader is current, or stopped by its
 * tracer.
 * Return: the image's id, or 0 if the collector is closed or full.
 */
u32 pk_collector_image_add(struct pk_collector *c, struct pk_session *s,
			   struct task_struct *leader, u32 parent)
{
	struct pk_image img = { .parent = parent };
	char comm[TASK_COMM_LEN];
	struct vm_area_struct *vma;
	u32 id = 0;

	/* The executable: the file whose text the ELF loader put there. */
	if (mmget_not_zero(s->mm)) {
		if (!mmap_read_lock_killable(s->mm)) {
			vma = vma_lookup(s->mm, s->mm->start_code);
			if (vma && vma->vm_file)
				img.exe = pk_object_of(c, vma);
			mmap_read_unlock(s->mm);
		}
		mmput(s->mm);
	}
	get_task_comm(comm, leader);
	img.pid = task_tgid_nr_ns(leader, c->pidns);
	rcu_read_lock();
	img.cgroup = cgroup_id(task_dfl_cgroup(leader));
	rcu_read_unlock();

	raw_spin_lock(&c->lock);
	if (!c->closed)
		id = pk_collector_image_next(c, &img, comm);
	raw_spin_unlock(&c->lock);
	return id;
}

/**
 * pk_collector_image_publish() - make an image's session reachable
 * @c: the collector
 * @image: the image's id
 * @s: its session, started: in the table, its threads attached
 *
 * From here on the collector's close stops @s, and dumps read its live
 * accounting. Not before: a close must never end a session that is still
 * being started.
 *
 * Context: process context.
 * Return: false if the collector closed meanwhile: the caller ends @s.
 */
bool pk_collector_image_publish(struct pk_collector *c, u32 image,
				struct pk_session *s)
{
	bool open;

	raw_spin_lock(&c->lock);
	open = !c->closed;
	if (open)
		c->images[image - 1].session = s;
	raw_spin_unlock(&c->lock);
	return open;
}

/**
 * pk_collector_image_end() - an image's session stopped
 * @c: the collector
 * @image: the image's id
 * @reason: enum profil_stop_reason
 * @task: current, the exiting thread of its process, for the command
 *	name, or NULL
 *
 * Context: any but hard interrupt.
 */
void pk_collector_image_end(struct pk_collector *c, u32 image, int reason,
			    struct task_struct *task)
{
	char comm[TASK_COMM_LEN];
	struct pk_image *img;

	if (!image)
		return;
	/* current, in the exit probe: its own comm needs no task_lock(). */
	if (task)
		strscpy_pad(comm, task->comm, sizeof(comm));
	raw_spin_lock(&c->lock);
	img = &c->images[image - 1];
	if (img->reason == PROFIL_STOP_NONE) {
		WRITE_ONCE(img->reason, reason);
		if (task)
			memcpy(img->comm, comm, sizeof(comm));
	}
	raw_spin_unlock(&c->lock);
}

/**
 * pk_collector_image_final() - an image's session is being freed
 * @c: the collector
 * @image: the image's id
 * @stats: its session's accounting, now final
 *
 * Context: process context.
 */
void pk_collector_image_final(struct pk_collector *c, u32 image,
			      const u64 *stats)
{
	struct pk_image *img;
	int i;

	if (!image)
		return;
	raw_spin_lock(&c->lock);
	img = &c->images[image - 1];
	for (i = 0; i <= PROFIL_STAT_MAX; i++)
		atomic64_set(&img->stats[i], stats[i]);
	img->final = true;
	img->session = NULL;
	/* A start that failed before its session was ever stopped. */
	if (img->reason == PROFIL_STOP_NONE)
		WRITE_ONCE(img->reason, PROFIL_STOP_REQUEST);
	raw_spin_unlock(&c->lock);
}

/* Where the search for an object key starts. */
static u32 pk_object_hash(u32 dev, u64 ino)
{
	return hash_64(ino ^ ((u64)dev << 32), 32);
}

static bool pk_object_match(const struct pk_collector *c,
			    const struct pk_object *o,
			    const struct pk_object *k, const char *name)
{
	if (o->kind != k->kind || o->dev != k->dev || o->ino != k->ino ||
	    o->generation != k->generation || o->ctime != k->ctime)
		return false;
	return k->kind != PROFIL_OBJECT_SPECIAL ||
	       !strcmp(c->names + o->name, name);
}

/*
 * The id of the object @k (and @name for a special mapping), or 0.
 * @slot: where the search ended: the free index slot for an insertion.
 * Without c->lock: an index slot is published (with a release store)
 * after its object's fields and path are written, and never changes.
 */
static u32 pk_object_lookup(struct pk_collector *c, const struct pk_object *k,
			    const char *name, u32 *slot)
{
	u32 i = pk_object_hash(k->dev, k->ino), id;

	for (;; i++) {
		i &= c->object_mask;
		/* Pairs with pk_object_insert(): the object before its id. */
		id = smp_load_acquire(&c->object_index[i]);
		if (!id || pk_object_match(c, &c->objects[id - 1], k, name))
			break;
	}
	*slot = i;
	return id;
}

/*
 * Add @k with its @path at the free index slot @slot, unless another
 * thread added it first; 0 if there is no room. Caller holds c->lock.
 */
static u32 pk_object_insert(struct pk_collector *c, const struct pk_object *k,
			    const char *name, const char *path)
{
	size_t len = strlen(path) + 1;
	struct pk_object *o;
	u32 id, slot;

	/* Under the lock no other insertion runs: a free slot stays free. */
	id = pk_object_lookup(c, k, name, &slot);
	if (id)
		return id;
	/* The index is twice the objects: it always has a free slot. */
	if (c->nr_objects == PK_OBJECTS_MAX ||
	    len > PK_NAMES_BYTES - c->names_used)
		return 0;
	o = &c->objects[c->nr_objects];
	*o = *k;
	o->name = c->names_used;
	memcpy(c->names + c->names_used, path, len);
	c->names_used += len;
	id = ++c->nr_objects;
	/* Publish: the object and its path before its id. */
	smp_store_release(&c->object_index[slot], id);
	return id;
}

/**
 * pk_object_of() - the object of a mapping, added if new
 * @c: the collector
 * @vma: the mapping
 *
 * Context: process context, mmap_lock of @vma's mm held.
 * Return: its id, or 0 if there is no room for it.
 */
u32 pk_object_of(struct pk_collector *c, struct vm_area_struct *vma)
{
	struct pk_object k = {};
	const char *name = NULL, *path;
	u32 id, slot;

	if (vma->vm_file) {
		struct inode *inode = file_inode(vma->vm_file);
		struct timespec64 ct = pk_inode_ctime(inode);

		k.kind = PROFIL_OBJECT_FILE;
		k.dev = new_encode_dev(inode->i_sb->s_dev);
		k.ino = inode->i_ino;
		k.generation = inode->i_generation;
		k.ctime = timespec64_to_ns(&ct);
	} else if (vma->vm_ops && vma->vm_ops->name) {
		name = vma->vm_ops->name(vma);
		k.kind = name ? PROFIL_OBJECT_SPECIAL : PROFIL_OBJECT_ANON;
	} else {
		k.kind = PROFIL_OBJECT_ANON;
	}

	id = pk_object_lookup(c, &k, name, &slot);
	if (id)
		return id;

	/* New: its path, into the profile's own buffer (no allocation). */
	mutex_lock(&c->path_mutex);
	switch (k.kind) {
	case PROFIL_OBJECT_FILE:
		path = d_path(&vma->vm_file->f_path, c->path, PATH_MAX);
		if (IS_ERR(path))
			path = "[unreachable]";
		break;
	case PROFIL_OBJECT_SPECIAL:
		path = name;
		break;
	default:
		path = "[anon]";
		break;
	}
	raw_spin_lock(&c->lock);
	id = pk_object_insert(c, &k, name, path);
	raw_spin_unlock(&c->lock);
	mutex_unlock(&c->path_mutex);
	return id;
}

static u32 pk_sample_hash(u32 image, u32 object, u64 offset)
{
	return hash_64(offset ^ ((u64)image << 40) ^ ((u64)object << 20), 32);
}

/* Whether @e, in use, is the entry (@image, @object, @offset). */
static bool pk_sample_is(const struct pk_sample *e, u32 image, u32 object,
			 u64 offset)
{
	return e->image == image && e->object == object && e->offset == offset;
}

/*
 * Look for the entry (@image, @object, @offset) without the lock, along
 * its probe sequence up to the first free slot. Return: the entry, or
 * NULL with *@i and *@n where the search stopped. Inline in both its
 * callers: every sample takes this path, and most end here.
 */
static __always_inline struct pk_sample *
pk_sample_lookup(struct pk_collector *c, u32 image, u32 object, u64 offset,
		 u32 *i, u32 *n)
{
	struct pk_sample *e;

	for (*n = 0, *i = pk_sample_hash(image, object, offset);
	     *n < PK_PROBE_MAX; (*n)++, (*i)++) {
		e = &c->samples[*i & c->sample_mask];
		/* Pairs with the release below: the fields before image. */
		if (!smp_load_acquire(&e->image))
			break;
		if (pk_sample_is(e, image, object, offset))
			return e;
	}
	return NULL;
}

/**
 * pk_sample_add() - count ticks at an (image, object, offset)
 * @c: the collector
 * @image: the image's id
 * @object: the object's id
 * @offset: the offset in the object
 * @count: the ticks
 *
 * The entry is made if new. It is looked for without the lock; only
 * claiming a free slot takes c->lock, which then looks on from where the
 * search stopped.
 *
 * Context: process context, any lock but c->lock.
 * Return: false if the table has no room for it.
 */
bool pk_sample_add(struct pk_collector *c, u32 image, u32 object, u64 offset,
		   u32 count)
{
	struct pk_sample *e;
	u32 i, n;

	e = pk_sample_lookup(c, image, object, offset, &i, &n);
	if (!e && n < PK_PROBE_MAX) {
		raw_spin_lock(&c->lock);
		/* Slots are only ever claimed, under the lock: look on. */
		for (; n < PK_PROBE_MAX; n++, i++) {
			e = &c->samples[i & c->sample_mask];
			if (!e->image) {
				if (c->nr_samples == c->samples_max) {
					e = NULL;
					break;
				}
				e->object = object;
				e->offset = offset;
				atomic64_set(&e->count, 0);
				/* Publish: the fields before the image. */
				smp_store_release(&e->image, image);
				c->nr_samples++;
				break;
			}
			if (pk_sample_is(e, image, object, offset))
				break;
		}
		if (n == PK_PROBE_MAX)
			e = NULL;
		raw_spin_unlock(&c->lock);
	}
	if (e)
		atomic64_add(count, &e->count);
	return !!e;
}

/**
 * pk_sample_add_existing() - count ticks at an entry that exists
 * @c: the collector
 * @image: the image's id
 * @object: the object's id
 * @offset: the offset in the object
 * @count: the ticks
 *
 * Lockless: it makes no entry.
 *
 * Context: any, the tick's hard interrupt too.
 * Return: false if there is no such entry.
 */
bool pk_sample_add_existing(struct pk_collector *c, u32 image, u32 object,
			    u64 offset, u32 count)
{
	struct pk_sample *e;
	u32 i, n;

	e = pk_sample_lookup(c, image, object, offset, &i, &n);
	if (e)
		atomic64_add(count, &e->count);
	return !!e;
}

/**
 * pk_collect_pc() - attribute ticks at a user PC to a session's profile
 * @s: the kernel-held session
 * @pc: the user PC
 * @count: the ticks there
 *
 * The mapping that holds @pc now is the one that held it at the tick:
 * the thread has not run user code since, and a mapping change by
 * another thread in between would have taken the lock this waits for
 * only with a trylock. The address space is the session's, which
 * outlives the thread's own reference to it (exit_mm() runs before the
 * exit's task_work) for as long as another thread uses it.
 *
 * Context: process context, task_work of a thread of @s's process.
 * Return: &enum pk_collect.
 */
enum pk_collect pk_collect_pc(struct pk_session *s, u64 pc, u32 count)
{
	struct pk_collector *c = pk_session_collector(s);
	struct mm_struct *mm = s->mm;
	struct vm_area_struct *vma;
	u32 object = 0;
	u64 offset = 0;

	if (!mmget_not_zero(mm))
		return PK_COLLECT_GONE;
	if (!mmap_read_trylock(mm)) {
		mmput(mm);
		return PK_COLLECT_BUSY;
	}
	vma = vma_lookup(mm, pc);
	if (vma) {
		object = pk_object_of(c, vma);
		offset = pk_vma_offset(vma, pc);
	}
	mmap_read_unlock(mm);
	mmput(mm);

	if (!vma)
		return PK_COLLECT_OUTSIDE;
	if (!object || !pk_sample_add(c, s->image, object, offset, count))
		return PK_COLLECT_FULL;
	return PK_COLLECT_ADDED;
}

/*
 * The session of the first image from *@i on that has one, referenced,
 * and *@i past it; NULL at the end. Closes @c on the way: nothing is
 * published after.
 */
static struct pk_session *pk_collector_next_session(struct pk_collector *c,
						    u32 *i)
{
	struct pk_session *s = NULL;

	raw_spin_lock(&c->lock);
	WRITE_ONCE(c->closed, true);
	for (; *i < c->nr_images && !s; (*i)++) {
		s = c->images[*i].session;
		if (s && !pk_session_tryget(s))
			s = NULL;
	}
	raw_spin_unlock(&c->lock);
	return s;
}

/*
 * Stop every session of @c, which its socket's release made unreachable,
 * then wait one grace period for their ticks and end them, and drop the
 * list's reference. The sessions leave the session table: their
 * processes run on unaffected, and the tables are freed once the last of
 * them is. A machine-wide profile has no sessions: the tick stops
 * sampling into it (pk_machine_release()).
 * Context: process context.
 */
static void pk_collector_close(struct pk_collector *c)
{
	struct pk_session *s;
	u32 i = 0;

	if (c->scope != PROFIL_SCOPE_PROCESS) {
		raw_spin_lock(&c->lock);
		WRITE_ONCE(c->closed, true);
		raw_spin_unlock(&c->lock);
		/* No session: the tick stops sampling into it, and that is all. */
		pk_machine_release(c);
		pk_collector_put(c);
		return;
	}
	while ((s = pk_collector_next_session(c, &i))) {
		pk_session_stop(s, PROFIL_STOP_CLOSED, 0);
		pk_session_put(s);
	}
	synchronize_rcu();
	i = 0;
	while ((s = pk_collector_next_session(c, &i))) {
		pk_session_end_stopped(s);
		pk_session_put(s);
	}
	pk_collector_put(c);
}

/**
 * pk_collector_discard() - undo the making of a collector
 * @c: a collector the caller's request made, without a session yet
 *
 * A refused machine-wide COLLECT (another one runs) leaves its socket
 * without a profile, as any refused COLLECT does, so that the socket may
 * ask again once the other one is gone. A close of the socket meanwhile
 * has closed @c already.
 *
 * Context: process context.
 */
void pk_collector_discard(struct pk_collector *c)
{
	bool listed;

	mutex_lock(&pk_collectors_mutex);
	listed = pk_collector_lookup(c->net, c->portid) == c;
	if (listed)
		list_del(&c->node);
	mutex_unlock(&pk_collectors_mutex);
	if (listed)
		pk_collector_close(c);
}

/* NETLINK_URELEASE: a socket is gone, and its profile with it. */
static int pk_netlink_event(struct notifier_block *nb, unsigned long event,
			    void *ptr)
{
	struct netlink_notify *n = ptr;
	struct pk_collector *c;

	/* Every generic netlink socket's close comes here: be quick. */
	if (event != NETLINK_URELEASE || n->protocol != NETLINK_GENERIC ||
	    list_empty_careful(&pk_collectors))
		return NOTIFY_DONE;
	mutex_lock(&pk_collectors_mutex);
	c = pk_collector_lookup(n->net, n->portid);
	if (c)
		list_del(&c->node);
	mutex_unlock(&pk_collectors_mutex);
	if (c)
		pk_collector_close(c);
	return NOTIFY_DONE;
}

static struct notifier_block pk_netlink_notifier = {
	.notifier_call = pk_netlink_event,
};

int pk_collectors_init(void)
{
	return netlink_register_notifier(&pk_netlink_notifier);
}

/*
 * No more closes: right after the family goes, before the sessions'
 * teardown, since a socket's release reaches the notifier after generic
 * netlink stopped waiting for it. Waits for a close under way.
 */
void pk_collectors_stop(void)
{
	netlink_unregister_notifier(&pk_netlink_notifier);
}

/* Context: module exit; no session is left, nor any request or close. */
void pk_collectors_exit(void)
{
	struct pk_collector *c, *tmp;

	mutex_lock(&pk_collectors_mutex);
	list_for_each_entry_safe(c, tmp, &pk_collectors, node) {
		/* A claimed machine-wide profile pins the module: none is here. */
		list_del(&c->node);
		pk_collector_put(c);
	}
	mutex_unlock(&pk_collectors_mutex);
}
