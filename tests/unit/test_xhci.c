/* SPDX-License-Identifier: BSD-2-Clause */
/* Host tests of the xHCI rings, commands and transfers
 * (kernel/dev/usb/xhci_ring.c, xhci_dev.c) against the fake controller of
 * xhci_fake.c: control transfers with every ending (success, short data
 * stage, errors on each stage, timeouts), stale events of transfers given
 * up on (the regression test of issue 17: a late error of a timed-out
 * transfer must not complete the next one), keyboard reports, stale and
 * spurious events, late command completions, and many wraps of the
 * transfer and event rings. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include <tests/unit/xhci_fake.h>

#define DEV_IN  0x80
#define DEV_OUT 0x00

static uint16_t tag_seq;

static void fail_hook(const char *msg)
{
	fail_msg("%s", msg);
}

static void world(uint64_t phys_base, int keyboard)
{
	xf_fail_hook = fail_hook;
	xf_oversleep_hook = NULL;
	xf_init(phys_base, 7, keyboard);
	tag_seq = 0;
}

static int setup_plain(void **state)
{
	(void)state;
	world(0x12340000ull, 0);
	return 0;
}

static int setup_keyboard(void **state)
{
	(void)state;
	world(0x12340000ull, 1);
	return 0;
}

/* One control transfer of len bytes under plan, checked against the
 * model; returns its completion code, *got its byte count (got NULL: the
 * driver is not asked for it). */
static int control(uint8_t type, uint16_t len, const struct xf_ctl_plan *plan, uint32_t *got)
{
	uint16_t tag = ++tag_seq;
	uint32_t g = 0;
	xf_control_open(tag, len, plan);
	int cc = xhci_control(&xf.dev, type, 6, tag, 0, len, got ? &g : NULL);
	xf_control_check(tag, len, cc, g);
	if (got)
		*got = g;
	return cc;
}

/* Poll as the USB thread does, then the checks that hold between calls. */
static void settle(void)
{
	xhci_poll_events(&xf.hc);
	xf_check(1);
}

static void test_control_in(void **state)
{
	(void)state;
	uint32_t got;
	struct xf_ctl_plan ok = { .delay_ms = 2, .cc = CC_SUCCESS };
	assert_int_equal(control(DEV_IN, 18, &ok, &got), CC_SUCCESS);
	assert_int_equal(got, 18);
	settle();
	assert_int_equal(xf.events_written, 1);
	assert_int_equal(xf.hc.stale_events, 0);
}

static void test_control_short_packet(void **state)
{
	(void)state;
	uint32_t got;
	struct xf_ctl_plan s = { .delay_ms = 1, .short_data = 1, .short_residual = 237,
				 .status_delay_ms = 3, .cc = CC_SUCCESS };
	assert_int_equal(control(DEV_IN, 255, &s, &got), CC_SUCCESS);
	assert_int_equal(got, 18);
	settle();
	assert_int_equal(xf.events_written, 2);
	/* a residual above the length (a broken controller): no bytes */
	s.short_residual = 300;
	assert_int_equal(control(DEV_IN, 18, &s, &got), CC_SUCCESS);
	assert_int_equal(got, 0);
	settle();
}

static void test_control_no_data_and_out(void **state)
{
	(void)state;
	uint32_t got;
	struct xf_ctl_plan ok = { .cc = CC_SUCCESS };
	assert_int_equal(control(DEV_OUT, 0, &ok, &got), CC_SUCCESS);
	assert_int_equal(got, 0);
	assert_int_equal(control(DEV_OUT, 1, &ok, &got), CC_SUCCESS);
	assert_int_equal(got, 1);
	settle();
}

/* An error on any TRB of the TD ends it; the halted EP0 is reset and
 * the next transfer runs. */
