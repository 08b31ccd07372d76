/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * itd.c — the Thread Director driver (itd.h; docs/hfi.md).
 *
 * From the Intel SDM: CPUID.06H:EAX[23] (Thread Director) and ECX[15:8]
 * (classes), CPUID.07H.01H:EAX[22] (HRESET) and leaf 0x20 EBX[0] (HRESET
 * can reset the Thread Director history) — vol. 2A, CPUID; the per-CPU
 * MSRs IA32_HW_FEEDBACK_THREAD_CONFIG (0x17D4, bit 0 enable),
 * IA32_THREAD_FEEDBACK_CHAR (0x17D2, bits 7:0 class, bit 63 valid) and
 * IA32_HRESET_ENABLE (0x17DA, bit 0) — vol. 3B, "Intel Thread Director";
 * HRESET — vol. 2B. The SDM's advice is to read the class when a thread
 * leaves a CPU and to reset the history before the next one runs, so
 * each read describes one thread: that is the order kept here.
 */
#include <kern/printk.h>
#include <arch/x86_64/smp/smp.h>
#include <lib/string.h>
#include <arch/x86_64/cpu/door.h>
#include <dev/hfi/hfi.h>
#include <dev/hfi/hfi_kernel.h>
#include <dev/hfi/itd.h>

#define CPUID_07_1_EAX_HRESET (1u << 22)
#define ITD_CHAR_VALID        (1ull << 63)
#define ITD_CHAR_CLASS        0xFFull

static struct itd_info itd;

/* 1 when HRESET can reset the Thread Director history: the leaves are
 * within CPUID's maximum, 07H.01H:EAX[22], 0x20.0:EBX[0]. Boot CPU. */
static int itd_hreset_supported(void)
{
	struct door_cpuid_regs r0, r7, r;
	door_cpuid(0, 0, &r0);
	if (r0.eax < 7)
		return 0;
	door_cpuid(7, 0, &r7);
	if (r7.eax < 1)
		return 0;
	door_cpuid(7, 1, &r);
	if (!(r.eax & CPUID_07_1_EAX_HRESET) || r0.eax < 0x20)
		return 0;
	door_cpuid(0x20, 0, &r);
	return (r.ebx & HRESET_ITD_HISTORY) != 0;
}

/* On each CPU (smp_call_on, interrupts off): the MSRs, in the SDM's
 * order — HRESET's enable first, then the classification. */
static void itd_enable_cpu(void *arg)
{
	(void)arg;
	if (itd.hreset)
		door_wrmsr(MSR_IA32_HRESET_ENABLE, HRESET_ITD_HISTORY);
	door_wrmsr(MSR_IA32_HW_FEEDBACK_THREAD_CONFIG, 1);
	if (itd.hreset)
		door_hreset(HRESET_ITD_HISTORY);
	__atomic_fetch_add(&itd.cpus, 1, __ATOMIC_RELAXED);
}

/* See itd.h. */
void itd_init(void)
{
	const struct hfi_drv *d = hfi_driver();
	if (!d->on) {
		ksnprintf(itd.why, sizeof(itd.why), "not present: the HFI is off (%s)", d->why);
	} else if (!d->feat.itd) {
		ksnprintf(itd.why, sizeof(itd.why), "not present: CPUID.06H:EAX[23] clear");
	} else if (!d->itd_on) {
		ksnprintf(itd.why, sizeof(itd.why),
			  "not present: CPUID.06H:ECX[15:8] enumerates %u class%s", d->feat.classes,
			  d->feat.classes == 1 ? "" : "es");
	} else {
		itd.classes = d->lay.ncls;
		itd.hreset = itd_hreset_supported();
		for (unsigned c = 0; c < smp_cpu_count(); c++)
			if (smp_cpu_online(c) && smp_call_on(c, itd_enable_cpu, NULL))
				printk("itd: cpu %u did not answer: not enabled there\n", c);
		ksnprintf(itd.why, sizeof(itd.why), "on: %u classes, %u CPUs, %s%s", itd.classes,
			  itd.cpus, itd.hreset ? "HRESET at each switch" : "no HRESET (reads mix threads)",
			  door_emulated() ? ", emulated" : "");
		__atomic_store_n(&itd.on, 1, __ATOMIC_RELEASE);
	}
	printk("itd: %s\n", itd.why);
}

/* See itd.h. */
int itd_read(unsigned *cls)
{
	uint64_t v;
	if (!__atomic_load_n(&itd.on, __ATOMIC_ACQUIRE))
		return -1;
	if (door_rdmsr_safe(MSR_IA32_THREAD_FEEDBACK_CHAR, &v)) {
		__atomic_fetch_add(&itd.faults, 1, __ATOMIC_RELAXED);
		__atomic_store_n(&itd.on, 0, __ATOMIC_RELEASE);
		return -1;
	}
	if (!(v & ITD_CHAR_VALID)) {
		__atomic_fetch_add(&itd.invalid, 1, __ATOMIC_RELAXED);
		return 0;
	}
	*cls = (unsigned)(v & ITD_CHAR_CLASS);
	if (*cls >= itd.classes || *cls >= ITD_DRV_CLASSES) {
		__atomic_fetch_add(&itd.beyond, 1, __ATOMIC_RELAXED);
		return 0;
	}
	__atomic_fetch_add(&itd.valid[*cls], 1, __ATOMIC_RELAXED);
	return 1;
}

/* See itd.h. */
void itd_hreset(void)
{
	if (!itd.hreset || !__atomic_load_n(&itd.on, __ATOMIC_ACQUIRE))
		return;
	door_hreset(HRESET_ITD_HISTORY);
	__atomic_fetch_add(&itd.hresets, 1, __ATOMIC_RELAXED);
}

/* See itd.h. */
void itd_get_info(struct itd_info *out)
{
	memcpy(out, &itd, sizeof(*out));
	out->on = __atomic_load_n(&itd.on, __ATOMIC_ACQUIRE);
	if (itd.faults && !out->on)
		ksnprintf(out->why, sizeof(out->why),
			  "off: a read of IA32_THREAD_FEEDBACK_CHAR faulted (%lu times)",
			  (unsigned long)itd.faults);
}
