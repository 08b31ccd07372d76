/* SPDX-License-Identifier: BSD-2-Clause */
/* Fuzz harness of the FAT layer (kernel/fs/fat_*.c) on volumes made in
 * memory (tests/unit/fat_format.c): FAT12, FAT16 and FAT32. Each input
 * runs random operations (folders and files with long names, appends,
 * commits) against a model of the tree, then one of: (1) the tree is read
 * back after a remount and must match the model exactly; (2) the device
 * was "pulled out" after a random write: the volume must then either
 * mount for writing with every file of the last commit intact, or be
 * refused as not cleanly unmounted; (3) random bytes of the boot sector,
 * the FATs and the directories are damaged: mounting, walking every
 * folder, reading every file and writing must end with 0 or an FS_E*
 * code, within the device (ASan). */
#include <tests/fuzz/fuzz.h>
#include <fs/fat.h>
#include <tests/unit/blk_ram.h>
#include <tests/unit/fat_format.h>

#define MAX_SECTORS 69000u          /* FAT32 needs 65525 clusters */
#define NODES 24

static uint8_t img[MAX_SECTORS * 512];
static uint8_t dirty[MAX_SECTORS / 8 + 1];   /* blocks written since the last reset */
static struct blk_ram ram;
static struct fat_vol vol;
static int (*ram_write)(void *, uint64_t, uint32_t, const void *, char *, size_t);

/* The model: folders and files, each under a folder (0: the root). */
struct node {
	int parent, dir;
	char name[40];
	uint32_t cluster, len, committed_len;
	int committed;              /* exists as of the last commit */
	struct fat_file file;       /* files: open for appending */
};
static struct node nodes[NODES];
static int nnodes;
static char err[160];               /* the layer's last reason */

static uint8_t content(int id, uint32_t off)
{
	return (uint8_t)(id * 131 + off * 7 + (off >> 8));
}

static int tracked_write(void *ctx, uint64_t lba, uint32_t n, const void *buf, char *err, size_t len)
{
	for (uint32_t i = 0; i < n; i++)
		dirty[(lba + i) / 8] |= (uint8_t)(1u << ((lba + i) % 8));
	return ram_write(ctx, lba, n, buf, err, len);
}

/* Zeroes what the last input wrote and formats a new volume. */
static void reset(uint32_t sectors, uint8_t spc)
{
	for (uint32_t b = 0; b < MAX_SECTORS; b += 8)
		if (dirty[b / 8]) {
			for (uint32_t k = b; k < b + 8 && k < MAX_SECTORS; k++)
				if (dirty[b / 8] & (1u << (k % 8)))
					memset(img + (uint64_t)k * 512, 0, 512);
			dirty[b / 8] = 0;
		}
	fat_format(img, sectors, spc, "FUZZ");
	uint32_t meta = 32 + 2 * 600 + 64 + 8;     /* what fat_format writes, at most */
	memset(dirty, 0xFF, (meta + 7) / 8);
	blk_ram_init(&ram, img, (uint64_t)sectors * 512, 512, "da0");
	ram_write = ram.dev.write;
	ram.dev.write = tracked_write;
	nnodes = 1;
	memset(nodes, 0, sizeof(nodes));
	nodes[0].dir = 1;
	nodes[0].committed = 1;
}

static const char *const words[] = { "MOSAIC", "bench", "cpu", "hfi-updates", "Boot Log", "a", "x y z",
				     "LONG.name.with.dots", "i7-1370P-20261207-1543", "ReadMe", "~1", "sysinfo" };
static const char *const exts[] = { "", ".txt", ".csv", ".LOG", ".tar.gz", ".", ".a*b" };

static int name_taken(int parent, const char *name)
{
	for (int i = 1; i < nnodes; i++)
		if (nodes[i].parent == parent && fat_name_equal(nodes[i].name, name))
			return 1;
	return 0;
}

static struct fat_dir dir_of(int i)
{
	return i == 0 ? fat_root(&vol) : (struct fat_dir){ nodes[i].cluster };
}

