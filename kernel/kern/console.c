/* SPDX-License-Identifier: BSD-2-Clause */
/* console.c — fan-out of kernel output to sinks and the log of all output
 * (the input side is the device of console_input.c). */
#include <kern/console.h>
#include <arch/x86_64/cpu/cpu.h>
#include <arch/x86_64/spinlock.h>
#include <lib/sysctl.h>
#include <arch/x86_64/smp/smp.h>
#include <arch/x86_64/clock/time.h>
#include <kern/printk.h>

/* Guards the sink list, the log ring and every sink's own state: one
 * console_write() reaches all sinks before another CPU's may start, so
 * lines from different CPUs never mix (printk writes a line at once). */
static struct spinlock console_lock = SPINLOCK_INIT("console");
static struct console_sink *sinks;

/* Everything written, in two parts: the boot log (the first
 * CONSOLE_BOOT_LOG_SIZE bytes up to the shell's start), which nothing
 * later overwrites, and after it a ring of the newest CONSOLE_LOG_SIZE
 * bytes. Replayed to a sink that registers late (the framebuffer comes up
 * after memory), and `dmesg`. */
static char boot_log[CONSOLE_BOOT_LOG_SIZE];
static size_t boot_logged;     /* bytes in boot_log */
static int boot_over;          /* console_boot_done(): later output goes to the ring */
static char log_ring[CONSOLE_LOG_SIZE];
static uint64_t log_written;   /* total bytes past the boot log; the ring holds the last ones */

/* Calls fn on the logged output in order: the boot log, then what the
 * ring kept, in at most two pieces. Caller holds the console lock. */
static void log_replay(void (*fn)(const char *, size_t))
{
	uint64_t kept = log_written < CONSOLE_LOG_SIZE ? log_written : CONSOLE_LOG_SIZE;
	size_t start = (size_t)((log_written - kept) % CONSOLE_LOG_SIZE);
	size_t first = kept < CONSOLE_LOG_SIZE - start ? (size_t)kept : CONSOLE_LOG_SIZE - start;
	fn(boot_log, boot_logged);
	fn(log_ring + start, first);
	if (kept > first)
		fn(log_ring, (size_t)kept - first);
}

/* Boot-time: appends to the sink list; a sink that asks for it first
 * receives the output logged so far. Takes the console lock. */
void console_register(struct console_sink *sink, int replay)
{
	uint64_t flags = spin_lock_irqsave(&console_lock);
	if (replay)
		log_replay(sink->write);
	sink->next = NULL;
	struct console_sink **p = &sinks;
	while (*p)
		p = &(*p)->next;
	*p = sink;
	spin_unlock_irqrestore(&console_lock, flags);
}

#define HOLD_NOBODY 0xFFFFFFFFu
#define HOLD_WAIT_US 1000000   /* how long a block waits for the console */
/* The CPU writing a block (console_hold_begin()), HOLD_NOBODY when none:
 * its console_write() calls go out without taking the lock again. */
static volatile uint32_t hold_cpu = HOLD_NOBODY;
static int hold_locked;   /* the block holds the console lock (else it writes without) */
static int hold_depth;    /* blocks nested in it (an NMI inside a tick's report) */

/* Log buf and hand it to every sink. Caller holds the console lock, or
 * is the CPU of a block. */
static void console_emit(const char *buf, size_t len)
{
	size_t i = 0;
	for (; i < len && !boot_over && boot_logged < CONSOLE_BOOT_LOG_SIZE; i++)
		boot_log[boot_logged++] = buf[i];
	for (; i < len; i++)
		log_ring[log_written++ % CONSOLE_LOG_SIZE] = buf[i];
	for (struct console_sink *s = sinks; s; s = s->next)
		s->write(buf, len);
}

/* See console.h. */
int (*console_tap)(const char *buf, size_t len);

/* Under the console lock (interrupts off), so neither an interrupt
 * handler's output nor another CPU's lands in the middle of this write;
 * inside a block, on the block's CPU, under the block's terms. The tap
 * (a capture of this thread's output) sees it first. */
void console_write(const char *buf, size_t len)
{
	int (*tap)(const char *, size_t) = __atomic_load_n(&console_tap, __ATOMIC_ACQUIRE);
	if (tap && tap(buf, len))
		return;
	if (__atomic_load_n(&hold_cpu, __ATOMIC_ACQUIRE) == cpu_current()) {
		console_emit(buf, len);
		return;
	}
	uint64_t flags = spin_lock_irqsave(&console_lock);
	console_emit(buf, len);
	spin_unlock_irqrestore(&console_lock, flags);
}

