/* SPDX-License-Identifier: BSD-2-Clause */
/* serial.h — COM1 (0x3F8) 16550 UART. */
#ifndef MOSAIC_SERIAL_H
#define MOSAIC_SERIAL_H
/* 115200 8N1, FIFOs on, polled output; registers the serial console sink. */
void serial_init(void);
/* Route IRQ4 and turn on receive interrupts; bytes go to console_input_push(). */
void serial_enable_input_irq(void);
#endif
