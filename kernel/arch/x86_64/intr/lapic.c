/* SPDX-License-Identifier: BSD-2-Clause */
/* lapic.c — the local APIC in xAPIC (MMIO) or x2APIC (MSR) mode
 * (Intel SDM vol. 3, chapter 11). */
#include <arch/x86_64/intr/lapic.h>
#include <arch/x86_64/cpu/cpu.h>
#include <arch/x86_64/trap/trap.h>
#include <mm/mm.h>
#include <arch/x86_64/clock/time.h>
#include <kern/printk.h>
#include <kern/panic.h>
#include <arch/x86_64/acpi/acpi.h>
#include <lib/cmdline.h>
#include <arch/x86_64/smp/smp.h>
#include <lib/string.h>
#include <arch/x86_64/clock/clock_choice.h>

#define MSR_APIC_BASE   0x1B
#define APIC_BASE_EXTD  (1ull << 10)  /* x2APIC mode */
#define APIC_BASE_EN    (1ull << 11)  /* global enable */

/* Register offsets in the xAPIC page; the x2APIC MSR is 0x800 + off/16. */
#define LAPIC_ID        0x020
#define LAPIC_VERSION   0x030
#define LAPIC_TPR       0x080
#define LAPIC_EOI       0x0B0
#define LAPIC_SVR       0x0F0
#define LAPIC_ESR       0x280
#define LAPIC_ICR_LOW   0x300
#define LAPIC_ICR_HIGH  0x310
#define LAPIC_LVT_TIMER 0x320
#define LAPIC_LVT_THERMAL 0x330
#define LAPIC_LVT_LINT0 0x350
#define LAPIC_LVT_LINT1 0x360
#define LAPIC_LVT_ERROR 0x370
#define LAPIC_TIMER_INIT 0x380
#define LAPIC_TIMER_CUR 0x390
#define LAPIC_TIMER_DIV 0x3E0

#define SVR_ENABLE      (1u << 8)
#define LVT_MASKED      (1u << 16)
#define LVT_NMI         (4u << 8)
#define LVT_PERIODIC    (1u << 17)
#define LVT_TSC_DEADLINE (2u << 17)
#define MSR_TSC_DEADLINE 0x6E0
#define ICR_PENDING     (1u << 12)
#define TIMER_DIV_16    0x3
#define CALIBRATE_US    20000

static volatile uint32_t *lapic_regs;   /* xAPIC window, NULL in x2APIC mode */
static int x2apic;
static int lapic_ready;
static int lapic_announced;
static uint64_t lapic_timer_hz;         /* timer input after the divider */
static enum clock_tick_mode timer_mode; /* 0 until the boot CPU chose */
static uint64_t deadline_period;        /* TSC cycles per tick (deadline mode) */
static uint64_t next_deadline[MAXCPU];  /* each CPU's own slot */

/* Register access by xAPIC offset, through MMIO or the x2APIC MSR.
 * Per CPU: each CPU touches only its own APIC. */
static uint32_t lapic_read(uint32_t off)
{
	if (x2apic)
		return (uint32_t)rdmsr(0x800 + (off >> 4));
	return lapic_regs[off / 4];
}

static void lapic_write(uint32_t off, uint32_t v)
{
	if (x2apic)
		wrmsr(0x800 + (off >> 4), v);
	else
		lapic_regs[off / 4] = v;
}

/* 1 when some CPU of the MADT has an APIC id that the xAPIC's 8-bit
 * destination field cannot address (255 is the broadcast id). */
static int lapic_ids_need_x2apic(void)
{
	const struct acpi_madt_info *m = acpi_madt();
	for (int i = 0; i < m->cpu_count; i++)
		if (m->cpu_apic_ids[i] > 254)
			return 1;
	return 0;
}

/* CPUID.1:ECX[21]: the x2APIC interface exists. */
static int lapic_has_x2apic(void)
{
	uint32_t a, b, c, d;
	cpuid(1, 0, &a, &b, &c, &d);
	return (c >> 21) & 1;
}

