/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * fat_file.c — file data: a file opened for appending (its chain walked
 * and checked against its size), data appended (straight to new or the
 * last cluster, the chain and size left to fat_commit()), data read.
 */
#include <fs/fat.h>
#include <kern/printk.h>
#include <lib/string.h>

#define RUN_MAX_BYTES (64u * 1024u)   /* most data written by one device call */

/* See fat.h. */
int fat_open(struct fat_vol *v, struct fat_dir d, const struct fat_dirent *e, struct fat_file *f,
	     char *err, size_t len)
{
	if (e->attr & (FAT_ATTR_DIR | FAT_ATTR_VOLUME)) {
		ksnprintf(err, len, "'%s' is a directory", e->name);
		return FS_EEXIST;
	}
	memset(f, 0, sizeof(*f));
	f->dir = d;
	f->index = e->index;
	f->size = e->size;
	f->first = e->cluster;
	uint32_t want = fat_clusters_for(v, 0, e->size), have = 0;
	for (uint32_t c = e->cluster; c; have++) {
		if (have == want) {
			ksnprintf(err, len, "'%s': its cluster chain is longer than its %u bytes", e->name, e->size);
			return FS_ECORRUPT;
		}
		f->last = c;
		int rc = fat_next(v, c, &c, err, len);
		if (rc)
			return rc;
	}
	if (have != want) {
		ksnprintf(err, len, "'%s': %u bytes, but a chain of %u clusters", e->name, e->size, have);
		return FS_ECORRUPT;
	}
	return 0;
}

/* Writes n bytes of data at byte off of the clusters run starting at
 * sector s: a first partial sector read, merged and written back; whole
 * sectors straight from data; a last partial sector padded with zeros
 * (nothing after the file's end is read). */
static int write_run(struct fat_vol *v, uint32_t s, uint32_t off, const uint8_t *data, uint32_t n,
		     char *err, size_t len)
{
	uint32_t ss = v->g.sector_size;
	int rc;
	s += off / ss;
	off %= ss;
	if (off) {
		uint32_t k = n < ss - off ? n : ss - off;
		if ((rc = fat_sec_read(v, s, 1, v->scratch, err, len)))
			return rc;
		memcpy(v->scratch + off, data, k);
		if ((rc = fat_sec_write(v, s, 1, v->scratch, err, len)))
			return rc;
		s++;
		data += k;
		n -= k;
	}
	if (n >= ss) {
		uint32_t whole = n / ss;
		if ((rc = fat_sec_write(v, s, whole, data, err, len)))
			return rc;
		s += whole;
		data += whole * ss;
		n -= whole * ss;
	}
	if (n) {
		memset(v->scratch, 0, ss);
		memcpy(v->scratch, data, n);
		if ((rc = fat_sec_write(v, s, 1, v->scratch, err, len)))
			return rc;
	}
	return 0;
}

/* See fat.h. New clusters are taken one by one and linked behind the
 * last; each run of adjacent ones (up to RUN_MAX_BYTES) is written in one
 * call. */
int fat_append(struct fat_vol *v, struct fat_file *f, const void *data, uint32_t n, char *err,
	       size_t len)
{
	const uint8_t *p = data;
	uint32_t cs = v->g.cluster_size, need = fat_clusters_for(v, f->size, n);
	int rc;
	if (!v->writable) {
		ksnprintf(err, len, "mounted read-only");
		return FS_EROFS;
	}
	if ((uint64_t)f->size + n > 0xFFFFFFFFull) {
		ksnprintf(err, len, "a FAT file holds at most 4 GiB - 1");
		return FS_ENOSPC;
	}
	if (need > v->free_clusters) {
		ksnprintf(err, len, "%u more clusters of %u bytes needed, %u free", need, cs, v->free_clusters);
		return FS_ENOSPC;
	}
	if (f->last && f->size % cs && n) {
		uint32_t off = f->size % cs, k = n < cs - off ? n : cs - off;
		if ((rc = write_run(v, fat_cluster_sector(v, f->last), off, p, k, err, len)))
			return rc;
		p += k;
		n -= k;
		f->size += k;
	}
	uint32_t pending = 0;          /* a cluster taken and linked that did not join the last run */
	while (n) {
		uint32_t first = 0, count = 0;
		for (;;) {
			uint32_t c = pending;
			if (!c) {
				if ((rc = fat_alloc(v, &c, err, len)) ||
				    (f->last && (rc = fat_set(v, f->last, c, err, len))))
					return rc;
				if (!f->first)
					f->first = c;
				f->last = c;
			}
			pending = 0;
			if (count && c != first + count) {
				pending = c;
				break;
			}
			if (!count)
				first = c;
			count++;
			if ((uint64_t)count * cs >= n || (count + 1) * cs > RUN_MAX_BYTES)
				break;
		}
		uint32_t k = (uint64_t)count * cs < n ? count * cs : n;
		if ((rc = write_run(v, fat_cluster_sector(v, first), 0, p, k, err, len)))
			return rc;
		p += k;
		n -= k;
		f->size += k;
	}
	return fat_dir_update(v, f, err, len);
}

/* See fat.h. */
int64_t fat_read(struct fat_vol *v, const struct fat_dirent *e, uint32_t off, void *buf, uint32_t n,
		 char *err, size_t len)
{
	uint32_t cs = v->g.cluster_size, ss = v->g.sector_size, done = 0, c = e->cluster;
	if (off >= e->size)
		return 0;
	if (n > e->size - off)
		n = e->size - off;
	for (uint32_t k = off / cs; k; k--) {
		int rc = fat_next(v, c, &c, err, len);
		if (rc)
			return rc;
		if (!c) {
			ksnprintf(err, len, "'%s': the chain ends before its size", e->name);
			return FS_ECORRUPT;
		}
	}
	while (done < n) {
		uint32_t in = (off + done) % cs, s = fat_cluster_sector(v, c) + in / ss, o = in % ss;
		int rc = fat_sec_read(v, s, 1, v->scratch, err, len);
		if (rc)
			return rc;
		uint32_t k = ss - o < n - done ? ss - o : n - done;
		memcpy((uint8_t *)buf + done, v->scratch + o, k);
		done += k;
		if ((off + done) % cs == 0 && done < n) {
			if ((rc = fat_next(v, c, &c, err, len)))
				return rc;
			if (!c) {
				ksnprintf(err, len, "'%s': the chain ends before its size", e->name);
				return FS_ECORRUPT;
			}
		}
	}
	return done;
}
