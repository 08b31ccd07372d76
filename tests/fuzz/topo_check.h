/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * topo_check.h — for fuzz harnesses that end in topo_build()
 * (kernel/sched/topo_build.c): checks that a tree built from the present
 * CPUs of descs[0..n) is a valid cpu_group tree. Every present CPU is in
 * exactly one leaf, no other CPU in any; each
 * group's count, first and last CPU match its mask; an inner group has two
 * or more children whose masks split its own; parents point back; the SMT
 * flag is set exactly on groups of several threads of one core; SMT
 * siblings share a leaf; topo_find() finds each CPU's leaf.
 */
#ifndef MOSAIC_FUZZ_TOPO_CHECK_H
#define MOSAIC_FUZZ_TOPO_CHECK_H
#include <tests/fuzz/fuzz.h>
#include <sched/topo.h>

struct topo_walk {
	struct fuzz *f;
	const struct topo *t;
	const struct cpu_desc *descs;
	int groups;                    /* groups visited */
	unsigned char seen[TOPO_MAXCPU];
};

/* Checks g and its subtree. */
static void topo_check_group(struct topo_walk *w, const struct cpu_group *g)
{
	struct fuzz *f = w->f;
	int count = cpuset_count(&g->cg_mask), one_core = 1;
	const struct cpu_desc *d0 = &w->descs[cpuset_first(&g->cg_mask)];
	w->groups++;
	if (count == 0 || g->cg_count != count || g->cg_first != cpuset_first(&g->cg_mask) ||
	    g->cg_last != cpuset_last(&g->cg_mask))
		fuzz_fail(f, "group with count %d, first %d, last %d does not match its mask",
			  g->cg_count, g->cg_first, g->cg_last);
	for (int c = cpuset_first(&g->cg_mask); c >= 0; c = cpuset_next(&g->cg_mask, c))
		one_core &= w->descs[c].package_id == d0->package_id && w->descs[c].core_id == d0->core_id;
	if (!!(g->cg_flags & CG_FLAG_SMT) != (count > 1 && one_core))
		fuzz_fail(f, "group of cpus %d-%d: SMT flag %d, but %s one core", g->cg_first,
			  g->cg_last, !!(g->cg_flags & CG_FLAG_SMT), one_core ? "is" : "is not");
	if (g->cg_level < CG_SHARE_NONE || g->cg_level > CG_SHARE_L3)
		fuzz_fail(f, "share level %d", g->cg_level);
	if (g->cg_children == 0) {
		for (int c = cpuset_first(&g->cg_mask); c >= 0; c = cpuset_next(&g->cg_mask, c)) {
			if (w->seen[c]++)
				fuzz_fail(f, "cpu %d in two leaves", c);
			if (topo_find(w->t->root, c) != g)
				fuzz_fail(f, "topo_find(%d) is not its leaf", c);
		}
		return;
	}
	if (g->cg_children < 2 || !g->cg_child)
		fuzz_fail(f, "inner group with %d children", g->cg_children);
	struct cpuset all;
	int sum = 0;
	cpuset_zero(&all);
	for (int i = 0; i < g->cg_children; i++) {
		const struct cpu_group *c = &g->cg_child[i];
		if (c->cg_parent != g)
			fuzz_fail(f, "child %d does not point to its parent", i);
		if (cpuset_overlap(&all, &c->cg_mask))
			fuzz_fail(f, "children of cpus %d-%d overlap", g->cg_first, g->cg_last);
		cpuset_or(&all, &c->cg_mask);
		sum += c->cg_count;
		topo_check_group(w, c);
	}
	if (!cpuset_equal(&all, &g->cg_mask) || sum != g->cg_count)
		fuzz_fail(f, "children of cpus %d-%d do not add up (%d of %d)", g->cg_first, g->cg_last,
			  sum, g->cg_count);
}

/* Checks the whole tree t built from descs[0..n): the CPUs in present, or
 * all of them when present is NULL. */
static void topo_check_tree(struct fuzz *f, const struct topo *t, const struct cpu_desc *descs,
			    unsigned n, const struct cpuset *present)
{
	static struct topo_walk w;
	unsigned count = 0;
	memset(&w, 0, sizeof(w));
	w.f = f;
	w.t = t;
	w.descs = descs;
	for (unsigned c = 0; c < n; c++)
		count += !present || cpuset_isset(present, c);
	if (!t->root || t->root->cg_parent || t->ncpus != (int)count)
		fuzz_fail(f, "no root, or %d CPUs in the tree for %u present", t->ncpus, count);
	topo_check_group(&w, t->root);
	if (w.groups != t->ngroups || t->ngroups > TOPO_MAX_GROUPS)
		fuzz_fail(f, "%d groups reachable, %d used", w.groups, t->ngroups);
	for (unsigned c = 0; c < TOPO_MAXCPU; c++) {
		int in = c < n && (!present || cpuset_isset(present, c));
		if (w.seen[c] != in)
			fuzz_fail(f, "cpu %u in %d leaves", c, w.seen[c]);
		for (unsigned o = c + 1; in && o < n; o++)
			if ((!present || cpuset_isset(present, o)) &&
			    descs[o].package_id == descs[c].package_id &&
			    descs[o].core_id == descs[c].core_id &&
			    topo_find(t->root, (int)o) != topo_find(t->root, (int)c))
				fuzz_fail(f, "SMT siblings %u and %u in different leaves", c, o);
	}
}

#endif
