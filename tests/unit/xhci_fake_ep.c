/* SPDX-License-Identifier: BSD-2-Clause */
/* xhci_fake_ep.c — how the fake controller of xhci_fake.h consumes its
 * producer rings (xHCI 1.2, 4.9.2: the cycle bit, Link TRBs with Toggle
 * Cycle): EP0's control transfers (4.11.2.2) and the interrupt endpoint's
 * report requests, each answered by its plan, halting errors (4.10.2),
 * and the commands Reset Endpoint, Set TR Dequeue Pointer (4.6.8, 4.6.10)
 * and No Op, whose effects come with their completion. */
#include <tests/unit/xhci_fake_int.h>
#include <string.h>

/* Follow a Link TRB at e->deq (it must send us to the segment's start
 * with Toggle Cycle). */
static void follow_link(struct xf_ep *e, uint32_t control, uint64_t param)
{
	if ((param & ~0xFull) != e->base || !(control & TRB_TC))
		xf_fail("%s: Link TRB at slot %llu: target 0x%llx (ring 0x%llx), TC %u", e->name,
			(unsigned long long)((e->deq - e->base) / 16), (unsigned long long)param,
			(unsigned long long)e->base, !!(control & TRB_TC));
	e->deq = e->base;
	e->ccs ^= 1;
}

/* Consume the next TRB of e (following Link TRBs): 1 with it in *t and
 * its address in *at, 0 when the ring is empty. mid_td: the TD must go on. */
static int next_trb(struct xf_ep *e, int mid_td, struct xhci_trb *t, uint64_t *at)
{
	for (int links = 0;; links++) {
		volatile struct xhci_trb *p = xf_trb_at(e->deq);
		uint32_t c = p->control;
		if ((c & TRB_CYCLE) != e->ccs) {
			if (mid_td)
				xf_fail("%s: a TD not completely written when its doorbell rang",
					e->name);
			return 0;
		}
		if (TRB_TYPE_OF(c) == TRB_LINK) {
			if (mid_td || links)
				xf_fail("%s: %s at slot %llu", e->name,
					mid_td ? "a TD straddles the Link TRB" : "two Link TRBs in a row",
					(unsigned long long)((e->deq - e->base) / 16));
			follow_link(e, c, p->param);
			continue;
		}
		if (e->deq == e->base + XF_SEG_BYTES - 16)
			xf_fail("%s: the segment's last slot holds TRB type %u, not a Link TRB", e->name,
				TRB_TYPE_OF(c));
		t->param = p->param;
		t->status = p->status;
		t->control = c;
		*at = e->deq;
		e->deq += 16;
		return 1;
	}
}

/* Completion codes that halt an endpoint (xHCI 1.2, 4.10.2): the fake's
 * own list. */
static int fake_halts(uint32_t cc)
{
	return cc == 3 || cc == 4 || cc == 6 || cc == 36;
}

/* See xhci_fake_int.h. */
int xf_busy(const struct xf_ep *e)
{
	return e->iq < e->nq || e->waiting;
}

/* Plan an event of e's TD at time at; halts: it halts e at TRB trb. */
static void plan_event(struct xf_ep *e, uint64_t at, struct xhci_trb ev, struct xf_owner o,
		       int halts, uint64_t trb)
{
	e->q[e->nq++] = (struct xf_sched){ .at = at, .ev = ev, .o = o, .halts = halts, .halt_trb = trb };
}

