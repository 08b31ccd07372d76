/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * emul_fw_cfg.h — QEMU's firmware configuration device (I/O ports 0x510/0x511):
 * named files the host hands to the guest (`-fw_cfg name=...,file=...`).
 * Used only at boot, on the boot CPU (the device has one selector).
 */
#ifndef MOSAIC_EMUL_FW_CFG_H
#define MOSAIC_EMUL_FW_CFG_H
#include <stdint.h>

/* Whether the device answers with its "QEMU" signature (0 on real
 * hardware, where nothing decodes these ports). */
int emul_fw_cfg_present(void);
/* Look up a file by name; 0 with its size and selector, -1 if absent (or
 * no device). */
int emul_fw_cfg_find(const char *name, uint32_t *size, uint16_t *select);
/* The first len bytes of the file at select into buf. */
void emul_fw_cfg_read(uint16_t select, void *buf, uint32_t len);

#endif
