/* SPDX-License-Identifier: BSD-2-Clause */
/* xhci_fake.h — a fake xHCI controller under the real ring, command and
 * transfer code (kernel/dev/usb/xhci_ring.c, xhci_dev.c) on the host, with
 * the host stubs those files call (pages, printk, time, usb_sleep_ms, the
 * doorbell, usbkbd_report). It plays one controller with one device: EP0,
 * a keyboard's interrupt IN endpoint and the command ring are consumed as
 * xHCI 1.2 does (4.9.2: follow the cycle bit, Link TRBs with Toggle Cycle;
 * the endpoint states of 4.8.3: a halting error stops an endpoint until
 * Reset Endpoint and Set TR Dequeue Pointer), and events go into the one
 * 256-TRB event ring with the producer cycle bit, never past the dequeue
 * pointer the driver wrote to ERDP. Time is a fake clock that only
 * usb_sleep_ms() advances; everything the controller does happens at a
 * planned time, so runs are deterministic.
 *
 * Besides playing the controller it keeps the model the driver is checked
 * against: each control transfer's planned outcome (tagged by its wValue)
 * and whether its final event was consumed while the driver waited for it,
 * each event's owner (so the exact number of stale events is known), and
 * the keyboard reports the driver must hand on. Any breach calls the
 * failure hook. Shared by tests/unit/test_xhci.c and
 * tests/fuzz/fuzz_xhci.c; made of xhci_fake.c, xhci_fake_ep.c and
 * xhci_fake_model.c. Single-threaded. */
#ifndef MOSAIC_TESTS_XHCI_FAKE_H
#define MOSAIC_TESTS_XHCI_FAKE_H
#include <stdint.h>
#include <dev/usb/xhci.h>

#define XF_REPORT_OFFSET 2048        /* where the driver puts reports in dev->buf */
#define XF_KBD_DCI       3           /* endpoint 1 IN */
#define XF_KBD_MPS       8
#define XF_CC_CONTEXT_STATE 19       /* xHCI 1.2, 6.4.5 */
#define XF_CC_MISSED_SERVICE 23
#define XF_TRB_NOOP_CMD  23

enum xf_stage { XF_SETUP, XF_DATA, XF_STATUS };

/* What the device does with one control transfer. */
struct xf_ctl_plan {
	uint32_t delay_ms;        /* from the controller fetching it to its first event */
	int short_data;           /* the Data TRB ends short (Short Packet event) ... */
	uint32_t short_residual;  /* ... with this residual, */
	uint32_t status_delay_ms; /* and the Status stage's event follows this much later */
	uint32_t cc;              /* CC_SUCCESS, or an error ending the transfer ... */
	enum xf_stage err_stage;  /* ... on this TRB (XF_DATA only with a data stage) */
	uint32_t err_residual;    /* residual of an error on the Data TRB */
};

/* What the keyboard does with the next report request. */
struct xf_report_plan {
	uint32_t delay_ms;        /* from the request being fetched (or this plan, if later) */
	uint32_t cc;
	uint32_t residual;
};

/* The controller, the device and the model. Read-only for tests. */
struct xf_state {
	struct xhci hc;
	struct usb_dev dev;
	uint64_t now_ns;
	uint64_t stale_expected;     /* events consumed that were stale */
	uint64_t events_written, events_consumed;
	uint64_t reports_expected, reports_delivered;
	uint64_t timeouts_logged;    /* "got no answer" lines printed */
	uint64_t commands;           /* commands the controller completed */
	uint64_t ep0_resets;         /* Reset Endpoint commands that found EP0 halted */
	uint64_t tds_run;            /* control transfers the controller executed */
	char last_log[200];
};
extern struct xf_state xf;

/* Reports a failure (the message is formatted); must not return. */
extern void (*xf_fail_hook)(const char *msg);
/* Extra ms a usb_sleep_ms(ms) oversleeps (the thread not scheduled); NULL
 * for none. */
extern uint32_t (*xf_oversleep_hook)(uint32_t ms);

/* A fresh controller and device: "physical memory" at phys_base (page
 * aligned, nonzero), the device on slot (1..255) with its EP0, event,
 * command and interrupt rings allocated by xhci_ring_alloc(), ERDP at the
 * event ring's start as xhci.c leaves it. keyboard: the interrupt endpoint
 * is configured and its first report requested. */
void xf_init(uint64_t phys_base, unsigned slot, int keyboard);

/* The model's side of one xhci_control() call: open before it with the
 * plan for the transfer of len bytes whose wValue is tag (the tag must not
 * be in use); check after it with what it returned. */
void xf_control_open(uint16_t tag, uint16_t len, const struct xf_ctl_plan *plan);
void xf_control_check(uint16_t tag, uint16_t len, int cc, uint32_t got);
/* What a transfer of len bytes under plan must return. */
void xf_control_expect(const struct xf_ctl_plan *plan, uint16_t len, uint32_t *cc, uint32_t *got);

/* The keyboard answers the next outstanding (or next fetched) request. */
void xf_report_push(const struct xf_report_plan *plan);
/* Report plans not yet used. */
unsigned xf_report_plans(void);
/* The next command the controller fetches completes after ms (delays
 * queue up, one per command); how many are queued. */
void xf_command_delay(uint32_t ms);
unsigned xf_command_delays(void);
/* No command fetched and not yet completed, none waiting on the ring. */
int xf_command_idle(void);
/* The latest command (a No Op the test issued) timed out in the driver:
 * its completion, when it comes, is stale. */
void xf_command_given_up(void);

/* Write an event for nothing under way (always stale): kind 0 an unknown
 * slot, 1 an endpoint the device does not have, 2 EP0 with a TRB pointer
 * outside its ring, 3 the interrupt endpoint likewise, 4 a command
 * completion for no command. */
void xf_spurious(unsigned kind, uint32_t cc);
/* A Port Status Change Event for port (not stale). */
void xf_port_event(unsigned port);

/* Bring the model up to date with ERDP (what the driver consumed). */
void xf_sync(void);
/* Run the controller until the fake clock reaches now + ms. */
void xf_advance(uint32_t ms);
/* The checks that hold between driver calls: every ring as the
 * controller's consumer sees it ends where the driver will write next (no
 * TRB overwritten before it was consumed, Link TRBs right), no running
 * ring holds TRBs its doorbell was not rung for, the stale count is
 * exact. all_consumed: the driver has just polled, so (unless events wait
 * for room) ERDP and the driver's dequeue index are at the last event
 * written and every report event was handed on. */
void xf_check(int all_consumed);
/* An interrupt request is outstanding at the controller, or the endpoint
 * halted and waits for xhci_dev_service(), or 16 report errors in a row
 * stopped the keyboard (the driver's rule). Not checked while events wait
 * for room in the event ring. */
void xf_check_keyboard_alive(void);
#endif
