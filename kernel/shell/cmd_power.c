/* SPDX-License-Identifier: BSD-2-Clause */
/* cmd_power.c — ending the run: reboot, poweroff, exit (QEMU tests). */
#include <shell/shell.h>
#include <arch/x86_64/power.h>
#include <kern/printk.h>

static int cmd_reboot(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	printk("rebooting\n");
	power_reboot();
}
SHELL_COMMAND(reboot, 0, 0, "", "restart the machine (UEFI ResetSystem)", cmd_reboot);

static int cmd_poweroff(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	printk("powering off\n");
	power_off();
}
SHELL_COMMAND(poweroff, 0, 0, "", "turn the machine off (UEFI ResetSystem)", cmd_poweroff);

static int cmd_exit(int argc, char **argv)
{
	uint64_t status = 0;
	if (argc == 2 && shell_arg_u64("exit", "status", argv[1], 10, 0, 127, &status))
		return 1;
	printk("exit %d\n", (int)status);
	power_qemu_exit((int)status);
	printk("exit: no isa-debug-exit device (not under QEMU?); use poweroff\n");
	return 1;
}
SHELL_COMMAND(exit, 0, 1, "[status]", "leave QEMU with a status (isa-debug-exit)", cmd_exit);
