/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * topo_freebsd.c — the cpu_group tree FreeBSD's x86 code would build from
 * the same CPUID values (kern.sched.topology=freebsd). Its layers come
 * from the boot CPU's probe (topo_freebsd_probe.c): package, AMD node,
 * L3, L2, L1, core, thread, each a shift of the APIC id, and every CPU sits
 * in the node its own APIC id gives at each layer (topo_probe). The groups
 * follow x86topo_add_sched_group: a group's children are the first cache
 * (or node) layer below it that splits its CPUs, passing through package
 * and core layers; its share level is the largest cache layer that covers
 * exactly its CPUs; it is a leaf when there is no such layer or the split
 * gives single CPUs; SMT when it shares a cache and holds one core. CPU
 * numbers and the order of children (by lowest CPU) are Mosaic's.
 * Portable: no platform calls, no allocation.
 */
#include <sched/topo.h>
#include <sched/topo_int.h>

/* FreeBSD's node types that are layers here (TOPO_TYPE_PKG, _GROUP: an
 * AMD node, _CACHE, _CORE, _PU); NUMA nodes are not modelled. */
enum fbsd_type { FL_PKG, FL_GROUP, FL_CACHE, FL_CORE, FL_PU };

/* Package, AMD node, three caches, core, thread. */
#define FBSD_MAX_LAYERS 7

struct fbsd_layer {
	uint8_t type;     /* enum fbsd_type */
	uint8_t level;    /* FL_CACHE: 1..3 */
	uint8_t shift;    /* the smallest shift of this layer and those above: two CPUs
	                   * share a node here when their APIC ids agree above it */
};

struct fbsd_ctx {
	struct topo *t;
	const struct cpu_desc *descs;
	struct fbsd_layer layer[FBSD_MAX_LAYERS];
	int nlayers;
	int core_layer;   /* index of the core layer, -1 without one */
};

/* Appends a layer of type at shift s (nested under the ones above). */
static void add_layer(struct fbsd_ctx *b, int type, int level, int s)
{
	struct fbsd_layer *l = &b->layer[b->nlayers];
	if (b->nlayers && s > b->layer[b->nlayers - 1].shift)
		s = b->layer[b->nlayers - 1].shift;
	l->type = (uint8_t)type;
	l->level = (uint8_t)level;
	l->shift = (uint8_t)s;
	if (type == FL_CORE)
		b->core_layer = b->nlayers;
	b->nlayers++;
}

/* topo_probe's layers from the probe's shifts. */
static void make_layers(struct fbsd_ctx *b, const struct topo_fbsd *p)
{
	b->nlayers = 0;
	b->core_layer = -1;
	add_layer(b, FL_PKG, 0, p->pkg_shift);
	if (p->pkg_shift > p->node_shift && p->node_shift != 0)
		add_layer(b, FL_GROUP, 0, p->node_shift);
	for (int level = 3; level >= 1; level--)
		if (p->caches >> level & 1)
			add_layer(b, FL_CACHE, level, p->cache_shift[level]);
	if (p->pkg_shift > p->core_shift)
		add_layer(b, FL_CORE, 0, p->core_shift);
	add_layer(b, FL_PU, 0, 0);
}

/* The node of layer j that cpu is in. */
static uint32_t node_of(const struct fbsd_ctx *b, int j, unsigned cpu)
{
	return b->descs[cpu].layout.apic >> b->layer[j].shift;
}

/* A layer, as topo_partition's key. */
struct layer_of {
	const struct fbsd_ctx *b;
	int j;
};

/* topo_key_fn: the node of the layer in ctx. */
static uint64_t node_key(const void *ctx, unsigned cpu)
{
	const struct layer_of *l = ctx;
	return node_of(l->b, l->j, cpu);
}

