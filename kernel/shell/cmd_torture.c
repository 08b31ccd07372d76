/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * cmd_torture.c — `torture [--time S] [--seed N] [--stressors LIST]`: one
 * pass of the torture stressor (kernel/torture/torture.h, docs/torture.md)
 * and its report; exit status 1 when it found a violation. Shell thread.
 */
#include <shell/shell.h>
#include <kern/printk.h>
#include <lib/string.h>
#include <torture/torture.h>

/* Parses the options into *o (defaults: 10 s, seed 1, every stressor);
 * 0, or -1 after printing what is wrong. */
static int torture_options(int argc, char **argv, struct torture_opts *o)
{
	uint64_t seconds = 10;
	*o = (struct torture_opts){ .seed = 1, .stressors = TORTURE_ALL };
	for (int i = 1; i < argc; i += 2) {
		if (i + 1 >= argc) {
			printk("torture: %s needs a value\n", argv[i]);
			return -1;
		}
		if (!strcmp(argv[i], "--time")) {
			if (shell_arg_u64("torture", "--time", argv[i + 1], 10, 1, TORTURE_TIME_MAX_S, &seconds))
				return -1;
		} else if (!strcmp(argv[i], "--seed")) {
			if (shell_arg_u64("torture", "--seed", argv[i + 1], 0, 0, UINT64_MAX, &o->seed))
				return -1;
		} else if (!strcmp(argv[i], "--stressors")) {
			char err[96];
			if (torture_parse_stressors(argv[i + 1], &o->stressors, err, sizeof(err))) {
				printk("torture: --stressors: %s\n", err);
				return -1;
			}
		} else {
			printk("torture: unknown option '%s' (--time S, --seed N, --stressors LIST)\n", argv[i]);
			return -1;
		}
	}
	o->time_ns = seconds * 1000000000ull;
	return 0;
}

static int cmd_torture(int argc, char **argv)
{
	struct torture_opts o;
	if (torture_options(argc, argv, &o))
		return 1;
	return torture_run(&o) ? 1 : 0;
}
SHELL_COMMAND(torture, 0, 6, "[--time S] [--seed N] [--stressors threads,user,knobs,hfi,bench|all]",
	      "stress every CPU at once for S seconds (10) and check nothing is lost", cmd_torture);
