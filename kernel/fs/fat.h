/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * fat.h — FAT12/16/32 volumes: mount with checks, directories with long
 * names (VFAT), files created and appended, and every change of the
 * volume's metadata committed in an order that keeps the volume usable if
 * the power goes or the stick is pulled between any two writes.
 *
 * The order (fat_commit()): file data and new directory clusters are
 * written as they are produced (no metadata points at them yet); then the
 * volume is marked "not cleanly unmounted" and FSInfo's free count
 * "unknown"; then every changed FAT sector to the first FAT, then to the
 * second; then the changed directory sectors; then FSInfo gets the true
 * free count and the mark is cleared, with SYNCHRONIZE CACHE after each
 * step. A cut before the mark leaves the volume exactly as before (what
 * was written lies in free clusters); a later cut leaves at worst
 * clusters no file uses, or a chain longer than its file, and the mark
 * that makes fsck.fat, chkdsk and fat_mount() check it: never a file
 * whose data was not written, never two files on one cluster.
 *
 * Changed FAT and directory sectors wait in a small cache (FAT_CACHE_SLOTS
 * sectors); when it is full of changes, fat_commit() runs early, in the
 * same order. Portable C (host tests: tests/unit/test_fat.c, the
 * power cut at every write in the same test, tests/fuzz/fuzz_fat.c); a volume belongs
 * to one thread at a time (the caller serialises).
 */
#ifndef MOSAIC_FS_FAT_H
#define MOSAIC_FS_FAT_H
#include <stdint.h>
#include <fs/blkdev.h>
#include <fs/fat_bpb.h>

#define FAT_CACHE_SLOTS 24
#define FAT_RUN_BYTES (32 * 1024)  /* a mount reads the FATs in pieces of this size */
#define FAT_NAME_MAX 255          /* characters of a long name */
#define FAT_DIR_ENTRIES_MAX 65536 /* entries a directory may have (FAT's limit) */

#define FAT_ATTR_RO     0x01
#define FAT_ATTR_HIDDEN 0x02
#define FAT_ATTR_SYSTEM 0x04
#define FAT_ATTR_VOLUME 0x08
#define FAT_ATTR_DIR    0x10
#define FAT_ATTR_ARCH   0x20
#define FAT_ATTR_LFN    0x0F

/* A date and time in the directory entries' format (FAT spec, 6.1):
 * date = (year - 1980) << 9 | month << 5 | day; time = h << 11 | m << 5 | s/2. */
struct fat_time {
	uint16_t date, time;
};

struct fat_cache_slot {
	uint32_t sector;          /* volume sector (the first FAT's for FAT sectors); UINT32_MAX empty */
	uint8_t kind;             /* FAT_SLOT_* */
	uint8_t dirty;
	uint32_t used;            /* last use (for eviction of clean slots) */
};
#define FAT_SLOT_FAT 1
#define FAT_SLOT_DIR 2

/* A directory: its first cluster, or 0 for the fixed root of FAT12/16. */
struct fat_dir {
	uint32_t cluster;
};

/* One entry as read from a directory. */
struct fat_dirent {
	char name[FAT_NAME_MAX * 3 + 1];   /* the long name as UTF-8, else the 8.3 name */
	uint8_t short_name[11];
	uint8_t attr;
	uint32_t cluster, size;
	uint32_t index;           /* of the short entry in its directory */
	uint32_t first_index;     /* of its first long-name entry (= index without one) */
};

/* An open file: where its entry is and where its chain ends. */
struct fat_file {
	struct fat_dir dir;
	uint32_t index;           /* its short entry in dir */
	uint32_t first, last;     /* first and last cluster (0: no data yet) */
	uint32_t size;
};

