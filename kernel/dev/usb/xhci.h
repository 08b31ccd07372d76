/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * xhci.h — the xHCI host controller driver's own types (xHCI 1.2
 * specification: registers chapter 5, data structures chapter 6, operation
 * chapter 4). Everything here is touched only by the USB thread
 * (kernel/dev/usb/usb.c), except the counters the interrupt handler bumps
 * and the tables the `usb` command reads under usb_table_lock.
 */
#ifndef MOSAIC_DEV_USB_XHCI_H
#define MOSAIC_DEV_USB_XHCI_H
#include <stdint.h>
#include <dev/pci.h>
#include <arch/x86_64/spinlock.h>
#include <dev/usb/usb_desc.h>

#define XHCI_RING_TRBS   256         /* one page of 16-byte TRBs */
#define XHCI_MAX_PORTS   255
#define XHCI_MAX_SLOTS   256
#define XHCI_MAX_HC      4

struct xhci_trb {
	uint64_t param;
	uint32_t status;
	uint32_t control;
};

/* A producer ring (command, transfer) or the consumer event ring. */
struct xhci_ring {
	volatile struct xhci_trb *trb;
	uint64_t phys;
	uint32_t idx;                   /* next TRB to write (producer) or read (events) */
	uint32_t cycle;
};

struct usb_kbd;
struct usb_msd;
struct xhci;

/* One addressed device on a root port. */
struct usb_dev {
	struct xhci *hc;
	uint8_t slot, port, speed;
	uint16_t mps0;
	struct usb_device_desc desc;
	uint8_t first_class;            /* of the first interface */
	const char *driver;             /* "keyboard", "left alone", ... */
	void *out_ctx, *in_ctx;
	uint64_t out_phys, in_phys;
	struct xhci_ring ep0;
	uint8_t *buf;                   /* control data (first half), reports (second) */
	uint64_t buf_phys;
	/* the control transfer under way: the physical addresses of its TRBs
	 * (no data TRB when ctl_len is 0) and their cycle bit; its events are
	 * accepted while ctl_open, every other EP0 event is stale */
	uint64_t ctl_setup_trb, ctl_data_trb, ctl_status_trb;
	uint32_t ctl_cycle;
	uint16_t ctl_len;
	int ctl_open;
	uint32_t ctl_cc, ctl_residual;
	int ctl_halted;                 /* a stale event halted EP0: xhci_control() resets it */
	/* the keyboard's interrupt IN endpoint */
	uint8_t kbd_dci, kbd_interface;
	struct xhci_ring intr;
	uint16_t kbd_mps;               /* bytes asked for per report (the packet size) */
	uint64_t intr_trb;              /* the outstanding report TRB, 0 none */
	int intr_reset;                 /* halted: reset by xhci_dev_service() */
	uint32_t intr_errors;           /* consecutive failed reports */
	struct usb_kbd *kbd;
	struct usb_msd *msd;            /* a stick (usb_msd.c), NULL otherwise */
};

struct xhci {
	const struct pci_dev *pci;
	char name[12];                  /* "00:1d.0" */
	volatile uint8_t *cap, *op, *rt, *db;
	uint32_t max_slots, max_ports, ctx_size;
	int ac64;
	uint64_t *dcbaa;
	uint64_t dcbaa_phys;
	struct xhci_ring cmd, evt;
	uint64_t *erst;
	uint64_t erst_phys;
	uint8_t port_major[XHCI_MAX_PORTS];   /* 2 or 3 (Supported Protocol capability), 0 unknown */
	uint8_t port_pending[(XHCI_MAX_PORTS + 8) / 8];
	struct usb_dev *port_dev[XHCI_MAX_PORTS];
	struct usb_dev *slot_dev[XHCI_MAX_SLOTS];
	/* the command under way */
	uint64_t cmd_trb;
	volatile int cmd_done;
	uint32_t cmd_cc;
	uint8_t cmd_slot;
	const char *irq_mode;           /* "MSI-X", "MSI" or "polling" */
	volatile uint64_t irqs;
	uint64_t events, port_changes;
	uint64_t stale_events;          /* transfer and command events for nothing under way */
};

/* xhci.c: controller bring-up and register helpers */
int xhci_start(struct xhci *hc, const struct pci_dev *pci, uint8_t vector);
uint32_t xhci_portsc(struct xhci *hc, unsigned port);
void xhci_portsc_write(struct xhci *hc, unsigned port, uint32_t keep, uint32_t set);
void xhci_ring_doorbell(struct xhci *hc, unsigned slot, unsigned target);
void xhci_irq_ack(struct xhci *hc);

/* xhci_ring.c: rings, commands and the event loop */
int xhci_ring_alloc(struct xhci *hc, struct xhci_ring *r);
void xhci_ring_reserve(struct xhci_ring *r, unsigned n);
uint64_t xhci_ring_push(struct xhci_ring *r, uint64_t param, uint32_t status, uint32_t control);
uint64_t xhci_ring_next_ptr(const struct xhci_ring *r);
void xhci_poll_events(struct xhci *hc);
int xhci_command(struct xhci *hc, uint64_t param, uint32_t control, uint32_t timeout_ms);
void *xhci_dma_page(struct xhci *hc, uint64_t *phys);
void xhci_dma_free(void *virt);

