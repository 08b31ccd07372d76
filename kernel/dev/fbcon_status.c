/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * fbcon_status.c — the framebuffer console's thread and its status line.
 *
 * The thread sleeps on a semaphore that the boot CPU's tick posts when
 * text waits to be drawn (at most every FBCON_FLUSH_NS) or the status
 * line is due (every FBCON_STATUS_NS). Both periods are guest time, not
 * counted ticks: a host that starves the boot CPU's vCPU drops ticks, and
 * the next tick that arrives still draws. The status line, on the last
 * character row, shows the scheduler policy, whether the HFI driver
 * publishes, the uptime, and each online CPU's busy percentage on a
 * background coloured by its core type (P, E, LP-E), so someone watching
 * a benchmark can read the machine. While the screen shows the scrollback
 * (Shift-PgUp), the line starts with how far back it is. It goes to the
 * framebuffer only, never to the serial port.
 */
#include <dev/fbcon.h>
#include <arch/x86_64/arch_hooks.h>
#include <lib/cpu_desc.h>
#include <kern/printk.h>
#include <sync/sem.h>
#include <arch/x86_64/smp/smp.h>
#include <thread/thread.h>
#include <arch/x86_64/clock/time.h>
#include <dev/hfi/hfi_kernel.h>
#include <dev/fbcon_internal.h>
#include <sched/sched.h>

#define STATUS_MAX_COLS 512

struct status_cell {
	uint32_t glyph, fg, bg;
};

static struct sem fbcon_sem;
static volatile int thread_running;
static volatile int status_due;
static uint64_t last_flush_ns, last_status_ns;
static struct status_cell line[STATUS_MAX_COLS], drawn[STATUS_MAX_COLS];
static uint64_t idle_before[MAXCPU];
static uint64_t when_before;

/* See fbcon.h. Boot CPU's tick, interrupts off: sem_post is safe here
 * (no spinlock can be held by the code this interrupt interrupted). */
void fbcon_tick(void)
{
	if (!thread_running)
		return;
	int post = 0;
	uint64_t now = time_ns();
	if (fbcon_pending() && now - last_flush_ns >= FBCON_FLUSH_NS) {
		last_flush_ns = now;
		post = 1;
	}
	if (fbcon.status_row != UINT32_MAX && now - last_status_ns >= FBCON_STATUS_NS) {
		last_status_ns = now;
		status_due = 1;
		post = 1;
	}
	if (post)
		sem_post(&fbcon_sem);
}

/* Append text at *col in the given colours. */
static void put_text(uint32_t *col, const char *s, uint32_t fg, uint32_t bg)
{
	for (; *s && *col < fbcon.cols && *col < STATUS_MAX_COLS; s++, (*col)++)
		line[*col] = (struct status_cell){ psf_glyph(&fbcon.font, (uint8_t)*s), fg, bg };
}

/* Background of a CPU's load figure by its core type. */
static uint32_t type_colour(unsigned cpu)
{
	const struct cpu_desc *d = smp_cpu_desc(cpu);
	switch (d ? d->core_type : CPU_CORE_UNKNOWN) {
	case CPU_CORE_P:   return fbcon_color(0xB0, 0x40, 0x10);
	case CPU_CORE_E:   return fbcon_color(0x20, 0x50, 0xB0);
	case CPU_CORE_LPE: return fbcon_color(0x20, 0x80, 0x40);
	default:           return fbcon_color(0x50, 0x50, 0x50);
	}
}

/* Build and draw the status line (only the cells that changed). */
static void status_draw(void)
{
	uint32_t white = fbcon_color(0xFF, 0xFF, 0xFF), grey = fbcon_color(0x30, 0x30, 0x30);
	uint32_t col = 0;
	char buf[64];
	uint64_t now = time_ns(), span = now - when_before;
	uint64_t up = now / 1000000000ull;
	uint32_t kept, back = fbcon_view_back(&kept);
	if (back) {
		ksnprintf(buf, sizeof(buf), " %u/%u lines back, Shift-PgDn ", back, kept);
		put_text(&col, buf, fbcon_color(0, 0, 0), fbcon_color(0xE0, 0xC0, 0x20));
	}
	ksnprintf(buf, sizeof(buf), " Mosaic | %s | HFI %s | up %lu:%02lu:%02lu |",
		  sched_policy_name(), hfi_publishing() ? "on" : "off",
		  up / 3600, up / 60 % 60, up % 60);
	put_text(&col, buf, white, grey);
	unsigned n = smp_cpu_count();
	for (unsigned c = 0; c < n; c++) {
		if (!smp_cpu_online(c))
			continue;
		if (col + 4 > fbcon.cols) {
			ksnprintf(buf, sizeof(buf), "+%u", n - c);
			put_text(&col, buf, white, grey);
			break;
		}
		uint64_t idle = thread_idle_ns(c), d = idle - idle_before[c];
		idle_before[c] = idle;
		uint64_t busy = when_before == 0 || span == 0 || d >= span ? 0 : 100 - d * 100 / span;
		put_text(&col, " ", white, fbcon.px_bg);
		if (busy >= 100)
			ksnprintf(buf, sizeof(buf), "##");
		else
			ksnprintf(buf, sizeof(buf), "%2lu", busy);
		put_text(&col, buf, white, type_colour(c));
	}
	when_before = now;
	put_text(&col, "   ", white, fbcon.px_bg);
	put_text(&col, " P-core ", white, fbcon_color(0xB0, 0x40, 0x10));
	put_text(&col, " E-core ", white, fbcon_color(0x20, 0x50, 0xB0));
	put_text(&col, " LP E-core ", white, fbcon_color(0x20, 0x80, 0x40));
	while (col < fbcon.cols && col < STATUS_MAX_COLS)
		put_text(&col, " ", white, fbcon.px_bg);
	for (uint32_t c = 0; c < col; c++) {
		if (line[c].glyph == drawn[c].glyph && line[c].fg == drawn[c].fg && line[c].bg == drawn[c].bg)
			continue;
		fbcon_draw_glyph(c, fbcon.status_row, line[c].glyph, line[c].fg, line[c].bg);
		drawn[c] = line[c];
	}
}

/* The thread: draw text as it comes, the status line when due. */
static void fbcon_main(void *arg)
{
	(void)arg;
	for (uint32_t c = 0; c < STATUS_MAX_COLS; c++)
		drawn[c].glyph = UINT32_MAX;
	fbcon_set_deferred();
	thread_running = 1;
	for (;;) {
		sem_wait(&fbcon_sem);
		if (fbcon_pending())
			fbcon_flush_deferred();
		if (status_due) {
			status_due = 0;
			status_draw();
		}
	}
}

/* See fbcon.h. */
void fbcon_start_thread(void)
{
	if (!fbcon.ready || !thread_sched_running())
		return;
	sem_init(&fbcon_sem, 0, "fbcon");
	struct thread_attr attr = { .detached = 1 };
	if (!thread_create("fbcon", fbcon_main, NULL, &attr))
		printk("fbcon: out of memory for its thread; drawing at once\n");
}
