/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Host tests for the boot archive reader (kernel/user/archive.c): a
 * well-formed newc archive lists its files where they are; truncation,
 * damaged headers, names, file types, duplicates, missing or trailing data
 * are each refused with a message naming the entry. At each limit of
 * archive.h (name length, file count, file size, archive size) the largest
 * allowed is accepted and one more is refused with a message naming it.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <user/archive.h>
#include <tests/unit/cpio_writer.h>

static uint8_t buf[8192];
static struct cpio_out o;
static struct archive ar;
static char err[ARCHIVE_ERR_MAX];

static void start(void)
{
	o = (struct cpio_out){ buf, sizeof(buf), 0 };
	memset(buf, 0, sizeof(buf));
}

static void make_good(void)
{
	start();
	assert_int_equal(cpio_put(&o, "init", "\x7f" "ELF-init", 9, 0), 0);
	assert_int_equal(cpio_put(&o, "init.rc", "hello\n", 6, 0), 0);
	assert_int_equal(cpio_put(&o, "empty", "", 0, 0), 0);
	assert_int_equal(cpio_trailer(&o), 0);
}

/* Parses o's archive (buf, or a large one) into ar and err. */
static int parse(void)
{
	memset(err, 'x', sizeof(err));
	return archive_parse(o.buf, o.len, &ar, err, sizeof(err));
}

static void expect_refused(const char *want)
{
	assert_int_equal(parse(), -1);
	if (!strstr(err, want))
		fail_msg("message '%s' does not contain '%s'", err, want);
}

static void test_good(void **state)
{
	(void)state;
	make_good();
	assert_int_equal(parse(), 0);
	assert_string_equal(err, "");
	assert_int_equal(ar.count, 3);
	const struct archive_file *f = archive_find(&ar, "init.rc");
	assert_non_null(f);
	assert_int_equal(f->size, 6);
	assert_memory_equal(f->data, "hello\n", 6);
	assert_true(f->data > buf && f->data < buf + o.len);
	assert_int_equal(archive_find(&ar, "empty")->size, 0);
	assert_null(archive_find(&ar, "hello"));
	o.len += 512;   /* zero padding after the trailer, as cpio(1) writes */
	assert_int_equal(parse(), 0);
}

static void test_truncated(void **state)
{
	(void)state;
	make_good();
	size_t full = o.len;
	for (size_t n = 0; n < full; n++) {
		o.len = n;
		assert_int_equal(parse(), -1);
		assert_true(err[0] != 0);
	}
	o.len = 50;
	expect_refused("entry at 0: header runs past the end (50 bytes); truncated, or no TRAILER!!! entry?");
	start();
	cpio_put(&o, "init", "abcd", 4, 0);
	expect_refused("entry at 120: header runs past the end");   /* no trailer */
}

static void test_damaged_headers(void **state)
{
	(void)state;
	make_good();
	buf[5] = '2';   /* 070702: the CRC variant */
	expect_refused("entry at 0: no newc magic 070701");
	make_good();
	buf[6 + 8 * 6 + 3] = 'g';   /* filesize */
	expect_refused("entry at 0: header field 7 is not 8 hex digits");
	make_good();
	memcpy(buf + 6 + 8 * 6, "00100000", 8);   /* a huge file */
	expect_refused("entry at 0 (init): 1048576 data bytes run past the end; truncated?");
	make_good();
	memcpy(buf + 6 + 8 * 11, "00000001", 8);   /* name size 1: just the NUL */
	expect_refused("entry at 0: name size 1 is outside 2..32 or past the end");
	make_good();
	memcpy(buf + 6 + 8 * 11, "00000004", 8);   /* "ini" without its NUL */
	expect_refused("entry at 0: name is not 3 characters and a NUL");
	make_good();
	memcpy(buf + 6 + 8 * 1, "000041ED", 8);   /* a directory */
	expect_refused("entry at 0 (init): not a regular file (mode 0x41ed, check 0)");
	make_good();
	memcpy(buf + 6 + 8 * 12, "00000001", 8);
	expect_refused("not a regular file (mode 0x81a4, check 1)");
}

static void test_names_twice_trailing(void **state)
{
	(void)state;
	start();
	cpio_put(&o, "bin/init", "x", 1, 0);
	cpio_trailer(&o);
	expect_refused("entry at 0: name 'bin/init' is not 1..31 of A-Za-z0-9._-");
	start();
	cpio_put(&o, ".profile", "x", 1, 0);
	cpio_trailer(&o);
	expect_refused("name '.profile'");
	start();
	cpio_put(&o, "a", "x", 1, 0);
	cpio_put(&o, "a", "y", 1, 0);
	cpio_trailer(&o);
	expect_refused("entry at 116: 'a' is in the archive twice");
	make_good();
	buf[o.len++] = 'z';   /* data after the trailer */
	expect_refused("after the trailer is not 0");
}

