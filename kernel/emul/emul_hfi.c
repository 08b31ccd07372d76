/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * emul_hfi.c — the emulated HFI device (emul_hfi.h, docs/hfi.md): the
 * door's answers for CPUID leaf 06H and the HFI MSRs, the table writes
 * and the thermal interrupts.
 *
 * What it models, from the Intel SDM: CPUID.06H EAX[6] (package thermal
 * management), EAX[19] (HFI), EAX[23] (Thread Director), ECX[15:8]
 * (classes), EDX[7:0] (capabilities: perf and ee), EDX[11:8] (pages - 1),
 * EDX[31:16] (the calling CPU's row) — vol. 2A, CPUID leaf 06H.
 * IA32_HW_FEEDBACK_PTR (bit 0 valid, bits 11:1 reserved, the rest the
 * table's page), IA32_HW_FEEDBACK_CONFIG (bit 0 HFI, bit 1 Thread
 * Director, the rest reserved), IA32_PACKAGE_THERM_STATUS (bit 26 "table
 * changed" and the log bits, R/WC0), IA32_PACKAGE_THERM_INTERRUPT (bit 25
 * HFI interrupt) — vol. 3B, "Hardware Feedback Interface and Intel Thread
 * Director" and the thermal MSRs. The table layout (timestamp, header of
 * change flags, rows; class 0 only with Thread Director off) and the
 * protocol (set bit 26 after a write, interrupt if enabled, no new write
 * until software clears it; enabling or disabling also sets bit 26) are
 * the same chapter's. A write that would fault on hardware (a 1 in a
 * reserved bit) is counted and ignored here.
 */
#include <arch/x86_64/cpu/cpu.h>
#include <arch/x86_64/cpu/door.h>
#include <arch/x86_64/intr/ipi.h>
#include <arch/x86_64/intr/lapic.h>
#include <mm/mm.h>
#include <kern/printk.h>
#include <lib/string.h>
#include <lib/sysctl.h>
#include <arch/x86_64/clock/time.h>
#include <arch/x86_64/trap/trap.h>
#include <emul/emul_hfi_dev.h>
#include <emul/machine_platform.h>

#define STATUS_CHANGED   (1ull << 26)
#define STATUS_PTS_LOGS  0xAAAull        /* log bits 1, 3, 5, 7, 9, 11 */
#define INTR_PTS_BITS    0x01FFFF17ull   /* bits 0-2, 4, 8-24 */
#define INTR_HFI         (1ull << 25)
#define PTR_VALID        1ull
#define PTR_RESERVED     0xFFEull         /* bits 11:1 */
#define PTR_ADDR_LIMIT   (1ull << 52)
#define CONFIG_ENABLE    1ull
#define CONFIG_ITD       2ull
#define FAULTS_LOGGED    4

struct emul_hfi_dev emul_hfi = { .lock = SPINLOCK_INIT("emul hfi") };
int64_t emul_hfi_running = 1;

SYSCTL_INT(kern_emul_hfi, "kern.emul.hfi", &emul_hfi_running, 1, 0, 1,
	   "emulated HFI device (docs/hfi.md): 1 runs, 0 freezes it (no table writes, no "
	   "interrupts; events wait, injections are refused)");

/* See emul_hfi.h. */
int emul_hfi_active(void)
{
	return __atomic_load_n(&emul_hfi.active, __ATOMIC_ACQUIRE);
}

/* See emul_hfi_dev.h. */
uint64_t emul_hfi_lock(void)
{
	return spin_lock_irqsave(&emul_hfi.lock);
}

/* See emul_hfi_dev.h. */
void emul_hfi_unlock(uint64_t flags, const struct emul_hfi_changed *ch)
{
	spin_unlock_irqrestore(&emul_hfi.lock, flags);
	for (unsigned r = 0; ch && r < MACHINE_MAX_ROWS; r++)
		if (ch->rows[r / 64] & (1ull << (r % 64)))
			emul_hfi_row_changed((int)r);
}

/* A write that faults on hardware: counted, the first few logged. */
static void emul_hfi_fault(uint32_t msr, uint64_t v, const char *why)
{
	if (emul_hfi.faults++ < FAULTS_LOGGED)
		printk("emul-hfi: cpu %u: WRMSR 0x%x <- 0x%lx %s (#GP on hardware); ignored\n",
		       cpu_current(), msr, (unsigned long)v, why);
}

