/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * fat_dir.c — directories: their entries walked (with long names put
 * together from their VFAT entries), looked up, checked before anything
 * is written into them, and added to (long name entries, then the 8.3
 * entry, in free slots or a new cluster).
 */
#include <fs/fat.h>
#include <kern/printk.h>
#include <lib/string.h>

#define DIRENT 32
#define LFN_CHARS 13
#define LFN_MAX_ENTRIES 20
#define SHORT_TAIL_MAX 9999

static uint32_t le16(const uint8_t *p) { return p[0] | (uint32_t)p[1] << 8; }
static uint32_t le32(const uint8_t *p) { return le16(p) | le16(p + 2) << 16; }
static void put16(uint8_t *p, uint32_t v) { p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); }
static void put32(uint8_t *p, uint32_t v) { put16(p, v); put16(p + 2, v >> 16); }

/* See fat.h. */
struct fat_dir fat_root(const struct fat_vol *v)
{
	return (struct fat_dir){ v->g.type == 32 ? v->g.root_cluster : 0 };
}

/* Where entry idx of d lies: 0 with *sector and *off set; 1 when d has
 * no such entry (past the fixed root, the chain's end, or FAT's limit of
 * entries per directory); or an FS_E* code (a broken chain). Following
 * the chain from the last place found keeps a walk linear. */
static int dir_slot(struct fat_vol *v, struct fat_dir d, uint32_t idx, uint32_t *sector, uint32_t *off,
		    uint32_t *cluster, char *err, size_t len)
{
	uint32_t per_sec = v->g.sector_size / DIRENT;
	if (d.cluster == 0) {
		if (idx >= v->g.root_entries)
			return 1;
		*sector = v->g.root_sector + idx / per_sec;
		*off = idx % per_sec * DIRENT;
		*cluster = 0;
		return 0;
	}
	uint32_t per_clus = v->g.cluster_size / DIRENT, k = idx / per_clus, cur_k = 0, c = d.cluster;
	if (idx >= FAT_DIR_ENTRIES_MAX)
		return 1;
	if (v->walk_dir == d.cluster && v->walk_c && v->walk_k <= k) {
		cur_k = v->walk_k;
		c = v->walk_c;
	}
	while (cur_k < k) {
		uint32_t next;
		int rc = fat_next(v, c, &next, err, len);
		if (rc)
			return rc;
		if (!next)
			return 1;
		c = next;
		cur_k++;
	}
	v->walk_dir = d.cluster;
	v->walk_k = k;
	v->walk_c = c;
	uint32_t in = idx % per_clus;
	*sector = fat_cluster_sector(v, c) + in / per_sec;
	*off = in % per_sec * DIRENT;
	*cluster = c;
	return 0;
}

/* The cached 32-byte entry idx of d: 0 with *p, 1 past the end, or an error. */
static int dir_entry(struct fat_vol *v, struct fat_dir d, uint32_t idx, uint8_t **p, char *err, size_t len)
{
	uint32_t sector, off, c;
	int rc = dir_slot(v, d, idx, &sector, &off, &c, err, len);
	if (rc)
		return rc;
	uint8_t *s = fat_cache_get(v, sector, FAT_SLOT_DIR, err, len);
	if (!s)
		return FS_EIO;
	*p = s + off;
	return 0;
}

/* The impossible things a short entry can say (for a strict walk), or NULL. */
static const char *entry_problem(const struct fat_vol *v, const uint8_t *p, char *why, size_t len)
{
	uint32_t hi = le16(p + 20), c = (v->g.type == 32 ? hi << 16 : 0) | le16(p + 26);
	if (p[0] < 0x20 && p[0] != 0x05)
		return "a name starting with a control character";
	for (int i = 1; i < 11; i++)
		if (p[i] < 0x20)
			return "a control character in its name";
	if (p[11] & 0xC0)
		return "reserved attribute bits set";
	if (v->g.type != 32 && hi)
		return "a 32-bit cluster number on FAT12/16";
	if (c == 1 || c > v->g.clusters + 1) {
		ksnprintf(why, len, "cluster %u outside 2..%u", c, v->g.clusters + 1);
		return why;
	}
	if (!(p[11] & (FAT_ATTR_DIR | FAT_ATTR_VOLUME)) && c == 0 && le32(p + 28)) {
		ksnprintf(why, len, "%u bytes but no cluster", le32(p + 28));
		return why;
	}
	return NULL;
}

