/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * topo_build.c — the cpu_group tree from per-CPU descriptors.
 *
 * Top-down partitioning: a group's CPUs are split by the id of the next
 * level down (package, LLC, L2, core, CPU); a level that would give one
 * child is skipped, a split into single CPUs makes the group a leaf.
 * Children are handed out together from t->groups, so each child array is
 * contiguous. Also the pieces the FreeBSD-compatible builder
 * (topo_freebsd.c) shares (topo_int.h). Portable: no platform calls, no
 * allocation.
 */
#include <sched/topo.h>
#include <sched/topo_int.h>
#include <sched/topo_str.h>

enum topo_lvl { TL_CPU, TL_CORE, TL_L2, TL_L3, TL_PKG, TL_ROOT };

struct build_ctx {
	struct topo *t;
	const struct cpu_desc *descs;
};

/* See topo_int.h. */
int topo_fail(struct topo *t, int code, const char *a, uint64_t n1, const char *b, uint64_t n2,
		const char *c)
{
	struct topo_str m;
	topo_str_init(&m, t->error, sizeof(t->error));
	topo_str_add(&m, a);
	topo_str_num(&m, n1, 10);
	topo_str_add(&m, b);
	topo_str_num(&m, n2, 10);
	topo_str_add(&m, c);
	t->root = NULL;
	return code;
}

/* See topo_int.h. */
int topo_fail_pair(struct topo *t, int code, unsigned i, unsigned j, const char *what,
		     const uint32_t *ids)
{
	struct topo_str m;
	topo_str_init(&m, t->error, sizeof(t->error));
	topo_str_add(&m, "CPUs ");
	topo_str_num(&m, i, 10);
	topo_str_add(&m, " and ");
	topo_str_num(&m, j, 10);
	topo_str_add(&m, " ");
	topo_str_add(&m, what);
	if (ids) {
		topo_str_add(&m, " (");
		topo_str_num(&m, ids[0], 10);
		topo_str_add(&m, " and ");
		topo_str_num(&m, ids[1], 10);
		topo_str_add(&m, ")");
	}
	t->error_cpu[0] = (int)i;
	t->error_cpu[1] = (int)j;
	t->root = NULL;
	return code;
}

/* ---- levels ---- */

/* Whether the CPU has a cache of that level (1..3). */
static int has_cache(const struct cpu_desc *d, int level)
{
	return d->cache_id[level] != CPU_DESC_NO_CACHE;
}

/* The id that decides which group of level lvl the CPU belongs to, within
 * its parent group. A missing cache gives an id derived from the level
 * below (so the CPU's group there is the same set) and never equal to a
 * real cache id (those fit in 32 bits). */
static uint64_t level_key(const struct build_ctx *b, int lvl, unsigned cpu)
{
	const struct cpu_desc *d = &b->descs[cpu];
	switch (lvl) {
	case TL_CPU:
		return cpu;
	case TL_CORE:
		return d->core_id;
	case TL_L2:
		return has_cache(d, 2) ? d->cache_id[2] : (1ull << 32) | d->core_id;
	case TL_L3:
		return has_cache(d, 3) ? d->cache_id[3] : (1ull << 34) | level_key(b, TL_L2, cpu);
	case TL_PKG:
		return d->package_id;
	default:
		return 0;
	}
}

/* The cache shared by a group that spans level lvl (all its CPUs agree on
 * the key of lvl, so the first CPU speaks for all). */
static int level_share(const struct build_ctx *b, int lvl, unsigned cpu)
{
	const struct cpu_desc *d = &b->descs[cpu];
	if (lvl == TL_L3 && has_cache(d, 3))
		return CG_SHARE_L3;
	if (lvl == TL_L2 && has_cache(d, 2))
		return CG_SHARE_L2;
	if (lvl == TL_CORE && has_cache(d, 1))
		return CG_SHARE_L1;
	return CG_SHARE_NONE;
}

/* See topo_int.h. */
int topo_partition(struct topo *t, int start, int n, topo_key_fn key, const void *ctx)
{
	uint16_t *ord = t->order + start, *tmp = t->mark, *sizes = t->sizes;
	uint16_t *sorted = t->sorted;
	int k = 0, done = 0;
	for (int i = 0; i < n; i++)
		tmp[i] = 0;   /* 1 = already placed */
	while (done < n) {
		int first = -1;
		uint64_t k0 = 0;
		for (int i = 0; i < n; i++) {
			if (tmp[i])
				continue;
			uint64_t ki = key(ctx, ord[i]);
			if (first < 0) {
				first = i;
				k0 = ki;
			}
			if (ki == k0)
				tmp[i] = (uint16_t)(1 + k);
		}
		sizes[k] = 0;
		for (int i = 0; i < n; i++)
			if (tmp[i] == 1 + k)
				sizes[k]++;
		done += sizes[k];
		k++;
	}
	/* tmp[i] now holds subset+1 per position; gather in subset order. */
	int o = 0;
	for (int s = 1; s <= k; s++)
		for (int i = 0; i < n; i++)
			if (tmp[i] == s)
				sorted[o++] = ord[i];
	for (int i = 0; i < n; i++)
		ord[i] = sorted[i];
	return k;
}

