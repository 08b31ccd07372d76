/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * xhci_port.c — root port changes: a connected port is reset (USB 2) or
 * found enabled (USB 3), its device gets a slot and an address (xHCI 1.2,
 * 4.3), its descriptors are read, and a boot keyboard is configured; a
 * disconnected port's slot is disabled and its memory freed. USB thread
 * only; the tables the `usb` command reads change under usb_table_lock.
 */
#include <dev/usb/xhci.h>
#include <dev/usb/hid_kbd.h>
#include <mm/mm.h>
#include <kern/printk.h>
#include <lib/string.h>
#include <arch/x86_64/clock/time.h>

#define REQ_GET_DESCRIPTOR 6
#define REQ_SET_CONFIG     9
#define HID_SET_IDLE       0x0A
#define HID_SET_PROTOCOL   0x0B
#define RT_DEV_IN          0x80
#define RT_DEV_OUT         0x00
#define RT_CLASS_IF_OUT    0x21
#define EP_TYPE_CONTROL    4
#define EP_TYPE_INTR_IN    7

static const char *const speed_names[] = { "?", "full", "low", "high", "super", "super+" };

/* Context i of a device context (0 slot, 1 EP0, ...); of an input
 * context pass i + 1 (the input control context comes first). */
static uint32_t *ctx(struct xhci *hc, void *base, unsigned i)
{
	return (uint32_t *)((uint8_t *)base + (size_t)i * hc->ctx_size);
}

/* Free a device's memory (the controller no longer uses it). */
static void dev_free(struct usb_dev *dev)
{
	xhci_dma_free(dev->out_ctx);
	xhci_dma_free(dev->in_ctx);
	xhci_dma_free((void *)dev->ep0.trb);
	xhci_dma_free((void *)dev->intr.trb);
	xhci_dma_free(dev->buf);
	kfree(dev);
}

/* Publish or withdraw dev in the tables the `usb` command reads. */
static void dev_table_set(struct xhci *hc, unsigned port, unsigned slot, struct usb_dev *dev)
{
	uint64_t flags = spin_lock_irqsave(&usb_table_lock);
	hc->port_dev[port - 1] = dev;
	hc->slot_dev[slot] = dev;
	spin_unlock_irqrestore(&usb_table_lock, flags);
}

/* Reset a USB 2 port and wait for it to be enabled; USB 3 ports enable
 * themselves after link training. 0 when enabled. */
static int port_enable(struct xhci *hc, unsigned port)
{
	uint32_t sc = xhci_portsc(hc, port);
	if (hc->port_major[port - 1] == 3 && (sc & PORTSC_PED))
		return 0;
	xhci_portsc_write(hc, port, sc, PORTSC_PR);
	for (int i = 0; i < 50; i++) {
		usb_sleep_ms(10);
		sc = xhci_portsc(hc, port);
		if ((sc & PORTSC_PRC) && !(sc & PORTSC_PR))
			break;
	}
	xhci_portsc_write(hc, port, sc, PORTSC_PRC);
	return (sc & PORTSC_PED) && (sc & PORTSC_CCS) ? 0 : -1;
}

/* Endpoint 0's packet size at a speed before the descriptor says. */
static uint16_t default_mps0(unsigned speed)
{
	return speed == USB_SPEED_SUPER || speed > 4 ? 512 : speed == USB_SPEED_HIGH ? 64 : 8;
}

/* Address Device with EP0 at dev->mps0; the completion code. */
static int dev_address(struct usb_dev *dev)
{
	struct xhci *hc = dev->hc;
	memset(dev->in_ctx, 0, PAGE_SIZE);
	ctx(hc, dev->in_ctx, 0)[1] = 0x3;                         /* add slot, EP0 */
	uint32_t *slot = ctx(hc, dev->in_ctx, 1), *ep0 = ctx(hc, dev->in_ctx, 2);
	slot[0] = (uint32_t)dev->speed << 20 | 1u << 27;          /* one context entry */
	slot[1] = (uint32_t)dev->port << 16;
	ep0[1] = 3u << 1 | EP_TYPE_CONTROL << 3 | (uint32_t)dev->mps0 << 16;
	ep0[2] = (uint32_t)dev->ep0.phys | dev->ep0.cycle;
	ep0[3] = (uint32_t)(dev->ep0.phys >> 32);
	ep0[4] = 8;
	return xhci_command(hc, dev->in_phys, TRB_TYPE(TRB_ADDRESS_DEV) | TRB_SLOT(dev->slot), 3000);
}

