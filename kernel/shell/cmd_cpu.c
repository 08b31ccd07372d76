/* SPDX-License-Identifier: BSD-2-Clause */
/* cmd_cpu.c — shell commands about the logical CPUs: `cpus` and `cpuid`. */
#include <shell/shell.h>
#include <arch/x86_64/smp/smp.h>
#include <arch/x86_64/cpu/cpu.h>
#include <arch/x86_64/cpu/cpuid_decode.h>
#include <arch/x86_64/cpu/door.h>
#include <kern/printk.h>

static const char *cpus_source_name(unsigned source)
{
	switch (source) {
	case CPU_DESC_FROM_CPUID: return "CPUID";
	case CPU_DESC_FROM_DUMP: return "CPUID dump";
	case CPU_DESC_FROM_MACHINE_FILE: return "machine description";
	default: return "?";
	}
}

/* One line per CPU from its descriptor (see cpu_desc_format_line), then the
 * online count and where the descriptors came from. Reads per-CPU state
 * without locks: a line may be a tick behind. */
static int cmd_cpus(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	char line[160];
	unsigned n = smp_cpu_count(), from = 0xFF;

	cpu_desc_format_header(line, sizeof(line));
	printk("%s %-6s %s\n", line, "online", "ticks");
	for (unsigned cpu = 0; cpu < n; cpu++) {
		const struct cpu_desc *d = smp_cpu_desc(cpu);
		if (!d) {
			printk("%4u 0x%04x (never came online)\n", cpu, smp_cpu_apic_id(cpu));
			continue;
		}
		if (from == 0xFF)
			from = d->source;
		else if (from != d->source)
			from = 0xFE;
		cpu_desc_format_line(line, sizeof(line), cpu, d);
		printk("%s %-6s %llu\n", line, smp_cpu_online(cpu) ? "yes" : "no",
		       (unsigned long long)smp_cpu_ticks(cpu));
	}
	printk("%u CPUs, %u online; descriptors from %s\n", n, smp_online_count(),
	       from == 0xFE ? "several sources" : cpus_source_name(from));
	return 0;
}
SHELL_COMMAND(cpus, 0, 0, "", "list the logical CPUs: APIC id, core type, topology ids, HFI row",
	      cmd_cpus);

struct cpuid_call {
	uint32_t leaf, sub;
	uint32_t regs[4];
};

/* Runs on the target CPU (through smp_call_on). */
static void cpuid_on_cpu(void *arg)
{
	struct cpuid_call *c = arg;
	cpuid(c->leaf, c->sub, &c->regs[0], &c->regs[1], &c->regs[2], &c->regs[3]);
}

/* `cpuid LEAF [SUB] [CPU]`: the raw registers from any online CPU. */
static int cmd_cpuid(int argc, char **argv)
{
	struct cpuid_call c = { 0, 0, { 0, 0, 0, 0 } };
	uint64_t leaf, sub = 0, cpu = cpu_current();
	unsigned n = smp_cpu_count();

	if (shell_arg_u64("cpuid", "LEAF", argv[1], 16, 0, 0xFFFFFFFFu, &leaf) ||
	    (argc > 2 && shell_arg_u64("cpuid", "SUB", argv[2], 16, 0, 0xFFFFFFFFu, &sub)) ||
	    (argc > 3 && shell_arg_u64("cpuid", "CPU", argv[3], 10, 0, n - 1, &cpu)))
		return 1;
	if (!smp_cpu_online((unsigned)cpu)) {
		printk("cpuid: CPU %lu is not online (%u CPUs)\n", cpu, n);
		return 1;
	}
	c.leaf = (uint32_t)leaf;
	c.sub = (uint32_t)sub;
	if (smp_call_on((unsigned)cpu, cpuid_on_cpu, &c) != 0) {
		printk("cpuid: CPU %lu did not answer\n", cpu);
		return 1;
	}
	printk("cpu %lu leaf 0x%x sub 0x%x: eax=0x%08x ebx=0x%08x ecx=0x%08x edx=0x%08x\n",
	       cpu, c.leaf, c.sub, c.regs[0], c.regs[1], c.regs[2], c.regs[3]);
	return 0;
}
SHELL_COMMAND(cpuid, 1, 3, "LEAF [SUB] [CPU]",
	      "raw CPUID registers from a CPU (LEAF, SUB hex; CPU decimal, default this one)",
	      cmd_cpuid);

/* `rdmsr MSR`: the MSR on the shell's CPU through the door (door.h), as a
 * driver reads it: the emulated platform's value where it presents the
 * MSR, else the RDMSR instruction, guarded — a #GP (no such MSR) is
 * caught and reported, the kernel goes on. Shell thread. */
static int cmd_rdmsr(int argc, char **argv)
{
	uint64_t msr, v;
	(void)argc;
	if (shell_arg_u64("rdmsr", "MSR", argv[1], 0, 0, 0xffffffffu, &msr))
		return 1;
	uint64_t flags = cpu_save_flags_cli();   /* read and name one CPU */
	unsigned cpu = cpu_current();
	int rc = door_rdmsr_safe((uint32_t)msr, &v);
	cpu_restore_flags(flags);
	if (rc) {
		printk("rdmsr: MSR 0x%lx on cpu %u: faulted (#GP caught: no such MSR here)\n", (unsigned long)msr,
		       cpu);
		return 1;
	}
	printk("rdmsr: MSR 0x%lx on cpu %u = 0x%016lx%s\n", (unsigned long)msr, cpu, (unsigned long)v,
	       door_emulated() ? " (through the door: emulated MSRs answer first)" : "");
	return 0;
}
SHELL_COMMAND(rdmsr, 1, 1, "MSR", "read an MSR on this CPU, guarded (a #GP is caught and reported)", cmd_rdmsr);