/* The calling CPU's package, or NULL. */
static struct emul_hfi_pkg *emul_hfi_self(void)
{
	unsigned cpu = cpu_current();
	int k = cpu < MAXCPU ? emul_hfi.cpu_pkg[cpu] : -1;
	return k >= 0 ? &emul_hfi.pkg[k] : NULL;
}

/* VEC_IPI_EMUL_THERM on each CPU of a package that got a table write: its
 * own thermal LVT decides, as the hardware's would, whether the thermal
 * interrupt is delivered and on which vector. Interrupts off. */
static void emul_hfi_raise_irq(struct trap_frame *tf)
{
	(void)tf;
	uint32_t v = lapic_thermal_lvt_read();
	if (!(v & LAPIC_LVT_MASKED) && (v & LAPIC_LVT_DM_MASK) == LAPIC_LVT_DM_FIXED &&
	    (v & 0xFF) >= 0x20) {
		__atomic_fetch_add(&emul_hfi.raised, 1, __ATOMIC_RELAXED);
		ipi_send(cpu_current(), (uint8_t)v);
	} else {
		__atomic_fetch_add(&emul_hfi.masked, 1, __ATOMIC_RELAXED);
	}
}

/* Status bit 26 is set on p: its CPUs' thermal LVTs fire, if the package
 * interrupt is enabled. Lock held. */
static void emul_hfi_raise(const struct emul_hfi_pkg *p)
{
	if (!(p->intr & INTR_HFI))
		return;
	int k = (int)(p - emul_hfi.pkg);
	for (unsigned cpu = 0; cpu < smp_cpu_count(); cpu++)
		if (emul_hfi.cpu_pkg[cpu] == k && smp_cpu_online(cpu))
			ipi_send(cpu, VEC_IPI_EMUL_THERM);
}

/* The table p's PTR names, when every page of it is mapped memory. */
static uint8_t *emul_hfi_table(const struct emul_hfi_pkg *p)
{
	uint64_t phys = p->ptr & ~0xFFFull;
	for (unsigned i = 0; i < emul_hfi.pages; i++)
		if (!vmm_translate((uint64_t)phys_to_virt(phys + i * PAGE_SIZE)))
			return NULL;
	return phys_to_virt(phys);
}

/* Write p's table from the current values, set bit 26, raise the
 * interrupt; rows whose values changed go into ch. Lock held, p enabled,
 * bit 26 clear, device running. */
static void emul_hfi_write_locked(struct emul_hfi_pkg *p, struct emul_hfi_changed *ch)
{
	struct emul_hfi_dev *e = &emul_hfi;
	uint8_t *t = emul_hfi_table(p);
	if (!t) {
		emul_hfi_fault(MSR_IA32_HW_FEEDBACK_PTR, p->ptr, "names memory that is not mapped");
		p->pending = 0;
		return;
	}
	unsigned ncls = (p->config & CONFIG_ITD) && e->classes > 1 ? e->classes : 1;
	size_t stride = (2 * ncls + 7) / 8 * 8;
	uint8_t *hdr = t + 8;
	memset(hdr, 0, stride);
	for (unsigned r = 0; r < e->rows; r++) {
		uint8_t *row = t + 8 + stride + r * stride;
		memset(row, 0, stride);
		for (unsigned c = 0; c < ncls; c++) {
			struct machine_hfi_value v = e->cur[r][c];
			struct machine_hfi_value *last = &p->last[r * e->classes + c];
			hdr[2 * c] |= p->full || v.perf != last->perf;
			hdr[2 * c + 1] |= p->full || v.ee != last->ee;
			row[2 * c] = v.perf;
			row[2 * c + 1] = v.ee;
			*last = v;
			if (!e->was_written[r] || v.perf != e->written[r][c].perf ||
			    v.ee != e->written[r][c].ee)
				ch->rows[r / 64] |= 1ull << (r % 64);
			e->written[r][c] = v;
		}
		e->was_written[r] = 1;
	}
	uint64_t now = time_ns();
	p->ts = now > p->ts ? now : p->ts + 1;
	__atomic_store_n((uint64_t *)t, p->ts, __ATOMIC_RELEASE);
	p->status |= STATUS_CHANGED;
	p->writes++;
	p->full = 0;
	p->pending = 0;
	emul_hfi_raise(p);
}

