/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * xhci_dev.c — transfers: control requests on endpoint 0 (setup, data and
 * status stages, xHCI 1.2, 4.11.2.2), the keyboard's report requests on
 * its interrupt IN endpoint, their Transfer Events, and resetting a halted
 * endpoint (4.6.8, 4.6.10). USB thread only.
 */
#include <dev/usb/xhci.h>
#include <mm/mm.h>
#include <kern/printk.h>
#include <lib/string.h>
#include <arch/x86_64/clock/time.h>

#define CONTROL_TIMEOUT_MS 1000
#define REPORT_OFFSET      2048            /* reports live in the second half of dev->buf */
#define MAX_REPORT_ERRORS  16

/* One endpoint command for endpoint dci of dev (Reset Endpoint, Set TR
 * Dequeue Pointer); its completion code is not needed. USB thread. */
static void ep_command(struct usb_dev *dev, uint32_t type, unsigned dci, uint64_t param)
{
	xhci_command(dev->hc, param, TRB_TYPE(type) | TRB_SLOT(dev->slot) | TRB_EP(dci), 500);
}

/* Reset endpoint dci of dev after it halted (xHCI 1.2, 4.6.8) and have it
 * resume at deq, a TRB address with the cycle state in bit 0 (Set TR
 * Dequeue Pointer, 4.6.10). Ringing its doorbell is left to the caller.
 * USB thread. */
static void ep_reset(struct usb_dev *dev, unsigned dci, uint64_t deq)
{
	ep_command(dev, TRB_RESET_EP, dci, 0);
	ep_command(dev, TRB_SET_DEQUEUE, dci, deq);
}

/* A stale event said EP0 halted on a transfer given up on: reset it and
 * resume at the transfer under way, or after it if that one ended during
 * the reset (it halted EP0 itself); then ring. USB thread. */
static void ep0_recover(struct usb_dev *dev)
{
	ep_command(dev, TRB_RESET_EP, 1, 0);
	ep_command(dev, TRB_SET_DEQUEUE, 1, dev->ctl_open ? dev->ctl_setup_trb | dev->ctl_cycle
							  : xhci_ring_next_ptr(&dev->ep0));
	xhci_ring_doorbell(dev->hc, dev->slot, 1);
}

/* See xhci.h. Returns the completion code (0 on timeout); *got receives
 * the bytes of the data stage (0 on timeout or when the setup stage
 * failed). A transfer given up on stays on the ring; its late events are
 * stale, and when one of them halted EP0 the wait here resets it and
 * resumes at this transfer's setup TRB. */
