// SPDX-License-Identifier: GPL-2.0
/*
 * The session table: every session by its process's thread-group pid.
 *
 * A process has a session of each kind, and a stopped session stays
 * next to the one that replaced it until the replacement removes it: a
 * list table keeps them under one key, the struct pid. It grows (and
 * shrinks) with the sessions, so that the look-up the fork, exec and
 * exit probes make for every task on the machine costs the same however
 * many processes are profiled.
 *
 * Insertions and removals run in process context, under the table's
 * bucket locks: on 6.1 those disable bottom halves, which the exit probe
 * (preemption off) must not do on PREEMPT_RT, so an exited process's
 * sessions are hidden there (pk_table_hide()) and removed by a work
 * item. Look-ups hold RCU and pass hidden sessions by; a dump lets the
 * removals queued before it finish first, so that none of them moves its
 * positions.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/hash.h>
#include <linux/llist.h>
#include <linux/rhashtable.h>
#include <linux/slab.h>
#include <linux/workqueue.h>

#include "session.h"
#include "session_table.h"

static u32 pk_pid_hash(const void *data, u32 len, u32 seed);

static const struct rhashtable_params pk_sessions_params = {
	.key_len = sizeof(struct pid *),
	.key_offset = offsetof(struct pk_session, tgid),
	.head_offset = offsetof(struct pk_session, hnode),
	.hashfn = pk_pid_hash,
	.automatic_shrinking = true,
};

/* A pointer key: a multiply spreads it, as hash_ptr() does. */
static u32 pk_pid_hash(const void *data, u32 len, u32 seed)
{
	return hash_64(*(const unsigned long *)data ^ seed, 32);
}

static struct rhltable pk_sessions;

/* Bumped by each insertion, hiding and removal; never 0. */
static atomic_t pk_table_seq = ATOMIC_INIT(1);

/* The table's change count, for dumps: genl_dump_check_consistent(). */
unsigned int pk_session_table_seq(void)
{
	return atomic_read(&pk_table_seq);
}

static void pk_table_changed(void)
{
	if (!atomic_inc_return(&pk_table_seq))
		atomic_inc(&pk_table_seq);
}

/**
 * pk_session_lookup() - the session of a process, unreferenced
 * @tgid: the process's thread-group pid
 * @kind: enum profil_kind
 *
 * Context: any; the caller holds rcu_read_lock(), and the result is
 * valid in that section.
 * Return: the session, or NULL.
 */
struct pk_session *pk_session_lookup(struct pid *tgid, int kind)
{
	struct rhlist_head *list, *pos;
	struct pk_session *s;

	list = rhltable_lookup(&pk_sessions, &tgid, pk_sessions_params);
	rhl_for_each_entry_rcu(s, pos, list, hnode)
		if (s->kind == kind && !READ_ONCE(s->hidden))
			return s;
	return NULL;
}

/**
 * pk_session_find() - look up the session of a process
 * @tgid: the process's thread-group pid
 * @kind: enum profil_kind
 *
 * Context: any.
 * Return: a referenced session, or NULL.
 */
struct pk_session *pk_session_find(struct pid *tgid, int kind)
{
	struct pk_session *s;

	rcu_read_lock();
	s = pk_session_lookup(tgid, kind);
	if (s && !pk_session_tryget(s))
		s = NULL;
	rcu_read_unlock();
	return s;
}

/**
 * pk_table_replace() - put a session in the table, in place of another
 * @old: the stopped session @s replaces, or NULL
 * @s: the new session; the table takes over the caller's reference
 *
 * @s goes in first, at the head of its key's list, where a look-up
 * finds it before @old; then @old goes: a concurrent status request sees
 * one or the other, never neither.
 *
 * Context: process context.
 * Return: 0, or -ENOMEM or -EBUSY when the table could not take @s.
 */
int pk_table_replace(struct pk_session *old, struct pk_session *s)
{
	int err;

	err = rhltable_insert(&pk_sessions, &s->hnode, pk_sessions_params);
	if (err)
		return err;
	pk_table_changed();
	if (old)
		pk_table_remove(old);
	return 0;
}

