/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * sched_policy.c — the registry of placement policies (sched_policy.h),
 * expanded from sched_policy_list.def, and stock ULE's table: every
 * operation ULE's own. Constant data; kern.sched.policy read lock-free.
 */
#include <sched/sched_policy.h>

_Static_assert(SCHED_POLICY_INDEX_ule == SCHED_POLICY_ULE && SCHED_POLICY_INDEX_hmp == SCHED_POLICY_HMP,
	       "kern.sched.policy: ule must be value 0 and hmp value 1");

const struct sched_policy sched_policy_ule = {
	.name = "ule",
	.descr = "stock ULE placement (FreeBSD's sched_pickcpu, cpu_search_lowest/highest, balancer)",
};

const struct sched_policy *const sched_policies[] = {
#define SCHED_POLICY(id) &sched_policy_##id,
#include <sched/sched_policy_list.def>
#undef SCHED_POLICY
};
const unsigned sched_npolicies = SCHED_POLICY_COUNT;

const char sched_policy_words[] =
#define SCHED_POLICY(id) "|" #id
#include <sched/sched_policy_list.def>
#undef SCHED_POLICY
	;

/* See sched_policy.h. */
const struct sched_policy *sched_policy_current(void)
{
	int64_t v = __atomic_load_n(&sched_policy, __ATOMIC_RELAXED);
	return v >= 0 && v < SCHED_POLICY_COUNT ? sched_policies[v] : &sched_policy_ule;
}

/* See sched_policy.h. */
const struct sched_policy *sched_policy_find(const char *name)
{
	for (unsigned i = 0; i < sched_npolicies; i++) {
		const char *a = sched_policies[i]->name, *b = name;
		while (*a && *a == *b) {
			a++;
			b++;
		}
		if (!*a && !*b)
			return sched_policies[i];
	}
	return NULL;
}

/* See sched_policy.h. */
int sched_policy_index(const struct sched_policy *p)
{
	for (unsigned i = 0; i < sched_npolicies; i++)
		if (sched_policies[i] == p)
			return (int)i;
	return SCHED_POLICY_ULE;
}

/* See sched.h. */
const char *sched_policy_name(void)
{
	return sched_policy_current()->name;
}
