/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * cmd_save.c — `save [-l] [-v VOLUME] [WHAT...]`: writes the results of
 * this boot to a USB stick (kernel/save/save.h, docs/nuc.md). WHAT is any
 * of log, info, cpuid, record, panic, all (default all); -v names the
 * volume (as `save -l` lists it: da1s1, or its label); -l lists the
 * volumes and says which one save takes by default. Shell thread.
 */
#include <shell/shell.h>
#include <kern/printk.h>
#include <lib/string.h>
#include <save/save.h>

static const struct {
	const char *word;
	unsigned bits;
} save_words[] = {
	{ "log", SAVE_LOG }, { "info", SAVE_INFO }, { "cpuid", SAVE_CPUID },
	{ "record", SAVE_RECORD }, { "panic", SAVE_PANIC }, { "all", SAVE_ALL },
};

/* `save ...`: see the usage line. */
static int cmd_save(int argc, char **argv)
{
	const char *vol = NULL;
	unsigned what = 0;
	if (argc == 2 && strcmp(argv[1], "-l") == 0)
		return save_list();
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "-v") == 0 && i + 1 < argc) {
			vol = argv[++i];
			continue;
		}
		unsigned k = 0;
		while (k < sizeof(save_words) / sizeof(save_words[0]) && strcmp(save_words[k].word, argv[i]))
			k++;
		if (k == sizeof(save_words) / sizeof(save_words[0])) {
			printk("save: '%s' is not something save writes (log, info, cpuid, record, panic, all)\n",
			       argv[i]);
			shell_usage("save");
			return 1;
		}
		what |= save_words[k].bits;
	}
	return save_run(vol, what ? what : SAVE_ALL, NULL, 0) ? 1 : 0;
}
SHELL_COMMAND(save, 0, 8, "-l | [-v VOLUME] [log|info|cpuid|record|panic|all]...",
	      "write this boot's results to MOSAIC/<model>-<date>/ on a USB stick; -l lists the volumes",
	      cmd_save);
