/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * bench_policy.c — the kernel's placement policies of `bench`: a policy is
 * a named set of sysctls (docs/bench.md, "Policies"). The built-ins come
 * from the named-policy table (bench_policy_table.c) expanded over the
 * scheduler's variable table, so each names every switch it depends on and
 * means the same whatever the user set by hand; `bench policy NAME k=v ...`
 * defines more. A run saves the values its policy changes and puts them
 * back afterwards, so no run leaks its settings into the next or into the
 * shell.
 *
 * Shell thread only (the `bench` command): no locks of its own; sysctl
 * writes take whatever their subsystem needs.
 */
#include <lib/sysctl.h>
#include <kern/printk.h>
#include <lib/string.h>
#include <lib/strbuf.h>
#include <bench/bench_drv.h>
#include <bench/bench_policy.h>
#include <bench/bench_policy_table.h>

#define BP_MAX      24    /* policies, built-in and defined */
#define BP_SETTINGS 32    /* sysctls of one policy */
#define BP_VALUE_MAX 64   /* characters of a value, with the NUL */

extern const struct sysctl_oid __sysctl_start[], __sysctl_end[];
static const struct sysctl_set bp_sysctls = { __sysctl_start, __sysctl_end };

struct bp_policy {
	char name[BENCH_POLICY_NAME_MAX];
	const char *descr;           /* built-ins; NULL for defined ones */
	int n;
	char key[BP_SETTINGS][SYSCTL_NAME_MAX];
	char value[BP_SETTINGS][BP_VALUE_MAX];
};

static struct bp_policy bp[BP_MAX];
static int bp_count;                       /* 0 until the built-ins are loaded */
static char saved_key[BP_SETTINGS][SYSCTL_NAME_MAX];
static char saved_value[BP_SETTINGS][SYSCTL_VALUE_MAX];
static int saved_n;

/* Splits "key=value" into p's next setting; 0, or -1 with a reason. */
static int bp_add_setting(struct bp_policy *p, const char *kv, char *err, size_t len)
{
	const char *eq = strchr(kv, '=');
	size_t kn = eq ? (size_t)(eq - kv) : 0;
	if (!eq || kn == 0 || !eq[1]) {
		ksnprintf(err, len, "'%.40s' is not NAME=VALUE", kv);
		return -1;
	}
	if (kn >= SYSCTL_NAME_MAX || strlen(eq + 1) >= BP_VALUE_MAX) {
		ksnprintf(err, len, "'%.40s': name longer than %d or value longer than %d characters", kv,
			  SYSCTL_NAME_MAX - 1, BP_VALUE_MAX - 1);
		return -1;
	}
	if (p->n == BP_SETTINGS) {
		ksnprintf(err, len, "more than %d settings", BP_SETTINGS);
		return -1;
	}
	memcpy(p->key[p->n], kv, kn);
	p->key[p->n][kn] = 0;
	for (int i = 0; i < p->n; i++)
		if (strcmp(p->key[i], p->key[p->n]) == 0) {
			ksnprintf(err, len, "%s is set twice", p->key[i]);
			return -1;
		}
	memcpy(p->value[p->n], eq + 1, strlen(eq + 1) + 1);
	p->n++;
	return 0;
}

/* Loads the built-ins once: each named policy's value of every variable
 * it pins (bench_named_value()), in the variable table's order. The texts
 * are the tables' own, checked by tests/unit/test_sched_vars.c: they split. */
static void bp_init(void)
{
	char err[96], kv[SYSCTL_NAME_MAX + BP_VALUE_MAX];
	if (bp_count)
		return;
	for (unsigned b = 0; b < bench_policy_count() && bp_count < BP_MAX; b++) {
		const struct bench_named_policy *named = bench_policy_at(b);
		struct bp_policy *p = &bp[bp_count++];
		memcpy(p->name, named->name, strlen(named->name) + 1);
		p->descr = named->descr;
		for (unsigned i = 0; i < sched_nvars; i++) {
			char value[BP_VALUE_MAX];
			if (!bench_named_value(named, &sched_vars[i], value, sizeof(value)))
				continue;
			ksnprintf(kv, sizeof(kv), "%s=%s", sched_vars[i].name, value);
			bp_add_setting(p, kv, err, sizeof(err));
		}
	}
}

/* The policy called name, or NULL. */
static struct bp_policy *bp_find(const char *name)
{
	bp_init();
	for (int i = 0; i < bp_count; i++)
		if (strcmp(bp[i].name, name) == 0)
			return &bp[i];
	return NULL;
}

/* See bench_policy.h. */
int bench_policy_known(void *arg, const char *name)
{
	(void)arg;
	return bp_find(name) != NULL;
}

/* See bench_policy.h. */
int bench_policy_restore(char *err, size_t len)
{
	int rc = 0;
	while (saved_n > 0) {
		struct sysctl_ref r;
		saved_n--;
		char why[128];
		if (sysctl_find(&bp_sysctls, saved_key[saved_n], &r) ||
		    sysctl_write(&r, saved_value[saved_n], why, sizeof(why))) {
			if (!rc)
				ksnprintf(err, len, "%s=%s could not be put back", saved_key[saved_n],
					  saved_value[saved_n]);
			rc = -1;
		}
	}
	return rc;
}

