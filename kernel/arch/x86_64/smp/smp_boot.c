/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * smp_boot.c — starting one application processor.
 *
 * The start-up code (ap_trampoline.asm) is copied to a page below 1 MiB,
 * followed by a small page table of its own: the kernel's upper-half PML4
 * entries (shared, so the AP sees the kernel, its stack and the direct map)
 * plus a 2 MiB identity mapping of the first 2 MiB, which covers the
 * trampoline page while the AP turns paging on. Its PML4 lies below 4 GiB,
 * as the 32-bit MOV to CR3 in the trampoline requires. The AP leaves this
 * table for the kernel's own in smp_ap_entry(), so the lower half stays
 * unmapped in the kernel page tables.
 *
 * Start-up follows the INIT-SIPI-SIPI sequence of the Intel SDM (vol. 3,
 * 9.4.4.1): INIT, 10 ms, start-up IPI, 200 us, a second start-up IPI.
 * APs are started one at a time, so one trampoline page serves them all;
 * how long to wait and when to try again is smp.c's choice.
 */
#include <arch/x86_64/smp/smp_boot.h>
#include <arch/x86_64/smp/percpu.h>
#include <arch/x86_64/intr/lapic.h>
#include <arch/x86_64/trap/trap.h>
#include <arch/x86_64/acpi/acpi.h>
#include <arch/x86_64/cpu/cpu.h>
#include <arch/x86_64/cpu/cpu_enum.h>
#include <mm/mm.h>
#include <arch/x86_64/clock/time.h>
#include <kern/panic.h>
#include <lib/string.h>
#include <lib/cmdline.h>
#include <arch/x86_64/arch_hooks.h>

#define TRAMP_PAGES      4            /* code, PML4, PDPT, page directory */
#define TRAMP_BELOW      0x100000ull  /* a start-up IPI vector addresses the first 1 MiB */
#define PTE_P            0x1ull
#define PTE_W            0x2ull
#define PTE_PS           0x80ull
#define PML4_KERNEL_HALF 256

extern const char ap_trampoline_start[], ap_trampoline_end[];
extern const char ap_trampoline_cr3[], ap_trampoline_stack[], ap_trampoline_entry[],
	ap_trampoline_arg[];

static uint64_t tramp_phys;   /* first of the TRAMP_PAGES low pages, 0 if none */

/* The 64-bit parameter at label sym of the trampoline's copy. */
static volatile uint64_t *tramp_param(const char *sym)
{
	return (volatile uint64_t *)((char *)phys_to_virt(tramp_phys) + (sym - ap_trampoline_start));
}

/* See smp_boot.h. */
int smp_boot_prepare(void)
{
	size_t size = (size_t)(ap_trampoline_end - ap_trampoline_start);
	KASSERT(size <= PAGE_SIZE, "AP trampoline is %zu bytes", size);
	tramp_phys = pmm_alloc_low(TRAMP_PAGES, TRAMP_BELOW);
	if (!tramp_phys)
		return -1;
	memcpy(phys_to_virt(tramp_phys), ap_trampoline_start, size);

	uint64_t *pml4 = phys_to_virt(tramp_phys + PAGE_SIZE);
	uint64_t *pdpt = phys_to_virt(tramp_phys + 2 * PAGE_SIZE);
	uint64_t *pd = phys_to_virt(tramp_phys + 3 * PAGE_SIZE);
	const uint64_t *kernel_pml4 = phys_to_virt(vmm_kernel_cr3());
	for (unsigned i = PML4_KERNEL_HALF; i < 512; i++)
		pml4[i] = kernel_pml4[i];
	pml4[0] = (tramp_phys + 2 * PAGE_SIZE) | PTE_P | PTE_W;
	pdpt[0] = (tramp_phys + 3 * PAGE_SIZE) | PTE_P | PTE_W;
	pd[0] = 0 | PTE_P | PTE_W | PTE_PS;   /* [0, 2 MiB) identity, executable */
	*tramp_param(ap_trampoline_cr3) = tramp_phys + PAGE_SIZE;
	return 0;
}

/* The planted slow start (smp_slow_start=MS, for tests): CPU 1 waits MS ms
 * after entering the kernel, as an AP the host does not run for a while
 * would. Nothing normally. */
static void smp_ap_planted_delay(unsigned cpu)
{
	uint64_t ms;
	if (cpu == 1 && cmdline_number("smp_slow_start", &ms) == 0)
		time_udelay(ms * 1000);
}

/* First C code of an AP, on its own kernel stack, still on the
 * trampoline's page table. Sets the CPU up like the boot CPU, reports
 * online, then idles serving interrupts until it enters its idle thread. GS goes first: locks and panic()
 * need cpu_current(). Never returns. */
static void __attribute__((noreturn)) smp_ap_entry(struct percpu *p)
{
	__atomic_store_n(&p->entered, 1, __ATOMIC_RELEASE);
	percpu_load(p);
	vmm_init_ap();
	gdt_init_cpu(p->cpu, p->ist_top);
	percpu_load(p);   /* a null GS selector load may clear the base (Intel) */
	idt_load();
	smp_ap_planted_delay(p->cpu);
	lapic_init(acpi_madt()->lapic_phys);
	cpu_enumerate_self(&p->desc);
	p->desc_valid = 1;
	time_init_ap();
	__atomic_store_n(&p->online, 1, __ATOMIC_RELEASE);
	thread_ap_enter(p->cpu);   /* idles serving interrupts until the scheduler starts */
}

/* See smp_boot.h. Boot CPU, interrupts off. */
void smp_boot_send_startup(struct percpu *p, int send_startup)
{
	*tramp_param(ap_trampoline_stack) = p->stack_top;
	*tramp_param(ap_trampoline_entry) = (uint64_t)smp_ap_entry;
	*tramp_param(ap_trampoline_arg) = (uint64_t)p;
	__atomic_thread_fence(__ATOMIC_SEQ_CST);

	lapic_send_ipi(p->apic_id, LAPIC_ICR_INIT | LAPIC_ICR_ASSERT);
	time_udelay(10000);
	for (int i = 0; i < 2; i++) {
		if (send_startup)
			lapic_send_ipi(p->apic_id, LAPIC_ICR_STARTUP | (uint32_t)(tramp_phys >> 12));
		time_udelay(200);
	}
}

/* See smp_boot.h. Boot CPU, interrupts off. */
void smp_boot_stop(struct percpu *p)
{
	lapic_send_ipi(p->apic_id, LAPIC_ICR_INIT | LAPIC_ICR_ASSERT);
}
