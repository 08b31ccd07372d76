/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * itd_hist.h — a thread's Thread Director class history (docs/hfi.md,
 * "Thread Director"): the classes the hardware reported for it at its
 * context switches, and the class the kernel adopts from them, with
 * hysteresis: a new class only after ITD_HIST_AGREE consecutive valid
 * reads of it (invalid reads carry no information and neither count nor
 * break a run). Portable; the thread layer feeds it (thread_itd.c) and
 * hands an adopted class to the scheduler.
 *
 * All-zero is the initial state (class 0, nothing read). Written only by
 * the CPU switching the thread out (interrupts off); readers (ps) take a
 * racy copy of counters.
 */
#ifndef MOSAIC_ITD_HIST_H
#define MOSAIC_ITD_HIST_H
#include <stdint.h>
#include <lib/itd_class.h>

/* Consecutive valid reads of a new class before it is adopted: a thread
 * whose reads flicker (a short burst of vector code in a scalar loop)
 * keeps its class; four switch-outs is a few timeslices. */
#define ITD_HIST_AGREE 4

struct itd_hist {
	uint8_t cls;                     /* the adopted class (enum itd_class) */
	uint8_t cand;                    /* class of the latest valid reads */
	uint8_t agree;                   /* consecutive valid reads of cand (saturates) */
	uint32_t reads[ITD_CLASS_MAX];   /* valid reads per class */
	uint32_t invalid;                /* reads without a valid class */
	uint32_t changes;                /* adoptions of a new class */
};

/* A valid read of class cls: counted; returns 1 when it makes cls the
 * adopted class (it differs from the last one), else 0. A class at or
 * beyond ITD_CLASS_MAX counts as an invalid read. */
int itd_hist_feed(struct itd_hist *h, unsigned cls);
/* A read whose valid bit was clear: counted only. */
void itd_hist_invalid(struct itd_hist *h);

#endif
