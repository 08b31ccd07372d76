# SPDX-License-Identifier: BSD-2-Clause
# Mosaic — top-level Makefile: the user variables and the public targets.
# Each product's rules are in mk/ (plain make, see README.md):
#   mk/sources.mk   the portable source groups, each declared once
#   mk/kernel.mk    build/kernel.elf          mk/loader.mk   build/BOOTX64.EFI
#   mk/userland.mk  build/userland.cpio       mk/images.mk   build/esp.img, build/mosaic.iso
#   mk/host.mk      host tools (cpuid-replay, machine-info, bench_stats_cli)
#   mk/schedsim.mk  build/schedsim            mk/tests.mk    host unit tests
#   mk/fuzz.mk      seeded and libFuzzer harnesses
# Include roots, one per tree: kernel/ (<sched/ule.h>), include/ (the ABI
# shared by loader, kernel and programs: <mosaic/syscall.h>), the
# repository root for host code (<sim/sim.h>, <tests/unit/...>), and
# userland/include/ for the programs' C library.
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
#   BENCH=    with `make bench`: the words after `bench` (none: a quick plan
#             of about 2 minutes; "cpu --threads 4,6
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

# The words of $(1), each once, in their first order.
uniq = $(if $(1),$(firstword $(1)) $(call uniq,$(filter-out $(firstword $(1)),$(1))))

include mk/sources.mk
include mk/kernel.mk
include mk/userland.mk
include mk/loader.mk
include mk/images.mk
include mk/host.mk
include mk/schedsim.mk
include mk/tests.mk
include mk/fuzz.mk

# ---------------------------------------------------------------- the public targets
# Public targets first install missing tools (tools/deps.sh), then build.
.PHONY: all deps run-qemu debug iso test fuzz fuzz-merge fuzz-coverage bench sim seed-figures properties clean \
        build-kernel build-iso \
        build-test FORCE

all: deps
	@$(MAKE) --no-print-directory build-kernel

# The package sets of tools/deps.sh a target needs: booting needs only
# `boot`; a target adds its own, and its prerequisites (all, deps) inherit them.
DEPS_SETS := boot
iso: DEPS_SETS += iso
bench seed-figures: DEPS_SETS += report
test fuzz fuzz-merge fuzz-coverage: DEPS_SETS := test
deps:
	@tools/deps.sh $(DEPS_SETS)

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

# The seed report's tables as figures (docs/results.md, "The seed report's
# tables as figures"): its seed experiment in schedsim, SEED_RUNS runs per
# policy and thread count, beside the report's measured values, into
# $(BUILD)/seed-figures/ (PNG, SVG, CSV and schedsim's log per table).
SEED_RUNS ?= 12
seed-figures: deps
	@$(MAKE) --no-print-directory $(BUILD)/schedsim
	tools/seed-figures.py -o $(BUILD)/seed-figures --runs $(SEED_RUNS) --schedsim $(BUILD)/schedsim \
	  --commit $(VERSION)

# The long property run (docs/sim.md, "Property run"): N generated machines
# from SEED, every workload; PROPS_ARGS adds schedsim options (e.g.
# "--sysctl kern.sched.hmp.perf0=ee0-never", "--workload cpu,make"). Its report
# goes to stdout, the time it took to stderr; exit status 1 when a property
# failed. PROCS processes check machines (default: one per host CPU); the
# report is the same bytes for any PROCS.
N ?= 2000
SEED ?= 1
PROCS ?= $(shell n=$$(nproc 2>/dev/null || echo 1); [ $$n -gt 64 ] && n=64; echo $$n)
properties: $(BUILD)/schedsim
	$(BUILD)/schedsim --properties $(N) --seed $(SEED) --procs $(PROCS) $(PROPS_ARGS)

