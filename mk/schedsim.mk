# SPDX-License-Identifier: BSD-2-Clause
# mk/schedsim.mk — build/schedsim (docs/sim.md): the kernel's scheduler
# (every kernel/sched/*.c, as the kernel links them) on simulated machines,
# with the kernel's machine descriptions, work clock and benchmark
# workloads; no test file. kernel/sched/ is compiled with the cost hook
# sim/sim_cost.h forced in; build/sim-nocost/schedsim is the same without
# it (tests/host/test_sim.py checks that both print the same). The link
# map build/sim/schedsim.map shows which objects went in. Link-time
# optimisation inlines the scheduler's calls into sim/sim_plat.c, the work
# clock and bench_rt.h across files: the property run takes a quarter less
# host time, and prints the same bytes (the --wrap of sched_pickcpu and
# sched_balance still holds: --cost's buckets are the same).

SIM_CFLAGS := -std=gnu17 -O2 -g -flto -Wall -Wextra -Werror $(HOST_INC) -DMOSAIC_HOST -MMD -MP
SIM_LDFLAGS := -O2 -g -flto=auto -Wl,--wrap=sched_pickcpu -Wl,--wrap=sched_balance
SIM_SCHED_SRCS := $(sort $(wildcard kernel/sched/*.c))
SIM_OTHER_SRCS := $(sort $(wildcard sim/*.c) $(WORKCLOCK_SRCS) $(MDESC)/machine_hmp.c $(MDESC_APPLY_SRCS) \
                  $(BENCH_SRCS) $(BENCH_DRV_SRCS) $(BENCH_POLICY_TABLE_SRCS) $(PARSE_SRCS))
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

$(BUILD)/schedsim: $(patsubst %.c,$(BUILD)/sim/%.o,$(SIM_SCHED_SRCS)) $(SIM_OTHER_OBJ)
	gcc -o $@ $^ $(SIM_LDFLAGS) -Wl,-Map=$(BUILD)/sim/schedsim.map
$(BUILD)/sim-nocost/schedsim: $(patsubst %.c,$(BUILD)/sim-nocost/%.o,$(SIM_SCHED_SRCS)) $(SIM_OTHER_OBJ)
	gcc -o $@ $^ $(SIM_LDFLAGS)