/* PTR valid and CONFIG's HFI bit set. */
static int emul_hfi_enabled(const struct emul_hfi_pkg *p)
{
	return (p->config & CONFIG_ENABLE) && (p->ptr & PTR_VALID);
}

/* See emul_hfi_dev.h. */
void emul_hfi_change_locked(struct emul_hfi_changed *ch)
{
	emul_hfi.changes++;
	for (int k = 0; k < emul_hfi.npkg; k++) {
		struct emul_hfi_pkg *p = &emul_hfi.pkg[k];
		if (!emul_hfi_enabled(p))
			continue;
		p->changes++;
		if (p->pending)
			p->coalesced++;
		else if ((p->status & STATUS_CHANGED) || !emul_hfi_running)
			p->pending = 1;
		else
			emul_hfi_write_locked(p, ch);
	}
	if (!emul_hfi_running)
		emul_hfi_arm_locked();
}

/* See emul_hfi_dev.h. */
void emul_hfi_flush_locked(struct emul_hfi_changed *ch)
{
	for (int k = 0; k < emul_hfi.npkg; k++) {
		struct emul_hfi_pkg *p = &emul_hfi.pkg[k];
		if (p->pending && emul_hfi_enabled(p) && !(p->status & STATUS_CHANGED))
			emul_hfi_write_locked(p, ch);
	}
}

/* IA32_HW_FEEDBACK_CONFIG: bit 0 toggling on writes the whole table
 * (every column flagged), toggling off sets bit 26 as the acknowledgement
 * of the disable; HFI off with Thread Director on is ignored. */
static void emul_hfi_config(struct emul_hfi_pkg *p, uint64_t v, struct emul_hfi_changed *ch)
{
	uint64_t valid = CONFIG_ENABLE | ((emul_hfi.features & MACHINE_HFI_F_ITD) ? CONFIG_ITD : 0);
	if (v & ~valid) {
		emul_hfi_fault(MSR_IA32_HW_FEEDBACK_CONFIG, v, "sets reserved bits");
		return;
	}
	int was = emul_hfi_enabled(p);
	p->config = v;
	int now = emul_hfi_enabled(p);
	if (!was && now) {
		p->enables++;
		p->full = 1;
		p->pending = 1;
		if (!(p->status & STATUS_CHANGED) && emul_hfi_running)
			emul_hfi_write_locked(p, ch);
		else
			emul_hfi_arm_locked();
	} else if (was && !now) {
		p->disables++;
		p->coalesced += p->pending != 0;   /* a change never written is dropped */
		p->pending = 0;
		p->status |= STATUS_CHANGED;
		if (emul_hfi_running)
			emul_hfi_raise(p);
	}
}

/* IA32_PACKAGE_THERM_STATUS: R/WC0 log bits (0 clears, 1 keeps); a 1
 * anywhere else faults. Clearing bit 26 lets a pending change be written. */
static void emul_hfi_status(struct emul_hfi_pkg *p, uint64_t v, struct emul_hfi_changed *ch)
{
	uint64_t logs = ((emul_hfi.features & MACHINE_HFI_F_PTS) ? STATUS_PTS_LOGS : 0) |
			((emul_hfi.features & MACHINE_HFI_F_HFI) ? STATUS_CHANGED : 0);
	if (v & ~logs) {
		emul_hfi_fault(MSR_IA32_PACKAGE_THERM_STATUS, v,
			       "writes 1 to bits the package does not implement");
		return;
	}
	int was = (p->status & STATUS_CHANGED) != 0;
	p->status &= v | ~logs;
	if (was && !(p->status & STATUS_CHANGED)) {
		p->acks++;
		if (emul_hfi_running)
			emul_hfi_flush_locked(ch);
		else if (p->pending)
			emul_hfi_arm_locked();
	}
}

/* Whether msr is one of the device's on this package ("exists": the
 * CPUID bits it presents say so). */
