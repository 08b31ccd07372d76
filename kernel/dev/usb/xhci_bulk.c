/* SPDX-License-Identifier: BSD-2-Clause */
/* xhci_bulk.c — bulk endpoints and transfers of a USB stick (see
 * xhci_bulk.h). */
#include <dev/usb/xhci_bulk.h>
#include <dev/usb/usb_bot.h>
#include <mm/mm.h>
#include <kern/printk.h>
#include <lib/string.h>
#include <arch/x86_64/clock/time.h>

#define TRB_CH            (1u << 4)
#define TRB_STOP_EP       15
#define EP_TYPE_BULK_OUT  2
#define EP_TYPE_BULK_IN   6
#define EP_STATE_RUNNING  1
#define REQ_CLEAR_FEATURE 1
#define BOT_RESET_REQUEST 0xFF
#define BULK_AVG_TRB_LEN  3072

/* Context i of a device context (0 slot, 1 EP0, ...); of an input
 * context, i + 1. */
static uint32_t *ctx(struct xhci *hc, void *base, unsigned i)
{
	return (uint32_t *)((uint8_t *)base + (size_t)i * hc->ctx_size);
}

/* The endpoint of direction in. */
static struct xhci_bulk_ep *ep_of(struct xhci_bulk *b, int in)
{
	return in ? &b->in : &b->out;
}

/* The input context's endpoint entry for e, its ring's dequeue pointer
 * where the next TRB will be written. */
static void ep_context(struct xhci_bulk *b, struct xhci_bulk_ep *e, int in)
{
	struct usb_dev *dev = b->dev;
	uint32_t *ep = ctx(dev->hc, dev->in_ctx, e->dci + 1u);
	uint64_t deq = xhci_ring_next_ptr(&e->ring);
	ep[0] = 0;
	ep[1] = 3u << 1 | (uint32_t)(in ? EP_TYPE_BULK_IN : EP_TYPE_BULK_OUT) << 3 | (uint32_t)e->burst << 8 |
		(uint32_t)e->mps << 16;
	ep[2] = (uint32_t)deq;
	ep[3] = (uint32_t)(deq >> 32);
	ep[4] = BULK_AVG_TRB_LEN;
}

/* Configure Endpoint: add (and with drop, first drop) the endpoints in
 * the mask of DCIs. The slot context keeps room for both. */
static int configure(struct xhci_bulk *b, uint32_t drop, uint32_t add)
{
	struct usb_dev *dev = b->dev;
	struct xhci *hc = dev->hc;
	unsigned top = b->in.dci > b->out.dci ? b->in.dci : b->out.dci;
	memset(dev->in_ctx, 0, PAGE_SIZE);
	ctx(hc, dev->in_ctx, 0)[0] = drop;
	ctx(hc, dev->in_ctx, 0)[1] = 1u | add;
	uint32_t *slot = ctx(hc, dev->in_ctx, 1);
	slot[0] = (uint32_t)dev->speed << 20 | top << 27;
	slot[1] = (uint32_t)dev->port << 16;
	if (add & 1u << b->in.dci)
		ep_context(b, &b->in, 1);
	if (add & 1u << b->out.dci)
		ep_context(b, &b->out, 0);
	return xhci_command(hc, dev->in_phys, TRB_TYPE(TRB_CONFIG_EP) | TRB_SLOT(dev->slot), 1000) ==
	       CC_SUCCESS ? 0 : -1;
}

/* Renews endpoint e on the host side: stopped if it runs, then dropped
 * and added again, which cancels what is queued, resets its data toggle
 * or sequence number and leaves it running at the ring's next TRB. */
static int ep_renew(struct xhci_bulk *b, struct xhci_bulk_ep *e)
{
	struct usb_dev *dev = b->dev;
	e->open = 0;
	uint32_t state = ctx(dev->hc, dev->out_ctx, e->dci)[0] & 7;
	if (state == EP_STATE_RUNNING)
		xhci_command(dev->hc, 0, TRB_TYPE(TRB_STOP_EP) | TRB_SLOT(dev->slot) | TRB_EP(e->dci), 1000);
	return configure(b, 1u << e->dci, 1u << e->dci);
}

/* See xhci_bulk.h. */
int xhci_bulk_setup(struct usb_dev *dev, const struct usb_msd_info *mi, struct xhci_bulk *b)
{
	struct xhci *hc = dev->hc;
	memset(b, 0, sizeof(*b));
	b->dev = dev;
	b->interface = mi->interface;
	b->in = (struct xhci_bulk_ep){ .dci = (uint8_t)((mi->ep_in & 0x0F) * 2 + 1), .addr = mi->ep_in,
				       .burst = mi->burst_in, .mps = mi->mps_in };
	b->out = (struct xhci_bulk_ep){ .dci = (uint8_t)((mi->ep_out & 0x0F) * 2), .addr = mi->ep_out,
					.burst = mi->burst_out, .mps = mi->mps_out };
	if (xhci_ring_alloc(hc, &b->in.ring) || xhci_ring_alloc(hc, &b->out.ring))
		goto fail;
	for (int i = 0; i < XHCI_BULK_PAGES; i++)
		if (!(b->page[i] = xhci_dma_page(hc, &b->page_phys[i])))
			goto fail;
	if (configure(b, 0, 1u << b->in.dci | 1u << b->out.dci) == 0)
		return 0;
	printk("usb: port %u: Configure Endpoint for the bulk endpoints failed\n", dev->port);
fail:
	xhci_bulk_free(b);
	return -1;
}