/* Whether the CPUs order[start..start+n) are in one node of layer j. */
static int one_node(const struct fbsd_ctx *b, int start, int n, int j)
{
	const uint16_t *ord = b->t->order + start;
	for (int i = 1; i < n; i++)
		if (node_of(b, j, ord[i]) != node_of(b, j, ord[0]))
			return 0;
	return 1;
}

/* Fills cg for the CPUs order[start..start+n) (ascending), which are one
 * node of layer i (-1: the whole system), and builds its subtree the way
 * x86topo_add_sched_group does. TOPO_OK or an error. */
static int build_group(struct fbsd_ctx *b, struct cpu_group *cg, int start, int n, int i)
{
	struct topo *t = b->t;
	topo_group_init(t, cg, start, n);
	int level = i >= 0 && b->layer[i].type == FL_CACHE ? b->layer[i].level : CG_SHARE_NONE;
	int j = i + 1;
	for (; j < b->nlayers && one_node(b, start, n, j); j++)
		if (b->layer[j].type == FL_CACHE && b->layer[j].level > level)
			level = b->layer[j].level;     /* a cache of exactly these CPUs */
	while (j < b->nlayers && b->layer[j].type != FL_CACHE && b->layer[j].type != FL_GROUP)
		j++;                                   /* packages and cores are passed through */
	cg->cg_level = (int8_t)level;
	int cores = b->core_layer < 0 ? 0 : one_node(b, start, n, b->core_layer) ? 1 : 2;
	if (level != CG_SHARE_NONE && n > 1 && cores < 2)
		cg->cg_flags = CG_FLAG_SMT;
	if (j == b->nlayers)
		return TOPO_OK;                        /* no cache below: a leaf */
	const struct layer_of key = { b, j };
	int k = topo_partition(t, start, n, node_key, &key);
	if (k == n)
		return TOPO_OK;                        /* children of one CPU each: a leaf */
	int rc = topo_alloc_children(t, cg, k);
	for (int c = 0, s = start; !rc && c < k; c++) {
		int cn = cg->cg_child[c].cg_count;
		rc = build_group(b, &cg->cg_child[c], s, cn, j);
		s += cn;
	}
	return rc;
}

/* TOPO_ERR_DUP_APIC when two present CPUs have one layout APIC id (FreeBSD
 * would add one CPU twice). */
static int unique_apics(struct topo *t, const struct cpu_desc *descs)
{
	for (int i = cpuset_first(&t->present); i >= 0; i = cpuset_next(&t->present, i))
		for (int j = cpuset_next(&t->present, i); j >= 0; j = cpuset_next(&t->present, j))
			if (descs[i].layout.apic == descs[j].layout.apic)
				return topo_fail_pair(t, TOPO_ERR_DUP_APIC, (unsigned)i, (unsigned)j,
						      "have the same APIC id in their CPUID layout", NULL);
	return TOPO_OK;
}

/* See topo.h. */
int topo_build_freebsd(struct topo *t, const struct cpu_desc *descs, unsigned ncpu,
		       const struct cpuset *present)
{
	int rc = topo_begin(t, TOPO_FREEBSD, ncpu, present);
	if (!rc)
		rc = unique_apics(t, descs);
	if (rc)
		return rc;
	int boot = cpuset_first(&t->present);
	t->fbsd.boot_cpu = (int16_t)boot;
	if (topo_fbsd_probe(&t->fbsd, &descs[boot].layout, t->ncpus, t->error, sizeof(t->error)))
		return TOPO_ERR_UNMODELLED;
	struct fbsd_ctx b = { .t = t, .descs = descs };
	make_layers(&b, &t->fbsd);
	int n = topo_take_cpus(t, descs);
	struct cpu_group *root = &t->groups[t->ngroups++];
	root->cg_parent = NULL;
	rc = build_group(&b, root, 0, n, -1);
	if (rc)
		return rc;
	root->cg_norm = 1;
	topo_norm_children(root);
	t->root = root;
	return TOPO_OK;
}