/* A level of the descriptors, as topo_partition's key. */
struct level_of {
	const struct build_ctx *b;
	int lvl;
};

/* topo_key_fn: the key of the level in ctx. */
static uint64_t level_key_of(const void *ctx, unsigned cpu)
{
	const struct level_of *l = ctx;
	return level_key(l->b, l->lvl, cpu);
}

/* topo_partition by the key of level lvl. */
static int partition(struct build_ctx *b, int start, int n, int lvl)
{
	const struct level_of l = { b, lvl };
	return topo_partition(b->t, start, n, level_key_of, &l);
}

/* See topo_int.h. */
void topo_group_init(struct topo *t, struct cpu_group *cg, int start, int n)
{
	cpuset_zero(&cg->cg_mask);
	for (int i = 0; i < n; i++)
		cpuset_set(&cg->cg_mask, t->order[start + i]);
	cg->cg_count = n;
	cg->cg_first = cpuset_first(&cg->cg_mask);
	cg->cg_last = cpuset_last(&cg->cg_mask);
	cg->cg_child = NULL;
	cg->cg_children = 0;
	cg->cg_level = CG_SHARE_NONE;
	cg->cg_flags = 0;
}

/* See topo_int.h. */
int topo_alloc_children(struct topo *t, struct cpu_group *cg, int k)
{
	if (t->ngroups + k > TOPO_MAX_GROUPS)
		return topo_fail(t, TOPO_ERR_TOO_MANY, "topology needs more than ", TOPO_MAX_GROUPS,
				 " groups for ", (uint64_t)t->ncpus, " CPUs");
	cg->cg_child = &t->groups[t->ngroups];
	cg->cg_children = (int16_t)k;
	t->ngroups += k;
	for (int c = 0; c < k; c++) {
		cg->cg_child[c].cg_parent = cg;
		cg->cg_child[c].cg_count = t->sizes[c];   /* kept while siblings recurse */
	}
	return TOPO_OK;
}

/* Whether order[start..start+n) are hardware threads of one core. */
static int one_core(const struct build_ctx *b, int start, int n)
{
	const struct cpu_desc *d0 = &b->descs[b->t->order[start]];
	for (int i = 1; i < n; i++) {
		const struct cpu_desc *d = &b->descs[b->t->order[start + i]];
		if (d->package_id != d0->package_id || d->core_id != d0->core_id)
			return 0;
	}
	return 1;
}

/* Fills cg for the CPUs order[start..start+n), which agree on every level
 * from lvl up, and builds its subtree. Returns TOPO_OK or an error. */
static int build_group(struct build_ctx *b, struct cpu_group *cg, int start, int n, int lvl)
{
	struct topo *t = b->t;
	topo_group_init(t, cg, start, n);
	if (n > 1 && one_core(b, start, n))
		cg->cg_flags = CG_FLAG_SMT;

	int k;
	for (;; lvl--) {
		int share = level_share(b, lvl, t->order[start]);
		if (share > cg->cg_level)
			cg->cg_level = (int8_t)share;
		if (lvl == TL_CORE)
			return TOPO_OK;                 /* children would be CPUs */
		k = partition(b, start, n, lvl - 1);
		if (k == n && n > 1)
			return TOPO_OK;                 /* all children single CPUs: leaf */
		if (k > 1)
			break;
	}
	int rc = topo_alloc_children(t, cg, k);
	for (int c = 0, s = start; !rc && c < k; c++) {
		int cn = cg->cg_child[c].cg_count;
		rc = build_group(b, &cg->cg_child[c], s, cn, lvl - 1);
		s += cn;
	}
	return rc;
}

static uint64_t gcd(uint64_t a, uint64_t b)
{
	while (b) {
		uint64_t r = a % b;
		a = b;
		b = r;
	}
	return a;
}

/* See topo_int.h. */
void topo_norm_children(struct cpu_group *cg)
{
	uint64_t lcm = 1;
	for (int c = 0; c < cg->cg_children && lcm <= TOPO_NORM_MAX; c++) {
		uint64_t n = (uint64_t)cg->cg_child[c].cg_count;
		lcm = lcm / gcd(lcm, n) * n;
	}
	for (int c = 0; c < cg->cg_children; c++) {
		struct cpu_group *child = &cg->cg_child[c];
		uint64_t n = (uint64_t)child->cg_count;
		child->cg_norm = lcm <= TOPO_NORM_MAX ? (int32_t)(lcm / n)
						      : (int32_t)((TOPO_NORM_MAX + n / 2) / n);
		topo_norm_children(child);
	}
}

