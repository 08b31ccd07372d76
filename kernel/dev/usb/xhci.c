/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * xhci.c — bringing one xHCI controller up (xHCI 1.2, 4.2 "Host Controller
 * Initialization"): take it from the firmware (USB Legacy Support
 * capability, 7.1), halt and reset it, give it the device context array,
 * scratchpad pages, the command ring and one event ring, route its
 * interrupter 0 by MSI-X or MSI (else it is polled), and run it.
 * USB thread only.
 */
#include <dev/usb/xhci.h>
#include <mm/mm.h>
#include <arch/x86_64/intr/lapic.h>
#include <kern/printk.h>
#include <lib/string.h>
#include <arch/x86_64/clock/time.h>

/* Capability registers */
#define CAP_LENGTH     0x00
#define CAP_HCSPARAMS1 0x04
#define CAP_HCSPARAMS2 0x08
#define CAP_HCCPARAMS1 0x10
#define CAP_DBOFF      0x14
#define CAP_RTSOFF     0x18
/* Operational registers */
#define OP_USBCMD      0x00
#define OP_USBSTS      0x04
#define OP_CRCR        0x18
#define OP_DCBAAP      0x30
#define OP_CONFIG      0x38
#define OP_PORTSC(n)   (0x400 + 0x10 * ((n) - 1))
#define CMD_RS         (1u << 0)
#define CMD_HCRST      (1u << 1)
#define CMD_INTE       (1u << 2)
#define STS_HCH        (1u << 0)
#define STS_EINT       (1u << 3)
#define STS_CNR        (1u << 11)
/* Interrupter 0 (runtime base + 0x20) */
#define IR_IMAN        0x20
#define IR_IMOD        0x24
#define IR_ERSTSZ      0x28
#define IR_ERSTBA      0x30
#define IR_ERDP        0x38
#define IMAN_IP        (1u << 0)
#define IMAN_IE        (1u << 1)
/* Extended capabilities */
#define XCAP_LEGACY    1
#define XCAP_PROTOCOL  2
#define LEGACY_BIOS    (1u << 16)
#define LEGACY_OS      (1u << 24)
#define XCAP_MAX_STEPS 64

static uint32_t rd(volatile uint8_t *base, uint32_t off) { return *(volatile uint32_t *)(base + off); }
static void wr(volatile uint8_t *base, uint32_t off, uint32_t v) { *(volatile uint32_t *)(base + off) = v; }
static void wr64(volatile uint8_t *base, uint32_t off, uint64_t v)
{
	wr(base, off, (uint32_t)v);
	wr(base, off + 4, (uint32_t)(v >> 32));
}

/* Wait until (reg & mask) == want, at most ms; 0 on success. */
static int wait_reg(volatile uint8_t *base, uint32_t off, uint32_t mask, uint32_t want, uint32_t ms)
{
	uint64_t deadline = time_ns() + (uint64_t)ms * 1000000;
	while ((rd(base, off) & mask) != want) {
		if (time_ns() > deadline)
			return -1;
		time_udelay(100);
	}
	return 0;
}

/* See xhci.h. */
uint32_t xhci_portsc(struct xhci *hc, unsigned port)
{
	return rd(hc->op, OP_PORTSC(port));
}

/* See xhci.h: writes the bits of keep that must be written back as read,
 * plus set (PR, change bits to clear); never writes PED (1 disables). */
void xhci_portsc_write(struct xhci *hc, unsigned port, uint32_t keep, uint32_t set)
{
	wr(hc->op, OP_PORTSC(port), (keep & PORTSC_KEEP) | set);
}

/* See xhci.h. */
void xhci_ring_doorbell(struct xhci *hc, unsigned slot, unsigned target)
{
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	wr(hc->db, 4 * slot, target);
}

/* See xhci.h. Interrupt handler: clears IMAN.IP and USBSTS.EINT. */
void xhci_irq_ack(struct xhci *hc)
{
	uint32_t iman = rd(hc->rt, IR_IMAN);
	if (iman & IMAN_IP)
		wr(hc->rt, IR_IMAN, iman | IMAN_IP);
	wr(hc->op, OP_USBSTS, STS_EINT);
	hc->irqs++;
}

/* The USB Legacy Support capability: ask the firmware to let go, and turn
 * its SMIs off. Every step that does not go as the spec says is logged. */
