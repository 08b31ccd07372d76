/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * replay.h — a parsed CPUID dump (dump.h) turned into what the kernel would
 * build on that machine: one descriptor per logical CPU through the
 * kernel's decoder, and the topology trees through its builders: ours and
 * the one FreeBSD's x86 code would build (kern.sched.topology=freebsd).
 */
#ifndef CPUID_REPLAY_REPLAY_H
#define CPUID_REPLAY_REPLAY_H
#include <stddef.h>
#include <lib/cpu_desc.h>
#include <sched/topo.h>
#include <tools/cpuid-replay/dump.h>

_Static_assert(DUMP_MAX_CPUS == TOPO_MAXCPU, "the dump reader and the kernel disagree on MAXCPU");

struct replay {
	struct cpu_desc descs[DUMP_MAX_CPUS];   /* indexed by the dump's CPU numbers */
	struct cpuset present;                  /* the numbers the dump has */
	unsigned ncpu;                          /* highest number + 1 */
	struct topo tree;                       /* ours */
	struct topo fbsd_tree;                  /* FreeBSD's; its root NULL when it has none */
};

/* Decodes every CPU of d into r, builds both trees and checks that the
 * dump describes every CPU its topology leaves count (FreeBSD's tree
 * refused by its probe is no error: fbsd_tree.error says why). Returns 0,
 * or -1 with
 * "NAME:LINE: reason" in err: descriptors that contradict each other name
 * the odd CPU and the CPUID leaves its ids come from. No locks. */
int replay_run(const struct dump *d, struct replay *r, char *err, size_t errlen);

#endif
