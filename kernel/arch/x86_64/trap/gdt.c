/* SPDX-License-Identifier: BSD-2-Clause */
/* gdt.c — flat 64-bit GDT and the TSS with its IST stacks (double fault,
 * NMI, machine check), one GDT and TSS per CPU. */
#include <arch/x86_64/trap/trap.h>
#include <stdint.h>
#include <lib/string.h>
#include <arch/x86_64/smp/smp.h>

#define GDT_KERNEL_CODE 0x08
#define GDT_KERNEL_DATA 0x10
#define GDT_TSS         0x28

struct tss {
	uint32_t reserved0;
	uint64_t rsp[3];
	uint64_t reserved1;
	uint64_t ist[7];
	uint64_t reserved2;
	uint16_t reserved3;
	uint16_t iomap_base;
} __attribute__((packed));

struct gdt_ptr {
	uint16_t limit;
	uint64_t base;
} __attribute__((packed));

/* One GDT and TSS per logical CPU: a TSS descriptor is marked busy by
 * ltr, so CPUs cannot share one. */
struct gdt_cpu {
	uint64_t gdt[7];   /* null, kernel code, kernel data, user data, user code, TSS (two slots) */
	struct tss tss;
};

static struct gdt_cpu gdt_cpus[MAXCPU];
/* The boot CPU's IST stacks until smp_start_aps() gives it guarded ones. */
static uint8_t ist_boot[IST_COUNT][8192] __attribute__((aligned(16)));

static void gdt_set_tss(struct gdt_cpu *g)
{
	uint64_t base = (uint64_t)&g->tss;
	uint64_t limit = sizeof(g->tss) - 1;
	g->gdt[5] = (limit & 0xFFFF) | ((base & 0xFFFFFF) << 16) | (0x89ULL << 40) |
		    (((limit >> 16) & 0xF) << 48) | (((base >> 24) & 0xFF) << 56);
	g->gdt[6] = base >> 32;
}

/* See trap.h. Runs on the CPU being set up; loads its GDT, reloads the
 * segment registers (GS selector 0: set the GS base afterwards), loads its
 * TSS. */
void gdt_init_cpu(unsigned cpu, const uint64_t ist_top[IST_COUNT])
{
	struct gdt_cpu *g = &gdt_cpus[cpu];
	g->gdt[0] = 0;
	g->gdt[1] = 0x00AF9A000000FFFFULL;   /* kernel code: 64-bit, DPL0 */
	g->gdt[2] = 0x00CF92000000FFFFULL;   /* kernel data */
	g->gdt[3] = 0x00CFF2000000FFFFULL;   /* user data, DPL3 */
	g->gdt[4] = 0x00AFFA000000FFFFULL;   /* user code, DPL3 */
	memset(&g->tss, 0, sizeof(g->tss));
	for (int i = 0; i < IST_COUNT; i++)
		g->tss.ist[i] = ist_top[i];
	g->tss.iomap_base = sizeof(g->tss);
	gdt_set_tss(g);

	struct gdt_ptr p = { sizeof(g->gdt) - 1, (uint64_t)g->gdt };
	__asm__ volatile(
		"lgdt %0\n\t"
		"pushq %1\n\t"
		"leaq 1f(%%rip), %%rax\n\t"
		"pushq %%rax\n\t"
		"lretq\n"
		"1:\n\t"
		"movw %w2, %%ax\n\t"
		"movw %%ax, %%ds\n\t"
		"movw %%ax, %%es\n\t"
		"movw %%ax, %%ss\n\t"
		"xorw %%ax, %%ax\n\t"
		"movw %%ax, %%fs\n\t"
		"movw %%ax, %%gs\n\t"
		:: "m"(p), "i"(GDT_KERNEL_CODE), "i"(GDT_KERNEL_DATA) : "rax", "memory");
	__asm__ volatile("ltr %w0" :: "r"(GDT_TSS));
}

/* See trap.h. Boot CPU, boot-time. */
void gdt_init(void)
{
	uint64_t top[IST_COUNT];
	for (int i = 0; i < IST_COUNT; i++)
		top[i] = (uint64_t)(ist_boot[i] + sizeof(ist_boot[i]));
	gdt_init_cpu(0, top);
}

/* See trap.h. Read by the CPU at each interrupt from user mode; caller has
 * interrupts off. */
void gdt_set_rsp0(unsigned cpu, uint64_t top)
{
	gdt_cpus[cpu].tss.rsp[0] = top;
}

/* See trap.h. The TSS is read at each stack switch, so the new stack is in
 * use from the next interrupt on; caller has interrupts off. */
void gdt_set_ist(unsigned cpu, unsigned ist, uint64_t top)
{
	gdt_cpus[cpu].tss.ist[ist - 1] = top;
}
