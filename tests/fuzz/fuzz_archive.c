/* SPDX-License-Identifier: BSD-2-Clause */
/* Fuzz harness of the boot archive reader (kernel/user/archive.c).
 *
 * Each input is planned as a list of newc entries, then written out as
 * tools/make-archive.py writes them (the header: tests/unit/cpio_writer.h).
 * Three shapes sit at and just past every limit of archive.h: small files,
 * 0..ARCHIVE_FILES_MAX + 2 of them (exactly 64 or 65 in half the plans),
 * names of 1..31 characters (31 in one of eight); one or two files of
 * ARCHIVE_FILE_MAX - 1, ARCHIVE_FILE_MAX or ARCHIVE_FILE_MAX + 1 bytes;
 * archives of exactly ARCHIVE_SIZE_MAX - 1, ARCHIVE_SIZE_MAX or
 * ARCHIVE_SIZE_MAX + 1 bytes (4..65 files). Half the plans get faults:
 * names of 0 or 32 characters, with a bad character, a leading '.', a NUL
 * inside or none at the end, a name twice; other file types, a check
 * field; sizes claimed far past the input (ARCHIVE_FILE_MAX + 1, 4 GiB);
 * an early trailer, none, non-zero bytes after it; the input cut short.
 * Trailers sometimes carry data, and up to 511 zero bytes follow them.
 * The large inputs live in one buffer of ARCHIVE_SIZE_MAX bytes and a few,
 * allocated at first use and reused: only headers, names, padding and a
 * file's first KEEP bytes are written, so a 16 MiB file costs what a small
 * one does.
 *
 * An undamaged input must get the model's verdict (archive_model.h: the
 * rules applied to the plan, never a call into the reader): accepted with
 * exactly the planned files (names, sizes, where their bytes lie, the
 * bytes written), or refused with the reader's message for the first
 * fault. A third of the small inputs (raw mutations or header bytes
 * overwritten) and a quarter of the large ones (header bytes overwritten)
 * are damaged, and only soundness is checked: every listed file inside the
 * input, names valid and distinct, at most the maximum count; writing the
 * accepted listing out again reads back the same (when it fits the scratch
 * buffer). A refusal must come with a printable message. Every input ends
 * where its buffer ends, so ASan sees any read past it. */
#include <tests/fuzz/fuzz.h>
#include <user/archive.h>
#include <tests/unit/cpio_writer.h>
#include <tests/fuzz/archive_model.h>

#define SMALL_CAP   (32u << 10)               /* inputs of small files; the round trip */
#define BIG_CAP     (ARCHIVE_SIZE_MAX + 4096)

static struct archive_plan p;

/* ---- planning */

/* Sets e's size and its first data bytes. */
static void set_size(struct fuzz *f, struct entry *e, uint64_t size)
{
	e->size = size;
	for (uint64_t k = 0; k < size && k < KEEP; k += 8) {
		uint64_t r = fuzz_u64(f);
		memcpy(e->data + k, &r, 8);
	}
}

/* Names e with n characters of name_chars, none '.' at the start. */
static void set_name(struct fuzz *f, struct entry *e, size_t n)
{
	for (size_t i = 0; i < n; i++)
		e->name[i] = name_chars[fuzz_below(f, sizeof(name_chars) - (i ? 1 : 2))];
	e->name[n] = 0;
	e->namesize = (uint32_t)n + 1;
}

/* Whether an entry before i has i's name. */
static int name_taken(int i)
{
	for (int j = 0; j < i; j++)
		if (p.e[j].namesize == p.e[i].namesize && strcmp(p.e[j].name, p.e[i].name) == 0)
			return 1;
	return 0;
}

/* Entry i: a regular file of size bytes with a valid name of 1..31
 * characters (31 in one plan of eight) that no earlier entry has. */
static void add_file(struct fuzz *f, int i, uint64_t size)
{
	struct entry *e = &p.e[i];
	do {
		uint64_t r = fuzz_below(f, 8);
		set_name(f, e, r == 0 ? ARCHIVE_NAME_MAX - 1 : 1 + fuzz_below(f, r == 1 ? 31 : 12));
	} while (name_taken(i));
	e->mode = fuzz_below(f, 2) ? 0100644u : 0100755u;
	e->check = 0;
	e->claim = 0;
	set_size(f, e, size);
}

/* Entry i: the trailer, sometimes with data (which the reader skips). */
static void add_trailer(struct fuzz *f, int i)
{
	struct entry *e = &p.e[i];
	memcpy(e->name, "TRAILER!!!", 11);
	e->namesize = 11;
	e->mode = fuzz_below(f, 2) ? 0 : 0100644u;
	e->check = 0;
	e->claim = 0;
	set_size(f, e, fuzz_below(f, 8) ? 0 : 1 + fuzz_below(f, 8));
}