/* UCS-2 code unit u appended to a UTF-8 string of capacity cap. */
static void utf8_put(char *out, size_t *k, size_t cap, uint32_t u)
{
	uint8_t b[3];
	size_t n = u < 0x80 ? 1 : u < 0x800 ? 2 : 3;
	if (n == 1) {
		b[0] = (uint8_t)u;
	} else if (n == 2) {
		b[0] = (uint8_t)(0xC0 | u >> 6);
		b[1] = (uint8_t)(0x80 | (u & 0x3F));
	} else {
		b[0] = (uint8_t)(0xE0 | u >> 12);
		b[1] = (uint8_t)(0x80 | (u >> 6 & 0x3F));
		b[2] = (uint8_t)(0x80 | (u & 0x3F));
	}
	if (*k + n >= cap)
		return;
	memcpy(out + *k, b, n);
	*k += n;
}

/* Byte offsets of the 13 characters of a long name entry. */
static const uint8_t lfn_off[LFN_CHARS] = { 1, 3, 5, 7, 9, 14, 16, 18, 20, 22, 24, 28, 30 };

/* See fat.h. */
int fat_dir_next(struct fat_vol *v, struct fat_dir d, uint32_t *pos, int strict, struct fat_dirent *e,
		 char *err, size_t len)
{
	uint16_t lfn[LFN_MAX_ENTRIES * LFN_CHARS];
	int expect = 0, total = 0;      /* long name: entries still expected, entries in all */
	uint8_t sum = 0;
	uint32_t first = 0;
	for (;;) {
		uint32_t idx = *pos;
		uint8_t *p;
		char why[64];
		int rc = dir_entry(v, d, idx, &p, err, len);
		if (rc == 1)
			return 0;
		if (rc)
			return rc;
		if (p[0] == 0)
			return 0;                 /* the end marker: *pos stays on it */
		(*pos)++;
		if (p[0] == 0xE5) {
			expect = 0;
			continue;
		}
		if ((p[11] & 0x3F) == FAT_ATTR_LFN) {
			int ord = p[0] & 0x1F;
			if (p[0] & 0x40) {
				expect = ord >= 1 && ord <= LFN_MAX_ENTRIES ? ord : 0;
				total = expect;
				sum = p[13];
				first = idx;
				for (int i = 0; i < LFN_MAX_ENTRIES * LFN_CHARS; i++)
					lfn[i] = 0;
			}
			if (expect && ord == expect && p[13] == sum) {
				for (int i = 0; i < LFN_CHARS; i++)
					lfn[(ord - 1) * LFN_CHARS + i] = (uint16_t)le16(p + lfn_off[i]);
				expect--;
				if (!expect)
					expect = -1;      /* complete: the 8.3 entry must follow */
			} else {
				expect = 0;
			}
			continue;
		}
		const char *bad = strict ? entry_problem(v, p, why, sizeof(why)) : NULL;
		if (bad) {
			ksnprintf(err, len, "directory entry %u: %s; the directory looks damaged", idx, bad);
			return FS_ECORRUPT;
		}
		int long_ok = expect == -1 && fat_lfn_checksum(p) == sum;
		expect = 0;
		if ((p[11] & FAT_ATTR_VOLUME) || (p[0] == '.' && (p[1] == ' ' || p[1] == '.')))
			continue;
		memset(e, 0, sizeof(*e));
		memcpy(e->short_name, p, 11);
		e->attr = p[11];
		e->cluster = (v->g.type == 32 ? le16(p + 20) << 16 : 0) | le16(p + 26);
		e->size = le32(p + 28);
		e->index = idx;
		e->first_index = long_ok ? first : idx;
		if (long_ok) {
			size_t k = 0;
			for (int i = 0; i < total * LFN_CHARS && lfn[i] && lfn[i] != 0xFFFF; i++)
				utf8_put(e->name, &k, sizeof(e->name), lfn[i]);
			e->name[k] = 0;
		}
		if (!long_ok || !e->name[0])
			fat_short_to_text(p, p[12], e->name, sizeof(e->name));
		return 1;
	}
}

/* See fat.h. */
int fat_lookup(struct fat_vol *v, struct fat_dir d, const char *name, struct fat_dirent *e, char *err,
	       size_t len)
{
	uint32_t pos = 0;
	int rc;
	while ((rc = fat_dir_next(v, d, &pos, 1, e, err, len)) == 1) {
		char short_text[13];
		fat_short_to_text(e->short_name, 0, short_text, sizeof(short_text));
		if (fat_name_equal(e->name, name) || fat_name_equal(short_text, name))
			return 0;
	}
	return rc ? rc : FS_ENOENT;
}

/* 1 when some entry of d has the 8.3 name s. */
static int short_taken(struct fat_vol *v, struct fat_dir d, const uint8_t s[11], int *taken, char *err,
		       size_t len)
{
	for (uint32_t idx = 0;; idx++) {
		uint8_t *p;
		int rc = dir_entry(v, d, idx, &p, err, len);
		if (rc == 1 || (rc == 0 && p[0] == 0)) {
			*taken = 0;
			return 0;
		}
		if (rc)
			return rc;
		if (p[0] != 0xE5 && (p[11] & 0x3F) != FAT_ATTR_LFN && memcmp(p, s, 11) == 0) {
			*taken = 1;
			return 0;
		}
	}
}