static int emul_hfi_msr_exists(uint32_t msr)
{
	unsigned f = emul_hfi.features;
	switch (msr) {
	case MSR_IA32_HW_FEEDBACK_PTR:
	case MSR_IA32_HW_FEEDBACK_CONFIG:
		return (f & MACHINE_HFI_F_HFI) != 0;
	case MSR_IA32_PACKAGE_THERM_STATUS:
	case MSR_IA32_PACKAGE_THERM_INTERRUPT:
		return (f & (MACHINE_HFI_F_HFI | MACHINE_HFI_F_PTS)) != 0;
	default:
		return 0;
	}
}

/* Whether the door should hand msr to the device at all. */
static int emul_hfi_is_ours(uint32_t msr)
{
	return msr == MSR_IA32_HW_FEEDBACK_PTR || msr == MSR_IA32_HW_FEEDBACK_CONFIG ||
	       msr == MSR_IA32_PACKAGE_THERM_STATUS || msr == MSR_IA32_PACKAGE_THERM_INTERRUPT;
}

/* See emul_hfi.h. An MSR the presented CPUID does not announce reads 0 and is
 * counted as a fault (hardware would raise #GP). */
int emul_hfi_door_rdmsr(uint32_t msr, uint64_t *v)
{
	int rc = 1;
	if (!emul_hfi_active() || !emul_hfi_is_ours(msr))
		return 0;
	uint64_t flags = emul_hfi_lock();
	struct emul_hfi_pkg *p = emul_hfi_self();
	*v = 0;
	if (!p || !emul_hfi_msr_exists(msr)) {
		emul_hfi_fault(msr, 0, "(a read) of an MSR the presented CPUID does not announce");
		rc = -1;
	} else if (msr == MSR_IA32_HW_FEEDBACK_PTR)
		*v = p->ptr;
	else if (msr == MSR_IA32_HW_FEEDBACK_CONFIG)
		*v = p->config;
	else if (msr == MSR_IA32_PACKAGE_THERM_STATUS)
		*v = p->status;
	else
		*v = p->intr;
	emul_hfi_unlock(flags, NULL);
	return rc;
}

/* See emul_hfi.h. */
int emul_hfi_door_wrmsr(uint32_t msr, uint64_t v)
{
	if (!emul_hfi_active() || !emul_hfi_is_ours(msr))
		return 0;
	struct emul_hfi_changed ch = { { 0 } };
	uint64_t flags = emul_hfi_lock();
	struct emul_hfi_pkg *p = emul_hfi_self();
	uint64_t intr_bits = ((emul_hfi.features & MACHINE_HFI_F_PTS) ? INTR_PTS_BITS : 0) |
			     ((emul_hfi.features & MACHINE_HFI_F_HFI) ? INTR_HFI : 0);
	if (!p || !emul_hfi_msr_exists(msr))
		emul_hfi_fault(msr, v, "to an MSR the presented CPUID does not announce");
	else if (msr == MSR_IA32_HW_FEEDBACK_PTR && ((v & PTR_RESERVED) || v >= PTR_ADDR_LIMIT))
		emul_hfi_fault(msr, v, "sets reserved bits");
	else if (msr == MSR_IA32_HW_FEEDBACK_PTR)
		p->ptr = v;
	else if (msr == MSR_IA32_HW_FEEDBACK_CONFIG)
		emul_hfi_config(p, v, &ch);
	else if (msr == MSR_IA32_PACKAGE_THERM_STATUS)
		emul_hfi_status(p, v, &ch);
	else if (v & ~intr_bits)
		emul_hfi_fault(msr, v, "sets bits the package does not implement");
	else
		p->intr = v;
	emul_hfi_unlock(flags, &ch);
	return 1;
}

/* See emul_hfi.h: leaf 06H's HFI fields as the description says, the calling
 * CPU's row from its `cpu` line (row=none reads 0xFFFF, a row no table
 * has). */
int emul_hfi_door_cpuid(uint32_t leaf, uint32_t subleaf, struct door_cpuid_regs *r)
{
	(void)subleaf;
	if (leaf != 6 || !emul_hfi_active() || emul_hfi.max_leaf < 6)
		return 0;
	unsigned f = emul_hfi.features, cpu = cpu_current();
	uint32_t row = 0xFFFF;
	if (cpu < emul_hfi.m->cpu_count && emul_hfi.m->cpu[cpu].hfi_row != MACHINE_NO_ROW)
		row = (uint32_t)emul_hfi.m->cpu[cpu].hfi_row;
	r->eax &= ~((1u << 6) | (1u << 19) | (1u << 23));
	r->eax |= ((f & MACHINE_HFI_F_PTS) ? 1u << 6 : 0) | ((f & MACHINE_HFI_F_HFI) ? 1u << 19 : 0) |
		  ((f & MACHINE_HFI_F_ITD) ? 1u << 23 : 0);
	r->ecx &= ~0xFF00u;
	r->edx = 0;
	if (f & MACHINE_HFI_F_HFI) {
		r->ecx |= emul_hfi.classes << 8;
		r->edx = 0x3u | ((emul_hfi.pages - 1) << 8) | (row << 16);
	}
	return 1;
}

