/* SPDX-License-Identifier: BSD-2-Clause */
/* Host tests for the kernel command-line parser (kernel/lib/cmdline.c). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <cmocka.h>
#include <lib/cmdline.h>
#include <kern/printk.h>
#include <string.h>

/* cmdline_init and cmdline_check report through printk; collect every
 * line since the last reset. */
static char printed[2048];
static size_t printed_len;
void printk(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = kvsnprintf(printed + printed_len, sizeof(printed) - printed_len, fmt, ap);
	va_end(ap);
	printed_len += (size_t)n;
	assert_true(printed_len < sizeof(printed));
}

static void printed_reset(void)
{
	printed_len = 0;
	printed[0] = 0;
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
	assert_string_equal(err, "unterminated \" quote in word 2 ('bad=\"open')");
	assert_string_equal(cmdline_lookup(&cl, "good"), "1");
	assert_null(cmdline_lookup(&cl, "bad"));
	assert_int_equal(cmdline_parse(&cl, "=value", err, sizeof(err)), -1);
	assert_string_equal(err, "empty key in word 1 ('=value')");
	assert_int_equal(cmdline_parse(&cl, "a=1 ''=x", err, sizeof(err)), -1);
	assert_string_equal(err, "empty key in word 2 ('''=x')");
	assert_int_equal(cl.count, 1);
	/* a long word is quoted by its first characters */
	assert_int_equal(cmdline_parse(&cl, "x 'abcdefghijklmnopqrstuvwxyz", err, sizeof(err)), -1);
	assert_string_equal(err, "unterminated ' quote in word 2 (''abcdefghijklmnopqrstuvw...')");
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
	assert_string_equal(err, "more than 32 words in word 33 ('k32=v')");
	/* a line longer than the loader's limit is refused whole, never cut */
	memset(text, 'x', sizeof(text) - 1);
	text[sizeof(text) - 1] = 0;
	text[0] = 'k';
	text[1] = '=';
	assert_int_equal(cmdline_parse(&cl, text, err, sizeof(err)), -1);
	assert_string_equal(err, "the command line is longer than 1023 bytes");
	assert_int_equal(cl.count, 0);
	text[CMDLINE_MAX_LEN] = 0;   /* 1024 bytes */
	assert_int_equal(cmdline_parse(&cl, text, err, sizeof(err)), -1);
	assert_int_equal(cl.count, 0);
	text[CMDLINE_MAX_LEN - 1] = 0;   /* 1023: fits */
	assert_int_equal(cmdline_parse(&cl, text, err, sizeof(err)), 0);
	assert_int_equal(cl.count, 1);
	assert_int_equal(strlen(cmdline_lookup(&cl, "k")), CMDLINE_MAX_LEN - 3);
}

/* The line that needs the most storage: 32 bare words in 1023 bytes (each
 * word takes two NULs more than its text, less the separator). It must fit
 * CMDLINE_STORAGE exactly, and one byte more of text is refused. */
static void test_most_storage(void **state)
{
	(void)state;
	struct cmdline cl;
	char err[80], text[CMDLINE_MAX_LEN + 8];
	size_t n = 0, keys = CMDLINE_MAX_LEN - 1 - (CMDLINE_MAX_ARGS - 1);
	for (int i = 0; i < CMDLINE_MAX_ARGS; i++) {
		size_t len = keys / (size_t)(CMDLINE_MAX_ARGS - i);
		keys -= len;
		if (i)
			text[n++] = ' ';
		text[n++] = (char)('A' + i);
		for (size_t k = 1; k < len; k++)
			text[n++] = (char)('a' + i % 26);
	}
	text[n] = 0;
	assert_int_equal(n, CMDLINE_MAX_LEN - 1);
	assert_int_equal(cmdline_parse(&cl, text, err, sizeof(err)), 0);
	assert_int_equal(cl.count, CMDLINE_MAX_ARGS);
	const char *last = cl.values[CMDLINE_MAX_ARGS - 1];
	assert_string_equal(last, "");
	assert_ptr_equal(last + 2, cl.storage + sizeof(cl.storage));   /* its NUL, the builder's */
	for (int i = 0; i < CMDLINE_MAX_ARGS; i++) {
		assert_int_equal(cl.keys[i][0], 'A' + i);
		assert_string_equal(cl.values[i], "");
	}
	text[n] = 'z';
	text[n + 1] = 0;
	assert_int_equal(cmdline_parse(&cl, text, err, sizeof(err)), -1);
	assert_int_equal(cl.count, 0);
}

/* Text of 16 bare words (w00xxx… w15xxx…) that take exactly `fill` bytes
 * of storage (a bare word takes its key, a NUL and an empty value's NUL),
 * followed by `tail`. */
