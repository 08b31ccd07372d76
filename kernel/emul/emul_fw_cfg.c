/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * emul_fw_cfg.c — reading named files from QEMU's fw_cfg device through its
 * legacy I/O interface: write a 16-bit selector to port 0x510, then read
 * the item byte by byte from port 0x511. Multi-byte numbers in the file
 * directory are big-endian.
 */
#include <arch/x86_64/cpu/cpu.h>
#include <lib/string.h>
#include <emul/emul_fw_cfg.h>

#define FW_CFG_PORT_SEL   0x510
#define FW_CFG_PORT_DATA  0x511
#define FW_CFG_SIGNATURE  0x0000
#define FW_CFG_FILE_DIR   0x0019
#define FW_CFG_NAME_LEN   56

/* One directory entry as the device sends it. */
struct fw_cfg_file {
	uint8_t size[4];
	uint8_t select[2];
	uint8_t reserved[2];
	char name[FW_CFG_NAME_LEN];
};

/* Select an item and read len bytes from its start. Boot CPU only. */
void emul_fw_cfg_read(uint16_t select, void *buf, uint32_t len)
{
	uint8_t *out = buf;
	outw(FW_CFG_PORT_SEL, select);
	for (uint32_t i = 0; i < len; i++)
		out[i] = inb(FW_CFG_PORT_DATA);
}

/* Continue reading the selected item. */
static void emul_fw_cfg_read_more(void *buf, uint32_t len)
{
	uint8_t *out = buf;
	for (uint32_t i = 0; i < len; i++)
		out[i] = inb(FW_CFG_PORT_DATA);
}

static uint32_t be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

int emul_fw_cfg_present(void)
{
	char sig[4];
	emul_fw_cfg_read(FW_CFG_SIGNATURE, sig, sizeof(sig));
	return memcmp(sig, "QEMU", 4) == 0;
}

int emul_fw_cfg_find(const char *name, uint32_t *size, uint16_t *select)
{
	uint8_t count_be[4];
	struct fw_cfg_file f;
	if (!emul_fw_cfg_present())
		return -1;
	emul_fw_cfg_read(FW_CFG_FILE_DIR, count_be, sizeof(count_be));
	uint32_t count = be32(count_be);
	for (uint32_t i = 0; i < count; i++) {
		emul_fw_cfg_read_more(&f, sizeof(f));
		f.name[FW_CFG_NAME_LEN - 1] = 0;
		if (strcmp(f.name, name) == 0) {
			*size = be32(f.size);
			*select = (uint16_t)(f.select[0] << 8 | f.select[1]);
			return 0;
		}
	}
	return -1;
}