/* The 8.3 name for name in d, and whether long name entries are needed. */
static int choose_short(struct fat_vol *v, struct fat_dir d, const char *name, uint8_t s[11], int *lfn,
			char *err, size_t len)
{
	uint8_t basis[11];
	int taken, rc, lossy = fat_short_basis(name, basis);
	*lfn = !fat_name_is_short(name);
	if (!lossy) {
		if ((rc = short_taken(v, d, basis, &taken, err, len)))
			return rc;
		if (!taken) {
			memcpy(s, basis, 11);
			return 0;
		}
		*lfn = 1;
	}
	for (uint32_t n = 1; n <= SHORT_TAIL_MAX; n++) {
		fat_short_tail(basis, n, s);
		if ((rc = short_taken(v, d, s, &taken, err, len)))
			return rc;
		if (!taken)
			return 0;
	}
	ksnprintf(err, len, "'%s': every short name %.6s~1..~%u is taken", name, (const char *)basis,
		  SHORT_TAIL_MAX);
	return FS_ENOSPC;
}

/* Finds `need` free slots in a row in d (deleted ones, or any after the
 * end marker), growing a cluster directory by a zeroed cluster when it
 * has none; *at is the first. *after_end: the run reaches past the old
 * end marker (so the slot after it must become the end marker). */
static int find_slots(struct fat_vol *v, struct fat_dir d, uint32_t need, uint32_t *at, int *after_end,
		      char *err, size_t len)
{
	uint32_t run = 0, start = 0, last_cluster = d.cluster;
	int ended = 0;
	for (uint32_t idx = 0;; idx++) {
		uint32_t sector, off, c;
		int rc = dir_slot(v, d, idx, &sector, &off, &c, err, len);
		if (rc < 0)
			return rc;
		if (rc == 1) {
			if (d.cluster == 0) {
				ksnprintf(err, len, "the root directory is full (%u entries)", v->g.root_entries);
				return FS_ENOSPC;
			}
			if (idx + need - run > FAT_DIR_ENTRIES_MAX) {
				ksnprintf(err, len, "the directory has FAT's maximum of %u entries", FAT_DIR_ENTRIES_MAX);
				return FS_ENOSPC;
			}
			uint32_t nc;
			if ((rc = fat_alloc(v, &nc, err, len)) || (rc = fat_zero_cluster(v, nc, err, len)) ||
			    (rc = fat_set(v, last_cluster, nc, err, len)))
				return rc;
			idx--;                    /* the same index now lies in the new cluster */
			continue;
		}
		if (c)
			last_cluster = c;
		uint8_t *p = fat_cache_get(v, sector, FAT_SLOT_DIR, err, len);
		if (!p)
			return FS_EIO;
		p += off;
		if (p[0] == 0)
			ended = 1;
		if (ended || p[0] == 0xE5) {
			if (run++ == 0)
				start = idx;
			if (run == need) {
				*at = start;
				*after_end = ended;
				return 0;
			}
		} else {
			run = 0;
		}
	}
}

/* Fills the 8.3 entry at p. */
static void make_short(struct fat_vol *v, uint8_t *p, const uint8_t s[11], uint8_t attr, uint32_t cluster,
		       uint32_t size)
{
	memset(p, 0, DIRENT);
	memcpy(p, s, 11);
	if (p[0] == 0xE5)
		p[0] = 0x05;
	p[11] = attr;
	put16(p + 14, v->now.time);
	put16(p + 16, v->now.date);
	put16(p + 18, v->now.date);
	put16(p + 20, cluster >> 16);
	put16(p + 22, v->now.time);
	put16(p + 24, v->now.date);
	put16(p + 26, cluster & 0xFFFF);
	put32(p + 28, size);
}

/* Fills long name entry number ord (1-based) of n for name at p. */
static void make_lfn(uint8_t *p, const char *name, int ord, int n, uint8_t sum)
{
	size_t nlen = strlen(name);
	memset(p, 0, DIRENT);
	p[0] = (uint8_t)(ord | (ord == n ? 0x40 : 0));
	p[11] = FAT_ATTR_LFN;
	p[13] = sum;
	for (int i = 0; i < LFN_CHARS; i++) {
		size_t k = (size_t)(ord - 1) * LFN_CHARS + (size_t)i;
		uint32_t u = k < nlen ? (uint8_t)name[k] : k == nlen ? 0 : 0xFFFF;
		put16(p + lfn_off[i], u);
	}
}