static void fill_words(char *text, size_t size, size_t fill, const char *tail)
{
	size_t n = 0, left = fill - 16 * 2;   /* key bytes to spread over 16 words */
	for (int i = 0; i < 16; i++) {
		size_t len = left / (size_t)(16 - i);
		left -= len;
		n += (size_t)snprintf(text + n, size - n, "w%02d", i);
		for (size_t k = 3; k < len; k++)
			text[n++] = 'x';
		text[n++] = ' ';
	}
	snprintf(text + n, size - n, "%s", tail);
}

/* Each of the 16 words of fill_words is there with an empty value. */
static void check_filled_words(const struct cmdline *cl)
{
	for (int i = 0; i < 16; i++) {
		char prefix[16];
		snprintf(prefix, sizeof(prefix), "w%02d", i);
		assert_int_equal(strncmp(cl->keys[i], prefix, 3), 0);
		assert_string_equal(cl->values[i], "");
	}
}

/* The review's reproducers: storage filled to 1022, 1023 and 1024 bytes,
 * then an empty token (an empty value at the end, or an empty key). */
static void test_full_storage_then_empty_token(void **state)
{
	(void)state;
	static const char *const good[] = { "k=", "k", "k=\"\"", "k=''" };
	static const char *const bad[] = { "=v", "=", "=\"\"", "=''x" };
	for (size_t fill = 1022; fill <= 1024; fill++) {
		for (size_t t = 0; t < sizeof(good) / sizeof(good[0]); t++) {
			struct cmdline cl;
			char err[80], text[2048];
			fill_words(text, sizeof(text), fill, good[t]);
			assert_int_equal(cmdline_parse(&cl, text, err, sizeof(err)), 0);
			assert_int_equal(cl.count, 17);
			check_filled_words(&cl);
			assert_string_equal(cmdline_lookup(&cl, "k"), "");
		}
		for (size_t t = 0; t < sizeof(bad) / sizeof(bad[0]); t++) {
			struct cmdline cl;
			char err[80], text[2048];
			fill_words(text, sizeof(text), fill, bad[t]);
			assert_int_equal(cmdline_parse(&cl, text, err, sizeof(err)), -1);
			assert_non_null(strstr(err, "empty key in word 17"));
			assert_int_equal(cl.count, 16);
			check_filled_words(&cl);
		}
	}
}

static void test_kernel_instance(void **state)
{
	(void)state;
	printed_reset();
	static const char good[] = "run=\"version; poweroff\" panic=exit";
	cmdline_init(good, sizeof(good));
	assert_string_equal(cmdline_get("run"), "version; poweroff");
	assert_string_equal(cmdline_text(), "run=\"version; poweroff\" panic=exit");
	assert_string_equal(cmdline_choice("panic"), "exit");
	assert_string_equal(printed, "");
	static const char broken[] = "ok=1 broken='x";
	cmdline_init(broken, sizeof(broken));
	assert_string_equal(cmdline_get("ok"), "1");
	assert_string_equal(printed, "cmdline: unterminated ' quote in word 2 ('broken='x'); "
				     "using only the 1 words before it\n"
				     "cmdline: unknown key 'ok' ignored\n");
}

/* A loader buffer without a NUL, or a text beyond 1023 bytes, is refused
 * whole: no word of it is used, and the message says so. */
static void test_kernel_instance_refuses_unterminated(void **state)
{
	(void)state;
	char buf[CMDLINE_MAX_LEN + 100];
	memset(buf, 'x', sizeof(buf));
	memcpy(buf, "panic=exit ", 11);
	static const char first[] = "sched=off";
	cmdline_init(first, sizeof(first));
	printed_reset();
	cmdline_init(buf, CMDLINE_MAX_LEN);   /* no NUL in the buffer */
	assert_string_equal(printed, "cmdline: the command line is longer than 1023 bytes; "
				     "ignored, no words used\n");
	assert_null(cmdline_get("panic"));
	assert_null(cmdline_get("sched"));
	assert_string_equal(cmdline_text(), "");
	assert_string_equal(cmdline_choice("panic"), "halt");
	buf[CMDLINE_MAX_LEN] = 0;   /* terminated, but 1024 bytes long */
	printed_reset();
	cmdline_init(buf, sizeof(buf));
	assert_string_equal(printed, "cmdline: the command line is longer than 1023 bytes; "
				     "ignored, no words used\n");
	assert_null(cmdline_get("panic"));
	buf[CMDLINE_MAX_LEN - 1] = 0;   /* 1023 bytes: taken */
	printed_reset();
	cmdline_init(buf, sizeof(buf));
	assert_string_equal(printed, "cmdline: unknown key 'xxxxxxxxxxxxxxxxxxxxxxxx...' ignored\n");
	assert_string_equal(cmdline_choice("panic"), "exit");
}

