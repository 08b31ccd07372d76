/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * sched_policy.h — placement policies: the decisions of where threads run,
 * as one table of operations over ULE's core (docs/policies.md). ULE keeps
 * its run queues, slices, interactivity, preemption and locking; a policy
 * decides where a new or waking thread goes (and a thread that repicks its
 * CPU at a switch: the same sched_pickcpu), how the tree searches weigh a
 * CPU (the balancer's donor and receiver, an idle CPU's steal victim),
 * whether the balancer moves a thread between two CPUs, whether a lone
 * running thread should move (up), whether an idle CPU may steal, and what
 * an idle CPU does before it halts. An operation left NULL is ULE's own,
 * so a policy names only what it changes.
 *
 * Every policy is registered once, in sched_policy_list.def; that list
 * gives kern.sched.policy its words, and `bench` and schedsim --policy
 * their names. A decision reads the policy once at its start (struct
 * search_mode's pol), so it is never half one policy, half another while
 * someone sets the sysctl. Operations are called with interrupts off; the
 * locks each needs are said beside it.
 */
#ifndef MOSAIC_SCHED_SCHED_POLICY_H
#define MOSAIC_SCHED_SCHED_POLICY_H
#include <sched/ule.h>

struct sched_policy {
	const char *name;   /* kern.sched.policy's word, bench's and schedsim's name */
	const char *descr;  /* one line: what it does and where it comes from */
	/* 1: the kern.sched.hmp.* switches apply (search_mode's hmp fields are
	 * filled, and named bench policies based on it pin them) */
	uint8_t hmp_switches;
	/* Placement of ts (not bound, may migrate) among mask's CPUs (online,
	 * allowed, non-empty) by ULE's steps 4-7 or the policy's own; flags
	 * SPC_*. Counts the path in st (*path++ as sched_pickcpu does) and
	 * returns a CPU of mask. No tdq lock held; lock-free reads. */
	int (*pickcpu)(const struct search_mode *m, struct td_sched *ts, struct cpuset *mask, int flags,
		       struct sched_stats *st);
	/* The tree searches (contract of cpu_search_lowest / _highest, ule.h):
	 * every search of placement, balancing and stealing goes through them. */
	int64_t (*search_lowest)(const struct cpu_group *cg, const struct cpu_search *s,
				 struct cpu_search_res *r);
	int64_t (*search_highest)(const struct cpu_group *cg, const struct cpu_search *s,
				  struct cpu_search_res *r);
	/* Added to cpu's load (SEARCH_LOAD_ONE per thread) in ULE's lowest
	 * search (ULE: nothing); s->cs_place tells placement from balancing. */
	int64_t (*cpu_bias)(const struct cpu_search *s, int cpu);
	/* The load one more thread weighs on cpu (SEARCH_LOAD_ONE for ULE). */
	int64_t (*thread_weight)(const struct search_mode *m, int cpu);
	/* One balancer pass over cg (sched_balance_group's contract). */
	int (*balance_group)(const struct search_mode *m, const struct cpu_group *cg);
	/* ULE's pass (ule_balance_group) with a policy's rules: clears from
	 * *lmask the CPUs that never receive a thread; */
	void (*balance_exclude)(const struct search_mode *m, struct cpuset *lmask);
	/* for donor high (with a transferable thread), keeps in *lmask only
	 * the receivers it accepts: -1 not narrowed, 0 no CPU of *lmask has
	 * fewer threads than high (the pass ends), 1 narrowed; */
	int (*balance_receivers)(const struct search_mode *m, int high, struct cpuset *lmask);
	/* hears that a thread moved from high to low. No tdq lock held. */
	void (*balance_moved)(int high, int low);
	/* After each balancer pass over the whole tree. No tdq lock held. */
	void (*balance_done)(const struct search_mode *m);
	/* Whether the balancer moves a thread from high to low (both locked):
	 * ULE's is more threads on high than on low. */
	int (*balance_more)(const struct search_mode *m, const struct tdq *high, const struct tdq *low);
	/* The balancer's donor high runs its lone thread t (high locked): 1
	 * if t was asked to move (TSF_PICKCPU, or an ask to a CPU); ULE asks
	 * every migratable one to repick. */
	int (*lone_thread)(const struct search_mode *m, struct td_sched *t, int high);
	/* Whether idle self may steal (ULE: always). Lock-free. */
	int (*may_steal)(const struct search_mode *m, int self);
	/* Idle self about to halt, after its steal attempt (ULE: nothing). No
	 * tdq lock held. */
	void (*idle)(const struct search_mode *m, int self);
};

/* Every registered policy, in kern.sched.policy's order (index = value). */
#define SCHED_POLICY(id) extern const struct sched_policy sched_policy_##id;
#include <sched/sched_policy_list.def>
#undef SCHED_POLICY
enum sched_policy_index {
#define SCHED_POLICY(id) SCHED_POLICY_INDEX_##id,
#include <sched/sched_policy_list.def>
#undef SCHED_POLICY
	SCHED_POLICY_COUNT
};
/* "|ule|hmp|...": kern.sched.policy's words are sched_policy_words + 1. */
extern const char sched_policy_words[];
extern const struct sched_policy *const sched_policies[];
extern const unsigned sched_npolicies;

/* The policy kern.sched.policy selects now (ULE's for a value out of
 * range). Lock-free. */
const struct sched_policy *sched_policy_current(void);
/* The registered policy called name, or NULL. */
const struct sched_policy *sched_policy_find(const char *name);
/* p's kern.sched.policy value (its position in the list). */
int sched_policy_index(const struct sched_policy *p);

/* ULE's own operations, for policies that fall back to them. */
int ule_pickcpu_steps(const struct search_mode *m, struct td_sched *ts, struct cpuset *mask, int flags,
		      struct sched_stats *st);
int64_t ule_search_lowest(const struct cpu_group *cg, const struct cpu_search *s, struct cpu_search_res *r);
int64_t ule_search_highest(const struct cpu_group *cg, const struct cpu_search *s, struct cpu_search_res *r);
int ule_balance_group(const struct search_mode *m, const struct cpu_group *cg);

/* Helpers of placement policies (ule_pickcpu.c). */
/* 1 if cpu runs only its idle thread (lock-free). */
int sched_cpu_idle(int cpu);
/* 1 if cpu and every SMT sibling of it run only their idle threads. */
int sched_core_idle(int cpu);
/* ULE's step 4: ts's last CPU if in mask, idle, cache-warm and its SMT
 * siblings idle (leaving: a CPU that counts as idle, or NULL); else -1. */
int sched_pick_last_cpu(const struct td_sched *ts, const struct cpuset *mask, const struct tdq *leaving);
/* The CPU of mask that runs only its idle thread (whole_core: and so do
 * its SMT siblings) with the highest rank(cpu), ties to ts's last CPU,
 * then the lowest number; -1 if none. Lock-free. */
int sched_pick_idle_ranked(const struct td_sched *ts, const struct cpuset *mask, int whole_core,
			   int64_t (*rank)(int cpu));
/* Counts cpu's core type in st (pick_p, pick_e, ...). */
void sched_count_type(struct sched_stats *st, int cpu);
/* kern.sched.primary: narrows *mask to the primary domain while one of its
 * CPUs is idle (counts primary_picks / _overflows / _misses in st). */
void sched_pick_primary(struct cpuset *mask, struct sched_stats *st);
/* ULE's step 7: 1 if the calling CPU self should take ts instead of cpu. */
int sched_prefer_local(const struct td_sched *ts, const struct cpuset *mask, int self, int cpu);
/* How ULE's steps 5 and 6 search (sched_pick_search). */
struct pick_opts {
	const struct tdq *leaving;   /* a CPU counted without its running thread, or NULL */
	uint8_t warm;                /* 1: first the cache group ts is warm in */
	uint8_t warm_anywhere;       /* with warm: that step searches every CPU, the warm
				      * group's free ones a sixteenth ahead (cs_warm) */
	uint8_t latency;             /* 1: CPUs ts would preempt count as free (cs_free_pri) */
	uint8_t hog;                 /* cs_hog of the searches */
};
/* ULE's steps 5 and 6 (cpu_search_lowest through the policy's search):
 * a CPU of mask, never -1; *path gets the counter of the step. */
int sched_pick_search(const struct search_mode *m, const struct td_sched *ts, const struct cpuset *mask,
		      const struct pick_opts *o, struct sched_stats *st, uint64_t **path);

/* The hmp policy's searches without kern.sched.hmp.best (hmp_report_search.c). */
int64_t hmp_report_search_lowest(const struct cpu_group *cg, const struct cpu_search *s,
				 struct cpu_search_res *r);
int64_t hmp_report_search_highest(const struct cpu_group *cg, const struct cpu_search *s,
				  struct cpu_search_res *r);

#endif
