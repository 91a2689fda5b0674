// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The last error of this thread: errno and the kernel's extended ack text.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "profil.h"
#include "internal.h"

#define PF_MSG_MAX 256

static __thread int last_err;
static __thread bool have_extack;
static __thread char extack[PF_MSG_MAX];
static __thread char text[PF_MSG_MAX];

void pf_err_clear(void)
{
	last_err = 0;
	have_extack = false;
	extack[0] = '\0';
}

void pf_err_set(int err, const char *msg)
{
	last_err = err;
	have_extack = msg && *msg;
	if (have_extack)
		snprintf(extack, sizeof(extack), "%s", msg);
	else
		extack[0] = '\0';
	errno = err;
}

PROFIL_EXPORT const char *profil_strerror(void)
{
	if (have_extack)
		return extack;
	/* GNU strerror_r may return a static string instead of filling text. */
	return strerror_r(last_err, text, sizeof(text));
}

PROFIL_EXPORT const char *profil_last_extack(void)
{
	return have_extack ? extack : NULL;
}
