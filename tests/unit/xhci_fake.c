/* SPDX-License-Identifier: BSD-2-Clause */
/* xhci_fake.c — the fake controller of xhci_fake.h: the host stubs of
 * what xhci_ring.c and xhci_dev.c call, the event ring it writes, its
 * clock, the doorbell and the set-up. */
#include <tests/unit/xhci_fake_int.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <kern/printk.h>
#include <time.h>

#define IR0_ERDP      0x38
#define ERDP_EHB_BIT  (1u << 3)

uint64_t mm_host_direct_map_base;
struct xf_state xf;
struct xf_inner xfi;
void (*xf_fail_hook)(const char *msg);
uint32_t (*xf_oversleep_hook)(uint32_t ms);

/* See xhci_fake_int.h. */
void xf_fail(const char *fmt, ...)
{
	char msg[400];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (xf_fail_hook)
		xf_fail_hook(msg);
	fprintf(stderr, "xhci fake: %s\n", msg);
	abort();
}

/* A zeroed page of the fake RAM; 0 when it is used up. */
uint64_t pmm_alloc_page(void)
{
	if (xfi.pages == XF_RAM_PAGES)
		return 0;
	memset(xfi.ram + xfi.pages * PAGE_SIZE, 0, PAGE_SIZE);
	return xfi.phys_base + xfi.pages++ * PAGE_SIZE;
}

/* Pages are never reused: freeing only checks the address. */
void pmm_free_page(uint64_t phys)
{
	if (phys < xfi.phys_base || phys >= xfi.phys_base + XF_RAM_PAGES * PAGE_SIZE || phys % PAGE_SIZE)
		xf_fail("pmm_free_page(0x%llx): not a page of the fake RAM", (unsigned long long)phys);
}

/* Kept in xf.last_log; timeouts are counted. */
void printk(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(xf.last_log, sizeof(xf.last_log), fmt, ap);
	va_end(ap);
	if (strstr(xf.last_log, "got no answer"))
		xf.timeouts_logged++;
	if (getenv("XF_VERBOSE"))
		fputs(xf.last_log, stderr);
}

/* The fake clock. */
uint64_t time_ns(void)
{
	return xf.now_ns;
}

/* The controller works while the thread sleeps (sometimes longer). */
void usb_sleep_ms(uint32_t ms)
{
	xf_advance(ms + (xf_oversleep_hook ? xf_oversleep_hook(ms) : 0));
}

/* See xhci_fake_int.h. */
volatile struct xhci_trb *xf_trb_at(uint64_t phys)
{
	if (phys < xfi.phys_base || phys + 16 > xfi.phys_base + xfi.pages * PAGE_SIZE || phys % 16)
		xf_fail("TRB address 0x%llx outside the fake RAM or unaligned", (unsigned long long)phys);
	return phys_to_virt(phys);
}

/* Read ERDP: it must lie between what the driver had consumed and the
 * last event written; the events it passed over are consumed. */
void xf_sync(void)
{
	volatile uint32_t *r = (volatile uint32_t *)(xfi.rt + IR0_ERDP);
	uint64_t v = r[0] | (uint64_t)r[1] << 32, ptr = v & ~0xFull;
	if (v == xfi.erdp_last)
		return;
	if ((v & 7) || !(v & ERDP_EHB_BIT))
		xf_fail("ERDP written as 0x%llx: segment index not 0 or EHB not written 1",
			(unsigned long long)v);
	if (ptr < xfi.evt_base || ptr >= xfi.evt_base + XF_SEG_BYTES)
		xf_fail("ERDP 0x%llx outside the event ring 0x%llx", (unsigned long long)ptr,
			(unsigned long long)xfi.evt_base);
	unsigned idx = (unsigned)((ptr - xfi.evt_base) / 16);
	unsigned adv = (idx + XHCI_RING_TRBS - xfi.cons_idx) % XHCI_RING_TRBS;
	if (adv > xf.events_written - xf.events_consumed)
		xf_fail("ERDP at slot %u is past the last event written (slot %u)", idx, xfi.enq);
	for (unsigned i = 0; i < adv; i++)
		xf_consume(xfi.log[(xf.events_consumed + i) % XHCI_RING_TRBS]);
	xf.events_consumed += adv;
	xfi.cons_idx = idx;
	xfi.erdp_last = v;
}

/* Write waiting events while the ring has room. */
static void flush_events(void)
{
	while (xfi.pend_count && xf.events_written - xf.events_consumed < XF_EVT_ROOM) {
		const struct xhci_trb *ev = &xfi.pending[xfi.pend_head].ev;
		volatile struct xhci_trb *t = phys_to_virt(xfi.evt_base + (uint64_t)xfi.enq * 16);
		t->param = ev->param;
		t->status = ev->status;
		t->control = (ev->control & ~TRB_CYCLE) | xfi.pcs;
		xfi.log[xf.events_written % XHCI_RING_TRBS] = xfi.pending[xfi.pend_head].o;
		xf.events_written++;
		if (++xfi.enq == XHCI_RING_TRBS) {
			xfi.enq = 0;
			xfi.pcs ^= 1;
		}
		xfi.pend_head = (xfi.pend_head + 1) % XF_PENDING_MAX;
		xfi.pend_count--;
	}
}

