/* panic.c — the one way the kernel stops after something went wrong. */
#include <panic.h>
#include <printk.h>
#include <backtrace.h>
#include <cpu.h>
#include <power.h>
#include <cmdline.h>
#include <string.h>

/* Ends the run as the command line asks (panic=halt|reboot|exit; default
 * halt). Interrupts off; never returns. */
void panic_stop(void)
{
	cpu_cli();
	const char *how = cmdline_get("panic");
	if (how && strcmp(how, "exit") == 0) {
		printk("System stopped (panic=exit).\n");
		power_qemu_exit(3);
	} else if (how && strcmp(how, "reboot") == 0) {
		printk("System stopped; rebooting (panic=reboot).\n");
		power_reboot();
	}
	printk("System halted.\n");
	cpu_halt_forever();
}

void panic(const char *fmt, ...)
{
	static int in_panic;
	cpu_cli();
	if (in_panic++) {   /* a panic while panicking: just stop */
		printk("nested panic\n");
		cpu_halt_forever();
	}
	va_list ap;
	va_start(ap, fmt);
	printk("\npanic: ");
	vprintk(fmt, ap);
	printk("\n");
	va_end(ap);
	/* Start at our caller: its RIP and the frame pointer our frame saved. */
	backtrace_print((uint64_t)__builtin_return_address(0) - 1,
			*(uint64_t *)__builtin_frame_address(0));
	panic_stop();
}

void kassert_failed(const char *cond, const char *file, int line, const char *fmt, ...)
{
	char msg[160];
	va_list ap;
	va_start(ap, fmt);
	kvsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	panic("assertion '%s' failed at %s:%d: %s", cond, file, line, msg);
}
