/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * emul_itd.c — the emulated Thread Director (emul_itd.h, docs/hfi.md).
 *
 * What it models, from the Intel SDM: CPUID.07H.01H:EAX[22] (HRESET
 * supported) and leaf 0x20 (HRESET's components: EBX[0], the Thread
 * Director history) — vol. 2A, CPUID; IA32_HW_FEEDBACK_THREAD_CONFIG
 * (0x17D4, bit 0 enables the classification of this logical CPU), IA32_
 * THREAD_FEEDBACK_CHAR (0x17D2, read-only: bits 7:0 the class, bit 63
 * valid), IA32_HRESET_ENABLE (0x17DA, bit 0 lets HRESET reset the Thread
 * Director history) — vol. 3B, "Intel Thread Director" in the power and
 * thermal management chapter, and vol. 4's MSR tables; HRESET (vol. 2B:
 * resets the history of the components in EAX that IA32_HRESET_ENABLE
 * enables). Classification needs the package's IA32_HW_FEEDBACK_CONFIG
 * bits 0 and 1 too (the HFI device's).
 *
 * Modelled: the class is the class of the code the CPU executes (its
 * running thread's work clock class, 0 while idle), valid once the CPU
 * has executed that class for EMUL_ITD_SETTLE_NS without a change of
 * class or an HRESET; a class the table does not enumerate (at or above
 * hfi-classes) is reported as class 0. A switch between two threads of
 * one class is no change: the history is the CPU's, not the thread's,
 * which is why software issues HRESET at a context switch. HRESET is a
 * door call (door_hreset()): QEMU's TCG does not implement the
 * instruction. Accesses that raise #GP on hardware (a reserved bit, a
 * write to 0x17D2) are counted and ignored; a faulting read reads 0.
 */
#include <arch/x86_64/cpu/cpu.h>
#include <arch/x86_64/cpu/door.h>
#include <emul/machine_desc/machine.h>
#include <kern/printk.h>
#include <arch/x86_64/smp/smp.h>
#include <emul/emul_workclock.h>
#include <emul/emul_hfi.h>
#include <emul/emul_itd.h>
#include <emul/machine_platform.h>

#define THREAD_CONFIG_ENABLE 1ull
#define HRESET_ENABLE_ITD    1ull
#define CHAR_VALID           (1ull << 63)
#define CPUID_07_1_HRESET    (1u << 22)
#define CPUID_LEAF_HRESET    0x20u
#define FAULTS_LOGGED        4

static int itd_active;
static unsigned itd_classes;
static uint64_t itd_thread_config[MAXCPU], itd_hreset_enable[MAXCPU];
static uint64_t itd_valid[ITD_CLASS_MAX], itd_invalid, itd_hresets, itd_hresets_ignored,
	itd_faults;

/* See emul_itd.h. */
int emul_itd_active(void)
{
	return __atomic_load_n(&itd_active, __ATOMIC_ACQUIRE);
}

/* An access that faults on hardware: counted, the first few logged. */
static void itd_fault(uint32_t msr, uint64_t v, const char *why)
{
	if (__atomic_fetch_add(&itd_faults, 1, __ATOMIC_RELAXED) < FAULTS_LOGGED)
		printk("emul-itd: cpu %u: MSR 0x%x (0x%lx) %s (#GP on hardware); ignored\n",
		       cpu_current(), msr, (unsigned long)v, why);
}

/* Whether msr is one of the device's. */
static int itd_is_ours(uint32_t msr)
{
	return msr == MSR_IA32_THREAD_FEEDBACK_CHAR || msr == MSR_IA32_HW_FEEDBACK_THREAD_CONFIG ||
	       msr == MSR_IA32_HRESET_ENABLE;
}

/* IA32_THREAD_FEEDBACK_CHAR of the calling CPU now. Interrupts off. */
static uint64_t itd_char(unsigned cpu)
{
	unsigned cls;
	uint64_t ran;
	if (!(itd_thread_config[cpu] & THREAD_CONFIG_ENABLE) || !emul_hfi_itd_enabled() ||
	    emul_workclock_itd_state(&cls, &ran) || ran < EMUL_ITD_SETTLE_NS) {
		__atomic_fetch_add(&itd_invalid, 1, __ATOMIC_RELAXED);
		return 0;
	}
	if (cls >= itd_classes)
		cls = 0;
	__atomic_fetch_add(&itd_valid[cls], 1, __ATOMIC_RELAXED);
	return cls | CHAR_VALID;
}

/* See emul_itd.h. */
int emul_itd_door_rdmsr(uint32_t msr, uint64_t *v)
{
	if (!emul_itd_active() || !itd_is_ours(msr))
		return 0;
	uint64_t flags = cpu_save_flags_cli();
	unsigned cpu = cpu_current();
	if (msr == MSR_IA32_THREAD_FEEDBACK_CHAR)
		*v = itd_char(cpu);
	else if (msr == MSR_IA32_HW_FEEDBACK_THREAD_CONFIG)
		*v = itd_thread_config[cpu];
	else
		*v = itd_hreset_enable[cpu];
	cpu_restore_flags(flags);
	return 1;
}

/* See emul_itd.h. */
int emul_itd_door_wrmsr(uint32_t msr, uint64_t v)
{
	if (!emul_itd_active() || !itd_is_ours(msr))
		return 0;
	uint64_t flags = cpu_save_flags_cli();
	unsigned cpu = cpu_current();
	if (msr == MSR_IA32_THREAD_FEEDBACK_CHAR)
		itd_fault(msr, v, "written: it is read-only");
	else if (v & ~1ull)
		itd_fault(msr, v, "written with reserved bits set");
	else if (msr == MSR_IA32_HW_FEEDBACK_THREAD_CONFIG)
		itd_thread_config[cpu] = v;
	else
		itd_hreset_enable[cpu] = v;
	cpu_restore_flags(flags);
	return 1;
}

/* See emul_itd.h: leaf 0's maximum at least 0x20 and leaf 07H's maximum
 * sub-leaf at least 1, so the bits below are reachable; 07H.01H:EAX[22];
 * leaf 0x20 sub-leaf 0 (EAX: no further sub-leaves, EBX[0]). */
int emul_itd_door_cpuid(uint32_t leaf, uint32_t subleaf, struct door_cpuid_regs *r)
{
	if (!emul_itd_active())
		return 0;
	if (leaf == 0) {
		if (r->eax < CPUID_LEAF_HRESET)
			r->eax = CPUID_LEAF_HRESET;
	} else if (leaf == 7 && subleaf == 0) {
		if (r->eax < 1)
			r->eax = 1;
	} else if (leaf == 7 && subleaf == 1) {
		r->eax |= CPUID_07_1_HRESET;
	} else if (leaf == CPUID_LEAF_HRESET) {
		r->eax = 0;
		r->ebx = subleaf == 0 ? HRESET_ITD_HISTORY : 0;
		r->ecx = 0;
		r->edx = 0;
	} else {
		return 0;
	}
	return 1;
}

/* See emul_itd.h. */
int emul_itd_door_hreset(uint32_t eax)
{
	if (!emul_itd_active())
		return 0;
	uint64_t flags = cpu_save_flags_cli();
	if (itd_hreset_enable[cpu_current()] & eax & HRESET_ITD_HISTORY) {
		emul_workclock_itd_reset();
		__atomic_fetch_add(&itd_hresets, 1, __ATOMIC_RELAXED);
	} else {
		__atomic_fetch_add(&itd_hresets_ignored, 1, __ATOMIC_RELAXED);
	}
	cpu_restore_flags(flags);
	return 1;
}

/* See emul_itd.h. */
void emul_itd_init(void)
{
	const struct machine *m = machine_platform_machine();
	unsigned cls;
	uint64_t ran;
	if (!m || !emul_hfi_active() || !(m->hfi_features & MACHINE_HFI_F_ITD))
		return;
	uint64_t flags = cpu_save_flags_cli();
	int clock = emul_workclock_itd_state(&cls, &ran);
	cpu_restore_flags(flags);
	if (clock) {
		printk("emul-itd: no work clock (sched=off?): Thread Director not presented\n");
		return;
	}
	itd_classes = m->hfi_classes;
	__atomic_store_n(&itd_active, 1, __ATOMIC_RELEASE);
	printk("emul-itd: Thread Director on: %u class%s, HRESET (CPUID.07H.01H:EAX[22], leaf 0x20), "
	       "a class is valid after %lu us in it\n", itd_classes, itd_classes == 1 ? "" : "es",
	       (unsigned long)(EMUL_ITD_SETTLE_NS / 1000));
}

/* See emul_itd.h. */
void emul_itd_get_info(struct emul_itd_info *out)
{
	out->active = emul_itd_active();
	out->classes = itd_classes;
	for (unsigned c = 0; c < ITD_CLASS_MAX; c++)
		out->valid[c] = __atomic_load_n(&itd_valid[c], __ATOMIC_RELAXED);
	out->invalid = __atomic_load_n(&itd_invalid, __ATOMIC_RELAXED);
	out->hresets = __atomic_load_n(&itd_hresets, __ATOMIC_RELAXED);
	out->hresets_ignored = __atomic_load_n(&itd_hresets_ignored, __ATOMIC_RELAXED);
	out->faults = __atomic_load_n(&itd_faults, __ATOMIC_RELAXED);
	out->cpus_enabled = 0;
	for (unsigned c = 0; c < MAXCPU; c++)
		out->cpus_enabled += (itd_thread_config[c] & THREAD_CONFIG_ENABLE) != 0;
}
