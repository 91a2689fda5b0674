/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the profil-ctl unit tests (test_cli_*.c) share: running
 * profil-ctl's main() in a child, and looking things up in its output and
 * in a test program's symbols. Built into libclitest.a (Makefile), one
 * object each, so that a test links cli_test_run.o, which calls
 * profil_ctl_main() (cli_main.o: profil-ctl.c's main() renamed), only if
 * it runs profil-ctl.
 */
#ifndef CLI_TEST_H
#define CLI_TEST_H

#include <stddef.h>
#include <stdint.h>

int profil_ctl_main(int argc, char **argv);

/**
 * cli_test_run() - run "profil-ctl ARG0 ..." in a child, in @dir
 * @dir: its working directory
 * @out: its standard output, NUL-terminated (at most @outlen - 1 bytes)
 * @err: its standard error, the same
 * @arg0: the first argument; the list ends with NULL (at most 14)
 * Return: its exit status. Fails the test if it does not exit.
 */
int cli_test_run(const char *dir, char *out, size_t outlen, char *err,
		 size_t errlen, const char *arg0, ...);

/** cli_test_func_addr() - link-time address of function @name of @path */
uint64_t cli_test_func_addr(const char *path, const char *name);

/** cli_test_has() - fail the test unless @s is in @text */
void cli_test_has(const char *text, const char *s);

#endif /* CLI_TEST_H */
