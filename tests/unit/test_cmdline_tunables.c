/* SPDX-License-Identifier: BSD-2-Clause */
/* Host tests for boot-time tunables (kernel/lib/cmdline_tunables.c): dotted
 * command-line keys written as sysctls, each refusal named with its reason,
 * and the command line's own keys left to cmdline_check. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <cmocka.h>
#include <lib/cmdline_tunables.h>
#include <kern/printk.h>
#include <lib/parse.h>
#include <string.h>

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

/* A policy variable with a write hook, as kern.sched.policy: 0 ule, 1 hmp. */
static int64_t policy = 1, hz = 100, perf = 5;
static char policy_text[8] = "hmp";
static void policy_get(int i, char *buf, size_t len) { (void)i; ksnprintf(buf, len, "%s", policy_text); }
static int policy_set(int i, const char *v, char *err, size_t len)
{
	(void)i;
	if (strcmp(v, "ule") && strcmp(v, "hmp")) {
		ksnprintf(err, len, "kern.sched.policy: '%s' is not ule|hmp", v);
		return -1;
	}
	policy = strcmp(v, "hmp") == 0;
	ksnprintf(policy_text, sizeof(policy_text), "%s", v);
	return 0;
}

static const struct sysctl_oid oids[] = {
	{ .name = "kern.sched.policy", .descr = "policy", .type = SYSCTL_TYPE_HANDLER,
	  .writable = 1, .get = policy_get, .set = policy_set },
	{ .name = "kern.hz", .descr = "ticks", .type = SYSCTL_TYPE_INT, .ptr = &hz },
	{ .name = "kern.sched.hmp.perf", .descr = "perf", .type = SYSCTL_TYPE_INT, .writable = 1,
	  .ptr = &perf, .min = 0, .max = 9 },
};
static const struct sysctl_set set = { oids, oids + sizeof(oids) / sizeof(oids[0]) };

static void parse(struct cmdline *cl, const char *text)
{
	char err[96];
	assert_int_equal(cmdline_parse(cl, text, err, sizeof(err)), 0);
}

/* A tunable is set as `sysctl` would, and said so with old and new value. */
static void test_sets_writable_sysctls(void **state)
{
	(void)state;
	struct cmdline cl;
	parse(&cl, "panic=exit kern.sched.policy=ule kern.sched.hmp.perf=7");
	printed_reset();
	assert_int_equal(cmdline_tunables_apply(&cl, &set), 0);
	assert_string_equal(printed, "cmdline: tunable kern.sched.policy: hmp -> ule\n"
				     "cmdline: tunable kern.sched.hmp.perf: 5 -> 7\n");
	assert_int_equal(policy, 0);
	assert_int_equal(perf, 7);
}

/* Unknown, read-only and refused tunables name the key and the reason,
 * and leave the variables as they were; a later word for a key wins. */
static void test_refusals_named(void **state)
{
	(void)state;
	struct cmdline cl;
	perf = 5;
	parse(&cl, "kern.sched.polcy=ule kern.hz=1000 kern.sched.policy=fast "
		   "kern.sched.hmp.perf=3 kern.sched.hmp.perf=10");
	printed_reset();
	assert_int_equal(cmdline_tunables_apply(&cl, &set), 4);
	assert_string_equal(printed,
			    "cmdline: tunable kern.sched.polcy=ule not set: no such sysctl\n"
			    "cmdline: tunable kern.hz=1000 not set: kern.hz is read-only\n"
			    "cmdline: tunable kern.sched.policy=fast not set: "
			    "kern.sched.policy: 'fast' is not ule|hmp\n"
			    "cmdline: tunable kern.sched.hmp.perf=10 not set: "
			    "kern.sched.hmp.perf: 10 is outside 0..9\n");
	assert_int_equal(hz, 100);
	assert_int_equal(perf, 5);
}

/* The command line's own keys (dotted or not) are cmdline_check's, not
 * tunables; a dotted unknown key is left to the tunables. */
static void test_table_keys_are_not_tunables(void **state)
{
	(void)state;
	assert_false(cmdline_key_is_tunable("kern.sched.topology"));
	assert_false(cmdline_key_is_tunable("panic"));
	assert_false(cmdline_key_is_tunable("foo"));
	assert_true(cmdline_key_is_tunable("kern.sched.policy"));
	struct cmdline cl;
	parse(&cl, "kern.sched.topology=freebsd foo=1 kern.nothing=2");
	printed_reset();
	assert_int_equal(cmdline_check(&cl), 1);
	assert_string_equal(printed, "cmdline: unknown key 'foo' ignored\n");
	printed_reset();
	assert_int_equal(cmdline_tunables_apply(&cl, &set), 1);
	assert_string_equal(printed, "cmdline: tunable kern.nothing=2 not set: no such sysctl\n");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sets_writable_sysctls),
		cmocka_unit_test(test_refusals_named),
		cmocka_unit_test(test_table_keys_are_not_tunables),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