/* See console.h. Two bounded waits, never an unbounded spin: an NMI may
 * have interrupted anything, also a CPU that will never let go. First the
 * block token (another CPU's block: it ends, or after HOLD_WAIT_US its
 * CPU is taken for stuck and the token taken from it); then the console
 * lock, with the NMI-safe trylock (no lock-order checker). When this CPU
 * holds the lock already (the NMI came in the middle of its own
 * console_write()) or the lock stays taken for HOLD_WAIT_US (its holder
 * is stuck), the block writes without it: the one line it interrupted may
 * be cut, or a stuck CPU's partial line mixed in, which beats printing
 * nothing. An NMI that comes inside this CPU's own block nests in it.
 * Interrupts off. */
void console_hold_begin(void)
{
	uint32_t me = cpu_current(), nobody = HOLD_NOBODY;
	if (__atomic_load_n(&hold_cpu, __ATOMIC_ACQUIRE) == me) {
		hold_depth++;
		return;
	}
	for (uint64_t waited = 0; !__atomic_compare_exchange_n(&hold_cpu, &nobody, me, 0,
							     __ATOMIC_ACQUIRE, __ATOMIC_RELAXED);
	     waited += 10) {
		if (waited >= HOLD_WAIT_US) {
			__atomic_store_n(&hold_cpu, me, __ATOMIC_RELEASE);
			break;
		}
		nobody = HOLD_NOBODY;
		time_udelay(10);
	}
	int locked = 0;
	if (!spin_held(&console_lock))
		for (uint64_t waited = 0; !(locked = spin_trylock_nmi(&console_lock)) &&
					  waited < HOLD_WAIT_US; waited += 10)
			time_udelay(10);
	hold_locked = locked;
}

/* See console.h. The block's CPU, interrupts off. */
void console_hold_end(void)
{
	if (hold_depth) {
		hold_depth--;
		return;
	}
	int locked = hold_locked;
	hold_locked = 0;
	__atomic_store_n(&hold_cpu, HOLD_NOBODY, __ATOMIC_RELEASE);
	if (locked)
		spin_unlock_nmi(&console_lock);
}

/* See console.h. */
void console_boot_done(void)
{
	uint64_t flags = spin_lock_irqsave(&console_lock);
	boot_over = 1;
	spin_unlock_irqrestore(&console_lock, flags);
}

/* Writes the log to every sink (for `dmesg`): the boot log, a line saying
 * how much output between it and the ring's oldest byte was not kept, and
 * the ring. A snapshot of the ring is taken first, under the console
 * lock, so the replay does not chase its own output; the boot log no
 * longer changes once the shell runs. One caller at a time (the shell). */
void console_dump_log(void)
{
	static char snapshot[CONSOLE_LOG_SIZE];
	uint64_t flags = spin_lock_irqsave(&console_lock);
	size_t n = 0, boot = boot_logged;
	uint64_t kept = log_written < CONSOLE_LOG_SIZE ? log_written : CONSOLE_LOG_SIZE;
	uint64_t lost = log_written - kept;
	for (uint64_t i = log_written - kept; i < log_written; i++)
		snapshot[n++] = log_ring[i % CONSOLE_LOG_SIZE];
	spin_unlock_irqrestore(&console_lock, flags);
	console_write(boot_log, boot);
	if (lost) {
		char line[96];
		int len = ksnprintf(line, sizeof(line), "\n[dmesg: %lu bytes of output after the boot "
				    "log not kept]\n", lost);
		console_write(line, (size_t)len);
	}
	console_write(snapshot, n);
}

static volatile int panicking;

/* See console.h. Only the panicking CPU, after the others have stopped:
 * one of them may have held the lock when its NMI arrived. */
void console_break_lock(void)
{
	panicking = 1;
	hold_locked = 0;   /* a stopped CPU may have been in a block */
	hold_depth = 0;
	__atomic_store_n(&hold_cpu, HOLD_NOBODY, __ATOMIC_RELEASE);
	spin_break(&console_lock);
}

/* See console.h. */
int console_panicking(void)
{
	return panicking;
}

/* See console.h. */
uint64_t console_log_total(void)
{
	return boot_logged + log_written;
}

/* See console.h. Stream position p is boot_log[p] below boot_logged, else
 * the ring's byte p - boot_logged while the ring still holds it. */
size_t console_log_read(uint64_t from, char *buf, size_t len, uint64_t *first)
{
	uint64_t flags = 0;
	if (!panicking)
		flags = spin_lock_irqsave(&console_lock);
	uint64_t oldest = boot_logged + (log_written > CONSOLE_LOG_SIZE ? log_written - CONSOLE_LOG_SIZE : 0);
	uint64_t total = boot_logged + log_written, p = from;
	if (p >= boot_logged && p < oldest)
		p = oldest;
	*first = p;
	size_t n = 0;
	for (; n < len && p < total; n++, p++)
		buf[n] = p < boot_logged ? boot_log[p] : log_ring[(p - boot_logged) % CONSOLE_LOG_SIZE];
	if (!panicking)
		spin_unlock_irqrestore(&console_lock, flags);
	return n;
}

/* See console.h. */
size_t console_boot_log(const char **log)
{
	*log = boot_log;
	return boot_over ? boot_logged : 0;
}