/* EP0: fetch one control transfer and plan its events. */
static void ep0_fetch(void)
{
	struct xhci_trb s, d = { 0 }, st;
	uint64_t sa, da = 0, sta;
	if (!next_trb(&xfi.ep0, 0, &s, &sa)) {
		xfi.ep0.active = 0;
		return;
	}
	uint8_t type = (uint8_t)s.param;
	uint16_t tag = (uint16_t)(s.param >> 16), len = (uint16_t)(s.param >> 48);
	int in = type & 0x80;
	uint32_t trt = (s.control >> 16) & 3;
	if (TRB_TYPE_OF(s.control) != TRB_SETUP || !(s.control & TRB_IDT) || (s.status & 0x1FFFF) != 8 ||
	    trt != (len ? (in ? 3u : 2u) : 0))
		xf_fail("EP0: slot %llu: not a proper Setup TRB (type %u, control 0x%x, length %u)",
			(unsigned long long)((sa - xfi.ep0.base) / 16), TRB_TYPE_OF(s.control), s.control,
			s.status & 0x1FFFF);
	if (len) {
		next_trb(&xfi.ep0, 1, &d, &da);
		if (TRB_TYPE_OF(d.control) != TRB_DATA || (d.status & 0x1FFFF) != len ||
		    !(d.control & TRB_DIR_IN) != !in || !(d.control & TRB_ISP) ||
		    d.param != xf.dev.buf_phys || len > XF_REPORT_OFFSET)
			xf_fail("EP0: transfer %u: bad Data TRB (control 0x%x, length %u, buffer 0x%llx)",
				tag, d.control, d.status & 0x1FFFF, (unsigned long long)d.param);
	}
	next_trb(&xfi.ep0, 1, &st, &sta);
	if (TRB_TYPE_OF(st.control) != TRB_STATUS || !(st.control & TRB_IOC) ||
	    !(st.control & TRB_DIR_IN) != !(!len || !in))
		xf_fail("EP0: transfer %u: bad Status TRB (control 0x%x)", tag, st.control);
	struct xf_td *td = xf_td_of(tag);
	if (!td)
		xf_fail("EP0: transfer %u was never planned", tag);
	if (td->fetched || td->len != len)
		xf_fail("EP0: transfer %u %s", tag, td->fetched ? "run twice" : "has the wrong length");
	td->fetched = 1;
	xf.tds_run++;
	const struct xf_ctl_plan *p = &td->plan;
	unsigned slot = xf.dev.slot;
	uint64_t t0 = xf.now_ns + p->delay_ms * XF_MS;
	struct xf_owner fin = { .kind = XF_OWN_CTL, .final = 1, .id = tag };
	struct xf_owner mid = { .kind = XF_OWN_CTL, .id = tag };
	int halts = fake_halts(p->cc);
	xfi.ep0.nq = xfi.ep0.iq = 0;
	if (p->cc != CC_SUCCESS && p->err_stage == XF_SETUP) {
		plan_event(&xfi.ep0, t0, xf_transfer_event(sa, p->cc, 0, slot, 1), fin, halts, sa);
	} else if (p->cc != CC_SUCCESS && p->err_stage == XF_DATA && len) {
		plan_event(&xfi.ep0, t0, xf_transfer_event(da, p->cc, p->err_residual, slot, 1), fin,
			   halts, da);
	} else {
		if (p->short_data && len) {
			plan_event(&xfi.ep0, t0,
				   xf_transfer_event(da, CC_SHORT_PACKET, p->short_residual, slot, 1), mid,
				   0, 0);
			t0 += p->status_delay_ms * XF_MS;
		}
		plan_event(&xfi.ep0, t0, xf_transfer_event(sta, p->cc, 0, slot, 1), fin, halts, sta);
	}
}

/* Interrupt IN: fetch one report request. */
static void intr_fetch(void)
{
	struct xhci_trb t;
	uint64_t at;
	if (!next_trb(&xfi.intr, 0, &t, &at)) {
		xfi.intr.active = 0;
		return;
	}
	if (TRB_TYPE_OF(t.control) != TRB_NORMAL || !(t.control & TRB_IOC) || !(t.control & TRB_ISP) ||
	    (t.status & 0x1FFFF) != XF_KBD_MPS || t.param != xf.dev.buf_phys + XF_REPORT_OFFSET)
		xf_fail("interrupt: slot %llu: bad Normal TRB (control 0x%x, length %u, buffer 0x%llx)",
			(unsigned long long)((at - xfi.intr.base) / 16), t.control, t.status & 0x1FFFF,
			(unsigned long long)t.param);
	xfi.intr.req_trb = at;
	xfi.intr.waiting = 1;
	xfi.intr.nq = xfi.intr.iq = 0;
}

/* A waiting report request meets the next plan. */
static void intr_answer(void)
{
	if (!xfi.intr.waiting || !xfi.nplans)
		return;
	const struct xf_report_plan *p = &xfi.plans[xfi.plan_head];
	xfi.plan_head = (xfi.plan_head + 1) % XF_PLANS_MAX;
	xfi.nplans--;
	xfi.intr.waiting = 0;
	struct xf_owner o = { .kind = XF_OWN_INTR, .final = 1 };
	plan_event(&xfi.intr, xf.now_ns + p->delay_ms * XF_MS,
		   xf_transfer_event(xfi.intr.req_trb, p->cc, p->residual, xf.dev.slot, XF_KBD_DCI), o,
		   fake_halts(p->cc), xfi.intr.req_trb);
}

/* Commands: fetch the next one; it completes after its planned delay. */
static void cmd_fetch(void)
{
	struct xhci_trb t;
	uint64_t at;
	if (!next_trb(&xfi.cmdr, 0, &t, &at)) {
		xfi.cmdr.active = 0;
		return;
	}
	uint32_t delay = 0;
	if (xfi.ncmd_delay) {
		delay = xfi.cmd_delay[0];
		memmove(xfi.cmd_delay, xfi.cmd_delay + 1, --xfi.ncmd_delay * sizeof(xfi.cmd_delay[0]));
	}
	xfi.cmdr.cmd = t;
	xfi.cmdr.cmd_at = at;
	xfi.cmdr.cmd_id = xfi.next_cmd++;
	xfi.cmds[xfi.cmdr.cmd_id % XF_CMDS].open = 1;
	xfi.cmds[xfi.cmdr.cmd_id % XF_CMDS].type = TRB_TYPE_OF(t.control);
	xfi.cmdr.nq = xfi.cmdr.iq = 0;
	struct xf_owner o = { .kind = XF_OWN_CMD, .final = 1, .id = xfi.cmdr.cmd_id };
	plan_event(&xfi.cmdr, xf.now_ns + delay * XF_MS, (struct xhci_trb){ 0 }, o, 0, 0);
}