/* See lapic.h. */
void lapic_init(uint64_t lapic_phys)
{
	uint64_t base = rdmsr(MSR_APIC_BASE);
	if (!(base & APIC_BASE_EN)) {
		base |= APIC_BASE_EN;
		wrmsr(MSR_APIC_BASE, base);
	}
	const char *why;
	enum clock_apic_mode mode = clock_apic_choose((base & APIC_BASE_EXTD) != 0, lapic_has_x2apic(),
						      lapic_ids_need_x2apic(), &why);
	if (mode == CLOCK_APIC_X2APIC && !(base & APIC_BASE_EXTD)) {
		base |= APIC_BASE_EXTD;
		wrmsr(MSR_APIC_BASE, base);
	}
	x2apic = (base & APIC_BASE_EXTD) != 0;
	if (!x2apic && !lapic_regs) {
		if (lapic_phys == 0)
			lapic_phys = base & 0xFFFFFFFFFF000ull;
		lapic_regs = vmm_map_mmio(lapic_phys, PAGE_SIZE, 0);
	}
	lapic_ready = 1;

	lapic_write(LAPIC_TPR, 0);
	lapic_write(LAPIC_LVT_TIMER, LVT_MASKED);
	lapic_write(LAPIC_LVT_LINT0, LVT_MASKED);
	lapic_write(LAPIC_LVT_LINT1, LVT_NMI);
	lapic_write(LAPIC_LVT_ERROR, LVT_MASKED);
	lapic_write(LAPIC_SVR, SVR_ENABLE | VEC_SPURIOUS);
	lapic_write(LAPIC_ESR, 0);   /* back-to-back writes clear the error status */
	lapic_write(LAPIC_ESR, 0);
	lapic_eoi();                 /* drop anything the firmware left in service */
	if (!lapic_announced)
		printk("lapic: id %u, %s (%s)\n", lapic_id(), x2apic ? "x2APIC mode" : "xAPIC mode", why);
	lapic_announced = 1;
}

/* See lapic.h. The xAPIC waits for acceptance are bounded: an APIC that
 * never accepts leaves the APs where they were, which costs only time. */
void lapic_park_others(void)
{
	uint64_t base = rdmsr(MSR_APIC_BASE);
	uint32_t icr = LAPIC_ICR_INIT | LAPIC_ICR_ASSERT | LAPIC_ICR_ALL_BUT_SELF;
	if (!(base & APIC_BASE_EN))
		return;
	if (base & APIC_BASE_EXTD) {
		wrmsr(0x800 + (LAPIC_ICR_LOW >> 4), icr);
		return;
	}
	volatile uint32_t *regs = phys_to_virt(base & 0xFFFFFFFFFF000ull);
	for (int i = 0; i < 1000000 && (regs[LAPIC_ICR_LOW / 4] & ICR_PENDING); i++)
		cpu_pause();
	regs[LAPIC_ICR_HIGH / 4] = 0;
	regs[LAPIC_ICR_LOW / 4] = icr;
	for (int i = 0; i < 1000000 && (regs[LAPIC_ICR_LOW / 4] & ICR_PENDING); i++)
		cpu_pause();
}

/* See lapic.h. */
void lapic_send_ipi(uint32_t dest, uint32_t icr_low)
{
	if (x2apic) {
		wrmsr(0x800 + (LAPIC_ICR_LOW >> 4), ((uint64_t)dest << 32) | icr_low);
		return;
	}
	while (lapic_read(LAPIC_ICR_LOW) & ICR_PENDING)
		cpu_pause();
	lapic_write(LAPIC_ICR_HIGH, dest << 24);
	lapic_write(LAPIC_ICR_LOW, icr_low);
	while (lapic_read(LAPIC_ICR_LOW) & ICR_PENDING)
		cpu_pause();
}

/* See lapic.h. A no-op before lapic_init(), so a stray early interrupt
 * cannot fault on an unmapped register page. */
void lapic_eoi(void)
{
	if (lapic_ready)
		lapic_write(LAPIC_EOI, 0);
}

/* See lapic.h. */
uint32_t lapic_id(void)
{
	uint32_t id = lapic_read(LAPIC_ID);
	return x2apic ? id : id >> 24;
}

/* See lapic.h. */
int lapic_is_x2apic(void)
{
	return x2apic;
}

/* Timer input frequency (after the divide-by-16), measured over
 * CALIBRATE_US of TSC time with the timer masked in one-shot mode. */
