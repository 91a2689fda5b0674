// SPDX-License-Identifier: GPL-2.0
/*
 * The gmon.out writer: byte-exact header and TIME_HIST records, extra
 * records for counts above 65535, the PIE load bias, the file name and
 * the atomic, never-silent save.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/stat.h>
#include <unistd.h>

#include "profil.h"
#include "internal.h"
#include "mock_mnl.h"

#define HDR_LEN		20
#define PTR		sizeof(void *)
#define REC_HDR_LEN	(1 + 2 * PTR + 4 + 4 + 15 + 1)

struct mem {
	char *buf;
	size_t len;
};

static void write_mem(const struct profil_gmon_hist *h, struct mem *m)
{
	FILE *f = open_memstream(&m->buf, &m->len);

	assert_non_null(f);
	assert_int_equal(profil_gmon_write(f, h), 0);
	assert_int_equal(fclose(f), 0);
}

/* Checks the record header at @p; returns the bins. */
static const unsigned char *check_rec(const unsigned char *p, uint64_t low,
				      uint64_t high, uint32_t n, uint32_t rate)
{
	unsigned char want[REC_HDR_LEN] = { 0 };
	uintptr_t l = (uintptr_t)low, hi = (uintptr_t)high;

	want[0] = 0;	/* GMON_TAG_TIME_HIST */
	memcpy(want + 1, &l, PTR);
	memcpy(want + 1 + PTR, &hi, PTR);
	memcpy(want + 1 + 2 * PTR, &n, 4);
	memcpy(want + 5 + 2 * PTR, &rate, 4);
	memcpy(want + 9 + 2 * PTR, "seconds", 7);
	want[REC_HDR_LEN - 1] = 's';
	assert_memory_equal(p, want, REC_HDR_LEN);
	return p + REC_HDR_LEN;
}

static void test_header_and_record(void **state)
{
	static const unsigned char hdr[HDR_LEN] = {
		'g', 'm', 'o', 'n', 1, 0, 0, 0,
	};
	const uint16_t bins[3] = { 1, 0x1234, 65535 };
	struct profil_gmon_hist h = {
		.low_pc = 0x1000, .high_pc = 0x100c, .hist_size = 3,
		.prof_rate = 1000, .counts = bins, .width = 2,
	};
	struct mem m;
	const unsigned char *p;

	(void)state;
	write_mem(&h, &m);
	assert_int_equal(m.len, HDR_LEN + REC_HDR_LEN + sizeof(bins));
	assert_memory_equal(m.buf, hdr, HDR_LEN);	/* LE host */
	p = check_rec((unsigned char *)m.buf + HDR_LEN, 0x1000, 0x100c, 3, 1000);
	assert_memory_equal(p, bins, sizeof(bins));
	if (PTR == 8)	/* semantics.md (e): 41 bytes before the bins */
		assert_int_equal(REC_HDR_LEN, 41);
	free(m.buf);
}

static void test_empty_histogram_has_a_record(void **state)
{
	const uint16_t bins[2] = { 0, 0 };
	struct profil_gmon_hist h = {
		.low_pc = 0x2000, .high_pc = 0x2008, .hist_size = 2,
		.prof_rate = 100, .counts = bins, .width = 2,
	};
	struct mem m;

	(void)state;
	write_mem(&h, &m);
	assert_int_equal(m.len, HDR_LEN + REC_HDR_LEN + 4);
	check_rec((unsigned char *)m.buf + HDR_LEN, 0x2000, 0x2008, 2, 100);
	free(m.buf);
}

