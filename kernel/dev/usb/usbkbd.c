/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * usbkbd.c — USB boot keyboards: each report is checked (hid_kbd.c),
 * turned into scancode set 1 and decoded by the PS/2 keyboard's decoder
 * (keymap.c), so both keyboards give the shell the same bytes; typematic
 * repeat of the last key pressed; the Num/Caps/Scroll Lock LEDs through
 * SET_REPORT. A malformed report is dropped and counted. USB thread only,
 * except the counters, which the `usb` command reads.
 */
#include <dev/usb/xhci.h>
#include <dev/usb/hid_kbd.h>
#include <dev/keymap.h>
#include <dev/console_input.h>
#include <arch/x86_64/cpu/cpu.h>
#include <mm/mm.h>
#include <kern/printk.h>
#include <lib/sysctl.h>
#include <arch/x86_64/clock/time.h>

#define MAX_KBDS        8
#define REPORT_LOG_MAX  5          /* malformed reports logged per keyboard */
#define HID_SET_REPORT  0x09
#define USAGE_SCROLL    0x47
#define USAGE_CAPS      0x39
#define USAGE_NUM       0x53

struct usb_kbd {
	struct usb_dev *dev;
	struct keymap_state km;
	struct hid_kbd_report last;
	uint8_t scroll_lock;
	uint8_t leds_sent;
	int leds_dirty;
	uint8_t repeat_usage;          /* key that repeats, 0 none */
	uint64_t repeat_at_ns;
	uint64_t reports, malformed, rollover, repeats;
};

static struct usb_kbd *kbds[MAX_KBDS];
static int64_t repeat_delay_ms = 500, repeat_rate = 30;
SYSCTL_INT(hw_usb_kbd_repeat_delay, "hw.usb.kbd.repeat_delay", &repeat_delay_ms, 1, 100, 2000,
	   "USB keyboard: ms a key is held before it repeats");
SYSCTL_INT(hw_usb_kbd_repeat_rate, "hw.usb.kbd.repeat_rate", &repeat_rate, 1, 1, 50,
	   "USB keyboard: repeats per second while a key stays held");
static uint64_t total_malformed;

/* Decode scancode bytes and hand the characters to the console. The input
 * ring's lock is an interrupts-off lock: take it with interrupts off. */
static void kbd_feed(struct usb_kbd *k, const uint8_t *codes, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		char out[KEYMAP_OUT_MAX];
		int m = keymap_feed(&k->km, codes[i], out);
		uint64_t flags = cpu_save_flags_cli();
		console_input_key(m, out);
		cpu_restore_flags(flags);
	}
}

/* The LED byte the lock states call for. */
static uint8_t kbd_leds(const struct usb_kbd *k)
{
	return (uint8_t)((k->km.num_lock ? HID_LED_NUM : 0) | (k->km.caps_lock ? HID_LED_CAPS : 0) |
			 (k->scroll_lock ? HID_LED_SCROLL : 0));
}

/* See xhci.h. */
struct usb_kbd *usbkbd_attach(struct usb_dev *dev)
{
	for (int i = 0; i < MAX_KBDS; i++) {
		if (kbds[i])
			continue;
		struct usb_kbd *k = kzalloc(sizeof(*k));
		if (!k)
			return NULL;
		k->dev = dev;
		keymap_init(&k->km);
		k->leds_sent = 0xFF;
		k->leds_dirty = 1;       /* Num Lock starts on: show it */
		uint64_t flags = spin_lock_irqsave(&usb_table_lock);
		kbds[i] = k;
		spin_unlock_irqrestore(&usb_table_lock, flags);
		return k;
	}
	printk("usb: more than %d keyboards; this one is not used\n", MAX_KBDS);
	return NULL;
}

/* See xhci.h. */
void usbkbd_detach(struct usb_kbd *k)
{
	uint64_t flags = spin_lock_irqsave(&usb_table_lock);
	for (int i = 0; i < MAX_KBDS; i++)
		if (kbds[i] == k)
			kbds[i] = NULL;
	spin_unlock_irqrestore(&usb_table_lock, flags);
	kfree(k);
}