static void xhci_take_from_bios(struct xhci *hc, uint32_t off)
{
	uint32_t v = rd(hc->cap, off);
	if (v & LEGACY_BIOS) {
		wr(hc->cap, off, v | LEGACY_OS);
		if (wait_reg(hc->cap, off, LEGACY_BIOS, 0, 1000)) {
			printk("xhci %s: firmware kept ownership for 1 s; taking it\n", hc->name);
			wr(hc->cap, off, (rd(hc->cap, off) & ~LEGACY_BIOS) | LEGACY_OS);
		} else {
			printk("xhci %s: firmware handed the controller over\n", hc->name);
		}
	} else {
		wr(hc->cap, off, v | LEGACY_OS);
	}
	/* USBLEGCTLSTS: SMI enables off (bits 0, 4, 13-15), status bits 29-31 cleared */
	uint32_t ctl = rd(hc->cap, off + 4);
	wr(hc->cap, off + 4, (ctl & ~0x0000E011u) | 0xE0000000u);
}

/* Walk the extended capabilities: firmware hand-off, and which ports are
 * USB 2 and which USB 3. Bounded by XCAP_MAX_STEPS and the BAR size. */
static void xhci_ext_caps(struct xhci *hc, uint64_t bar_size)
{
	uint32_t off = (rd(hc->cap, CAP_HCCPARAMS1) >> 16) * 4;
	for (int steps = 0; off && off + 12 <= bar_size && steps < XCAP_MAX_STEPS; steps++) {
		uint32_t v = rd(hc->cap, off);
		if ((v & 0xFF) == XCAP_LEGACY) {
			xhci_take_from_bios(hc, off);
		} else if ((v & 0xFF) == XCAP_PROTOCOL) {
			uint32_t ports = rd(hc->cap, off + 8);
			unsigned first = ports & 0xFF, count = (ports >> 8) & 0xFF;
			for (unsigned p = first; p < first + count && p >= 1 && p <= hc->max_ports; p++)
				hc->port_major[p - 1] = (uint8_t)(v >> 24);
		}
		uint32_t next = (v >> 8) & 0xFF;
		off = next ? off + next * 4 : 0;
	}
}

/* Scratchpad buffers the controller asked for (HCSPARAMS2); 0 or -1. */
static int xhci_scratchpads(struct xhci *hc)
{
	uint32_t p2 = rd(hc->cap, CAP_HCSPARAMS2);
	uint32_t n = ((p2 >> 21) & 0x1F) << 5 | ((p2 >> 27) & 0x1F);
	if (n == 0)
		return 0;
	if (n > PAGE_SIZE / 8) {
		printk("xhci %s: wants %u scratchpad pages, more than %u supported\n", hc->name, n,
		       (unsigned)(PAGE_SIZE / 8));
		return -1;
	}
	uint64_t array_phys;
	uint64_t *array = xhci_dma_page(hc, &array_phys);
	if (!array)
		return -1;
	for (uint32_t i = 0; i < n; i++)
		if (!xhci_dma_page(hc, &array[i]))
			return -1;
	hc->dcbaa[0] = array_phys;
	return 0;
}

/* Halt, reset, and wait until the controller is ready. */
static int xhci_reset(struct xhci *hc)
{
	wr(hc->op, OP_USBCMD, rd(hc->op, OP_USBCMD) & ~CMD_RS);
	if (wait_reg(hc->op, OP_USBSTS, STS_HCH, STS_HCH, 100)) {
		printk("xhci %s: does not halt\n", hc->name);
		return -1;
	}
	wr(hc->op, OP_USBCMD, CMD_HCRST);
	if (wait_reg(hc->op, OP_USBCMD, CMD_HCRST, 0, 1000) ||
	    wait_reg(hc->op, OP_USBSTS, STS_CNR, 0, 1000)) {
		printk("xhci %s: reset does not complete\n", hc->name);
		return -1;
	}
	return 0;
}

/* Interrupter 0's event ring: one segment of XHCI_RING_TRBS. */
static int xhci_event_ring(struct xhci *hc)
{
	if (xhci_ring_alloc(hc, &hc->evt) || !(hc->erst = xhci_dma_page(hc, &hc->erst_phys)))
		return -1;
	hc->erst[0] = hc->evt.phys;
	hc->erst[1] = XHCI_RING_TRBS;
	wr(hc->rt, IR_ERSTSZ, 1);
	wr64(hc->rt, IR_ERDP, hc->evt.phys);
	wr64(hc->rt, IR_ERSTBA, hc->erst_phys);
	return 0;
}