static void test_overflow_records(void **state)
{
	const uint32_t counts[5] = { 0, 65535, 65536, 200000, 7 };
	const uint16_t want[4][5] = {
		{ 0, 65535, 65535, 65535, 7 },
		{ 0, 0, 1, 65535, 0 },
		{ 0, 0, 0, 65535, 0 },
		{ 0, 0, 0, 3395, 0 },
	};
	struct profil_gmon_hist h = {
		.low_pc = 0x400000, .high_pc = 0x400014, .hist_size = 5,
		.prof_rate = 250, .counts = counts, .width = 4,
	};
	const unsigned char *p;
	struct mem m;
	int k;

	(void)state;
	write_mem(&h, &m);
	/* ceil(200000 / 65535) = 4 records, all with the same range. */
	assert_int_equal(m.len, HDR_LEN + 4 * (REC_HDR_LEN + sizeof(want[0])));
	p = (unsigned char *)m.buf + HDR_LEN;
	for (k = 0; k < 4; k++) {
		p = check_rec(p, 0x400000, 0x400014, 5, 250);
		assert_memory_equal(p, want[k], sizeof(want[k]));
		p += sizeof(want[k]);
	}
	free(m.buf);
}

static void test_overflow_u64_exact_multiple(void **state)
{
	const uint64_t counts[1] = { 2 * 65535ULL };
	struct profil_gmon_hist h = {
		.low_pc = 0, .high_pc = 4, .hist_size = 1,
		.prof_rate = 100, .counts = counts, .width = 8,
	};
	const unsigned char *p;
	uint16_t v;
	struct mem m;

	(void)state;
	write_mem(&h, &m);
	assert_int_equal(m.len, HDR_LEN + 2 * (REC_HDR_LEN + 2));
	p = check_rec((unsigned char *)m.buf + HDR_LEN, 0, 4, 1, 100);
	memcpy(&v, p, 2);
	assert_int_equal(v, 65535);
	p = check_rec(p + 2, 0, 4, 1, 100);
	memcpy(&v, p, 2);
	assert_int_equal(v, 65535);
	free(m.buf);
}

static void test_write_rejects_bad_args(void **state)
{
	const uint16_t bins[1] = { 0 };
	struct profil_gmon_hist h = {
		.low_pc = 0, .high_pc = 4, .hist_size = 1,
		.prof_rate = 100, .counts = bins, .width = 3,
	};
	FILE *f = fopen("/dev/null", "w");

	(void)state;
	pf_err_set(EFAULT, "an earlier failure");
	assert_int_equal(profil_gmon_write(f, &h), -1);
	assert_int_equal(errno, EINVAL);
	assert_string_equal(profil_strerror(), strerror(EINVAL));
	h.width = 2;
	h.high_pc = 0;
	h.low_pc = 8;
	assert_int_equal(profil_gmon_write(f, &h), -1);
	assert_int_equal(errno, EINVAL);
	fclose(f);
}

static void test_write_error(void **state)
{
	const uint16_t bins[1] = { 0 };
	struct profil_gmon_hist h = {
		.low_pc = 0, .high_pc = 4, .hist_size = 1,
		.prof_rate = 100, .counts = bins, .width = 2,
	};
	FILE *f = fopen("/dev/full", "w");

	(void)state;
	assert_non_null(f);
	pf_err_set(EFAULT, "an earlier failure");
	assert_int_equal(profil_gmon_write(f, &h), -1);
	assert_int_equal(errno, ENOSPC);
	assert_string_equal(profil_strerror(), strerror(ENOSPC));
	assert_null(profil_last_extack());
	fclose(f);
}

/* The bias computed independently: AT_PHDR minus PT_PHDR's p_vaddr. */
static uint64_t bias_from_auxv(void)
{
	const ElfW(Phdr) *ph = (const void *)getauxval(AT_PHDR);
	unsigned long i, n = getauxval(AT_PHNUM);

	for (i = 0; i < n; i++)
		if (ph[i].p_type == PT_PHDR)
			return (uintptr_t)ph - ph[i].p_vaddr;
	return 0;
}

static void test_load_bias(void **state)
{
	(void)state;
	assert_int_equal(pf_gmon_load_bias(), bias_from_auxv());
}

static char tmpdir[64];

static int setup_dir(void **state)
{
	(void)state;
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/test_lib_gmon.XXXXXX");
	assert_non_null(mkdtemp(tmpdir));
	assert_int_equal(chdir(tmpdir), 0);
	unsetenv("GMON_OUT_PREFIX");
	return 0;
}

static int teardown_dir(void **state)
{
	char cmd[128];

	(void)state;
	assert_int_equal(chdir("/"), 0);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", tmpdir);
	assert_int_equal(system(cmd), 0);
	return 0;
}