struct fat_vol {
	const struct blkdev *dev;
	uint64_t start;           /* the partition's first device block */
	uint32_t spb;             /* device blocks per FAT sector */
	char name[24];            /* for messages: "da1s1" */
	struct fat_geom g;
	int writable;             /* mounted for writing (every check passed) */
	int failed;               /* a write failed: nothing more is written */
	uint32_t free_clusters;   /* counted at a mount for writing */
	uint32_t next_free;       /* where the search for a free cluster starts */
	uint32_t fat_mask;        /* FAT entry value bits: 0xFFF, 0xFFFF, 0x0FFFFFFF */
	struct fat_time now;      /* stamped on entries created or written */
	uint32_t use_clock;
	uint32_t walk_dir, walk_k, walk_c;   /* the last directory cluster found: dir, index, cluster */
	struct fat_cache_slot slot[FAT_CACHE_SLOTS];
	uint8_t cache[FAT_CACHE_SLOTS][BLK_SIZE_MAX];
	uint8_t scratch[BLK_SIZE_MAX];   /* one sector for partial writes and scans */
	uint8_t scratch2[BLK_SIZE_MAX];
	uint8_t run[2][FAT_RUN_BYTES];   /* FAT sectors read many at a time (mount's scans) */
};

/* Mounts the FAT volume in blocks [start, start + count) of dev as name.
 * Reads and checks the boot sector (fat_bpb_parse()). With for_write it
 * also refuses, with the reason in err: a write-protected device, a
 * volume marked not cleanly unmounted (the boot sector's state bit, or
 * the FAT[1] clean-shutdown or hard-error bits of FAT16/32), two FAT
 * copies that differ; and it counts the free clusters. 0 or an FS_E*
 * code; err never names the volume (the caller does). */
int fat_mount(struct fat_vol *v, const struct blkdev *dev, uint64_t start, uint64_t count,
	      const char *name, int for_write, char *err, size_t err_len);
/* Counts the free clusters (reading the whole first FAT, never trusting
 * FSInfo) into *count, and sets the volume's free count and hint. Before
 * any change is made (it reads the volume, not the cache). */
int fat_count_free(struct fat_vol *v, uint32_t *count, char *err, size_t len);
/* The root directory. */
struct fat_dir fat_root(const struct fat_vol *v);

/* Directory iteration: *pos starts at 0; each call fills e with the next
 * entry in use (deleted entries, the volume label and "." / ".." are
 * skipped; a long name whose entries or checksum do not match is dropped
 * and the 8.3 name used, as other systems do) and returns 1; 0 at the end;
 * or an FS_E* code (err says which entry) when the directory's chain is
 * broken or, with strict, when an entry is impossible (a cluster outside
 * the volume, a file with data but no cluster, a bad first byte): a
 * directory that will be written to must pass strict. */
int fat_dir_next(struct fat_vol *v, struct fat_dir d, uint32_t *pos, int strict,
		 struct fat_dirent *e, char *err, size_t err_len);
/* Finds name (case-insensitively, long or 8.3) in d: 0 with e filled,
 * FS_ENOENT, or an error of a strict walk. */
int fat_lookup(struct fat_vol *v, struct fat_dir d, const char *name, struct fat_dirent *e,
	       char *err, size_t err_len);
/* Creates the directory name in d (long name entries, "." and ".."); 0
 * with *out set; FS_EEXIST (nothing changed) when it exists. Writable
 * volumes only. */
int fat_mkdir(struct fat_vol *v, struct fat_dir d, const char *name, struct fat_dir *out, char *err,
	      size_t err_len);
/* Creates an empty file name in d and opens it; FS_EEXIST when it exists. */
int fat_create(struct fat_vol *v, struct fat_dir d, const char *name, struct fat_file *f, char *err,
	       size_t err_len);
/* Opens the existing file e (from fat_lookup) in d for appending: walks
 * its chain, which must match its size. */
int fat_open(struct fat_vol *v, struct fat_dir d, const struct fat_dirent *e, struct fat_file *f,
	     char *err, size_t err_len);
