// SPDX-License-Identifier: GPL-2.0
/*
 * An ordinary program for profil-ctl to profile: the examples' workload
 * (three functions doing 50, 30 and 20 % of the work) and nothing of
 * profil in it. `make demo` runs it under `profil-ctl run`.
 */
#include <stdlib.h>

#include "workload.h"

int main(int argc, char **argv)
{
	workload_run(argc > 1 ? strtoul(argv[1], NULL, 0) : 40000000);
	return 0;
}
