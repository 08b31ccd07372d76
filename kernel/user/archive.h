/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * archive.h — the boot archive of user programs: a cpio "newc" archive
 * (the portable format of cpio(1) -H newc and of Linux's initramfs) that
 * the Makefile builds from userland/ (tools/make-archive.py) and the loader
 * loads as a module (module= in mosaic.cfg).
 *
 * archive_parse() checks the whole archive before anything uses it; the
 * files stay where the loader put them. Portable C (host tests and
 * fuzzing: tests/unit/test_archive.c, tests/fuzz/fuzz_archive.c); no locks,
 * no allocation. The rules are in docs/userland.md ("The boot archive").
 */
#ifndef MOSAIC_USER_ARCHIVE_H
#define MOSAIC_USER_ARCHIVE_H
#include <stddef.h>
#include <stdint.h>

#define ARCHIVE_FILES_MAX 64
#define ARCHIVE_NAME_MAX  32          /* with its NUL */
#define ARCHIVE_SIZE_MAX  (64ul << 20)
#define ARCHIVE_FILE_MAX  (16ul << 20)
#define ARCHIVE_HEADER    110         /* bytes of a newc header */
#define ARCHIVE_ERR_MAX   160

struct archive_file {
	char name[ARCHIVE_NAME_MAX];
	const uint8_t *data;              /* inside the archive */
	uint64_t size;
};

struct archive {
	uint32_t count;
	struct archive_file files[ARCHIVE_FILES_MAX];
};

/* Checks the archive in data[0..size) and lists its files in *out.
 * Accepted: a sequence of newc entries (magic "070701", thirteen fields of
 * eight hex digits, check field 0), each a regular file with a name of
 * 1..ARCHIVE_NAME_MAX-1 characters of [A-Za-z0-9._-] not starting with '.',
 * its name and data inside the archive, padded to 4 bytes; no name twice;
 * at most ARCHIVE_FILES_MAX files of at most ARCHIVE_FILE_MAX bytes; the
 * entry "TRAILER!!!" last, followed by nothing but zero bytes; size at most
 * ARCHIVE_SIZE_MAX. Returns 0, or -1 with one line in err naming the entry
 * (its offset, and its name once known) and what is wrong. *out is
 * unspecified after an error. */
int archive_parse(const void *data, uint64_t size, struct archive *out, char *err,
		  size_t err_size);
/* The file called name, or NULL. */
const struct archive_file *archive_find(const struct archive *a, const char *name);

#endif
