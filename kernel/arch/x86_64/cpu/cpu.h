/* SPDX-License-Identifier: BSD-2-Clause */
/* cpu.h — x86-64 instructions the kernel needs, as inline functions. */
#ifndef MOSAIC_ARCH_CPU_H
#define MOSAIC_ARCH_CPU_H

#include <stdint.h>

static inline void outb(uint16_t port, uint8_t v) { __asm__ volatile("outb %0, %1" :: "a"(v), "Nd"(port)); }
static inline void outw(uint16_t port, uint16_t v) { __asm__ volatile("outw %0, %1" :: "a"(v), "Nd"(port)); }
static inline void outl(uint16_t port, uint32_t v) { __asm__ volatile("outl %0, %1" :: "a"(v), "Nd"(port)); }
static inline uint8_t inb(uint16_t port) { uint8_t v; __asm__ volatile("inb %1, %0" : "=a"(v) : "Nd"(port)); return v; }
static inline uint16_t inw(uint16_t port) { uint16_t v; __asm__ volatile("inw %1, %0" : "=a"(v) : "Nd"(port)); return v; }
static inline uint32_t inl(uint16_t port) { uint32_t v; __asm__ volatile("inl %1, %0" : "=a"(v) : "Nd"(port)); return v; }

static inline void cpu_cli(void) { __asm__ volatile("cli" ::: "memory"); }
static inline void cpu_sti(void) { __asm__ volatile("sti" ::: "memory"); }
static inline void cpu_hlt(void) { __asm__ volatile("hlt" ::: "memory"); }
static inline void cpu_pause(void) { __asm__ volatile("pause" ::: "memory"); }
/* Enable interrupts and halt atomically (no wake-up lost in between). */
static inline void cpu_sti_hlt(void) { __asm__ volatile("sti; hlt" ::: "memory"); }

static inline uint64_t cpu_save_flags_cli(void)
{
	uint64_t f;
	__asm__ volatile("pushfq; popq %0; cli" : "=r"(f) :: "memory");
	return f;
}
static inline void cpu_restore_flags(uint64_t f)
{
	__asm__ volatile("pushq %0; popfq" :: "r"(f) : "memory", "cc");
}

static inline uint64_t rdmsr(uint32_t msr)
{
	uint32_t lo, hi;
	__asm__ volatile("rdmsr" : "=a"(lo), "=d"(hi) : "c"(msr));
	return ((uint64_t)hi << 32) | lo;
}
/* RDMSR that survives a #GP (an MSR the CPU does not have): *val and 0,
 * or -1 with *val untouched. msr_safe.asm; the #GP handler resumes at its
 * fault label (msr_safe_fixup(), trap.c). Any context. */
int rdmsr_safe(uint32_t msr, uint64_t *val);
struct trap_frame;
/* 1 (and tf moved to the fault label) when tf is a #GP of rdmsr_safe's
 * RDMSR; 0 otherwise. From trap_dispatch(). */
int msr_safe_fixup(struct trap_frame *tf);
static inline void wrmsr(uint32_t msr, uint64_t v)
{
	__asm__ volatile("wrmsr" :: "c"(msr), "a"((uint32_t)v), "d"((uint32_t)(v >> 32)));
}
static inline uint64_t rdtsc(void)
{
	uint32_t lo, hi;
	__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
	return ((uint64_t)hi << 32) | lo;
}
static inline void cpuid(uint32_t leaf, uint32_t sub, uint32_t *a, uint32_t *b, uint32_t *c, uint32_t *d)
{
	__asm__ volatile("cpuid" : "=a"(*a), "=b"(*b), "=c"(*c), "=d"(*d) : "a"(leaf), "c"(sub));
}

/* CR0 and CR4 bits of the x87/SSE state (Intel SDM vol. 3A, "Control
 * Registers"). */
#define CR0_MP (1ull << 1)
#define CR0_EM (1ull << 2)
#define CR0_TS (1ull << 3)
#define CR4_OSFXSR (1ull << 9)
#define CR4_OSXMMEXCPT (1ull << 10)
#define CR4_OSXSAVE (1ull << 18)

/* FXSAVE / FXRSTOR of the x87 and SSE registers to / from a 512-byte,
 * 16-byte aligned area (Intel SDM vol. 1, "FXSAVE"). */
static inline void fxsave64(void *area) { __asm__ volatile("fxsave64 (%0)" :: "r"(area) : "memory"); }
static inline void fxrstor64(const void *area) { __asm__ volatile("fxrstor64 (%0)" :: "r"(area) : "memory"); }

static inline uint64_t read_cr0(void) { uint64_t v; __asm__ volatile("mov %%cr0, %0" : "=r"(v)); return v; }
static inline uint64_t read_cr2(void) { uint64_t v; __asm__ volatile("mov %%cr2, %0" : "=r"(v)); return v; }
static inline uint64_t read_cr3(void) { uint64_t v; __asm__ volatile("mov %%cr3, %0" : "=r"(v)); return v; }
static inline uint64_t read_cr4(void) { uint64_t v; __asm__ volatile("mov %%cr4, %0" : "=r"(v)); return v; }
static inline void write_cr0(uint64_t v) { __asm__ volatile("mov %0, %%cr0" :: "r"(v) : "memory"); }
static inline void write_cr3(uint64_t v) { __asm__ volatile("mov %0, %%cr3" :: "r"(v) : "memory"); }
static inline void write_cr4(uint64_t v) { __asm__ volatile("mov %0, %%cr4" :: "r"(v) : "memory"); }
static inline void invlpg(uint64_t va) { __asm__ volatile("invlpg (%0)" :: "r"(va) : "memory"); }

#define MSR_EFER 0xC0000080u
#define EFER_NXE (1u << 11)

/* Stop this CPU for good (interrupts off). */
static inline __attribute__((noreturn)) void cpu_halt_forever(void)
{
	for (;;) { cpu_cli(); cpu_hlt(); }
}

#endif
