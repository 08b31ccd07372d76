/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * save_write.c — `save` itself (see save.h): gathers the files in memory,
 * checks that the chosen volume has room for all of them, then writes
 * them into MOSAIC/<model>-<date>/ (the date from the firmware's clock,
 * else <model>-boot<N>, the first N free) and commits the volume once
 * (kernel/fs/fat.h: data, then both FATs, then the directories). A file
 * whose name is taken already (a second save in one boot) gets the next
 * free "NAME-2.EXT". Every refusal and failure is one line naming the
 * volume and the reason. One save at a time (save_mutex).
 */
#include <save/save.h>
#include <kern/console.h>
#include <emul/machine_platform.h>
#include <mm/mm.h>
#include <sync/mutex.h>
#include <kern/printk.h>
#include <shell/shell.h>
#include <lib/string.h>
#include <shell/sysinfo.h>
#include <dev/usb/usb_storage.h>
#include <thread/sched_trace.h>

#define SAVE_FILES_MAX  16
#define SAVE_INFO_CAP   (256 * 1024)     /* one command's output */
#define SAVE_TEXT_CAP   (4 * 1024 * 1024)

struct item {
	char name[40];
	const char *data;
	size_t len;
	struct save_text text;   /* the data when it was made here */
};

static struct mutex save_mutex = MUTEX_INIT(save_mutex, "save");
static struct fat_vol vol;
static struct save_vols vols;
static struct item items[SAVE_FILES_MAX];
static int nitems;
static char folder[64];                  /* this boot's results folder, once made */
static const struct blkdev *folder_dev;
static uint64_t folder_start;

/* A new item made here with room for cap bytes; NULL when full or out of memory. */
static struct save_text *item_text(const char *name, size_t cap)
{
	if (nitems == SAVE_FILES_MAX)
		return NULL;
	struct item *it = &items[nitems];
	memset(it, 0, sizeof(*it));
	ksnprintf(it->name, sizeof(it->name), "%s", name);
	if (save_text_init(&it->text, cap))
		return NULL;
	nitems++;
	return &it->text;
}

/* An item whose bytes belong to someone else (and outlive the save). */
static void item_ref(const char *name, const char *data, size_t len)
{
	if (nitems == SAVE_FILES_MAX)
		return;
	struct item *it = &items[nitems++];
	memset(it, 0, sizeof(*it));
	ksnprintf(it->name, sizeof(it->name), "%s", name);
	it->data = data;
	it->len = len;
}

/* One shell command's output (its first cap bytes), captured without showing it. */
static void item_command(const char *name, const char *command, size_t cap)
{
	char line[SHELL_LINE_MAX];
	struct save_text *t = item_text(name, cap);
	char *buf = kmalloc(cap);
	if (!t || !buf) {
		kfree(buf);
		return;
	}
	struct save_capture c;
	ksnprintf(line, sizeof(line), "%s", command);
	save_capture_start(&c, buf, cap, 1);
	shell_run_line(line);
	save_capture_stop(&c);
	save_text_put(t, buf, c.len);
	if (c.lost)
		save_text_printf(t, "\n(%zu more bytes did not fit)\n", c.lost);
	kfree(buf);
}

