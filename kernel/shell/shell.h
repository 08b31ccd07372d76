/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * shell.h — the kernel monitor: a command table and the read-run loop.
 *
 * Adding a command: in any kernel file,
 *     static int cmd_hello(int argc, char **argv) { ... return 0; }
 *     SHELL_COMMAND(hello, 0, 1, "[name]", "say hello", cmd_hello);
 * (0, 1: it takes zero to one arguments after its name). The linker collects
 * these into one table (section .shell_commands). The shell prints the usage
 * line instead of calling the command when the argument count is outside
 * those bounds, and for `NAME -h`. A command returns 0 on success, non-zero
 * after printing a one-line error.
 */
#ifndef MOSAIC_SHELL_H
#define MOSAIC_SHELL_H
#include <stdint.h>

struct shell_command {
	const char *name;
	int min_args, max_args;   /* words after the name */
	const char *args;    /* usage synopsis of the arguments, "" if none */
	const char *help;    /* one line */
	int (*fn)(int argc, char **argv);
};

#define SHELL_COMMAND(cmd_name, min, max, cmd_args, cmd_help, cmd_fn) \
	static const struct shell_command shell_command_##cmd_name \
	__attribute__((used, section(".shell_commands"), aligned(8))) = \
		{ #cmd_name, min, max, cmd_args, cmd_help, cmd_fn }

#define SHELL_LINE_MAX 256
#define SHELL_ARGS_MAX 16
/* Longest duration in milliseconds a command takes (sleep, spawn ms=,
 * schedtest): 10 minutes, so ms * 1000000 never overflows. */
#define SHELL_MS_MAX 600000

/* Argument s of command cmd, called what in messages, as a number in
 * min..max (base as parse_u64: 0 = decimal or 0x hex, 10, 16). Returns 0,
 * or -1 after printing "CMD: WHAT: 'x' is not a number (MIN..MAX)" or
 * "CMD: WHAT: N is outside MIN..MAX"; *out is untouched then. */
int shell_arg_u64(const char *cmd, const char *what, const char *s, unsigned base, uint64_t min,
		  uint64_t max, uint64_t *out);

/* Print "usage: NAME ARGS" and the help line of the named command;
 * -1 (nothing printed) when there is no such command. */
int shell_usage(const char *name);
/* 1 while the boot script (run=) executes: commands that would wait for a
 * key (top) do one round instead. */
int shell_scripted(void);
/* Run one command line (no ';' splitting). Returns the command's status. */
int shell_run_line(char *line);
/* Run the boot script (commands separated by ';'; may be NULL), then read
 * and run commands from the console forever. Interrupts must be on. */
void shell_main(const char *script) __attribute__((noreturn));
/* Iterate over the command table in name order: pass NULL first, then the
 * previous result; returns NULL after the last. */
const struct shell_command *shell_next_command(const struct shell_command *prev);

#endif
