/* SPDX-License-Identifier: BSD-2-Clause */
/* crc32.h — CRC-32 (IEEE 802.3, reflected polynomial 0xEDB88320), the
 * checksum of GPT headers and partition arrays (UEFI 2.10, 5.3). Portable. */
#ifndef MOSAIC_CRC32_H
#define MOSAIC_CRC32_H
#include <stddef.h>
#include <stdint.h>
/* Continues a CRC over len more bytes: crc32_update(0, buf, len) is the
 * CRC of buf; feeding a buffer in pieces gives the same value. */
uint32_t crc32_update(uint32_t crc, const void *buf, size_t len);
#endif