/* The files of `what` and the extra ones, in memory. */
static void gather(unsigned what, const struct save_file *extra, int nextra)
{
	struct save_text *t;
	const char *log;
	size_t len;
	nitems = 0;
	if (what & SAVE_LOG) {
		size_t boot = console_boot_log(&log);
		item_ref("boot.log", log, boot);
		uint64_t from = boot, first;
		if ((t = item_text("console.log", CONSOLE_LOG_SIZE + 128))) {
			char *buf = kmalloc(CONSOLE_LOG_SIZE);
			size_t n = buf ? console_log_read(from, buf, CONSOLE_LOG_SIZE, &first) : 0;
			if (first > from)
				save_text_printf(t, "(the first %lu bytes after the boot log are no longer kept)\n",
						 first - from);
			save_text_put(t, buf, n);
			kfree(buf);
		}
	}
	if (what & SAVE_INFO) {
		item_command("sysinfo.txt", "sysinfo", SAVE_INFO_CAP);
		item_command("cpus.txt", "cpus", SAVE_INFO_CAP);
		item_command("topo.txt", "topo", SAVE_INFO_CAP);
		item_command("hfi.txt", "hfi", SAVE_INFO_CAP);
	}
	if ((what & SAVE_CPUID) && (t = item_text("cpuid.txt", SAVE_TEXT_CAP)))
		save_cpuid_dump(t);
	if (what & SAVE_RECORD) {
		save_record_rapl();
		if ((t = item_text("hfi-updates.csv", SAVE_TEXT_CAP)))
			save_record_hfi_csv(t);
		if ((t = item_text("rapl.csv", SAVE_TEXT_CAP)))
			save_record_rapl_csv(t);
		struct sched_trace_status st;
		sched_trace_get_status(&st);
		if (st.size)
			item_command("sched-trace.log", "sched trace dump", SAVE_TEXT_CAP);
	}
	if ((what & SAVE_PANIC) && (log = save_panic_text(&len)))
		item_ref("panic-report.txt", log, len);
	for (int i = 0; i < nextra; i++)
		item_ref(extra[i].name, extra[i].data, extra[i].len);
	for (int i = 0; i < nitems; i++)
		if (items[i].text.data) {
			items[i].data = items[i].text.data;
			items[i].len = items[i].text.len;
		}
}

static void items_free(void)
{
	for (int i = 0; i < nitems; i++)
		save_text_free(&items[i].text);
	nitems = 0;
}

/* The FAT date and time of d (1980-01-01 00:00 without a clock). */
static struct fat_time fat_time_of(const struct save_date *d, int have)
{
	if (!have || d->year < 1980 || d->year > 2107)
		return (struct fat_time){ 1u << 5 | 1u, 0 };
	return (struct fat_time){ (uint16_t)((d->year - 1980) << 9 | d->month << 5 | d->day),
				  (uint16_t)(d->hour << 11 | d->minute << 5 | d->second / 2) };
}

/* Finds or makes directory name in d: 0 with *out. */
static int dir_get(struct fat_dir d, const char *name, struct fat_dir *out, char *err, size_t len)
{
	struct fat_dirent e;
	int rc = fat_lookup(&vol, d, name, &e, err, len);
	if (rc == 0 && !(e.attr & FAT_ATTR_DIR)) {
		ksnprintf(err, len, "'%s' is a file, not a folder", name);
		return FS_EEXIST;
	}
	if (rc == 0) {
		out->cluster = e.cluster;
		return 0;
	}
	return rc == FS_ENOENT ? fat_mkdir(&vol, d, name, out, err, len) : rc;
}

/* This boot's folder under MOSAIC/ on the mounted volume: made at the
 * first save to it, the same one after. */
static int folder_get(const struct save_vol *sv, struct fat_dir *out, char *err, size_t len)
{
	struct fat_dir top;
	struct fat_dirent e;
	int rc = dir_get(fat_root(&vol), "MOSAIC", &top, err, len);
	if (rc)
		return rc;
	if (folder[0] && folder_dev == sv->dev && folder_start == sv->start)
		return dir_get(top, folder, out, err, len);
	char model[32], brand[64];
	const struct machine *m = machine_platform_machine();
	if (m) {   /* an emulated machine: its model up to a '(' ("Core i7-1370P (Raptor Lake-P)") */
		int k = 0;
		while (m->model[k] && m->model[k] != '(')
			k++;
		ksnprintf(brand, sizeof(brand), "%.*s", k, m->model);
	} else
		sysinfo_brand(brand, sizeof(brand));
	save_model_name(brand, model, sizeof(model));
	struct save_date d;
	int have = save_date_now(&d) == 0;
	for (unsigned n = 1; n < 1000; n++) {
		if (have)
			ksnprintf(folder, sizeof(folder), n == 1 ? "%s-%04u%02u%02u-%02u%02u" : "%s-%04u%02u%02u-%02u%02u-%u",
				  model, d.year, d.month, d.day, d.hour, d.minute, n);
		else
			ksnprintf(folder, sizeof(folder), "%s-boot%u", model, n);
		if ((rc = fat_lookup(&vol, top, folder, &e, err, len)) == FS_ENOENT) {
			rc = fat_mkdir(&vol, top, folder, out, err, len);
			if (rc == 0) {
				folder_dev = sv->dev;
				folder_start = sv->start;
			} else
				folder[0] = 0;
			return rc;
		}
		if (rc)
			break;
	}
	folder[0] = 0;
	if (!rc) {
		ksnprintf(err, len, "999 results folders of this machine exist already");
		rc = FS_EEXIST;
	}
	return rc;
}