/* xhci_dev.c: devices on root ports */
void xhci_port_check(struct xhci *hc, unsigned port);
int xhci_control(struct usb_dev *dev, uint8_t type, uint8_t req, uint16_t value, uint16_t index,
		 uint16_t len, uint32_t *got);
void xhci_intr_queue(struct usb_dev *dev);
void xhci_transfer_event(struct xhci *hc, const struct xhci_trb *ev);
/* Endpoint resets the event handler asked for. USB thread. */
void xhci_dev_service(struct xhci *hc);

/* usb.c: the thread's waiting, shared with the driver */
void usb_sleep_ms(uint32_t ms);
/* Wakes the USB thread (a request for it is waiting). Any thread. */
void usb_wake(void);
extern struct spinlock usb_table_lock;

/* usbkbd.c: the keyboard driver on top */
struct usb_kbd *usbkbd_attach(struct usb_dev *dev);
void usbkbd_detach(struct usb_kbd *kbd);
void usbkbd_report(struct usb_kbd *kbd, const uint8_t *buf, uint32_t len);
/* Run typematic repeat and LED updates; returns ms until it needs to run
 * again (0: nothing pending). USB thread. */
uint32_t usbkbd_service(void);
/* The keyboards' lines of the `usb` command. Any thread. */
void usbkbd_print(void);

/* usb_msd.c: USB sticks (mass storage, Bulk-Only Transport, SCSI).
 * probe: the device's configuration (config[0..config_len), value
 * config_value) has no keyboard; a stick is set up as da<unit> (else the
 * device is left alone); returns NULL, or a reason the device failed.
 * detach: after its slot was disabled. event: a Transfer Event for
 * endpoint dci, 1 when it is one of the stick's. service: answers other
 * threads' requests. print: the `usb` command's lines. USB thread, except
 * print (any thread). */
const char *usb_msd_probe(struct usb_dev *dev, const uint8_t *config, uint32_t config_len,
			  uint8_t config_value);
void usb_msd_detach(struct usb_msd *m);
int usb_msd_event(struct usb_msd *m, unsigned dci, uint64_t trb, uint32_t cc, uint32_t residual);
void usb_msd_service(void);
void usb_msd_print(void);

/* TRB fields (xHCI 1.2, 6.4) */
#define TRB_CYCLE        (1u << 0)
#define TRB_TC           (1u << 1)     /* Link: toggle cycle */
#define TRB_ISP          (1u << 2)
#define TRB_IOC          (1u << 5)
#define TRB_IDT          (1u << 6)
#define TRB_DIR_IN       (1u << 16)
#define TRB_TYPE(t)      ((uint32_t)(t) << 10)
#define TRB_TYPE_OF(c)   (((c) >> 10) & 0x3F)
#define TRB_SLOT(s)      ((uint32_t)(s) << 24)
#define TRB_EP(e)        ((uint32_t)(e) << 16)
#define TRB_NORMAL       1
#define TRB_SETUP        2
#define TRB_DATA         3
#define TRB_STATUS       4
#define TRB_LINK         6
#define TRB_ENABLE_SLOT  9
#define TRB_DISABLE_SLOT 10
#define TRB_ADDRESS_DEV  11
#define TRB_CONFIG_EP    12
#define TRB_EVAL_CTX     13
#define TRB_RESET_EP     14
#define TRB_SET_DEQUEUE  16
#define TRB_EV_TRANSFER  32
#define TRB_EV_COMMAND   33
#define TRB_EV_PORT      34
#define CC_SUCCESS       1
#define CC_BABBLE        3
#define CC_TRANSACTION   4
#define CC_STALL         6
#define CC_SHORT_PACKET  13
#define CC_SPLIT_TRANSACTION 36

/* 1 when a transfer completing with code cc has left its endpoint Halted
 * (xHCI 1.2, 4.10.2: Babble, USB Transaction, Stall and Split Transaction
 * errors); it needs Reset Endpoint and Set TR Dequeue Pointer (4.6.8,
 * 4.6.10) before it runs again. Pure. */
static inline int xhci_cc_halts(uint32_t cc)
{
	return cc == CC_BABBLE || cc == CC_TRANSACTION || cc == CC_STALL || cc == CC_SPLIT_TRANSACTION;
}

/* PORTSC (xHCI 1.2, 5.4.8) */
#define PORTSC_CCS   (1u << 0)
#define PORTSC_PED   (1u << 1)
#define PORTSC_PR    (1u << 4)
#define PORTSC_PP    (1u << 9)
#define PORTSC_SPEED(v) (((v) >> 10) & 0xF)
#define PORTSC_CSC   (1u << 17)
#define PORTSC_PRC   (1u << 21)
#define PORTSC_CHANGES 0x00FE0000u     /* CSC PEC WRC OCC PRC PLC CEC: write 1 to clear */
#define PORTSC_KEEP  (PORTSC_PP | 0x0E00C000u)  /* PP, PIC, wake enables: written back as read */
#endif