/* The packages of the description, each CPU's index. 0, or -1 (logged). */
static int emul_hfi_packages(const struct machine *m)
{
	for (unsigned cpu = 0; cpu < MAXCPU; cpu++)
		emul_hfi.cpu_pkg[cpu] = -1;
	for (unsigned cpu = 0; cpu < m->cpu_count; cpu++) {
		int k = 0;
		while (k < emul_hfi.npkg && emul_hfi.pkg[k].package != m->cpu[cpu].package)
			k++;
		if (k == emul_hfi.npkg) {
			if (k == EMUL_HFI_MAX_PKGS) {
				printk("emul-hfi: more than %d packages: device off\n", EMUL_HFI_MAX_PKGS);
				return -1;
			}
			emul_hfi.pkg[k].package = m->cpu[cpu].package;
			emul_hfi.pkg[k].last = kcalloc((size_t)m->hfi_rows * m->hfi_classes,
						       sizeof(struct machine_hfi_value));
			if (!emul_hfi.pkg[k].last) {
				printk("emul-hfi: out of memory: device off\n");
				return -1;
			}
			emul_hfi.npkg++;
		}
		emul_hfi.cpu_pkg[cpu] = (int8_t)k;
	}
	return 0;
}

/* See emul_hfi.h. */
void emul_hfi_init(void)
{
	const struct machine *m = machine_platform_machine();
	uint32_t b, c, d;
	if (!m || m->hfi_rows == 0)
		return;
	cpuid(0, 0, &emul_hfi.max_leaf, &b, &c, &d);
	if (emul_hfi.max_leaf < 6) {
		printk("emul-hfi: CPUID max leaf 0x%x has no leaf 06H to present: device off\n",
		       emul_hfi.max_leaf);
		return;
	}
	emul_hfi.m = m;
	emul_hfi.rows = m->hfi_rows;
	emul_hfi.classes = m->hfi_classes;
	emul_hfi.features = m->hfi_features;
	emul_hfi.pages = m->hfi_pages;
	for (unsigned r = 0; r < m->hfi_rows; r++)
		memcpy(emul_hfi.cur[r], m->hfi[r].cls, sizeof(emul_hfi.cur[r]));
	if (emul_hfi_packages(m))
		return;
	timer_init(&emul_hfi.timer);
	trap_set_handler(VEC_IPI_EMUL_THERM, emul_hfi_raise_irq);
	char features[32];
	machine_hfi_features_text(m->hfi_features, features, sizeof(features));
	printk("emul-hfi: device on: %u rows, %u class%s, CPUID.06H features %s, %u page%s, "
	       "%u event%s\n", m->hfi_rows, m->hfi_classes, m->hfi_classes == 1 ? "" : "es",
	       features, m->hfi_pages, m->hfi_pages == 1 ? "" : "s", m->event_count,
	       m->event_count == 1 ? "" : "s");
	uint64_t flags = emul_hfi_lock();
	__atomic_store_n(&emul_hfi.active, 1, __ATOMIC_RELEASE);
	emul_hfi_arm_locked();
	emul_hfi_unlock(flags, NULL);
}

/* See emul_hfi.h. */
int emul_hfi_itd_enabled(void)
{
	if (!emul_hfi_active() || !(emul_hfi.features & MACHINE_HFI_F_ITD))
		return 0;
	uint64_t flags = emul_hfi_lock();
	struct emul_hfi_pkg *p = emul_hfi_self();
	int on = p && (p->config & (CONFIG_ENABLE | CONFIG_ITD)) == (CONFIG_ENABLE | CONFIG_ITD);
	emul_hfi_unlock(flags, NULL);
	return on;
}
