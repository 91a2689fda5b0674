// SPDX-License-Identifier: GPL-2.0
/*
 * profil-ctl: profil(2) by profil.ko from the command line.
 *
 *   profil-ctl <command> [options]    see "profil-ctl help"
 *
 * Exit status: 0 success, 1 failure, 2 usage error.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "ctl.h"

#ifndef PROFIL_CTL_VERSION
#define PROFIL_CTL_VERSION "unknown"
#endif

static int cmd_help(int argc, char **argv);

static const struct ctl_command ctl_commands[] = {
	{ "run", cmd_run, "[options] -- PROGRAM [ARG...]",
	  "run PROGRAM under profil and show its profile" },
	{ "attach", cmd_attach, "[options] PID",
	  "profile a running process until interrupted" },
	{ "record", cmd_record, "-a | -G CGROUP [options] [-- COMMAND [ARG...]]",
	  "profile every process of the machine until interrupted" },
	{ "serve", cmd_serve, "(--auth-file=FILE | --no-auth) [options]",
	  "serve the machine's profile over HTTP, as Go's net/http/pprof" },
	{ "start", cmd_start, "[options] PID",
	  "follow a process; a collector keeps its profile until stop" },
	{ "stop", cmd_stop, "[options] PID",
	  "end start's collector, with the final profile" },
	{ "status", cmd_status, "[options] [PID]",
	  "the kernel's sessions and their tick counts" },
	{ "show", cmd_show, "[options] PID",
	  "the profile of a process start follows, or its own buffer" },
	{ "top", cmd_top, "[options] -p PID | [options] -- PROGRAM [ARG...]",
	  "a live view of a program's functions, refreshed every second" },
	{ "report", cmd_report, "[options] [BINARY] [FILE...]",
	  "gmon.out files or saved profiles: one, merged, or two compared" },
	{ "help", cmd_help, "[COMMAND]",
	  "this list, or one command's usage and options" },
};

#define NCOMMANDS (sizeof(ctl_commands) / sizeof(ctl_commands[0]))

const struct ctl_command *ctl_command_find(const char *name)
{
	size_t i;

	for (i = 0; i < NCOMMANDS; i++)
		if (!strcmp(ctl_commands[i].name, name))
			return &ctl_commands[i];
	return NULL;
}

static void usage(FILE *f)
{
	size_t i;

	fprintf(f, "usage: profil-ctl <command> [options]\n"
		   "       profil-ctl --version | --help\n\ncommands:\n");
	for (i = 0; i < NCOMMANDS; i++)
		fprintf(f, "  %-8s %s\n", ctl_commands[i].name,
			ctl_commands[i].summary);
	fprintf(f, "\n\"profil-ctl help COMMAND\" shows a command's options;"
		   " see profil-ctl(1).\n");
}

/* "help COMMAND" is "COMMAND --help": each command lists its options. */
static int cmd_help(int argc, char **argv)
{
	char help[] = "--help";
	const struct ctl_command *c;
	char *args[3] = { NULL, help, NULL };

	if (argc > 2)
		return ctl_usage_error(argv[0], "too many arguments");
	if (argc < 2) {
		usage(stdout);
		return CTL_EXIT_OK;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		ctl_help(argv[0], NULL);
		return CTL_EXIT_OK;
	}
	c = ctl_command_find(argv[1]);
	if (!c)
		return ctl_usage_error(argv[0], "unknown command '%s'",
				       argv[1]);
	args[0] = (char *)c->name;
	return c->fn(2, args);
}

int main(int argc, char **argv)
{
	const struct ctl_command *c;

	if (argc < 2) {
		usage(stderr);
		return CTL_EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")) {
		printf("profil-ctl %s\n", PROFIL_CTL_VERSION);
		return CTL_EXIT_OK;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		usage(stdout);
		return CTL_EXIT_OK;
	}
	c = ctl_command_find(argv[1]);
	if (!c) {
		fprintf(stderr, "profil-ctl: unknown command '%s'\n", argv[1]);
		usage(stderr);
		return CTL_EXIT_USAGE;
	}
	return c->fn(argc - 1, argv + 1);
}