/* One random operation; returns the FAT code (0 when done). */
static int operate(struct fuzz *f)
{
	char name[40];
	int parent;
	do
		parent = (int)fuzz_below(f, nnodes);
	while (!nodes[parent].dir);
	snprintf(name, sizeof(name), "%s%s", fuzz_pick(f, words, sizeof(words) / sizeof(words[0])),
		 fuzz_pick(f, exts, sizeof(exts) / sizeof(exts[0])));
	if (fuzz_below(f, 2))
		name[0] = (char)(name[0] >= 'a' && name[0] <= 'z' ? name[0] - 32 : name[0]);
	int op = (int)fuzz_below(f, 4), rc;
	if (op == 3) {
		rc = fat_commit(&vol, err, sizeof(err));
		if (rc == 0)
			for (int i = 0; i < nnodes; i++) {
				nodes[i].committed = 1;
				nodes[i].committed_len = nodes[i].len;
			}
		return rc;
	}
	if (op == 2) {                                       /* append to a file made earlier */
		int i = (int)fuzz_below(f, nnodes);
		if (nodes[i].dir)
			return 0;
		uint32_t n = (uint32_t)fuzz_below(f, 3000);
		uint8_t buf[3000];
		for (uint32_t k = 0; k < n; k++)
			buf[k] = content(i, nodes[i].len + k);
		if ((rc = fat_append(&vol, &nodes[i].file, buf, n, err, sizeof(err))) ||
		    (rc = fat_dir_update(&vol, &nodes[i].file, err, sizeof(err))))
			return rc;
		nodes[i].len += n;
		return 0;
	}
	if (nnodes == NODES)
		return 0;
	int bad = strchr(name, '*') || name[strlen(name) - 1] == '.' || name[strlen(name) - 1] == ' ';
	int taken = name_taken(parent, name);
	struct node *n = &nodes[nnodes];
	memset(n, 0, sizeof(*n));
	struct fat_dir made;
	rc = op == 0 ? fat_mkdir(&vol, dir_of(parent), name, &made, err, sizeof(err))
		     : fat_create(&vol, dir_of(parent), name, &n->file, err, sizeof(err));
	if (bad && rc != FS_ENAME)
		fuzz_fail(f, "'%s' accepted (%d)", name, rc);
	if (!bad && taken && rc != FS_EEXIST)
		fuzz_fail(f, "'%s' made twice (%d)", name, rc);
	if (rc == FS_ENAME || rc == FS_EEXIST)
		return 0;
	if (rc)
		return rc;
	n->parent = parent;
	n->dir = op == 0;
	n->cluster = op == 0 ? made.cluster : 0;
	snprintf(n->name, sizeof(n->name), "%s", name);
	nnodes++;
	return 0;
}

/* Node i found in its folder with its content (len bytes of it). */
static void check_node(struct fuzz *f, int i, uint32_t len)
{
	struct fat_dirent e;
	static uint8_t buf[40000];
	int rc = fat_lookup(&vol, dir_of(nodes[i].parent), nodes[i].name, &e, err, sizeof(err));
	if (rc)
		fuzz_fail(f, "'%s' not found (%d: %s)", nodes[i].name, rc, err);
	if (strcmp(e.name, nodes[i].name) || !!(e.attr & FAT_ATTR_DIR) != nodes[i].dir)
		fuzz_fail(f, "'%s' read back as '%s'", nodes[i].name, e.name);
	if (nodes[i].dir)
		return;
	if (e.size != len)
		fuzz_fail(f, "'%s': %u bytes, %u written", nodes[i].name, e.size, len);
	int64_t got = fat_read(&vol, &e, 0, buf, sizeof(buf), err, sizeof(err));
	if (got != (int64_t)(len < sizeof(buf) ? len : sizeof(buf)))
		fuzz_fail(f, "'%s': read %lld of %u (%s)", nodes[i].name, (long long)got, len, err);
	for (int64_t k = 0; k < got; k++)
		if (buf[k] != content(i, (uint32_t)k))
			fuzz_fail(f, "'%s': byte %lld differs", nodes[i].name, (long long)k);
}

/* Every folder walked (strict and not), every file read: codes only. */
static void walk(struct fuzz *f, struct fat_dir d, int depth)
{
	struct fat_dirent e;
	static uint8_t buf[8192];
	for (int strict = 0; strict < 2; strict++) {
		uint32_t pos = 0;
		int rc, n = 0;
		while ((rc = fat_dir_next(&vol, d, &pos, strict, &e, err, sizeof(err))) == 1 && n++ < 200) {
			if (memchr(e.name, 0, sizeof(e.name)) == NULL)
				fuzz_fail(f, "name not terminated");
			if ((e.attr & FAT_ATTR_DIR) && depth < 3 && !strict && e.cluster >= 2)
				walk(f, (struct fat_dir){ e.cluster }, depth + 1);
			else if (!(e.attr & FAT_ATTR_DIR)) {
				int64_t got = fat_read(&vol, &e, 0, buf, sizeof(buf), err, sizeof(err));
				if (got > (int64_t)sizeof(buf) || (got < 0 && got < FS_EINVAL))
					fuzz_fail(f, "fat_read returned %lld", (long long)got);
			}
		}
		if (rc != 1 && rc != 0 && (rc > 0 || rc < FS_EINVAL))
			fuzz_fail(f, "fat_dir_next returned %d", rc);
	}
}