static void test_control_errors(void **state)
{
	(void)state;
	uint32_t got;
	struct xf_ctl_plan ok = { .cc = CC_SUCCESS };
	struct xf_ctl_plan stall_setup = { .delay_ms = 1, .cc = CC_STALL, .err_stage = XF_SETUP };
	assert_int_equal(control(DEV_IN, 64, &stall_setup, &got), CC_STALL);
	assert_int_equal(got, 0);
	assert_int_equal(xf.ep0_resets, 1);
	assert_int_equal(control(DEV_IN, 18, &ok, &got), CC_SUCCESS);
	struct xf_ctl_plan data_err = { .cc = CC_TRANSACTION, .err_stage = XF_DATA, .err_residual = 100 };
	assert_int_equal(control(DEV_IN, 255, &data_err, &got), CC_TRANSACTION);
	assert_int_equal(got, 155);
	assert_int_equal(xf.ep0_resets, 2);
	struct xf_ctl_plan status_err = { .short_data = 1, .short_residual = 9, .cc = CC_BABBLE,
					  .err_stage = XF_STATUS };
	assert_int_equal(control(DEV_IN, 18, &status_err, &got), CC_BABBLE);
	assert_int_equal(got, 9);
	assert_int_equal(xf.ep0_resets, 3);
	assert_int_equal(control(DEV_OUT, 0, &ok, &got), CC_SUCCESS);
	settle();
	assert_int_equal(xf.hc.stale_events, 0);
}

/* The regression test of issue 17, defect 5: a control transfer times
 * out, the next one is issued, and a late error for the old TD arrives
 * before the new TD's events. The new transfer must not complete from it:
 * the stale error halted EP0, so the driver resets it, resumes at the new
 * transfer, and that one completes with its own result. */
static void test_stale_error_after_timeout(void **state)
{
	(void)state;
	uint32_t got;
	struct xf_ctl_plan late_err = { .delay_ms = 1500, .cc = CC_TRANSACTION, .err_stage = XF_DATA,
					.err_residual = 64 };
	assert_int_equal(control(DEV_IN, 64, &late_err, NULL), 0);
	assert_int_equal(xf.timeouts_logged, 1);
	struct xf_ctl_plan ok = { .delay_ms = 1, .cc = CC_SUCCESS };
	assert_int_equal(control(DEV_IN, 18, &ok, &got), CC_SUCCESS);
	assert_int_equal(got, 18);
	assert_int_equal(xf.hc.stale_events, 1);
	assert_int_equal(xf.ep0_resets, 1);
	settle();
}

/* A late success of a timed-out transfer, while nothing is under way:
 * stale, and the next transfer runs after it on the same ring. */
static void test_stale_success_after_timeout(void **state)
{
	(void)state;
	uint32_t got;
	struct xf_ctl_plan late = { .delay_ms = 1200, .cc = CC_SUCCESS };
	assert_int_equal(control(DEV_OUT, 0, &late, &got), 0);
	usb_sleep_ms(300);
	settle();
	assert_int_equal(xf.hc.stale_events, 1);
	struct xf_ctl_plan ok = { .delay_ms = 1, .cc = CC_SUCCESS };
	assert_int_equal(control(DEV_IN, 18, &ok, &got), CC_SUCCESS);
	assert_int_equal(got, 18);
	assert_int_equal(xf.hc.stale_events, 1);
	assert_int_equal(xf.ep0_resets, 0);
	settle();
}

/* A late Short Packet and Status of a timed-out transfer: both stale. */
static void test_stale_short_packet_after_timeout(void **state)
{
	(void)state;
	uint32_t got;
	struct xf_ctl_plan late = { .delay_ms = 1100, .short_data = 1, .short_residual = 10,
				    .status_delay_ms = 300, .cc = CC_SUCCESS };
	assert_int_equal(control(DEV_IN, 64, &late, &got), 0);
	struct xf_ctl_plan ok = { .delay_ms = 1, .short_data = 1, .short_residual = 4, .cc = CC_SUCCESS };
	assert_int_equal(control(DEV_IN, 18, &ok, &got), CC_SUCCESS);
	assert_int_equal(got, 14);
	assert_int_equal(xf.hc.stale_events, 2);
	settle();
}

/* The Short Packet came while the transfer was waited for, its Status
 * event only after the timeout: that one is stale. */
