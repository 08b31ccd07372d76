/* SPDX-License-Identifier: BSD-2-Clause */
/* Host tests for the scancode set 1 decoder (kernel/dev/keymap.c). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <dev/keymap.h>

/* Feed a scancode sequence; return everything it produced as a string,
 * a move of the console's view as "<back>" or "<forward>". */
static const char *feed(struct keymap_state *st, const uint8_t *codes, size_t n)
{
	static char buf[64];
	size_t len = 0;
	for (size_t i = 0; i < n; i++) {
		char out[KEYMAP_OUT_MAX];
		int k = keymap_feed(st, codes[i], out);
		const char *view = k == KEYMAP_VIEW_BACK ? "<back>" : k == KEYMAP_VIEW_FORWARD ? "<forward>" : "";
		assert_true(*view || (k >= 0 && k <= KEYMAP_OUT_MAX));
		while (*view)
			buf[len++] = *view++;
		for (int j = 0; j < k; j++)
			buf[len++] = out[j];
	}
	buf[len] = 0;
	return buf;
}

#define FEED(st, ...) feed(st, (const uint8_t[]){ __VA_ARGS__ }, \
			   sizeof((const uint8_t[]){ __VA_ARGS__ }))

static void test_plain_letters_and_release(void **state)
{
	(void)state;
	struct keymap_state st;
	keymap_init(&st);
	/* h i, each pressed and released; space; 1 */
	assert_string_equal(FEED(&st, 0x23, 0xA3, 0x17, 0x97, 0x39, 0xB9, 0x02, 0x82), "hi 1");
	assert_string_equal(FEED(&st, 0x1C, 0x9C, 0x0E, 0x8E, 0x0F, 0x01), "\n\x7f\t\x1b");
}

static void test_shift_and_caps(void **state)
{
	(void)state;
	struct keymap_state st;
	keymap_init(&st);
	/* left shift held: a 1 /, released: a */
	assert_string_equal(FEED(&st, 0x2A, 0x1E, 0x02, 0x35, 0xAA, 0x1E), "A!?a");
	/* right shift works the same */
	assert_string_equal(FEED(&st, 0x36, 0x28, 0xB6, 0x28), "\"'");
	/* caps lock (press, repeat, release) toggles once: letters only */
	assert_string_equal(FEED(&st, 0x3A, 0x3A, 0xBA, 0x1E, 0x02), "A1");
	/* caps + shift gives lower case letters, shifted digits */
	assert_string_equal(FEED(&st, 0x2A, 0x1E, 0x02, 0xAA), "a!");
	assert_string_equal(FEED(&st, 0x3A, 0xBA, 0x1E), "a");
}

static void test_ctrl(void **state)
{
	(void)state;
	struct keymap_state st;
	keymap_init(&st);
	/* left ctrl + c, u; then released: c */
	assert_string_equal(FEED(&st, 0x1D, 0x2E, 0x16, 0x9D, 0x2E), "\x03\x15" "c");
	/* right ctrl (E0 1D) + a */
	assert_string_equal(FEED(&st, 0xE0, 0x1D, 0x1E, 0xE0, 0x9D, 0x1E), "\x01" "a");
	/* ctrl + [ is ESC */
	assert_string_equal(FEED(&st, 0x1D, 0x1A, 0x9D), "\x1b");
}

static void test_extended_keys(void **state)
{
	(void)state;
	struct keymap_state st;
	keymap_init(&st);
	assert_string_equal(FEED(&st, 0xE0, 0x48, 0xE0, 0xC8), "\x1b[A");
	assert_string_equal(FEED(&st, 0xE0, 0x50), "\x1b[B");
	assert_string_equal(FEED(&st, 0xE0, 0x4D), "\x1b[C");
	assert_string_equal(FEED(&st, 0xE0, 0x4B), "\x1b[D");
	assert_string_equal(FEED(&st, 0xE0, 0x47), "\x1b[H");
	assert_string_equal(FEED(&st, 0xE0, 0x4F), "\x1b[F");
	assert_string_equal(FEED(&st, 0xE0, 0x53, 0xE0, 0xD3), "\x1b[3~");
	assert_string_equal(FEED(&st, 0xE0, 0x49, 0xE0, 0x51, 0xE0, 0x52), "\x1b[5~\x1b[6~\x1b[2~");
	assert_string_equal(FEED(&st, 0xE0, 0x1C, 0xE0, 0x35), "\n/");
	/* fake shifts around an extended key do not shift later keys */
	assert_string_equal(FEED(&st, 0xE0, 0x2A, 0xE0, 0x48, 0xE0, 0xC8, 0xE0, 0xAA, 0x1E), "\x1b[A" "a");
}

static void test_shift_page_keys_move_the_view(void **state)
{
	(void)state;
	struct keymap_state st;
	keymap_init(&st);
	/* Left Shift held: Page Up and Down (grey keys) move the view, no bytes */
	assert_string_equal(FEED(&st, 0x2A, 0xE0, 0x49, 0xE0, 0xC9, 0xE0, 0x51, 0xE0, 0xD1), "<back><forward>");
	/* the fake Shift release a PS/2 keyboard sends before a grey key leaves Shift held */
	assert_string_equal(FEED(&st, 0xE0, 0xAA, 0xE0, 0x49, 0xE0, 0xC9, 0xE0, 0x2A), "<back>");
	/* Shift released: Page Up is ESC [ 5 ~ again; Right Shift works the same */
	assert_string_equal(FEED(&st, 0xAA, 0xE0, 0x49, 0x36, 0xE0, 0x51, 0xB6, 0xE0, 0x51),
			    "\x1b[5~<forward>\x1b[6~");
	/* the keypad's 9 and 3 are Page Up and Down with Num Lock off */
	assert_string_equal(FEED(&st, 0x45, 0xC5, 0x2A, 0x49, 0x51, 0xAA, 0x49), "<back><forward>\x1b[5~");
}

static void test_keypad_num_lock(void **state)
{
	(void)state;
	struct keymap_state st;
	keymap_init(&st);
	/* Num Lock on by default: digits */
	assert_string_equal(FEED(&st, 0x47, 0x48, 0x4C, 0x52, 0x53, 0x4A, 0x4E, 0x37), "7850.-+*");
}

static void test_keypad_navigation(void **state)
{
	(void)state;
	struct keymap_state st;
	keymap_init(&st);
	assert_string_equal(FEED(&st, 0x45, 0xC5, 0x48, 0x4C, 0x53), "\x1b[A\x1b[3~");
	assert_string_equal(FEED(&st, 0x4A), "-");
	/* toggling again gives digits back */
	assert_string_equal(FEED(&st, 0x45, 0xC5, 0x48), "8");
}

static void test_pause_and_noise(void **state)
{
	(void)state;
	struct keymap_state st;
	keymap_init(&st);
	/* Pause sequence, F1, ACK, unknown codes produce nothing */
	assert_string_equal(FEED(&st, 0xE1, 0x1D, 0x45, 0xE1, 0x9D, 0xC5, 0x3B, 0xBB, 0xFA, 0x7F, 0x00), "");
	/* and leave no state behind: Num Lock still on, ctrl not held */
	assert_string_equal(FEED(&st, 0x4F, 0x2E), "1c");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plain_letters_and_release),
		cmocka_unit_test(test_shift_and_caps),
		cmocka_unit_test(test_ctrl),
		cmocka_unit_test(test_extended_keys),
		cmocka_unit_test(test_shift_page_keys_move_the_view),
		cmocka_unit_test(test_keypad_num_lock),
		cmocka_unit_test(test_keypad_navigation),
		cmocka_unit_test(test_pause_and_noise),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
