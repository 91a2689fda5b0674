/* SPDX-License-Identifier: GPL-2.0 */
/*
 * profil-ctl start's collector: the process that keeps a followed
 * program's netlink socket, and with it the profile the kernel holds
 * (Documentation/kmod/held.rst), after start has exited. It serves
 * "show" and "stop" on its socket (collector_sock.h) to its own user and
 * root, and exits after a "stop" or at SIGTERM (or any signal that ends
 * a process): its netlink socket closes, and the kernel stops following
 * the program and frees the profile.
 */
#ifndef PROFIL_CTL_COLLECTOR_DAEMON_H
#define PROFIL_CTL_COLLECTOR_DAEMON_H

#include <sys/types.h>

#include "collect.h"

/**
 * collector_daemon_start() - fork the collector of @c, which follows a
 * process already (collect_attach()), serving on @listen_fd
 * (collector_listen())
 *
 * The collector starts a session of its own (setsid()), has /dev/null
 * for its standard input and output and error, "/" for its directory,
 * every signal at its default and none blocked, and only @c's netlink
 * socket and @listen_fd open of profil-ctl's fds (and of those it was
 * given). The caller closes its
 * copies (collect_free(), close()) and exits.
 *
 * Return: the collector's pid, or -1 with the message printed.
 */
pid_t collector_daemon_start(struct collect *c, int listen_fd);

#endif /* PROFIL_CTL_COLLECTOR_DAEMON_H */
