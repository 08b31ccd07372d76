/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * usb.c — the USB thread: finds the xHCI controllers among the PCI
 * functions (class 0x0C, subclass 0x03, interface 0x30), starts them, and
 * then serves them forever: events, port changes, endpoint resets,
 * keyboard repeat and LEDs. It sleeps on a semaphore that the controllers'
 * message interrupt and a timer both post, so it also works (polling every
 * 10 ms) where no interrupt arrives. The `usb` command shows the state.
 */
#include <dev/usb/xhci.h>
#include <kern/printk.h>
#include <sync/sem.h>
#include <shell/shell.h>
#include <thread/thread.h>
#include <sync/timer.h>
#include <arch/x86_64/trap/trap.h>
#include <dev/usb/usb.h>

#define VEC_XHCI        0x40
#define POLL_MS         10       /* no interrupts: how often to look */
#define IDLE_MS         250      /* interrupts work: a safety net */

struct spinlock usb_table_lock = SPINLOCK_INIT("usb tables");
static struct xhci controllers[XHCI_MAX_HC];
static int controller_count;
static int polling;              /* some controller has no interrupts */
static struct sem usb_sem;
static struct timer usb_timer = TIMER_INIT;
static volatile int usb_timer_armed;
static volatile int usb_started;
static volatile int usb_first_pass_done;

#define FIRST_PASS_WAIT_MS 3000  /* boot waits this long for the first devices */

/* Timer callback: wake the thread. Tick context. */
static void usb_timer_fn(void *arg)
{
	(void)arg;
	__atomic_store_n(&usb_timer_armed, 0, __ATOMIC_RELEASE);
	sem_post(&usb_sem);
}

/* See xhci.h. Sleeps until an interrupt or about ms have passed (the
 * timer has tick resolution). USB thread. */
void usb_sleep_ms(uint32_t ms)
{
	if (polling && ms > POLL_MS)
		ms = POLL_MS;
	if (!__atomic_load_n(&usb_timer_armed, __ATOMIC_ACQUIRE)) {
		usb_timer_armed = 1;
		timer_arm(&usb_timer, (uint64_t)ms * 1000000, usb_timer_fn, NULL);
	}
	sem_wait(&usb_sem);
}

/* See xhci.h. */
void usb_wake(void)
{
	sem_post(&usb_sem);
}

/* The controllers' message interrupt: acknowledge, wake the thread.
 * Interrupts off. */
static void usb_irq(struct trap_frame *tf)
{
	(void)tf;
	for (int i = 0; i < controller_count; i++)
		if (controllers[i].irq_mode && controllers[i].irq_mode[0] == 'M')
			xhci_irq_ack(&controllers[i]);
	sem_post(&usb_sem);
}

/* Start every xHCI controller PCI found (up to XHCI_MAX_HC). */
static void usb_start_controllers(void)
{
	for (int i = 0; i < pci_count(); i++) {
		const struct pci_dev *d = pci_get(i);
		if (d->class_code != 0x0C || d->subclass != 0x03 || d->prog_if != 0x30)
			continue;
		if (controller_count == XHCI_MAX_HC) {
			printk("usb: more than %d xHCI controllers; the rest are not used\n", XHCI_MAX_HC);
			break;
		}
		struct xhci *hc = &controllers[controller_count];
		if (xhci_start(hc, d, VEC_XHCI) == 0) {
			if (hc->irq_mode[0] != 'M')
				polling = 1;
			__atomic_store_n(&controller_count, controller_count + 1, __ATOMIC_RELEASE);
		}
	}
	if (controller_count == 0)
		printk("usb: no xHCI controller; no USB keyboard\n");
}

/* The USB thread. */
static void usb_main(void *arg)
{
	(void)arg;
	usb_sleep_ms(20);                /* ports just powered: let them settle */
	for (int pass = 0;; pass++) {
		for (int i = 0; i < controller_count; i++) {
			struct xhci *hc = &controllers[i];
			xhci_poll_events(hc);
			for (unsigned p = 1; p <= hc->max_ports; p++) {
				uint8_t bit = (uint8_t)(1u << ((p - 1) % 8));
				if (hc->port_pending[(p - 1) / 8] & bit) {
					hc->port_pending[(p - 1) / 8] &= (uint8_t)~bit;
					xhci_port_check(hc, p);
				}
			}
			xhci_dev_service(hc);
		}
		usb_msd_service();
		if (pass == 0)
			__atomic_store_n(&usb_first_pass_done, 1, __ATOMIC_RELEASE);
		uint32_t next = usbkbd_service();
		usb_sleep_ms(next && next < IDLE_MS ? next : IDLE_MS);
	}
}

/* See usb.h. Starts the controllers here, so the boot log is complete
 * before the shell's prompt, then hands them to the thread. */
void usb_init(void)
{
	if (!thread_sched_running()) {
		printk("usb: the scheduler is off (sched=off); USB is not started\n");
		return;
	}
	sem_init(&usb_sem, 0, "usb");
	trap_set_handler(VEC_XHCI, usb_irq);
	usb_start_controllers();
	usb_started = 1;
	if (controller_count == 0)
		return;
	struct thread_attr attr = { .detached = 1 };
	if (!thread_create("usb", usb_main, NULL, &attr)) {
		printk("usb: out of memory for the USB thread\n");
		return;
	}
	/* The devices present at boot are in the log before the prompt. */
	for (int ms = 0; ms < FIRST_PASS_WAIT_MS; ms += 10) {
		if (__atomic_load_n(&usb_first_pass_done, __ATOMIC_ACQUIRE))
			return;
		thread_sleep_ns(10000000);
	}
	printk("usb: devices still being set up after %u ms; going on\n", FIRST_PASS_WAIT_MS);
}

static const char *const speed_text[] = { "?", "full", "low", "high", "super", "super+" };

/* `usb`: controllers, ports with devices, keyboards. */
static int cmd_usb(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	if (!usb_started) {
		printk("usb: not started (yet)\n");
		return 0;
	}
	for (int i = 0; i < controller_count; i++) {
		struct xhci *hc = &controllers[i];
		printk("xhci %s: %u ports, interrupts %s (%lu), %lu events, %lu port changes, "
		       "%lu stale events\n", hc->name, hc->max_ports, hc->irq_mode, hc->irqs, hc->events,
		       hc->port_changes, hc->stale_events);
		uint64_t flags = spin_lock_irqsave(&usb_table_lock);
		for (unsigned p = 1; p <= hc->max_ports; p++) {
			struct usb_dev *d = hc->port_dev[p - 1];
			if (d)
				printk("  port %u (USB %u): slot %u, %04x:%04x, %s speed, class %u, %s\n", p,
				       hc->port_major[p - 1], d->slot, d->desc.vendor, d->desc.product,
				       speed_text[d->speed < 6 ? d->speed : 0],
				       d->desc.dev_class ? d->desc.dev_class : d->first_class, d->driver);
		}
		spin_unlock_irqrestore(&usb_table_lock, flags);
	}
	usb_msd_print();
	usbkbd_print();
	return 0;
}
SHELL_COMMAND(usb, 0, 0, "", "USB controllers, devices and keyboards", cmd_usb);