/* EP0's packet size changed: Evaluate Context. */
static int dev_set_mps0(struct usb_dev *dev, uint16_t mps)
{
	struct xhci *hc = dev->hc;
	dev->mps0 = mps;
	memset(dev->in_ctx, 0, PAGE_SIZE);
	ctx(hc, dev->in_ctx, 0)[1] = 0x2;
	uint32_t *ep0 = ctx(hc, dev->in_ctx, 2);
	ep0[1] = 3u << 1 | EP_TYPE_CONTROL << 3 | (uint32_t)mps << 16;
	return xhci_command(hc, dev->in_phys, TRB_TYPE(TRB_EVAL_CTX) | TRB_SLOT(dev->slot), 1000);
}

/* The xHCI interval exponent (125 us * 2^n) for bInterval at a speed. */
static uint32_t intr_interval(unsigned speed, uint8_t b)
{
	if (speed == USB_SPEED_FULL || speed == USB_SPEED_LOW) {
		uint32_t n = 3;                                   /* 1 ms */
		while (n < 10 && (1u << (n + 1)) <= (uint32_t)b * 8)
			n++;
		return n;
	}
	return b > 16 ? 15 : (uint32_t)b - 1;
}

/* Configure Endpoint for the keyboard's interrupt IN endpoint. */
static int dev_config_intr(struct usb_dev *dev, const struct usb_config_info *ci)
{
	struct xhci *hc = dev->hc;
	unsigned dci = (ci->kbd_endpoint & 0x0F) * 2 + 1;
	if (xhci_ring_alloc(hc, &dev->intr))
		return -1;
	dev->kbd_dci = (uint8_t)dci;
	dev->kbd_mps = ci->kbd_max_packet > 1024 ? 1024 : ci->kbd_max_packet;
	memset(dev->in_ctx, 0, PAGE_SIZE);
	ctx(hc, dev->in_ctx, 0)[1] = 1u | 1u << dci;
	uint32_t *slot = ctx(hc, dev->in_ctx, 1), *ep = ctx(hc, dev->in_ctx, dci + 1);
	slot[0] = (uint32_t)dev->speed << 20 | dci << 27;
	slot[1] = (uint32_t)dev->port << 16;
	ep[0] = intr_interval(dev->speed, ci->kbd_interval) << 16;
	ep[1] = 3u << 1 | EP_TYPE_INTR_IN << 3 | (uint32_t)ci->kbd_max_packet << 16;
	ep[2] = (uint32_t)dev->intr.phys | dev->intr.cycle;
	ep[3] = (uint32_t)(dev->intr.phys >> 32);
	ep[4] = 8 | (uint32_t)ci->kbd_max_packet << 16;
	return xhci_command(hc, dev->in_phys, TRB_TYPE(TRB_CONFIG_EP) | TRB_SLOT(dev->slot), 1000) ==
	       CC_SUCCESS ? 0 : -1;
}

/* Read and check the descriptors; a boot keyboard is configured and
 * started, anything else left alone. Returns a reason on failure. */
static const char *dev_identify(struct usb_dev *dev)
{
	static char err[120];
	uint32_t got = 0;
	if (xhci_control(dev, RT_DEV_IN, REQ_GET_DESCRIPTOR, USB_DESC_DEVICE << 8, 0, 8, &got) != CC_SUCCESS)
		return "no device descriptor";
	uint16_t mps = usb_parse_max_packet0(dev->buf, got, dev->speed, err, sizeof(err));
	if (!mps)
		return err;
	if (mps != dev->mps0 && dev_set_mps0(dev, mps) != CC_SUCCESS)
		return "cannot change endpoint 0's packet size";
	if (xhci_control(dev, RT_DEV_IN, REQ_GET_DESCRIPTOR, USB_DESC_DEVICE << 8, 0,
			 USB_DEVICE_DESC_LEN, &got) != CC_SUCCESS ||
	    usb_parse_device(dev->buf, got, dev->speed, &dev->desc, err, sizeof(err)))
		return got ? err : "no device descriptor";
	if (xhci_control(dev, RT_DEV_IN, REQ_GET_DESCRIPTOR, USB_DESC_CONFIG << 8, 0, 9, &got) != CC_SUCCESS)
		return "no configuration descriptor";
	uint16_t total = usb_parse_config_len(dev->buf, got, err, sizeof(err));
	struct usb_config_info ci;
	if (!total)
		return err;
	if (xhci_control(dev, RT_DEV_IN, REQ_GET_DESCRIPTOR, USB_DESC_CONFIG << 8, 0, total, &got) != CC_SUCCESS ||
	    usb_parse_config(dev->buf, got, &ci, err, sizeof(err)))
		return err;
	dev->first_class = ci.first_class;
	if (!ci.keyboard)
		return usb_msd_probe(dev, dev->buf, got, ci.config_value);
	if (xhci_control(dev, RT_DEV_OUT, REQ_SET_CONFIG, ci.config_value, 0, 0, NULL) != CC_SUCCESS)
		return "SET_CONFIGURATION failed";
	if (dev_config_intr(dev, &ci))
		return "cannot configure the keyboard's endpoint";
	if (xhci_control(dev, RT_CLASS_IF_OUT, HID_SET_PROTOCOL, 0, ci.kbd_interface, 0, NULL) != CC_SUCCESS)
		printk("usb: port %u: SET_PROTOCOL(boot) refused; assuming boot reports\n", dev->port);
	(void)xhci_control(dev, RT_CLASS_IF_OUT, HID_SET_IDLE, 0, ci.kbd_interface, 0, NULL);
	dev->kbd_interface = ci.kbd_interface;
	dev->kbd = usbkbd_attach(dev);
	if (!dev->kbd)
		return "out of memory for the keyboard";
	dev->driver = "keyboard";
	xhci_intr_queue(dev);
	return NULL;
}

