/* SPDX-License-Identifier: BSD-2-Clause */
/* usb_desc.c — the descriptor parsers (see usb_desc.h). Every byte read
 * is inside [b, b + len): lengths are checked before the fields. */
#include <dev/usb/usb_desc.h>
#include <kern/printk.h>

#define LE16(p) ((uint16_t)((p)[0] | (p)[1] << 8))

/* See usb_desc.h. */
uint16_t usb_parse_max_packet0(const uint8_t *b, size_t len, int speed, char *err, size_t err_len)
{
	if (len < 8) {
		ksnprintf(err, err_len, "device descriptor: %zu bytes, need 8", len);
		return 0;
	}
	uint8_t v = b[7];
	if (speed == USB_SPEED_SUPER) {
		if (v == 9)
			return 512;
	} else if (v == 8 || (speed != USB_SPEED_LOW && (v == 16 || v == 32 || v == 64))) {
		return v;
	}
	ksnprintf(err, err_len, "device descriptor: bMaxPacketSize0 %u not allowed at speed %d", v, speed);
	return 0;
}

/* See usb_desc.h. */
int usb_parse_device(const uint8_t *b, size_t len, int speed, struct usb_device_desc *out,
		     char *err, size_t err_len)
{
	if (len < USB_DEVICE_DESC_LEN) {
		ksnprintf(err, err_len, "device descriptor: %zu bytes, need 18", len);
		return -1;
	}
	if (b[0] < USB_DEVICE_DESC_LEN || b[1] != USB_DESC_DEVICE) {
		ksnprintf(err, err_len, "device descriptor: length %u type %u (want 18, 1)", b[0], b[1]);
		return -1;
	}
	uint16_t mps = usb_parse_max_packet0(b, len, speed, err, err_len);
	if (!mps)
		return -1;
	if (b[17] == 0) {
		ksnprintf(err, err_len, "device descriptor: no configurations");
		return -1;
	}
	*out = (struct usb_device_desc){ .bcd_usb = LE16(b + 2), .dev_class = b[4],
					 .dev_subclass = b[5], .dev_protocol = b[6],
					 .max_packet0 = mps, .vendor = LE16(b + 8),
					 .product = LE16(b + 10), .num_configs = b[17] };
	return 0;
}

/* See usb_desc.h. */
uint16_t usb_parse_config_len(const uint8_t *b, size_t len, char *err, size_t err_len)
{
	if (len < 9 || b[0] < 9 || b[1] != USB_DESC_CONFIG) {
		ksnprintf(err, err_len, "configuration descriptor: header missing or malformed");
		return 0;
	}
	uint16_t total = LE16(b + 2);
	if (total < 9 || total > USB_CONFIG_MAX) {
		ksnprintf(err, err_len, "configuration descriptor: wTotalLength %u outside 9..%u",
			  total, USB_CONFIG_MAX);
		return 0;
	}
	return total;
}

/* An interrupt IN endpoint descriptor e (7+ bytes) fit for a keyboard:
 * fills out and returns 0, or -1 with a reason. */
static int take_endpoint(const uint8_t *e, size_t off, struct usb_config_info *out, char *err,
			 size_t err_len)
{
	uint16_t mps = LE16(e + 4) & 0x7FF;
	if ((e[2] & 0x0F) == 0) {
		ksnprintf(err, err_len, "keyboard endpoint at offset %zu: address 0x%02x is endpoint 0",
			  off, e[2]);
		return -1;
	}
	if (mps < 8 || mps > 1024 || e[6] == 0) {
		ksnprintf(err, err_len, "keyboard endpoint at offset %zu: packet size %u, interval %u "
			  "(want 8..1024, 1..255)", off, mps, e[6]);
		return -1;
	}
	out->kbd_endpoint = e[2];
	out->kbd_max_packet = mps;
	out->kbd_interval = e[6];
	out->keyboard = 1;
	return 0;
}

/* See usb_desc.h. */
int usb_parse_config(const uint8_t *b, size_t len, struct usb_config_info *out, char *err,
		     size_t err_len)
{
	struct usb_config_info info = { 0 };
	uint16_t total = usb_parse_config_len(b, len, err, err_len);
	if (!total)
		return -1;
	if (total != len) {
		ksnprintf(err, err_len, "configuration descriptor: wTotalLength %u but %zu bytes read",
			  total, len);
		return -1;
	}
	info.total_len = total;
	info.num_interfaces = b[4];
	info.config_value = b[5];
	int in_kbd = 0, interfaces = 0;
	for (size_t off = b[0]; off < len;) {
		if (len - off < 2 || b[off] < 2 || b[off] > len - off) {
			ksnprintf(err, err_len, "configuration descriptor: descriptor at offset %zu "
				  "has length %u with %zu bytes left", off, len - off < 1 ? 0 : b[off],
				  len - off);
			return -1;
		}
		const uint8_t *d = b + off;
		if (d[1] == USB_DESC_INTERFACE) {
			if (d[0] < 9) {
				ksnprintf(err, err_len, "interface descriptor at offset %zu: length %u < 9",
					  off, d[0]);
				return -1;
			}
			if (interfaces++ == 0)
				info.first_class = d[5];
			in_kbd = !info.keyboard && d[3] == 0 && d[5] == USB_CLASS_HID && d[6] == 1 &&
				 d[7] == 1;
			if (in_kbd)
				info.kbd_interface = d[2];
		} else if (d[1] == USB_DESC_ENDPOINT) {
			if (d[0] < 7) {
				ksnprintf(err, err_len, "endpoint descriptor at offset %zu: length %u < 7",
					  off, d[0]);
				return -1;
			}
			if (in_kbd && (d[2] & 0x80) && (d[3] & 3) == 3) {
				if (take_endpoint(d, off, &info, err, err_len))
					return -1;
				in_kbd = 0;
			}
		}
		off += d[0];
	}
	*out = info;
	return 0;
}