# RUN and CMDLINE reach the runner through the environment, so any quoting
# inside them survives the shell.
run-qemu debug: export MOSAIC_RUN := $(RUN)
run-qemu debug: export MOSAIC_CMDLINE := $(CMDLINE)
# The kernel's `exit N` is the runner's status N (125: QEMU failed or the
# kernel stopped otherwise); make can only fail with its own status 2, so
# the recipe says N first.
run-qemu: all
	@tools/qemu-run.sh --esp $(BUILD)/esp.img $(MACHINE_ARGS) \
	  $(if $(RUN),--run "$$MOSAIC_RUN") $(if $(CMDLINE),--cmdline "$$MOSAIC_CMDLINE") $(if $(GUI),--gui) \
	  || { s=$$?; if [ $$s -eq 125 ]; then echo "run-qemu: QEMU failed, or the kernel stopped without exit" >&2; \
	       else echo "run-qemu: the kernel exited with status $$s" >&2; fi; exit $$s; }

debug: all
	@tools/deps.sh gdb
	tools/qemu-run.sh --esp $(BUILD)/esp.img $(MACHINE_ARGS) \
	  --debug $(BUILD)/kernel.elf $(if $(CMDLINE),--cmdline "$$MOSAIC_CMDLINE") $(if $(GUI),--gui)

# The build uses every host CPU; then `pytest tests/` (tests/conftest.py)
# runs TEST_JOBS tests at once (pytest-xdist, a module's tests in one
# worker), under Debian's python3, which has the packages of tools/deps.sh
# when another python3 (pyenv, a venv) comes first on PATH.
TEST_JOBS ?= 2
TEST_PYTHON ?= $(firstword $(wildcard /usr/bin/python3) python3)
test: deps
	@$(MAKE) --no-print-directory -j$$(nproc) build-test
	@$(TEST_PYTHON) -m pytest tests/ --build $(BUILD) -n $(TEST_JOBS) --dist loadscope \
	  -v --tb=short -rfEs --junitxml=$(BUILD)/test-results.xml $(if $(T),--name-contains "$(T)") \
	  $(if $(FUZZ_TEST_ITER),--fuzz-iter $(FUZZ_TEST_ITER))

# One benchmark plan, headless: `bench $(BENCH)` in the shell, the serial log
# and the CSV/PNG files of its CSV blocks in $(BENCH_OUT) (docs/bench.md).
BENCH_OUT ?= $(BUILD)/bench
bench: export MOSAIC_BENCH := $(BENCH)
bench: export MOSAIC_CMDLINE := $(CMDLINE)
bench: all
	tools/bench-run.sh --out $(BENCH_OUT) --esp $(BUILD)/esp.img $(MACHINE_ARGS) \
	  $(if $(CMDLINE),--cmdline "$$MOSAIC_CMDLINE")

# Every fuzz harness for FUZZ_ITER iterations or FUZZ_TIME seconds from
# seed FUZZ_SEED, FUZZ_JOBS at once (default: every CPU) with a progress
# line as each ends, then each under libFuzzer for LIBFUZZ_TIME seconds,
# LIBFUZZ_JOBS at once,
# from its scratch corpus build/libfuzz-corpus/NAME/ (tools/libfuzz.py;
# the committed corpus is not touched: `make fuzz-merge` adds what is new).
fuzz: deps
	@$(MAKE) --no-print-directory -j$(FUZZ_JOBS) $(FUZZ_BINS) $(LIBFUZZ_BINS)
	@tools/fuzz-run.py -j $(FUZZ_JOBS) --seed $(FUZZ_SEED) --iterations $(FUZZ_ITER) --seconds $(FUZZ_TIME) \
	  $(FUZZ_BINS)
	@tools/libfuzz.py --build $(BUILD) -j $(LIBFUZZ_JOBS) run $(LIBFUZZ_TIME) $(FUZZ_NAMES)

# The scratch inputs that reach code the committed corpus does not, added to it.
fuzz-merge: deps
	@$(MAKE) --no-print-directory $(LIBFUZZ_BINS)
	@tools/libfuzz.py --build $(BUILD) merge $(FUZZ_NAMES)

# Lines of each source under fuzzing reached by the committed corpus.
fuzz-coverage: deps
	@$(MAKE) --no-print-directory $(LIBFUZZ_COV_BINS)
	@tools/libfuzz.py --build $(BUILD) coverage \
	  $(foreach n,$(FUZZ_NAMES),$(n):$(subst $(LIBFUZZ_SPACE),:,$(strip $(call uniq,$(filter-out tests/%,$(FUZZ_SRCS_$(n)))))))

clean:
	rm -rf $(BUILD)

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