/* The endpoint a command names (slot and endpoint id of its control). */
static struct xf_ep *cmd_endpoint(uint32_t control)
{
	unsigned slot = control >> 24, dci = (control >> 16) & 0x1F;
	if (slot == xf.dev.slot && dci == 1)
		return &xfi.ep0;
	if (slot == xf.dev.slot && xfi.keyboard && dci == XF_KBD_DCI)
		return &xfi.intr;
	xf_fail("command for slot %u endpoint %u, which the device does not have", slot, dci);
}

/* Carry out the command under way (xHCI 1.2, 4.6.8, 4.6.10); its code. */
static uint32_t cmd_execute(const struct xhci_trb *t)
{
	switch (TRB_TYPE_OF(t->control)) {
	case XF_TRB_NOOP_CMD:
		return CC_SUCCESS;
	case TRB_RESET_EP: {
		struct xf_ep *e = cmd_endpoint(t->control);
		if (e->state != XF_EP_HALTED)
			return XF_CC_CONTEXT_STATE;
		if (e == &xfi.ep0)
			xf.ep0_resets++;
		e->state = XF_EP_STOPPED;
		return CC_SUCCESS;
	}
	case TRB_SET_DEQUEUE: {
		struct xf_ep *e = cmd_endpoint(t->control);
		uint64_t ptr = t->param & ~0xFull;
		if (e->state != XF_EP_STOPPED)
			return XF_CC_CONTEXT_STATE;
		if ((t->param & 0xE) || ptr < e->base || ptr >= e->base + XF_SEG_BYTES - 16)
			xf_fail("%s: Set TR Dequeue Pointer 0x%llx outside its ring", e->name,
				(unsigned long long)t->param);
		e->deq = ptr;
		e->ccs = t->param & 1;
		return CC_SUCCESS;
	}
	default:
		xf_fail("command type %u not expected here", TRB_TYPE_OF(t->control));
	}
}

/* See xhci_fake_int.h. */
void xf_emit_next(struct xf_ep *e)
{
	struct xf_sched *s = &e->q[e->iq++];
	if (e == &xfi.cmdr) {
		uint32_t cc = cmd_execute(&e->cmd);
		s->ev = (struct xhci_trb){ .param = e->cmd_at, .status = cc << 24,
					   .control = (e->cmd.control & 0xFF000000u) |
						      TRB_TYPE(TRB_EV_COMMAND) };
		xf.commands++;
	} else if (e == &xfi.intr) {
		uint32_t cc = s->ev.status >> 24, residual = s->ev.status & 0xFFFFFF;
		if (cc == CC_SUCCESS || cc == CC_SHORT_PACKET) {
			struct xf_report r = { .len = residual > XF_KBD_MPS ? 0 : XF_KBD_MPS - residual,
					       .seed = xfi.report_seed++ };
			uint8_t *buf = xf.dev.buf + XF_REPORT_OFFSET;
			for (uint32_t i = 0; i < r.len; i++)
				buf[i] = (uint8_t)(r.seed + i * 31);
			if (xfi.nreports == XF_PLANS_MAX)
				xf_fail("interrupt: %u reports not handed on", XF_PLANS_MAX);
			xfi.reports[(xfi.rep_head + xfi.nreports++) % XF_PLANS_MAX] = r;
			xf.reports_expected++;
			xfi.report_errors = 0;
		} else {
			xfi.report_errors++;
		}
	}
	if (s->halts && e == &xfi.ep0) {
		s->o.halt = ++xfi.ep0_halts;
		xfi.ep0_halt_seen = 0;
	}
	xf_emit(&s->ev, s->o);
	if (s->halts) {
		e->state = XF_EP_HALTED;
		e->active = 0;
		e->deq = s->halt_trb;
	}
}

/* See xhci_fake_int.h. */
void xf_fetch_all(void)
{
	if (xfi.ep0.state == XF_EP_RUNNING && xfi.ep0.active && !xf_busy(&xfi.ep0))
		ep0_fetch();
	if (xfi.keyboard && xfi.intr.state == XF_EP_RUNNING && xfi.intr.active && !xf_busy(&xfi.intr))
		intr_fetch();
	intr_answer();
	if (xfi.cmdr.active && !xf_busy(&xfi.cmdr))
		cmd_fetch();
}
