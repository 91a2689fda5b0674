/* SPDX-License-Identifier: GPL-2.0 */
/*
 * profil-ctl's subcommands. Each is int cmd_<name>(argc, argv): argv[0]
 * is the command's name, options follow (getopt_long from optind = 1).
 * Return CTL_EXIT_OK, CTL_EXIT_FAIL or CTL_EXIT_USAGE (ctl.h). Each
 * answers -h/--help with ctl_help() and its options table, which is what
 * "profil-ctl help COMMAND" runs.
 *
 * To add a command: declare it here, define it in a builtin-<name>.c of
 * its own (the Makefile builds every .c file of cli/ and of its layers),
 * add one line to the table in profil-ctl.c.
 */
#ifndef PROFIL_CTL_COMMANDS_H
#define PROFIL_CTL_COMMANDS_H

/**
 * struct ctl_command - one entry of the dispatch table
 * @name: the word after "profil-ctl"
 * @fn: the command
 * @args: its synopsis after the name, for its help and usage errors
 * @summary: one line for "help"
 */
struct ctl_command {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *args;
	const char *summary;
};

/* Offline half: cli/builtin-report.c. */
int cmd_report(int argc, char **argv);

/* Live half: cli/target/live.c and friends. */
int cmd_run(int argc, char **argv);
int cmd_attach(int argc, char **argv);
/* Every process of the machine: cli/builtin-record.c. */
int cmd_record(int argc, char **argv);
/* The machine's profile over HTTP, as pprof serves: cli/builtin-serve.c. */
int cmd_serve(int argc, char **argv);
int cmd_start(int argc, char **argv);
int cmd_stop(int argc, char **argv);
int cmd_status(int argc, char **argv);
int cmd_show(int argc, char **argv);
/* The live view: cli/builtin-top.c. */
int cmd_top(int argc, char **argv);

/* The table entry for @name, or NULL (for usage messages). */
const struct ctl_command *ctl_command_find(const char *name);

#endif /* PROFIL_CTL_COMMANDS_H */
