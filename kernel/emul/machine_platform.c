/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * machine_platform.c — under QEMU, take the CPU topology from the machine
 * description passed through fw_cfg (docs/architecture.md, decision 2:
 * the emulated hybrid platform; format in docs/machines.md); on real
 * hardware, or when the description is broken or does not fit the VM,
 * CPUID stays the only source.
 */
#include <mm/mm.h>
#include <kern/printk.h>
#include <arch/x86_64/smp/smp.h>
#include <lib/string.h>
#include <lib/sysctl.h>
#include <sched/hmp.h>
#include <emul/emul_fw_cfg.h>
#include <emul/machine_platform.h>

#define MACHINE_PATH_MAX 128

static struct machine *platform_machine;   /* parsed; kept only if applied */
static char platform_file[MACHINE_PATH_MAX] = MACHINE_FW_CFG_FILE;
static char platform_source[16 + MACHINE_MODEL_MAX] = "CPUID";

SYSCTL_STRING(hw_topology_source, "hw.topology_source", platform_source, sizeof(platform_source), 0,
	      "where the CPU topology comes from: CPUID or a machine file (docs/machines.md)");

/* The host path of the description, when qemu-run.sh passed it. */
static void read_file_name(void)
{
	uint32_t size;
	uint16_t sel;
	if (emul_fw_cfg_find(MACHINE_FW_CFG_PATH, &size, &sel) || size == 0)
		return;
	if (size >= sizeof(platform_file))
		size = sizeof(platform_file) - 1;
	emul_fw_cfg_read(sel, platform_file, size);
	platform_file[size] = 0;
}

void machine_platform_init(void)
{
	uint32_t size;
	uint16_t sel;
	char err[200];
	if (!emul_fw_cfg_present() || emul_fw_cfg_find(MACHINE_FW_CFG_FILE, &size, &sel))
		return;
	read_file_name();
	if (size > MACHINE_FILE_MAX) {
		printk("machine: %s is %u bytes, more than %u; ignored\n", platform_file, size,
		       MACHINE_FILE_MAX);
		return;
	}
	char *text = kmalloc(size + 1);
	struct machine *m = kmalloc(sizeof(*m));
	if (!text || !m) {
		printk("machine: out of memory reading %s; ignored\n", platform_file);
		kfree(text);
		kfree(m);
		return;
	}
	emul_fw_cfg_read(sel, text, size);
	if (machine_parse(m, text, size, platform_file, err, sizeof(err))) {
		printk("machine: %s\n", err);
		printk("machine: description ignored, falling back to CPUID topology\n");
		kfree(m);
	} else {
		platform_machine = m;
	}
	kfree(text);
}

/* Drop the description: CPUID stays the source. */
static void platform_fall_back(void)
{
	kfree(platform_machine);
	platform_machine = NULL;
}

void machine_platform_apply(void)
{
	struct machine *m = platform_machine;
	char err[160];
	unsigned n = smp_cpu_count();
	if (m && m->topology == MACHINE_TOPOLOGY_CPUID) {
		printk("machine: %s (%s) leaves the topology to CPUID\n", m->model, platform_file);
		platform_fall_back();
	} else if (m) {
		struct cpu_desc **desc = kcalloc(n, sizeof(*desc));
		for (unsigned i = 0; desc && i < n; i++)
			desc[i] = smp_cpu_online(i) ? smp_cpu_desc_mut(i) : NULL;
		if (!desc)
			ksnprintf(err, sizeof(err), "out of memory");
		if (!desc || machine_apply(m, desc, n, err, sizeof(err))) {
			printk("machine: %s does not fit this VM: %s\n", platform_file, err);
			printk("machine: description ignored, falling back to CPUID topology\n");
			platform_fall_back();
		}
		kfree(desc);
	}
	if (platform_machine)
		ksnprintf(platform_source, sizeof(platform_source), "machine file %s",
			  platform_machine->model);
	printk("topology source: %s\n", platform_source);
}

const struct machine *machine_platform_machine(void)
{
	return platform_machine;
}

const char *machine_platform_source(void)
{
	return platform_source;
}

/* See machine_platform.h. Capacity from the speed of each CPU's core type,
 * scores from the initial values of its HFI row, SMT shares from the
 * smt-throughput lines. */
void machine_platform_provide_hmp(unsigned n)
{
	const struct machine *m = platform_machine;
	if (!m) {
		hmp_set_status(HMP_PROV_MACHINE, 0, "no machine description (real hardware or plain QEMU)");
		return;
	}
	machine_hmp_provide(m, n);
	char why[128];
	ksnprintf(why, sizeof(why), "%s: capacity from speeds%s, SMT share from smt-throughput", m->model,
		  m->hfi_rows ? ", initial scores from its HFI rows" : "");
	hmp_set_status(HMP_PROV_MACHINE, 1, why);
}
