// SPDX-License-Identifier: GPL-2.0
/*
 * profil-ctl report: a gmon.out file rendered per function or per line.
 */
#include "commands.h"
#include "ctl.h"

int cmd_report(int argc, char **argv)
{
	(void)argc;
	return ctl_usage_error(argv[0], "not implemented yet");
}
