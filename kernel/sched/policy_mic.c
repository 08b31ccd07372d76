/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * policy_mic.c — the `mic` placement policy: MidnightBSD's SCHED_MIC, a
 * ULE derivative (MidnightBSD/src PR #385, merged June 2026; its
 * sys/kern/sched_mic.c read for facts, no code taken). SCHED_MIC ranks
 * core classes by a soft bias folded into cpu_search_lowest on the
 * placement path only: a candidate CPU's load (256 per thread) gains its
 * class weight — nothing for a P-core, sched_class_weight_eff (64) for an
 * E-core, sched_class_weight_lp (512) for an LP E-core — and
 * sched_smt_busy_penalty (192) when it is idle but an SMT sibling of it is
 * busy, so an idle P < an idle E < the second thread of a busy P core < an
 * idle LP E. The cost goes into the CPU's load before the load is summed
 * into its group's total, so it steers the choice of subtree as well as
 * the final CPU. Only threads being placed that are not running are
 * class-aware; the balancer, idle stealing and a running thread's repick
 * stay class-blind (ULE's). The weights are
 * kern.sched.mic.* here (sched_vars.def); with all three 0 mic places as
 * ULE.
 *
 * Not modelled: SCHED_MIC's own LP-E detection heuristic (small core
 * without L3, kern.sched.detect_lpe: Mosaic takes the core type from its
 * topology, CPUID leaf 0x1A and the machine description) and its AMD X3D
 * cache/compute CCD handling (sched_prefer_compute).
 */
#include <sched/sched_policy.h>

/* The cpu_bias operation: cpu's class weight, plus the busy-sibling
 * penalty when cpu is idle, when placing a thread that is not running;
 * nothing otherwise. Lock-free. */
static int64_t mic_bias(const struct cpu_search *s, int cpu)
{
	if (!s->cs_place)
		return 0;
	int64_t bias = 0;
	switch (sched_cpu_core_type(cpu)) {
	case CPU_CORE_E:
		bias = __atomic_load_n(&mic_eff_weight, __ATOMIC_RELAXED);
		break;
	case CPU_CORE_LPE:
		bias = __atomic_load_n(&mic_lp_weight, __ATOMIC_RELAXED);
		break;
	default:
		break;
	}
	if (tdq_load_of(cpu) == 0 && tdq_core_shared(cpu))
		bias += __atomic_load_n(&mic_smt_busy_penalty, __ATOMIC_RELAXED);
	return bias;
}

const struct sched_policy sched_policy_mic = {
	.name = "mic",
	.descr = "MidnightBSD SCHED_MIC: class weights on placement (P, E +64, busy sibling +192, LP-E +512)",
	.cpu_bias = mic_bias,
};
