# SPDX-License-Identifier: BSD-2-Clause
# mk/sources.mk — the portable source groups: code that the kernel, the
# host tests, the fuzz harnesses, the host tools and schedsim all compile,
# each group declared once here, with the groups it needs. A product names
# the groups it links; make lists a file named by two groups once.

# kernel/lib/
FORMAT_SRCS  := kernel/lib/format.c
PARSE_SRCS   := kernel/lib/parse.c $(FORMAT_SRCS)
STRBUF_SRCS  := kernel/lib/strbuf.c $(FORMAT_SRCS)
CMDLINE_SRCS := kernel/lib/cmdline.c kernel/lib/cmdline_keys.c $(STRBUF_SRCS) $(PARSE_SRCS)
CPULIST_SRCS := kernel/lib/cpulist.c $(PARSE_SRCS)
SYSCTL_SRCS  := kernel/lib/sysctl.c $(STRBUF_SRCS) $(PARSE_SRCS)
TUNABLE_SRCS := kernel/lib/cmdline_tunables.c $(CMDLINE_SRCS) $(SYSCTL_SRCS)
ITD_NAMES_SRCS := kernel/lib/itd_names.c
CRC32_SRCS   := kernel/lib/crc32.c

# volumes (kernel/fs/): partition tables and FAT12/16/32 on a block device
FS_SRCS := $(sort $(wildcard kernel/fs/*.c)) $(CRC32_SRCS) $(FORMAT_SRCS)

# the shell's parsers (kernel/shell/)
LINEEDIT_SRCS    := kernel/shell/lineedit.c $(FORMAT_SRCS)
SHELL_WORDS_SRCS := kernel/shell/shell_words.c

# devices (kernel/dev/): keyboards, USB descriptors, PCI's MCFG, fonts, the
# HFI table and its protocol (kernel/dev/hfi/, the kernel's glue aside)
KEYMAP_SRCS   := kernel/dev/keymap.c
HID_KBD_SRCS  := kernel/dev/usb/hid_kbd.c
USB_DESC_SRCS := kernel/dev/usb/usb_desc.c $(FORMAT_SRCS)
XHCI_SRCS     := kernel/dev/usb/xhci_ring.c kernel/dev/usb/xhci_dev.c
PCI_MCFG_SRCS := kernel/dev/pci_mcfg.c $(FORMAT_SRCS)
PSF_SRCS      := kernel/dev/psf.c
FBCON_GRID_SRCS := kernel/dev/fbcon_grid.c
# USB sticks: the Bulk-Only Transport, SCSI and the mass storage interface
# (the xHCI transfers and the USB thread's side aside)
MSD_SRCS      := kernel/dev/usb/usb_bot.c kernel/dev/usb/scsi.c kernel/dev/usb/usb_desc_msd.c kernel/fs/fs_err.c \
                 $(FORMAT_SRCS)
HFI_SRCS      := kernel/dev/hfi/hfi_table.c kernel/dev/hfi/hfi_start.c kernel/dev/hfi/hfi_event.c \
                 kernel/dev/hfi/hfi_publish.c $(FORMAT_SRCS)

# arch's portable parsers and choices (kernel/arch/x86_64/)
ARCH_DIR          := kernel/arch/x86_64
ACPI_MADT_SRCS    := $(ARCH_DIR)/acpi/acpi_madt.c
CLOCK_CHOICE_SRCS := $(ARCH_DIR)/clock/clock_choice.c
PMTIMER_FADT_SRCS := $(ARCH_DIR)/clock/pmtimer_fadt.c
WITNESS_SRCS      := $(ARCH_DIR)/witness.c
CPUID_DECODE_SRCS := $(ARCH_DIR)/cpu/cpuid_decode.c $(ARCH_DIR)/cpu/cpuid_layout.c $(ARCH_DIR)/cpu/cpuid_amd.c \
                     $(FORMAT_SRCS)

# memory (kernel/mm/)
HEAP_SRCS := kernel/mm/heap.c
PMM_SRCS  := kernel/mm/pmm.c kernel/mm/pmm_map.c

# the scheduler (kernel/sched/): the topology tree, its printers, and the
# ULE core with hmp (without a platform: sched_plat.h's implementations
# are the kernel's kernel/thread/sched_plat.c, schedsim's sim/sim_plat.c
# and the tests' tests/unit/sched_plat_*.c)
TOPO_SRCS       := kernel/sched/topo_build.c kernel/sched/topo_kind.c kernel/sched/topo_freebsd.c \
                   kernel/sched/topo_freebsd_probe.c
TOPO_PRINT_SRCS := kernel/sched/topo_print.c kernel/sched/topo_spec.c
SCHED_SRCS      := $(sort $(wildcard kernel/sched/ule_*.c)) kernel/sched/hmp.c kernel/sched/hmp_search.c \
                   kernel/sched/hmp_report_search.c kernel/sched/sched_policy.c \
                   $(sort $(wildcard kernel/sched/policy_*.c)) kernel/sched/sched_vars.c kernel/sched/topo_build.c
HMP_DESCRIBE_SRCS := kernel/sched/hmp_describe.c

# the emulated machines (kernel/emul/): reading a description (what
# machine-info checks), applying it to CPU descriptors, and the work clock
MDESC          := kernel/emul/machine_desc
MDESC_SRCS     := $(MDESC)/machine_parse.c $(MDESC)/machine_check.c $(MDESC)/machine_values.c \
                  $(MDESC)/machine_hfi.c $(MDESC)/machine_power.c $(MDESC)/machine_class_speed.c \
                  $(ITD_NAMES_SRCS) $(FORMAT_SRCS)
MDESC_APPLY_SRCS := $(MDESC_SRCS) $(MDESC)/machine_apply.c $(MDESC)/machine_layout.c
WORKCLOCK_SRCS := kernel/emul/emul_workclock_model.c kernel/emul/emul_workclock_energy.c \
                  kernel/emul/emul_workclock_speed.c

# processes (kernel/user/) and the loader's ELF checks they share (boot/)
ELF_CHECK_SRCS := boot/elf_check.c
UELF_RULES_SRCS := kernel/user/uelf_rules.c $(ELF_CHECK_SRCS)
UCHECK_SRCS    := kernel/user/ucheck.c
UARGS_SRCS     := kernel/user/uargs.c $(UCHECK_SRCS)
ARCHIVE_SRCS   := kernel/user/archive.c $(FORMAT_SRCS)
UVM_SRCS       := kernel/user/uvm.c kernel/user/uvm_map.c kernel/user/uvm_stack.c kernel/user/ulimit.c \
                  $(SYSCTL_SRCS)

# the loader's portable pieces (boot/)
VIDEO_SRCS := boot/video.c

# the benchmarks (kernel/bench/): the reporting core (no runtime), the
# workloads and their driver (against bench_rt.h), the named policies (with
# the scheduler's variable table). bench_rt_kernel.c and work.c are the
# kernel's runtime, bench_policy.c the kernel's sysctl side.
BENCH_DRV_SRCS := kernel/bench/bench_wl.c kernel/bench/bench_drv.c kernel/bench/bench_drv_report.c \
                  kernel/bench/bench_drv_energy.c kernel/bench/bench_barrier.c \
                  $(sort $(wildcard kernel/bench/wl_*.c))
BENCH_SRCS := $(filter-out kernel/bench/bench_rt_kernel.c kernel/bench/work.c kernel/bench/bench_policy%.c \
                $(BENCH_DRV_SRCS),$(sort $(wildcard kernel/bench/*.c))) $(STRBUF_SRCS)
BENCH_POLICY_TABLE_SRCS := kernel/bench/bench_policy_table.c

# the CPUID dump reader (tools/cpuid-replay/) and schedsim's pieces that
# tests use (sim/)
CPUID_DUMP_SRCS   := tools/cpuid-replay/dump.c tools/cpuid-replay/dump_check.c
CPUID_REPLAY_SRCS := $(CPUID_DUMP_SRCS) tools/cpuid-replay/replay.c
SEED_TABLE_SRCS   := sim/seed_table.c
SIM_GEN_SRCS      := sim/sim_gen.c sim/sim_machine.c sim/sim_random.c