/* Creates name in d, or "BASE-2.EXT", "BASE-3.EXT", ... when taken; the
 * name used in out. */
static int create_unique(struct fat_dir d, const char *name, struct fat_file *f, char *out, size_t out_len,
			 char *err, size_t len)
{
	size_t base = strlen(name);
	while (base && name[base - 1] != '.')
		base--;
	base = base ? base - 1 : strlen(name);
	const char *dot = name[base] ? name + base : NULL;
	ksnprintf(out, out_len, "%s", name);
	for (unsigned n = 2;; n++) {
		int rc = fat_create(&vol, d, out, f, err, len);
		if (rc != FS_EEXIST || n == 100)
			return rc;
		ksnprintf(out, out_len, "%.*s-%u%s", (int)base, name, n, dot ? dot : "");
	}
}

/* Clusters the items and their entries need (each long-name entry set
 * fits in one cluster's worth; two folders at most). */
static uint64_t clusters_needed(void)
{
	uint64_t n = 2 + 1;
	for (int i = 0; i < nitems; i++)
		n += fat_clusters_for(&vol, 0, (uint32_t)items[i].len);
	return n;
}

/* Writes the items to the mounted volume: 0, or -1 after saying why. */
static int write_items(const struct save_vol *sv, char *where, size_t where_len)
{
	char err[160], used[48];
	struct fat_dir dir;
	struct fat_file f;
	int rc = 0, done = 0;
	uint64_t bytes = 0, need = clusters_needed();
	if (need > vol.free_clusters) {
		printk("save: %s: no room: the files need %lu KiB, %lu KiB are free (nothing was written)\n",
		       sv->name, need * vol.g.cluster_size / 1024,
		       (uint64_t)vol.free_clusters * vol.g.cluster_size / 1024);
		return -1;
	}
	if ((rc = folder_get(sv, &dir, err, sizeof(err)))) {
		printk("save: %s: MOSAIC%s%s: %s (%s)\n", sv->name, folder[0] ? "/" : "", folder, err, fs_strerror(rc));
		if (rc != FS_EGONE)
			fat_commit(&vol, err, sizeof(err));
		return -1;
	}
	ksnprintf(where, where_len, "MOSAIC/%s", folder);
	for (int i = 0; i < nitems && !rc; i++) {
		const struct item *it = &items[i];
		if ((rc = create_unique(dir, it->name, &f, used, sizeof(used), err, sizeof(err))) ||
		    (rc = fat_append(&vol, &f, it->data, (uint32_t)it->len, err, sizeof(err))) ||
		    (rc = fat_dir_update(&vol, &f, err, sizeof(err)))) {
			printk("save: %s: %s/%s: %s (%s)\n", sv->name, where, used, err, fs_strerror(rc));
			break;
		}
		printk("save:   %-18s %8zu bytes%s\n", used, it->len,
		       it->text.full ? " (cut: more than a file of it may hold)" : "");
		bytes += it->len;
		done++;
	}
	if (rc == FS_EGONE) {
		printk("save: %s: the stick was removed during the save; check the volume (fsck.fat, chkdsk) "
		       "before trusting it\n", sv->name);
		return -1;
	}
	int crc = fat_commit(&vol, err, sizeof(err));
	if (crc) {
		printk("save: %s: the volume could not be brought to a clean state: %s (%s); check it "
		       "with fsck.fat or chkdsk\n", sv->name, err, fs_strerror(crc));
		return -1;
	}
	printk("save: %d file%s, %lu bytes, in %s on %s%s%s%s\n", done, done == 1 ? "" : "s", bytes, where,
	       sv->name, sv->label[0] ? " (" : "", sv->label, sv->label[0] ? ")" : "");
	return rc ? -1 : 0;
}

