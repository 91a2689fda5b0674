/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Following a program across execve() (follow.c): kernel-held sessions.
 */
#ifndef _PK_FOLLOW_H
#define _PK_FOLLOW_H

struct pk_session;
struct task_struct;

void pk_follow_exec(struct pk_session *s, struct task_struct *task);

#endif /* _PK_FOLLOW_H */
