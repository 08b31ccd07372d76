/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * psf.h — PC Screen Font (PSF1 and PSF2) bitmap fonts, as shipped by
 * Linux console font packages: header check, glyph lookup by Unicode code
 * point through the font's own mapping table. Pure C, no kernel
 * dependencies; a parsed font is read-only, so no locks.
 */
#ifndef MOSAIC_DEV_PSF_H
#define MOSAIC_DEV_PSF_H
#include <stddef.h>
#include <stdint.h>

#define PSF_NO_GLYPH 0xFFFFu

struct psf_font {
	const uint8_t *glyphs;    /* glyph_count bitmaps, bytes_per_glyph each */
	uint32_t glyph_count;
	uint32_t bytes_per_glyph;
	uint32_t width, height;   /* pixels */
	uint32_t row_bytes;       /* bytes per bitmap row, (width + 7) / 8 */
	int version;              /* 1 or 2 */
	const uint8_t *unicode;   /* mapping table, NULL if the font has none */
	size_t unicode_len;
	uint16_t low_map[256];    /* glyph of code points 0-255, PSF_NO_GLYPH if none */
	uint32_t fallback;        /* glyph for unmapped code points (U+FFFD or '?') */
};

/* Parse the font blob [data, data+len); the blob must outlive the font.
 * Returns NULL on success, else a short reason the blob is unusable. */
const char *psf_load(struct psf_font *f, const uint8_t *data, size_t len);
/* Glyph index for a Unicode code point (the fallback if unmapped). */
uint32_t psf_glyph(const struct psf_font *f, uint32_t codepoint);
/* Bitmap of glyph index g (rows of row_bytes, MSB = leftmost pixel). */
static inline const uint8_t *psf_bitmap(const struct psf_font *f, uint32_t g)
{
	return f->glyphs + (size_t)g * f->bytes_per_glyph;
}
#endif
