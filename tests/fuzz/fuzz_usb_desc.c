/* SPDX-License-Identifier: BSD-2-Clause */
/* Fuzz harness of the USB configuration descriptor parser
 * (kernel/dev/usb/usb_desc.c). Half the inputs are built from the grammar
 * (interfaces, class descriptors, endpoints, some forming a boot
 * keyboard) with the expected answer known; the other half are those,
 * mutated, and checked against a reference walker. Either way the parser
 * must never read outside the bytes (AddressSanitizer) and must leave the
 * output alone when it refuses. */
#include <tests/fuzz/fuzz.h>
#include <dev/usb/usb_desc.h>

struct expect {
	int ok, keyboard;
	uint8_t iface, ep, interval;
	uint16_t mps;
};

/* Reference walker: the rules of usb_desc.h, written out again. */
static struct expect model(const uint8_t *b, size_t len)
{
	struct expect e = { 0 };
	if (len < 9 || b[0] < 9 || b[1] != 2)
		return e;
	size_t total = b[2] | (size_t)b[3] << 8;
	if (total < 9 || total > USB_CONFIG_MAX || total != len)
		return e;
	int in_kbd = 0;
	for (size_t off = b[0]; off < len; off += b[off]) {
		if (len - off < 2 || b[off] < 2 || b[off] > len - off)
			return e;
		const uint8_t *d = b + off;
		if (d[1] == 4) {
			if (d[0] < 9)
				return e;
			in_kbd = !e.keyboard && d[3] == 0 && d[5] == 3 && d[6] == 1 && d[7] == 1;
			if (in_kbd)
				e.iface = d[2];
		} else if (d[1] == 5) {
			if (d[0] < 7)
				return e;
			if (in_kbd && (d[2] & 0x80) && (d[3] & 3) == 3) {
				uint16_t mps = (d[4] | d[5] << 8) & 0x7FF;
				if (!(d[2] & 15) || mps < 8 || mps > 1024 || !d[6])
					return e;
				e.keyboard = 1;
				e.ep = d[2];
				e.mps = mps;
				e.interval = d[6];
				in_kbd = 0;
			}
		}
	}
	e.ok = 1;
	return e;
}

/* A configuration from the grammar; returns its length. */
static size_t generate(struct fuzz *f, uint8_t *b, size_t cap)
{
	size_t n = 9;
	int ifaces = 1 + (int)fuzz_below(f, 4);
	for (int i = 0; i < ifaces && n + 9 <= cap; i++) {
		int kbd = fuzz_below(f, 2) == 0;
		uint8_t *d = b + n;
		memcpy(d, (const uint8_t[]){ 9, 4, (uint8_t)i, (uint8_t)fuzz_below(f, 2) * (uint8_t)!kbd, 1,
					     kbd ? 3 : (uint8_t)fuzz_below(f, 12), kbd ? 1 : 0,
					     kbd ? 1 : 0, 0 }, 9);
		n += 9;
		if (fuzz_below(f, 2) && n + 9 <= cap) {        /* a class descriptor */
			memcpy(b + n, (const uint8_t[]){ 9, 0x21, 0x11, 1, 0, 1, 0x22, 63, 0 }, 9);
			n += 9;
		}
		int eps = (int)fuzz_below(f, 3);
		for (int e = 0; e < eps && n + 7 <= cap; e++) {
			uint16_t mps = fuzz_below(f, 3) ? 8 : (uint16_t)fuzz_below(f, 2048);
			memcpy(b + n, (const uint8_t[]){ 7, 5, (uint8_t)((fuzz_below(f, 2) ? 0x80 : 0) |
									   fuzz_below(f, 16)),
							 (uint8_t)fuzz_below(f, 4), (uint8_t)mps,
							 (uint8_t)(mps >> 8), (uint8_t)fuzz_below(f, 20) }, 7);
			n += 7;
		}
	}
	memcpy(b, (const uint8_t[]){ 9, 2, (uint8_t)n, (uint8_t)(n >> 8), (uint8_t)ifaces, 1, 0, 0x80, 50 }, 9);
	return n;
}

static void fuzz_one(struct fuzz *f)
{
	uint8_t b[400];
	size_t len = generate(f, b, 300);
	if (fuzz_below(f, 2)) {
		fuzz_mutate(f, b, &len, sizeof(b));
		if (fuzz_below(f, 2) && len >= 4) {     /* keep wTotalLength consistent often */
			b[2] = (uint8_t)len;
			b[3] = (uint8_t)(len >> 8);
		}
	}
	uint8_t *copy = malloc(len ? len : 1);        /* exact size: ASan sees any overread */
	memcpy(copy, b, len);
	struct usb_config_info ci;
	memset(&ci, 0x5A, sizeof(ci));
	const struct usb_config_info untouched = ci;
	char err[96];
	err[0] = 0;
	int r = usb_parse_config(copy, len, &ci, err, sizeof(err));
	struct expect e = model(b, len);
	if ((r == 0) != e.ok)
		fuzz_fail(f, "parser %d, model %d (%s)", r, e.ok, err);
	if (r) {
		if (!err[0] || memcmp(&ci, &untouched, sizeof(ci)))
			fuzz_fail(f, "refused without a reason, or output written");
	} else if (ci.keyboard != e.keyboard ||
		   (e.keyboard && (ci.kbd_interface != e.iface || ci.kbd_endpoint != e.ep ||
				   ci.kbd_max_packet != e.mps || ci.kbd_interval != e.interval))) {
		fuzz_fail(f, "keyboard %d/%d ep 0x%x/0x%x", ci.keyboard, e.keyboard, ci.kbd_endpoint, e.ep);
	}
	struct usb_device_desc dd;
	r = usb_parse_device(copy, len, (int)fuzz_below(f, 5), &dd, err, sizeof(err));
	if (r == 0 && (len < 18 || copy[1] != 1 || !copy[17]))
		fuzz_fail(f, "device descriptor accepted wrongly");
	free(copy);
}

FUZZ_MAIN("usb_desc")