/* Bad values are reported with what is used instead; unknown keys too. */
static void test_warnings(void **state)
{
	(void)state;
	static const char text[] = "panic=exti sched=of foo maxcpus=0 run=anything";
	printed_reset();
	cmdline_init(text, sizeof(text));
	assert_string_equal(printed,
			    "cmdline: panic=exti: expected halt|reboot|exit; using halt\n"
			    "cmdline: sched=of: expected on|off; using on\n"
			    "cmdline: unknown key 'foo' ignored\n"
			    "cmdline: maxcpus: 0 is outside 1..256; using all CPUs\n");
	assert_string_equal(cmdline_choice("panic"), "halt");
	assert_string_equal(cmdline_choice("sched"), "on");
	uint64_t v = 7;
	assert_int_equal(cmdline_number("maxcpus", &v), -1);
	assert_int_equal(v, 7);

	static const char more[] = "maxcpus=abc panic sched=off foo=1 foo=2";
	printed_reset();
	cmdline_init(more, sizeof(more));
	assert_string_equal(printed,
			    "cmdline: maxcpus: 'abc' is not a number (1..256); using all CPUs\n"
			    "cmdline: panic=: expected halt|reboot|exit; using halt\n"
			    "cmdline: unknown key 'foo' ignored\n");
	assert_string_equal(cmdline_choice("sched"), "off");

	/* only the word that wins is checked */
	static const char later[] = "panic=exti maxcpus=x panic=reboot maxcpus=0x10";
	printed_reset();
	cmdline_init(later, sizeof(later));
	assert_string_equal(printed, "");
	assert_string_equal(cmdline_choice("panic"), "reboot");
	assert_int_equal(cmdline_number("maxcpus", &v), 0);
	assert_int_equal(v, 16);

	/* kern.sched.topology: ours unless freebsd is asked for */
	static const char topo[] = "kern.sched.topology=bsd";
	printed_reset();
	cmdline_init(topo, sizeof(topo));
	assert_string_equal(printed, "cmdline: kern.sched.topology=bsd: expected mosaic|freebsd; using mosaic\n");
	assert_string_equal(cmdline_choice("kern.sched.topology"), "mosaic");
	static const char fbsd[] = "kern.sched.topology=freebsd";
	cmdline_init(fbsd, sizeof(fbsd));
	assert_string_equal(cmdline_choice("kern.sched.topology"), "freebsd");

	/* the accessors refuse keys of another kind or outside the table */
	assert_null(cmdline_choice("maxcpus"));
	assert_null(cmdline_choice("nosuch"));
	assert_int_equal(cmdline_number("panic", &v), -1);
}

/* Every key in the table is a row of docs/cmdline.md's key table, and
 * every row there is in the table. */
static void test_doc_lists_the_known_keys(void **state)
{
	(void)state;
	char path[512], line[1024];
	const char *file = __FILE__;   /* tests/unit/test_cmdline.c, from the top */
	const char *slash = strrchr(file, '/');
	snprintf(path, sizeof(path), "%.*s/../../docs/cmdline.md", (int)(slash - file), file);
	FILE *f = fopen(path, "r");
	assert_non_null(f);
	int in_table = 0, documented = 0;
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, "## Keys the kernel knows", 24) == 0)
			in_table = 1;
		else if (strncmp(line, "## ", 3) == 0)
			in_table = 0;
		if (!in_table || strncmp(line, "| `", 3) != 0)
			continue;
		char *end = strchr(line + 3, '`');
		assert_non_null(end);
		*end = 0;
		if (!cmdline_key_find(line + 3))
			fail_msg("docs/cmdline.md lists '%s', the table does not", line + 3);
		documented++;
	}
	fclose(f);
	assert_int_equal(documented, (int)cmdline_key_count);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plain_words),
		cmocka_unit_test(test_quotes_and_escapes),
		cmocka_unit_test(test_later_word_wins_and_value_with_equals),
		cmocka_unit_test(test_errors_keep_earlier_words),
		cmocka_unit_test(test_limits),
		cmocka_unit_test(test_most_storage),
		cmocka_unit_test(test_full_storage_then_empty_token),
		cmocka_unit_test(test_kernel_instance),
		cmocka_unit_test(test_kernel_instance_refuses_unterminated),
		cmocka_unit_test(test_warnings),
		cmocka_unit_test(test_doc_lists_the_known_keys),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
