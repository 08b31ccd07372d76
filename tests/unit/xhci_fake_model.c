/* SPDX-License-Identifier: BSD-2-Clause */
/* xhci_fake_model.c — the model the driver is checked against (see
 * xhci_fake.h): which events were stale, what each control transfer must
 * return, the reports the keyboard driver must get, and the consistency
 * checks of the rings. */
#include <tests/unit/xhci_fake_int.h>

/* See xhci_fake_int.h. */
struct xf_td *xf_td_of(uint16_t tag)
{
	struct xf_td *td = &xfi.tds[tag % XF_TDS];
	return td->used && td->tag == tag ? td : NULL;
}

/* See xhci_fake_int.h. */
void xf_consume(struct xf_owner o)
{
	switch (o.kind) {
	case XF_OWN_CTL: {
		struct xf_td *td = xf_td_of(o.id);
		if (o.halt && o.halt == xfi.ep0_halts)
			xfi.ep0_halt_seen = 1;
		if (!td)
			xf_fail("model: an event of transfer %u, which is forgotten", o.id);
		if (!td->open)
			xf.stale_expected++;
		else if (o.final)
			td->final_consumed = 1;
		break;
	}
	case XF_OWN_CMD:
		if (!xfi.cmds[o.id % XF_CMDS].open)
			xf.stale_expected++;
		xfi.cmds[o.id % XF_CMDS].open = 0;
		break;
	case XF_OWN_STALE:
		xf.stale_expected++;
		break;
	default:
		break;
	}
}

/* The keyboard driver's entry: the report must be the next one the
 * controller wrote, whole. */
void usbkbd_report(struct usb_kbd *kbd, const uint8_t *buf, uint32_t len)
{
	if ((void *)kbd != (void *)&xfi.kbd_cookie || buf != xf.dev.buf + XF_REPORT_OFFSET)
		xf_fail("usbkbd_report: wrong keyboard or buffer");
	if (!xfi.nreports)
		xf_fail("usbkbd_report: a report (%u bytes) no event was written for", len);
	struct xf_report r = xfi.reports[xfi.rep_head];
	xfi.rep_head = (xfi.rep_head + 1) % XF_PLANS_MAX;
	xfi.nreports--;
	if (len != r.len)
		xf_fail("usbkbd_report: %u bytes, the controller wrote %u", len, r.len);
	for (uint32_t i = 0; i < len; i++)
		if (buf[i] != (uint8_t)(r.seed + i * 31))
			xf_fail("usbkbd_report: byte %u differs", i);
	xf.reports_delivered++;
}

/* See xhci_fake.h. */
void xf_control_open(uint16_t tag, uint16_t len, const struct xf_ctl_plan *plan)
{
	struct xf_td *td = &xfi.tds[tag % XF_TDS];
	if (td->used && td->open)
		xf_fail("model: tag %u reused while transfer %u is open", tag, td->tag);
	*td = (struct xf_td){ .used = 1, .open = 1, .tag = tag, .len = len, .plan = *plan };
}

/* See xhci_fake.h. */
void xf_control_expect(const struct xf_ctl_plan *p, uint16_t len, uint32_t *cc, uint32_t *got)
{
	uint32_t residual = 0;
	if (p->cc != CC_SUCCESS && p->err_stage == XF_SETUP)
		residual = len;
	else if (p->cc != CC_SUCCESS && p->err_stage == XF_DATA && len)
		residual = p->err_residual;
	else if (p->short_data && len)
		residual = p->short_residual;
	*cc = p->cc;
	*got = residual > len ? 0 : len - residual;
}

