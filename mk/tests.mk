# SPDX-License-Identifier: BSD-2-Clause
# mk/tests.mk — the host unit tests (docs/testing.md): each
# tests/unit/test_NAME.c is linked with the sources it covers,
# UNIT_SRCS_NAME below; a test_ule_* or test_hmp_* test without a line of
# its own covers the scheduler core on the tests' platform (ULE_TEST_SRCS).

UNIT_TESTS := $(patsubst tests/unit/test_%.c,%,$(wildcard tests/unit/test_*.c))
UNIT_BINS  := $(addprefix $(BUILD)/unit/test_,$(UNIT_TESTS))

# The scheduler core on tests/unit/sched_plat_test.c (one thread, a clock
# and CPUs the test sets).
ULE_TEST_SRCS := $(SCHED_SRCS) tests/unit/sched_plat_test.c
XHCI_TEST_SRCS := $(XHCI_SRCS) tests/unit/xhci_fake.c tests/unit/xhci_fake_ep.c tests/unit/xhci_fake_model.c
HFI_TEST_SRCS := $(HFI_SRCS) tests/unit/hfi_fake.c
# Address spaces on the host machine of tests/unit/uvm_host.h, with their
# reference model; limits set through the sysctls (tests/unit/host_sysctl.ld).
UVM_HOST_SRCS := $(UVM_SRCS) tests/unit/host_sysctl.c tests/unit/uvm_host.c tests/unit/uvm_walk.c \
                 tests/unit/uvm_model.c tests/unit/limit_model.c
UVM_HOST_FLAGS := -Wl,-T,tests/unit/host_sysctl.ld
# The workloads and their driver on tests/unit/bench_rt_host.c (POSIX threads).
BENCH_WL_SRCS := $(BENCH_SRCS) $(BENCH_DRV_SRCS) $(PARSE_SRCS) tests/unit/bench_rt_host.c
# Volumes on images in memory (tests/unit/blk_ram.c), FAT made by
# tests/unit/fat_format.c; sticks answered by the model of tests/unit/msd_fake.c.
FS_TEST_SRCS  := $(FS_SRCS) tests/unit/blk_ram.c tests/unit/fat_format.c
MSD_TEST_SRCS := $(MSD_SRCS) tests/unit/msd_fake.c

# --- sources under test (a line per test that is not a test_ule_*/test_hmp_* one) ---
UNIT_SRCS_cmdline      := $(CMDLINE_SRCS)
UNIT_SRCS_cmdline_tunables := $(TUNABLE_SRCS)
UNIT_SRCS_format       := $(FORMAT_SRCS)
UNIT_SRCS_sysctl       := $(SYSCTL_SRCS)
UNIT_SRCS_lineedit     := $(LINEEDIT_SRCS)
UNIT_SRCS_shell_words  := $(SHELL_WORDS_SRCS)
UNIT_SRCS_cpulist      := $(CPULIST_SRCS)
UNIT_SRCS_heap         := $(HEAP_SRCS)
UNIT_SRCS_pmm          := $(PMM_SRCS)
UNIT_SRCS_parse        := $(PARSE_SRCS)
UNIT_SRCS_ratelimit    := kernel/lib/ratelimit.c
UNIT_SRCS_strbuf       := $(STRBUF_SRCS) $(PARSE_SRCS)
UNIT_SRCS_witness      := $(WITNESS_SRCS)
UNIT_SRCS_keymap       := $(KEYMAP_SRCS)
UNIT_SRCS_hid_kbd      := $(HID_KBD_SRCS) $(KEYMAP_SRCS)
UNIT_SRCS_usb_desc     := $(USB_DESC_SRCS)
UNIT_SRCS_xhci         := $(XHCI_TEST_SRCS)
UNIT_SRCS_usb_msd      := $(MSD_TEST_SRCS)
UNIT_SRCS_fat          := $(FS_TEST_SRCS)
UNIT_SRCS_part         := $(FS_TEST_SRCS)
UNIT_SRCS_pci_mcfg     := $(PCI_MCFG_SRCS)
UNIT_SRCS_acpi_madt    := $(ACPI_MADT_SRCS)
UNIT_SRCS_clock_choice := $(CLOCK_CHOICE_SRCS)
UNIT_SRCS_pmtimer_fadt := $(PMTIMER_FADT_SRCS)
UNIT_SRCS_psf          := $(PSF_SRCS)
UNIT_SRCS_fbcon_grid   := $(FBCON_GRID_SRCS)
UNIT_SRCS_topo         := $(TOPO_SRCS) $(TOPO_PRINT_SRCS)
UNIT_SRCS_machine_parse := $(MDESC_APPLY_SRCS)
UNIT_SRCS_itd_hist     := kernel/lib/itd_hist.c
UNIT_SRCS_trace_ring   := kernel/lib/trace_ring.c
UNIT_SRCS_workclock    := $(WORKCLOCK_SRCS) $(MDESC_APPLY_SRCS)
UNIT_SRCS_cpuid_decode := $(CPUID_DECODE_SRCS) $(CPUID_DUMP_SRCS)
UNIT_SRCS_cpuid_amd    := $(UNIT_SRCS_cpuid_decode)
UNIT_SRCS_cpuid_replay := $(CPUID_DECODE_SRCS) $(CPUID_REPLAY_SRCS) kernel/sched/topo_build.c \
                          kernel/sched/topo_freebsd.c kernel/sched/topo_freebsd_probe.c