static void fuzz_one(struct fuzz *f)
{
	static const struct { uint32_t sectors; uint8_t spc; } shapes[] = {
		{ 2048, 1 }, { 4600, 1 }, { 9000, 2 }, { 66700, 1 },
	};
	int shape = (int)fuzz_below(f, 8);
	shape = shape < 3 ? shape : shape < 7 ? (int)fuzz_below(f, 3) : 3;   /* FAT32 one time in 8 */
	reset(shapes[shape].sectors, shapes[shape].spc);
	int mode = (int)fuzz_below(f, 3);
	if (fat_mount(&vol, &ram.dev, 0, ram.dev.blocks, "da0", 1, err, sizeof(err)))
		fuzz_fail(f, "a new volume was refused: %s", err);
	vol.now = (struct fat_time){ (46 << 9) | (12 << 5) | 7, 0 };
	if (mode == 1)
		ram.cut_after = ram.writes + 1 + fuzz_below(f, 60);
	int ops = 1 + (int)fuzz_below(f, 30), rc = 0;
	for (int i = 0; i < ops && !rc; i++)
		rc = operate(f);
	if (mode != 1 && rc)
		fuzz_fail(f, "operation failed on a healthy volume: %d (%s)", rc, err);
	if (!rc)
		rc = fat_commit(&vol, err, sizeof(err));
	if (rc == 0)
		for (int i = 0; i < nnodes; i++) {
			nodes[i].committed = 1;
			nodes[i].committed_len = nodes[i].len;
		}
	if (mode == 0 && rc)
		fuzz_fail(f, "commit failed on a healthy volume: %d", rc);
	ram.cut_after = 0;
	ram.gone = 0;
	if (mode == 2) {
		int n = 1 + (int)fuzz_below(f, 12);
		uint32_t span = vol.g.first_data + 8 * vol.g.sec_per_clus;
		for (int i = 0; i < n; i++) {
			uint32_t s = (uint32_t)fuzz_below(f, span);
			img[(uint64_t)s * 512 + fuzz_below(f, 512)] ^= (uint8_t)(1u << fuzz_below(f, 8));
			dirty[s / 8] |= (uint8_t)(1u << (s % 8));
		}
		err[0] = 0;
		rc = fat_mount(&vol, &ram.dev, 0, ram.dev.blocks, "da0", 0, err, sizeof(err));
		if (rc == 0) {
			walk(f, fat_root(&vol), 0);
			err[0] = 0;
			rc = fat_mount(&vol, &ram.dev, 0, ram.dev.blocks, "da0", 1, err, sizeof(err));
			if (rc == 0) {
				nnodes = 1;
				for (int i = 0; i < 4 && !rc; i++)
					rc = operate(f);
				if (!rc)
					rc = fat_commit(&vol, err, sizeof(err));
			}
		}
		if (rc > 0 || rc < FS_EINVAL || (rc && !err[0]))
			fuzz_fail(f, "damaged volume: %d without a reason", rc);
		return;
	}
	rc = fat_mount(&vol, &ram.dev, 0, ram.dev.blocks, "da0", 1, err, sizeof(err));
	if (rc == FS_EDIRTY && mode == 1)
		return;
	if (rc)
		fuzz_fail(f, "remount: %d (%s)", rc, err);
	for (int i = 1; i < nnodes; i++)
		if (nodes[i].committed)
			check_node(f, i, nodes[i].committed_len);
	if (mode == 1)
		return;
	for (int d = 0; d < nnodes; d++) {              /* nothing more than the model */
		if (!nodes[d].dir)
			continue;
		struct fat_dirent e;
		uint32_t pos = 0;
		int seen = 0, kids = 0;
		while (fat_dir_next(&vol, dir_of(d), &pos, 1, &e, err, sizeof(err)) == 1)
			seen++;
		for (int i = 1; i < nnodes; i++)
			kids += nodes[i].parent == d;
		if (seen != kids)
			fuzz_fail(f, "folder '%s': %d entries, the model has %d", nodes[d].name, seen, kids);
	}
}

FUZZ_MAIN("fat")
