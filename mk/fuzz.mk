# SPDX-License-Identifier: BSD-2-Clause
# mk/fuzz.mk — the fuzz harnesses (docs/testing.md, "Fuzzing"):
# tests/fuzz/fuzz_NAME.c (framework: tests/fuzz/fuzz.h) plus the sources it
# covers, FUZZ_SRCS_NAME below, built with ASan+UBSan that stop at the
# first error. `make test` runs each for 20000 iterations (FUZZ_TEST_ITER=); `make
# fuzz` for FUZZ_ITER or FUZZ_TIME seconds, in parallel (tools/fuzz-run.py).

FUZZ_CFLAGS := $(HOST_CFLAGS) -fno-sanitize-recover=all
FUZZ_NAMES  := $(patsubst tests/fuzz/fuzz_%.c,%,$(wildcard tests/fuzz/fuzz_*.c))
FUZZ_BINS   := $(addprefix $(BUILD)/fuzz/fuzz_,$(FUZZ_NAMES))
FUZZ_ITER ?= 2000000
# `make fuzz`: each harness stops after FUZZ_ITER iterations or FUZZ_TIME
# seconds, FUZZ_JOBS at once; the default, with the libFuzzer stage, fits in
# about 15 minutes on 2 cores (23 harnesses: 23 x 40 s / 2 + 23 x 20 s / 2).
FUZZ_TIME ?= 40
FUZZ_JOBS ?= $(shell nproc)
FUZZ_SEED ?= 1
# --- sources under fuzzing (a line per harness) ---
FUZZ_SRCS_parse        := $(PARSE_SRCS)
FUZZ_SRCS_elf          := $(UELF_RULES_SRCS)
FUZZ_SRCS_archive      := $(ARCHIVE_SRCS)
FUZZ_SRCS_uargs        := $(UARGS_SRCS)
FUZZ_SRCS_cpuid_dump   := $(UNIT_SRCS_cpuid_replay)
FUZZ_SRCS_machine      := $(MDESC_APPLY_SRCS) kernel/sched/topo_build.c
FUZZ_SRCS_lineedit     := $(LINEEDIT_SRCS)
FUZZ_SRCS_shell_words  := $(SHELL_WORDS_SRCS)
FUZZ_SRCS_cpulist      := $(CPULIST_SRCS)
FUZZ_SRCS_cmdline      := $(CMDLINE_SRCS)
FUZZ_SRCS_hfi_table    := $(HFI_TEST_SRCS)
FUZZ_SRCS_bench_stats  := $(BENCH_SRCS)
FUZZ_SRCS_hid_kbd      := $(HID_KBD_SRCS)
FUZZ_SRCS_usb_desc     := $(USB_DESC_SRCS)
FUZZ_SRCS_xhci         := $(XHCI_TEST_SRCS)
FUZZ_SRCS_usb_msd      := $(MSD_TEST_SRCS)
FUZZ_SRCS_fat          := $(FS_TEST_SRCS)
FUZZ_SRCS_part         := $(FS_TEST_SRCS)
FUZZ_SRCS_pci_mcfg     := $(PCI_MCFG_SRCS)
FUZZ_SRCS_acpi_madt    := $(ACPI_MADT_SRCS)
FUZZ_SRCS_pmtimer_fadt := $(PMTIMER_FADT_SRCS)
FUZZ_SRCS_bench_plan   := $(BENCH_WL_SRCS)
FUZZ_SRCS_video        := $(VIDEO_SRCS)
FUZZ_SRCS_uvm          := $(UVM_HOST_SRCS)
FUZZ_SRCS_uelf         := $(UVM_HOST_SRCS) kernel/user/uelf.c $(UELF_RULES_SRCS)
FUZZ_SRCS_syscall      := $(UVM_HOST_SRCS) kernel/user/handle.c kernel/user/svc.c kernel/user/ipc.c \
                          kernel/user/sys_vm.c $(UCHECK_SRCS) kernel/user/ujob.c tests/unit/user_host.c
# --- end ---
# --- flags of a harness beyond FUZZ_CFLAGS (a line per harness that has some) ---
FUZZ_FLAGS_bench_stats := -lm
FUZZ_FLAGS_bench_plan  := -pthread
FUZZ_FLAGS_uvm         := $(UVM_HOST_FLAGS)
FUZZ_FLAGS_uelf        := $(UVM_HOST_FLAGS)
FUZZ_FLAGS_syscall     := $(UVM_HOST_FLAGS)
# --- end ---
FUZZ_HEADERS := $(HOST_HEADERS) tests/unit/host_sysctl.ld
$(BUILD)/fuzz/fuzz_%: tests/fuzz/fuzz_%.c $$(FUZZ_SRCS_$$*) $(FUZZ_HEADERS)
	@mkdir -p $(dir $@)
	gcc $(FUZZ_CFLAGS) $(FUZZ_FLAGS_$*) -o $@ $(filter %.c,$^)

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
LIBFUZZ_JOBS ?= $(FUZZ_JOBS)
LIBFUZZ_EMPTY :=
LIBFUZZ_SPACE := $(LIBFUZZ_EMPTY) $(LIBFUZZ_EMPTY)
$(BUILD)/libfuzz/fuzz_%: tests/fuzz/fuzz_%.c $$(FUZZ_SRCS_$$*) $(FUZZ_HEADERS) tests/fuzz/libfuzz_asan_ignore.txt
	@mkdir -p $(dir $@)
	clang $(LIBFUZZ_CFLAGS) $(LIBFUZZ_SANITIZE) $(FUZZ_FLAGS_$*) -o $@ $(filter %.c,$^)
$(BUILD)/libfuzz-cov/fuzz_%: tests/fuzz/fuzz_%.c $$(FUZZ_SRCS_$$*) $(FUZZ_HEADERS)
	@mkdir -p $(dir $@)
	clang $(LIBFUZZ_CFLAGS) -fsanitize=fuzzer -fprofile-instr-generate -fcoverage-mapping $(FUZZ_FLAGS_$*) \
	  -o $@ $(filter %.c,$^)
