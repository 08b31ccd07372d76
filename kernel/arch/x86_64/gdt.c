/* gdt.c — flat 64-bit GDT and the TSS with its IST stacks. */
#include <trap.h>
#include <stdint.h>
#include <string.h>

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

/* null, kernel code, kernel data, user data, user code, TSS (two slots) */
static uint64_t gdt[7];
static struct tss tss;
static uint8_t ist_double_fault[8192] __attribute__((aligned(16)));
static uint8_t ist_nmi[8192] __attribute__((aligned(16)));

static void gdt_set_tss(void)
{
	uint64_t base = (uint64_t)&tss;
	uint64_t limit = sizeof(tss) - 1;
	gdt[5] = (limit & 0xFFFF) | ((base & 0xFFFFFF) << 16) | (0x89ULL << 40) |
		 (((limit >> 16) & 0xF) << 48) | (((base >> 24) & 0xFF) << 56);
	gdt[6] = base >> 32;
}

/* Boot CPU, boot-time: loads the GDT, reloads segments, loads the TSS. */
void gdt_init(void)
{
	gdt[0] = 0;
	gdt[1] = 0x00AF9A000000FFFFULL;   /* kernel code: 64-bit, DPL0 */
	gdt[2] = 0x00CF92000000FFFFULL;   /* kernel data */
	gdt[3] = 0x00CFF2000000FFFFULL;   /* user data, DPL3 */
	gdt[4] = 0x00AFFA000000FFFFULL;   /* user code, DPL3 */
	memset(&tss, 0, sizeof(tss));
	tss.ist[IST_DOUBLE_FAULT - 1] = (uint64_t)(ist_double_fault + sizeof(ist_double_fault));
	tss.ist[IST_NMI - 1] = (uint64_t)(ist_nmi + sizeof(ist_nmi));
	tss.iomap_base = sizeof(tss);
	gdt_set_tss();

	struct gdt_ptr p = { sizeof(gdt) - 1, (uint64_t)gdt };
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