/* 1 when usage is held in report r. */
static int held(const struct hid_kbd_report *r, uint8_t usage)
{
	for (int i = 0; i < r->nkeys; i++)
		if (r->keys[i] == usage)
			return 1;
	return 0;
}

/* See xhci.h. */
void usbkbd_report(struct usb_kbd *k, const uint8_t *buf, uint32_t len)
{
	struct hid_kbd_report cur;
	const char *why;
	k->reports++;
	switch (hid_kbd_parse(buf, len, &cur, &why)) {
	case HID_KBD_MALFORMED:
		__atomic_add_fetch(&total_malformed, 1, __ATOMIC_RELAXED);
		if (k->malformed++ < REPORT_LOG_MAX)
			printk("usb: port %u: keyboard report dropped (%s, %u bytes)\n", k->dev->port,
			       why, len);
		return;
	case HID_KBD_ROLLOVER:
		k->rollover++;
		return;
	case HID_KBD_OK:
		break;
	}
	uint8_t codes[HID_KBD_CODES_MAX], newest;
	size_t n = hid_kbd_transition(&k->last, &cur, codes, &newest);
	if (held(&cur, USAGE_SCROLL) && !held(&k->last, USAGE_SCROLL))
		k->scroll_lock ^= 1;
	kbd_feed(k, codes, n);
	if (newest && newest != USAGE_CAPS && newest != USAGE_NUM && newest != USAGE_SCROLL) {
		k->repeat_usage = newest;
		k->repeat_at_ns = time_ns() + (uint64_t)repeat_delay_ms * 1000000;
	} else if (k->repeat_usage && !held(&cur, k->repeat_usage)) {
		k->repeat_usage = 0;
	}
	k->last = cur;
	if (kbd_leds(k) != k->leds_sent)
		k->leds_dirty = 1;
}

/* See xhci.h. */
uint32_t usbkbd_service(void)
{
	uint64_t now = time_ns();
	uint32_t next = 0;
	for (int i = 0; i < MAX_KBDS; i++) {
		struct usb_kbd *k = kbds[i];
		if (!k)
			continue;
		if (k->leds_dirty) {
			uint8_t leds = kbd_leds(k);
			k->dev->buf[0] = leds;
			k->leds_dirty = 0;
			if (xhci_control(k->dev, 0x21, HID_SET_REPORT, 0x0200, k->dev->kbd_interface, 1,
					 NULL) == CC_SUCCESS)
				k->leds_sent = leds;
		}
		if (!k->repeat_usage)
			continue;
		uint64_t period = 1000000000ull / (uint64_t)repeat_rate;
		if (now >= k->repeat_at_ns) {
			uint8_t make[2];
			kbd_feed(k, make, hid_kbd_make(k->repeat_usage, make));
			k->repeats++;
			k->repeat_at_ns = now - k->repeat_at_ns > period ? now + period
									  : k->repeat_at_ns + period;
		}
		uint32_t ms = (uint32_t)((k->repeat_at_ns - now) / 1000000) + 1;
		next = next && next < ms ? next : ms;
	}
	return next;
}

/* Lines of the `usb` command about keyboards. Takes usb_table_lock for
 * the walk (a keyboard cannot be freed meanwhile). */
void usbkbd_print(void)
{
	uint64_t flags = spin_lock_irqsave(&usb_table_lock);
	for (int i = 0; i < MAX_KBDS; i++) {
		struct usb_kbd *k = kbds[i];
		if (k)
			printk("keyboard on port %u: %lu reports, %lu malformed, %lu rollover, %lu repeats, "
			       "LEDs 0x%x\n", k->dev->port, k->reports, k->malformed, k->rollover,
			       k->repeats, k->leds_sent == 0xFF ? 0 : k->leds_sent);
	}
	spin_unlock_irqrestore(&usb_table_lock, flags);
	printk("malformed keyboard reports since boot: %lu\n",
	       __atomic_load_n(&total_malformed, __ATOMIC_RELAXED));
}
