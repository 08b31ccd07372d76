/* SPDX-License-Identifier: BSD-2-Clause */
/* console_input.c — the console's input device: one ring that the
 * serial port, the PS/2 keyboard and USB keyboards push bytes into from
 * their interrupts, and the shell (and a foreground user program) read,
 * sleeping on a wait queue until a byte comes (console_input.h). The
 * output side, console.c, calls nothing above it; this file is the path
 * that sleeps. The serial port (kernel/arch/x86_64/serial.c) reaches it
 * through arch_hooks.h. */
#include <dev/console_input.h>
#include <dev/fbcon.h>
#include <dev/keymap.h>
#include <arch/x86_64/arch_hooks.h>
#include <arch/x86_64/spinlock.h>
#include <lib/sysctl.h>
#include <sync/waitq.h>

#define INPUT_RING 256
static volatile char input_ring[INPUT_RING];
static volatile unsigned input_head, input_tail;   /* head: next write */
/* Readers sleep here; its lock guards the input ring. */
static struct waitq input_wq = WAITQ_INIT("console input");

static int64_t input_lost;          /* bytes dropped on a full ring */
static void (*input_room_fn)(void); /* a held-back source, called when room comes */
SYSCTL_INT(kern_console_input_lost, "kern.console.input_lost", &input_lost, 0, 0, 0,
	   "console input bytes dropped because the input ring was full (the serial port "
	   "holds its bytes instead)");

/* Queues c; 1, or 0 (counted) when full. Caller holds the input lock. */
static int input_push_locked(char c)
{
	unsigned next = (input_head + 1) % INPUT_RING;
	if (next == input_tail) {
		input_lost++;
		return 0;
	}
	input_ring[input_head] = c;
	input_head = next;
	waitq_wake_all_locked(&input_wq);
	return 1;
}

/* See console_input.h. */
int console_input_push(char c)
{
	spin_lock(&input_wq.lock);
	int queued = input_push_locked(c);
	spin_unlock(&input_wq.lock);
	return queued;
}

/* See console_input.h. */
void console_input_key(int n, const char *out)
{
	if (n == KEYMAP_VIEW_BACK || n == KEYMAP_VIEW_FORWARD) {
		fbcon_view_page(n == KEYMAP_VIEW_BACK);
		return;
	}
	if (n > 0)
		fbcon_view_live();
	for (int i = 0; i < n; i++)
		console_input_push(out[i]);
}

/* See console_input.h. */
unsigned console_input_room(void)
{
	spin_lock(&input_wq.lock);
	unsigned room = (input_tail + INPUT_RING - input_head - 1) % INPUT_RING;
	spin_unlock(&input_wq.lock);
	return room;
}

/* See console_input.h. */
void console_input_on_room(void (*fn)(void))
{
	uint64_t flags = spin_lock_irqsave(&input_wq.lock);
	if ((input_head + 1) % INPUT_RING != input_tail)
		fn();   /* the reader made room meanwhile: no pop may come to call it */
	else
		input_room_fn = fn;
	spin_unlock_irqrestore(&input_wq.lock, flags);
}

/* Takes the next byte into *c; 1 if there was one. Caller holds the input
 * queue's lock. */
static int console_input_pop(char *c)
{
	if (input_tail == input_head)
		return 0;
	*c = input_ring[input_tail];
	input_tail = (input_tail + 1) % INPUT_RING;
	if (input_room_fn) {   /* a held-back source may deliver again */
		void (*fn)(void) = input_room_fn;
		input_room_fn = NULL;
		fn();
	}
	return 1;
}

/* Single consumer (the shell). The ring is tested under the queue's lock
 * and the reader sleeps on it, so a byte pushed in between still wakes
 * it; before the scheduler runs, the sleep is sti;hlt. */
char console_getc(void)
{
	char c;
	uint64_t flags = spin_lock_irqsave(&input_wq.lock);
	while (!console_input_pop(&c))
		waitq_sleep_locked(&input_wq);
	spin_unlock_irqrestore(&input_wq.lock, flags);
	return c;
}

/* See console_input.h. */
int console_peekc(char *c)
{
	uint64_t flags = spin_lock_irqsave(&input_wq.lock);
	int got = input_tail != input_head;
	if (got)
		*c = input_ring[input_tail];
	spin_unlock_irqrestore(&input_wq.lock, flags);
	return got;
}

/* See console_input.h. */
int console_trygetc(char *c)
{
	uint64_t flags = spin_lock_irqsave(&input_wq.lock);
	int got = console_input_pop(c);
	spin_unlock_irqrestore(&input_wq.lock, flags);
	return got;
}
