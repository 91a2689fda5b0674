/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The session table (session_table.c): sessions by process, for the
 * requests, the fork, exec and exit probes, and the status dump.
 */
#ifndef _PK_SESSION_TABLE_H
#define _PK_SESSION_TABLE_H

#include <linux/rhashtable-types.h>

struct pid;
struct pk_session;

/**
 * struct pk_table_walk - a status dump's place in the session table
 * @iter: the table's own walker; resumes in its bucket, by count
 * @held: a session the walk returned that the dump could not report yet
 *	(its part was full), referenced; returned again first
 * @restarts: how often a resize sent the walk back to the start
 */
struct pk_table_walk {
	struct rhashtable_iter iter;
	struct pk_session *held;
	unsigned int restarts;
};

int pk_table_init(void);
void pk_table_exit(void);
struct pk_session *pk_session_lookup(struct pid *tgid, int kind);
struct pk_session *pk_session_find(struct pid *tgid, int kind);
int pk_table_replace(struct pk_session *old, struct pk_session *s);
void pk_table_remove(struct pk_session *s);
bool pk_table_hide(struct pk_session *s);
unsigned int pk_session_table_seq(void);
struct pk_table_walk *pk_table_walk_begin(void);
struct pk_session *pk_table_walk_next(struct pk_table_walk *w);
void pk_table_walk_unget(struct pk_table_walk *w, struct pk_session *s);
void pk_table_walk_end(struct pk_table_walk *w);

#endif /* _PK_SESSION_TABLE_H */
