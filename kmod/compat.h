/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where the kernel series profil.ko is built and tested for differ:
 * Debian 12's 6.1 and 6.12. Each difference gets one name here, and the
 * LINUX_VERSION_CODE checks stay in this file; the rest of the module
 * uses the names.
 *
 * Other series (neither built nor tested; what they would need):
 *
 * - 6.6 is 6.12 for the dump attributes (genl_info_dump() came in 6.6)
 *   and 6.1 for sched_stat_runtime (vruntime went in 6.8): the checks
 *   below already say so.
 * - 5.15 is 6.1 here. Beyond this file it lacks x86's
 *   unsafe_try_cmpxchg_user() (5.19), for which sampler.c falls back to
 *   plain adds, and it would need GENL_MCAST_CAP_NET_ADMIN backported to
 *   its stable release: netlink.c does not build without it.
 */
#ifndef _PROFIL_COMPAT_H
#define _PROFIL_COMPAT_H

#include <linux/fs.h>
#include <linux/mm_types.h>
#include <linux/sched.h>
#include <linux/sched/rt.h>
#include <linux/seqlock.h>
#include <linux/types.h>
#include <linux/version.h>
#include <net/genetlink.h>

#include "session.h"
#include "sampler.h"

/*
 * The parsed attributes of a dump request: since 6.6 in the struct
 * genl_info the dump info carries, before in the dump info itself.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 6, 0)
static inline struct nlattr **pk_dump_attrs(struct netlink_callback *cb)
{
	return genl_info_dump(cb)->attrs;
}
#else
static inline struct nlattr **pk_dump_attrs(struct netlink_callback *cb)
{
	return genl_dumpit_info(cb)->attrs;
}
#endif

/*
 * The sched_stat_runtime probe. 6.8 ("sched: Unify runtime accounting
 * across classes") took the vruntime argument out of its TP_PROTO, and
 * made every scheduler class fire it after adding the runtime to
 * sum_exec_runtime. Before, the fair class fires it after, but the rt
 * and deadline classes before (update_curr_rt(), update_curr_dl()): for
 * their threads (rt_task(), prio below MAX_RT_PRIO, boosted ones too) the
 * runtime is still pending, and a sampler that read the sum alone would
 * sample them a tick late, and one living a tick or less almost never.
 * The probe's type is checked against the kernel's at build time
 * (lifecycle.c).
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 8, 0)
static inline void pk_probe_stat_runtime(void *data, struct task_struct *task,
					 u64 runtime)
{
	pk_tick_runtime(task, runtime, 0);
}
#else
static inline void pk_probe_stat_runtime(void *data, struct task_struct *task,
					 u64 runtime, u64 vruntime)
{
	pk_tick_runtime(task, runtime, rt_task(task) ? runtime : 0);
}
#endif

/* An inode's ctime: behind accessors since 6.6 (multigrain timestamps). */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 6, 0)
static inline struct timespec64 pk_inode_ctime(const struct inode *inode)
{
	return inode_get_ctime(inode);
}
#else
static inline struct timespec64 pk_inode_ctime(const struct inode *inode)
{
	return inode->i_ctime;
}
#endif

/*
 * pk_mm_seq() - the count of an address space's mapping changes
 * @mm: the address space
 * @seq: where to put it
 *
 * Where struct mm_struct's mm_lock_seq, which per-VMA locking
 * (CONFIG_PER_VMA_LOCK) added, is a seqcount_t (Debian's 6.12; Kbuild
 * finds it in the kernel's headers):
 * odd while a writer holds mmap_lock, and moved on at the writer's
 * lock and unlock. Equal counts, even, read at two times, mean that no
 * mapping changed in between. 6.1 has no such count, and 6.4's first
 * one, an int bumped at the unlock only, cannot tell a writer at work:
 * there the function says there is none, and callers look the mapping
 * up.
 *
 * Return: true, with the count in @seq, if no writer holds mmap_lock.
 *
 * PK_MM_SEQ_COUNTS says at build time whether the kernel has the count
 * at all: where it has not, the paths that only a count can validate
 * (the tick's own attribution) are left out.
 */
#if defined(PK_MM_LOCK_SEQCOUNT) && defined(CONFIG_PER_VMA_LOCK)
#define PK_MM_SEQ_COUNTS true

static inline bool pk_mm_seq(struct mm_struct *mm, u32 *seq)
{
	*seq = raw_read_seqcount(&mm->mm_lock_seq);
	return !(*seq & 1);
}
#else
#define PK_MM_SEQ_COUNTS false

static inline bool pk_mm_seq(struct mm_struct *mm, u32 *seq)
{
	return false;
}
#endif

#endif /* _PROFIL_COMPAT_H */
