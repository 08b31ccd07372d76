/* SPDX-License-Identifier: BSD-2-Clause */
/* cmdline_tunables.c — boot-time tunables: command-line words that are
 * sysctl writes (cmdline_tunables.h). Portable C. */
#include <lib/cmdline_tunables.h>
#include <kern/printk.h>
#include <lib/string.h>

/* Characters of a key or value quoted in a message (as cmdline_check). */
#define TUNABLE_ECHO 48

/* See cmdline_tunables.h. */
int cmdline_tunables_apply(const struct cmdline *cl, const struct sysctl_set *set)
{
	int refused = 0;
	for (int i = 0; i < cl->count; i++) {
		const char *key = cl->keys[i], *value = cl->values[i];
		if (!cmdline_key_is_tunable(key) || cmdline_lookup(cl, key) != value)
			continue;   /* a key of the table, or a later word wins */
		struct sysctl_ref r;
		char old[SYSCTL_VALUE_MAX], now[SYSCTL_VALUE_MAX], err[192];
		if (sysctl_find(set, key, &r)) {
			printk("cmdline: tunable %.*s=%.*s not set: no such sysctl\n", TUNABLE_ECHO, key,
			       TUNABLE_ECHO, value);
			refused++;
			continue;
		}
		sysctl_format(&r, old, sizeof(old));
		if (sysctl_write(&r, value, err, sizeof(err))) {
			printk("cmdline: tunable %s=%.*s not set: %s\n", key, TUNABLE_ECHO, value, err);
			refused++;
			continue;
		}
		sysctl_format(&r, now, sizeof(now));
		printk("cmdline: tunable %s: %s -> %s\n", key, old, now);
	}
	return refused;
}