static void test_filename(void **state)
{
	char name[64], want[64];

	(void)state;
	assert_int_equal(pf_gmon_filename(name, sizeof(name)), 0);
	assert_string_equal(name, "gmon.out");
	setenv("GMON_OUT_PREFIX", "/tmp/prof", 1);
	assert_int_equal(pf_gmon_filename(name, sizeof(name)), 0);
	snprintf(want, sizeof(want), "/tmp/prof.%ld", (long)getpid());
	assert_string_equal(name, want);
	assert_int_equal(pf_gmon_filename(name, 8), -1);
	assert_int_equal(errno, ENAMETOOLONG);
	setenv("GMON_OUT_PREFIX", "", 1);
	assert_int_equal(pf_gmon_filename(name, sizeof(name)), 0);
	assert_string_equal(name, "gmon.out");
}

static unsigned char *slurp(const char *path, size_t *len)
{
	static unsigned char buf[4096];
	FILE *f = fopen(path, "r");

	assert_non_null(f);
	*len = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	return buf;
}

static void test_save_removes_bias(void **state)
{
	const unsigned short bins[4] = { 3, 0, 9, 1 };
	uint64_t bias = pf_gmon_load_bias();
	const unsigned char *p;
	struct stat st;
	size_t len;
	mode_t old;

	(void)state;
	old = umask(027);
	assert_int_equal(pf_gmon_save("_mcleanup", bias + 0x1000, bias + 0x1010,
				      bins, 4, 1000), 0);
	umask(old);
	p = slurp("gmon.out", &len);
	assert_int_equal(len, HDR_LEN + REC_HDR_LEN + sizeof(bins));
	p = check_rec(p + HDR_LEN, 0x1000, 0x1010, 4, 1000);
	assert_memory_equal(p, bins, sizeof(bins));
	assert_int_equal(stat("gmon.out", &st), 0);
	assert_int_equal(st.st_mode & 07777, 0640);
	/* No temporary file is left behind. */
	assert_int_equal(system("test $(ls -A | wc -l) -eq 1"), 0);
}

static void test_save_with_prefix(void **state)
{
	const unsigned short bins[1] = { 5 };
	uint64_t bias = pf_gmon_load_bias();
	char name[64];
	size_t len;

	(void)state;
	setenv("GMON_OUT_PREFIX", "prof", 1);
	assert_int_equal(pf_gmon_save("_mcleanup", bias + 0x10, bias + 0x14,
				      bins, 1, 100), 0);
	snprintf(name, sizeof(name), "prof.%ld", (long)getpid());
	slurp(name, &len);
	assert_int_equal(len, HDR_LEN + REC_HDR_LEN + 2);
	assert_int_equal(access("gmon.out", F_OK), -1);
}

static void test_save_replaces_symlink(void **state)
{
	const unsigned short bins[1] = { 5 };
	uint64_t bias = pf_gmon_load_bias();
	struct stat st;
	size_t len;

	(void)state;
	/* A symlink planted as gmon.out is replaced, its target untouched. */
	assert_int_equal(symlink("victim", "gmon.out"), 0);
	assert_int_equal(system("echo keep > victim"), 0);
	assert_int_equal(pf_gmon_save("_mcleanup", bias + 0x10, bias + 0x14,
				      bins, 1, 100), 0);
	assert_int_equal(lstat("gmon.out", &st), 0);
	assert_true(S_ISREG(st.st_mode));
	slurp("victim", &len);
	assert_int_equal(len, 5);
}

/* Runs pf_gmon_save() with stderr captured into @got. */
static int save_captured(char *got, size_t len)
{
	const unsigned short bins[1] = { 5 };
	uint64_t bias = pf_gmon_load_bias();
	int fd, saved, ret, err;
	FILE *f;

	fflush(stderr);
	saved = dup(2);
	fd = open("/tmp/test_lib_gmon.stderr", O_CREAT | O_RDWR | O_TRUNC,
		  0600);
	assert_true(fd >= 0 && saved >= 0);
	dup2(fd, 2);
	close(fd);
	ret = pf_gmon_save("_mcleanup", bias + 0x10, bias + 0x14, bins, 1, 100);
	err = errno;
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	got[0] = '\0';
	f = fopen("/tmp/test_lib_gmon.stderr", "r");
	assert_non_null(f);
	if (!fgets(got, (int)len, f))
		got[0] = '\0';
	fclose(f);
	unlink("/tmp/test_lib_gmon.stderr");
	errno = err;
	return ret;
}

