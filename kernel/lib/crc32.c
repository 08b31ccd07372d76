/* SPDX-License-Identifier: BSD-2-Clause */
/* crc32.c — CRC-32, bit by bit (see crc32.h). GPT tables are a few
 * kilobytes, read once per stick: no table is worth its memory here. */
#include <lib/crc32.h>

/* See crc32.h. */
uint32_t crc32_update(uint32_t crc, const void *buf, size_t len)
{
	const uint8_t *p = buf;
	crc = ~crc;
	for (size_t i = 0; i < len; i++) {
		crc ^= p[i];
		for (int b = 0; b < 8; b++)
			crc = crc >> 1 ^ (0xEDB88320u & (0u - (crc & 1)));
	}
	return ~crc;
}
