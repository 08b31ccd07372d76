/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * hfi_table.c — what CPUID leaf 06H says about the Hardware Feedback
 * Interface, where a row's values sit in its table, and the value that
 * acknowledges an update. Portable C, no state (see hfi.h).
 *
 * Sources: Intel SDM vol. 2A, CPUID leaf 06H (the enumeration); vol. 3B,
 * "Hardware Feedback Interface and Intel Thread Director" (the table
 * layout) and the thermal MSRs of the same chapter (the R/WC0 log bits of
 * IA32_PACKAGE_THERM_STATUS).
 */
#include <kern/printk.h>
#include <lib/string.h>
#include <dev/hfi/hfi.h>

/* See hfi.h. */
int hfi_features_decode(uint32_t max_leaf, const struct door_cpuid_regs *r6,
			struct hfi_features *f, char *why, size_t why_size)
{
	memset(f, 0, sizeof(*f));
	f->max_leaf = max_leaf;
	if (max_leaf < HFI_CPUID_LEAF) {
		ksnprintf(why, why_size, "not supported: CPUID max basic leaf 0x%x is below 0x6",
			  max_leaf);
		return -1;
	}
	f->pts = (r6->eax & HFI_CPUID6_EAX_PTS) != 0;
	f->hfi = (r6->eax & HFI_CPUID6_EAX_HFI) != 0;
	f->itd = (r6->eax & HFI_CPUID6_EAX_ITD) != 0;
	if (!f->hfi) {
		ksnprintf(why, why_size, "not supported: CPUID.06H:EAX[19] clear");
		return -1;
	}
	f->caps = (uint8_t)r6->edx;
	f->pages = (uint8_t)(((r6->edx >> 8) & 0xF) + 1);
	f->classes = (uint8_t)(r6->ecx >> 8);
	if (!(f->caps & HFI_CAP_PERF)) {
		ksnprintf(why, why_size,
			  "not supported: no performance capability (CPUID.06H:EDX[0] clear)");
		return -1;
	}
	return 0;
}

/* See hfi.h. Capability bits 2-7 are reserved (ignored); the columns of a
 * class are perf, then ee when EDX[1] is set. */
void hfi_layout_init(struct hfi_layout *l, const struct hfi_features *f, int itd_on)
{
	unsigned ee = (f->caps & HFI_CAP_EE) != 0;
	memset(l, 0, sizeof(*l));
	l->ncap = (uint8_t)(1 + ee);
	l->ee_col = ee ? 1 : -1;
	l->ncls = itd_on && f->classes > 1 ? f->classes : 1;
	l->hdr_size = (uint32_t)(l->ncap * l->ncls + 7) / 8 * 8;
	l->row_stride = l->hdr_size;
	l->rows_off = 8 + l->hdr_size;
	l->size = (uint32_t)f->pages * 4096u;
	l->rows_fit = l->size > l->rows_off ? (l->size - l->rows_off) / l->row_stride : 0;
}

/* See hfi.h. rows_fit guarantees the whole row lies inside the table. */
int hfi_table_read(const struct hfi_layout *l, const uint8_t *t, uint32_t row, unsigned cls,
		   uint8_t *perf, uint8_t *ee)
{
	if (row >= l->rows_fit || cls >= l->ncls)
		return -1;
	size_t off = l->rows_off + (size_t)row * l->row_stride + (size_t)cls * l->ncap;
	*perf = t[off];
	*ee = l->ee_col >= 0 ? t[off + (size_t)l->ee_col] : 0;
	return 0;
}

/* See hfi.h. Bit 26 exists with the HFI (CPUID.06H:EAX[19]), the other
 * log bits with package thermal management (EAX[6]). */
uint64_t hfi_ack_value(const struct hfi_features *f)
{
	return f->pts ? HFI_STATUS_PTS_LOGS : 0;
}