static void test_save_prefix_falls_back(void **state)
{
	char got[128];
	size_t len;

	(void)state;
	/* As glibc: $GMON_OUT_PREFIX.<pid> cannot be created, so gmon.out. */
	setenv("GMON_OUT_PREFIX", "no/such/dir/prof", 1);
	assert_int_equal(save_captured(got, sizeof(got)), 0);
	assert_string_equal(got, "");	/* glibc says nothing either */
	slurp("gmon.out", &len);
	assert_int_equal(len, HDR_LEN + REC_HDR_LEN + 2);
	assert_int_equal(system("test $(ls -A | wc -l) -eq 1"), 0);
}

static void test_save_prefix_names_a_directory(void **state)
{
	char name[64], got[128];
	size_t len;

	(void)state;
	/* The temporary file is created, the rename fails: still gmon.out. */
	setenv("GMON_OUT_PREFIX", "prof", 1);
	snprintf(name, sizeof(name), "prof.%ld", (long)getpid());
	assert_int_equal(mkdir(name, 0700), 0);
	assert_int_equal(save_captured(got, sizeof(got)), 0);
	assert_string_equal(got, "");
	slurp("gmon.out", &len);
	assert_int_equal(len, HDR_LEN + REC_HDR_LEN + 2);
	assert_int_equal(system("test $(ls -A | wc -l) -eq 2"), 0);
}

static void test_save_failure_is_reported(void **state)
{
	char want[128], got[128], gone[80];

	pf_err_set(EFAULT, "an earlier failure");

	(void)state;
	/* A current directory that was removed: nothing can be created. */
	setenv("GMON_OUT_PREFIX", "prof", 1);
	snprintf(gone, sizeof(gone), "%s/gone", tmpdir);
	assert_int_equal(mkdir(gone, 0700), 0);
	assert_int_equal(chdir(gone), 0);
	assert_int_equal(rmdir(gone), 0);
	assert_int_equal(save_captured(got, sizeof(got)), -1);
	assert_int_equal(errno, ENOENT);
	assert_string_equal(profil_strerror(), strerror(ENOENT));
	/* glibc's message: the fallback's name, not the prefix's. */
	snprintf(want, sizeof(want), "_mcleanup: gmon.out: %s\n",
		 strerror(ENOENT));
	assert_string_equal(got, want);
	assert_int_equal(chdir(tmpdir), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_header_and_record),
		cmocka_unit_test(test_empty_histogram_has_a_record),
		cmocka_unit_test(test_overflow_records),
		cmocka_unit_test(test_overflow_u64_exact_multiple),
		cmocka_unit_test(test_write_rejects_bad_args),
		cmocka_unit_test(test_write_error),
		cmocka_unit_test(test_load_bias),
		cmocka_unit_test_setup_teardown(test_filename, setup_dir,
						teardown_dir),
		cmocka_unit_test_setup_teardown(test_save_removes_bias,
						setup_dir, teardown_dir),
		cmocka_unit_test_setup_teardown(test_save_with_prefix,
						setup_dir, teardown_dir),
		cmocka_unit_test_setup_teardown(test_save_replaces_symlink,
						setup_dir, teardown_dir),
		cmocka_unit_test_setup_teardown(test_save_prefix_falls_back,
						setup_dir, teardown_dir),
		cmocka_unit_test_setup_teardown(
			test_save_prefix_names_a_directory, setup_dir,
			teardown_dir),
		cmocka_unit_test_setup_teardown(test_save_failure_is_reported,
						setup_dir, teardown_dir),
	};

	return cmocka_run_group_tests_name("libprofil gmon.out", tests, NULL,
					   NULL);
}
