/* SPDX-License-Identifier: BSD-2-Clause */
/* smp_cpus.c — what the rest of the kernel may ask about the logical CPUs
 * (smp.h): how many have an id, which are online, their APIC ids, tick
 * counts and descriptors. Apart from the bring-up (smp.c, which starts
 * the APs into the thread layer) so that these questions, asked by every
 * layer and by panic(), link nothing above arch. */
#include <arch/x86_64/smp/smp.h>
#include <arch/x86_64/smp/smp_boot.h>
#include <arch/x86_64/smp/percpu.h>
#include <stddef.h>

static unsigned cpu_count = 1;   /* CPUs with a logical id, online or not */

/* See smp_boot.h. Boot-time, boot CPU, before any AP starts. */
void smp_cpus_set_count(unsigned n)
{
	cpu_count = n;
}

/* See smp.h. */
unsigned smp_cpu_count(void)
{
	return cpu_count;
}

/* See smp.h. */
int smp_cpu_online(unsigned cpu)
{
	return cpu < cpu_count && __atomic_load_n(&percpu_get(cpu)->online, __ATOMIC_ACQUIRE);
}

/* See smp.h. */
unsigned smp_online_count(void)
{
	unsigned n = 0;
	for (unsigned i = 0; i < cpu_count; i++)
		n += smp_cpu_online(i) != 0;
	return n;
}

/* See smp.h. */
uint32_t smp_cpu_apic_id(unsigned cpu)
{
	return cpu < cpu_count ? percpu_get(cpu)->apic_id : 0;
}

/* See smp.h. */
uint64_t smp_cpu_ticks(unsigned cpu)
{
	return cpu < cpu_count ? __atomic_load_n(&percpu_get(cpu)->ticks, __ATOMIC_RELAXED) : 0;
}

/* See smp.h. */
const struct cpu_desc *smp_cpu_desc(unsigned cpu)
{
	return smp_cpu_desc_mut(cpu);
}

/* See smp.h. */
struct cpu_desc *smp_cpu_desc_mut(unsigned cpu)
{
	if (cpu >= cpu_count || !percpu_get(cpu)->desc_valid)
		return NULL;
	return &percpu_get(cpu)->desc;
}