/* See xhci_fake.h. */
void xf_control_check(uint16_t tag, uint16_t len, int cc, uint32_t got)
{
	xf_sync();
	struct xf_td *td = xf_td_of(tag);
	if (!td || !td->open)
		xf_fail("model: transfer %u checked but not open", tag);
	td->open = 0;
	if (cc == 0) {
		if (td->final_consumed)
			xf_fail("transfer %u timed out after its final event was consumed", tag);
		int halt_unseen = xfi.ep0.state == XF_EP_HALTED && !xfi.ep0_halt_seen;
		if (!td->fetched && !xf_busy(&xfi.ep0) && !halt_unseen)
			xf_fail("transfer %u timed out unrun though EP0 could run it (state %d, halt %s)",
				tag, xfi.ep0.state, xfi.ep0_halt_seen ? "seen by the driver" : "not seen");
		if (got)
			xf_fail("transfer %u timed out with %u bytes", tag, got);
		return;
	}
	uint32_t want_cc, want_got;
	xf_control_expect(&td->plan, len, &want_cc, &want_got);
	if (!td->final_consumed)
		xf_fail("transfer %u returned code %d before its own final event came (a stale one "
			"completed it?)", tag, cc);
	if ((uint32_t)cc != want_cc || got != want_got || got > len)
		xf_fail("transfer %u returned code %d, %u bytes; the device said code %u, %u bytes of %u",
			tag, cc, got, want_cc, want_got, len);
}

/* See xhci_fake.h. */
void xf_report_push(const struct xf_report_plan *plan)
{
	if (xfi.nplans == XF_PLANS_MAX)
		xf_fail("model: too many report plans");
	xfi.plans[(xfi.plan_head + xfi.nplans++) % XF_PLANS_MAX] = *plan;
	xf_run_until(xf.now_ns);
}

/* See xhci_fake.h. */
unsigned xf_report_plans(void)
{
	return xfi.nplans;
}

/* See xhci_fake.h. */
void xf_command_delay(uint32_t ms)
{
	if (xfi.ncmd_delay == XF_PLANS_MAX)
		xf_fail("model: too many command delays");
	xfi.cmd_delay[xfi.ncmd_delay++] = ms;
}

/* See xhci_fake.h. */
unsigned xf_command_delays(void)
{
	return xfi.ncmd_delay;
}

/* See xhci_fake.h. */
int xf_command_idle(void)
{
	return !xf_busy(&xfi.cmdr) && !xfi.cmdr.active;
}

/* See xhci_fake.h. */
void xf_command_given_up(void)
{
	xf_sync();
	uint16_t id = (uint16_t)(xfi.next_cmd - 1);
	if (!xfi.next_cmd || xfi.cmds[id % XF_CMDS].type != XF_TRB_NOOP_CMD)
		xf_fail("model: the latest command is not a No Op");
	xfi.cmds[id % XF_CMDS].open = 0;
}

/* See xhci_fake.h. */
void xf_spurious(unsigned kind, uint32_t cc)
{
	unsigned slot = xf.dev.slot, other = slot % 255 + 1;
	struct xf_owner o = { .kind = XF_OWN_STALE };
	struct xhci_trb ev;
	switch (kind) {
	case 0:
		ev = xf_transfer_event(xfi.ep0.base, cc, 0, other, 1);
		break;
	case 1:
		ev = xf_transfer_event(xfi.ep0.base, cc, 0, slot, 5);
		break;
	case 2:
		ev = xf_transfer_event(xfi.ep0.base + XF_SEG_BYTES + 16, cc, 0, slot, 1);
		break;
	case 3:
		ev = xf_transfer_event(xfi.intr.base + XF_SEG_BYTES, cc, 0, slot, XF_KBD_DCI);
		break;
	default:
		ev = (struct xhci_trb){ .param = xfi.cmdr.base + XF_SEG_BYTES, .status = cc << 24,
					.control = TRB_TYPE(TRB_EV_COMMAND) };
		break;
	}
	xf_emit(&ev, o);
}

/* See xhci_fake.h. */
void xf_port_event(unsigned port)
{
	struct xhci_trb ev = { .param = (uint64_t)port << 24, .status = CC_SUCCESS << 24,
			       .control = TRB_TYPE(TRB_EV_PORT) };
	xf_emit(&ev, (struct xf_owner){ .kind = XF_OWN_PORT });
}

/* The controller's view of ring e, from its dequeue pointer along the
 * cycle bits, must end exactly at the driver's enqueue. */
