/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * save_cpuid.c — every online CPU's CPUID leaves and a set of MSRs in
 * InstLatx64's (AIDA64's) text format, the format of tests/data/cpuid/,
 * so that build/cpuid-replay reads the machine back on the host. Each
 * CPU dumps itself (smp_call_on()), through the MSR/CPUID door as the
 * drivers read (door.h): on hardware the instructions, with a #GP of an
 * MSR the CPU lacks caught and written as "< FAILED >".
 */
#include <save/save.h>
#include <arch/x86_64/cpu/door.h>
#include <kern/printk.h>
#include <arch/x86_64/smp/smp.h>
#include <lib/cpu_desc.h>

#define DUMP_MAX     (24 * 1024)   /* one CPU's text */
#define SUBLEAF_MAX  64

/* MSRs worth having from a hybrid part: platform id and info, APERF/MPERF,
 * thermal and package status, temperature target, turbo ratios, RAPL,
 * HWP, HFI and Thread Director (Intel SDM vol. 4). */
static const uint32_t msrs[] = { 0x17, 0xCE, 0xE7, 0xE8, 0x10A, 0x194, 0x198, 0x199, 0x19C, 0x1A0,
				 0x1A2, 0x1AD, 0x1AE, 0x1B0, 0x1B1, 0x1B2, 0x606, 0x610, 0x611, 0x614,
				 0x619, 0x639, 0x641, 0x770, 0x771, 0x772, 0x773, 0x774, 0x777, 0x17D0,
				 0x17D1, 0x17D2, 0x17D4, 0x17DA };

struct dump_call {
	unsigned cpu;
	int msr_part;                 /* 0: the CPUID section, 1: the MSR section */
	char *buf;
	size_t len, cap;
};

