/* SPDX-License-Identifier: BSD-2-Clause */
/* cmdline_keys.c — the one table of the command-line keys the kernel
 * knows (docs/cmdline.md lists the same; tests/unit/test_cmdline.c checks
 * that they agree), and the checks of their values. Portable C. */
#include <lib/cmdline.h>
#include <lib/parse.h>
#include <kern/printk.h>
#include <arch/x86_64/smp/smp.h>
#include <lib/strbuf.h>
#include <lib/string.h>

/* Characters of a bad key or value quoted in a warning. */
#define CMDLINE_KEY_ECHO 24

static const char *const panic_choices[] = { "halt", "reboot", "exit", NULL };
static const char *const sched_choices[] = { "on", "off", NULL };
static const char *const on_off[] = { "on", "off", NULL };
static const char *const font_choices[] = { "auto", "8x16", "12x24", "16x32", NULL };
/* enum topo_kind's names (kernel/sched/topo.h), ours first: the default. */
static const char *const topology_choices[] = { "mosaic", "freebsd", NULL };

const struct cmdline_key cmdline_keys[] = {
	{ .name = "run", .kind = CMDLINE_KEY_TEXT },
	{ .name = "maxcpus", .kind = CMDLINE_KEY_NUMBER, .min = 1, .max = MAXCPU,
	  .absent = "all CPUs" },
	{ .name = "sched", .kind = CMDLINE_KEY_CHOICE, .choices = sched_choices },
	{ .name = "panic", .kind = CMDLINE_KEY_CHOICE, .choices = panic_choices },
	{ .name = "init", .kind = CMDLINE_KEY_CHOICE, .choices = on_off },
	{ .name = "hfi", .kind = CMDLINE_KEY_CHOICE, .choices = on_off },
	{ .name = "emul", .kind = CMDLINE_KEY_CHOICE, .choices = on_off },
	{ .name = "video", .kind = CMDLINE_KEY_TEXT },
	{ .name = "font", .kind = CMDLINE_KEY_CHOICE, .choices = font_choices },
	{ .name = "status", .kind = CMDLINE_KEY_CHOICE, .choices = on_off },
	{ .name = "tsc_deadline", .kind = CMDLINE_KEY_CHOICE, .choices = on_off },
	{ .name = "kern.sched.topology", .kind = CMDLINE_KEY_CHOICE, .choices = topology_choices },
	{ .name = "smp_lose_startup", .kind = CMDLINE_KEY_NUMBER, .min = 1, .max = 2,
	  .absent = "none lost" },
	{ .name = "smp_slow_start", .kind = CMDLINE_KEY_NUMBER, .min = 1, .max = 60000,
	  .absent = "no delay" },
};
const size_t cmdline_key_count = sizeof(cmdline_keys) / sizeof(cmdline_keys[0]);

/* See cmdline.h. */
const struct cmdline_key *cmdline_key_find(const char *key)
{
	for (size_t i = 0; i < cmdline_key_count; i++)
		if (strcmp(cmdline_keys[i].name, key) == 0)
			return &cmdline_keys[i];
	return NULL;
}

/* See cmdline.h. */
int cmdline_key_is_tunable(const char *key)
{
	return strchr(key, '.') != NULL && cmdline_key_find(key) == NULL;
}

/* The choice equal to value, or NULL. */
static const char *choice_match(const struct cmdline_key *k, const char *value)
{
	for (const char *const *c = k->choices; *c; c++)
		if (strcmp(*c, value) == 0)
			return *c;
	return NULL;
}

/* 0 when k accepts value (a NUMBER's value in *num), else -1 with a
 * message naming the key, the value and what is allowed. */
static int value_check(const struct cmdline_key *k, const char *value, uint64_t *num, char *err,
		       size_t err_len)
{
	if (k->kind == CMDLINE_KEY_NUMBER)
		return parse_u64_range(value, k->min, k->max, num, k->name, err, err_len);
	if (k->kind == CMDLINE_KEY_TEXT || choice_match(k, value))
		return 0;
	struct strbuf sb;
	strbuf_init(&sb, err, err_len);
	strbuf_printf(&sb, "%s=%.*s%s: expected ", k->name, CMDLINE_KEY_ECHO, value,
		      strlen(value) > CMDLINE_KEY_ECHO ? "..." : "");
	for (const char *const *c = k->choices; *c; c++)
		strbuf_printf(&sb, "%s%s", c == k->choices ? "" : "|", *c);
	return -1;
}

/* See cmdline.h. */
int cmdline_check(const struct cmdline *cl)
{
	int warnings = 0;
	for (int i = 0; i < cl->count; i++) {
		if (cmdline_lookup(cl, cl->keys[i]) != cl->values[i] ||
		    cmdline_key_is_tunable(cl->keys[i]))
			continue;   /* a later word wins; tunables are checked when set */
		const struct cmdline_key *k = cmdline_key_find(cl->keys[i]);
		char err[128];
		uint64_t num;
		if (!k) {
			printk("cmdline: unknown key '%.*s%s' ignored\n", CMDLINE_KEY_ECHO, cl->keys[i],
			       strlen(cl->keys[i]) > CMDLINE_KEY_ECHO ? "..." : "");
			warnings++;
		} else if (value_check(k, cl->values[i], &num, err, sizeof(err))) {
			printk("cmdline: %s; using %s\n", err,
			       k->kind == CMDLINE_KEY_NUMBER ? k->absent : k->choices[0]);
			warnings++;
		}
	}
	return warnings;
}

/* See cmdline.h. NULL when key is not a CHOICE key of the table. */
const char *cmdline_lookup_choice(const struct cmdline *cl, const char *key)
{
	const struct cmdline_key *k = cmdline_key_find(key);
	if (!k || k->kind != CMDLINE_KEY_CHOICE)
		return NULL;
	const char *value = cmdline_lookup(cl, key), *c = value ? choice_match(k, value) : NULL;
	return c ? c : k->choices[0];
}

/* See cmdline.h. -1 also when key is not a NUMBER key of the table. */
int cmdline_lookup_number(const struct cmdline *cl, const char *key, uint64_t *out)
{
	const struct cmdline_key *k = cmdline_key_find(key);
	const char *value = cmdline_lookup(cl, key);
	char err[8];   /* the message is not wanted here: cmdline_check printed it */
	if (!k || k->kind != CMDLINE_KEY_NUMBER)
		return -1;
	return value ? parse_u64_range(value, k->min, k->max, out, k->name, err, sizeof(err)) : -1;
}
