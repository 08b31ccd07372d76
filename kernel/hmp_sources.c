/*
 * hmp_sources.c — the boot-time hmp providers that describe what each CPU
 * is: core-type defaults and HWP highest performance from each CPU's
 * descriptor (kernel/sched/hmp_describe.c), and the machine description
 * (speeds and initial HFI values of an emulated machine). The HFI driver
 * and the manual sysctls push their own values later (kernel/sched/hmp.h).
 */
#include <printk.h>
#include <smp.h>
#include <machine_platform.h>
#include "../../sched/hmp.h"
#include "../../sched/hmp_describe.h"
#include "hmp_sources.h"

/* An emulated machine: capacity from the speed of each CPU's core type,
 * scores from the initial values of its HFI row, SMT shares from its
 * smt-throughput lines. */
static void provide_machine(unsigned n)
{
	const struct machine *m = machine_platform_machine();
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

/* See hmp_sources.h. */
void hmp_sources_init(void)
{
	unsigned n = smp_cpu_count();
	hmp_init((int)n);
	hmp_set_status(HMP_PROV_MANUAL, 0, "none set (sysctl kern.hmp.cpu.N.capacity|perf|eff)");
	hmp_describe_cpus(n, smp_cpu_desc);
	provide_machine(n);
	hmp_publish();
	printk("hmp: %u CPUs; capacity of CPU 0 %d, of CPU %u %d\n", n, hmp_capacity(0), n - 1,
	       hmp_capacity((int)n - 1));
}
