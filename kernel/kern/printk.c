/* SPDX-License-Identifier: BSD-2-Clause */
/* printk.c — formatted output to every console, and its rate-limited
 * form for messages user programs can trigger. */
#include <kern/printk.h>
#include <kern/console.h>
#include <arch/x86_64/spinlock.h>
#include <lib/sysctl.h>
#include <arch/x86_64/clock/time.h>

/* The rate of each source of printk_rated(): Linux's default for its
 * printk_ratelimit() (10 messages per 5 s). */
static int64_t rate_burst = 10, rate_interval_ms = 5000;
static int64_t rate_held;   /* messages held back in all (atomic) */
static struct spinlock rate_lock = SPINLOCK_INIT("printk rate");
SYSCTL_INT(kern_log_rate_burst, "kern.log.rate_burst", &rate_burst, 1, 0, 1000000,
	   "messages a user program can trigger (refused programs, faults, refused charges): "
	   "how many of one source pass per kern.log.rate_interval_ms (0: all)");
SYSCTL_INT(kern_log_rate_interval_ms, "kern.log.rate_interval_ms", &rate_interval_ms, 1, 0,
	   3600000, "the window of kern.log.rate_burst, in ms (0: every message passes)");
SYSCTL_INT(kern_log_suppressed, "kern.log.suppressed", &rate_held, 0, 0, 0,
	   "messages held back by their source's rate since boot");

/* Format into a stack buffer and write it out in one piece, so lines from
 * different contexts do not interleave mid-line. Longer output is cut at
 * 512 bytes with a marker. Takes the console lock (inside console_write). */
void vprintk(const char *fmt, va_list ap)
{
	char buf[512];
	int n = kvsnprintf(buf, sizeof(buf), fmt, ap);
	if (n >= (int)sizeof(buf)) {
		console_write(buf, sizeof(buf) - 1);
		console_write("[...]\n", 6);
		return;
	}
	console_write(buf, (size_t)n);
}

void printk(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vprintk(fmt, ap);
	va_end(ap);
}

/* See printk.h. The rate lock is let go before printing, so it never
 * nests the console's; any context but NMI. */
void printk_rated(struct printk_rate *r, const char *fmt, ...)
{
	uint64_t interval = (uint64_t)__atomic_load_n(&rate_interval_ms, __ATOMIC_RELAXED) * 1000000;
	uint32_t burst = (uint32_t)__atomic_load_n(&rate_burst, __ATOMIC_RELAXED), before;
	uint64_t flags = spin_lock_irqsave(&rate_lock);
	int pass = ratelimit_pass(&r->rl, time_ns(), interval, burst, &before);
	spin_unlock_irqrestore(&rate_lock, flags);
	if (!pass) {
		__atomic_fetch_add(&rate_held, 1, __ATOMIC_RELAXED);
		return;
	}
	if (before)
		printk("%s: %u messages suppressed\n", r->source, before);
	va_list ap;
	va_start(ap, fmt);
	vprintk(fmt, ap);
	va_end(ap);
}