static void put(struct dump_call *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Appends a formatted line part; what does not fit is dropped (the
 * buffer is sized for the largest CPU). */
static void put(struct dump_call *c, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	size_t room = c->cap - c->len;
	int n = kvsnprintf(c->buf + c->len, room, fmt, ap);
	va_end(ap);
	if (n > 0)
		c->len += (size_t)n < room ? (size_t)n : room ? room - 1 : 0;
}

/* One CPUID line; sub < 0: a leaf without sub-leaves. */
static void leaf(struct dump_call *c, uint32_t l, int sub, struct door_cpuid_regs *r)
{
	door_cpuid(l, sub < 0 ? 0 : (uint32_t)sub, r);
	put(c, "CPUID %08X: %08X-%08X-%08X-%08X", l, r->eax, r->ebx, r->ecx, r->edx);
	if (sub >= 0)
		put(c, " [SL %02X]", (unsigned)sub);
	put(c, "\n");
}

/* The sub-leaves of l the dump lists: up to (not including) the empty one
 * that ends the list, or those an enumeration bit names. */
static void leaf_all(struct dump_call *c, uint32_t l)
{
	struct door_cpuid_regs r, r0;
	switch (l) {
	case 0x4: case 0x8000001D:             /* caches: until type 0 (sub-leaf 0 always) */
		for (int s = 0; s < SUBLEAF_MAX; s++) {
			door_cpuid(l, (uint32_t)s, &r);
			if ((r.eax & 0x1F) == 0 && s > 0)
				break;
			leaf(c, l, s, &r);
		}
		return;
	case 0xB: case 0x1F:                    /* topology: until level type 0 */
		for (int s = 0; s < 8; s++) {
			door_cpuid(l, (uint32_t)s, &r);
			if (((r.ecx >> 8) & 0xFF) == 0 && s > 0)
				break;
			leaf(c, l, s, &r);
		}
		return;
	case 0x7: case 0x14: case 0x17: case 0x18: case 0x1D: case 0x20: case 0x23:
		leaf(c, l, 0, &r0);                 /* EAX of sub-leaf 0: the last sub-leaf */
		for (uint32_t s = 1; s <= r0.eax && s < SUBLEAF_MAX; s++)
			leaf(c, l, (int)s, &r);
		return;
	case 0xD: {                             /* XSAVE: 0, 1, then each component enumerated */
		struct door_cpuid_regs r1;
		leaf(c, l, 0, &r0);
		leaf(c, l, 1, &r1);
		uint64_t comps = (uint64_t)r0.edx << 32 | r0.eax | (uint64_t)r1.edx << 32 | r1.ecx;
		for (int s = 2; s < 63; s++)
			if (comps >> s & 1)
				leaf(c, l, s, &r);
		return;
	}
	case 0xF: case 0x10: case 0x12:
		for (int s = 0; s < 4; s++)
			leaf(c, l, s, &r);
		return;
	default:
		leaf(c, l, -1, &r);
	}
}

/* Runs on the CPU being dumped (an IPI, interrupts off). */
static void dump_on_cpu(void *arg)
{
	struct dump_call *c = arg;
	struct door_cpuid_regs r;
	if (c->msr_part) {
		put(c, "------[ MSR Registers / Logical CPU #%u ]------\n\n", c->cpu);
		for (unsigned i = 0; i < sizeof(msrs) / sizeof(msrs[0]); i++) {
			uint64_t v;
			if (door_rdmsr_safe(msrs[i], &v))
				put(c, "MSR %08X: < FAILED >\n", msrs[i]);
			else
				put(c, "MSR %08X: %04X-%04X-%04X-%04X\n", msrs[i], (unsigned)(v >> 48) & 0xFFFF,
				    (unsigned)(v >> 32) & 0xFFFF, (unsigned)(v >> 16) & 0xFFFF, (unsigned)v & 0xFFFF);
		}
		put(c, "\n");
		return;
	}
	put(c, "------[ CPUID Registers / Logical CPU #%u ]------\n\n", c->cpu);
	door_cpuid(0, 0, &r);
	uint32_t max = r.eax > 0xFF ? 0xFF : r.eax;
	for (uint32_t l = 0; l <= max; l++)
		leaf_all(c, l);
	door_cpuid(0x80000000u, 0, &r);
	uint32_t xmax = r.eax >= 0x80000000u && r.eax <= 0x800000FFu ? r.eax : 0x80000000u;
	for (uint32_t l = 0x80000000u; l <= xmax; l++)
		leaf_all(c, l);
	put(c, "\n");
}

/* One section of cpu into t (a failed call is said in the dump as a
 * comment line the reader skips). */
static void dump_cpu(struct save_text *t, unsigned cpu, int msr_part)
{
	static char buf[DUMP_MAX];
	struct dump_call c = { cpu, msr_part, buf, 0, sizeof(buf) };
	if (smp_call_on(cpu, dump_on_cpu, &c)) {
		save_text_printf(t, "# CPU %u did not answer\n", cpu);
		return;
	}
	save_text_put(t, buf, c.len);
}

/* See save.h. The CPUID sections, the All CPUs section (APIC id and ids
 * from the descriptors), then the MSR sections. */
void save_cpuid_dump(struct save_text *t)
{
	unsigned n = smp_cpu_count();
	for (unsigned cpu = 0; cpu < n; cpu++)
		if (smp_cpu_online(cpu))
			dump_cpu(t, cpu, 0);
	save_text_printf(t, "------[ All CPUs ]------\n\n");
	for (unsigned cpu = 0; cpu < n; cpu++) {
		const struct cpu_desc *d = smp_cpu_desc(cpu);
		if (smp_cpu_online(cpu) && d)
			save_text_printf(t, "CPU %3u: APICID %4u / Package %u / Core %3u / Thread %u: Valid\n", cpu,
					 smp_cpu_apic_id(cpu), d->package_id, d->core_id, d->smt_id);
	}
	save_text_printf(t, "\n");
	for (unsigned cpu = 0; cpu < n; cpu++)
		if (smp_cpu_online(cpu))
			dump_cpu(t, cpu, 1);
}