static void test_status_after_timeout(void **state)
{
	(void)state;
	uint32_t got;
	struct xf_ctl_plan slow = { .delay_ms = 10, .short_data = 1, .short_residual = 8,
				    .status_delay_ms = 1500, .cc = CC_SUCCESS };
	assert_int_equal(control(DEV_IN, 64, &slow, &got), 0);
	struct xf_ctl_plan ok = { .cc = CC_SUCCESS };
	assert_int_equal(control(DEV_OUT, 0, &ok, &got), CC_SUCCESS);
	assert_int_equal(xf.hc.stale_events, 1);
	settle();
}

/* Events for no device, an endpoint the device lacks, TRBs outside the
 * rings and no command are counted stale and change nothing; a stale
 * halting code on EP0 makes the next transfer reset it first, which the
 * running endpoint refuses harmlessly. */
static void test_spurious_events(void **state)
{
	(void)state;
	uint32_t got;
	for (unsigned kind = 0; kind < 5; kind++)
		xf_spurious(kind, kind == 2 ? CC_STALL : CC_SUCCESS);
	xf_port_event(2);
	settle();
	assert_int_equal(xf.hc.stale_events, 5);
	assert_int_equal(xf.hc.port_changes, 1);
	assert_int_equal(xf.hc.port_pending[0], 1u << 1);
	assert_int_equal(xf.reports_delivered, 0);
	struct xf_ctl_plan ok = { .delay_ms = 3, .cc = CC_SUCCESS };
	assert_int_equal(control(DEV_IN, 18, &ok, &got), CC_SUCCESS);
	assert_int_equal(got, 18);
	assert_int_equal(xf.ep0_resets, 0);
	settle();
}

/* More events than the event ring holds: the controller writes 255, the
 * rest once ERDP has moved; none is lost or taken twice. */
static void test_event_ring_full(void **state)
{
	(void)state;
	for (int i = 0; i < 300; i++)
		xf_spurious(i % 2 ? 0 : 4, CC_SUCCESS);
	assert_int_equal(xf.events_written, XHCI_RING_TRBS - 1);
	xhci_poll_events(&xf.hc);
	xf_check(1);
	assert_int_equal(xf.hc.stale_events, XHCI_RING_TRBS - 1);
	usb_sleep_ms(1);
	settle();
	assert_int_equal(xf.hc.stale_events, 300);
	uint32_t got;
	struct xf_ctl_plan ok = { .cc = CC_SUCCESS };
	assert_int_equal(control(DEV_IN, 18, &ok, &got), CC_SUCCESS);
	settle();
}

/* A command that timed out completes late, during the next one: the
 * next one gets its own completion. Or while none is under way: stale
 * too. */
static void test_command_late_completion(void **state)
{
	(void)state;
	xf_command_delay(700);
	assert_int_equal(xhci_command(&xf.hc, 0, TRB_TYPE(XF_TRB_NOOP_CMD), 500), 0);
	xf_command_given_up();
	assert_int_equal(xhci_command(&xf.hc, 0, TRB_TYPE(XF_TRB_NOOP_CMD), 500), CC_SUCCESS);
	assert_true(xf.now_ns >= 700000000ull);
	assert_int_equal(xf.hc.stale_events, 1);
	settle();
	xf_command_delay(700);
	assert_int_equal(xhci_command(&xf.hc, 0, TRB_TYPE(XF_TRB_NOOP_CMD), 500), 0);
	xf_command_given_up();
	usb_sleep_ms(300);
	settle();
	assert_int_equal(xf.hc.stale_events, 2);
	assert_int_equal(xf.timeouts_logged, 2);
}

/* Many transfers of two and three TRBs: EP0's ring wraps with Link TRBs
 * at different slots, the event ring wraps, ERDP follows. */
static void test_rings_wrap(void **state)
{
	(void)state;
	for (unsigned i = 0; i < 1200; i++) {
		uint32_t got;
		unsigned mix = (i * 2654435761u) >> 24;  /* two or three TRBs, irregularly */
		uint16_t len = mix % 3 == 0 ? 0 : mix % 3 == 1 ? 18 : (uint16_t)(1 + i % 700);
		struct xf_ctl_plan p = { .delay_ms = i % 4, .cc = CC_SUCCESS };
		if (i % 7 == 0 && len) {
			p.short_data = 1;
			p.short_residual = len / 2;
		}
		if (i % 29 == 0) {
			p.cc = CC_STALL;
			p.err_stage = (enum xf_stage)(i % 3);
		}
		uint32_t want_cc, want_got;
		xf_control_expect(&p, len, &want_cc, &want_got);
		assert_int_equal(control(i % 2 ? DEV_IN : DEV_OUT, len, &p, &got), want_cc);
		assert_int_equal(got, want_got);
		settle();
	}
	assert_true(xf.events_written > 4 * XHCI_RING_TRBS);
	assert_true(xf.tds_run == 1200);
}

