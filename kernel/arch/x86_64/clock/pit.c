/* SPDX-License-Identifier: BSD-2-Clause */
/* pit.c — 8254 programmable interval timer, channel 2, polled. */
#include <arch/x86_64/clock/pit.h>
#include <arch/x86_64/cpu/cpu.h>

#define PIT_HZ       1193182u
#define PIT_CH2      0x42
#define PIT_CMD      0x43
#define PORT_B       0x61     /* bit 0 gate 2, bit 1 speaker, bit 5 OUT2 */
#define PORTB_GATE2  0x01
#define PORTB_SPKR   0x02
#define PORTB_OUT2   0x20

/* See pit.h. Mode 0 (interrupt on terminal count): OUT2 rises when the
 * count reaches zero; the gate holds the count until we start the TSC. */
uint64_t pit_measure_tsc_hz(uint32_t ms)
{
	if (ms == 0 || ms > 50)
		ms = 50;
	uint32_t count = PIT_HZ / 1000 * ms;
	uint8_t portb = inb(PORT_B) & ~(PORTB_GATE2 | PORTB_SPKR);
	outb(PORT_B, portb);                   /* gate low: hold */
	outb(PIT_CMD, 0xB0);                   /* channel 2, lo/hi byte, mode 0, binary */
	outb(PIT_CH2, count & 0xFF);
	outb(PIT_CH2, count >> 8);
	uint64_t t0 = rdtsc();
	outb(PORT_B, portb | PORTB_GATE2);     /* gate high: count */
	/* A port read takes about a microsecond; 10^7 of them is far beyond 50 ms. */
	for (uint32_t i = 0; i < 10000000u; i++) {
		if (inb(PORT_B) & PORTB_OUT2) {
			uint64_t t1 = rdtsc();
			outb(PORT_B, portb);
			return (t1 - t0) * PIT_HZ / count;
		}
	}
	outb(PORT_B, portb);
	return 0;
}
