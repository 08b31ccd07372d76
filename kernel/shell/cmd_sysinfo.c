/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * cmd_sysinfo.c — what this machine is, in a few lines a user can
 * photograph: the CPU's brand string, how many P, E and LP-E CPUs (and
 * cores) are online, whether the CPU has an HFI and whether the driver
 * enabled it, where capacities come from, the placement policy, and the
 * firmware (UEFI vendor and revision, the ACPI OEM). Printed once at the
 * end of boot as the boot summary, and by `sysinfo`.
 */
#include <shell/shell.h>
#include <kern/printk.h>
#include <arch/x86_64/smp/smp.h>
#include <lib/string.h>
#include <arch/x86_64/cpu/cpu.h>
#include <lib/cpu_desc.h>
#include <arch/x86_64/cpu/door.h>
#include <arch/x86_64/intr/lapic.h>
#include <dev/pci.h>
#include <shell/sysinfo.h>
#include <dev/hfi/hfi_kernel.h>
#include <sched/hmp.h>
#include <sched/sched.h>

static char fw_vendor[BOOT_FW_VENDOR_MAX] = "?";
static uint32_t fw_revision;

/* See sysinfo.h. */
void sysinfo_set_firmware(const char *vendor, uint32_t revision)
{
	size_t i = 0;
	for (; i + 1 < sizeof(fw_vendor) && vendor[i]; i++)
		fw_vendor[i] = vendor[i];
	fw_vendor[i] = 0;
	if (i == 0) {
		fw_vendor[0] = '?';
		fw_vendor[1] = 0;
	}
	fw_revision = revision;
}

/* See sysinfo.h. */
void sysinfo_brand(char *out, size_t len)
{
	uint32_t r[12], max, b, c, d;
	cpuid(0x80000000, 0, &max, &b, &c, &d);
	if (max < 0x80000004 || len < 49) {
		ksnprintf(out, len, "(no brand string)");
		return;
	}
	for (uint32_t i = 0; i < 3; i++)
		cpuid(0x80000002 + i, 0, &r[4 * i], &r[4 * i + 1], &r[4 * i + 2], &r[4 * i + 3]);
	const char *s = (const char *)r;
	size_t n = 0;
	while (n < 48 && s[n] == ' ')
		n++;
	size_t k = 0;
	for (; n < 48 && s[n]; n++)
		out[k++] = s[n] >= 0x20 && s[n] < 0x7F ? s[n] : '?';
	out[k] = 0;
}

/* Online CPUs and distinct cores of one core type. */
static void count_type(unsigned type, unsigned *cpus, unsigned *cores)
{
	static uint64_t seen[MAXCPU];
	unsigned nseen = 0;
	*cpus = *cores = 0;
	for (unsigned c = 0; c < smp_cpu_count(); c++) {
		const struct cpu_desc *d = smp_cpu_desc(c);
		if (!smp_cpu_online(c) || !d || d->core_type != type)
			continue;
		(*cpus)++;
		uint64_t key = (uint64_t)d->package_id << 32 | d->core_id;
		unsigned i = 0;
		while (i < nseen && seen[i] != key)
			i++;
		if (i == nseen) {
			seen[nseen++] = key;
			(*cores)++;
		}
	}
}

/* See sysinfo.h. */
void sysinfo_print(void)
{
	char brand[64];
	sysinfo_brand(brand, sizeof(brand));
	unsigned p, pc, e, ec, l, lc, u, uc;
	count_type(CPU_CORE_P, &p, &pc);
	count_type(CPU_CORE_E, &e, &ec);
	count_type(CPU_CORE_LPE, &l, &lc);
	count_type(CPU_CORE_UNKNOWN, &u, &uc);
	struct door_cpuid_regs r6 = { 0 }, r0 = { 0 };
	door_cpuid(0, 0, &r0);
	if (r0.eax >= 6)
		door_cpuid(6, 0, &r6);
	const struct hfi_drv *h = hfi_driver();
	struct hmp_cpu hc = { 0 };
	if (hmp_ncpu() > 0)
		hmp_read(0, &hc);
	printk("==== Mosaic system summary ====\n");
	printk("cpu:      %s\n", brand);
	printk("cpus:     %u online: %u P (%u cores), %u E, %u LP-E", smp_online_count(), p, pc, e, l);
	if (u)
		printk(", %u without a core type", u);
	printk("\n");
	printk("hfi:      %s, %s%s%s%s\n", (r6.eax >> 19) & 1 ? "present (CPUID.06H)" : "not offered by the CPU",
	       h->on ? "enabled" : "not enabled", h->why[0] ? " (" : "", h->why, h->why[0] ? ")" : "");
	printk("capacity: from %s%s\n", hmp_ncpu() > 0 ? hmp_provider_name(hc.capacity_from) : "nothing",
	       hmp_uniform() ? " (all CPUs equal)" : "");
	printk("policy:   %s (sysctl kern.sched.policy%s)\n", sched_policy_name(),
	       strcmp(sched_policy_name(), "hmp") == 0 && hmp_uniform() ? "; every CPU alike: stock ULE's decisions"
									: "");
	printk("firmware: %s, UEFI revision %u.%02u; APIC %s, tick %s\n", fw_vendor, fw_revision >> 16,
	       fw_revision & 0xFFFF, lapic_is_x2apic() ? "x2APIC" : "xAPIC", lapic_timer_mode());
	printk("================================\n");
}

/* `sysinfo`: the boot summary again. */
static int cmd_sysinfo(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	sysinfo_print();
	return 0;
}
SHELL_COMMAND(sysinfo, 0, 0, "", "CPU, core types, HFI, capacity source, policy, firmware", cmd_sysinfo);