static uint64_t lapic_timer_calibrate(void)
{
	uint64_t tsc_hz = time_tsc_hz();
	KASSERT(tsc_hz != 0, "lapic timer calibration needs the TSC frequency");
	lapic_write(LAPIC_TIMER_DIV, TIMER_DIV_16);
	lapic_write(LAPIC_LVT_TIMER, LVT_MASKED);
	uint64_t wait = tsc_hz / (1000000 / CALIBRATE_US);
	/* Each register access sits on the same side of its TSC read, so the
	 * (slow, under emulation) accesses do not skew the ratio. */
	lapic_write(LAPIC_TIMER_INIT, 0xFFFFFFFFu);
	uint64_t t0 = rdtsc();
	while (rdtsc() - t0 < wait)
		cpu_pause();
	uint32_t left = lapic_read(LAPIC_TIMER_CUR);
	uint64_t t1 = rdtsc();
	lapic_write(LAPIC_TIMER_INIT, 0);
	/* counted stays far below 2^32 (a timer input under 400 GHz), so the
	 * product fits in 64 bits. */
	uint64_t counted = 0xFFFFFFFFull - left;
	return counted * tsc_hz / (t1 - t0);
}

/* CPUID.1:ECX[24]: the local APIC timer has TSC-deadline mode. */
static int lapic_has_tsc_deadline(void)
{
	uint32_t a, b, c, d;
	cpuid(1, 0, &a, &b, &c, &d);
	return (c >> 24) & 1;
}

/* Choose the tick's mode once (boot CPU) by clock_tick_choose() and log
 * it with its reason; the periodic timer is measured against the TSC. */
static void lapic_timer_choose(uint32_t hz)
{
	const char *why;
	int allowed = strcmp(cmdline_choice("tsc_deadline"), "off") != 0;
	timer_mode = clock_tick_choose(lapic_has_tsc_deadline(), allowed, time_tsc_hz(), hz,
				       &deadline_period, &why);
	if (timer_mode == CLOCK_TICK_TSC_DEADLINE) {
		printk("lapic: timer in TSC-deadline mode (%s), %lu TSC cycles per tick\n", why,
		       deadline_period);
		return;
	}
	printk("lapic: %s; periodic timer\n", why);
	lapic_timer_hz = lapic_timer_calibrate();
	printk("lapic: timer input %lu.%03lu MHz (bus clock / 16)\n",
	       lapic_timer_hz / 1000000, lapic_timer_hz / 1000 % 1000);
	KASSERT(lapic_timer_hz >= hz, "lapic timer runs at %lu Hz", lapic_timer_hz);
}

/* See lapic.h. */
void lapic_timer_start(uint32_t hz)
{
	if (timer_mode == 0)
		lapic_timer_choose(hz);
	if (timer_mode == CLOCK_TICK_TSC_DEADLINE) {
		/* The LVT first: a deadline written before the mode is set is lost. */
		lapic_write(LAPIC_LVT_TIMER, VEC_LAPIC_TIMER | LVT_TSC_DEADLINE);
		__atomic_thread_fence(__ATOMIC_SEQ_CST);
		uint64_t next = rdtsc() + deadline_period;
		next_deadline[cpu_current()] = next;
		wrmsr(MSR_TSC_DEADLINE, next);
		return;
	}
	lapic_write(LAPIC_TIMER_DIV, TIMER_DIV_16);
	lapic_write(LAPIC_LVT_TIMER, VEC_LAPIC_TIMER | LVT_PERIODIC);
	lapic_write(LAPIC_TIMER_INIT, (uint32_t)(lapic_timer_hz / hz));
}

/* See lapic.h. In TSC-deadline mode the next tick is one period after the
 * last deadline (no drift), or one period from now after a long stall. */
void lapic_timer_tick(void)
{
	if (timer_mode != CLOCK_TICK_TSC_DEADLINE)
		return;
	unsigned cpu = cpu_current();
	uint64_t now = rdtsc(), next = next_deadline[cpu] + deadline_period;
	if (next <= now)
		next = now + deadline_period;
	next_deadline[cpu] = next;
	wrmsr(MSR_TSC_DEADLINE, next);
}

/* See lapic.h. */
const char *lapic_timer_mode(void)
{
	return timer_mode == CLOCK_TICK_TSC_DEADLINE ? "TSC deadline" : timer_mode == CLOCK_TICK_PERIODIC ? "periodic" : "not started";
}

/* See lapic.h. Entries 0-5 are timer, thermal, performance counters,
 * LINT0, LINT1, error: the thermal one exists when the maximum is 5 or
 * more (the SDM lists it as implementation-specific). */
int lapic_has_thermal_lvt(void)
{
	return ((lapic_read(LAPIC_VERSION) >> 16) & 0xFF) >= 5;
}

/* See lapic.h. */
uint32_t lapic_thermal_lvt_read(void)
{
	return lapic_read(LAPIC_LVT_THERMAL);
}

/* See lapic.h. */
void lapic_thermal_lvt_write(uint32_t v)
{
	lapic_write(LAPIC_LVT_THERMAL, v);
}
