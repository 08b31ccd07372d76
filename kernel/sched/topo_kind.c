/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * topo_kind.c — which tree: ours (topo_build.c) or FreeBSD's
 * (topo_freebsd.c), and the tree a running system falls back to when the
 * chosen one cannot be built. Portable: no platform calls, no allocation.
 */
#include <sched/topo.h>
#include <sched/topo_int.h>
#include <sched/topo_str.h>

/* See topo.h. */
int topo_build_kind(struct topo *t, int kind, const struct cpu_desc *descs, unsigned ncpu,
		    const struct cpuset *present)
{
	if (kind == TOPO_FREEBSD)
		return topo_build_freebsd(t, descs, ncpu, present);
	return topo_build(t, descs, ncpu, present);
}

/* The flat fallback over t->present (set by the failed build), keeping
 * t->error. */
static void build_flat(struct topo *t, const struct cpu_desc *descs)
{
	int n = topo_take_cpus(t, descs);
	struct cpu_group *root = &t->groups[0];
	root->cg_parent = NULL;
	root->cg_child = NULL;
	root->cg_children = 0;
	root->cg_mask = t->present;
	root->cg_count = n;
	root->cg_first = cpuset_first(&t->present);
	root->cg_last = cpuset_last(&t->present);
	root->cg_level = CG_SHARE_NONE;
	root->cg_flags = 0;
	root->cg_norm = 1;
	t->ngroups = 1;
	t->flat = 1;
	t->root = root;
}

/* See topo.h. */
int topo_build_or_flat(struct topo *t, int kind, const struct cpu_desc *descs, unsigned ncpu,
		       const struct cpuset *present)
{
	int rc = topo_build_kind(t, kind, descs, ncpu, present);
	if (rc == TOPO_ERR_UNMODELLED) {
		char why[sizeof(t->error)];
		struct topo_str m;
		topo_str_init(&m, why, sizeof(why));
		topo_str_add(&m, t->error);
		int ours = topo_build(t, descs, ncpu, present);
		if (ours == TOPO_OK) {
			topo_str_init(&m, t->error, sizeof(t->error));
			topo_str_add(&m, why);
			return rc;
		}
		rc = ours;
	}
	if (rc == TOPO_ERR_DUP_APIC || rc == TOPO_ERR_INCONSISTENT)
		build_flat(t, descs);   /* t->present and t->ncpus are set; the error stays */
	return rc;
}