/* 0..ARCHIVE_FILES_MAX + 2 files of 0..KEEP bytes, 64 or 65 in half the
 * plans; then the trailer. Returns the entry count. */
static int plan_small(struct fuzz *f)
{
	uint64_t r = fuzz_below(f, 8);
	int n = r < 4 ? ARCHIVE_FILES_MAX + (int)(r & 1)
		: r < 6 ? (int)fuzz_below(f, ARCHIVE_FILES_MAX + 3) : (int)fuzz_below(f, 9);
	for (int i = 0; i < n; i++)
		add_file(f, i, fuzz_below(f, fuzz_below(f, 4) ? 17 : KEEP + 1));
	add_trailer(f, n);
	return n + 1;
}

/* 1..8 files (64 or 65 in a quarter of the plans), one or two of them of
 * ARCHIVE_FILE_MAX - 1, ARCHIVE_FILE_MAX or ARCHIVE_FILE_MAX + 1 bytes;
 * then the trailer. Returns the entry count. */
static int plan_big_files(struct fuzz *f)
{
	int n = fuzz_below(f, 4) ? 1 + (int)fuzz_below(f, 8) : ARCHIVE_FILES_MAX + (int)fuzz_below(f, 2);
	int big = (int)fuzz_below(f, n), big2 = fuzz_below(f, 4) ? -1 : (int)fuzz_below(f, n);
	for (int i = 0; i < n; i++)
		add_file(f, i, i == big || i == big2 ? ARCHIVE_FILE_MAX - 1 + fuzz_below(f, 3)
						     : fuzz_below(f, 17));
	add_trailer(f, n);
	return n + 1;
}

/* 4..65 files (4, 5, 64 or 65 in half the plans) and the trailer, whose
 * archive is ARCHIVE_SIZE_MAX + d bytes with d in -1..1: the files share
 * what headers leave (the first sometimes ARCHIVE_FILE_MAX bytes), 0..7
 * zero bytes after the trailer take the rest. Returns the entry count;
 * *tail is the zero bytes. */
static int plan_full(struct fuzz *f, uint64_t *tail)
{
	static const int counts[] = { 4, 5, ARCHIVE_FILES_MAX, ARCHIVE_FILES_MAX + 1 };
	int n = fuzz_below(f, 2) ? counts[fuzz_below(f, 4)]
				 : 4 + (int)fuzz_below(f, ARCHIVE_FILES_MAX - 2);
	uint64_t room = ARCHIVE_SIZE_MAX + (fuzz_below(f, 5) + 1) / 2 - 1;   /* -1, 0, 0, 1, 1 */
	for (int i = 0; i < n; i++) {
		add_file(f, i, 0);
		room -= pad4(CPIO_HEADER + p.e[i].namesize);
	}
	add_trailer(f, n);
	room -= pad4(CPIO_HEADER + p.e[n].namesize) + pad4(p.e[n].size);
	*tail = room % 4 + 4 * fuzz_below(f, 2);
	room -= *tail;
	for (int i = 0; i < n; i++) {
		uint64_t share = i == n - 1 ? room : (room / (uint64_t)(n - i)) & ~3ull;
		if (i == 0 && fuzz_below(f, 2))
			share = ARCHIVE_FILE_MAX;
		room -= share;
		set_size(f, &p.e[i], share ? share - fuzz_below(f, 4) : 0);
	}
	return n + 1;
}

/* One fault in a random entry (the trailer among them). */
static void add_fault(struct fuzz *f)
{
	static const char bad[] = "/ \t\x01\xff:*%";
	static const uint32_t modes[] = { 040755u, 0120777u, 020644u, 0u, 0170644u };
	static const uint64_t claims[] = { ARCHIVE_FILE_MAX, ARCHIVE_FILE_MAX + 1, 0xffffffffu,
					   0x80000000u, ARCHIVE_SIZE_MAX };
	struct entry *e = &p.e[fuzz_below(f, p.n)];
	switch (fuzz_below(f, 11)) {
	case 0: set_name(f, e, ARCHIVE_NAME_MAX); break;   /* 32 characters */
	case 1: set_name(f, e, 0); break;
	case 2: e->name[fuzz_below(f, e->namesize)] = bad[fuzz_below(f, sizeof(bad) - 1)]; break;
	case 3: e->name[0] = '.'; break;
	case 4: e->name[fuzz_below(f, e->namesize)] = 0; break;   /* a NUL inside */
	case 5: e->namesize -= e->namesize > 1; break;           /* no NUL at the end */
	case 6: {                                                /* the same name again */
		const struct entry *o = &p.e[fuzz_below(f, p.n)];
		memcpy(e->name, o->name, sizeof(e->name));
		e->namesize = o->namesize;
		break;
	}
	case 7: e->mode = modes[fuzz_below(f, sizeof(modes) / sizeof(modes[0]))]; break;
	case 8: e->check = 1 + (uint32_t)fuzz_below(f, 0xffffffffu); break;
	case 9:
		e->size = fuzz_below(f, 2) ? claims[fuzz_below(f, sizeof(claims) / sizeof(claims[0]))]
					   : (uint32_t)fuzz_u64(f) | 0x10000000u;
		e->claim = 1;
		break;
	default: memcpy(e->name, "TRAILER!!!", 11); e->namesize = 11; break;   /* an early trailer */
	}
}

