/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The machine-wide profile (machine.c): one collector that follows every
 * process of the machine, or of one cgroup.
 */
#ifndef _PK_MACHINE_H
#define _PK_MACHINE_H

struct pk_collector;
struct pk_params;

int pk_machine_claim(struct pk_collector *c);
void pk_machine_release(struct pk_collector *c);
int pk_machine_follow_all(const struct pk_params *req);

#endif /* _PK_MACHINE_H */