static void check_ring(const struct xf_ep *e)
{
	uint64_t p = e->deq;
	uint32_t c = e->ccs;
	for (unsigned n = 0;; n++) {
		if (n > 2 * XHCI_RING_TRBS)
			xf_fail("%s: every TRB looks written", e->name);
		volatile struct xhci_trb *t = xf_trb_at(p);
		uint32_t control = t->control;
		if ((control & TRB_CYCLE) != c)
			break;
		if (TRB_TYPE_OF(control) == TRB_LINK) {
			if ((t->param & ~0xFull) != e->base || !(control & TRB_TC))
				xf_fail("%s: bad Link TRB at slot %llu", e->name,
					(unsigned long long)((p - e->base) / 16));
			p = e->base;
			c ^= 1;
			continue;
		}
		p += 16;
		if (p == e->base + XF_SEG_BYTES)
			xf_fail("%s: the segment ends without a Link TRB", e->name);
	}
	uint64_t want = e->base + (uint64_t)e->ring->idx * 16;
	if (p != want || c != e->ring->cycle)
		xf_fail("%s: the controller's view ends at slot %llu cycle %u, the driver writes slot %u "
			"cycle %u next (a TRB overwritten before it was consumed?)", e->name,
			(unsigned long long)((p - e->base) / 16), c, e->ring->idx, e->ring->cycle);
}

/* A running ring the controller is not looking at must be empty: else the
 * driver queued TRBs without ringing the doorbell. */
static void check_rung(const struct xf_ep *e)
{
	if (e->state != XF_EP_RUNNING || e->active || xf_busy(e))
		return;
	volatile struct xhci_trb *t = xf_trb_at(e->deq);
	uint32_t c = e->ccs;
	if ((t->control & TRB_CYCLE) == c && TRB_TYPE_OF(t->control) == TRB_LINK) {
		t = xf_trb_at(e->base);
		c ^= 1;
	}
	if ((t->control & TRB_CYCLE) == c)
		xf_fail("%s: TRBs queued but the doorbell was not rung", e->name);
}

/* See xhci_fake.h. */
void xf_check(int all_consumed)
{
	xf_sync();
	check_ring(&xfi.cmdr);
	check_ring(&xfi.ep0);
	check_rung(&xfi.cmdr);
	check_rung(&xfi.ep0);
	if (xfi.keyboard) {
		check_ring(&xfi.intr);
		check_rung(&xfi.intr);
	}
	if (xf.hc.stale_events != xf.stale_expected)
		xf_fail("%llu stale events counted, %llu expected",
			(unsigned long long)xf.hc.stale_events, (unsigned long long)xf.stale_expected);
	if (!all_consumed || xfi.pend_count)
		return;
	if (xf.events_consumed != xf.events_written)
		xf_fail("after a poll ERDP says %llu of %llu events consumed",
			(unsigned long long)xf.events_consumed, (unsigned long long)xf.events_written);
	if (xf.hc.evt.idx != xfi.enq || xf.hc.evt.cycle != xfi.pcs)
		xf_fail("event ring: driver at slot %u cycle %u, controller writes slot %u cycle %u",
			xf.hc.evt.idx, xf.hc.evt.cycle, xfi.enq, xfi.pcs);
	if (xf.reports_delivered != xf.reports_expected)
		xf_fail("%llu reports handed on, %llu written", (unsigned long long)xf.reports_delivered,
			(unsigned long long)xf.reports_expected);
}

/* See xhci_fake.h. */
void xf_check_keyboard_alive(void)
{
	if (!xfi.keyboard || xfi.report_errors >= 16 || xfi.pend_count)
		return;
	if (!xf_busy(&xfi.intr) && !(xfi.intr.state == XF_EP_HALTED && xf.dev.intr_reset))
		xf_fail("interrupt: no report request outstanding (state %d, %u errors in a row)",
			xfi.intr.state, xfi.report_errors);
}

/* The stick driver's entry: the fake device has no stick (its msd stays
 * NULL), so xhci_dev.c must never route an event here. */
int usb_msd_event(struct usb_msd *m, unsigned dci, uint64_t trb, uint32_t cc, uint32_t residual)
{
	(void)m;
	xf_fail("usb_msd_event: an event for DCI %u (TRB 0x%lx, cc %u, residual %u) routed to a stick "
		"the fake device does not have", dci, (unsigned long)trb, cc, residual);
	return 0;
}
