/* fbcon.h — text console on the GOP framebuffer with a PSF bitmap font. */
#ifndef MOSAIC_FBCON_H
#define MOSAIC_FBCON_H
#include <boot_info.h>
/* Map the framebuffer, clear it and register as a console sink. Does
 * nothing (and says so) when fb->format is BOOT_FB_NONE. Boot-time. */
void fbcon_init(const struct boot_framebuffer *fb);
#endif