/* See bench_policy.h. */
int bench_policy_apply(const char *name, char *err, size_t len)
{
	struct bp_policy *p = bp_find(name);
	char why[128];
	if (!p) {
		ksnprintf(err, len, "no policy '%s'", name);
		return -1;
	}
	saved_n = 0;
	for (int i = 0; i < p->n; i++) {
		struct sysctl_ref r;
		if (sysctl_find(&bp_sysctls, p->key[i], &r)) {
			ksnprintf(err, len, "no sysctl %s", p->key[i]);
			goto undo;
		}
		sysctl_format(&r, saved_value[saved_n], sizeof(saved_value[saved_n]));
		memcpy(saved_key[saved_n], p->key[i], sizeof(saved_key[saved_n]));
		if (sysctl_write(&r, p->value[i], why, sizeof(why))) {
			ksnprintf(err, len, "%s=%s: %s", p->key[i], p->value[i], why);
			goto undo;
		}
		saved_n++;
	}
	return 0;
undo:
	bench_policy_restore(why, sizeof(why));
	return -1;
}

/* Prints p's settings after prefix, wrapped before 100 columns; the
 * following lines start with `more`. */
static void bp_print_settings(const struct bp_policy *p, const char *prefix, const char *more)
{
	char line[128];
	struct strbuf sb;
	strbuf_init(&sb, line, sizeof(line));
	strbuf_puts(&sb, prefix);
	for (int i = 0; i < p->n; i++) {
		if (sb.len + strlen(p->key[i]) + strlen(p->value[i]) + 2 > 100) {
			printk("%s\n", line);
			strbuf_init(&sb, line, sizeof(line));
			strbuf_puts(&sb, more);
		}
		strbuf_printf(&sb, " %s=%s", p->key[i], p->value[i]);
	}
	printk("%s\n", line);
}

/* See bench_policy.h. */
void bench_policy_list(void)
{
	bp_init();
	for (int i = 0; i < bp_count; i++) {
		printk("%-14s %s\n", bp[i].name, bp[i].descr ? bp[i].descr : "(defined with bench policy)");
		bp_print_settings(&bp[i], "              ", "              ");
	}
	printk("Each run sets its policy's sysctls and puts the previous values back afterwards.\n");
}

/* See bench_policy.h. */
void bench_policy_show(char letter, const char *name)
{
	const struct bp_policy *p = bp_find(name);
	char prefix[48];
	ksnprintf(prefix, sizeof(prefix), "bench: policy %c = %s:", letter, name);
	if (p)
		bp_print_settings(p, prefix, "bench:    ");
}

/* Checks that r takes value: writes it, then puts the old value back. */
static int bp_try(const struct sysctl_ref *r, const char *key, const char *value, char *err, size_t len)
{
	char old[SYSCTL_VALUE_MAX], why[128];
	if (!r->oid->writable) {
		ksnprintf(err, len, "%s is read-only", key);
		return -1;
	}
	sysctl_format(r, old, sizeof(old));
	if (sysctl_write(r, value, why, sizeof(why))) {
		ksnprintf(err, len, "%s", why);
		return -1;
	}
	if (sysctl_write(r, old, why, sizeof(why))) {
		ksnprintf(err, len, "%s: could not put back '%s': %s", key, old, why);
		return -1;
	}
	return 0;
}

/* See bench_policy.h. */
int bench_policy_define(int argc, char **argv)
{
	static struct bp_policy scratch;
	char err[160];
	const char *name = argv[0];
	bp_init();
	memset(&scratch, 0, sizeof(scratch));
	size_t n = strlen(name);
	int bad = n < 1 || n >= BENCH_POLICY_NAME_MAX;
	for (size_t i = 0; i < n && !bad; i++) {
		char c = name[i];
		bad = !((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
			c == '.' || c == '_' || c == '+' || c == '-');
	}
	if (bad) {
		printk("bench: policy: name '%.40s' is not 1..%d of A-Z a-z 0-9 . _ + -\n", name,
		       BENCH_POLICY_NAME_MAX - 1);
		return 1;
	}
	struct bp_policy *old = bp_find(name);
	if (old && old->descr) {
		printk("bench: policy: %s is built in; choose another name\n", name);
		return 1;
	}
	if (!old && bp_count == BP_MAX) {
		printk("bench: policy: already %d policies\n", BP_MAX);
		return 1;
	}
	if (argc < 2) {
		printk("bench: policy: %s: give at least one NAME=VALUE\n", name);
		return 1;
	}
	memcpy(scratch.name, name, n + 1);
	for (int i = 1; i < argc; i++) {
		struct sysctl_ref r;
		if (bp_add_setting(&scratch, argv[i], err, sizeof(err))) {
			printk("bench: policy %s: %s\n", name, err);
			return 1;
		}
		const char *key = scratch.key[scratch.n - 1], *value = scratch.value[scratch.n - 1];
		if (sysctl_find(&bp_sysctls, key, &r)) {
			printk("bench: policy %s: no sysctl %s (sysctl -a lists them)\n", name, key);
			return 1;
		}
		if (bp_try(&r, key, value, err, sizeof(err))) {
			printk("bench: policy %s: %s\n", name, err);
			return 1;
		}
	}
	struct bp_policy *p = old ? old : &bp[bp_count++];
	*p = scratch;
	printk("bench: policy %s %s:", name, old ? "redefined" : "defined");
	for (int i = 0; i < p->n; i++)
		printk(" %s=%s", p->key[i], p->value[i]);
	printk("\n");
	return 0;
}
