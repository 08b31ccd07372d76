/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * hfi_start.c — detecting the Hardware Feedback Interface and turning it
 * on, in an order that loses no interrupt and never delivers one to a CPU
 * that does not know its table (see hfi.h, docs/hfi.md):
 *
 *   1. CPUID leaf 0 then 06H on the boot CPU (a leaf above the maximum
 *      would return the last leaf's data on some CPUs, e.g. QEMU's TCG);
 *   2. on every CPU: its row (CPUID.06H:EDX[31:16] is per logical CPU),
 *      its thermal LVT programmed masked with our vector and fixed
 *      delivery (unless firmware owns it), IA32_PACKAGE_THERM_INTERRUPT
 *      bit 25 set (read-modify-write);
 *   3. one zeroed, page-aligned table per package, never freed;
 *   4. each CPU linked to its package's table, then its LVT unmasked;
 *   5. on one CPU of each package: a stale status bit 26 acknowledged,
 *      IA32_HW_FEEDBACK_PTR = table | valid, then IA32_HW_FEEDBACK_CONFIG
 *      enable (and Thread Director when enumerated with several classes).
 *
 * Hardware facts: Intel SDM vol. 2A (CPUID 06H), vol. 3B ("Hardware
 * Feedback Interface and Intel Thread Director"; the package thermal
 * MSRs), vol. 3A (the LVT's delivery modes and mask bit).
 */
#include <kern/printk.h>
#include <lib/string.h>
#include <sched/hmp.h>
#include <dev/hfi/hfi.h>
#include <dev/hfi/hfi_plat.h>

/* Step 2 on the calling CPU (interrupts off). */
static void hfi_prepare_cpu(void *arg)
{
	struct hfi_drv *d = arg;
	unsigned cpu = hfi_plat_cpu_self();
	struct hfi_cpu *c = &d->cpu[cpu];
	struct door_cpuid_regs r;
	door_cpuid(HFI_CPUID_LEAF, 0, &r);
	c->row = (int32_t)(r.edx >> 16);
	c->classes = (uint8_t)(r.ecx >> 8);
	if (!hfi_plat_lvt_present()) {
		c->lvt = HFI_LVT_ABSENT;
	} else {
		uint32_t v = hfi_plat_lvt_read();
		if ((v & HFI_LVT_DM_MASK) == HFI_LVT_DM_SMI &&
		    (door_rdmsr(MSR_IA32_MISC_ENABLE) & HFI_MISC_ENABLE_TM1)) {
			c->lvt = HFI_LVT_FIRMWARE;
		} else {
			hfi_plat_lvt_write(d->vector | HFI_LVT_DM_FIXED | HFI_LVT_MASKED);
			c->lvt = HFI_LVT_OURS;
		}
	}
	if (c->lvt != HFI_LVT_FIRMWARE) {
		uint64_t ie = door_rdmsr(MSR_IA32_PACKAGE_THERM_INTERRUPT);
		if (!(ie & HFI_THERM_INT_HFI))
			door_wrmsr(MSR_IA32_PACKAGE_THERM_INTERRUPT, ie | HFI_THERM_INT_HFI);
	}
	c->online = 1;
}

/* Step 4's second half on the calling CPU: its LVT delivers from now on. */
static void hfi_unmask_cpu(void *arg)
{
	struct hfi_drv *d = arg;
	hfi_plat_lvt_write(d->vector | HFI_LVT_DM_FIXED);
}

struct hfi_enable_arg {
	struct hfi_drv *d;
	struct hfi_pkg *p;
	uint64_t config_before, status_before;
};

/* Step 5 on a CPU of the package (the MSRs are package-scoped). */
static void hfi_enable_pkg(void *arg)
{
	struct hfi_enable_arg *a = arg;
	a->status_before = door_rdmsr(MSR_IA32_PACKAGE_THERM_STATUS);
	if (a->status_before & HFI_STATUS_CHANGED)
		door_wrmsr(MSR_IA32_PACKAGE_THERM_STATUS, hfi_ack_value(&a->d->feat));
	door_wrmsr(MSR_IA32_HW_FEEDBACK_PTR, a->p->table_phys | HFI_PTR_VALID);
	a->config_before = door_rdmsr(MSR_IA32_HW_FEEDBACK_CONFIG);
	uint64_t cfg = a->config_before | HFI_CONFIG_ENABLE;
	if (a->d->itd_on)
		cfg |= HFI_CONFIG_ITD;
	door_wrmsr(MSR_IA32_HW_FEEDBACK_CONFIG, cfg);
	a->p->enabled = 1;
}

/* Step 1: d->feat and d->lay, or -1 with d->why. */
static int hfi_detect(struct hfi_drv *d)
{
	struct door_cpuid_regs r0, r6;
	memset(&r6, 0, sizeof(r6));
	door_cpuid(0, 0, &r0);
	if (r0.eax >= HFI_CPUID_LEAF)
		door_cpuid(HFI_CPUID_LEAF, 0, &r6);
	if (hfi_features_decode(r0.eax, &r6, &d->feat, d->why, sizeof(d->why)))
		return -1;
	if (d->feat.caps & ~(HFI_CAP_PERF | HFI_CAP_EE))
		hfi_plat_log("reserved capability bits 0x%x in CPUID.06H:EDX[7:0] ignored",
			     d->feat.caps & ~(HFI_CAP_PERF | HFI_CAP_EE));
	d->itd_on = d->feat.itd && d->feat.classes > 1;
	hfi_layout_init(&d->lay, &d->feat, d->itd_on);
	return 0;
}

/* The package index of package id, a new one if there is room; -1 when
 * HFI_MAX_PKGS are taken. */
static int hfi_pkg_index(struct hfi_drv *d, uint32_t package, unsigned cpu)
{
	for (int i = 0; i < d->npkg; i++)
		if (d->pkg[i].package == package)
			return i;
	if (d->npkg == HFI_MAX_PKGS)
		return -1;
	struct hfi_pkg *p = &d->pkg[d->npkg];
	p->package = package;
	p->first_cpu = (int)cpu;
	return d->npkg++;
}

/* Step 2 and the checks of each CPU's row and class count; groups the
 * CPUs by package. */
static void hfi_prepare_all(struct hfi_drv *d, unsigned ncpu, const struct hfi_cpu_info *info)
{
	for (unsigned i = 0; i < ncpu; i++) {
		struct hfi_cpu *c = &d->cpu[i];
		c->pkg = -1;
		c->row = -1;
		if (!info[i].online)
			continue;
		if (hfi_plat_run_on(i, hfi_prepare_cpu, d) || !c->online) {
			hfi_plat_log("cpu %u did not answer: no HFI scores for it", i);
			continue;
		}
		if (c->lvt == HFI_LVT_FIRMWARE)
			hfi_plat_log("cpu %u: firmware owns the thermal interrupt (LVT in SMI mode, "
				     "IA32_MISC_ENABLE.TM1 set): left alone", i);
		else if (c->lvt == HFI_LVT_ABSENT)
			hfi_plat_log("cpu %u: its local APIC has no thermal LVT", i);
		if (c->classes != d->feat.classes && !d->logged_classes) {
			hfi_plat_log("cpu %u enumerates %u classes, the boot CPU %u: keeping %u", i,
				     c->classes, d->feat.classes, d->feat.classes);
			d->logged_classes = 1;
		}
		if ((uint32_t)c->row >= d->lay.rows_fit) {
			hfi_plat_log("cpu %u: row %d does not fit the table (%u rows fit in %u bytes): "
				     "its scores are ignored", i, (int)c->row, d->lay.rows_fit,
				     d->lay.size);
		} else {
			c->row_ok = 1;
			if ((unsigned)c->row + 1 > d->rows_used)
				d->rows_used = (unsigned)c->row + 1;
		}
		int k = hfi_pkg_index(d, info[i].package, i);
		if (k < 0) {
			hfi_plat_log("cpu %u: package %u is beyond the %d packages the driver handles",
				     i, info[i].package, HFI_MAX_PKGS);
			continue;
		}
		c->pkg = (int16_t)k;
		d->pkg[k].ncpus++;
		if (c->lvt == HFI_LVT_OURS)
			d->pkg[k].irq_cpus++;
	}
}

/* Steps 3 to 5 for package k. */
static void hfi_start_pkg(struct hfi_drv *d, int k, unsigned ncpu)
{
	struct hfi_pkg *p = &d->pkg[k];
	if (!p->irq_cpus) {
		hfi_plat_log("package %u: no CPU takes the thermal interrupt; HFI left off there",
			     p->package);
		return;
	}
	p->table = hfi_plat_table_alloc(d->feat.pages, &p->table_phys);
	p->copy = p->table ? hfi_plat_zalloc(d->lay.size) : NULL;
	if (!p->copy) {
		hfi_plat_log("package %u: out of memory for a %u-byte table; HFI left off there",
			     p->package, d->lay.size);
		return;
	}
	int irq_cpu = -1;
	for (unsigned i = 0; i < ncpu; i++)
		if (d->cpu[i].pkg == k)
			__atomic_store_n(&d->cpu[i].linked, 1, __ATOMIC_RELEASE);
	for (unsigned i = 0; i < ncpu; i++) {
		if (d->cpu[i].pkg != k || d->cpu[i].lvt != HFI_LVT_OURS)
			continue;
		if (hfi_plat_run_on(i, hfi_unmask_cpu, d) == 0 && irq_cpu < 0)
			irq_cpu = (int)i;
	}
	struct hfi_enable_arg a = { .d = d, .p = p };
	if (irq_cpu < 0 || hfi_plat_run_on((unsigned)irq_cpu, hfi_enable_pkg, &a) || !p->enabled) {
		hfi_plat_log("package %u: could not program the table; HFI left off there",
			     p->package);
		p->enabled = 0;
		return;
	}
	if (a.status_before & HFI_STATUS_CHANGED)
		hfi_plat_log("package %u: status bit 26 was already set; acknowledged before enabling",
			     p->package);
	if (a.config_before & HFI_CONFIG_ENABLE)
		hfi_plat_log("package %u: IA32_HW_FEEDBACK_CONFIG was already enabled (0x%lx); "
			     "reprogrammed", p->package, (unsigned long)a.config_before);
	d->on = 1;
}

/* See hfi.h. */
int hfi_start(struct hfi_drv *d, unsigned ncpu, const struct hfi_cpu_info *info)
{
	uint8_t vector = d->vector;
	memset(d, 0, sizeof(*d));
	d->vector = vector;
	d->ncpu = ncpu > HFI_MAX_CPUS ? HFI_MAX_CPUS : ncpu;
	if (hfi_detect(d)) {
		hmp_set_status(HMP_PROV_HFI, 0, d->why);
		return -1;
	}
	hfi_prepare_all(d, d->ncpu, info);
	for (int k = 0; k < d->npkg; k++)
		hfi_start_pkg(d, k, d->ncpu);
	if (!d->on) {
		ksnprintf(d->why, sizeof(d->why), "off: no package could be enabled");
		hmp_set_status(HMP_PROV_HFI, 0, d->why);
		return -1;
	}
	ksnprintf(d->why, sizeof(d->why), "table of %u row%s, %u class%s; no update yet",
		  d->rows_used, d->rows_used == 1 ? "" : "s", d->lay.ncls, d->lay.ncls == 1 ? "" : "es");
	hmp_set_status(HMP_PROV_HFI, 1, d->why);
	return 0;
}
