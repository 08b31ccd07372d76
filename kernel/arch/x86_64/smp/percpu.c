/* SPDX-License-Identifier: BSD-2-Clause */
/* percpu.c — the per-CPU records and the GS base that points at them. */
#include <arch/x86_64/smp/percpu.h>
#include <arch/x86_64/cpu/cpu.h>

#define MSR_GS_BASE 0xC0000101u

static struct percpu percpu_records[MAXCPU];
static int percpu_gs_ready;

/* See percpu.h. */
struct percpu *percpu_get(unsigned cpu)
{
	return &percpu_records[cpu];
}

/* See percpu.h. */
void percpu_load(struct percpu *p)
{
	p->self = p;
	wrmsr(MSR_GS_BASE, (uint64_t)p);
}

/* See percpu.h. */
void percpu_init_bsp(void)
{
	struct percpu *p = &percpu_records[0];
	p->cpu = 0;
	percpu_load(p);
	__atomic_store_n(&percpu_gs_ready, 1, __ATOMIC_RELEASE);
}

/* See percpu.h. */
int percpu_ready(void)
{
	return __atomic_load_n(&percpu_gs_ready, __ATOMIC_ACQUIRE);
}

/* See smp.h. 0 until the boot CPU's record is loaded. */
unsigned cpu_current(void)
{
	if (!percpu_ready())
		return 0;
	return percpu_self()->cpu;
}
