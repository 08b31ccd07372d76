/* SPDX-License-Identifier: BSD-2-Clause */
/* cmd_info.c — shell commands that report: help, version, echo, uptime, cmdline. */
#include <shell/shell.h>
#include <lib/cmdline.h>
#include <kern/console.h>
#include <kern/printk.h>
#include <lib/string.h>
#include <lib/sysctl.h>
#include <arch/x86_64/clock/time.h>
#include <kern/version.h>

static int cmd_help(int argc, char **argv)
{
	if (argc == 2) {
		if (shell_usage(argv[1]) == 0)
			return 0;
		printk("help: no command '%s'\n", argv[1]);
		return 1;
	}
	const struct shell_command *c = NULL;
	while ((c = shell_next_command(c)))
		printk("  %-10s %s\n", c->name, c->help);
	printk("'COMMAND -h' shows a command's arguments.\n");
	return 0;
}
SHELL_COMMAND(help, 0, 1, "[command]", "list commands, or show one command's usage", cmd_help);

static void version_proc(char *buf, size_t len)
{
	ksnprintf(buf, len, "Mosaic %s (x86_64, built %s)", mosaic_version, mosaic_build_date);
}
SYSCTL_PROC(kern_version, "kern.version", version_proc, "kernel version and build");
static char ostype[] = "Mosaic";
SYSCTL_STRING(kern_ostype, "kern.ostype", ostype, sizeof(ostype), 0, "operating system name");

static int cmd_version(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	char version[96];
	version_proc(version, sizeof(version));
	printk("%s\n", version);
	return 0;
}
SHELL_COMMAND(version, 0, 0, "", "print the kernel version", cmd_version);

static int cmd_echo(int argc, char **argv)
{
	for (int i = 1; i < argc; i++)
		printk("%s%s", i > 1 ? " " : "", argv[i]);
	printk("\n");
	return 0;
}
SHELL_COMMAND(echo, 0, SHELL_ARGS_MAX, "[word ...]", "print the arguments", cmd_echo);

static int cmd_uptime(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	uint64_t ns = time_ns();
	uint64_t s = ns / 1000000000ul;
	printk("up %lu.%03lu s (%lu:%02lu:%02lu), %lu timer ticks\n", s,
	       (ns / 1000000ul) % 1000, s / 3600, (s / 60) % 60, s % 60, time_ticks());
	return 0;
}
SHELL_COMMAND(uptime, 0, 0, "", "time since boot", cmd_uptime);

/* `cmdline`: the text, its words (written whole: a run= script can be
 * longer than a printk line) and what the kernel made of them. Shell
 * context only (static scratch). */
static int cmd_cmdline(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	static struct cmdline cl;
	char err[96];
	const char *text = cmdline_text();
	console_write(text, strlen(text));
	printk("\n");
	int bad = cmdline_parse(&cl, text, err, sizeof(err));
	for (int i = 0; i < cl.count; i++) {
		printk("  %s = \"", cl.keys[i]);
		console_write(cl.values[i], strlen(cl.values[i]));
		printk("\"\n");
	}
	if (bad)
		printk("  (parse stopped: %s)\n", err);
	cmdline_check(&cl);
	return 0;
}
SHELL_COMMAND(cmdline, 0, 0, "", "show the kernel command line and its words", cmd_cmdline);

static int cmd_dmesg(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	console_dump_log();
	return 0;
}
SHELL_COMMAND(dmesg, 0, 0, "",
	      "print the kernel's output log again: the boot log (its first 16 KiB, kept for "
	      "good), then the last 16 KiB of output since", cmd_dmesg);
