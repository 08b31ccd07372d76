/*
 * Host tests for the boot archive reader (kernel/user/archive.c): a
 * well-formed newc archive lists its files where they are; truncation,
 * damaged headers, names, file types, duplicates, missing or trailing data
 * are each refused with a message naming the entry.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include "archive.h"
#include "cpio_writer.h"

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

static int parse(void)
{
	memset(err, 'x', sizeof(err));
	return archive_parse(buf, o.len, &ar, err, sizeof(err));
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

static void test_names_and_counts(void **state)
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
	start();
	for (int i = 0; i <= ARCHIVE_FILES_MAX; i++) {
		char name[16];
		snprintf(name, sizeof(name), "f%d", i);
		cpio_put(&o, name, "", 0, 0);
	}
	cpio_trailer(&o);
	expect_refused("(f64): more than 64 files");
	make_good();
	buf[o.len++] = 'z';   /* data after the trailer */
	expect_refused("after the trailer is not 0");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_good),
		cmocka_unit_test(test_truncated),
		cmocka_unit_test(test_damaged_headers),
		cmocka_unit_test(test_names_and_counts),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
