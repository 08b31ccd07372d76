/* SPDX-License-Identifier: BSD-2-Clause */
/* tlb.c — the TLB shootdown of user page tables (see user_cpu.h): one
 * round of IPIs to the CPUs that run the page tables, sent to all of them
 * at once and answered in parallel, and shared by shootdowns that overlap.
 *
 * Each CPU publishes the user page tables it runs (user_cr3_now, written
 * by user_cpu_switch() before it loads CR3). A shootdown takes the next
 * number of a global sequence (tlb_gen), after the caller cleared the
 * entries; each CPU that runs the page tables, and has not flushed at that
 * number yet, gets one VEC_IPI_TLB. Its handler reads the sequence, then
 * reloads CR3 (no PCIDs: every non-global entry goes) and records that it
 * flushed at that number (tlb_done), which covers every shootdown numbered
 * up to it: concurrent shootdowns share their IPIs. The caller waits until
 * each CPU it sent to has flushed at its number or switched to other page
 * tables (a CR3 load drops the entries too). Facts from the Intel SDM vol.
 * 3A, "Invalidation of TLBs and Paging-Structure Caches" (a MOV to CR3
 * without PCIDs invalidates every non-global entry) and "Propagation of
 * Paging-Structure Changes to Multiple Processors". */
#include <arch/x86_64/cpu/user_cpu.h>
#include <arch/x86_64/cpu/cpu.h>
#include <arch/x86_64/intr/ipi.h>
#include <kern/printk.h>
#include <arch/x86_64/smp/smp.h>
#include <arch/x86_64/arch_hooks.h>
#include <arch/x86_64/clock/time.h>
#include <arch/x86_64/trap/trap.h>

#define TLB_SLOW_NS    1000000000ull    /* reported, then waited for up to TLB_TIMEOUT_NS */
#define TLB_TIMEOUT_NS 20000000000ull   /* as smp_call_on(): a starved vCPU is not a stuck one */

static uint64_t user_cr3_now[MAXCPU];   /* the user page tables each CPU runs; 0: the kernel's */
static uint64_t tlb_gen;                /* the last shootdown's number */
static uint64_t tlb_done[MAXCPU];       /* the number each CPU last flushed at */

/* See user_cpu.h. Before the CR3 load: a shootdown that misses the new
 * value is ordered before the load, whose walks then see its entries
 * cleared. Interrupts off. */
void tlb_note_cr3(uint64_t cr3)
{
	__atomic_store_n(&user_cr3_now[cpu_current()], cr3, __ATOMIC_SEQ_CST);
}

/* VEC_IPI_TLB: flush, then say up to which shootdown. Interrupts off. */
static void tlb_ipi(struct trap_frame *tf)
{
	(void)tf;
	uint64_t gen = __atomic_load_n(&tlb_gen, __ATOMIC_ACQUIRE);
	unsigned me = cpu_current();
	write_cr3(read_cr3());
	if (__atomic_load_n(&tlb_done[me], __ATOMIC_RELAXED) < gen)
		__atomic_store_n(&tlb_done[me], gen, __ATOMIC_RELEASE);
}

/* See user_cpu.h. */
void tlb_init(void)
{
	trap_set_handler(VEC_IPI_TLB, tlb_ipi);
}

/* 1 once cpu no longer holds translations of cr3 from before shootdown
 * gen. */
static int tlb_flushed(unsigned cpu, uint64_t cr3, uint64_t gen)
{
	return __atomic_load_n(&tlb_done[cpu], __ATOMIC_ACQUIRE) >= gen ||
	       __atomic_load_n(&user_cr3_now[cpu], __ATOMIC_ACQUIRE) != cr3;
}

/* Waits until every CPU of targets flushed or the deadline; 1 if all did. */
static int tlb_wait(const uint64_t *targets, uint64_t cr3, uint64_t gen, uint64_t deadline)
{
	for (unsigned cpu = 0; cpu < smp_cpu_count(); cpu++) {
		if (!(targets[cpu / 64] >> (cpu % 64) & 1))
			continue;
		while (!tlb_flushed(cpu, cr3, gen)) {
			if (time_ns() > deadline)
				return 0;
			cpu_pause();
		}
	}
	return 1;
}

/* See user_cpu.h. Preemption stays off, so that "this CPU" stays the one
 * flushed directly; interrupts stay on, so two CPUs shooting down at once
 * answer each other. */
int user_cpu_flush_tlb(uint64_t cr3)
{
	uint64_t targets[MAXCPU / 64] = { 0 };
	int any = 0, rc = 0;
	preempt_disable();
	uint64_t gen = __atomic_add_fetch(&tlb_gen, 1, __ATOMIC_SEQ_CST);   /* a full fence */
	unsigned me = cpu_current();
	if (read_cr3() == cr3)
		write_cr3(cr3);
	for (unsigned cpu = 0; cpu < smp_cpu_count(); cpu++) {
		if (cpu == me || !smp_cpu_online(cpu) || tlb_flushed(cpu, cr3, gen))
			continue;
		targets[cpu / 64] |= 1ull << (cpu % 64);
		ipi_send(cpu, VEC_IPI_TLB);
		any = 1;
	}
	static PRINTK_RATE(slow_flushes, "tlb: slow shootdowns");
	uint64_t start = time_ns();
	if (any && !tlb_wait(targets, cr3, gen, start + TLB_SLOW_NS)) {
		printk_rated(&slow_flushes, "tlb: a CPU has not flushed for 1 s; waiting up to %u s\n",
			     (unsigned)(TLB_TIMEOUT_NS / 1000000000ull));
		rc = tlb_wait(targets, cr3, gen, start + TLB_TIMEOUT_NS) ? 0 : -1;
	}
	preempt_enable();
	return rc;
}
