/* SPDX-License-Identifier: BSD-2-Clause */
/* Host tests for the PSF font parser (kernel/dev/psf.c), on fonts built
 * here byte by byte. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <dev/psf.h>

static uint8_t blob[8192];
static size_t blob_len;

static void put8(uint8_t v) { blob[blob_len++] = v; }
static void put16(uint16_t v) { put8(v & 0xFF); put8(v >> 8); }
static void put32(uint32_t v) { put16(v & 0xFFFF); put16(v >> 16); }
static void puts8(const char *s) { while (*s) put8((uint8_t)*s++); }

/* PSF1, 256 glyphs of height 2 (glyph i = {i, ~i}), optional table. */
static void build_psf1(int with_table)
{
	blob_len = 0;
	put8(0x36); put8(0x04); put8(with_table ? 0x02 : 0x00); put8(2);
	for (int i = 0; i < 256; i++) {
		put8((uint8_t)i);
		put8((uint8_t)~i);
	}
	if (!with_table)
		return;
	put16(0x00A9); put16(0xFFFF);                                   /* 0: © */
	put16('A'); put16(0x0391); put16(0xFFFE); put16('A'); put16(0x0301); put16(0xFFFF); /* 1 */
	put16('?'); put16(0xFFFF);                                      /* 2 */
	put16(0xFFFD); put16(0xFFFF);                                   /* 3 */
	for (int i = 4; i < 256; i++)
		put16(0xFFFF);
}

/* PSF2, 4 glyphs 10x3 (2 bytes per row), UTF-8 table. */
static void build_psf2(void)
{
	blob_len = 0;
	put8(0x72); put8(0xB5); put8(0x4A); put8(0x86);
	put32(0); put32(32); put32(1); put32(4); put32(6); put32(3); put32(10);
	for (int i = 0; i < 4 * 6; i++)
		put8((uint8_t)(0x10 + i));
	puts8("a"); put8(0xFF);                                 /* 0 */
	puts8("\xc3\xa9\xe2\x82\xac"); put8(0xFF);              /* 1: é € */
	put8(0xFE); puts8("x"); put8(0xFF);                     /* 2: only a sequence */
	puts8("\xc3" "b?"); put8(0xFF);                         /* 3: malformed, then b ? */
}

static void test_psf1_with_table(void **state)
{
	(void)state;
	struct psf_font f;
	build_psf1(1);
	assert_null(psf_load(&f, blob, blob_len));
	assert_int_equal(f.version, 1);
	assert_int_equal(f.glyph_count, 256);
	assert_int_equal(f.width, 8);
	assert_int_equal(f.height, 2);
	assert_int_equal(f.row_bytes, 1);
	assert_int_equal(psf_glyph(&f, 0xA9), 0);
	assert_int_equal(psf_glyph(&f, 'A'), 1);
	assert_int_equal(psf_glyph(&f, 0x391), 1);
	assert_int_equal(psf_glyph(&f, '?'), 2);
	assert_int_equal(f.fallback, 3);                  /* U+FFFD wins over '?' */
	assert_int_equal(psf_glyph(&f, 0x301), 3);        /* only inside a sequence */
	assert_int_equal(psf_glyph(&f, 'B'), 3);
	assert_int_equal(psf_glyph(&f, 0x10FFFF), 3);
	assert_int_equal(psf_bitmap(&f, 7)[0], 7);
	assert_int_equal(psf_bitmap(&f, 7)[1], (uint8_t)~7);
}

static void test_psf1_without_table(void **state)
{
	(void)state;
	struct psf_font f;
	build_psf1(0);
	assert_null(psf_load(&f, blob, blob_len));
	assert_null(f.unicode);
	assert_int_equal(psf_glyph(&f, 'A'), 'A');
	assert_int_equal(psf_glyph(&f, 0xE9), 0xE9);
	assert_int_equal(psf_glyph(&f, 0x391), '?');
}

static void test_psf2_utf8_table(void **state)
{
	(void)state;
	struct psf_font f;
	build_psf2();
	assert_null(psf_load(&f, blob, blob_len));
	assert_int_equal(f.version, 2);
	assert_int_equal(f.width, 10);
	assert_int_equal(f.row_bytes, 2);
	assert_int_equal(f.height, 3);
	assert_int_equal(psf_glyph(&f, 'a'), 0);
	assert_int_equal(psf_glyph(&f, 0xE9), 1);
	assert_int_equal(psf_glyph(&f, 0x20AC), 1);
	assert_int_equal(psf_glyph(&f, 'b'), 3);
	assert_int_equal(f.fallback, 3);                  /* no U+FFFD: '?' */
	assert_int_equal(psf_glyph(&f, 'x'), 3);
	assert_int_equal(psf_bitmap(&f, 2)[0], 0x10 + 12);
}

static void test_bad_fonts(void **state)
{
	(void)state;
	struct psf_font f;
	assert_non_null(psf_load(&f, blob, 0));
	assert_non_null(psf_load(&f, (const uint8_t *)"hello, world", 12));

	build_psf1(1);
	assert_non_null(psf_load(&f, blob, 4 + 256 * 2 - 1));   /* truncated glyphs */
	blob[3] = 0;
	assert_non_null(psf_load(&f, blob, blob_len));          /* zero height */

	build_psf2();
	assert_non_null(psf_load(&f, blob, 31));                /* truncated header */
	assert_non_null(psf_load(&f, blob, 32 + 4 * 6 - 1));    /* truncated glyphs */
	build_psf2();
	blob[20] = 5;                                           /* bytes per glyph != 3 * 2 */
	assert_non_null(psf_load(&f, blob, blob_len));
	build_psf2();
	blob[8] = 0xFF; blob[9] = 0xFF;                         /* header size past the end */
	assert_non_null(psf_load(&f, blob, blob_len));
	build_psf2();
	blob[16] = 0;                                           /* no glyphs */
	assert_non_null(psf_load(&f, blob, blob_len));
	build_psf2();
	blob[4] = 1;                                            /* unknown version */
	assert_non_null(psf_load(&f, blob, blob_len));
	build_psf2();
	blob[28] = 0;                                           /* width 0 */
	assert_non_null(psf_load(&f, blob, blob_len));
}

static void test_table_cut_short(void **state)
{
	(void)state;
	struct psf_font f;
	build_psf1(1);
	/* Only the first entry and half a code point of the table remain. */
	assert_null(psf_load(&f, blob, 4 + 512 + 4 + 1));
	assert_int_equal(psf_glyph(&f, 0xA9), 0);
	assert_int_equal(psf_glyph(&f, 'A'), 0);          /* unmapped: fallback glyph 0 */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_psf1_with_table),
		cmocka_unit_test(test_psf1_without_table),
		cmocka_unit_test(test_psf2_utf8_table),
		cmocka_unit_test(test_bad_fonts),
		cmocka_unit_test(test_table_cut_short),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
