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

/* What `sysctl` prints of each variable, FreeBSD's flags: -d the
 * description instead of the value, -n without the name, -N the name only,
 * -q no message for an unknown name (the status still says it). */
struct sysctl_flags {
	int describe, no_name, name_only, quiet, all;
};

/* Prints one variable as the flags ask. Long PROC values get a heap buffer
 * of their declared size and bypass printk's line limit. */
static void print_oid(const struct sysctl_ref *r, const struct sysctl_flags *f)
{
	char small[SYSCTL_VALUE_MAX], name[SYSCTL_NAME_MAX];
	sysctl_name(r, name, sizeof(name));
	if (f->name_only || f->describe) {
		if (f->name_only)
			printk("%s\n", name);
		else
			printk("%s%s%s\n", f->no_name ? "" : name, f->no_name ? "" : ": ", r->oid->descr);
		return;
	}
	size_t size = sysctl_value_size(r);
	char *value = size > sizeof(small) ? kmalloc(size) : small;
	if (!value) {
		printk("%s: (no memory for a %zu-byte value)\n", name, size);
		return;
	}
	sysctl_format(r, value, size);
	if (value == small) {          /* one printk: the line is not interleaved */
		printk("%s%s%s\n", f->no_name ? "" : name, f->no_name ? "" : ": ", value);
		return;
	}
	size_t n = strlen(value);
	if (n && value[n - 1] == '\n')   /* multi-line values end their own last line */
		n--;
	if (!f->no_name)
		printk("%s: ", name);
	console_write(value, n);
	printk("\n");
	kfree(value);
}

/* Prints every oid equal to or under name; returns how many. */
static int print_tree(const char *name, const struct sysctl_flags *f)
{
	int n = 0;
	struct sysctl_ref r = { NULL, -1 };
	while (sysctl_next(&kernel_set, &r, name) == 0) {
		print_oid(&r, f);
		n++;
	}
	return n;
}

/* Reads the leading flag words ("-d", "-n", "-aN", ...) into f; the index
 * of the first other word, or -1 (with the usage printed) for a letter that
 * is no flag. */
static int parse_flags(int argc, char **argv, struct sysctl_flags *f)
{
	int i = 1;
	for (; i < argc && argv[i][0] == '-' && argv[i][1]; i++) {
		for (const char *c = argv[i] + 1; *c; c++) {
			switch (*c) {
			case 'd': f->describe = 1; break;
			case 'n': f->no_name = 1; break;
			case 'N': f->name_only = 1; break;
			case 'q': f->quiet = 1; break;
			case 'a': f->all = 1; break;
			default:
				printk("sysctl: unknown flag '-%c'\n", *c);
				shell_usage("sysctl");
				return -1;
			}
		}
	}
	return i;
}

/* Sets name=value; prints "name: old -> new" (-n: "old -> new"). */
static int write_oid(char *arg, char *eq, const struct sysctl_flags *f)
{
	*eq = 0;
	struct sysctl_ref r;
	if (sysctl_find(&kernel_set, arg, &r)) {
		if (!f->quiet)
			printk("sysctl: unknown oid '%s'\n", arg);
		return 1;
	}
	char old[SYSCTL_VALUE_MAX], err[192], now[SYSCTL_VALUE_MAX];
	sysctl_format(&r, old, sizeof(old));
	if (sysctl_write(&r, eq + 1, err, sizeof(err))) {
		printk("sysctl: %s\n", err);
		return 1;
	}
	sysctl_format(&r, now, sizeof(now));
	printk("%s%s%s -> %s\n", f->no_name ? "" : arg, f->no_name ? "" : ": ", old, now);
	return 0;
}

static int cmd_sysctl(int argc, char **argv)
{
	struct sysctl_flags f = { 0 };
	int i = parse_flags(argc, argv, &f);
	if (i < 0)
		return 1;
	if (f.all != (i == argc)) {   /* -a and names exclude each other; one is needed */
		shell_usage("sysctl");
		return 1;
	}
	if (f.all) {
		print_tree("", &f);
		return 0;
	}
	int status = 0;
	for (; i < argc; i++) {
		char *eq = strchr(argv[i], '=');
		if (eq)
			status |= write_oid(argv[i], eq, &f);
		else if (print_tree(argv[i], &f) == 0) {
			if (!f.quiet)
				printk("sysctl: unknown oid '%s'\n", argv[i]);
			status = 1;
		}
	}
	return status;
}
SHELL_COMMAND(sysctl, 1, SHELL_ARGS_MAX, "[-dnNq] -a | [-dnNq] name[=value] ...",
	      "show or set kernel variables: -a all, -d descriptions, -n values only, "
	      "-N names only, -q quiet about unknown names", cmd_sysctl);
