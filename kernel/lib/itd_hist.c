/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * itd_hist.c — a thread's Thread Director class history with hysteresis
 * (itd_hist.h). Portable C.
 */
#include <lib/itd_hist.h>

/* See itd_hist.h. */
int itd_hist_feed(struct itd_hist *h, unsigned cls)
{
	if (cls >= ITD_CLASS_MAX) {
		itd_hist_invalid(h);
		return 0;
	}
	h->reads[cls]++;
	if (cls != h->cand) {
		h->cand = (uint8_t)cls;
		h->agree = 0;
	}
	if (h->agree < ITD_HIST_AGREE)
		h->agree++;
	if (h->cand == h->cls || h->agree < ITD_HIST_AGREE)
		return 0;
	h->cls = h->cand;
	h->changes++;
	return 1;
}

/* See itd_hist.h. */
void itd_hist_invalid(struct itd_hist *h)
{
	h->invalid++;
}
