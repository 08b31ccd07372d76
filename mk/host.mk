# SPDX-License-Identifier: BSD-2-Clause
# mk/host.mk — the host tools built from the kernel's own code, and the
# flags every host build shares (the tools, the unit tests, the fuzz
# harnesses). Host code names kernel headers from the kernel tree's root
# (<sched/topo.h>), the shared ABI from include/, and everything else
# from the repository root (<tools/cpuid-replay/dump.h>, <sim/sim.h>).

HOST_INC    := -Iinclude -Ikernel -I.
HOST_CFLAGS := -std=gnu17 -O1 -g -Wall -Wextra -Werror $(HOST_INC) -DMOSAIC_HOST \
               -fsanitize=address,undefined -fno-omit-frame-pointer
HOST_HEADERS := $(shell find include kernel boot sim tests tools -name '*.h' -o -name '*.def')

# build/cpuid-replay DUMP...: the kernel's CPU enumeration and topology builder
# run on an InstLatx64 CPUID dump (docs/cpuid.md).
CPUID_REPLAY_TOOL_SRCS := $(wildcard tools/cpuid-replay/*.c) $(CPUID_DECODE_SRCS) $(TOPO_SRCS) $(TOPO_PRINT_SRCS)
$(BUILD)/cpuid-replay: $(CPUID_REPLAY_TOOL_SRCS) $(HOST_HEADERS)
	@mkdir -p $(dir $@)
	gcc $(HOST_CFLAGS) -o $@ $(filter %.c,$^)

# build/machine-info MACHINE: resolves a preset name or file, parses and checks
# it with the kernel's own code and prints what QEMU needs (docs/machines.md).
MACHINE_INFO_SRCS := $(wildcard tools/machine-info/*.c) $(MDESC_SRCS)
$(BUILD)/machine-info: $(MACHINE_INFO_SRCS) $(HOST_HEADERS)
	@mkdir -p $(dir $@)
	gcc $(HOST_CFLAGS) -o $@ $(filter %.c,$^)

# build/host/bench_stats_cli: the kernel's benchmark statistics and report on
# the host, for the Python tests tests/host/test_bench_*.py.
BENCH_CLI_SRCS := tests/host/bench_stats_cli.c $(SEED_TABLE_SRCS) $(BENCH_SRCS)
$(BUILD)/host/bench_stats_cli: $(BENCH_CLI_SRCS) $(HOST_HEADERS)
	@mkdir -p $(dir $@)
	gcc $(HOST_CFLAGS) -o $@ $(filter %.c,$^)
