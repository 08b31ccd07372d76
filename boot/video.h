/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * video.h — choosing the graphics mode for the kernel's console.
 *
 * Portable C with no EFI headers: boot/gop.c gives it the modes the
 * firmware lists, the current one and the monitor's EDID; the host tests
 * (tests/unit/test_video.c) and the fuzz harness (tests/fuzz/fuzz_video.c)
 * run it as is. Everything it reads is bounded by the lengths given. The
 * policy is the `video=` word of the kernel command line (docs/cmdline.md).
 */
#ifndef MOSAIC_BOOT_VIDEO_H
#define MOSAIC_BOOT_VIDEO_H
#include <stddef.h>
#include <stdint.h>

#define VIDEO_CAP_W 3840            /* largest mode chosen without being asked */
#define VIDEO_CAP_H 2160
#define VIDEO_MIN   320             /* WxH: each side 320..16384 */
#define VIDEO_MAX   16384
#define VIDEO_VALUE_MAX 32          /* bytes of a video= value, with its NUL */

enum video_kind { VIDEO_AUTO, VIDEO_KEEP, VIDEO_LARGEST, VIDEO_SIZE };

struct video_policy {
	enum video_kind kind;
	uint32_t w, h;                  /* VIDEO_SIZE */
};

struct video_mode {
	uint32_t w, h;
	int usable;                     /* a linear 32-bit framebuffer */
};

/* The value of the last `video=` word of a kernel command line (its
 * quoting rules: "..." with \" and \\, '...'), unquoted, into out:
 * 1 found, 0 absent, -1 longer than out_len - 1 (out then empty). */
int video_cmdline_value(const char *cmdline, char *out, size_t out_len);
/* auto, keep, max or WxH into p; NULL, or the reason it is refused. */
const char *video_policy_parse(const char *value, struct video_policy *p);
/* The preferred mode of an EDID block (VESA E-EDID 1.3/1.4: header,
 * checksum, first detailed timing descriptor); NULL, or why not. */
const char *video_edid_preferred(const uint8_t *edid, size_t len, uint32_t *w, uint32_t *h);
/* Index of the mode to use among modes[0..n) (current: the firmware's,
 * -1 if unknown), by policy p and the EDID mode (0x0 when none); *how
 * says why in a few words. -1 when no mode is usable. */
int video_choose(const struct video_mode *modes, int n, int current, const struct video_policy *p,
		 uint32_t edid_w, uint32_t edid_h, const char **how);
#endif