# The FreeBSD-compatible tree from real dumps, machine descriptions and
# generated machines (sim/sim_gen.c).
UNIT_SRCS_topo_freebsd := $(UNIT_SRCS_topo) $(UNIT_SRCS_cpuid_replay) $(MDESC_APPLY_SRCS) $(SIM_GEN_SRCS)
UNIT_SRCS_elf_check    := $(ELF_CHECK_SRCS)
UNIT_SRCS_uelf         := $(UELF_RULES_SRCS)
UNIT_SRCS_ucheck       := $(UCHECK_SRCS)
UNIT_SRCS_uargs        := $(UARGS_SRCS)
UNIT_SRCS_archive      := $(ARCHIVE_SRCS)
UNIT_SRCS_uvm          := $(UVM_HOST_SRCS)
UNIT_SRCS_video        := $(VIDEO_SRCS)
UNIT_SRCS_hmp          := kernel/sched/hmp.c $(HMP_DESCRIBE_SRCS) tests/unit/sched_plat_test.c
# The race tests run the core on pthreads (sched_plat_mt.c) under ThreadSanitizer.
UNIT_SRCS_hmp_race     := kernel/sched/hmp.c tests/unit/sched_plat_mt.c
UNIT_SRCS_ule_race     := $(SCHED_SRCS) tests/unit/sched_plat_mt.c
UNIT_SRCS_hfi_start    := $(HFI_TEST_SRCS)
UNIT_SRCS_hfi_event    := $(HFI_TEST_SRCS)
UNIT_SRCS_bench_stats  := $(BENCH_SRCS) $(SEED_TABLE_SRCS)
UNIT_SRCS_bench_table  := $(BENCH_SRCS) $(SEED_TABLE_SRCS)
UNIT_SRCS_bench_wl     := $(BENCH_WL_SRCS)
UNIT_SRCS_bench_drv    := $(BENCH_WL_SRCS)
UNIT_SRCS_sim_policy   := sim/sim_policy.c sim/sim_random.c sim/sim_machine.c $(ULE_TEST_SRCS) $(TOPO_SRCS) \
                          kernel/sched/topo_print.c $(BENCH_POLICY_TABLE_SRCS) $(MDESC_APPLY_SRCS) $(PARSE_SRCS)
# The variable table with the named policies that read it.
UNIT_SRCS_sched_vars   := $(ULE_TEST_SRCS) $(BENCH_POLICY_TABLE_SRCS) $(FORMAT_SRCS)
# --- end ---

# A test's sources: its own line, else the scheduler core for test_ule_* and test_hmp_*.
unit_srcs = $(or $(UNIT_SRCS_$(1)),$(if $(filter ule_% hmp_%,$(1)),$(ULE_TEST_SRCS)))

$(BUILD)/unit/test_%: tests/unit/test_%.c $$(call unit_srcs,$$*) $(HOST_HEADERS)
	@mkdir -p $(dir $@)
	gcc $(HOST_CFLAGS) -o $@ $(filter %.c,$^) -lcmocka
$(BUILD)/unit/test_ule_race $(BUILD)/unit/test_hmp_race: HOST_CFLAGS := $(filter-out -fsanitize=%,$(HOST_CFLAGS)) -fsanitize=thread -Wno-tsan -pthread
$(BUILD)/unit/test_bench_wl $(BUILD)/unit/test_bench_drv: HOST_CFLAGS += -pthread
$(BUILD)/unit/test_uvm: HOST_CFLAGS += $(UVM_HOST_FLAGS)
$(BUILD)/unit/test_uvm: tests/unit/host_sysctl.ld
