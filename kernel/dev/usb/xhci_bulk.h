/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * xhci_bulk.h — a USB stick's two bulk endpoints on the xHCI controller
 * (xHCI 1.2: Configure Endpoint 4.6.6, Normal TRBs 4.11.2.1 and 6.4.1.1,
 * Stop Endpoint 4.6.9), as the Bulk-Only Transport's pipes (usb_bot.h's
 * bot_ops). A transfer moves through DMA pages it owns (XHCI_BULK_PAGES
 * of them, one Normal TRB each, chained); it waits at most its timeout,
 * and ends at once when the stick's port reports it disconnected. A
 * transfer given up on is stopped and its TRBs skipped, so the
 * controller never writes into a later transfer's buffer. USB thread
 * only.
 */
#ifndef MOSAIC_DEV_USB_XHCI_BULK_H
#define MOSAIC_DEV_USB_XHCI_BULK_H
#include <stdint.h>
#include <dev/usb/xhci.h>
#include <dev/usb/usb_desc_msd.h>

#define XHCI_BULK_PAGES 16                        /* 64 KiB per transfer */
#define XHCI_BULK_MAX   (XHCI_BULK_PAGES * 4096u)

struct xhci_bulk_ep {
	uint8_t dci, addr, burst;
	uint16_t mps;
	struct xhci_ring ring;
	/* the transfer under way: its TRBs and their lengths; open while
	 * events for it are taken, every other event on this endpoint is stale */
	uint64_t trb[XHCI_BULK_PAGES];
	uint32_t trb_len[XHCI_BULK_PAGES];
	uint32_t ntrb;
	int open;
	uint32_t cc, moved;
};

struct xhci_bulk {
	struct usb_dev *dev;
	uint8_t interface;
	struct xhci_bulk_ep in, out;
	uint8_t *page[XHCI_BULK_PAGES];
	uint64_t page_phys[XHCI_BULK_PAGES];
	uint64_t timeouts, halts;
};

/* Configures both endpoints of mi (after SET_CONFIGURATION) and takes the
 * DMA pages: 0, or -1 (logged). */
int xhci_bulk_setup(struct usb_dev *dev, const struct usb_msd_info *mi, struct xhci_bulk *b);
/* Frees the rings and pages (the slot is disabled already). */
void xhci_bulk_free(struct xhci_bulk *b);
/* One bulk transfer of len <= XHCI_BULK_MAX bytes from or to buf:
 * enum bot_xfer, *got the bytes moved. */
int xhci_bulk_transfer(struct xhci_bulk *b, int in, void *buf, uint32_t len, uint32_t *got,
		       uint32_t timeout_ms);
/* bot_ops.clear_halt: the host side renewed, CLEAR_FEATURE(HALT) sent. */
int xhci_bulk_clear_halt(struct xhci_bulk *b, int in);
/* bot_ops.reset: Bulk-Only Mass Storage Reset on the interface. */
int xhci_bulk_class_reset(struct xhci_bulk *b);
/* A Transfer Event for endpoint dci of b's device (from xhci_dev.c). */
void xhci_bulk_event(struct xhci_bulk *b, unsigned dci, uint64_t trb, uint32_t cc, uint32_t residual);

#endif
