/* SPDX-License-Identifier: BSD-2-Clause */
/* cmd_sysctl.c — the `sysctl` command over the kernel's sysctl set. */
#include <shell/shell.h>
#include <lib/sysctl.h>
#include <kern/printk.h>
#include <kern/console.h>
#include <mm/mm.h>
#include <lib/string.h>

extern const struct sysctl_oid __sysctl_start[], __sysctl_end[];
static const struct sysctl_set kernel_set = { __sysctl_start, __sysctl_end };

/* Prints "name: value" (with the description if asked). Long PROC values
 * get a heap buffer of their declared size and bypass printk's line limit. */
static void print_oid(const struct sysctl_ref *r, int describe)
{
	const struct sysctl_oid *o = r->oid;
	char small[SYSCTL_VALUE_MAX], name[SYSCTL_NAME_MAX];
	sysctl_name(r, name, sizeof(name));
	size_t size = sysctl_value_size(r);
	char *value = size > sizeof(small) ? kmalloc(size) : small;
	if (!value) {
		printk("%s: (no memory for a %zu-byte value)\n", name, size);
		return;
	}
	sysctl_format(r, value, size);
	if (value == small) {          /* one printk: the line is not interleaved */
		if (describe)
			printk("%s: %s  (%s%s)\n", name, value, o->descr,
			       o->writable ? ", writable" : "");
		else
			printk("%s: %s\n", name, value);
		return;
	}
	size_t n = strlen(value);
	if (n && value[n - 1] == '\n')   /* multi-line values end their own last line */
		n--;
	printk("%s: ", name);
	console_write(value, n);
	if (describe)
		printk("  (%s%s)", o->descr, o->writable ? ", writable" : "");
	printk("\n");
	kfree(value);
}

/* Prints every oid equal to or under name; returns how many. */
static int print_tree(const char *name, int describe)
{
	int n = 0;
	struct sysctl_ref r = { NULL, -1 };
	while (sysctl_next(&kernel_set, &r, name) == 0) {
		print_oid(&r, describe);
		n++;
	}
	return n;
}

static int cmd_sysctl(int argc, char **argv)
{
	int describe = 0, i = 1;
	if (i < argc && strcmp(argv[i], "-d") == 0) {
		describe = 1;
		i++;
	}
	if (i < argc && strcmp(argv[i], "-a") == 0) {
		if (i + 1 != argc) {
			shell_usage("sysctl");
			return 1;
		}
		print_tree("", describe);
		return 0;
	}
	if (i == argc) {
		shell_usage("sysctl");
		return 1;
	}
	int status = 0;
	for (; i < argc; i++) {
		char *eq = strchr(argv[i], '=');
		if (!eq) {
			if (print_tree(argv[i], describe) == 0) {
				printk("sysctl: unknown oid '%s'\n", argv[i]);
				status = 1;
			}
			continue;
		}
		*eq = 0;
		struct sysctl_ref r;
		if (sysctl_find(&kernel_set, argv[i], &r)) {
			printk("sysctl: unknown oid '%s'\n", argv[i]);
			status = 1;
			continue;
		}
		char old[SYSCTL_VALUE_MAX], err[192];
		sysctl_format(&r, old, sizeof(old));
		if (sysctl_write(&r, eq + 1, err, sizeof(err))) {
			printk("sysctl: %s\n", err);
			status = 1;
			continue;
		}
		char now[SYSCTL_VALUE_MAX];
		sysctl_format(&r, now, sizeof(now));
		printk("%s: %s -> %s\n", argv[i], old, now);
	}
	return status;
}
SHELL_COMMAND(sysctl, 1, SHELL_ARGS_MAX, "[-d] -a | [-d] name[=value] ...",
	      "show or set kernel variables (-a all, -d with descriptions)", cmd_sysctl);
