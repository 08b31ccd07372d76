/* SPDX-License-Identifier: BSD-2-Clause */
/* psf.c — PSF1/PSF2 font parsing and Unicode-to-glyph lookup (see psf.h).
 *
 * PSF1: 4-byte header (0x36 0x04, mode, bytes per glyph = height), 8 pixels
 * wide, 256 or 512 glyphs; its mapping table holds little-endian 16-bit
 * code points, 0xFFFE opening combining sequences, 0xFFFF ending each
 * glyph's entry. PSF2: 32-byte little-endian header (magic 72 b5 4a 86,
 * version, header size, flags, count, bytes per glyph, height, width); its
 * table is UTF-8 with 0xFE and 0xFF playing the same roles. */
#include <dev/psf.h>

#define PSF1_MODE512    0x01
#define PSF1_MODEHASTAB 0x02
#define PSF1_MODESEQ    0x04
#define PSF2_HAS_TABLE  0x01
#define PSF_MAX_WIDTH   64
#define PSF_MAX_HEIGHT  128

static uint32_t le32(const uint8_t *p)
{
	return p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* Table markers and malformed input, outside the Unicode range. */
#define MARK_END_GLYPH 0x110000u
#define MARK_SEQUENCE  0x110001u
#define MARK_BAD       0x110002u

/* Position in a font's mapping table. */
struct psf_walk {
	size_t pos;
	uint32_t glyph;    /* glyph whose entry is being read */
	int in_seq;        /* inside the combining sequences of that entry */
};

/* Decode one UTF-8 code point at t[*pos..len); advances *pos. Malformed
 * input advances by one byte and yields MARK_BAD. */
static uint32_t utf8_decode(const uint8_t *t, size_t len, size_t *pos)
{
	uint8_t b = t[(*pos)++];
	int more;
	uint32_t cp;
	if (b < 0x80)
		return b;
	if ((b & 0xE0) == 0xC0) { more = 1; cp = b & 0x1F; }
	else if ((b & 0xF0) == 0xE0) { more = 2; cp = b & 0x0F; }
	else if ((b & 0xF8) == 0xF0) { more = 3; cp = b & 0x07; }
	else return MARK_BAD;
	if (*pos + more > len)
		return MARK_BAD;
	for (int i = 0; i < more; i++) {
		if ((t[*pos + i] & 0xC0) != 0x80)
			return MARK_BAD;
		cp = cp << 6 | (t[*pos + i] & 0x3F);
	}
	*pos += more;
	return cp;
}

/* Next single code point of the table (sequences are skipped), with the
 * glyph it maps to in w->glyph. Returns 0 at the end of the table. */
static int psf_walk_next(const struct psf_font *f, struct psf_walk *w, uint32_t *cp)
{
	const uint8_t *t = f->unicode;
	while (w->glyph < f->glyph_count) {
		uint32_t v;
		if (f->version == 1) {
			if (w->pos + 2 > f->unicode_len)
				return 0;
			v = t[w->pos] | (uint32_t)t[w->pos + 1] << 8;
			w->pos += 2;
			if (v >= 0xFFFE)
				v = v == 0xFFFF ? MARK_END_GLYPH : MARK_SEQUENCE;
		} else {
			if (w->pos >= f->unicode_len)
				return 0;
			if (t[w->pos] >= 0xFE)
				v = t[w->pos++] == 0xFF ? MARK_END_GLYPH : MARK_SEQUENCE;
			else
				v = utf8_decode(t, f->unicode_len, &w->pos);
		}
		if (v == MARK_END_GLYPH) {
			w->glyph++;
			w->in_seq = 0;
		} else if (v == MARK_SEQUENCE) {
			w->in_seq = 1;
		} else if (!w->in_seq && v != MARK_BAD) {
			*cp = v;
			return 1;
		}
	}
	return 0;
}

/* Glyph of cp from the mapping table, PSF_NO_GLYPH if it has none. */
static uint32_t psf_table_lookup(const struct psf_font *f, uint32_t cp)
{
	struct psf_walk w = { 0, 0, 0 };
	uint32_t v;
	while (psf_walk_next(f, &w, &v))
		if (v == cp)
			return w.glyph;
	return PSF_NO_GLYPH;
}

/* Fill the header fields of a PSF1 font; NULL or the reason it is bad. */
static const char *psf1_header(struct psf_font *f, const uint8_t *data, size_t len)
{
	uint8_t mode = data[2];
	f->version = 1;
	f->width = 8;
	f->height = f->bytes_per_glyph = data[3];
	f->glyph_count = mode & PSF1_MODE512 ? 512 : 256;
	f->glyphs = data + 4;
	if (f->height == 0)
		return "PSF1 glyph height is 0";
	size_t end = 4 + (size_t)f->glyph_count * f->bytes_per_glyph;
	if (end > len)
		return "PSF1 glyphs run past the end of the file";
	if (mode & (PSF1_MODEHASTAB | PSF1_MODESEQ)) {
		f->unicode = data + end;
		f->unicode_len = len - end;
	}
	return NULL;
}

/* Fill the header fields of a PSF2 font; NULL or the reason it is bad. */
static const char *psf2_header(struct psf_font *f, const uint8_t *data, size_t len)
{
	if (len < 32)
		return "PSF2 header truncated";
	uint32_t version = le32(data + 4), hdr = le32(data + 8), flags = le32(data + 12);
	f->version = 2;
	f->glyph_count = le32(data + 16);
	f->bytes_per_glyph = le32(data + 20);
	f->height = le32(data + 24);
	f->width = le32(data + 28);
	if (version != 0)
		return "unknown PSF2 version";
	if (hdr < 32 || hdr > len)
		return "bad PSF2 header size";
	if (f->width == 0 || f->width > PSF_MAX_WIDTH || f->height == 0 || f->height > PSF_MAX_HEIGHT)
		return "PSF2 glyph size out of range";
	if (f->bytes_per_glyph != f->height * ((f->width + 7) / 8))
		return "PSF2 bytes per glyph does not match its size";
	if (f->glyph_count == 0 || f->glyph_count >= PSF_NO_GLYPH)
		return "PSF2 glyph count out of range";
	uint64_t end = hdr + (uint64_t)f->glyph_count * f->bytes_per_glyph;
	if (end > len)
		return "PSF2 glyphs run past the end of the file";
	f->glyphs = data + hdr;
	if (flags & PSF2_HAS_TABLE) {
		f->unicode = data + end;
		f->unicode_len = len - end;
	}
	return NULL;
}

/* See psf.h. */
const char *psf_load(struct psf_font *f, const uint8_t *data, size_t len)
{
	*f = (struct psf_font){ 0 };
	const char *err;
	if (len >= 4 && data[0] == 0x36 && data[1] == 0x04)
		err = psf1_header(f, data, len);
	else if (len >= 4 && data[0] == 0x72 && data[1] == 0xB5 && data[2] == 0x4A && data[3] == 0x86)
		err = psf2_header(f, data, len);
	else
		err = "not a PSF1 or PSF2 font";
	if (err)
		return err;
	f->row_bytes = (f->width + 7) / 8;

	for (uint32_t i = 0; i < 256; i++)
		f->low_map[i] = !f->unicode && i < f->glyph_count ? i : PSF_NO_GLYPH;
	if (f->unicode) {
		struct psf_walk w = { 0, 0, 0 };
		uint32_t cp;
		while (psf_walk_next(f, &w, &cp))
			if (cp < 256 && f->low_map[cp] == PSF_NO_GLYPH)
				f->low_map[cp] = (uint16_t)w.glyph;
	}
	f->fallback = f->unicode ? psf_table_lookup(f, 0xFFFD) : PSF_NO_GLYPH;
	if (f->fallback == PSF_NO_GLYPH)
		f->fallback = f->low_map['?'];
	if (f->fallback == PSF_NO_GLYPH)
		f->fallback = 0;
	return NULL;
}

/* See psf.h. Code points above 255 walk the mapping table. */
uint32_t psf_glyph(const struct psf_font *f, uint32_t codepoint)
{
	uint32_t g;
	if (codepoint < 256)
		g = f->low_map[codepoint];
	else if (f->unicode)
		g = psf_table_lookup(f, codepoint);
	else
		g = codepoint < f->glyph_count ? codepoint : PSF_NO_GLYPH;
	return g == PSF_NO_GLYPH ? f->fallback : g;
}
