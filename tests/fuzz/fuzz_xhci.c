/* SPDX-License-Identifier: BSD-2-Clause */
/* Fuzz harness of the xHCI event and transfer handling
 * (kernel/dev/usb/xhci_ring.c, xhci_dev.c) against the fake controller of
 * tests/unit/xhci_fake.c, which consumes the rings as xHCI does and keeps
 * the model. Each iteration is a few random steps of the USB thread's
 * life: control transfers with random lengths, directions and endings
 * (success, short data stages with any residual, halting errors on any
 * stage, delays around and beyond the 1 s timeout, so late events of
 * transfers given up on arrive during later ones), keyboard reports with
 * every kind of completion, No Op commands that time out and complete
 * late, spurious and port events (now and then more than the event ring
 * holds), idle polling with endpoint resets; the thread oversleeps at
 * random. Checked: every transfer returns its own result once (code and
 * bytes, never more than asked) and times out only when EP0 could not run
 * it; after each iteration the stale count is exact, every ring ends
 * where the controller sees it, no doorbell is missing, ERDP is at the
 * last event and every report event was handed on whole.
 *
 * A controller lives for WORLD_ITERATIONS iterations, so its rings wrap
 * many times; iteration i depends on the ones before it since its
 * controller started, and --iterations i+1 replays them all. */
#include <tests/fuzz/fuzz.h>
#include <tests/unit/xhci_fake.h>

#define WORLD_ITERATIONS 4096

static struct fuzz *cur;
static uint16_t tag_seq;
static const uint32_t halting[] = { CC_STALL, CC_TRANSACTION, CC_BABBLE, CC_SPLIT_TRANSACTION };

static void fail_hook(const char *msg)
{
	fuzz_fail(cur, "%s", msg);
}

/* Now and then the thread is not scheduled for a while. */
static uint32_t oversleep(uint32_t ms)
{
	(void)ms;
	return fuzz_below(cur, 16) ? 0 : 1 + (uint32_t)fuzz_below(cur, 256);
}

/* How long the device takes: mostly at once, sometimes near or past the
 * driver's 1 s timeout. */
static uint32_t pick_delay(struct fuzz *f)
{
	switch (fuzz_below(f, 24)) {
	case 0:
		return 900 + (uint32_t)fuzz_below(f, 200);
	case 1:
		return 1000 + (uint32_t)fuzz_below(f, 2000);
	case 2:
	case 3:
		return 5 + (uint32_t)fuzz_below(f, 200);
	case 4:
	case 5:
	case 6:
	case 7:
		return 1 + (uint32_t)fuzz_below(f, 5);
	default:
		return 0;
	}
}

static void plan_control(struct fuzz *f, uint16_t len, int in, struct xf_ctl_plan *p)
{
	memset(p, 0, sizeof(*p));
	p->delay_ms = pick_delay(f);
	p->cc = CC_SUCCESS;
	if (in && len && fuzz_below(f, 4) == 0) {
		p->short_data = 1;
		p->short_residual = fuzz_below(f, 16) ? (uint32_t)fuzz_below(f, len + 1u)
						      : len + (uint32_t)fuzz_below(f, 100);
		p->status_delay_ms = fuzz_below(f, 3) ? 0 : pick_delay(f);
	}
	if (fuzz_below(f, 6) == 0) {
		p->cc = halting[fuzz_below(f, 4)];
		p->err_stage = (enum xf_stage)fuzz_below(f, 3);
		p->err_residual = (uint32_t)fuzz_below(f, len + 1u);
	}
}

/* One control transfer, checked by the model. */
static void act_control(struct fuzz *f)
{
	static const uint16_t lens[] = { 0, 0, 1, 8, 9, 18, 64, 255, 2048 };
	uint16_t len = fuzz_below(f, 4) ? lens[fuzz_below(f, sizeof(lens) / sizeof(lens[0]))]
					: (uint16_t)fuzz_below(f, 2049);
	int in = fuzz_below(f, 3) != 0;
	struct xf_ctl_plan p;
	plan_control(f, len, in, &p);
	if (fuzz_below(f, 8) == 0 && !xf_command_delays())
		xf_command_delay((uint32_t)fuzz_below(f, 30));
	uint16_t tag = tag_seq++;
	uint32_t got = 0xDEAD;
	xf_control_open(tag, len, &p);
	int cc = xhci_control(&xf.dev, in ? 0x80 : 0x00, (uint8_t)fuzz_u64(f), tag,
			      (uint16_t)fuzz_u64(f), len, &got);
	xf_control_check(tag, len, cc, got);
}