/* The volume asked for by name (da1s1) or label, or the default. */
static const struct save_vol *choose(const char *want, char *why, size_t len)
{
	if (!want)
		return save_vols_default(&vols, why, len);
	for (int i = 0; i < vols.n; i++)
		if (strcmp(vols.v[i].name, want) == 0 || (vols.v[i].fat && fat_name_equal(vols.v[i].label, want)))
			return &vols.v[i];
	ksnprintf(why, len, "no volume '%s' (save -l lists them)", want);
	return NULL;
}

/* See save.h. */
int save_run(const char *want, unsigned what, const struct save_file *extra, int nextra)
{
	char why[160], where[80] = "";
	int rc = -1;
	mutex_lock(&save_mutex);
	save_vols_scan(&vols, &vol);
	const struct save_vol *sv = choose(want, why, sizeof(why));
	if (!sv)
		printk("save: %s\n", why);
	else if (!sv->fat)
		printk("save: %s: not a FAT volume Mosaic can write: %s\n", sv->name, sv->why);
	else if (sv->dev->readonly)
		printk("save: %s: the stick is write-protected\n", sv->name);
	else if ((rc = fat_mount(&vol, sv->dev, sv->start, sv->count, sv->name, 1, why, sizeof(why)))) {
		printk("save: %s: not written: %s (%s)\n", sv->name, why, fs_strerror(rc));
		rc = -1;
	} else {
		struct save_date d;
		vol.now = fat_time_of(&d, save_date_now(&d) == 0);
		gather(what, extra, nextra);
		rc = write_items(sv, where, sizeof(where));
		if (rc == 0 && (what & SAVE_PANIC) && save_panic_text(&(size_t){ 0 }))
			save_panic_saved();
		items_free();
	}
	save_vols_release(&vols);
	mutex_unlock(&save_mutex);
	return rc;
}

/* See save.h. */
int save_list(void)
{
	char why[160];
	mutex_lock(&save_mutex);
	save_vols_scan(&vols, &vol);
	for (int u = 0; u < 8; u++)
		if (vols.dev[u] && vols.note[u][0])
			printk("save: %s: %s\n", vols.dev[u]->name, vols.note[u]);
	for (int i = 0; i < vols.n; i++) {
		const struct save_vol *sv = &vols.v[i];
		char desc[64];
		usb_storage_describe(sv->dev, desc, sizeof(desc));
		if (sv->fat)
			printk("%-8s FAT%u %-11s %8lu KiB free%s%s  (%s)\n", sv->name, sv->fat,
			       sv->label[0] ? sv->label : "(no label)", sv->free_bytes / 1024,
			       sv->dev->readonly ? ", write-protected" : "", sv->boot ? ", Mosaic's boot volume" : "",
			       desc);
		else
			printk("%-8s not usable: %s  (%s)\n", sv->name, sv->why, desc);
	}
	const struct save_vol *d = save_vols_default(&vols, why, sizeof(why));
	if (d)
		printk("save writes to %s unless told otherwise\n", d->name);
	else
		printk("save: %s\n", why);
	save_vols_release(&vols);
	mutex_unlock(&save_mutex);
	return d ? 0 : 1;
}
