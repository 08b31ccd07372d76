/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * xhci_ring.c — the xHCI rings (xHCI 1.2, 4.9): producer rings of TRBs
 * with a cycle bit and a Link TRB back to their start, the event ring the
 * controller fills, and commands run one at a time. USB thread only.
 */
#include <dev/usb/xhci.h>
#include <mm/mm.h>
#include <kern/printk.h>
#include <arch/x86_64/clock/time.h>

#define LINK_SLOT (XHCI_RING_TRBS - 1)
#define IR_ERDP   0x38
#define ERDP_EHB  (1u << 3)

/* See xhci.h. One zeroed page the controller can address (below 4 GiB
 * when it has no 64-bit addressing); NULL, logged, otherwise. */
void *xhci_dma_page(struct xhci *hc, uint64_t *phys)
{
	uint64_t p = pmm_alloc_page();
	if (!p) {
		printk("xhci %s: out of memory\n", hc->name);
		return NULL;
	}
	if (!hc->ac64 && p >= (1ull << 32)) {
		pmm_free_page(p);
		printk("xhci %s: a page above 4 GiB for a controller without 64-bit addressing\n",
		       hc->name);
		return NULL;
	}
	*phys = p;
	return phys_to_virt(p);
}

/* See xhci.h. */
void xhci_dma_free(void *virt)
{
	if (virt)
		pmm_free_page(virt_to_phys(virt));
}

/* See xhci.h. */
int xhci_ring_alloc(struct xhci *hc, struct xhci_ring *r)
{
	r->trb = xhci_dma_page(hc, &r->phys);
	r->idx = 0;
	r->cycle = 1;
	return r->trb ? 0 : -1;
}

/* Close the current pass with a Link TRB at idx (any slot may hold one).
 * The slots after it still hold TRBs of earlier passes, whose cycle bits
 * the next pass could take for its own; each gets this pass's bit, so the
 * controller stops there until the next pass writes them (it consumed
 * them in an earlier pass, unless the ring overflowed). */
static void ring_wrap(struct xhci_ring *r)
{
	volatile struct xhci_trb *t = &r->trb[r->idx];
	for (uint32_t i = r->idx + 1; i <= LINK_SLOT; i++)
		r->trb[i].control = r->cycle;
	t->param = r->phys;
	t->status = 0;
	__atomic_thread_fence(__ATOMIC_RELEASE);
	t->control = TRB_TYPE(TRB_LINK) | TRB_TC | r->cycle;
	r->idx = 0;
	r->cycle ^= 1;
}

/* See xhci.h: the next n TRBs will be contiguous (a TD never straddles
 * the link). */
void xhci_ring_reserve(struct xhci_ring *r, unsigned n)
{
	if (r->idx + n > LINK_SLOT)
		ring_wrap(r);
}

/* See xhci.h. Writes one TRB, its cycle bit last; returns its address. */
uint64_t xhci_ring_push(struct xhci_ring *r, uint64_t param, uint32_t status, uint32_t control)
{
	volatile struct xhci_trb *t = &r->trb[r->idx];
	uint64_t phys = r->phys + (uint64_t)r->idx * sizeof(struct xhci_trb);
	t->param = param;
	t->status = status;
	__atomic_thread_fence(__ATOMIC_RELEASE);
	t->control = (control & ~TRB_CYCLE) | r->cycle;
	if (++r->idx == LINK_SLOT)
		ring_wrap(r);
	return phys;
}

/* See xhci.h: the address of the next TRB to be written with the ring's
 * cycle state in bit 0, the TR Dequeue Pointer (xHCI 1.2, 6.4.3.9) that
 * skips everything queued so far. */
uint64_t xhci_ring_next_ptr(const struct xhci_ring *r)
{
	return (r->phys + (uint64_t)r->idx * sizeof(struct xhci_trb)) | r->cycle;
}

/* A Command Completion Event (its Command TRB Pointer is the command's
 * physical address, xHCI 1.2, 6.4.2.2): the command under way is done.
 * Any other completion (a command given up on, a duplicate) is stale. */
static void command_event(struct xhci *hc, const struct xhci_trb *ev)
{
	if (ev->param != hc->cmd_trb || hc->cmd_done) {
		hc->stale_events++;
		return;
	}
	hc->cmd_cc = ev->status >> 24;
	hc->cmd_slot = (uint8_t)(ev->control >> 24);
	__atomic_store_n(&hc->cmd_done, 1, __ATOMIC_RELEASE);
}

/* See xhci.h. Consumes every event the controller has written, then
 * moves the dequeue pointer. Port changes are only noted here (handled by
 * the thread's loop), so a wait inside a transfer never recurses. */
void xhci_poll_events(struct xhci *hc)
{
	int any = 0;
	for (;;) {
		volatile struct xhci_trb *t = &hc->evt.trb[hc->evt.idx];
		uint32_t control = t->control;
		if ((control & TRB_CYCLE) != hc->evt.cycle)
			break;
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		struct xhci_trb ev = { .param = t->param, .status = t->status, .control = control };
		if (++hc->evt.idx == XHCI_RING_TRBS) {
			hc->evt.idx = 0;
			hc->evt.cycle ^= 1;
		}
		any = 1;
		hc->events++;
		switch (TRB_TYPE_OF(control)) {
		case TRB_EV_COMMAND:
			command_event(hc, &ev);
			break;
		case TRB_EV_TRANSFER:
			xhci_transfer_event(hc, &ev);
			break;
		case TRB_EV_PORT: {
			unsigned port = (unsigned)(ev.param >> 24) & 0xFF;
			if (port >= 1 && port <= hc->max_ports) {
				hc->port_pending[(port - 1) / 8] |= (uint8_t)(1u << ((port - 1) % 8));
				hc->port_changes++;
			}
			break;
		}
		default:
			break;
		}
	}
	if (any) {
		uint64_t erdp = hc->evt.phys + (uint64_t)hc->evt.idx * sizeof(struct xhci_trb);
		volatile uint32_t *r = (volatile uint32_t *)(hc->rt + IR_ERDP);
		r[0] = (uint32_t)erdp | ERDP_EHB;
		r[1] = (uint32_t)(erdp >> 32);
	}
}

/* See xhci.h. Runs one command and waits for its completion; returns the
 * completion code (0 after the timeout, logged: its completion, should it
 * come later, is stale). The slot id of Enable Slot is left in
 * hc->cmd_slot. */
int xhci_command(struct xhci *hc, uint64_t param, uint32_t control, uint32_t timeout_ms)
{
	hc->cmd_done = 0;
	hc->cmd_trb = xhci_ring_push(&hc->cmd, param, 0, control);
	xhci_ring_doorbell(hc, 0, 0);
	uint64_t deadline = time_ns() + (uint64_t)timeout_ms * 1000000;
	for (;;) {
		xhci_poll_events(hc);
		if (__atomic_load_n(&hc->cmd_done, __ATOMIC_ACQUIRE))
			return (int)hc->cmd_cc;
		if (time_ns() > deadline) {
			hc->cmd_done = 1;
			printk("xhci %s: command type %u got no answer in %u ms\n", hc->name,
			       TRB_TYPE_OF(control), timeout_ms);
			return 0;
		}
		usb_sleep_ms(1);
	}
}
