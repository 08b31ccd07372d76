/*
 * xhci_dev.c — transfers: control requests on endpoint 0 (setup, data and
 * status stages, xHCI 1.2, 4.11.2.2), the keyboard's report requests on
 * its interrupt IN endpoint, their Transfer Events, and resetting a halted
 * endpoint (4.6.8, 4.6.10). USB thread only.
 */
#include "xhci.h"
#include <mm.h>
#include <printk.h>
#include <string.h>
#include <time.h>

#define CONTROL_TIMEOUT_MS 1000
#define REPORT_OFFSET      2048            /* reports live in the second half of dev->buf */
#define MAX_REPORT_ERRORS  16

/* See xhci.h. Returns the completion code (0 on timeout); *got receives
 * the bytes of the data stage. */
int xhci_control(struct usb_dev *dev, uint8_t type, uint8_t req, uint16_t value, uint16_t index,
		 uint16_t len, uint32_t *got)
{
	struct xhci *hc = dev->hc;
	int in = type & 0x80;
	uint64_t setup = type | (uint32_t)req << 8 | (uint32_t)value << 16 | (uint64_t)index << 32 |
			 (uint64_t)len << 48;
	uint32_t trt = len ? (in ? 3u : 2u) << 16 : 0;
	xhci_ring_reserve(&dev->ep0, 3);
	dev->ctl_done = 0;
	dev->ctl_residual = 0;
	dev->ctl_data_trb = 0;
	xhci_ring_push(&dev->ep0, setup, 8, TRB_TYPE(TRB_SETUP) | TRB_IDT | trt);
	if (len)
		dev->ctl_data_trb = xhci_ring_push(&dev->ep0, dev->buf_phys, len,
						   TRB_TYPE(TRB_DATA) | TRB_ISP | (in ? TRB_DIR_IN : 0));
	dev->ctl_status_trb = xhci_ring_push(&dev->ep0, 0, 0, TRB_TYPE(TRB_STATUS) | TRB_IOC |
					     (len && in ? 0 : TRB_DIR_IN));
	xhci_ring_doorbell(hc, dev->slot, 1);
	uint64_t deadline = time_ns() + CONTROL_TIMEOUT_MS * 1000000ull;
	while (!__atomic_load_n(&dev->ctl_done, __ATOMIC_ACQUIRE)) {
		if (time_ns() > deadline) {
			printk("usb: port %u: control request %u got no answer\n", dev->port, req);
			return 0;
		}
		usb_sleep_ms(1);
		xhci_poll_events(hc);
	}
	if (got)
		*got = dev->ctl_residual > len ? 0 : len - dev->ctl_residual;
	if (dev->ctl_cc == CC_STALL) {   /* the endpoint halted: reset it, resume at our enqueue */
		xhci_command(hc, 0, TRB_TYPE(TRB_RESET_EP) | TRB_SLOT(dev->slot) | TRB_EP(1), 500);
		uint64_t deq = (dev->ep0.phys + (uint64_t)dev->ep0.idx * 16) | dev->ep0.cycle;
		xhci_command(hc, deq, TRB_TYPE(TRB_SET_DEQUEUE) | TRB_SLOT(dev->slot) | TRB_EP(1), 500);
	}
	return (int)dev->ctl_cc;
}

/* See xhci.h. Keeps one report request outstanding on the keyboard's
 * interrupt endpoint. */
void xhci_intr_queue(struct usb_dev *dev)
{
	dev->intr_trb = xhci_ring_push(&dev->intr, dev->buf_phys + REPORT_OFFSET,
				       dev->kbd_mps, TRB_TYPE(TRB_NORMAL) | TRB_IOC | TRB_ISP);
	xhci_ring_doorbell(dev->hc, dev->slot, dev->kbd_dci);
}

/* See xhci.h. A Transfer Event: the end of a control transfer, or a
 * keyboard report (handed on, then the next one requested). */
void xhci_transfer_event(struct xhci *hc, const struct xhci_trb *ev)
{
	unsigned slot = ev->control >> 24, ep = (ev->control >> 16) & 0x1F;
	uint32_t cc = ev->status >> 24, residual = ev->status & 0xFFFFFF;
	struct usb_dev *dev = slot < XHCI_MAX_SLOTS ? hc->slot_dev[slot] : NULL;
	if (!dev)
		return;
	if (ep == 1) {
		if (ev->param == dev->ctl_data_trb && cc == CC_SHORT_PACKET) {
			dev->ctl_residual = residual;
			return;
		}
		if (ev->param != dev->ctl_status_trb && cc == CC_SUCCESS)
			return;
		dev->ctl_cc = cc == CC_SHORT_PACKET ? CC_SUCCESS : cc;
		__atomic_store_n(&dev->ctl_done, 1, __ATOMIC_RELEASE);
		return;
	}
	if (ep != dev->kbd_dci || ev->param != dev->intr_trb || !dev->kbd)
		return;
	if (cc == CC_SUCCESS || cc == CC_SHORT_PACKET) {
		dev->intr_errors = 0;
		uint32_t len = residual > dev->kbd_mps ? 0 : dev->kbd_mps - residual;
		usbkbd_report(dev->kbd, dev->buf + REPORT_OFFSET, len);
	} else if (++dev->intr_errors == MAX_REPORT_ERRORS) {
		printk("usb: port %u: %u report errors in a row (last code %u); keyboard stopped\n",
		       dev->port, MAX_REPORT_ERRORS, cc);
		return;
	} else if (cc == CC_STALL || cc == CC_TRANSACTION || cc == CC_BABBLE) {
		dev->intr_reset = 1;     /* the endpoint halted: xhci_dev_service() resets it */
		return;
	}
	xhci_intr_queue(dev);
}

/* See xhci.h. */
void xhci_dev_service(struct xhci *hc)
{
	for (unsigned s = 1; s < XHCI_MAX_SLOTS; s++) {
		struct usb_dev *dev = hc->slot_dev[s];
		if (!dev || !dev->intr_reset)
			continue;
		dev->intr_reset = 0;
		xhci_command(hc, 0, TRB_TYPE(TRB_RESET_EP) | TRB_SLOT(s) | TRB_EP(dev->kbd_dci), 500);
		uint64_t deq = (dev->intr.phys + (uint64_t)dev->intr.idx * 16) | dev->intr.cycle;
		xhci_command(hc, deq, TRB_TYPE(TRB_SET_DEQUEUE) | TRB_SLOT(s) | TRB_EP(dev->kbd_dci), 500);
		xhci_intr_queue(dev);
	}
}
