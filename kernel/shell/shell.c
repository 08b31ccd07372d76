/* SPDX-License-Identifier: BSD-2-Clause */
/* shell.c — the kernel monitor's read-run loop and command dispatch. */
#include <shell/shell.h>
#include <shell/shell_words.h>
#include <shell/lineedit.h>
#include <kern/console.h>
#include <dev/console_input.h>
#include <lib/parse.h>
#include <kern/printk.h>
#include <lib/string.h>
#include <lib/sysctl.h>

extern const struct shell_command __shell_commands_start[], __shell_commands_end[];

static char shell_prompt[32] = "mosaic> ";
SYSCTL_STRING(kern_shell_prompt, "kern.shell.prompt", shell_prompt, sizeof(shell_prompt), 1,
	      "the shell's prompt");
static struct lineedit editor;
static int shell_in_script;   /* 1 while the boot script runs */

/* See shell.h. */
int shell_scripted(void)
{
	return shell_in_script;
}

/* Commands in name order; the table is small, so a scan per step is fine. */
const struct shell_command *shell_next_command(const struct shell_command *prev)
{
	const struct shell_command *best = NULL;
	for (const struct shell_command *c = __shell_commands_start; c < __shell_commands_end; c++) {
		if (prev && strcmp(c->name, prev->name) <= 0)
			continue;
		if (!best || strcmp(c->name, best->name) < 0)
			best = c;
	}
	return best;
}

static const struct shell_command *find_command(const char *name)
{
	for (const struct shell_command *c = __shell_commands_start; c < __shell_commands_end; c++)
		if (strcmp(c->name, name) == 0)
			return c;
	return NULL;
}

int shell_usage(const char *name)
{
	const struct shell_command *c = find_command(name);
	if (!c)
		return -1;
	printk("usage: %s%s%s\n  %s\n", c->name, c->args[0] ? " " : "", c->args, c->help);
	return 0;
}

/* See shell.h. */
int shell_arg_u64(const char *cmd, const char *what, const char *s, unsigned base, uint64_t min,
		  uint64_t max, uint64_t *out)
{
	char err[128];
	if (parse_u64_range_base(s, base, min, max, out, what, err, sizeof(err)) == 0)
		return 0;
	printk("%s: %s\n", cmd, err);
	return -1;
}

int shell_run_line(char *line)
{
	char *argv[SHELL_ARGS_MAX + 1];
	int argc = shell_split_words(line, argv, SHELL_ARGS_MAX);
	if (argc == SHELL_WORDS_TOO_MANY)
		printk("shell: too many arguments (max %d)\n", SHELL_ARGS_MAX - 1);
	else if (argc == SHELL_WORDS_OPEN_QUOTE)
		printk("shell: unterminated quote\n");
	if (argc <= 0)
		return argc < 0;
	argv[argc] = NULL;
	const struct shell_command *c = find_command(argv[0]);
	if (!c) {
		printk("%s: unknown command (try 'help')\n", argv[0]);
		return 1;
	}
	if (argc == 2 && strcmp(argv[1], "-h") == 0) {
		shell_usage(c->name);
		return 0;
	}
	if (argc - 1 < c->min_args || argc - 1 > c->max_args) {
		shell_usage(c->name);
		return 1;
	}
	return c->fn(argc, argv);
}

/* Run each ';'-separated command of the script, echoing it after the
 * prompt so a log reads like an interactive session. Quotes protect ';'. */
static void run_script(const char *script)
{
	char cmd[SHELL_LINE_MAX];
	const char *s = script;
	while (*s) {
		int too_long;
		s = shell_script_cut(s, cmd, sizeof(cmd), &too_long);
		char *start = cmd;
		while (*start == ' ')
			start++;
		if (!*start)
			continue;
		printk("%s%s\n", shell_prompt, start);
		if (too_long)
			printk("shell: command too long (max %d characters)\n", SHELL_LINE_MAX - 1);
		else
			shell_run_line(start);
	}
}

void shell_main(const char *script)
{
	console_boot_done();
	lineedit_init(&editor, console_write);
	if (script && *script) {
		printk("shell: running boot script\n");
		shell_in_script = 1;
		run_script(script);
		shell_in_script = 0;
	}
	for (;;) {
		lineedit_start(&editor, shell_prompt);
		enum lineedit_status st;
		while ((st = lineedit_feed(&editor, console_getc())) == LINEEDIT_MORE)
			;
		if (st == LINEEDIT_TOO_LONG)
			printk("shell: line too long (max %d characters)\n", LINEEDIT_MAX - 1);
		else if (st == LINEEDIT_DONE)
			shell_run_line(editor.line);
	}
}