/* Places the entries one after the other: each header, name, data padded to 4. */
static void layout(void)
{
	uint64_t off = 0;
	for (int i = 0; i < p.n; i++) {
		p.e[i].off = off;
		p.e[i].data_off = pad4(off + CPIO_HEADER + p.e[i].namesize);
		off = pad4(p.e[i].data_off + p.e[i].size);
	}
	p.end = off;
}

/* Cuts the input short: anywhere, inside an entry's header or name, or at
 * the end of an entry's data (before its padding). */
static void cut(struct fuzz *f)
{
	const struct entry *e = &p.e[fuzz_below(f, p.n)];
	uint64_t to;
	switch (fuzz_below(f, 3)) {
	case 0: to = fuzz_below(f, p.len + 1); break;
	case 1: to = e->off + fuzz_below(f, CPIO_HEADER + e->namesize + 1); break;
	default: to = e->data_off + e->size; break;
	}
	p.len = to < p.len ? to : p.len;
}

/* A plan of one of the three shapes (small files in eight of ten), half
 * of them with faults, laid out, with p.len and p.bad set. */
static void plan(struct fuzz *f)
{
	uint64_t shape = fuzz_below(f, 10), tail = 0;
	if (fuzz_below(f, 4) == 0)   /* zero bytes after the trailer; cpio(1) fills 512-byte blocks */
		tail = fuzz_below(f, fuzz_below(f, 2) ? 8 : 512);
	p.n = shape == 0 ? plan_big_files(f) : shape == 1 ? plan_full(f, &tail) : plan_small(f);
	p.bad = NO_BYTE;
	int faulty = (int)fuzz_below(f, 2);
	if (faulty && fuzz_below(f, 8) == 0)
		p.n--;   /* no trailer */
	for (int k = faulty && p.n ? 1 + (int)fuzz_below(f, 3) : 0; k > 0; k--)
		add_fault(f);
	layout();
	p.len = p.end + tail;
	if (faulty && tail && fuzz_below(f, 4) == 0)
		p.bad = p.end + fuzz_below(f, tail);
	for (int i = 0; i < p.n; i++)
		if (p.e[i].claim) {   /* the input ends inside the first claimed data */
			p.len = p.e[i].data_off + fuzz_below(f, KEEP + 1);
			break;
		}
	if (faulty && p.n && fuzz_below(f, 4) == 0)
		cut(f);
}

/* ---- writing */

/* Copies src[0..n) to in + at, as far as the input goes. */
static void put(uint8_t *in, uint64_t at, const void *src, uint64_t n)
{
	if (at < p.len)
		memcpy(in + at, src, n < p.len - at ? n : p.len - at);
}

/* Zeroes in[from..to), as far as the input goes. */
static void zero(uint8_t *in, uint64_t from, uint64_t to)
{
	if (to > p.len)
		to = p.len;
	if (from < to)
		memset(in + from, 0, to - from);
}

/* Writes the plan into in[0..p.len): headers, names, zero padding, each
 * entry's first KEEP data bytes (the rest of a larger file keeps whatever
 * the buffer held), zero bytes after the last entry but the bad one. */
static void write_input(uint8_t *in)
{
	for (int i = 0; i < p.n; i++) {
		const struct entry *e = &p.e[i];
		char h[CPIO_HEADER + 1];
		cpio_header(h, e->mode, (uint32_t)e->size, e->namesize, e->check);
		put(in, e->off, h, CPIO_HEADER);
		put(in, e->off + CPIO_HEADER, e->name, e->namesize);
		zero(in, e->off + CPIO_HEADER + e->namesize, e->data_off);
		put(in, e->data_off, e->data, e->size < KEEP ? e->size : KEEP);
		zero(in, e->data_off + e->size, pad4(e->data_off + e->size));
	}
	zero(in, p.end, p.len);
	if (p.bad < p.len)
		in[p.bad] = 0x30;
}

/* The buffer of the large inputs: zeroed at first use, then reused. */
static uint8_t *big_buffer(void)
{
	static uint8_t *big;
	if (!big && !(big = calloc(1, BIG_CAP))) {
		fprintf(stderr, "fuzz archive: no memory for %lu bytes\n", BIG_CAP);
		exit(1);
	}
	return big;
}

