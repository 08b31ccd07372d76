/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * timer.h — one-shot timer callbacks, driven by the LAPIC tick.
 *
 * A timer is armed on the calling CPU's list and fires from that CPU's
 * tick (interrupts off, no list lock held) once its deadline has passed,
 * so the resolution is one tick (1/TIMER_HZ s). Callbacks must be short and
 * must not sleep; waking threads is fine.
 */
#ifndef MOSAIC_TIMER_H
#define MOSAIC_TIMER_H
#include <stdint.h>

struct timer {
	struct timer *next;
	uint64_t deadline_ns;           /* time_ns() at or after which it fires */
	void (*fn)(void *arg);
	void *arg;
	volatile int cpu;               /* list it is on, -1 when not armed */
};

#define TIMER_INIT { .next = 0, .deadline_ns = 0, .fn = 0, .arg = 0, .cpu = -1 }

/* Make t a disarmed timer (or use TIMER_INIT). */
void timer_init(struct timer *t);
/* Arm t to call fn(arg) after delay_ns. t must not be armed. Any context. */
void timer_arm(struct timer *t, uint64_t delay_ns, void (*fn)(void *), void *arg);
/* Disarm t: 1 if it was armed and will not fire, 0 if it already fired
 * or is firing now (its callback may still be running on another CPU). */
int timer_cancel(struct timer *t);
/* From the tick: run this CPU's expired timers. Interrupts off. */
void timer_tick(void);

#endif
