/* SPDX-License-Identifier: BSD-2-Clause */
/* Host tests of the loader's graphics mode policy (boot/video.c): the
 * video= word found in a command line (quotes, the last one wins, too
 * long refused), its value parsed, the monitor's preferred mode read from
 * an EDID block (short, wrong header, wrong checksum refused), and the mode
 * chosen from a firmware's list whose first mode is not the current one. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include <boot/video.h>

static void test_cmdline_value(void **state)
{
	(void)state;
	char v[VIDEO_VALUE_MAX];
	assert_int_equal(video_cmdline_value("hfi=off", v, sizeof(v)), 0);
	assert_string_equal(v, "");
	assert_int_equal(video_cmdline_value("video=1920x1080 hfi=off", v, sizeof(v)), 1);
	assert_string_equal(v, "1920x1080");
	assert_int_equal(video_cmdline_value("video=max  video=\"keep\"", v, sizeof(v)), 1);
	assert_string_equal(v, "keep");
	/* A video= inside another word's quoted value is not the key. */
	assert_int_equal(video_cmdline_value("run=\"echo video=max\" 'x=1'", v, sizeof(v)), 0);
	assert_int_equal(video_cmdline_value("videos=max video2=keep", v, sizeof(v)), 0);
	char small[5];
	assert_int_equal(video_cmdline_value("video=1920x1080", small, sizeof(small)), -1);
	assert_string_equal(small, "");
	assert_int_equal(video_cmdline_value("video=max", small, sizeof(small)), 1);
	assert_string_equal(small, "max");
}

static void test_policy_parse(void **state)
{
	(void)state;
	struct video_policy p;
	assert_null(video_policy_parse("auto", &p));
	assert_int_equal(p.kind, VIDEO_AUTO);
	assert_null(video_policy_parse("keep", &p));
	assert_int_equal(p.kind, VIDEO_KEEP);
	assert_null(video_policy_parse("max", &p));
	assert_int_equal(p.kind, VIDEO_LARGEST);
	assert_null(video_policy_parse("3840x2160", &p));
	assert_int_equal(p.kind, VIDEO_SIZE);
	assert_int_equal(p.w, 3840);
	assert_int_equal(p.h, 2160);
	const char *bad[] = { "", "Auto", "maxx", "1920", "1920x", "x1080", "1920x1080x", "319x200",
			      "16385x400", "000001920x1080", "1920X1080", "-1x5" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		p.kind = VIDEO_AUTO;
		assert_non_null(video_policy_parse(bad[i], &p));
	}
}

/* An EDID block whose first detailed timing is w x h, checksum right. */
static void edid_make(uint8_t *e, uint32_t w, uint32_t h)
{
	static const uint8_t header[8] = { 0, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0 };
	memset(e, 0, 128);
	memcpy(e, header, 8);
	e[54] = 0x01;                    /* pixel clock, not 0 */
	e[56] = (uint8_t)w;
	e[58] = (uint8_t)((w >> 8) << 4);
	e[59] = (uint8_t)h;
	e[61] = (uint8_t)((h >> 8) << 4);
	uint8_t sum = 0;
	for (int i = 0; i < 127; i++)
		sum = (uint8_t)(sum + e[i]);
	e[127] = (uint8_t)(0x100 - sum);
}

static void test_edid(void **state)
{
	(void)state;
	uint8_t e[256];
	uint32_t w = 0, h = 0;
	edid_make(e, 3840, 2160);
	assert_null(video_edid_preferred(e, 128, &w, &h));
	assert_int_equal(w, 3840);
	assert_int_equal(h, 2160);
	assert_non_null(strstr(video_edid_preferred(e, 127, &w, &h), "shorter"));
	e[127]++;
	assert_non_null(strstr(video_edid_preferred(e, 128, &w, &h), "checksum"));
	edid_make(e, 1920, 1080);
	e[1] = 0;
	assert_non_null(strstr(video_edid_preferred(e, 128, &w, &h), "header"));
	edid_make(e, 1920, 1080);
	e[54] = 0;                       /* a display descriptor, not a timing */
	e[127]++;
	assert_non_null(strstr(video_edid_preferred(e, 128, &w, &h), "not a timing"));
	edid_make(e, 0, 1080);
	assert_non_null(strstr(video_edid_preferred(e, 128, &w, &h), "no size"));
}

/* OVMF-like: the first mode is 640x480, the current one 1280x800. */
static const struct video_mode modes[] = {
	{ 640, 480, 1 }, { 800, 600, 1 }, { 1280, 800, 1 }, { 1920, 1080, 1 },
	{ 2560, 1600, 0 }, { 3840, 2160, 1 }, { 7680, 4320, 1 },
};
#define NMODES ((int)(sizeof(modes) / sizeof(modes[0])))

static int choose(const char *policy, int current, uint32_t ew, uint32_t eh, const char **how)
{
	struct video_policy p;
	assert_null(video_policy_parse(policy, &p));
	return video_choose(modes, NMODES, current, &p, ew, eh, how);
}

static void test_choose(void **state)
{
	(void)state;
	const char *how;
	assert_int_equal(choose("auto", 2, 1920, 1080, &how), 3);
	assert_string_equal(how, "the monitor's preferred mode (EDID)");
	assert_int_equal(choose("auto", 2, 0, 0, &how), 2);
	assert_string_equal(how, "the current mode");
	assert_int_equal(choose("auto", 2, 2560, 1600, &how), 2);      /* listed, but unusable */
	assert_int_equal(choose("auto", 6, 0, 0, &how), 5);            /* current above the cap */
	assert_string_equal(how, "the largest mode within 3840x2160");
	assert_int_equal(choose("keep", 6, 1920, 1080, &how), 6);
	assert_int_equal(choose("keep", -1, 0, 0, &how), 5);
	assert_int_equal(choose("max", 0, 0, 0, &how), 5);
	assert_int_equal(choose("3840x2160", 2, 0, 0, &how), 5);
	assert_string_equal(how, "the requested mode");
	assert_int_equal(choose("7680x4320", 2, 0, 0, &how), 6);       /* asked for: above the cap */
	assert_int_equal(choose("2560x1600", 2, 0, 0, &how), 3);
	assert_string_equal(how, "the largest mode within the request");
	assert_int_equal(choose("400x400", 2, 0, 0, &how), 5);         /* nothing within: the cap */
	const struct video_mode none[] = { { 640, 480, 0 } };
	struct video_policy p = { .kind = VIDEO_AUTO };
	assert_int_equal(video_choose(none, 1, 0, &p, 0, 0, &how), -1);
	assert_string_equal(how, "no usable mode");
	assert_int_equal(video_choose(none, 0, -1, &p, 0, 0, &how), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cmdline_value),
		cmocka_unit_test(test_policy_parse),
		cmocka_unit_test(test_edid),
		cmocka_unit_test(test_choose),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
