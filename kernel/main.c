/* SPDX-License-Identifier: BSD-2-Clause */
/* main.c — boot sequence of the kernel, from the loader's hand-off to the
 * shell. Runs on the boot CPU with interrupts off until the shell starts. */
#include <mosaic/boot_info.h>
#include <arch/x86_64/arch_hooks.h>
#include <arch/x86_64/trap/backtrace.h>
#include <lib/cmdline.h>
#include <lib/cmdline_tunables.h>
#include <kern/console.h>
#include <dev/fbcon.h>
#include <dev/keyboard.h>
#include <mm/mm.h>
#include <kern/panic.h>
#include <dev/pci.h>
#include <arch/x86_64/power.h>
#include <kern/printk.h>
#include <dev/rapl.h>
#include <arch/x86_64/serial.h>
#include <shell/shell.h>
#include <arch/x86_64/smp/smp.h>
#include <lib/string.h>
#include <shell/sysinfo.h>
#include <thread/thread.h>
#include <arch/x86_64/clock/time.h>
#include <dev/usb/usb.h>
#include <arch/x86_64/acpi/acpi.h>
#include <arch/x86_64/cpu/cpu.h>
#include <arch/x86_64/intr/ioapic.h>
#include <arch/x86_64/intr/lapic.h>
#include <emul/emul_hfi.h>
#include <emul/emul_itd.h>
#include <emul/machine_platform.h>
#include <dev/hfi/hfi_kernel.h>
#include <dev/hfi/itd.h>
#include <hmp/hmp_sources.h>
#include <emul/emul_workclock.h>
#include <bench/work.h>
#include <arch/x86_64/smp/percpu.h>
#include <arch/x86_64/trap/trap.h>
#include <user/user.h>
#include <kern/version.h>
#include <arch/x86_64/efi_rt.h>
#include <save/save.h>

/* The loader's structure, copied before its memory is reclaimed. */
static struct boot_info boot_info;

void arch_run_on_stack(void *stack_top, void (*fn)(void *), void *arg) __attribute__((noreturn));

static void print_banner(void)
{
	printk("Mosaic %s (loader %s)\n", mosaic_version, boot_info.loader_version);
	printk("cmdline: %.*s\n", (int)sizeof(boot_info.cmdline), boot_info.cmdline);
}

/* What the layers above the thread layer do at every switch and add to a
 * thread's record (thread.h's hook points), in the order they run: the
 * Thread Director's class and HRESET, the emulated work clock, user
 * mode's CPU state. Before the first switch. */
static void thread_hooks_register(void)
{
	thread_hook_leave(itd_switch_leave);
	thread_hook_switch(itd_switch_enter);
	thread_hook_switch(emul_workclock_switch);
	thread_hook_switch(user_thread_switch);
	thread_hook_info(emul_workclock_info);
	thread_hook_info(user_thread_info);
}

extern const struct sysctl_oid __sysctl_start[], __sysctl_end[];
static const struct sysctl_set kernel_sysctls = { __sysctl_start, __sysctl_end };

/* Second half of boot, on a guarded kernel stack: devices, then the shell. */
static void kernel_main_continued(void *arg)
{
	(void)arg;
	fbcon_init(&boot_info.fb);
	if (acpi_init(boot_info.acpi_rsdp_phys) || !acpi_madt()->present)
		panic("no usable ACPI MADT: cannot find the interrupt controllers");
	lapic_init(acpi_madt()->lapic_phys);
	ioapic_init();
	time_init();
	time_tick_init();
	serial_enable_input_irq();
	ps2kbd_init();
	pci_init();                 /* ECAM from the MCFG; the functions behind it */
	cpu_sti();                  /* the boot CPU ticks while the others start */
	smp_start_aps();
	machine_platform_apply();   /* before anything reads the descriptors */
	hmp_sources_init();         /* capacities and scores, before the scheduler */
	thread_hooks_register();
	thread_boot();              /* from here on this flow is thread "main" */
	fbcon_start_thread();       /* draws text and the status line from now on */
	emul_workclock_init();      /* emulated machines: per-thread work clocks */
	if (strcmp(cmdline_choice("hfi"), "off") == 0) {
		printk("hfi: off (hfi=off on the command line): capacities from CPUID only\n");
	} else {
		emul_hfi_init();    /* the emulated HFI device, if the description has rows */
		emul_itd_init();    /* its Thread Director, if it presents one */
		hfi_init();         /* the HFI driver: real or emulated, through the door */
		itd_init();         /* Thread Director on top of it: classes at each switch */
	}
	rapl_init();                /* energy counters: real or emulated, through the door */
	work_calibrate();           /* work(W) on the fastest CPU */
	usb_init();                 /* xHCI controllers, USB keyboards (a thread) */
	cmdline_tunables_apply(cmdline_words(), &kernel_sysctls);   /* kern.sched.policy=ule ... */
	sysinfo_print();            /* the boot summary */
	save_panic_boot();          /* a panic report an earlier boot left in a UEFI variable */
	user_init(&boot_info);      /* user mode: the boot archive, init (docs/userland.md) */
	shell_main(cmdline_get("run"));
}

/* Entered from entry.asm with the loader's page tables and boot stack. */
void kernel_main(const struct boot_info *bi)
{
	serial_init();
	gdt_init();
	percpu_init_bsp();
	idt_init();
	if (bi->magic != BOOT_INFO_MAGIC) {
		printk("kernel: boot_info magic %016lx is wrong; loader and kernel do not match\n",
		       bi->magic);
		cpu_halt_forever();
	}
	memcpy(&boot_info, bi, sizeof(boot_info));
	boot_info.loader_version[sizeof(boot_info.loader_version) - 1] = 0;
	boot_info.fw_vendor[sizeof(boot_info.fw_vendor) - 1] = 0;
	sysinfo_set_firmware(boot_info.fw_vendor, boot_info.fw_revision);
	print_banner();
	cmdline_init(boot_info.cmdline, sizeof(boot_info.cmdline));   /* refuses it unterminated */
	lapic_park_others();        /* the firmware's APs wait for their start-up IPI */

	pmm_init(&boot_info);
	vmm_init(&boot_info);
	pmm_reclaim_boot_memory(&boot_info);
	heap_init();
	if (strcmp(cmdline_choice("emul"), "off") == 0)
		printk("machine: emul=off: no machine description, the work clock and HFI device stay off\n");
	else
		machine_platform_init();    /* the QEMU machine description, if any */
	power_init(&boot_info);
	efi_rt_init(&boot_info);    /* the firmware's clock and variables */
	panic_set_keeper(&save_panic_keeper);   /* a panic's report survives in a UEFI variable */

	void *stack = kstack_alloc(8);
	if (!stack)
		panic("cannot allocate the kernel stack");
	arch_run_on_stack(stack, kernel_main_continued, NULL);
}