/* Interrupts by MSI-X or MSI to the boot CPU, else polling. */
static void xhci_interrupts(struct xhci *hc, uint8_t vector)
{
	char why[96];
	hc->irq_mode = pci_msi_route(hc->pci, vector, lapic_id(), why, sizeof(why));
	if (!hc->irq_mode) {
		printk("xhci %s: no message interrupts (%s); polling every 10 ms\n", hc->name, why);
		hc->irq_mode = "polling";
		return;
	}
	wr(hc->rt, IR_IMOD, 4000);                 /* at most one interrupt per ms */
	wr(hc->rt, IR_IMAN, IMAN_IE | IMAN_IP);
	wr(hc->op, OP_USBCMD, rd(hc->op, OP_USBCMD) | CMD_INTE);
}

/* See xhci.h. Returns 0 with the controller running, or -1 (logged). */
int xhci_start(struct xhci *hc, const struct pci_dev *pci, uint8_t vector)
{
	uint64_t size;
	uint64_t bar = pci_bar_mem(pci, 0, &size);
	hc->pci = pci;
	pci_name(pci, hc->name, sizeof(hc->name));
	if (!bar || size < 0x1000) {
		printk("xhci %s: BAR 0 is not a usable memory window\n", hc->name);
		return -1;
	}
	pci_write16(pci, PCI_COMMAND, pci_read16(pci, PCI_COMMAND) | PCI_CMD_MEMORY | PCI_CMD_BUS_MASTER);
	hc->cap = vmm_map_mmio(bar, size, 0);
	uint32_t caplen = rd(hc->cap, CAP_LENGTH) & 0xFF, p1 = rd(hc->cap, CAP_HCSPARAMS1);
	uint32_t dboff = rd(hc->cap, CAP_DBOFF) & ~3u, rtsoff = rd(hc->cap, CAP_RTSOFF) & ~0x1Fu;
	uint32_t cc1 = rd(hc->cap, CAP_HCCPARAMS1);
	if (caplen < 0x20 || caplen + 0x400 > size || dboff >= size || rtsoff + 0x40 > size) {
		printk("xhci %s: register offsets outside BAR 0 (caplength %u, dboff 0x%x, rtsoff 0x%x)\n",
		       hc->name, caplen, dboff, rtsoff);
		return -1;
	}
	hc->op = hc->cap + caplen;
	hc->db = hc->cap + dboff;
	hc->rt = hc->cap + rtsoff;
	hc->max_slots = p1 & 0xFF;
	hc->max_ports = p1 >> 24;
	hc->ac64 = cc1 & 1;
	hc->ctx_size = cc1 & 4 ? 64 : 32;
	if (hc->max_ports > XHCI_MAX_PORTS || caplen + OP_PORTSC(hc->max_ports) + 16 > size)
		hc->max_ports = 0;
	xhci_ext_caps(hc, size);
	if (xhci_reset(hc))
		return -1;
	wr(hc->op, OP_CONFIG, hc->max_slots);
	if (!(hc->dcbaa = xhci_dma_page(hc, &hc->dcbaa_phys)) || xhci_scratchpads(hc) ||
	    xhci_ring_alloc(hc, &hc->cmd) || xhci_event_ring(hc)) {
		printk("xhci %s: out of memory for its structures\n", hc->name);
		return -1;
	}
	wr64(hc->op, OP_DCBAAP, hc->dcbaa_phys);
	wr64(hc->op, OP_CRCR, hc->cmd.phys | 1);
	xhci_interrupts(hc, vector);
	wr(hc->op, OP_USBCMD, rd(hc->op, OP_USBCMD) | CMD_RS);
	if (wait_reg(hc->op, OP_USBSTS, STS_HCH, 0, 100)) {
		printk("xhci %s: does not start running\n", hc->name);
		return -1;
	}
	for (unsigned p = 1; p <= hc->max_ports; p++) {
		uint32_t sc = xhci_portsc(hc, p);
		if (!(sc & PORTSC_PP))
			xhci_portsc_write(hc, p, sc, PORTSC_PP);
		hc->port_pending[(p - 1) / 8] |= (uint8_t)(1u << ((p - 1) % 8));
	}
	printk("xhci %s: %04x:%04x, %u ports, %u slots, %u-byte contexts, %s\n", hc->name,
	       pci->vendor, pci->device, hc->max_ports, hc->max_slots, hc->ctx_size, hc->irq_mode);
	return 0;
}
