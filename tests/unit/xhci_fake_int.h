/* SPDX-License-Identifier: BSD-2-Clause */
/* xhci_fake_int.h — the inside of the fake xHCI controller of
 * xhci_fake.h, shared by its three files: xhci_fake.c (host stubs, the
 * event ring, time, set-up), xhci_fake_ep.c (how the endpoints and the
 * command ring consume TRBs) and xhci_fake_model.c (the model and the
 * checks). Tests use xhci_fake.h only. */
#ifndef MOSAIC_TESTS_XHCI_FAKE_INT_H
#define MOSAIC_TESTS_XHCI_FAKE_INT_H
#include <tests/unit/xhci_fake.h>
#include <mm/mm.h>

#define XF_RAM_PAGES    8
#define XF_SEG_BYTES    (XHCI_RING_TRBS * sizeof(struct xhci_trb))
#define XF_EVT_ROOM     (XHCI_RING_TRBS - 1)  /* one slot stays free: full is not empty */
#define XF_PENDING_MAX  1024
#define XF_PLANS_MAX    64
#define XF_TDS          256                   /* transfers remembered, by tag */
#define XF_CMDS         64
#define XF_MS           1000000ull

enum xf_owner_kind { XF_OWN_CTL, XF_OWN_CMD, XF_OWN_INTR, XF_OWN_STALE, XF_OWN_PORT };

/* Whom an event is for: the model's verdict on it once consumed. */
struct xf_owner {
	uint8_t kind, final;
	uint16_t id;
	uint32_t halt;                  /* it halted EP0: that halt's number, else 0 */
};

/* An event the controller will write at a time. */
struct xf_sched {
	uint64_t at;
	struct xhci_trb ev;
	struct xf_owner o;
	int halts;
	uint64_t halt_trb;
};

enum xf_ep_state { XF_EP_RUNNING, XF_EP_HALTED, XF_EP_STOPPED };

/* The controller's side of one producer ring (an endpoint or commands). */
struct xf_ep {
	const char *name;
	const struct xhci_ring *ring;   /* the driver's, for the consistency check */
	uint64_t base, deq;
	uint32_t ccs;
	int state, active;
	struct xf_sched q[2];           /* the events of the TD under way */
	unsigned nq, iq;
	int waiting;                    /* interrupt: request fetched, no answer planned yet */
	uint64_t req_trb;
	struct xhci_trb cmd;            /* commands: the one under way */
	uint64_t cmd_at;
	uint16_t cmd_id;
};

/* One control transfer of the model: open while the driver waits for
 * it; fetched once the controller took it; final_consumed once the
 * driver consumed its last event while it was open. */
struct xf_td {
	int used, open, fetched, final_consumed;
	uint16_t tag, len;
	struct xf_ctl_plan plan;
};

/* A report written into the buffer, to be handed on: its length and the
 * seed of its bytes. */
struct xf_report {
	uint32_t len;
	uint8_t seed;
};

/* Everything of the fake but what tests may read (struct xf_state). */
struct xf_inner {
	unsigned char ram[XF_RAM_PAGES * PAGE_SIZE] __attribute__((aligned(4096)));
	uint8_t rt[0x40] __attribute__((aligned(8)));
	uint64_t phys_base;
	unsigned pages;
	long kbd_cookie;
	int keyboard;
	struct xf_ep ep0, intr, cmdr;
	/* event ring producer */
	uint64_t evt_base;
	unsigned enq, pcs, cons_idx;
	uint64_t erdp_last;
	struct xf_owner log[XHCI_RING_TRBS];
	struct {
		struct xhci_trb ev;
		struct xf_owner o;
	} pending[XF_PENDING_MAX];
	unsigned pend_head, pend_count;
	/* the model */
	struct xf_td tds[XF_TDS];
	struct {
		int open;
		uint32_t type;
	} cmds[XF_CMDS];
	uint16_t next_cmd;
	uint32_t cmd_delay[XF_PLANS_MAX];
	unsigned ncmd_delay;
	struct xf_report_plan plans[XF_PLANS_MAX];
	unsigned plan_head, nplans;
	struct xf_report reports[XF_PLANS_MAX];
	unsigned rep_head, nreports;
	uint8_t report_seed;
	uint32_t ep0_halts;             /* EP0 halts so far; the latest one ... */
	int ep0_halt_seen;              /* ... the driver has consumed the event of */
	unsigned report_errors;         /* in a row, as the driver counts them */
};
extern struct xf_inner xfi;

/* Report a failure through xf_fail_hook; never returns. */
void xf_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
/* The TRB at phys, which must be a TRB of the fake RAM. */
volatile struct xhci_trb *xf_trb_at(uint64_t phys);
/* Queue one event, written at once when the event ring has room. */
void xf_emit(const struct xhci_trb *ev, struct xf_owner o);
/* A Transfer Event TRB (xHCI 1.2, 6.4.2.1) without its cycle bit. */
struct xhci_trb xf_transfer_event(uint64_t trb, uint32_t cc, uint32_t residual, unsigned slot,
				  unsigned dci);
/* Run the controller up to time limit (ns), events in time order. */
void xf_run_until(uint64_t limit);
/* e has a TD under way (or, interrupt, a request waiting for its answer). */
int xf_busy(const struct xf_ep *e);
/* Let every ring that can take its next TD or command do so. */
void xf_fetch_all(void);
/* Write the next planned event of e; a halting one halts e. */
void xf_emit_next(struct xf_ep *e);
/* The record of the transfer tagged tag, NULL if forgotten. */
struct xf_td *xf_td_of(uint16_t tag);
/* The driver consumed an event of o: the model's verdict on it. */
void xf_consume(struct xf_owner o);
#endif