int xhci_control(struct usb_dev *dev, uint8_t type, uint8_t req, uint16_t value, uint16_t index,
		 uint16_t len, uint32_t *got)
{
	struct xhci *hc = dev->hc;
	int in = type & 0x80;
	uint64_t setup = type | (uint32_t)req << 8 | (uint32_t)value << 16 | (uint64_t)index << 32 |
			 (uint64_t)len << 48;
	uint32_t trt = len ? (in ? 3u : 2u) << 16 : 0;
	xhci_ring_reserve(&dev->ep0, 3);
	dev->ctl_cycle = dev->ep0.cycle;
	dev->ctl_len = len;
	dev->ctl_residual = 0;
	dev->ctl_data_trb = 0;
	dev->ctl_setup_trb = xhci_ring_push(&dev->ep0, setup, 8, TRB_TYPE(TRB_SETUP) | TRB_IDT | trt);
	if (len)
		dev->ctl_data_trb = xhci_ring_push(&dev->ep0, dev->buf_phys, len,
						   TRB_TYPE(TRB_DATA) | TRB_ISP | (in ? TRB_DIR_IN : 0));
	dev->ctl_status_trb = xhci_ring_push(&dev->ep0, 0, 0, TRB_TYPE(TRB_STATUS) | TRB_IOC |
					     (len && in ? 0 : TRB_DIR_IN));
	dev->ctl_open = 1;
	xhci_ring_doorbell(hc, dev->slot, 1);
	uint64_t deadline = time_ns() + CONTROL_TIMEOUT_MS * 1000000ull;
	for (;;) {
		if (dev->ctl_open && dev->ctl_halted) {
			dev->ctl_halted = 0;
			ep0_recover(dev);
		}
		if (!dev->ctl_open)
			break;
		if (time_ns() > deadline) {
			dev->ctl_open = 0;
			printk("usb: port %u: control request %u got no answer\n", dev->port, req);
			if (got)
				*got = 0;
			return 0;
		}
		usb_sleep_ms(1);
		xhci_poll_events(hc);
	}
	dev->ctl_halted = 0;              /* EP0 ran this transfer: no older one holds it */
	if (got)
		*got = dev->ctl_residual > len ? 0 : len - dev->ctl_residual;
	if (xhci_cc_halts(dev->ctl_cc))   /* EP0 halted on this transfer: resume at our enqueue */
		ep_reset(dev, 1, xhci_ring_next_ptr(&dev->ep0));
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

/* An EP0 Transfer Event; trb is the physical address of the TRB it is
 * for (xHCI 1.2, 6.4.2.1). Only the TRBs of the control transfer under way
 * count (4.11.2.2): a Short Packet on its Data TRB leaves the residual and
 * the Status stage to come, the Status TRB's event ends it, and so does an
 * error on any of its TRBs (after a Setup error no data moved). Any other
 * event is stale: counted, and noted when it halted EP0. USB thread. */
static void ep0_event(struct xhci *hc, struct usb_dev *dev, uint64_t trb, uint32_t cc,
		      uint32_t residual)
{
	int data = dev->ctl_len && trb == dev->ctl_data_trb, status = trb == dev->ctl_status_trb;
	if (!dev->ctl_open || (!data && !status && trb != dev->ctl_setup_trb)) {
		hc->stale_events++;
		if (xhci_cc_halts(cc))
			dev->ctl_halted = 1;
		return;
	}
	int goes_on = !status && (cc == CC_SUCCESS || cc == CC_SHORT_PACKET);
	if (data)
		dev->ctl_residual = residual;
	else if (!status && !goes_on)
		dev->ctl_residual = dev->ctl_len;
	if (goes_on)
		return;
	dev->ctl_cc = cc == CC_SHORT_PACKET ? CC_SUCCESS : cc;
	dev->ctl_open = 0;
}

/* A Transfer Event on the keyboard's interrupt endpoint: for the one
 * outstanding report TRB it hands the report on and asks for the next
 * (or has a halted endpoint reset); any other is stale. USB thread. */
static void intr_event(struct xhci *hc, struct usb_dev *dev, uint64_t trb, uint32_t cc,
		       uint32_t residual)
{
	if (!dev->kbd || !dev->intr_trb || trb != dev->intr_trb) {
		hc->stale_events++;
		return;
	}
	dev->intr_trb = 0;
	if (cc == CC_SUCCESS || cc == CC_SHORT_PACKET) {
		dev->intr_errors = 0;
		uint32_t len = residual > dev->kbd_mps ? 0 : dev->kbd_mps - residual;
		usbkbd_report(dev->kbd, dev->buf + REPORT_OFFSET, len);
	} else if (++dev->intr_errors == MAX_REPORT_ERRORS) {
		printk("usb: port %u: %u report errors in a row (last code %u); keyboard stopped\n",
		       dev->port, MAX_REPORT_ERRORS, cc);
		return;
	} else if (xhci_cc_halts(cc)) {
		dev->intr_reset = 1;     /* xhci_dev_service() resets it */
		return;
	}
	xhci_intr_queue(dev);
}

/* See xhci.h. A Transfer Event: routed by slot and endpoint; events for
 * no device or endpoint of ours are stale. */
void xhci_transfer_event(struct xhci *hc, const struct xhci_trb *ev)
{
	unsigned slot = ev->control >> 24, ep = (ev->control >> 16) & 0x1F;
	uint32_t cc = ev->status >> 24, residual = ev->status & 0xFFFFFF;
	struct usb_dev *dev = slot < XHCI_MAX_SLOTS ? hc->slot_dev[slot] : NULL;
	if (dev && ep == 1)
		ep0_event(hc, dev, ev->param, cc, residual);
	else if (dev && dev->kbd_dci && ep == dev->kbd_dci)
		intr_event(hc, dev, ev->param, cc, residual);
	else if (dev && dev->msd && usb_msd_event(dev->msd, ep, ev->param, cc, residual))
		;
	else
		hc->stale_events++;
}

/* See xhci.h. */
void xhci_dev_service(struct xhci *hc)
{
	for (unsigned s = 1; s < XHCI_MAX_SLOTS; s++) {
		struct usb_dev *dev = hc->slot_dev[s];
		if (!dev || !dev->intr_reset)
			continue;
		dev->intr_reset = 0;
		ep_reset(dev, dev->kbd_dci, xhci_ring_next_ptr(&dev->intr));
		xhci_intr_queue(dev);
	}
}
