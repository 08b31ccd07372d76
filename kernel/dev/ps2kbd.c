/* SPDX-License-Identifier: BSD-2-Clause */
/* ps2kbd.c — the i8042 keyboard controller, first port, with the
 * controller translating to scancode set 1; bytes are decoded by keymap.c
 * and pushed into the console input ring. */
#include <dev/keyboard.h>
#include <dev/console_input.h>
#include <arch/x86_64/cpu/cpu.h>
#include <arch/x86_64/intr/ioapic.h>
#include <kern/printk.h>
#include <arch/x86_64/clock/time.h>
#include <arch/x86_64/trap/trap.h>
#include <dev/keymap.h>

#define I8042_DATA   0x60
#define I8042_STATUS 0x64    /* read */
#define I8042_CMD    0x64    /* write */
#define ST_OUT_FULL  0x01
#define ST_IN_FULL   0x02
#define ST_AUX_DATA  0x20    /* output byte came from the second port */

#define CMD_READ_CONFIG  0x20
#define CMD_WRITE_CONFIG 0x60
#define CMD_DISABLE_AUX  0xA7
#define CMD_SELF_TEST    0xAA
#define CMD_ENABLE_KBD   0xAE
#define CMD_DISABLE_KBD  0xAD

#define CFG_KBD_IRQ      0x01
#define CFG_AUX_IRQ      0x02
#define CFG_KBD_CLOCK_OFF 0x10
#define CFG_TRANSLATE    0x40

#define KBD_ENABLE_SCAN  0xF4
#define KBD_ACK          0xFA
#define KBD_IRQ          1
#define TIMEOUT_US       100000

static struct keymap_state keymap;

/* Wait until the controller can take a byte; 0 on success, -1 on timeout. */
static int i8042_wait_write(void)
{
	for (int i = 0; i < TIMEOUT_US / 10; i++) {
		if (!(inb(I8042_STATUS) & ST_IN_FULL))
			return 0;
		time_udelay(10);
	}
	return -1;
}

/* Next byte from the controller, -1 after the timeout. */
static int i8042_read(void)
{
	for (int i = 0; i < TIMEOUT_US / 10; i++) {
		if (inb(I8042_STATUS) & ST_OUT_FULL)
			return inb(I8042_DATA);
		time_udelay(10);
	}
	return -1;
}

/* Send a controller command / a data byte; -1 if the controller stays busy. */
static int i8042_command(uint8_t cmd)
{
	if (i8042_wait_write())
		return -1;
	outb(I8042_CMD, cmd);
	return 0;
}

static int i8042_write_data(uint8_t v)
{
	if (i8042_wait_write())
		return -1;
	outb(I8042_DATA, v);
	return 0;
}

/* Drop whatever the controller still holds (bounded: its buffer is small). */
static void i8042_flush(void)
{
	for (int i = 0; i < 64 && (inb(I8042_STATUS) & ST_OUT_FULL); i++) {
		(void)inb(I8042_DATA);
		time_udelay(10);
	}
}

/* IRQ1: decode every keyboard byte waiting. Interrupts off. */
static void ps2kbd_irq(struct trap_frame *tf)
{
	(void)tf;
	uint8_t st;
	while ((st = inb(I8042_STATUS)) & ST_OUT_FULL) {
		uint8_t code = inb(I8042_DATA);
		if (st & ST_AUX_DATA)
			continue;
		char out[KEYMAP_OUT_MAX];
		console_input_key(keymap_feed(&keymap, code, out), out);
	}
}

/* Bring the controller to a known state: both ports off, buffer empty,
 * translation on, keyboard interrupt on. Returns a reason on failure. */
static const char *i8042_setup(void)
{
	if (i8042_command(CMD_DISABLE_KBD) || i8042_command(CMD_DISABLE_AUX))
		return "controller does not accept commands";
	i8042_flush();
	if (i8042_command(CMD_SELF_TEST))
		return "controller does not accept commands";
	int r = i8042_read();
	if (r != 0x55)
		return "controller self-test failed";
	/* The self-test may reset the configuration byte: write it afterwards. */
	if (i8042_command(CMD_READ_CONFIG))
		return "controller does not accept commands";
	int cfg = i8042_read();
	if (cfg < 0)
		return "no configuration byte";
	cfg = (cfg | CFG_TRANSLATE | CFG_KBD_IRQ) & ~(CFG_KBD_CLOCK_OFF | CFG_AUX_IRQ);
	if (i8042_command(CMD_WRITE_CONFIG) || i8042_write_data((uint8_t)cfg))
		return "configuration write timed out";
	if (i8042_command(CMD_ENABLE_KBD))
		return "controller does not accept commands";
	return NULL;
}

/* See keyboard.h. Boot-time, single CPU, interrupts off; needs time_init(). */
void ps2kbd_init(void)
{
	if (inb(I8042_STATUS) == 0xFF) {
		printk("ps2kbd: no i8042 controller\n");
		return;
	}
	const char *err = i8042_setup();
	if (err) {
		printk("ps2kbd: %s; keyboard disabled\n", err);
		return;
	}
	/* Scanning is normally on already; a missing keyboard just does not ACK. */
	int ack = i8042_write_data(KBD_ENABLE_SCAN) ? -1 : i8042_read();
	if (ack != KBD_ACK)
		printk("ps2kbd: no keyboard answered on the first port (reply %d)\n", ack);
	i8042_flush();
	keymap_init(&keymap);
	trap_set_handler(VEC_ISA_BASE + KBD_IRQ, ps2kbd_irq);
	ioapic_route_isa(KBD_IRQ, VEC_ISA_BASE + KBD_IRQ);
	printk("ps2kbd: i8042 keyboard on IRQ %u\n", KBD_IRQ);
}
