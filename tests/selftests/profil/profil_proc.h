/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Running programs as another user from the selftests: switching user in
 * a child, and copies of executables somewhere that user may run them
 * (the build tree may be in a 0700 directory).
 */
#ifndef PROFIL_SELFTEST_PROC_H
#define PROFIL_SELFTEST_PROC_H

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

/* In a child: become @uid (and its gid) with no supplementary group. */
static inline int become(uid_t uid)
{
	if (uid == (uid_t)-1)
		return 0;
	return setgroups(0, NULL) || setgid(uid) || setuid(uid) ? -1 : 0;
}

/* Copy the file @src to a new @dst of mode 0755. Return: 0 or -errno. */
static inline int copy_exe(const char *src, const char *dst)
{
	char buf[65536];
	int in, out, ret;
	ssize_t n;

	in = open(src, O_RDONLY | O_CLOEXEC);
	if (in < 0)
		return -errno;
	out = open(dst, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0700);
	if (out < 0) {
		ret = -errno;
		goto close_in;
	}
	while ((n = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, n) != n)
			break;
	ret = n < 0 ? -errno : n > 0 ? -EIO : 0;
	/* fchmod(): the umask may have taken bits from open()'s mode. */
	if (!ret && fchmod(out, 0755))
		ret = -errno;
	/* Closed before anyone runs it, or execve() fails with ETXTBSY. */
	if (close(out) && !ret)
		ret = -errno;
close_in:
	close(in);
	return ret;
}

#endif /* PROFIL_SELFTEST_PROC_H */
