/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * emul_rapl.c — RAPL energy counters of the emulated machine (see
 * emul_rapl.h): what the hardware's MSRs would read, computed from the
 * work clock's exact energy of the package.
 */
#include <arch/x86_64/cpu/door.h>
#include <arch/x86_64/smp/smp.h>
#include <kern/printk.h>
#include <emul/emul_rapl.h>
#include <emul/emul_workclock.h>

/* MSR_RAPL_POWER_UNIT's value: the three unit exponents. */
#define RAPL_UNITS ((uint64_t)EMUL_RAPL_TIME_SHIFT << 16 | (uint64_t)EMUL_RAPL_ENERGY_SHIFT << 8 | \
		    EMUL_RAPL_POWER_SHIFT)

static int rapl_is_ours(uint32_t msr)
{
	return msr == MSR_RAPL_POWER_UNIT || msr == MSR_PKG_ENERGY_STATUS || msr == MSR_PP0_ENERGY_STATUS;
}

/* The 32-bit status value of uj µJ: energy units, wrapping as the
 * hardware's counter does. */
static uint64_t rapl_status(uint64_t uj)
{
	return ((uj << EMUL_RAPL_ENERGY_SHIFT) / 1000000u) & 0xffffffffu;
}

/* See emul_rapl.h. */
int emul_rapl_active(void)
{
	uint64_t uj;
	return emul_workclock_energy(0, 0, &uj) == 0;
}

/* See emul_rapl.h. */
int emul_rapl_door_rdmsr(uint32_t msr, uint64_t *v)
{
	uint64_t uj;
	if (!rapl_is_ours(msr) || emul_workclock_energy(cpu_current(), msr == MSR_PP0_ENERGY_STATUS, &uj))
		return 0;
	*v = msr == MSR_RAPL_POWER_UNIT ? RAPL_UNITS : rapl_status(uj);
	return 1;
}

/* See emul_rapl.h. */
int emul_rapl_door_wrmsr(uint32_t msr, uint64_t v)
{
	static int told;
	uint64_t uj;
	if (!rapl_is_ours(msr) || emul_workclock_energy(cpu_current(), 0, &uj))
		return 0;
	if (!__atomic_exchange_n(&told, 1, __ATOMIC_RELAXED))
		printk("emul-rapl: write of 0x%lx to MSR 0x%x ignored (read-only; power limits are not modelled)\n",
		       (unsigned long)v, msr);
	return 1;
}
