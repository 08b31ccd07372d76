/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * hmp_sources.c — the boot-time hmp providers that describe what each CPU
 * is: core-type defaults and HWP highest performance from each CPU's
 * descriptor (kernel/sched/hmp_describe.c), and the emulated machine's
 * description (machine_platform_provide_hmp(), kernel/emul/). The HFI driver
 * and the manual sysctls push their own values later (kernel/sched/hmp.h).
 */
#include <hmp/hmp_sources.h>
#include <emul/machine_platform.h>
#include <kern/printk.h>
#include <arch/x86_64/smp/smp.h>
#include <sched/hmp.h>
#include <sched/hmp_describe.h>

/* See hmp_sources.h. */
void hmp_sources_init(void)
{
	unsigned n = smp_cpu_count();
	hmp_init((int)n);
	hmp_set_status(HMP_PROV_MANUAL, 0, "none set (sysctl kern.hmp.cpu.N.capacity|perf|eff)");
	hmp_describe_cpus(n, smp_cpu_desc);
	machine_platform_provide_hmp(n);
	hmp_publish();
	printk("hmp: %u CPUs; capacity of CPU 0 %d, of CPU %u %d\n", n, hmp_capacity(0), n - 1,
	       hmp_capacity((int)n - 1));
}
