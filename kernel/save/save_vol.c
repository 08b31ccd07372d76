/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * save_vol.c — the volumes `save` can write to: every partition (or the
 * whole device) of every USB stick, probed for a FAT file system with its
 * free space counted, and the one Mosaic booted from recognised by its
 * \mosaic\kernel.elf. The sticks are referenced while the list is held.
 */
#include <save/save.h>
#include <kern/printk.h>
#include <lib/string.h>
#include <dev/usb/usb_storage.h>

/* 1 when the volume holds \mosaic\kernel.elf. */
static int is_boot_volume(struct fat_vol *v)
{
	struct fat_dirent e;
	char err[80];
	if (fat_lookup(v, fat_root(v), "mosaic", &e, err, sizeof(err)) || !(e.attr & FAT_ATTR_DIR))
		return 0;
	return fat_lookup(v, (struct fat_dir){ e.cluster }, "kernel.elf", &e, err, sizeof(err)) == 0;
}

/* Probes one partition e of stick b into a new entry of s. */
static void probe(struct save_vols *s, struct blkdev *b, const struct part_table *t,
		  const struct part_entry *e, struct fat_vol *v)
{
	if (s->n == SAVE_VOL_MAX)
		return;
	struct save_vol *sv = &s->v[s->n++];
	memset(sv, 0, sizeof(*sv));
	part_name(b, t, e, sv->name, sizeof(sv->name));
	sv->dev = b;
	sv->start = e->start;
	sv->count = e->count;
	if (e->kind == PART_KIND_EXTENDED) {
		ksnprintf(sv->why, sizeof(sv->why), "extended partition (not followed)");
		return;
	}
	if (e->kind == PART_KIND_OTHER) {
		if (e->mbr_type)
			ksnprintf(sv->why, sizeof(sv->why), "MBR partition type 0x%02x, not FAT", e->mbr_type);
		else
			ksnprintf(sv->why, sizeof(sv->why), "GPT partition type not FAT (\"%s\")", e->label);
		return;
	}
	if (fat_mount(v, b, e->start, e->count, sv->name, 0, sv->why, sizeof(sv->why)))
		return;
	uint32_t free;
	if (fat_count_free(v, &free, sv->why, sizeof(sv->why)))
		return;
	sv->fat = v->g.type;
	memcpy(sv->label, v->g.label, sizeof(sv->label));
	sv->free_bytes = (uint64_t)free * v->g.cluster_size;
	sv->boot = (uint8_t)is_boot_volume(v);
}

/* See save.h. */
void save_vols_scan(struct save_vols *s, struct fat_vol *v)
{
	static struct part_table t;
	memset(s, 0, sizeof(*s));
	for (unsigned u = 0; u < USB_STORAGE_MAX && u < 8; u++) {
		struct blkdev *b = usb_storage_get(u);
		if (!b)
			continue;
		s->dev[u] = b;
		if (part_scan(b, &t, s->note[u], sizeof(s->note[u])) == 0) {
			memcpy(s->note[u], t.note, sizeof(s->note[u]));
			for (uint32_t i = 0; i < t.count; i++)
				probe(s, b, &t, &t.e[i], v);
		}
	}
}

/* See save.h. */
void save_vols_release(struct save_vols *s)
{
	for (int u = 0; u < 8; u++)
		usb_storage_put(s->dev[u]);
	memset(s, 0, sizeof(*s));
}

/* 1 when stick b holds the boot volume. */
static int boot_stick(const struct save_vols *s, const struct blkdev *b)
{
	for (int i = 0; i < s->n; i++)
		if (s->v[i].dev == b && s->v[i].boot)
			return 1;
	return 0;
}

/* See save.h. A writable FAT volume on a stick Mosaic did not boot from
 * first (the results stay apart from the boot image), else the boot
 * volume, else any writable FAT volume. */
const struct save_vol *save_vols_default(const struct save_vols *s, char *why, size_t len)
{
	const struct save_vol *boot = NULL, *any = NULL;
	for (int i = 0; i < s->n; i++) {
		const struct save_vol *sv = &s->v[i];
		if (!sv->fat || sv->dev->readonly)
			continue;
		if (!boot_stick(s, sv->dev))
			return sv;
		if (sv->boot && !boot)
			boot = sv;
		if (!any)
			any = sv;
	}
	if (boot || any)
		return boot ? boot : any;
	int sticks = 0;
	for (int u = 0; u < 8; u++)
		sticks += s->dev[u] != NULL;
	ksnprintf(why, len, sticks ? "no writable FAT volume on the %d USB stick%s (save -l lists them)"
				   : "no USB stick found (usb lists the USB devices)", sticks, sticks == 1 ? "" : "s");
	return NULL;
}
