/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * archive_model.h — the plan of an input of the boot archive's fuzz harness
 * (tests/fuzz/fuzz_archive.c), and the model that says what the reader
 * (kernel/user/archive.c) must make of it: archive.h's rules applied to
 * the plan, in the order archive.c checks them, without the reader's code.
 */
#ifndef MOSAIC_FUZZ_ARCHIVE_MODEL_H
#define MOSAIC_FUZZ_ARCHIVE_MODEL_H
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <user/archive.h>
#include <tests/unit/cpio_writer.h>

#define ENTRIES_MAX (ARCHIVE_FILES_MAX + 3)   /* files (two too many at most), the trailer */
#define KEEP        64                        /* data bytes written per entry */
#define NO_BYTE     UINT64_MAX

/* The name characters, '.' last: it may not come first. */
static const char name_chars[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
				 "0123456789_-.";

/* One newc entry as written: its header fields and name, where it lies. */
struct entry {
	char name[ARCHIVE_NAME_MAX + 4];   /* the namesize bytes written */
	uint32_t namesize, mode, check;
	uint64_t size;                     /* the filesize field */
	uint64_t off, data_off;            /* where the entry and its data start */
	uint8_t data[KEEP];                /* its first data bytes */
	int claim;                         /* size is far more than the input holds */
};

/* An input: its entries one after the other (each header, name, data
 * padded to 4), then zero bytes; or cut short. */
struct archive_plan {
	struct entry e[ENTRIES_MAX];
	int n;              /* entries, the trailer among them if there is one */
	uint64_t end;       /* where the last entry's padding ends */
	uint64_t len;       /* the input: end and a tail, or cut short */
	uint64_t bad;       /* a non-zero byte of the tail, or NO_BYTE */
};

/* x rounded up to a multiple of 4. */
static uint64_t pad4(uint64_t x)
{
	return (x + 3) & ~3ull;
}

/* ---- the model: archive.h's rules, applied to the plan in archive.c's
 * order (each entry: header in the input, name size, name characters and
 * NUL, data in the input, the trailer, name set, file type, count and size,
 * no name twice, padding in the input; after the trailer only zero bytes). */

/* The name as the reader's messages show it: '?' for bytes outside ' '..'~'. */
static void shown_name(const struct entry *e, char *out)
{
	uint32_t i = 0;
	for (; i + 1 < e->namesize; i++)
		out[i] = e->name[i] >= ' ' && e->name[i] <= '~' ? e->name[i] : '?';
	out[i] = 0;
}

/* Whether e's name (with its NUL) is 1..31 of name_chars, not '.' first. */
static int name_valid(const struct entry *e)
{
	size_t n = strlen(e->name);
	return n && n < ARCHIVE_NAME_MAX && e->name[0] != '.' && strspn(e->name, name_chars) == n;
}

/* After the trailer in entry t of pl: only zero bytes (the next entry's
 * header starts with '0'). Returns 1, or 0 with the message in want. */
static int model_after_trailer(const struct archive_plan *pl, int t, char *want, size_t size)
{
	uint64_t at = t + 1 < pl->n ? pl->e[t + 1].off : pl->bad;
	if (at >= pl->len)
		return 1;
	snprintf(want, size, "byte %llu after the trailer is not 0", (unsigned long long)at);
	return 0;
}

/* Whether the input pl describes must be accepted: 1, its files' entry
 * numbers in files[0..*count); or 0 and the reader's message in want. */
static int model(const struct archive_plan *pl, int *files, int *count, char *want, size_t size)
{
	*count = 0;
	if (pl->len > ARCHIVE_SIZE_MAX)
		return snprintf(want, size, "archive of %llu bytes; at most %lu",
				(unsigned long long)pl->len, ARCHIVE_SIZE_MAX), 0;
	for (int i = 0;; i++) {
		unsigned long long off = i < pl->n ? pl->e[i].off : pl->end;
		if (pl->len - off < CPIO_HEADER)
			return snprintf(want, size, "entry at %llu: header runs past the end (%llu bytes); "
					"truncated, or no TRAILER!!! entry?", off, (unsigned long long)pl->len), 0;
		if (i == pl->n)   /* zero bytes where a header should be */
			return snprintf(want, size, "entry at %llu: no newc magic 070701", off), 0;
		const struct entry *e = &pl->e[i];
		uint32_t ns = e->namesize;
		if (ns < 2 || ns > ARCHIVE_NAME_MAX || ns > pl->len - off - CPIO_HEADER)
			return snprintf(want, size, "entry at %llu: name size %u is outside 2..%d or past the end",
					off, ns, ARCHIVE_NAME_MAX), 0;
		if (e->name[ns - 1] || memchr(e->name, 0, ns - 1))
			return snprintf(want, size, "entry at %llu: name is not %u characters and a NUL",
					off, ns - 1), 0;
		char shown[ARCHIVE_NAME_MAX];
		shown_name(e, shown);
		if (e->data_off > pl->len || e->size > pl->len - e->data_off)
			return snprintf(want, size, "entry at %llu (%s): %llu data bytes run past the end; truncated?",
					off, shown, (unsigned long long)e->size), 0;
		if (strcmp(e->name, "TRAILER!!!") == 0)
			return model_after_trailer(pl, i, want, size);
		if (!name_valid(e))
			return snprintf(want, size, "entry at %llu: name '%s' is not 1..%d of A-Za-z0-9._- "
					"(no leading '.')", off, shown, ARCHIVE_NAME_MAX - 1), 0;
		if ((e->mode & 0170000u) != 0100000u || e->check)
			return snprintf(want, size, "entry at %llu (%s): not a regular file (mode 0x%x, check %u)",
					off, shown, e->mode, e->check), 0;
		if (e->size > ARCHIVE_FILE_MAX || *count == ARCHIVE_FILES_MAX)
			return snprintf(want, size, "entry at %llu (%s): more than %d files or %lu bytes", off,
					shown, ARCHIVE_FILES_MAX, ARCHIVE_FILE_MAX), 0;
		for (int j = 0; j < *count; j++)
			if (pl->e[files[j]].namesize == ns && strcmp(pl->e[files[j]].name, e->name) == 0)
				return snprintf(want, size, "entry at %llu: '%s' is in the archive twice", off,
						shown), 0;
		files[(*count)++] = i;
		if (pad4(e->data_off + e->size) > pl->len)
			return snprintf(want, size, "entry at %llu (%s): padding runs past the end; truncated?",
					(unsigned long long)e->data_off, shown), 0;
	}
}

#endif
