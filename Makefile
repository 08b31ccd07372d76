# Mosaic — top-level Makefile. Plain make, one file; see README.md.
#
# User variables:
#   MACHINE=  emulated machine: a preset name (machines/<name>.machine) or a
#             file path; default: i7-1370p. Format: docs/machines.md
#   SMP=      number of vCPUs (overrides the machine's `cpus`)
#   MEM=      guest memory, QEMU syntax (overrides the machine's `memory`)
#   RUN=      shell commands run at boot ("version; poweroff"); headless
#   CMDLINE=  extra kernel command line words
#   GUI=1     show the QEMU window (framebuffer console, PS/2 keyboard)
#   T=        with `make test`: run only tests whose name contains this
#   BENCH=    with `make bench`: the words after `bench` ("cpu --threads 4,6
#             --runs 6" or "sweep cpu ..."); BENCH_OUT= where its files go

MACHINE ?= i7-1370p
BUILD   := build
.DEFAULT_GOAL := all
VERSION := $(shell git describe --always --dirty 2>/dev/null || echo unknown)

.SECONDEXPANSION:

# The machine file sizes the VM and reaches the kernel through fw_cfg:
# tools/qemu-run.sh resolves and checks it with build/machine-info (a bad file
# stops here with its FILE:LINE) and takes `cpus` and `memory` from it unless
# SMP/MEM are given.
MACHINE_ARGS = --machine '$(MACHINE)' $(if $(SMP),--smp $(SMP)) $(if $(MEM),--mem $(MEM))

# ---------------------------------------------------------------- kernel
KCC      := gcc
# The emulated platform (kernel/emul/, its machine descriptions in
# kernel/emul/machine_desc/): the kernel, the host tests and the simulator.
EMUL_INC := -Ikernel/emul -Ikernel/emul/machine_desc
# kernel/arch/x86_64/ and its rooms (each room's README.md says what it owns).
ARCH_DIR := kernel/arch/x86_64
ARCH_INC := -I$(ARCH_DIR) -I$(ARCH_DIR)/intr -I$(ARCH_DIR)/clock -I$(ARCH_DIR)/acpi -I$(ARCH_DIR)/smp -I$(ARCH_DIR)/cpu -I$(ARCH_DIR)/trap
KCFLAGS  := -std=gnu17 -O2 -g -ffreestanding -fno-stack-protector -fno-pic -fno-pie \
            -mno-red-zone -mgeneral-regs-only -mcmodel=kernel -fno-omit-frame-pointer \
            -fno-asynchronous-unwind-tables -fno-tree-loop-distribute-patterns -Wall -Wextra -Werror \
            -Iinclude -Ikernel/include $(EMUL_INC) $(ARCH_INC) \
            -MMD -MP
NASMFLAGS := -f elf64 -g -F dwarf -w+all -w+error
KLDFLAGS := -nostdlib -static -z max-page-size=0x1000 -z noexecstack -T kernel/arch/x86_64/kernel.ld

KERNEL_C   := $(shell find kernel -name '*.c' | sort)
KERNEL_ASM := $(shell find kernel -name '*.asm' | sort)
KERNEL_OBJ := $(patsubst %.c,$(BUILD)/%.o,$(KERNEL_C)) $(patsubst %.asm,$(BUILD)/%.asm.o,$(KERNEL_ASM)) \
              $(BUILD)/fonts.o $(BUILD)/version.o $(BUILD)/kernel/user/elf_check.o

# The program loader (kernel/user/) checks user ELF files with the boot
# loader's own portable checks.
$(BUILD)/kernel/user/%.o: KCFLAGS += -Iboot
$(BUILD)/kernel/user/elf_check.o: boot/elf_check.c
	@mkdir -p $(dir $@)
	$(KCC) $(KCFLAGS) -c $< -o $@

$(BUILD)/kernel/%.o: kernel/%.c
	@mkdir -p $(dir $@)
	$(KCC) $(KCFLAGS) -c $< -o $@

$(BUILD)/kernel/%.asm.o: kernel/%.asm
	@mkdir -p $(dir $@)
	nasm $(NASMFLAGS) $< -o $@

# Version: rewritten only when `git describe` changes, so it is never stale
# and does not force rebuilds.
$(BUILD)/version.c: FORCE
	@mkdir -p $(BUILD)
	@printf 'const char mosaic_version[] = "%s";\nconst char mosaic_build_date[] = "%s";\n' \
	  "$(VERSION)" "$$(date -u +%Y-%m-%d)" > $@.tmp
	@if grep -qs '"$(VERSION)"' $@; then rm -f $@.tmp; else mv $@.tmp $@; fi

$(BUILD)/version.o: $(BUILD)/version.c
	$(KCC) $(KCFLAGS) -c $< -o $@

FORCE:

# Console fonts: PSF fonts from Debian's console-setup-linux, linked in as
# blobs (font16: 8x16, font24: 12x24, font32: 16x32; fbcon.c picks one by
# the screen's height or font=).
FONT_DIR := /usr/share/consolefonts
$(BUILD)/fonts.o: $(FONT_DIR)/Lat15-Terminus16.psf.gz $(FONT_DIR)/Lat15-Terminus24x12.psf.gz \
                 $(FONT_DIR)/Lat15-Terminus32x16.psf.gz
	@mkdir -p $(BUILD)
	gzip -dc $(FONT_DIR)/Lat15-Terminus16.psf.gz > $(BUILD)/font16.psf
	gzip -dc $(FONT_DIR)/Lat15-Terminus24x12.psf.gz > $(BUILD)/font24.psf
	gzip -dc $(FONT_DIR)/Lat15-Terminus32x16.psf.gz > $(BUILD)/font32.psf
	cd $(BUILD) && for f in font16 font24 font32; do objcopy -I binary -O elf64-x86-64 -B i386:x86-64 \
	  --rename-section .data=.rodata,alloc,load,readonly,data,contents $$f.psf $$f.o || exit 1; done
	cd $(BUILD) && ld -r -o fonts.o font16.o font24.o font32.o