/* Rejects descriptor sets that cannot form one tree: equal APIC ids, SMT
 * siblings on different caches, an L2 or L3 shared across packages, L2
 * sharers on different L3s. Every pair of CPUs is compared, whatever its
 * packages: a CPU whose package id is wrong is caught by the caches it
 * shares with the others. */
static int validate(struct topo *t, const struct cpu_desc *descs, unsigned ncpu)
{
	for (unsigned i = 0; i < ncpu; i++) {
		if (!cpuset_isset(&t->present, i))
			continue;
		const struct cpu_desc *a = &descs[i];
		for (unsigned j = i + 1; j < ncpu; j++) {
			if (!cpuset_isset(&t->present, j))
				continue;
			const struct cpu_desc *d = &descs[j];
			const uint32_t pkgs[2] = { a->package_id, d->package_id };
			int same_pkg = a->package_id == d->package_id;
			if (a->apic_id == d->apic_id)
				return topo_fail_pair(t, TOPO_ERR_DUP_APIC, i, j, "have the same APIC id", NULL);
			if (has_cache(a, 2) && a->cache_id[2] == d->cache_id[2] && !same_pkg)
				return topo_fail_pair(t, TOPO_ERR_INCONSISTENT, i, j,
						 "share an L2 but are in different packages", pkgs);
			if (has_cache(a, 3) && a->cache_id[3] == d->cache_id[3] && !same_pkg)
				return topo_fail_pair(t, TOPO_ERR_INCONSISTENT, i, j,
						 "share an L3 but are in different packages", pkgs);
			if (same_pkg && a->core_id == d->core_id &&
			    (a->cache_id[2] != d->cache_id[2] || a->cache_id[3] != d->cache_id[3]))
				return topo_fail_pair(t, TOPO_ERR_INCONSISTENT, i, j,
						 "are threads of one core but report different L2/L3 caches",
						 NULL);
			if (has_cache(a, 2) && a->cache_id[2] == d->cache_id[2] &&
			    a->cache_id[3] != d->cache_id[3])
				return topo_fail_pair(t, TOPO_ERR_INCONSISTENT, i, j,
						 "share an L2 but report different L3 caches", NULL);
		}
	}
	return TOPO_OK;
}

/* See topo_int.h. */
int topo_take_cpus(struct topo *t, const struct cpu_desc *descs)
{
	int n = 0;
	for (int c = cpuset_first(&t->present); c >= 0; c = cpuset_next(&t->present, c)) {
		t->order[n++] = (uint16_t)c;
		t->core_type[c] = descs[c].core_type;
		if (descs[c].source != descs[t->order[0]].source)
			t->mixed_sources = 1;
	}
	t->source = descs[t->order[0]].source;
	return n;
}

/* See topo_int.h. */
int topo_begin(struct topo *t, int kind, unsigned ncpu, const struct cpuset *present)
{
	t->root = NULL;
	t->kind = (uint8_t)kind;
	t->ncpus = 0;
	t->ngroups = 0;
	t->error[0] = 0;
	t->error_cpu[0] = t->error_cpu[1] = -1;
	t->flat = 0;
	t->mixed_sources = 0;
	if (ncpu > TOPO_MAXCPU)
		return topo_fail(t, TOPO_ERR_TOO_MANY, "", ncpu, " CPUs exceed MAXCPU (", TOPO_MAXCPU, ")");
	cpuset_zero(&t->present);
	for (unsigned i = 0; i < ncpu; i++)
		if (!present || cpuset_isset(present, i))
			cpuset_set(&t->present, i);
	t->ncpus = cpuset_count(&t->present);
	if (t->ncpus == 0)
		return topo_fail(t, TOPO_ERR_NO_CPUS, "no CPUs to build a topology from (", ncpu,
				 " descriptors, ", 0, " present)");
	return TOPO_OK;
}

int topo_build(struct topo *t, const struct cpu_desc *descs, unsigned ncpu,
	       const struct cpuset *present)
{
	int rc = topo_begin(t, TOPO_MOSAIC, ncpu, present);
	if (rc)
		return rc;
	rc = validate(t, descs, ncpu);
	if (rc)
		return rc;

	int n = topo_take_cpus(t, descs);
	struct build_ctx b = { t, descs };
	struct cpu_group *root = &t->groups[t->ngroups++];
	root->cg_parent = NULL;
	rc = build_group(&b, root, 0, n, TL_ROOT);
	if (rc)
		return rc;
	root->cg_norm = 1;
	topo_norm_children(root);
	t->root = root;
	return TOPO_OK;
}

struct cpu_group *topo_find(struct cpu_group *top, int cpu)
{
	if (!top || cpu < 0 || !cpuset_isset(&top->cg_mask, (unsigned)cpu))
		return NULL;
	while (top->cg_children) {
		struct cpu_group *next = NULL;
		for (int i = 0; i < top->cg_children && !next; i++)
			if (cpuset_isset(&top->cg_child[i].cg_mask, (unsigned)cpu))
				next = &top->cg_child[i];
		if (!next)
			return NULL;
		top = next;
	}
	return top;
}
