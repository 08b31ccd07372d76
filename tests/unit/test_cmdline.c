/* Host tests for the kernel command-line parser (kernel/lib/cmdline.c). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <cmocka.h>
#include <cmdline.h>
#include <printk.h>
#include <string.h>

/* cmdline_init reports parse errors through printk; capture them. */
static char printed[256];
void printk(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	kvsnprintf(printed, sizeof(printed), fmt, ap);
	va_end(ap);
}

static void test_plain_words(void **state)
{
	(void)state;
	struct cmdline cl;
	char err[80];
	assert_int_equal(cmdline_parse(&cl, "  console=all quiet  panic=exit\n", err, sizeof(err)), 0);
	assert_int_equal(cl.count, 3);
	assert_string_equal(cmdline_lookup(&cl, "console"), "all");
	assert_string_equal(cmdline_lookup(&cl, "quiet"), "");
	assert_string_equal(cmdline_lookup(&cl, "panic"), "exit");
	assert_null(cmdline_lookup(&cl, "missing"));
	assert_null(cmdline_lookup(&cl, "consol"));
}

static void test_quotes_and_escapes(void **state)
{
	(void)state;
	struct cmdline cl;
	char err[80];
	assert_int_equal(cmdline_parse(&cl,
		"run=\"echo \\\"hi there\\\"; poweroff\" path='C:\\dir' empty=\"\" mixed=a\"b c\"d",
		err, sizeof(err)), 0);
	assert_string_equal(cmdline_lookup(&cl, "run"), "echo \"hi there\"; poweroff");
	assert_string_equal(cmdline_lookup(&cl, "path"), "C:\\dir");
	assert_string_equal(cmdline_lookup(&cl, "empty"), "");
	assert_string_equal(cmdline_lookup(&cl, "mixed"), "ab cd");
}

static void test_later_word_wins_and_value_with_equals(void **state)
{
	(void)state;
	struct cmdline cl;
	char err[80];
	assert_int_equal(cmdline_parse(&cl, "a=1 b=x=y a=2", err, sizeof(err)), 0);
	assert_string_equal(cmdline_lookup(&cl, "a"), "2");
	assert_string_equal(cmdline_lookup(&cl, "b"), "x=y");
}

static void test_errors_keep_earlier_words(void **state)
{
	(void)state;
	struct cmdline cl;
	char err[80];
	assert_int_equal(cmdline_parse(&cl, "good=1 bad=\"open", err, sizeof(err)), -1);
	assert_string_equal(err, "unterminated \" quote");
	assert_string_equal(cmdline_lookup(&cl, "good"), "1");
	assert_null(cmdline_lookup(&cl, "bad"));
	assert_int_equal(cmdline_parse(&cl, "=value", err, sizeof(err)), -1);
	assert_string_equal(err, "word with an empty key");
	assert_int_equal(cmdline_parse(&cl, NULL, err, sizeof(err)), 0);
	assert_int_equal(cl.count, 0);
}

static void test_limits(void **state)
{
	(void)state;
	struct cmdline cl;
	char err[80], text[4096];
	size_t n = 0;
	for (int i = 0; i < CMDLINE_MAX_ARGS + 1; i++)
		n += (size_t)snprintf(text + n, sizeof(text) - n, "k%d=v ", i);
	assert_int_equal(cmdline_parse(&cl, text, err, sizeof(err)), -1);
	assert_int_equal(cl.count, CMDLINE_MAX_ARGS);
	assert_non_null(strstr(err, "more than"));
	memset(text, 'x', sizeof(text) - 1);
	text[sizeof(text) - 1] = 0;
	text[0] = 'k';
	text[1] = '=';
	assert_int_equal(cmdline_parse(&cl, text, err, sizeof(err)), -1);
	assert_string_equal(err, "command line too long");
}

static void test_kernel_instance(void **state)
{
	(void)state;
	printed[0] = 0;
	cmdline_init("run=\"version; poweroff\" panic=exit");
	assert_string_equal(cmdline_get("run"), "version; poweroff");
	assert_string_equal(cmdline_text(), "run=\"version; poweroff\" panic=exit");
	assert_string_equal(printed, "");
	cmdline_init("ok=1 broken='x");
	assert_string_equal(cmdline_get("ok"), "1");
	assert_non_null(strstr(printed, "unterminated ' quote"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plain_words),
		cmocka_unit_test(test_quotes_and_escapes),
		cmocka_unit_test(test_later_word_wins_and_value_with_equals),
		cmocka_unit_test(test_errors_keep_earlier_words),
		cmocka_unit_test(test_limits),
		cmocka_unit_test(test_kernel_instance),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