# Symbols: link once with an empty table, generate it, link again. The table
# lives in the last section, so code addresses are equal in both links.
$(BUILD)/kernel.pass1.elf: $(KERNEL_OBJ) $(BUILD)/ksyms_empty.o kernel/arch/x86_64/kernel.ld
	ld $(KLDFLAGS) -o $@ $(KERNEL_OBJ) $(BUILD)/ksyms_empty.o

$(BUILD)/ksyms_empty.o: tools/gen-ksyms.sh
	@mkdir -p $(BUILD)
	tools/gen-ksyms.sh /dev/null > $(BUILD)/ksyms_empty.asm
	nasm $(NASMFLAGS) $(BUILD)/ksyms_empty.asm -o $@

$(BUILD)/ksyms.o: $(BUILD)/kernel.pass1.elf tools/gen-ksyms.sh
	tools/gen-ksyms.sh $< > $(BUILD)/ksyms.asm
	nasm $(NASMFLAGS) $(BUILD)/ksyms.asm -o $@

$(BUILD)/kernel.elf: $(BUILD)/ksyms.o
	ld $(KLDFLAGS) -o $@ $(KERNEL_OBJ) $(BUILD)/ksyms.o
	tools/check-ksyms.sh $(BUILD)/kernel.pass1.elf $@

# ---------------------------------------------------------------- userland
# User programs (docs/userland.md): userland/lib/ is the C library (with the
# kernel's formatter and memory/string functions, kernel/lib/format.c and
# string.c), each userland/bin/NAME.c one static program linked by
# userland/user.ld; the boot archive build/userland.cpio holds them and
# userland/etc/*, and the loader loads it as a module. Built without SSE code
# like the kernel (a program may still use the registers: each user thread
# has its own, docs/userland.md).
UCFLAGS := -std=gnu17 -O2 -g -ffreestanding -fno-stack-protector -fno-pic -fno-pie \
           -mgeneral-regs-only -fno-omit-frame-pointer -fno-asynchronous-unwind-tables \
           -fno-tree-loop-distribute-patterns -Wall -Wextra -Werror \
           -Iuserland/include -Iuserland/lib -Iinclude -MMD -MP
