/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * bench_policy_table.h — the named placement policies of `bench` and
 * schedsim (docs/bench.md, "Policies"): a policy is a base (a registered
 * placement policy, kernel/sched/sched_policy_list.def) and the scheduler
 * variables it sets differently from their defaults. Applied, a named
 * policy sets kern.sched.policy to its base and pins every variable it
 * depends on — the SV_PLACE ones, and with a base that uses the hmp
 * switches (hmp) the SV_HMP ones — to its own value or the variable's
 * default, so it means the same whatever was set by hand
 * (kernel/sched/sched_vars.def). Every registered policy that no named
 * entry is called like is a policy too, under its own name.
 * Portable C, constant data: no locks.
 */
#ifndef MOSAIC_BENCH_POLICY_TABLE_H
#define MOSAIC_BENCH_POLICY_TABLE_H
#include <stddef.h>
#include <sched/sched_vars.h>

struct bench_named_policy {
	const char *name;
	const char *base;    /* the registered policy it is based on (kern.sched.policy's word) */
	const char *opts;    /* ":"-separated SHORT=VALUE (sched_var_short()), "" for none */
	const char *descr;
};

extern const struct bench_named_policy bench_named_policies[];
extern const unsigned bench_nnamed;

/* Named policies and the registered ones not named: how many, and entry i
 * (NULL past the end). Filled on first use (single-threaded callers). */
unsigned bench_policy_count(void);
const struct bench_named_policy *bench_policy_at(unsigned i);

/* 1 when applying p sets v (kern.sched.policy, SV_PLACE, and SV_HMP when
 * p's base uses the hmp switches); its value's text into buf: p's option for v, else v's
 * default (these variables follow no hz rule: tests/unit/test_sched_vars.c).
 * 0 (buf untouched) when p leaves v alone. */
int bench_named_value(const struct bench_named_policy *p, const struct sched_var *v, char *buf, size_t len);

#endif