/* See xhci_bulk.h. */
void xhci_bulk_free(struct xhci_bulk *b)
{
	xhci_dma_free((void *)b->in.ring.trb);
	xhci_dma_free((void *)b->out.ring.trb);
	b->in.ring.trb = b->out.ring.trb = NULL;
	for (int i = 0; i < XHCI_BULK_PAGES; i++) {
		xhci_dma_free(b->page[i]);
		b->page[i] = NULL;
	}
}

/* See xhci_bulk.h. Only the TRBs of the transfer under way count: a
 * short packet on any of them ends it with the bytes before it, the last
 * one's event ends it, an error ends it; everything else is stale. */
void xhci_bulk_event(struct xhci_bulk *b, unsigned dci, uint64_t trb, uint32_t cc, uint32_t residual)
{
	struct xhci_bulk_ep *e = dci == b->in.dci ? &b->in : &b->out;
	uint32_t i = 0, before = 0;
	while (e->open && i < e->ntrb && e->trb[i] != trb)
		before += e->trb_len[i++];
	if (!e->open || i == e->ntrb) {
		b->dev->hc->stale_events++;
		return;
	}
	if (cc == CC_SUCCESS && i + 1 < e->ntrb)
		return;                   /* (an event mid-TD: the last one's is still to come) */
	uint32_t this = residual > e->trb_len[i] ? 0 : e->trb_len[i] - residual;
	e->moved = before + this;
	e->cc = cc == CC_SHORT_PACKET ? CC_SUCCESS : cc;
	e->open = 0;
}

/* Queues len bytes of the DMA pages on e as one TD: a Normal TRB per
 * page, chained, each with the packets left after it (TD Size). */
static void queue_td(struct xhci_bulk *b, struct xhci_bulk_ep *e, uint32_t len)
{
	uint32_t n = len ? (len + 4095) / 4096 : 1, left = len;
	xhci_ring_reserve(&e->ring, n);
	e->ntrb = n;
	e->moved = 0;
	e->cc = 0;
	e->open = 1;
	for (uint32_t i = 0; i < n; i++) {
		uint32_t k = left < 4096 ? left : 4096;
		left -= k;
		uint32_t packets = (left + e->mps - 1) / e->mps;
		uint32_t control = TRB_TYPE(TRB_NORMAL) | TRB_ISP | (i + 1 < n ? TRB_CH : TRB_IOC);
		e->trb_len[i] = k;
		e->trb[i] = xhci_ring_push(&e->ring, b->page_phys[i], k | (packets > 31 ? 31 : packets) << 17,
					   control);
	}
	xhci_ring_doorbell(b->dev->hc, b->dev->slot, e->dci);
}

/* See xhci_bulk.h. */
int xhci_bulk_transfer(struct xhci_bulk *b, int in, void *buf, uint32_t len, uint32_t *got,
		       uint32_t timeout_ms)
{
	struct usb_dev *dev = b->dev;
	struct xhci_bulk_ep *e = ep_of(b, in);
	*got = 0;
	if (len > XHCI_BULK_MAX)
		return BOT_XFER_ERR;
	for (uint32_t off = 0; !in && off < len; off += 4096)
		memcpy(b->page[off / 4096], (uint8_t *)buf + off, len - off < 4096 ? len - off : 4096);
	queue_td(b, e, len);
	uint64_t deadline = time_ns() + (uint64_t)timeout_ms * 1000000;
	while (e->open) {
		if (!(xhci_portsc(dev->hc, dev->port) & PORTSC_CCS)) {
			e->open = 0;
			return BOT_XFER_GONE;
		}
		if (time_ns() > deadline) {
			b->timeouts++;
			printk("usb: port %u: bulk %s transfer of %u bytes got no answer in %u ms\n", dev->port,
			       in ? "IN" : "OUT", len, timeout_ms);
			ep_renew(b, e);
			return BOT_XFER_ERR;
		}
		usb_sleep_ms(1);
		xhci_poll_events(dev->hc);
	}
	*got = e->moved > len ? len : e->moved;
	for (uint32_t off = 0; in && off < *got; off += 4096)
		memcpy((uint8_t *)buf + off, b->page[off / 4096], *got - off < 4096 ? *got - off : 4096);
	if (e->cc == CC_SUCCESS)
		return BOT_XFER_OK;
	if (xhci_cc_halts(e->cc))
		b->halts++;
	return e->cc == CC_STALL ? BOT_XFER_STALL : BOT_XFER_ERR;
}

/* See xhci_bulk.h. */
int xhci_bulk_clear_halt(struct xhci_bulk *b, int in)
{
	struct xhci_bulk_ep *e = ep_of(b, in);
	if (!(xhci_portsc(b->dev->hc, b->dev->port) & PORTSC_CCS))
		return -1;
	int rc = ep_renew(b, e);
	if (xhci_control(b->dev, 0x02, REQ_CLEAR_FEATURE, 0, e->addr, 0, NULL) != CC_SUCCESS)
		rc = -1;
	return rc;
}

/* See xhci_bulk.h. */
int xhci_bulk_class_reset(struct xhci_bulk *b)
{
	if (!(xhci_portsc(b->dev->hc, b->dev->port) & PORTSC_CCS))
		return -1;
	return xhci_control(b->dev, 0x21, BOT_RESET_REQUEST, 0, b->interface, 0, NULL) == CC_SUCCESS ? 0 : -1;
}
