/* SPDX-License-Identifier: BSD-2-Clause */
/* archive.c — the boot archive's cpio "newc" reader (see archive.h). Every
 * read is bounded by the archive's size; messages go through ksnprintf's
 * subset of printf. */
#include <user/archive.h>
#include <kern/printk.h>
#include <lib/string.h>

#define FIELD_COUNT 13
enum { F_INO, F_MODE, F_UID, F_GID, F_NLINK, F_MTIME, F_FILESIZE, F_DEVMAJOR, F_DEVMINOR,
       F_RDEVMAJOR, F_RDEVMINOR, F_NAMESIZE, F_CHECK };
#define MODE_TYPE    0170000u
#define MODE_REGULAR 0100000u
static const char trailer[] = "TRAILER!!!";

/* Rounds x up to a multiple of 4 (x < 2^63). */
static uint64_t pad4(uint64_t x)
{
	return (x + 3) & ~3ull;
}

/* Eight hex digits at p into *v; 0, or -1 if any is not a hex digit. */
static int hex8(const uint8_t *p, uint32_t *v)
{
	uint32_t r = 0;
	for (int i = 0; i < 8; i++) {
		uint8_t c = p[i], d;
		if (c >= '0' && c <= '9')
			d = c - '0';
		else if (c >= 'a' && c <= 'f')
			d = c - 'a' + 10;
		else if (c >= 'A' && c <= 'F')
			d = c - 'A' + 10;
		else
			return -1;
		r = r << 4 | d;
	}
	*v = r;
	return 0;
}

/* Whether the name (n characters, no NUL among them) is one we accept. */
static int name_ok(const uint8_t *s, uint32_t n)
{
	if (n == 0 || n >= ARCHIVE_NAME_MAX || s[0] == '.')
		return 0;
	for (uint32_t i = 0; i < n; i++) {
		uint8_t c = s[i];
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		      c == '.' || c == '_' || c == '-'))
			return 0;
	}
	return 1;
}

/* The name as messages show it: at most ARCHIVE_NAME_MAX - 1 characters,
 * each outside ' '..'~' as '?', so damaged input never reaches the console
 * raw. */
static void shown_name(const uint8_t *s, uint32_t n, char out[ARCHIVE_NAME_MAX])
{
	uint32_t i = 0;
	for (; i < n && i < ARCHIVE_NAME_MAX - 1; i++)
		out[i] = s[i] >= ' ' && s[i] <= '~' ? (char)s[i] : '?';
	out[i] = 0;
}

/* See archive.h. */
int archive_parse(const void *data, uint64_t size, struct archive *out, char *err,
		  size_t err_size)
{
	const uint8_t *a = data;
	uint64_t off = 0;
	out->count = 0;
	if (err_size)
		err[0] = 0;
	if (size > ARCHIVE_SIZE_MAX) {
		ksnprintf(err, err_size, "archive of %lu bytes; at most %lu", size, ARCHIVE_SIZE_MAX);
		return -1;
	}
	for (;;) {
		uint32_t f[FIELD_COUNT];
		if (size - off < ARCHIVE_HEADER) {
			ksnprintf(err, err_size, "entry at %lu: header runs past the end (%lu bytes); "
				  "truncated, or no TRAILER!!! entry?", off, size);
			return -1;
		}
		const uint8_t *h = a + off;
		if (memcmp(h, "070701", 6) != 0) {
			ksnprintf(err, err_size, "entry at %lu: no newc magic 070701", off);
			return -1;
		}
		for (int i = 0; i < FIELD_COUNT; i++) {
			if (hex8(h + 6 + 8 * i, &f[i])) {
				ksnprintf(err, err_size, "entry at %lu: header field %d is not 8 hex digits",
					  off, i + 1);
				return -1;
			}
		}
		uint32_t namesize = f[F_NAMESIZE];
		if (namesize < 2 || namesize > ARCHIVE_NAME_MAX ||
		    namesize > size - off - ARCHIVE_HEADER) {
			ksnprintf(err, err_size, "entry at %lu: name size %u is outside 2..%u or past the end",
				  off, namesize, ARCHIVE_NAME_MAX);
			return -1;
		}
		const uint8_t *name = h + ARCHIVE_HEADER;
		char shown[ARCHIVE_NAME_MAX];
		if (name[namesize - 1] != 0 || strnlen((const char *)name, namesize) != namesize - 1) {
			ksnprintf(err, err_size, "entry at %lu: name is not %u characters and a NUL", off,
				  namesize - 1);
			return -1;
		}
		shown_name(name, namesize - 1, shown);
		uint64_t data_off = pad4(off + ARCHIVE_HEADER + namesize), fsize = f[F_FILESIZE];
		if (data_off > size || fsize > size - data_off) {
			ksnprintf(err, err_size, "entry at %lu (%s): %lu data bytes run past the end; truncated?",
				  off, shown, fsize);
			return -1;
		}
		if (namesize == sizeof(trailer) && memcmp(name, trailer, sizeof(trailer)) == 0) {
			for (uint64_t i = pad4(data_off + fsize) < size ? pad4(data_off + fsize) : size;
			     i < size; i++) {
				if (a[i]) {
					ksnprintf(err, err_size, "byte %lu after the trailer is not 0", i);
					return -1;
				}
			}
			return 0;
		}
		if (!name_ok(name, namesize - 1)) {
			ksnprintf(err, err_size, "entry at %lu: name '%s' is not 1..%u of A-Za-z0-9._- "
				  "(no leading '.')", off, shown, ARCHIVE_NAME_MAX - 1);
			return -1;
		}
		if ((f[F_MODE] & MODE_TYPE) != MODE_REGULAR || f[F_CHECK] != 0) {
			ksnprintf(err, err_size, "entry at %lu (%s): not a regular file (mode 0x%x, check %u)",
				  off, shown, f[F_MODE], f[F_CHECK]);
			return -1;
		}
		if (fsize > ARCHIVE_FILE_MAX || out->count == ARCHIVE_FILES_MAX) {
			ksnprintf(err, err_size, "entry at %lu (%s): more than %u files or %lu bytes", off,
				  shown, ARCHIVE_FILES_MAX, ARCHIVE_FILE_MAX);
			return -1;
		}
		if (archive_find(out, (const char *)name)) {
			ksnprintf(err, err_size, "entry at %lu: '%s' is in the archive twice", off, shown);
			return -1;
		}
		struct archive_file *af = &out->files[out->count++];
		memcpy(af->name, name, namesize);
		af->data = a + data_off;
		af->size = fsize;
		off = pad4(data_off + fsize);
		if (off > size) {   /* the last file's padding is missing */
			ksnprintf(err, err_size, "entry at %lu (%s): padding runs past the end; truncated?",
				  data_off, af->name);
			return -1;
		}
	}
}

/* See archive.h. */
const struct archive_file *archive_find(const struct archive *a, const char *name)
{
	for (uint32_t i = 0; i < a->count; i++)
		if (strcmp(a->files[i].name, name) == 0)
			return &a->files[i];
	return NULL;
}
