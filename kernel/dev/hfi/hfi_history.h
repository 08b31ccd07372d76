/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * hfi_history.h — every HFI table the driver copied, with the time it
 * came and the hardware's timestamp, kept in a ring of the newest
 * HFI_HISTORY_RECORDS (kernel/save/ writes them to hfi-updates.csv). The
 * thermal interrupt adds to it; readers copy records out by sequence
 * number. A record keeps the first HFI_HISTORY_CELLS rows x classes.
 */
#ifndef MOSAIC_ARCH_HFI_HISTORY_H
#define MOSAIC_ARCH_HFI_HISTORY_H
#include <stdint.h>
#include <dev/hfi/hfi.h>

#define HFI_HISTORY_RECORDS 512
#define HFI_HISTORY_CELLS   128

struct hfi_history_rec {
	uint64_t seq;             /* 1, 2, ... over the boot */
	uint64_t time_ns;         /* guest time of the copy */
	uint64_t hw_ts;           /* the table's own timestamp */
	uint16_t pkg;             /* package index of the driver */
	uint16_t rows, classes;   /* rows x classes kept (rows * classes <= HFI_HISTORY_CELLS) */
	uint8_t perf[HFI_HISTORY_CELLS], ee[HFI_HISTORY_CELLS];   /* [row * classes + class], raw 0..255 */
};

/* A new table was copied for cpu's package (hfi_event() returned 1):
 * record it. Interrupts off. */
void hfi_history_note(const struct hfi_drv *d, int cpu);
/* Record seq into *out: 0, or -1 when it is not (or no longer) kept. Any
 * thread. */
int hfi_history_get(uint64_t seq, struct hfi_history_rec *out);
/* Records made since boot (the newest's seq). */
uint64_t hfi_history_count(void);

#endif