/* The thread's loop: events, port changes, endpoint resets, sleep. */
static void act_idle(struct fuzz *f)
{
	for (int i = 1 + (int)fuzz_below(f, 4); i > 0; i--) {
		xhci_poll_events(&xf.hc);
		memset(xf.hc.port_pending, 0, sizeof(xf.hc.port_pending));
		xhci_dev_service(&xf.hc);
		usb_sleep_ms(1 + (uint32_t)fuzz_below(f, 20));
	}
}

/* The keyboard will answer its next request. */
static void act_report(struct fuzz *f)
{
	if (xf_report_plans() >= 3)
		return;
	struct xf_report_plan r = { .cc = CC_SUCCESS };
	r.delay_ms = fuzz_below(f, 4) ? (uint32_t)fuzz_below(f, 10) : (uint32_t)fuzz_below(f, 300);
	switch (fuzz_below(f, 12)) {
	case 0:
		r.cc = halting[fuzz_below(f, 4)];
		r.residual = XF_KBD_MPS;
		break;
	case 1:
		r.cc = XF_CC_MISSED_SERVICE;
		r.residual = XF_KBD_MPS;
		break;
	case 2:
	case 3:
		r.cc = CC_SHORT_PACKET;
		r.residual = 1 + (uint32_t)fuzz_below(f, XF_KBD_MPS + 1);
		break;
	default:
		break;
	}
	xf_report_push(&r);
}

/* A No Op command on an idle command ring that may time out and then
 * complete late (at most 300 ms: later commands still fit their 500 ms). */
static void act_noop(struct fuzz *f)
{
	if (!xf_command_idle() || xf_command_delays())
		return;
	uint32_t timeout = 20 + (uint32_t)fuzz_below(f, 100);
	xf_command_delay(fuzz_below(f, 2) ? (uint32_t)fuzz_below(f, timeout)
					  : timeout + (uint32_t)fuzz_below(f, 300));
	int cc = xhci_command(&xf.hc, 0, TRB_TYPE(XF_TRB_NOOP_CMD), timeout);
	if (cc == 0)
		xf_command_given_up();
	else if (cc != CC_SUCCESS)
		fuzz_fail(f, "No Op completed with code %d", cc);
}

static void act_spurious(struct fuzz *f)
{
	static const uint32_t codes[] = { CC_SUCCESS, CC_SHORT_PACKET, CC_STALL, CC_TRANSACTION, 5, 26 };
	uint32_t cc = codes[fuzz_below(f, sizeof(codes) / sizeof(codes[0]))];
	if (fuzz_below(f, 3))
		xf_spurious((unsigned)fuzz_below(f, 5), cc);
	else
		xf_port_event(1 + (unsigned)fuzz_below(f, 6));
}

/* More events than the event ring holds, at once: the controller waits
 * for ERDP to move before it writes the rest. */
static void act_flood(struct fuzz *f)
{
	for (int i = 200 + (int)fuzz_below(f, 200); i > 0; i--)
		if (fuzz_below(f, 4))
			xf_spurious((unsigned)fuzz_below(f, 5), CC_SUCCESS);
		else
			xf_port_event(1 + (unsigned)fuzz_below(f, 4));
}

static void fuzz_one(struct fuzz *f)
{
	cur = f;
	if (f->iteration % WORLD_ITERATIONS == 0) {
		xf_fail_hook = fail_hook;
		xf_oversleep_hook = oversleep;
		uint64_t base = (fuzz_below(f, 2) ? 0x100000000ull : 0x10000000ull) +
				fuzz_below(f, 0x8000) * 0x10000;
		xf_init(base, 1 + (unsigned)fuzz_below(f, 255), fuzz_below(f, 8) != 0);
		tag_seq = (uint16_t)fuzz_u64(f);
	}
	for (int n = 1 + (int)fuzz_below(f, 3); n > 0; n--) {
		switch (fuzz_below(f, 16)) {
		case 0:
		case 1:
		case 2:
			act_idle(f);
			break;
		case 3:
		case 4:
		case 5:
			act_report(f);
			break;
		case 6:
			act_noop(f);
			break;
		case 7:
			if (fuzz_below(f, 32))
				act_spurious(f);
			else
				act_flood(f);
			break;
		default:
			act_control(f);
			break;
		}
	}
	xhci_poll_events(&xf.hc);
	xhci_dev_service(&xf.hc);
	xhci_poll_events(&xf.hc);
	memset(xf.hc.port_pending, 0, sizeof(xf.hc.port_pending));
	xf_check(1);
	xf_check_keyboard_alive();
}

FUZZ_MAIN("xhci")