/* Appends len bytes to f: the data goes to the volume now, the FAT and
 * directory changes at the next fat_commit(). FS_ENOSPC (nothing
 * allocated) when the volume has fewer free clusters than needed. */
int fat_append(struct fat_vol *v, struct fat_file *f, const void *data, uint32_t len, char *err,
	       size_t err_len);
/* Reads up to len bytes of the file whose entry is e from offset off into
 * buf; returns the bytes read (0 at the end) or an FS_E* code. */
int64_t fat_read(struct fat_vol *v, const struct fat_dirent *e, uint32_t off, void *buf, uint32_t len,
		 char *err, size_t err_len);
/* Writes the pending metadata in the order described above. 0, or an
 * FS_E* code after which the volume takes no more writes. */
int fat_commit(struct fat_vol *v, char *err, size_t err_len);
/* Clusters needed to add len bytes to a file now holding size bytes. */
uint32_t fat_clusters_for(const struct fat_vol *v, uint32_t size, uint32_t len);

/* ---- shared by the fat_*.c files (not for callers) ---- */
int fat_sec_read(struct fat_vol *v, uint32_t sector, uint32_t n, void *buf, char *err, size_t len);
int fat_sec_write(struct fat_vol *v, uint32_t sector, uint32_t n, const void *buf, char *err, size_t len);
/* A cached sector (FAT_SLOT_FAT: a sector of the first FAT; FAT_SLOT_DIR:
 * a directory sector); NULL with err set on a read error. */
uint8_t *fat_cache_get(struct fat_vol *v, uint32_t sector, int kind, char *err, size_t len);
/* Commits when fewer than n slots are free of changes, so that an
 * operation touching up to n sectors is never cut by a commit. */
int fat_cache_reserve(struct fat_vol *v, int n, char *err, size_t len);
/* Points f's 8.3 entry at its first cluster and size, stamped now. */
int fat_dir_update(struct fat_vol *v, const struct fat_file *f, char *err, size_t len);
/* Marks the cached sector holding p (a pointer into it) changed. */
void fat_cache_dirty(struct fat_vol *v, const uint8_t *p);
int fat_get(struct fat_vol *v, uint32_t cluster, uint32_t *val, char *err, size_t len);
int fat_set(struct fat_vol *v, uint32_t cluster, uint32_t val, char *err, size_t len);
int fat_is_eoc(const struct fat_vol *v, uint32_t val);
uint32_t fat_eoc(const struct fat_vol *v);
/* The cluster after c in its chain: 0 with *next set (0 at the end of the
 * chain), or FS_ECORRUPT when the entry is free, bad or out of range. */
int fat_next(struct fat_vol *v, uint32_t c, uint32_t *next, char *err, size_t len);
/* A free cluster, marked end-of-chain in the FAT; FS_ENOSPC when none. */
int fat_alloc(struct fat_vol *v, uint32_t *c, char *err, size_t len);
uint32_t fat_cluster_sector(const struct fat_vol *v, uint32_t c);
int fat_zero_cluster(struct fat_vol *v, uint32_t c, char *err, size_t len);
/* Name helpers (fat_name.c). */
int fat_name_check(const char *name, char *err, size_t len);
uint8_t fat_lfn_checksum(const uint8_t short_name[11]);
/* The 8.3 basis of a long name (FAT spec, 7.2): 1 when it is lossy or
 * does not fit (a numeric tail is then needed). */
int fat_short_basis(const char *name, uint8_t out[11]);
/* Writes "~N" into the basis (N >= 1). */
void fat_short_tail(const uint8_t basis[11], uint32_t n, uint8_t out[11]);
/* 1 when name is exactly its 8.3 form (upper case, fits, nothing lost). */
int fat_name_is_short(const char *name);
void fat_short_to_text(const uint8_t short_name[11], uint8_t ntres, char *out, size_t len);
int fat_name_equal(const char *a, const char *b);

#endif