/* Reports are handed on once each, with their length; a halting error is
 * reset by xhci_dev_service(), a non-halting one asks again at once. */
static void test_keyboard_reports(void **state)
{
	(void)state;
	const struct xf_report_plan plans[] = {
		{ 1, CC_SUCCESS, 0 }, { 2, CC_SHORT_PACKET, 2 }, { 0, XF_CC_MISSED_SERVICE, 8 },
		{ 5, CC_SUCCESS, 0 }, { 1, CC_STALL, 8 }, { 1, CC_SUCCESS, 0 }, { 0, CC_SHORT_PACKET, 9 },
	};
	for (size_t i = 0; i < sizeof(plans) / sizeof(plans[0]); i++)
		xf_report_push(&plans[i]);
	for (int round = 0; round < 40; round++) {
		xhci_poll_events(&xf.hc);
		xhci_dev_service(&xf.hc);
		usb_sleep_ms(2);
	}
	settle();
	xf_check_keyboard_alive();
	assert_int_equal(xf.reports_delivered, 5);
	assert_int_equal(xf_report_plans(), 0);
	assert_int_equal(xf.hc.stale_events, 0);
}

/* Reports arriving while a control transfer is waited for are handed on
 * from inside its wait. */
static void test_keyboard_during_control(void **state)
{
	(void)state;
	uint32_t got;
	for (uint32_t i = 0; i < 4; i++)
		xf_report_push(&(struct xf_report_plan){ i * 3, CC_SUCCESS, 0 });
	struct xf_ctl_plan ok = { .delay_ms = 20, .cc = CC_SUCCESS };
	assert_int_equal(control(DEV_OUT, 1, &ok, &got), CC_SUCCESS);
	settle();
	assert_int_equal(xf.reports_delivered, 4);
	xf_check_keyboard_alive();
}

/* Memory above 4 GiB: ERDP's high half is written too. */
static void test_high_memory(void **state)
{
	(void)state;
	world(0x123450000ull, 1);
	uint32_t got;
	struct xf_ctl_plan ok = { .cc = CC_SUCCESS };
	for (int i = 0; i < 300; i++) {
		if (i % 5 == 0)
			xf_report_push(&(struct xf_report_plan){ 1, CC_SUCCESS, 0 });
		assert_int_equal(control(DEV_IN, 8, &ok, &got), CC_SUCCESS);
		settle();
	}
	assert_int_equal(xf.reports_delivered, 60);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_control_in, setup_plain),
		cmocka_unit_test_setup(test_control_short_packet, setup_plain),
		cmocka_unit_test_setup(test_control_no_data_and_out, setup_plain),
		cmocka_unit_test_setup(test_control_errors, setup_plain),
		cmocka_unit_test_setup(test_stale_error_after_timeout, setup_plain),
		cmocka_unit_test_setup(test_stale_success_after_timeout, setup_plain),
		cmocka_unit_test_setup(test_stale_short_packet_after_timeout, setup_plain),
		cmocka_unit_test_setup(test_status_after_timeout, setup_plain),
		cmocka_unit_test_setup(test_spurious_events, setup_keyboard),
		cmocka_unit_test_setup(test_event_ring_full, setup_plain),
		cmocka_unit_test_setup(test_command_late_completion, setup_plain),
		cmocka_unit_test_setup(test_rings_wrap, setup_plain),
		cmocka_unit_test_setup(test_keyboard_reports, setup_keyboard),
		cmocka_unit_test_setup(test_keyboard_during_control, setup_keyboard),
		cmocka_unit_test_setup(test_high_memory, setup_plain),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