/* Overwrites 1..4 bytes of random entries' headers and names with hex
 * digits or any byte. */
static void damage_headers(struct fuzz *f, uint8_t *in)
{
	for (int k = 1 + (int)fuzz_below(f, 4); k > 0; k--) {
		const struct entry *e = &p.e[fuzz_below(f, p.n)];
		uint64_t at = e->off + fuzz_below(f, CPIO_HEADER + e->namesize);
		if (at < p.len)
			in[at] = fuzz_below(f, 2) ? (uint8_t)"0123456789abcdefABCDEF"[fuzz_below(f, 22)]
						  : (uint8_t)fuzz_u64(f);
	}
}
/* ---- checks */

/* What any accepted listing must be: at most the maximum count, names
 * valid and distinct, every file's bytes inside in[0..len). */
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
			if (!strchr(name_chars, af->name[k]))
				fuzz_fail(f, "file %u: byte 0x%02x in its name", i, (uint8_t)af->name[k]);
		if (af->data < in || af->data > in + len || af->size > (size_t)(in + len - af->data))
			fuzz_fail(f, "file %s lies outside the input", af->name);
		for (uint32_t j = 0; j < i; j++)
			if (a->files[j].name[0] == af->name[0] && strcmp(a->files[j].name, af->name) == 0)
				fuzz_fail(f, "%s listed twice", af->name);
	}
}

/* An accepted undamaged input lists exactly the model's files: names,
 * sizes, data where it was written, its first bytes. */
static void check_listing(struct fuzz *f, const struct archive *a, const uint8_t *in,
			  const int *files, int count)
{
	if ((int)a->count != count)
		fuzz_fail(f, "%u files listed, the model has %d", a->count, count);
	for (int i = 0; i < count; i++) {
		const struct entry *e = &p.e[files[i]];
		const struct archive_file *af = &a->files[i];
		if (strcmp(af->name, e->name) || af->size != e->size || af->data != in + e->data_off ||
		    memcmp(af->data, e->data, e->size < KEEP ? e->size : KEEP))
			fuzz_fail(f, "file %d (%s) read back wrong", i, e->name);
	}
}

/* Writes a's listing out again and reads it back: the same names and bytes. */
static void check_round_trip(struct fuzz *f, const struct archive *a)
{
	static uint8_t again[SMALL_CAP];
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

/* Parses in[0..len) and checks the result: the model's verdict unless
 * damaged, soundness and the round trip always. */
static void check_input(struct fuzz *f, const uint8_t *in, size_t len, int damaged)
{
	static struct archive a;
	char err[ARCHIVE_ERR_MAX], want[ARCHIVE_ERR_MAX];
	int files[ENTRIES_MAX], count;
	int rc = archive_parse(in, len, &a, err, sizeof(err));
	int accept = !damaged && model(&p, files, &count, want, sizeof(want));
	if (rc != 0) {
		if (!err[0] || strlen(err) >= sizeof(err))
			fuzz_fail(f, "refused without a message");
		for (const char *c = err; *c; c++)
			if (*c < ' ' || *c > '~')
				fuzz_fail(f, "message with byte 0x%02x", (uint8_t)*c);
		if (accept)
			fuzz_fail(f, "an archive the model accepts is refused: %s", err);
		if (!damaged && strcmp(err, want))
			fuzz_fail(f, "refused with '%s', the model says '%s'", err, want);
		return;
	}
	if (!damaged && !accept)
		fuzz_fail(f, "accepted, the model says '%s'", want);
	check_sound(f, &a, in, len);
	if (!damaged)
		check_listing(f, &a, in, files, count);
	check_round_trip(f, &a);
}

/* One iteration: a plan written where ASan bounds it, sometimes damaged,
 * then checked. */
static void fuzz_one(struct fuzz *f)
{
	static uint8_t scratch[SMALL_CAP];
	plan(f);
	if (p.len <= SMALL_CAP) {
		size_t len = p.len;
		write_input(scratch);
		int damaged = fuzz_below(f, 3) == 0;
		if (damaged && (p.n == 0 || fuzz_below(f, 2)))
			fuzz_mutate(f, scratch, &len, sizeof(scratch));
		else if (damaged)
			damage_headers(f, scratch);
		uint8_t *copy = malloc(len ? len : 1);   /* exact size: ASan sees overreads */
		memcpy(copy, scratch, len);
		check_input(f, copy, len, damaged);
		free(copy);
	} else {
		if (p.len > BIG_CAP)
			fuzz_fail(f, "a plan of %llu bytes", (unsigned long long)p.len);
		uint8_t *in = big_buffer() + BIG_CAP - p.len;
		write_input(in);
		int damaged = fuzz_below(f, 4) == 0;
		if (damaged)
			damage_headers(f, in);
		check_input(f, in, p.len, damaged);
	}
}

FUZZ_MAIN("archive")