ULDFLAGS := -nostdlib -static -z max-page-size=0x1000 -z noexecstack -T userland/user.ld
ULIB_OBJ := $(patsubst %.c,$(BUILD)/%.o,$(sort $(wildcard userland/lib/*.c))) \
            $(BUILD)/userland/lib/format.o $(BUILD)/userland/lib/kstring.o
UPROGS   := $(patsubst userland/bin/%.c,$(BUILD)/userland/bin/%,$(sort $(wildcard userland/bin/*.c)))
UFILES   := $(sort $(wildcard userland/etc/*))

$(BUILD)/userland/%.o: userland/%.c
	@mkdir -p $(dir $@)
	gcc $(UCFLAGS) -c $< -o $@

$(BUILD)/userland/lib/format.o: kernel/lib/format.c
	@mkdir -p $(dir $@)
	gcc $(UCFLAGS) -c $< -o $@
$(BUILD)/userland/lib/kstring.o: kernel/lib/string.c
	@mkdir -p $(dir $@)
	gcc $(UCFLAGS) -c $< -o $@

$(BUILD)/userland/bin/%: $(BUILD)/userland/bin/%.o $(ULIB_OBJ) userland/user.ld
	ld $(ULDFLAGS) -o $@ $< $(ULIB_OBJ) $$(gcc -print-libgcc-file-name)

$(BUILD)/userland.cpio: $(UPROGS) $(UFILES) tools/make-archive.py
	tools/make-archive.py $@ $(UPROGS) $(UFILES)

# The objects stay (make would delete them as intermediates and relink).
.SECONDARY: $(ULIB_OBJ) $(UPROGS:%=%.o)

# ---------------------------------------------------------------- loader
EFI_INC    := /usr/include/efi
EFI_CFLAGS := -std=gnu17 -O2 -fpic -fshort-wchar -fno-stack-protector -fno-strict-aliasing \
              -ffreestanding -mno-red-zone -maccumulate-outgoing-args -DGNU_EFI_USE_MS_ABI \
              -I$(EFI_INC) -I$(EFI_INC)/x86_64 -Iinclude -Wall -Wextra -Werror -MMD -MP
EFI_LDFLAGS := -nostdlib -znocombreloc -shared -Bsymbolic -T /usr/lib/elf_x86_64_efi.lds
LOADER_C   := $(shell find boot -name '*.c' | sort)
LOADER_OBJ := $(patsubst %.c,$(BUILD)/%.o,$(LOADER_C))

$(BUILD)/boot/%.o: boot/%.c
	@mkdir -p $(dir $@)
	gcc $(EFI_CFLAGS) -c $< -o $@

$(BUILD)/loader.so: $(LOADER_OBJ)
	ld $(EFI_LDFLAGS) /usr/lib/crt0-efi-x86_64.o $(LOADER_OBJ) -L/usr/lib -lefi -lgnuefi -o $@

$(BUILD)/BOOTX64.EFI: $(BUILD)/loader.so
	objcopy -j .text -j .sdata -j .data -j .rodata -j .dynamic -j .dynsym -j .rel -j .rela \
	  -j .rel.* -j .rela.* -j .reloc --target efi-app-x86_64 --subsystem=10 $< $@

# ---------------------------------------------------------------- images
DEFAULT_CMDLINE :=
$(BUILD)/esp.img: $(BUILD)/BOOTX64.EFI $(BUILD)/kernel.elf $(BUILD)/userland.cpio tools/make-esp.sh
	tools/make-esp.sh $@ $(BUILD)/BOOTX64.EFI $(BUILD)/kernel.elf "$(DEFAULT_CMDLINE)" \
	  $(BUILD)/userland.cpio

$(BUILD)/mosaic.iso: $(BUILD)/esp.img iso/grub.cfg tools/make-iso.sh
	tools/make-iso.sh $@ $(BUILD)/esp.img iso/grub.cfg

# ---------------------------------------------------------------- host unit tests
HOST_CFLAGS := -std=gnu17 -O1 -g -Wall -Wextra -Werror -Iinclude -Ikernel/include $(EMUL_INC) -DMOSAIC_HOST \
               -fsanitize=address,undefined -fno-omit-frame-pointer
# Each unit test: tests/unit/test_<name>.c plus the kernel sources it covers.
UNIT_TESTS := $(patsubst tests/unit/test_%.c,%,$(wildcard tests/unit/test_*.c))
# --- sources under test (one line per test) ---
UNIT_SRCS_cmdline := kernel/lib/cmdline.c kernel/lib/cmdline_keys.c kernel/lib/strbuf.c kernel/lib/parse.c \
                     kernel/lib/format.c
UNIT_SRCS_format  := kernel/lib/format.c
UNIT_SRCS_sysctl  := kernel/lib/sysctl.c kernel/lib/format.c kernel/lib/parse.c kernel/lib/strbuf.c
UNIT_SRCS_lineedit:= kernel/shell/lineedit.c kernel/lib/format.c
UNIT_SRCS_shell_words := kernel/shell/shell_words.c
UNIT_SRCS_cpulist := kernel/lib/cpulist.c kernel/lib/parse.c kernel/lib/format.c
UNIT_SRCS_heap    := kernel/mm/heap.c
UNIT_SRCS_pmm     := kernel/mm/pmm.c kernel/mm/pmm_map.c
UNIT_SRCS_parse   := kernel/lib/parse.c kernel/lib/format.c
UNIT_SRCS_ratelimit := kernel/lib/ratelimit.c
UNIT_SRCS_strbuf  := kernel/lib/strbuf.c kernel/lib/parse.c kernel/lib/format.c
UNIT_SRCS_witness := $(ARCH_DIR)/witness.c
UNIT_SRCS_keymap  := kernel/dev/keymap.c
UNIT_SRCS_hid_kbd := kernel/dev/usb/hid_kbd.c kernel/dev/keymap.c
UNIT_SRCS_usb_desc := kernel/dev/usb/usb_desc.c kernel/lib/format.c
XHCI_TEST_SRCS := kernel/dev/usb/xhci_ring.c kernel/dev/usb/xhci_dev.c tests/unit/xhci_fake.c \
                  tests/unit/xhci_fake_ep.c tests/unit/xhci_fake_model.c
UNIT_SRCS_xhci := $(XHCI_TEST_SRCS)
UNIT_SRCS_pci_mcfg := kernel/dev/pci_mcfg.c kernel/lib/format.c
UNIT_SRCS_acpi_madt := $(ARCH_DIR)/acpi/acpi_madt.c
UNIT_SRCS_clock_choice := $(ARCH_DIR)/clock/clock_choice.c
UNIT_SRCS_pmtimer_fadt := $(ARCH_DIR)/clock/pmtimer_fadt.c
UNIT_SRCS_psf     := kernel/dev/psf.c
TOPO_SRCS := kernel/sched/topo_build.c kernel/sched/topo_kind.c kernel/sched/topo_freebsd.c \
             kernel/sched/topo_freebsd_probe.c
UNIT_SRCS_topo    := $(TOPO_SRCS) kernel/sched/topo_print.c kernel/sched/topo_spec.c
# The emulated machines' descriptions (kernel/emul/machine_desc/, portable).
MDESC := kernel/emul/machine_desc
UNIT_SRCS_machine_parse := $(MDESC)/machine_parse.c $(MDESC)/machine_check.c $(MDESC)/machine_values.c \
                           $(MDESC)/machine_apply.c $(MDESC)/machine_hfi.c $(MDESC)/machine_power.c \
                           $(MDESC)/machine_layout.c $(MDESC)/machine_class_speed.c \
                           kernel/lib/itd_names.c kernel/lib/format.c
UNIT_SRCS_itd_hist := kernel/lib/itd_hist.c
UNIT_SRCS_workclock := kernel/emul/emul_workclock_model.c kernel/emul/emul_workclock_energy.c \
                       kernel/emul/emul_workclock_speed.c $(UNIT_SRCS_machine_parse)
UNIT_SRCS_cpuid_decode := $(ARCH_DIR)/cpu/cpuid_decode.c $(ARCH_DIR)/cpu/cpuid_layout.c \
                          $(ARCH_DIR)/cpu/cpuid_amd.c \
                          kernel/lib/format.c tools/cpuid-replay/dump.c \
                          tools/cpuid-replay/dump_check.c
UNIT_SRCS_cpuid_amd := $(UNIT_SRCS_cpuid_decode)
UNIT_SRCS_cpuid_replay := $(UNIT_SRCS_cpuid_decode) tools/cpuid-replay/replay.c kernel/sched/topo_build.c \
                          kernel/sched/topo_freebsd.c kernel/sched/topo_freebsd_probe.c
# The FreeBSD-compatible tree from real dumps, machine descriptions and
# generated machines (sim/sim_gen.c).
UNIT_SRCS_topo_freebsd := $(UNIT_SRCS_topo) $(UNIT_SRCS_cpuid_replay) $(UNIT_SRCS_machine_parse) \
                          sim/sim_gen.c sim/sim_machine.c sim/sim_random.c
UNIT_SRCS_elf_check := boot/elf_check.c
UNIT_SRCS_uelf    := boot/elf_check.c kernel/user/uelf_rules.c
UNIT_SRCS_ucheck  := kernel/user/ucheck.c
UNIT_SRCS_uargs   := kernel/user/uargs.c kernel/user/ucheck.c
UNIT_SRCS_archive := kernel/user/archive.c kernel/lib/format.c
# Address spaces on the host machine of tests/unit/uvm_host.h, with their
# reference model; limits set through the sysctls (tests/unit/host_sysctl.ld).
UVM_HOST_SRCS := kernel/user/uvm.c kernel/user/uvm_map.c kernel/user/uvm_stack.c kernel/user/ulimit.c \
                 kernel/lib/sysctl.c kernel/lib/parse.c kernel/lib/format.c kernel/lib/strbuf.c \
                 tests/unit/host_sysctl.c tests/unit/uvm_host.c tests/unit/uvm_walk.c \
                 tests/unit/uvm_model.c tests/unit/limit_model.c
UVM_HOST_FLAGS := -Ikernel/user $(ARCH_INC) -Itests/unit -Wl,-T,tests/unit/host_sysctl.ld
UNIT_SRCS_uvm     := $(UVM_HOST_SRCS)
UNIT_SRCS_video := boot/video.c
ULE_TEST_SRCS := $(sort $(wildcard kernel/sched/ule_*.c)) kernel/sched/hmp.c kernel/sched/hmp_search.c \
                 kernel/sched/sched_vars.c kernel/sched/topo_build.c \
                 tests/unit/sched_plat_test.c
UNIT_SRCS_ule_interact := $(ULE_TEST_SRCS)
UNIT_SRCS_ule_runq     := $(ULE_TEST_SRCS)
UNIT_SRCS_ule_search   := $(ULE_TEST_SRCS)
UNIT_SRCS_ule_pickcpu  := $(ULE_TEST_SRCS)
UNIT_SRCS_ule_balance  := $(ULE_TEST_SRCS)
UNIT_SRCS_ule_wakeup   := $(ULE_TEST_SRCS)
UNIT_SRCS_ule_hmp      := $(ULE_TEST_SRCS)
UNIT_SRCS_ule_upmigrate := $(ULE_TEST_SRCS)
UNIT_SRCS_ule_upmigrate_rule := $(ULE_TEST_SRCS)
UNIT_SRCS_ule_sync := $(ULE_TEST_SRCS)
UNIT_SRCS_hmp_regimes  := $(ULE_TEST_SRCS)
UNIT_SRCS_hmp_itd      := $(ULE_TEST_SRCS)
UNIT_SRCS_hmp_interact := $(ULE_TEST_SRCS)
UNIT_SRCS_hmp_perf0   := $(ULE_TEST_SRCS)
UNIT_SRCS_hmp          := kernel/sched/hmp.c kernel/sched/hmp_describe.c tests/unit/sched_plat_test.c
UNIT_SRCS_hmp_race     := kernel/sched/hmp.c tests/unit/sched_plat_mt.c
# The race test runs the core on pthreads (sched_plat_mt.c) under ThreadSanitizer.
UNIT_SRCS_ule_race     := $(filter-out tests/unit/sched_plat_test.c,$(ULE_TEST_SRCS)) tests/unit/sched_plat_mt.c
HFI_TEST_SRCS := kernel/arch/x86_64/hfi/hfi_table.c kernel/arch/x86_64/hfi/hfi_start.c \
                 kernel/arch/x86_64/hfi/hfi_event.c kernel/arch/x86_64/hfi/hfi_publish.c \
                 tests/unit/hfi_fake.c kernel/lib/format.c
UNIT_SRCS_hfi_start := $(HFI_TEST_SRCS)
UNIT_SRCS_hfi_event := $(HFI_TEST_SRCS)
# The reporting core (no runtime); the workloads and the driver add the
# benchmark runtime, on the host tests/unit/bench_rt_host.c (POSIX threads).
BENCH_DRV_SRCS := kernel/bench/bench_wl.c kernel/bench/bench_drv.c kernel/bench/bench_drv_report.c \
                  kernel/bench/bench_drv_energy.c \
                  kernel/bench/bench_barrier.c $(sort $(wildcard kernel/bench/wl_*.c))
# The named policies (bench_policy*.c) go with the scheduler's variable table.
BENCH_SRCS := $(filter-out kernel/bench/bench_rt_kernel.c kernel/bench/bench_policy%.c $(BENCH_DRV_SRCS),$(sort $(wildcard kernel/bench/*.c))) \
              kernel/lib/strbuf.c kernel/lib/format.c
BENCH_WL_SRCS := $(BENCH_SRCS) $(BENCH_DRV_SRCS) kernel/lib/parse.c tests/unit/bench_rt_host.c
UNIT_SRCS_bench_stats  := $(BENCH_SRCS) tests/unit/seed_table.c
UNIT_SRCS_bench_table  := $(BENCH_SRCS) tests/unit/seed_table.c
UNIT_SRCS_bench_wl     := $(BENCH_WL_SRCS)
UNIT_SRCS_bench_drv    := $(BENCH_WL_SRCS)
UNIT_SRCS_sim_policy   := sim/sim_policy.c sim/sim_random.c sim/sim_machine.c $(ULE_TEST_SRCS) $(TOPO_SRCS) \
                          kernel/sched/topo_print.c kernel/bench/bench_policy_table.c \
                          $(UNIT_SRCS_machine_parse) kernel/lib/parse.c
# The variable table with the named policies that read it.
UNIT_SRCS_sched_vars   := $(ULE_TEST_SRCS) kernel/bench/bench_policy_table.c kernel/lib/format.c
# --- end ---

UNIT_HEADERS := $(shell find include kernel tests/unit -name '*.h')
$(BUILD)/unit/test_%: tests/unit/test_%.c $$(UNIT_SRCS_$$*) $(UNIT_HEADERS)
	@mkdir -p $(dir $@)
	gcc $(HOST_CFLAGS) -o $@ $(filter %.c,$^) -lcmocka
$(BUILD)/unit/test_cpuid_decode $(BUILD)/unit/test_cpuid_amd: HOST_CFLAGS += $(ARCH_INC) -Itools/cpuid-replay
$(BUILD)/unit/test_cpuid_replay: HOST_CFLAGS += $(ARCH_INC) -Itools/cpuid-replay -Ikernel/sched
$(BUILD)/unit/test_cpuid_decode $(BUILD)/unit/test_cpuid_amd $(BUILD)/unit/test_cpuid_replay: $(wildcard tools/cpuid-replay/*.h)
$(BUILD)/unit/test_topo_freebsd: HOST_CFLAGS += $(ARCH_INC) -Itools/cpuid-replay -Ikernel/sched -Isim
$(BUILD)/unit/test_topo_freebsd: $(wildcard tools/cpuid-replay/*.h) $(wildcard sim/*.h)
$(BUILD)/unit/test_witness $(BUILD)/unit/test_acpi_madt $(BUILD)/unit/test_clock_choice \
$(BUILD)/unit/test_pmtimer_fadt: HOST_CFLAGS += $(ARCH_INC)
$(BUILD)/unit/test_hfi_start $(BUILD)/unit/test_hfi_event: HOST_CFLAGS += $(ARCH_INC)
$(BUILD)/unit/test_ule_race $(BUILD)/unit/test_hmp_race: HOST_CFLAGS := $(filter-out -fsanitize=%,$(HOST_CFLAGS)) -fsanitize=thread -Wno-tsan -pthread
$(BUILD)/unit/test_elf_check $(BUILD)/unit/test_video: HOST_CFLAGS += -Iboot
$(BUILD)/unit/test_bench_stats $(BUILD)/unit/test_bench_table: HOST_CFLAGS += -Ikernel/bench
$(BUILD)/unit/test_bench_wl $(BUILD)/unit/test_bench_drv: HOST_CFLAGS += -Ikernel/bench -Itests/unit -pthread
$(BUILD)/unit/test_sim_policy: HOST_CFLAGS += -Isim -Ikernel/sched -Ikernel/bench
$(BUILD)/unit/test_sched_vars: HOST_CFLAGS += -Ikernel/sched -Ikernel/bench
$(BUILD)/unit/test_elf_check: boot/elf_check.h boot/elf.h
$(BUILD)/unit/test_uelf $(BUILD)/unit/test_ucheck $(BUILD)/unit/test_uargs $(BUILD)/unit/test_archive: \
  HOST_CFLAGS += -Iboot -Ikernel/user
$(BUILD)/unit/test_uvm: HOST_CFLAGS += $(UVM_HOST_FLAGS)
$(BUILD)/unit/test_uvm: tests/unit/host_sysctl.ld

# ---------------------------------------------------------------- fuzz harnesses
# tests/fuzz/fuzz_<name>.c (framework: tests/fuzz/fuzz.h) plus the sources it
# covers, built with ASan+UBSan that stop at the first error. `make test`
# runs each for FUZZ_TEST_ITER iterations; `make fuzz` for FUZZ_ITER.
FUZZ_CFLAGS := $(HOST_CFLAGS) -fno-sanitize-recover=all -Itests/fuzz
FUZZ_NAMES  := $(patsubst tests/fuzz/fuzz_%.c,%,$(wildcard tests/fuzz/fuzz_*.c))
FUZZ_BINS   := $(addprefix $(BUILD)/fuzz/fuzz_,$(FUZZ_NAMES))
FUZZ_TEST_ITER ?= 20000
FUZZ_ITER ?= 2000000
FUZZ_SEED ?= 1
# --- sources under fuzzing (one line per harness) ---
FUZZ_SRCS_parse := kernel/lib/parse.c kernel/lib/format.c
FUZZ_SRCS_elf := boot/elf_check.c kernel/user/uelf_rules.c
FUZZ_SRCS_archive := kernel/user/archive.c kernel/lib/format.c
FUZZ_SRCS_uargs := kernel/user/uargs.c kernel/user/ucheck.c
FUZZ_SRCS_cpuid_dump := $(UNIT_SRCS_cpuid_replay)
FUZZ_SRCS_machine := $(MDESC)/machine_parse.c $(MDESC)/machine_check.c $(MDESC)/machine_values.c \
                     $(MDESC)/machine_apply.c $(MDESC)/machine_hfi.c $(MDESC)/machine_power.c \
                     $(MDESC)/machine_layout.c $(MDESC)/machine_class_speed.c kernel/lib/itd_names.c \
                     kernel/lib/format.c kernel/sched/topo_build.c
FUZZ_SRCS_lineedit := kernel/shell/lineedit.c kernel/lib/format.c
FUZZ_SRCS_shell_words := kernel/shell/shell_words.c
FUZZ_SRCS_cpulist := kernel/lib/cpulist.c kernel/lib/parse.c kernel/lib/format.c
FUZZ_SRCS_cmdline := kernel/lib/cmdline.c kernel/lib/cmdline_keys.c kernel/lib/strbuf.c kernel/lib/parse.c \
                     kernel/lib/format.c
FUZZ_SRCS_hfi_table := $(HFI_TEST_SRCS)
FUZZ_SRCS_bench_stats := $(BENCH_SRCS)
FUZZ_SRCS_hid_kbd := kernel/dev/usb/hid_kbd.c
FUZZ_SRCS_usb_desc := kernel/dev/usb/usb_desc.c kernel/lib/format.c
FUZZ_SRCS_xhci := $(XHCI_TEST_SRCS)
FUZZ_SRCS_pci_mcfg := kernel/dev/pci_mcfg.c kernel/lib/format.c
FUZZ_SRCS_acpi_madt := $(ARCH_DIR)/acpi/acpi_madt.c
FUZZ_SRCS_pmtimer_fadt := $(ARCH_DIR)/clock/pmtimer_fadt.c
FUZZ_SRCS_bench_plan := $(BENCH_WL_SRCS)
FUZZ_SRCS_video := boot/video.c
FUZZ_SRCS_uvm := $(UVM_HOST_SRCS)
FUZZ_SRCS_uelf := $(UVM_HOST_SRCS) kernel/user/uelf.c kernel/user/uelf_rules.c boot/elf_check.c
FUZZ_SRCS_syscall := $(UVM_HOST_SRCS) kernel/user/handle.c kernel/user/svc.c kernel/user/ipc.c \
                     kernel/user/sys_vm.c kernel/user/ucheck.c kernel/user/ujob.c tests/unit/user_host.c
# --- end ---
# --- compiler flags of a harness beyond FUZZ_CFLAGS (one line per harness that has some) ---
FUZZ_FLAGS_elf := -Iboot -Ikernel/user
FUZZ_FLAGS_video := -Iboot
FUZZ_FLAGS_archive := -Ikernel/user -Itests/unit
FUZZ_FLAGS_uargs := -Ikernel/user -Itests/unit
FUZZ_FLAGS_machine := -Ikernel/sched
FUZZ_FLAGS_cpuid_dump := -Ikernel/sched $(ARCH_INC) -Itools/cpuid-replay
FUZZ_FLAGS_hfi_table := -Itests/unit $(ARCH_INC)
FUZZ_FLAGS_bench_stats := -Ikernel/bench -lm
FUZZ_FLAGS_acpi_madt := $(ARCH_INC)
FUZZ_FLAGS_pmtimer_fadt := $(ARCH_INC)
FUZZ_FLAGS_bench_plan := -Ikernel/bench -Itests/unit -pthread
FUZZ_FLAGS_xhci := -Itests/unit
FUZZ_FLAGS_uvm := $(UVM_HOST_FLAGS)
FUZZ_FLAGS_uelf := $(UVM_HOST_FLAGS) -Iboot
FUZZ_FLAGS_syscall := $(UVM_HOST_FLAGS)
# --- end ---
FUZZ_HEADERS := $(UNIT_HEADERS) $(wildcard tests/fuzz/*.h boot/*.h tools/cpuid-replay/*.h) tests/unit/host_sysctl.ld
$(BUILD)/fuzz/fuzz_%: tests/fuzz/fuzz_%.c $$(FUZZ_SRCS_$$*) $(FUZZ_HEADERS)
	@mkdir -p $(dir $@)
	gcc $(FUZZ_CFLAGS) $(FUZZ_FLAGS_$*) -o $@ $(filter %.c,$^)

# ---------------------------------------------------------------- libFuzzer harnesses
# The same harnesses as libFuzzer targets (fuzz.h with -DFUZZ_LIBFUZZER: the
# input's bytes are the random numbers), built by clang with ASan+UBSan:
# build/libfuzz/fuzz_<name>. Each has a small corpus, tests/fuzz/corpus/<name>/,
# which `make test` replays; `make fuzz` fuzzes each for LIBFUZZ_TIME seconds
# from a copy of it in build/libfuzz-corpus/<name>/ (docs/testing.md, "Fuzzing").
# build/libfuzz-cov/fuzz_<name> is the same with coverage instead of the
# sanitizers, for `make fuzz-coverage`.
# (clang, unlike gcc, warns about positional struct initializers that leave
# the last fields zero, as kernel/user/ulimit.c's table does on purpose.)
LIBFUZZ_CFLAGS := $(filter-out -fsanitize=%,$(FUZZ_CFLAGS)) -Wno-missing-field-initializers -DFUZZ_LIBFUZZER
LIBFUZZ_SANITIZE := -fsanitize=fuzzer,address,undefined -fsanitize-ignorelist=tests/fuzz/libfuzz_asan_ignore.txt
LIBFUZZ_BINS := $(addprefix $(BUILD)/libfuzz/fuzz_,$(FUZZ_NAMES))
LIBFUZZ_COV_BINS := $(addprefix $(BUILD)/libfuzz-cov/fuzz_,$(FUZZ_NAMES))
LIBFUZZ_TIME ?= 20
LIBFUZZ_JOBS ?= 2
LIBFUZZ_EMPTY :=
LIBFUZZ_SPACE := $(LIBFUZZ_EMPTY) $(LIBFUZZ_EMPTY)
$(BUILD)/libfuzz/fuzz_%: tests/fuzz/fuzz_%.c $$(FUZZ_SRCS_$$*) $(FUZZ_HEADERS) tests/fuzz/libfuzz_asan_ignore.txt
	@mkdir -p $(dir $@)
	clang $(LIBFUZZ_CFLAGS) $(LIBFUZZ_SANITIZE) $(FUZZ_FLAGS_$*) -o $@ $(filter %.c,$^)
$(BUILD)/libfuzz-cov/fuzz_%: tests/fuzz/fuzz_%.c $$(FUZZ_SRCS_$$*) $(FUZZ_HEADERS)
	@mkdir -p $(dir $@)
	clang $(LIBFUZZ_CFLAGS) -fsanitize=fuzzer -fprofile-instr-generate -fcoverage-mapping $(FUZZ_FLAGS_$*) \
	  -o $@ $(filter %.c,$^)

# ---------------------------------------------------------------- host helpers of tests/host/
# build/host/bench_stats_cli: the kernel's benchmark statistics and report on
# the host, for the Python tests tests/host/test_bench_*.py.
BENCH_CLI_SRCS := tests/host/bench_stats_cli.c tests/unit/seed_table.c $(BENCH_SRCS)
$(BUILD)/host/bench_stats_cli: $(BENCH_CLI_SRCS) $(UNIT_HEADERS)
	@mkdir -p $(dir $@)
	gcc $(HOST_CFLAGS) -Ikernel/bench -Itests/unit -o $@ $(BENCH_CLI_SRCS)

# ---------------------------------------------------------------- host replay of CPUID dumps
# build/cpuid-replay DUMP...: the kernel's CPU enumeration and topology builder
# run on an InstLatx64 CPUID dump (docs/cpuid.md).
CPUID_REPLAY_SRCS := $(wildcard tools/cpuid-replay/*.c) $(ARCH_DIR)/cpu/cpuid_decode.c \
                     $(ARCH_DIR)/cpu/cpuid_layout.c $(ARCH_DIR)/cpu/cpuid_amd.c \
                     kernel/lib/format.c $(wildcard kernel/sched/topo*.c)
$(BUILD)/cpuid-replay: $(CPUID_REPLAY_SRCS) $(UNIT_HEADERS) $(wildcard tools/cpuid-replay/*.h)
	@mkdir -p $(dir $@)
	gcc $(HOST_CFLAGS) $(ARCH_INC) -Ikernel/sched -o $@ $(CPUID_REPLAY_SRCS)

# ---------------------------------------------------------------- host view of machine descriptions
# build/machine-info MACHINE: resolves a preset name or file, parses and checks
# it with the kernel's own code and prints what QEMU needs (docs/machines.md).
MACHINE_INFO_SRCS := $(wildcard tools/machine-info/*.c) $(MDESC)/machine_parse.c $(MDESC)/machine_check.c \
                     $(MDESC)/machine_values.c $(MDESC)/machine_hfi.c $(MDESC)/machine_power.c \
                     $(MDESC)/machine_class_speed.c kernel/lib/itd_names.c kernel/lib/format.c
$(BUILD)/machine-info: $(MACHINE_INFO_SRCS) $(UNIT_HEADERS)
	@mkdir -p $(dir $@)
	gcc $(HOST_CFLAGS) -o $@ $(MACHINE_INFO_SRCS)

# ---------------------------------------------------------------- schedsim (docs/sim.md)
# build/schedsim: the kernel's scheduler (every kernel/sched/*.c, as the kernel
# links them) on simulated machines. kernel/sched/ is compiled with the cost
# hook sim/sim_cost.h forced in; build/sim-nocost/schedsim is the same without
# it (tests/host/test_sim.py checks that both print the same). The link map
# build/sim/schedsim.map shows which objects went in.
SIM_CFLAGS := -std=gnu17 -O2 -g -Wall -Wextra -Werror -Iinclude -Ikernel/include $(EMUL_INC) \
              -Ikernel/sched -Ikernel/bench -Isim -Itests/unit -DMOSAIC_HOST -MMD -MP
SIM_LDFLAGS := -Wl,--wrap=sched_pickcpu -Wl,--wrap=sched_balance
SIM_SCHED_SRCS := $(sort $(wildcard kernel/sched/*.c))
SIM_OTHER_SRCS := $(sort $(wildcard sim/*.c) $(wildcard tests/sim/wl_*.c) tests/unit/seed_table.c \
                  kernel/emul/emul_workclock_model.c kernel/emul/emul_workclock_energy.c \
                  kernel/emul/emul_workclock_speed.c $(MDESC)/machine_hmp.c \
                  $(UNIT_SRCS_machine_parse) \
                  $(BENCH_SRCS) $(BENCH_DRV_SRCS) kernel/bench/bench_policy_table.c kernel/lib/parse.c)
SIM_OTHER_OBJ := $(patsubst %.c,$(BUILD)/sim/%.o,$(SIM_OTHER_SRCS))

$(BUILD)/sim/kernel/sched/%.o: kernel/sched/%.c
	@mkdir -p $(dir $@)
	gcc $(SIM_CFLAGS) -include sim/sim_cost.h -c $< -o $@
$(BUILD)/sim-nocost/kernel/sched/%.o: kernel/sched/%.c
	@mkdir -p $(dir $@)
	gcc $(SIM_CFLAGS) -c $< -o $@
$(BUILD)/sim/%.o: %.c
	@mkdir -p $(dir $@)
	gcc $(SIM_CFLAGS) -c $< -o $@

$(BUILD)/sim/sim/sim_clock.o: SIM_CFLAGS := $(filter-out -Ikernel/include,$(SIM_CFLAGS))

$(BUILD)/schedsim: $(patsubst %.c,$(BUILD)/sim/%.o,$(SIM_SCHED_SRCS)) $(SIM_OTHER_OBJ)
	gcc -o $@ $^ $(SIM_LDFLAGS) -Wl,-Map=$(BUILD)/sim/schedsim.map
$(BUILD)/sim-nocost/schedsim: $(patsubst %.c,$(BUILD)/sim-nocost/%.o,$(SIM_SCHED_SRCS)) $(SIM_OTHER_OBJ)
	gcc -o $@ $^ $(SIM_LDFLAGS)

# ---------------------------------------------------------------- targets
# Public targets first install missing tools (tools/deps.sh), then build.
UNIT_BINS := $(addprefix $(BUILD)/unit/test_,$(UNIT_TESTS))
.PHONY: all deps run-qemu debug iso test fuzz fuzz-merge fuzz-coverage bench sim properties clean build-kernel build-iso \
        build-test FORCE

all: deps
	@$(MAKE) --no-print-directory build-kernel

deps:
	@tools/deps.sh

build-kernel: $(BUILD)/esp.img
build-iso: $(BUILD)/mosaic.iso
build-test: $(BUILD)/esp.img $(BUILD)/mosaic.iso $(UNIT_BINS) $(FUZZ_BINS) $(LIBFUZZ_BINS)
build-kernel: $(BUILD)/cpuid-replay $(BUILD)/machine-info
build-test: $(BUILD)/cpuid-replay $(BUILD)/machine-info $(BUILD)/host/bench_stats_cli
build-test: $(BUILD)/schedsim $(BUILD)/sim-nocost/schedsim

iso: deps
	@$(MAKE) --no-print-directory build-iso

# The simulator needs only the host compiler.
sim: $(BUILD)/schedsim

# The long property run (docs/sim.md, "Property run"): N generated machines
# from SEED, every workload; PROPS_ARGS adds schedsim options (e.g.
# "--sysctl kern.sched.hmp.perf0=ee0-never", "--workload cpu,make"). Its report
# goes to stdout, the time it took to stderr; exit status 1 when a property
# failed.
N ?= 2000
SEED ?= 1
properties: $(BUILD)/schedsim
	$(BUILD)/schedsim --properties $(N) --seed $(SEED) $(PROPS_ARGS)

# RUN and CMDLINE reach the runner through the environment, so any quoting
# inside them survives the shell.
run-qemu debug: export MOSAIC_RUN := $(RUN)
run-qemu debug: export MOSAIC_CMDLINE := $(CMDLINE)
run-qemu: all
	tools/qemu-run.sh --esp $(BUILD)/esp.img $(MACHINE_ARGS) \
	  $(if $(RUN),--run "$$MOSAIC_RUN") $(if $(CMDLINE),--cmdline "$$MOSAIC_CMDLINE") $(if $(GUI),--gui)

debug: all
	@tools/deps.sh gdb
	tools/qemu-run.sh --esp $(BUILD)/esp.img $(MACHINE_ARGS) \
	  --debug $(BUILD)/kernel.elf $(if $(CMDLINE),--cmdline "$$MOSAIC_CMDLINE") $(if $(GUI),--gui)

# The build uses every host CPU; TEST_JOBS QEMU test modules run at once.
TEST_JOBS ?= 2
test: deps
	@$(MAKE) --no-print-directory -j$$(nproc) build-test
	@python3 tests/run_all.py --build $(BUILD) --unit "$(UNIT_BINS)" \
	  --fuzz "$(FUZZ_BINS)" --fuzz-iter $(FUZZ_TEST_ITER) --libfuzz "$(LIBFUZZ_BINS)" \
	  -j $(TEST_JOBS) $(if $(T),-k "$(T)")

# One benchmark plan, headless: `bench $(BENCH)` in the shell, the serial log
# and the CSV/PNG files of its CSV blocks in $(BENCH_OUT) (docs/bench.md).
BENCH_OUT ?= $(BUILD)/bench
bench: export MOSAIC_BENCH := $(BENCH)
bench: export MOSAIC_CMDLINE := $(CMDLINE)
bench: all
	tools/bench-run.sh --out $(BENCH_OUT) --esp $(BUILD)/esp.img $(MACHINE_ARGS) \
	  $(if $(CMDLINE),--cmdline "$$MOSAIC_CMDLINE")

# Every fuzz harness for FUZZ_ITER iterations from seed FUZZ_SEED, then
# each under libFuzzer for LIBFUZZ_TIME seconds, LIBFUZZ_JOBS at once,
# from its scratch corpus build/libfuzz-corpus/NAME/ (tools/libfuzz.py;
# the committed corpus is not touched: `make fuzz-merge` adds what is new).
fuzz: deps
	@$(MAKE) --no-print-directory $(FUZZ_BINS) $(LIBFUZZ_BINS)
	@set -e; for b in $(FUZZ_BINS); do $$b --seed $(FUZZ_SEED) --iterations $(FUZZ_ITER); done
	@tools/libfuzz.py --build $(BUILD) -j $(LIBFUZZ_JOBS) run $(LIBFUZZ_TIME) $(FUZZ_NAMES)

# The scratch inputs that reach code the committed corpus does not, added to it.
fuzz-merge: deps
	@$(MAKE) --no-print-directory $(LIBFUZZ_BINS)
	@tools/libfuzz.py --build $(BUILD) merge $(FUZZ_NAMES)

# Lines of each source under fuzzing reached by the committed corpus.
fuzz-coverage: deps
	@$(MAKE) --no-print-directory $(LIBFUZZ_COV_BINS)
	@tools/libfuzz.py --build $(BUILD) coverage \
	  $(foreach n,$(FUZZ_NAMES),$(n):$(subst $(LIBFUZZ_SPACE),:,$(strip $(filter-out tests/%,$(FUZZ_SRCS_$(n))))))

clean:
	rm -rf $(BUILD)

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
