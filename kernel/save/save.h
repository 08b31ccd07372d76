/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * save.h — results leave the machine (docs/nuc.md): `save` and `bench
 * --save` write the boot log, the console output, `sysinfo`, `cpus`,
 * `topo` and `hfi`, a CPUID and MSR dump of every CPU, the HFI updates and
 * RAPL readings, benchmark logs and a panic report of the previous boot
 * into MOSAIC/<model>-<date>/ on a FAT volume of a USB stick. The files
 * of this folder (kernel/save/) share this header; the shell commands
 * (kernel/shell/cmd_save.c, cmd_bench.c) and the boot sequence use the
 * part marked "public". One save at a time (save_lock()).
 */
#ifndef MOSAIC_SAVE_H
#define MOSAIC_SAVE_H
#include <stddef.h>
#include <stdint.h>
#include <fs/blkdev.h>
#include <fs/fat.h>
#include <fs/part.h>

struct panic_keeper;

/* ---- public ---- */

/* What `save` writes (its WHAT words); SAVE_ALL by default. */
#define SAVE_LOG     0x01u    /* boot.log, console.log */
#define SAVE_INFO    0x02u    /* sysinfo.txt, cpus.txt, topo.txt, hfi.txt */
#define SAVE_CPUID   0x04u    /* cpuid.txt */
#define SAVE_RECORD  0x08u    /* hfi-updates.csv, rapl.csv, sched-trace.log (a `sched trace` since boot) */
#define SAVE_PANIC   0x10u    /* panic-report.txt (the previous boot's) */
#define SAVE_ALL     0x1Fu

/* A file given to save_run() besides the standard ones (a benchmark log). */
struct save_file {
	const char *name;
	const char *data;
	size_t len;
};

/* Writes the items of `what` and the extra files to MOSAIC/<folder>/ on
 * the volume named vol (NULL: the default, save_vols_default()); prints
 * what it wrote and where, or one line saying why nothing (or what) was
 * written. 0 or -1. Thread context; takes the save lock. */
int save_run(const char *vol, unsigned what, const struct save_file *extra, int nextra);
/* `save -l`: every volume of every stick, and which one save_run() takes. */
int save_list(void);

/* A capture of the calling thread's output (save_capture.c). */
struct save_capture {
	char *buf;
	size_t cap, len, lost;   /* lost: bytes that did not fit */
	int quiet;               /* not shown on the consoles */
};
void save_capture_start(struct save_capture *c, char *buf, size_t cap, int quiet);
void save_capture_stop(struct save_capture *c);

/* The panic report (save_panic.c). save_panic_keeper, registered with
 * panic_set_keeper() (kern/panic.h) after efi_rt_init(), notes where a
 * panic's output starts and stores the report in a UEFI variable;
 * save_panic_boot() prints the previous boot's report, read from that
 * variable, and keeps it for save_run() (boot-time, after efi_rt_init()). */
extern const struct panic_keeper save_panic_keeper;
void save_panic_boot(void);

/* A RAPL energy reading kept for rapl.csv (save_record.c): bench takes
 * one as each run starts and ends, save_run() one more. Any thread. */
void save_record_rapl(void);

/* ---- inside kernel/save/ ---- */

/* A growing text (kmalloc'd), bounded by its cap. */
struct save_text {
	char *data;
	size_t len, alloc, cap;  /* used, allocated, the most it may grow to */
	int full;                /* something did not fit */
};
int save_text_init(struct save_text *t, size_t cap);
void save_text_free(struct save_text *t);
void save_text_put(struct save_text *t, const char *s, size_t n);
void save_text_printf(struct save_text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#define SAVE_VOL_MAX 24
struct save_vol {
	char name[24];           /* "da1s1" */
	struct blkdev *dev;
	uint64_t start, count;   /* blocks */
	uint8_t fat;             /* 12, 16, 32, or 0: not a usable FAT volume (why says) */
	uint8_t boot;            /* holds \mosaic\kernel.elf: the volume Mosaic booted from */
	char label[12];
	uint64_t free_bytes;
	char why[120];
};
struct save_vols {
	int n;
	struct save_vol v[SAVE_VOL_MAX];
	struct blkdev *dev[8];   /* the sticks, referenced */
	char note[8][PART_NOTE_MAX];   /* each stick's partition table: what was odd, or why unreadable */
};
void save_vols_scan(struct save_vols *s, struct fat_vol *scratch);
void save_vols_release(struct save_vols *s);
/* The volume save_run() takes without a name; NULL with the reason. */
const struct save_vol *save_vols_default(const struct save_vols *s, char *why, size_t len);

/* CPUID and MSRs of every online CPU, InstLatx64's text format (save_cpuid.c). */
void save_cpuid_dump(struct save_text *t);
/* The HFI tables kept (hfi_history.h) and the RAPL readings, as CSV with
 * a header line (save_record.c). */
void save_record_hfi_csv(struct save_text *t);
void save_record_rapl_csv(struct save_text *t);
/* The previous boot's report, NULL when there is none; its length. */
const char *save_panic_text(size_t *len);
/* It was written to a stick: the UEFI variable is cleared. */
void save_panic_saved(void);
/* The model's part of the folder name from a CPU brand string or a
 * machine description's model ("i7-1370P", "small-hybrid"). Pure. */
void save_model_name(const char *brand, char *out, size_t len);
/* The local date and time from the firmware: 0, or -1 without a clock. */
struct save_date {
	uint16_t year;
	uint8_t month, day, hour, minute, second;
};
int save_date_now(struct save_date *d);

#endif