/* See xhci_fake_int.h. */
void xf_emit(const struct xhci_trb *ev, struct xf_owner o)
{
	if (xfi.pend_count == XF_PENDING_MAX)
		xf_fail("%u events waiting for room in the event ring", XF_PENDING_MAX);
	unsigned i = (xfi.pend_head + xfi.pend_count++) % XF_PENDING_MAX;
	xfi.pending[i].ev = *ev;
	xfi.pending[i].o = o;
	xf_sync();
	flush_events();
}

/* See xhci_fake_int.h. */
struct xhci_trb xf_transfer_event(uint64_t trb, uint32_t cc, uint32_t residual, unsigned slot,
				  unsigned dci)
{
	return (struct xhci_trb){ .param = trb, .status = cc << 24 | (residual & 0xFFFFFF),
				  .control = TRB_SLOT(slot) | TRB_EP(dci) | TRB_TYPE(TRB_EV_TRANSFER) };
}

/* See xhci_fake_int.h. */
void xf_run_until(uint64_t limit)
{
	for (;;) {
		xf_sync();
		flush_events();
		xf_fetch_all();
		struct xf_ep *eps[3] = { &xfi.cmdr, &xfi.ep0, &xfi.intr }, *next = NULL;
		for (int i = 0; i < 3; i++)
			if (eps[i]->iq < eps[i]->nq && eps[i]->q[eps[i]->iq].at <= limit &&
			    (!next || eps[i]->q[eps[i]->iq].at < next->q[next->iq].at))
				next = eps[i];
		if (!next)
			break;
		if (next->q[next->iq].at > xf.now_ns)
			xf.now_ns = next->q[next->iq].at;
		xf_emit_next(next);
	}
	if (limit > xf.now_ns)
		xf.now_ns = limit;
}

/* See xhci_fake.h. */
void xf_advance(uint32_t ms)
{
	xf_run_until(xf.now_ns + ms * XF_MS);
}

/* The doorbell: the named ring is looked at again (a halted endpoint's
 * doorbell is ignored, a stopped one starts running). */
void xhci_ring_doorbell(struct xhci *hc, unsigned slot, unsigned target)
{
	struct xf_ep *e = NULL;
	if (hc != &xf.hc)
		xf_fail("doorbell of another controller");
	if (slot == 0 && target == 0)
		e = &xfi.cmdr;
	else if (slot == xf.dev.slot && target == 1)
		e = &xfi.ep0;
	else if (slot == xf.dev.slot && xfi.keyboard && target == XF_KBD_DCI)
		e = &xfi.intr;
	else
		xf_fail("doorbell %u rung with target %u", slot, target);
	if (e->state == XF_EP_HALTED)
		return;
	e->state = XF_EP_RUNNING;
	e->active = 1;
	xf_run_until(xf.now_ns);
}

/* The controller's side of the driver's ring r, freshly allocated. */
static void ep_init(struct xf_ep *e, const char *name, const struct xhci_ring *r)
{
	e->name = name;
	e->ring = r;
	e->base = e->deq = r->phys;
	e->ccs = 1;
	e->state = XF_EP_RUNNING;
}

/* See xhci_fake.h. */
void xf_init(uint64_t phys_base, unsigned slot, int keyboard)
{
	memset(&xf, 0, sizeof(xf));
	memset(&xfi, 0, sizeof(xfi));
	xfi.phys_base = phys_base;
	xfi.pcs = 1;
	mm_host_direct_map_base = (uint64_t)(uintptr_t)xfi.ram - phys_base;
	struct xhci *hc = &xf.hc;
	struct usb_dev *dev = &xf.dev;
	strcpy(hc->name, "fake");
	hc->ac64 = 1;
	hc->max_ports = 4;
	hc->max_slots = 255;
	hc->rt = xfi.rt;
	if (xhci_ring_alloc(hc, &hc->evt) || xhci_ring_alloc(hc, &hc->cmd) ||
	    xhci_ring_alloc(hc, &dev->ep0) || !(dev->buf = xhci_dma_page(hc, &dev->buf_phys)))
		xf_fail("out of fake RAM");
	xfi.evt_base = hc->evt.phys;
	volatile uint32_t *erdp = (volatile uint32_t *)(xfi.rt + IR0_ERDP);
	erdp[0] = (uint32_t)hc->evt.phys;
	erdp[1] = (uint32_t)(hc->evt.phys >> 32);
	xfi.erdp_last = hc->evt.phys;
	ep_init(&xfi.cmdr, "command ring", &hc->cmd);
	ep_init(&xfi.ep0, "EP0", &dev->ep0);
	dev->hc = hc;
	dev->slot = (uint8_t)slot;
	dev->port = 1;
	dev->mps0 = 64;
	hc->slot_dev[slot] = dev;
	if (!keyboard)
		return;
	if (xhci_ring_alloc(hc, &dev->intr))
		xf_fail("out of fake RAM");
	xfi.keyboard = 1;
	ep_init(&xfi.intr, "interrupt", &dev->intr);
	dev->kbd_dci = XF_KBD_DCI;
	dev->kbd_mps = XF_KBD_MPS;
	dev->kbd = (struct usb_kbd *)(void *)&xfi.kbd_cookie;
	xhci_intr_queue(dev);
}
