/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Following a process (attach.c): its threads at a start, and the threads
 * and processes it makes, from the fork probe to their first return to
 * user mode.
 */
#ifndef _PK_ATTACH_H
#define _PK_ATTACH_H

struct callback_head;
struct pk_attach;
struct pk_session;
struct task_struct;

struct pk_attach *pk_attach_alloc(void);
void pk_attach_refill(struct callback_head *head);
int pk_session_attach_all(struct pk_session *s, struct task_struct *leader);
void pk_session_fork(struct task_struct *parent, struct task_struct *child);

#endif /* _PK_ATTACH_H */