/* Adds name to d: long name entries (when needed) and the 8.3 entry with
 * attr, cluster and size, all in the cache; *index is the 8.3 entry's. */
static int dir_add(struct fat_vol *v, struct fat_dir d, const char *name, uint8_t attr, uint32_t cluster,
		   uint32_t *index, char *err, size_t len)
{
	struct fat_dirent e;
	uint8_t s[11];
	int lfn, after_end, rc = fat_name_check(name, err, len);
	if (rc)
		return rc;
	rc = fat_lookup(v, d, name, &e, err, len);
	if (rc == 0) {
		ksnprintf(err, len, "'%s' exists", name);
		return FS_EEXIST;
	}
	if (rc != FS_ENOENT || (rc = choose_short(v, d, name, s, &lfn, err, len)) ||
	    (rc = fat_cache_reserve(v, 8, err, len)))
		return rc;
	uint32_t n = lfn ? (uint32_t)(strlen(name) + LFN_CHARS - 1) / LFN_CHARS : 0, at;
	if ((rc = find_slots(v, d, n + 1, &at, &after_end, err, len)))
		return rc;
	/* Every slot's sector is fetched before any is changed, so a commit a
	 * fetch may cause never writes half an entry set. */
	uint8_t *p;
	for (uint32_t i = 0; i <= n + (uint32_t)after_end; i++)
		if ((rc = dir_entry(v, d, at + i, &p, err, len)) < 0)
			return rc;
	uint8_t sum = fat_lfn_checksum(s);
	for (uint32_t i = 0; i <= n; i++) {
		if ((rc = dir_entry(v, d, at + i, &p, err, len)))
			return rc < 0 ? rc : FS_EIO;
		if (i < n)
			make_lfn(p, name, (int)(n - i), (int)n, sum);
		else
			make_short(v, p, s, attr, cluster, 0);
		fat_cache_dirty(v, p);
	}
	if (after_end && dir_entry(v, d, at + n + 1, &p, err, len) == 0 && p[0] != 0) {
		p[0] = 0;
		fat_cache_dirty(v, p);
	}
	*index = at + n;
	return 0;
}

/* See fat.h. The new directory's cluster is written whole ("." and "..",
 * the rest zero) before any metadata names it. */
int fat_mkdir(struct fat_vol *v, struct fat_dir d, const char *name, struct fat_dir *out, char *err,
	      size_t len)
{
	static const uint8_t dot[11] = ".          ", dotdot[11] = "..         ";
	struct fat_dirent e;
	uint32_t c, index;
	int rc = fat_name_check(name, err, len);
	if (rc)
		return rc;
	if ((rc = fat_lookup(v, d, name, &e, err, len)) != FS_ENOENT) {
		if (rc == 0) {
			ksnprintf(err, len, "'%s' exists", name);
			rc = FS_EEXIST;
		}
		return rc;
	}
	if ((rc = fat_alloc(v, &c, err, len)) || (rc = fat_zero_cluster(v, c, err, len)))
		return rc;
	memset(v->scratch, 0, v->g.sector_size);
	make_short(v, v->scratch, dot, FAT_ATTR_DIR, c, 0);
	make_short(v, v->scratch + DIRENT, dotdot, FAT_ATTR_DIR, d.cluster == v->g.root_cluster ? 0 : d.cluster, 0);
	if ((rc = fat_sec_write(v, fat_cluster_sector(v, c), 1, v->scratch, err, len)) ||
	    (rc = dir_add(v, d, name, FAT_ATTR_DIR, c, &index, err, len)))
		return rc;
	out->cluster = c;
	return 0;
}

/* See fat.h. */
int fat_create(struct fat_vol *v, struct fat_dir d, const char *name, struct fat_file *f, char *err,
	       size_t len)
{
	uint32_t index;
	int rc = dir_add(v, d, name, FAT_ATTR_ARCH, 0, &index, err, len);
	if (rc)
		return rc;
	memset(f, 0, sizeof(*f));
	f->dir = d;
	f->index = index;
	return 0;
}

/* See fat.h. */
int fat_dir_update(struct fat_vol *v, const struct fat_file *f, char *err, size_t len)
{
	uint8_t *p;
	int rc = dir_entry(v, f->dir, f->index, &p, err, len);
	if (rc)
		return rc < 0 ? rc : FS_ECORRUPT;
	put16(p + 20, f->first >> 16);
	put16(p + 26, f->first & 0xFFFF);
	put32(p + 28, f->size);
	put16(p + 22, v->now.time);
	put16(p + 24, v->now.date);
	put16(p + 18, v->now.date);
	p[11] |= FAT_ATTR_ARCH;
	fat_cache_dirty(v, p);
	return 0;
}
