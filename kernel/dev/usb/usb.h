/* SPDX-License-Identifier: BSD-2-Clause */
/* usb.h — USB: xHCI controllers and boot keyboards (kernel/dev/usb/). */
#ifndef MOSAIC_USB_H
#define MOSAIC_USB_H
/* Start the USB thread, which brings up every xHCI controller and feeds
 * USB keyboards into the console input. Needs pci_init() and the
 * scheduler (thread_boot()); says so and does nothing with sched=off. */
void usb_init(void);
#endif