/* A device appeared on port: give it a slot and an address, then identify
 * it. Failures are logged and leave the port empty. */
static void port_attach(struct xhci *hc, unsigned port)
{
	if (port_enable(hc, port)) {
		printk("usb: %s port %u: not enabled after reset\n", hc->name, port);
		return;
	}
	unsigned speed = PORTSC_SPEED(xhci_portsc(hc, port));
	if (xhci_command(hc, 0, TRB_TYPE(TRB_ENABLE_SLOT), 1000) != CC_SUCCESS || !hc->cmd_slot ||
	    hc->cmd_slot > hc->max_slots) {
		printk("usb: %s port %u: no device slot\n", hc->name, port);
		return;
	}
	unsigned slot = hc->cmd_slot;
	struct usb_dev *dev = kzalloc(sizeof(*dev));
	if (!dev || !(dev->out_ctx = xhci_dma_page(hc, &dev->out_phys)) ||
	    !(dev->in_ctx = xhci_dma_page(hc, &dev->in_phys)) || xhci_ring_alloc(hc, &dev->ep0) ||
	    !(dev->buf = xhci_dma_page(hc, &dev->buf_phys))) {
		if (dev)
			dev_free(dev);
		xhci_command(hc, 0, TRB_TYPE(TRB_DISABLE_SLOT) | TRB_SLOT(slot), 1000);
		return;
	}
	dev->hc = hc;
	dev->slot = (uint8_t)slot;
	dev->port = (uint8_t)port;
	dev->speed = (uint8_t)speed;
	dev->mps0 = default_mps0(speed);
	dev->driver = "starting";
	hc->dcbaa[slot] = dev->out_phys;
	dev_table_set(hc, port, slot, dev);
	int cc = dev_address(dev);
	const char *why = cc == CC_SUCCESS ? dev_identify(dev) : "Address Device failed";
	if (why) {
		printk("usb: %s port %u: %s; device ignored\n", hc->name, port, why);
		dev->driver = "failed";
		return;       /* keeps the slot until it is unplugged */
	}
	printk("usb: %s port %u: %04x:%04x, %s speed, class %u, %s\n", hc->name, port,
	       dev->desc.vendor, dev->desc.product, speed_names[speed < 6 ? speed : 0],
	       dev->desc.dev_class ? dev->desc.dev_class : dev->first_class, dev->driver);
}

/* The device on port went away: stop its keyboard, free its slot. */
static void port_detach(struct xhci *hc, unsigned port)
{
	struct usb_dev *dev = hc->port_dev[port - 1];
	unsigned slot = dev->slot;
	dev_table_set(hc, port, slot, NULL);
	if (dev->kbd)
		usbkbd_detach(dev->kbd);
	xhci_command(hc, 0, TRB_TYPE(TRB_DISABLE_SLOT) | TRB_SLOT(slot), 1000);
	if (dev->msd)
		usb_msd_detach(dev->msd);
	hc->dcbaa[slot] = 0;
	printk("usb: %s port %u: %04x:%04x disconnected\n", hc->name, port, dev->desc.vendor,
	       dev->desc.product);
	dev_free(dev);
}

/* See xhci.h. Compares the port with what we know and acts on the
 * difference; a quick unplug and replug (connect change while connected)
 * is a detach followed by an attach. */
void xhci_port_check(struct xhci *hc, unsigned port)
{
	uint32_t sc = xhci_portsc(hc, port);
	xhci_portsc_write(hc, port, sc, sc & PORTSC_CHANGES);
	int connected = sc & PORTSC_CCS;
	if (hc->port_dev[port - 1] && (!connected || (sc & PORTSC_CSC)))
		port_detach(hc, port);
	if (connected && !hc->port_dev[port - 1])
		port_attach(hc, port);
}
