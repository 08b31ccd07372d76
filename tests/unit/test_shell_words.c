/* SPDX-License-Identifier: BSD-2-Clause */
/* Host tests of the shell's cutting of its input (kernel/shell/shell_words.c):
 * words, blanks and quotes of a command line; the word limit and an
 * unclosed quote; boot scripts cut at ';' outside quotes, and a command
 * too long for its buffer. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include <shell/shell_words.h>

static void test_words_blanks_and_quotes(void **state)
{
	(void)state;
	char line[] = "  run\t-b \"a b\"c \"\"  x\"y\"  ";
	char *argv[8];
	assert_int_equal(shell_split_words(line, argv, 8), 5);
	assert_string_equal(argv[0], "run");
	assert_string_equal(argv[1], "-b");
	assert_string_equal(argv[2], "a bc");
	assert_string_equal(argv[3], "");
	assert_string_equal(argv[4], "xy");
	char blank[] = " \t ";
	assert_int_equal(shell_split_words(blank, argv, 8), 0);
}

static void test_word_limit_and_open_quote(void **state)
{
	(void)state;
	char *argv[3];
	char three[] = "a b c";
	assert_int_equal(shell_split_words(three, argv, 3), 3);
	char four[] = "a b c d";
	assert_int_equal(shell_split_words(four, argv, 3), SHELL_WORDS_TOO_MANY);
	char four_blank[] = "a b c   ";
	assert_int_equal(shell_split_words(four_blank, argv, 3), 3);
	char open[] = "echo \"a b";
	assert_int_equal(shell_split_words(open, argv, 3), SHELL_WORDS_OPEN_QUOTE);
}

static void test_script_cut(void **state)
{
	(void)state;
	const char *script = "version; echo \"a;b\";;poweroff";
	char cmd[32];
	int too_long;
	const char *s = shell_script_cut(script, cmd, sizeof(cmd), &too_long);
	assert_string_equal(cmd, "version");
	assert_int_equal(too_long, 0);
	s = shell_script_cut(s, cmd, sizeof(cmd), &too_long);
	assert_string_equal(cmd, " echo \"a;b\"");
	s = shell_script_cut(s, cmd, sizeof(cmd), &too_long);
	assert_string_equal(cmd, "");
	s = shell_script_cut(s, cmd, sizeof(cmd), &too_long);
	assert_string_equal(cmd, "poweroff");
	assert_int_equal(*s, 0);
}

static void test_script_command_too_long(void **state)
{
	(void)state;
	char cmd[5];
	int too_long;
	const char *s = shell_script_cut("sleep 100;x", cmd, sizeof(cmd), &too_long);
	assert_int_equal(too_long, 1);
	assert_string_equal(cmd, "slee");
	assert_string_equal(s, "x");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_words_blanks_and_quotes),
		cmocka_unit_test(test_word_limit_and_open_quote),
		cmocka_unit_test(test_script_cut),
		cmocka_unit_test(test_script_command_too_long),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
