/* SPDX-License-Identifier: BSD-2-Clause */
/* usb_desc_msd.c — the mass storage interface of a configuration (see
 * usb_desc_msd.h). */
#include <dev/usb/usb_desc_msd.h>
#include <dev/usb/usb_desc.h>
#include <kern/printk.h>
#include <lib/string.h>

/* See usb_desc_msd.h. Walks every descriptor with its length checked
 * against what is left, as usb_parse_config() does. */
int usb_parse_msd(const uint8_t *b, size_t len, struct usb_msd_info *out, char *err, size_t err_len)
{
	struct usb_msd_info mi;
	memset(&mi, 0, sizeof(mi));
	int in_msd = 0, done = 0;
	uint8_t *last_burst = NULL;
	if (len < 9 || b[0] < 9 || b[0] > len) {
		ksnprintf(err, err_len, "configuration descriptor shorter than 9 bytes");
		return -1;
	}
	for (size_t off = b[0]; off < len && !done;) {
		if (len - off < 2 || b[off] < 2 || b[off] > len - off) {
			ksnprintf(err, err_len, "descriptor at offset %zu overruns the configuration", off);
			return -1;
		}
		const uint8_t *d = b + off;
		if (d[1] == USB_DESC_INTERFACE && d[0] >= 9) {
			if (in_msd) {
				done = 1;         /* the next interface: ours is complete */
				break;
			}
			if (d[5] == USB_CLASS_STORAGE && d[3] == 0) {
				in_msd = 1;
				mi.found = 1;
				mi.interface = d[2];
				mi.subclass = d[6];
				mi.protocol = d[7];
			}
			last_burst = NULL;
		} else if (d[1] == USB_DESC_ENDPOINT && d[0] >= 7 && in_msd && (d[3] & 3) == 2) {
			uint16_t mps = (uint16_t)((d[4] | d[5] << 8) & 0x7FF);
			int is_in = d[2] & 0x80;
			last_burst = NULL;
			if ((d[2] & 0x0F) == 0 || mps < 8 || mps > 1024 || (mps & (mps - 1))) {
				ksnprintf(err, err_len, "bulk endpoint 0x%02x at offset %zu: packet size %u "
					  "(want a power of two in 8..1024)", d[2], off, mps);
				return -1;
			}
			if (is_in && !mi.ep_in) {
				mi.ep_in = d[2];
				mi.mps_in = mps;
				last_burst = &mi.burst_in;
			} else if (!is_in && !mi.ep_out) {
				mi.ep_out = d[2];
				mi.mps_out = mps;
				last_burst = &mi.burst_out;
			}
		} else if (d[1] == USB_DESC_SS_COMPANION && d[0] >= 6 && last_burst) {
			*last_burst = d[2] > 15 ? 15 : d[2];
			last_burst = NULL;
		}
		off += d[0];
	}
	if (mi.found && (mi.subclass != USB_MSD_SUBCLASS_SCSI || mi.protocol != USB_MSD_PROTO_BOT)) {
		ksnprintf(err, err_len, "mass storage subclass 0x%02x, protocol 0x%02x: only SCSI over "
			  "Bulk-Only Transport (0x06, 0x50) is supported", mi.subclass, mi.protocol);
		return -1;
	}
	if (mi.found && (!mi.ep_in || !mi.ep_out)) {
		ksnprintf(err, err_len, "mass storage interface %u without a bulk %s endpoint", mi.interface,
			  mi.ep_in ? "OUT" : "IN");
		return -1;
	}
	*out = mi;
	return 0;
}
