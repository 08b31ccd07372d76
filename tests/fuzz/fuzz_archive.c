/* Fuzz harness of the boot archive reader (kernel/user/archive.c).
 *
 * Each input is a random well-formed newc archive (0..8 files with random
 * names and contents, written as tools/make-archive.py writes them; a few
 * with names or modes the reader must refuse), sometimes damaged by raw
 * byte mutations. Without damage the reader must accept exactly the
 * archives whose entries are all acceptable and list every file with its
 * bytes (the round trip). Whatever it accepts must be sound: every file's
 * bytes inside the input, names valid and distinct, at most the maximum
 * count; and writing the accepted listing out again must read back to the
 * same listing. A refusal must come with a printable message. */
#include "fuzz.h"
#include "archive.h"
#include "cpio_writer.h"

#define BUF_MAX 4096

static uint8_t buf[BUF_MAX], again[BUF_MAX];

struct model_file {
	char name[40];
	uint8_t data[64];
	size_t size;
};

/* A random name: mostly valid, sometimes one the reader refuses. */
static int random_name(struct fuzz *f, char *name, size_t cap)
{
	static const char ok[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-";
	static const char bad[] = "/ \t\x01\xff:*";
	size_t n = 1 + fuzz_below(f, fuzz_below(f, 8) ? 12 : cap - 1);
	int valid = 1;
	for (size_t i = 0; i < n; i++)
		name[i] = ok[fuzz_below(f, sizeof(ok) - 1)];
	if (fuzz_below(f, 10) == 0) {
		name[fuzz_below(f, n)] = bad[fuzz_below(f, sizeof(bad) - 1)];
		valid = 0;
	}
	name[n] = 0;
	if (name[0] == '.' || n >= ARCHIVE_NAME_MAX || strcmp(name, "TRAILER!!!") == 0)
		valid = 0;
	return valid;
}

static void check_sound(struct fuzz *f, const struct archive *a, const uint8_t *in, size_t len)
{
	if (a->count > ARCHIVE_FILES_MAX)
		fuzz_fail(f, "%u files", a->count);
	for (uint32_t i = 0; i < a->count; i++) {
		const struct archive_file *af = &a->files[i];
		size_t n = strnlen(af->name, ARCHIVE_NAME_MAX);
		if (n == 0 || n >= ARCHIVE_NAME_MAX || af->name[0] == '.')
			fuzz_fail(f, "file %u has a bad name", i);
		for (size_t k = 0; k < n; k++)
			if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-",
				    af->name[k]))
				fuzz_fail(f, "file %u: byte 0x%02x in its name", i, (uint8_t)af->name[k]);
		if (af->data < in || af->data > in + len || af->size > (size_t)(in + len - af->data))
			fuzz_fail(f, "file %s lies outside the input", af->name);
		for (uint32_t j = 0; j < i; j++)
			if (strcmp(a->files[j].name, af->name) == 0)
				fuzz_fail(f, "%s listed twice", af->name);
	}
}

/* Writes a's listing out again and reads it back: the same names and bytes. */
static void check_round_trip(struct fuzz *f, const struct archive *a)
{
	struct cpio_out o = { again, sizeof(again), 0 };
	static struct archive b;
	char err[ARCHIVE_ERR_MAX];
	for (uint32_t i = 0; i < a->count; i++)
		if (cpio_put(&o, a->files[i].name, a->files[i].data, a->files[i].size, 0))
			return;   /* does not fit the scratch buffer: nothing to compare */
	if (cpio_trailer(&o))
		return;
	if (archive_parse(again, o.len, &b, err, sizeof(err)))
		fuzz_fail(f, "the rewritten archive is refused: %s", err);
	if (b.count != a->count)
		fuzz_fail(f, "round trip: %u files, then %u", a->count, b.count);
	for (uint32_t i = 0; i < a->count; i++)
		if (strcmp(a->files[i].name, b.files[i].name) || a->files[i].size != b.files[i].size ||
		    memcmp(a->files[i].data, b.files[i].data, a->files[i].size))
			fuzz_fail(f, "round trip changed file %u (%s)", i, a->files[i].name);
}

static void fuzz_one(struct fuzz *f)
{
	struct model_file files[8];
	struct cpio_out o = { buf, sizeof(buf), 0 };
	int n = (int)fuzz_below(f, 9), valid = 1;
	memset(buf, 0, sizeof(buf));
	for (int i = 0; i < n; i++) {
		struct model_file *m = &files[i];
		valid &= random_name(f, m->name, sizeof(m->name));
		for (int j = 0; j < i; j++)
			if (strcmp(files[j].name, m->name) == 0)
				valid = 0;
		m->size = fuzz_below(f, sizeof(m->data) + 1);
		for (size_t k = 0; k < m->size; k++)
			m->data[k] = (uint8_t)fuzz_u64(f);
		uint32_t mode = fuzz_below(f, 16) ? 0 : (fuzz_below(f, 2) ? 040755u : 0120777u);
		if (mode)
			valid = 0;
		cpio_put(&o, m->name, m->data, m->size, mode);
	}
	cpio_trailer(&o);
	if (fuzz_below(f, 4) == 0)
		o.len += 4 * fuzz_below(f, 8);   /* zero padding after the trailer */
	int damaged = fuzz_below(f, 2);
	if (damaged)
		fuzz_mutate(f, buf, &o.len, sizeof(buf));

	uint8_t *copy = malloc(o.len ? o.len : 1);   /* exact size: ASan sees overreads */
	memcpy(copy, buf, o.len);
	static struct archive a;
	char err[ARCHIVE_ERR_MAX];
	int rc = archive_parse(copy, o.len, &a, err, sizeof(err));
	if (rc != 0) {
		if (!err[0] || strlen(err) >= sizeof(err))
			fuzz_fail(f, "refused without a message");
		for (const char *c = err; *c; c++)
			if (*c < ' ' || *c > '~')
				fuzz_fail(f, "message with byte 0x%02x", (uint8_t)*c);
		if (!damaged && valid)
			fuzz_fail(f, "a well-formed archive of %d files is refused: %s", n, err);
		free(copy);
		return;
	}
	if (!damaged && !valid)
		fuzz_fail(f, "an archive with a refusable entry is accepted");
	check_sound(f, &a, copy, o.len);
	if (!damaged) {
		if ((int)a.count != n)
			fuzz_fail(f, "%u files listed, %d written", a.count, n);
		for (int i = 0; i < n; i++)
			if (strcmp(a.files[i].name, files[i].name) || a.files[i].size != files[i].size ||
			    memcmp(a.files[i].data, files[i].data, files[i].size))
				fuzz_fail(f, "file %d (%s) read back wrong", i, files[i].name);
	}
	check_round_trip(f, &a);
	free(copy);
}

FUZZ_MAIN("archive")
