/* SPDX-License-Identifier: BSD-2-Clause */
/* cmd_hfi.h — the `hfi` command's parts (cmd_hfi.c: showing and waiting;
 * cmd_hfi_inject.c: the emulated device's injections). */
#ifndef MOSAIC_SHELL_CMD_HFI_H
#define MOSAIC_SHELL_CMD_HFI_H

/* `hfi set|throttle|restore|storm ...` with argv[1] the verb: checks every
 * argument, then asks the emulated device; 0, or 1 after a message naming
 * the bad argument (nothing changed). Shell thread. */
int cmd_hfi_inject(int argc, char **argv);
/* `hfi`'s Thread Director lines (cmd_hfi_itd.c): the driver's status and
 * reads per class, the emulated Thread Director's answers. */
void cmd_hfi_show_itd(void);

#endif