/**
 * pk_table_remove() - take a session out of the table, if it is there
 * @s: the session; the table's reference on it is dropped
 *
 * Context: process context.
 */
void pk_table_remove(struct pk_session *s)
{
	if (rhltable_remove(&pk_sessions, &s->hnode, pk_sessions_params))
		return;
	pk_table_changed();
	pk_session_put(s);
}

/* Hidden sessions, each referenced, for pk_table_unhash_work. */
static LLIST_HEAD(pk_table_hidden);

static void pk_table_unhash(struct work_struct *work)
{
	struct pk_session *s, *tmp;
	struct llist_node *list = llist_del_all(&pk_table_hidden);

	llist_for_each_entry_safe(s, tmp, list, unhash_node) {
		pk_table_remove(s);
		pk_session_put(s);
	}
}

static DECLARE_WORK(pk_table_unhash_work, pk_table_unhash);

/**
 * pk_table_hide() - take a session out of the table, from any context
 * @s: the session
 *
 * Look-ups and dumps pass @s by from now on; a work item removes it.
 * Two threads of a process that exit together can both see it dead
 * (signal->live is 0 for both by the exit tracepoint) and both hide
 * its session: only the first queues it, as a node on the llist twice
 * would make a cycle, and only the first ends it.
 *
 * Context: any but hard interrupt.
 * Return: true for the caller that hid @s, false if it was hidden.
 */
bool pk_table_hide(struct pk_session *s)
{
	if (xchg(&s->hidden, 1))
		return false;
	pk_table_changed();
	kref_get(&s->ref);
	llist_add(&s->unhash_node, &pk_table_hidden);
	schedule_work(&pk_table_unhash_work);
	return true;
}

/**
 * pk_table_walk_begin() - start a walk over the table, for a dump
 *
 * Context: process context.
 * Return: the walk, or NULL without memory.
 */
struct pk_table_walk *pk_table_walk_begin(void)
{
	struct pk_table_walk *w = kzalloc(sizeof(*w), GFP_KERNEL);

	flush_work(&pk_table_unhash_work);
	if (w)
		rhltable_walk_enter(&pk_sessions, &w->iter);
	return w;
}

/**
 * pk_table_walk_next() - the next session of a walk
 * @w: the walk
 *
 * Each call resumes where the last stopped, in its bucket: a dump costs
 * one pass over the table however many parts it takes. A resize between
 * two calls sends the walk back to the start (@w->restarts counts it):
 * the dump then says it was interrupted.
 *
 * Context: process context.
 * Return: a referenced session, or NULL at the end.
 */
struct pk_session *pk_table_walk_next(struct pk_table_walk *w)
{
	struct pk_session *s = w->held;

	if (s) {
		w->held = NULL;
		return s;
	}
	rhashtable_walk_start(&w->iter);
	for (;;) {
		s = rhashtable_walk_next(&w->iter);
		if (IS_ERR(s)) {
			w->restarts++;
			continue;
		}
		if (!s || (!READ_ONCE(s->hidden) && pk_session_tryget(s)))
			break;
	}
	rhashtable_walk_stop(&w->iter);
	return s;
}

/* Give back @s, which pk_table_walk_next() returns again next. */
void pk_table_walk_unget(struct pk_table_walk *w, struct pk_session *s)
{
	WARN_ON_ONCE(w->held);
	w->held = s;
}

/* Context: process context. */
void pk_table_walk_end(struct pk_table_walk *w)
{
	if (!w)
		return;
	if (w->held)
		pk_session_put(w->held);
	rhashtable_walk_exit(&w->iter);
	kfree(w);
}

int pk_table_init(void)
{
	return rhltable_init(&pk_sessions, &pk_sessions_params);
}

static void pk_table_put(void *ptr, void *arg)
{
	pk_session_put(ptr);
}

/*
 * Context: module exit. No session is active, no probe runs any more
 * and the family is gone.
 */
void pk_table_exit(void)
{
	flush_work(&pk_table_unhash_work);
	rhltable_free_and_destroy(&pk_sessions, pk_table_put, NULL);
}