/* Names of ARCHIVE_NAME_MAX - 1 characters, not one more. */
static void test_name_limit(void **state)
{
	(void)state;
	char name[ARCHIVE_NAME_MAX + 1];
	memset(name, 'n', sizeof(name));
	name[ARCHIVE_NAME_MAX - 1] = 0;
	start();
	cpio_put(&o, name, "x", 1, 0);
	cpio_trailer(&o);
	assert_int_equal(parse(), 0);
	assert_non_null(archive_find(&ar, name));
	name[ARCHIVE_NAME_MAX - 1] = 'n';
	name[ARCHIVE_NAME_MAX] = 0;
	start();
	cpio_put(&o, name, "x", 1, 0);
	cpio_trailer(&o);
	expect_refused("entry at 0: name size 33 is outside 2..32 or past the end");
}

/* Writes n empty files f0, f1, ... and the trailer. */
static void make_files(int n)
{
	start();
	for (int i = 0; i < n; i++) {
		char name[16];
		snprintf(name, sizeof(name), "f%d", i);
		assert_int_equal(cpio_put(&o, name, "", 0, 0), 0);
	}
	assert_int_equal(cpio_trailer(&o), 0);
}

/* ARCHIVE_FILES_MAX files, not one more. */
static void test_count_limit(void **state)
{
	(void)state;
	make_files(ARCHIVE_FILES_MAX);
	assert_int_equal(parse(), 0);
	assert_int_equal(ar.count, ARCHIVE_FILES_MAX);
	assert_non_null(archive_find(&ar, "f63"));
	make_files(ARCHIVE_FILES_MAX + 1);
	expect_refused("entry at 7424 (f64): more than 64 files or 16777216 bytes");
}

/* A file of ARCHIVE_FILE_MAX bytes, not one more (the data is left zero:
 * the reader never looks at it). */
static void test_file_size_limit(void **state)
{
	(void)state;
	size_t cap = ARCHIVE_FILE_MAX + 512;
	uint8_t *big = calloc(1, cap);
	assert_non_null(big);
	o = (struct cpio_out){ big, cap, 0 };
	cpio_put(&o, "init", "x", 1, 0);
	const uint8_t *data = cpio_put_sparse(&o, "big", ARCHIVE_FILE_MAX, 0);
	assert_non_null(data);
	assert_int_equal(cpio_trailer(&o), 0);
	assert_int_equal(parse(), 0);
	assert_int_equal(ar.count, 2);
	assert_int_equal(ar.files[1].size, ARCHIVE_FILE_MAX);
	assert_ptr_equal(ar.files[1].data, data);
	o.len = 0;
	cpio_put(&o, "init", "x", 1, 0);
	assert_non_null(cpio_put_sparse(&o, "big", ARCHIVE_FILE_MAX + 1, 0));
	assert_int_equal(cpio_trailer(&o), 0);
	expect_refused("entry at 120 (big): more than 64 files or 16777216 bytes");
	free(big);
}

/* An archive of ARCHIVE_SIZE_MAX bytes, not one more: four files (three of
 * ARCHIVE_FILE_MAX bytes) whose headers (4 * 112 bytes) and trailer (124)
 * leave the fourth ARCHIVE_FILE_MAX - 572 bytes. */
static void test_archive_size_limit(void **state)
{
	(void)state;
	uint8_t *big = calloc(1, ARCHIVE_SIZE_MAX + 1);
	assert_non_null(big);
	o = (struct cpio_out){ big, ARCHIVE_SIZE_MAX + 1, 0 };
	for (int i = 0; i < 4; i++) {
		char name[2] = { (char)('a' + i), 0 };
		assert_non_null(cpio_put_sparse(&o, name, ARCHIVE_FILE_MAX - (i == 3 ? 572 : 0), 0));
	}
	assert_int_equal(cpio_trailer(&o), 0);
	assert_int_equal(o.len, ARCHIVE_SIZE_MAX);
	assert_int_equal(parse(), 0);
	assert_int_equal(ar.count, 4);
	assert_int_equal(ar.files[3].size, ARCHIVE_FILE_MAX - 572);
	o.len++;   /* one zero byte after the trailer */
	expect_refused("archive of 67108865 bytes; at most 67108864");
	free(big);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_good),
		cmocka_unit_test(test_truncated),
		cmocka_unit_test(test_damaged_headers),
		cmocka_unit_test(test_names_twice_trailing),
		cmocka_unit_test(test_name_limit),
		cmocka_unit_test(test_count_limit),
		cmocka_unit_test(test_file_size_limit),
		cmocka_unit_test(test_archive_size_limit),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
