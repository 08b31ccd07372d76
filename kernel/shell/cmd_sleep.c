/* SPDX-License-Identifier: BSD-2-Clause */
/* cmd_sleep.c — `sleep MS`: the shell thread sleeps, so a boot script can
 * let load build up before it looks (`spawn 4 cpu; sleep 3000; top`). */
#include <shell/shell.h>
#include <dev/console_input.h>
#include <kern/printk.h>
#include <thread/thread.h>
#include <arch/x86_64/clock/time.h>

#define SLEEP_POLL_MS 50   /* how often an interactive sleep looks for a key */

/* `sleep MS`: MS (0..SHELL_MS_MAX) milliseconds of guest time, asleep (the
 * scheduler runs other threads; with sched=off the CPU halts between
 * ticks), never less. At the console any key (Ctrl-C too) ends it early
 * and is consumed; a boot script's sleep runs to its end. Shell thread. */
static int cmd_sleep(int argc, char **argv)
{
	uint64_t ms;
	(void)argc;
	if (shell_arg_u64("sleep", "MS", argv[1], 0, 0, SHELL_MS_MAX, &ms))
		return 1;
	int interactive = !shell_scripted();
	uint64_t start = time_ns(), end = start + ms * 1000000ull;
	for (uint64_t now = start; now < end; now = time_ns()) {
		uint64_t step = end - now;
		char c;
		if (interactive && step > SLEEP_POLL_MS * 1000000ull)
			step = SLEEP_POLL_MS * 1000000ull;
		thread_sleep_ns(step);
		if (interactive && console_trygetc(&c)) {
			printk("sleep: interrupted by a key after %lu of %lu ms\n",
			       (time_ns() - start) / 1000000, ms);
			return 1;
		}
	}
	return 0;
}
SHELL_COMMAND(sleep, 1, 1, "MS",
	      "sleep MS milliseconds (0..600000); at the console a key ends it early", cmd_sleep);
