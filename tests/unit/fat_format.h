/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * fat_format.h — a FAT12/16/32 volume made in memory the way mkfs.fat
 * lays one out (FAT spec: boot sector, FSInfo and backup boot sector on
 * FAT32, two FATs, the fixed root directory of FAT12/16), for the host
 * tests and fuzz harnesses of kernel/fs/.
 */
#ifndef MOSAIC_TEST_FAT_FORMAT_H
#define MOSAIC_TEST_FAT_FORMAT_H
#include <stdint.h>

/* Formats img[0..sectors * 512) with 512-byte sectors and spc sectors per
 * cluster as FAT12, 16 or 32 (whichever the cluster count gives: the
 * caller picks the size); label: up to 11 characters. Only the sectors
 * the layout needs are written (img must hold zeros elsewhere). Returns
 * the cluster count. */
uint32_t fat_format(uint8_t *img, uint32_t sectors, uint8_t spc, const char *label);

#endif
