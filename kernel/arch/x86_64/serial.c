/* SPDX-License-Identifier: BSD-2-Clause */
/* serial.c — COM1 16550 UART: polled output, interrupt-driven input. */
#include <arch/x86_64/serial.h>
#include <kern/console.h>
#include <arch/x86_64/arch_hooks.h>
#include <arch/x86_64/cpu/cpu.h>
#include <arch/x86_64/trap/trap.h>
#include <arch/x86_64/intr/ioapic.h>

#define COM1 0x3F8
#define UART_DATA 0
#define UART_IER  1
#define UART_FCR  2
#define UART_LCR  3
#define UART_MCR  4
#define UART_LSR  5
#define UART_SCR  7
#define LSR_DATA_READY 0x01
#define LSR_THR_EMPTY  0x20
#define COM1_ISA_IRQ 4

static int serial_present;

/* Polls for transmit room; gives up after a bounded wait so a dead UART
 * cannot hang the kernel. Caller holds the console lock. */
static void serial_putc(char c)
{
	for (int i = 0; i < 100000 && !(inb(COM1 + UART_LSR) & LSR_THR_EMPTY); i++)
		cpu_pause();
	outb(COM1 + UART_DATA, (uint8_t)c);
}

static void serial_write(const char *buf, size_t len)
{
	if (!serial_present)
		return;
	for (size_t i = 0; i < len; i++) {
		if (buf[i] == '\n')
			serial_putc('\r');
		serial_putc(buf[i]);
	}
}

static struct console_sink serial_sink = { .name = "serial", .write = serial_write };

/* Boot-time: probes the scratch register, programs 115200 8N1. */
void serial_init(void)
{
	outb(COM1 + UART_SCR, 0x5A);
	serial_present = inb(COM1 + UART_SCR) == 0x5A;
	if (!serial_present)
		return;
	outb(COM1 + UART_IER, 0x00);
	outb(COM1 + UART_LCR, 0x80);          /* divisor latch */
	outb(COM1 + UART_DATA, 0x01);         /* 115200 baud */
	outb(COM1 + UART_IER, 0x00);
	outb(COM1 + UART_LCR, 0x03);          /* 8N1 */
	outb(COM1 + UART_FCR, 0xC7);          /* FIFO on, cleared, 14-byte trigger */
	outb(COM1 + UART_MCR, 0x0B);          /* DTR, RTS, OUT2 (IRQ gate) */
	console_register(&serial_sink, 0);
}

/* Called by the console once its reader frees room: receive interrupts
 * on again; bytes the UART held (QEMU holds the rest of its input behind
 * them) raise one at once. Interrupts off. */
static void serial_resume(void)
{
	outb(COM1 + UART_IER, 0x01);
}

/* Interrupt context: drain the receive FIFO into the console ring while
 * it has room; when it is full, leave the bytes in the UART (receive
 * interrupts off until serial_resume), so input waits instead of being
 * lost. CR, LF and CR LF each end one line; other bytes pass through. */
static void serial_irq(struct trap_frame *tf)
{
	static int last_was_cr;
	(void)tf;
	while (inb(COM1 + UART_LSR) & LSR_DATA_READY) {
		if (console_input_room() == 0) {
			outb(COM1 + UART_IER, 0x00);
			console_input_on_room(serial_resume);
			return;
		}
		char c = (char)inb(COM1 + UART_DATA);
		if (c == '\n' && last_was_cr) {
			last_was_cr = 0;
			continue;
		}
		last_was_cr = c == '\r';
		console_input_push(c == '\r' ? '\n' : c);
	}
}

/* Boot-time, after ioapic_init(). */
void serial_enable_input_irq(void)
{
	if (!serial_present)
		return;
	trap_set_handler(VEC_ISA_BASE + COM1_ISA_IRQ, serial_irq);
	ioapic_route_isa(COM1_ISA_IRQ, VEC_ISA_BASE + COM1_ISA_IRQ);
	outb(COM1 + UART_IER, 0x01);          /* receive data available */
	serial_irq(NULL);                     /* take anything already queued */
}
