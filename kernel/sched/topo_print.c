/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * topo_print.c — the cpu_group tree as readable text (the `topo` command,
 * the host replay tool) and the name helpers. Output goes through the
 * caller's printf-like callback; nothing here allocates or locks.
 */
#include <sched/topo.h>
#include <sched/topo_str.h>

const char *topo_share_name(int level)
{
	static const char *const names[] = { "none", "L1", "L2", "L3" };
	return level >= 0 && level <= CG_SHARE_L3 ? names[level] : "?";
}

const char *topo_core_type_name(int core_type)
{
	switch (core_type) {
	case CPU_CORE_P: return "P-core";
	case CPU_CORE_E: return "E-core";
	case CPU_CORE_LPE: return "LP-E-core";
	default: return "";
	}
}

const char *topo_source_name(int source)
{
	switch (source) {
	case CPU_DESC_FROM_CPUID: return "CPUID";
	case CPU_DESC_FROM_DUMP: return "CPUID dump";
	case CPU_DESC_FROM_MACHINE_FILE: return "machine description";
	default: return "unknown source";
	}
}

const char *topo_kind_name(int kind)
{
	switch (kind) {
	case TOPO_MOSAIC: return "mosaic";
	case TOPO_FREEBSD: return "freebsd";
	default: return "?";
	}
}

/* Whether two C strings are equal (no libc in the portable code). */
static int streq(const char *a, const char *b)
{
	while (*a && *a == *b) {
		a++;
		b++;
	}
	return *a == *b;
}

int topo_kind_find(const char *name)
{
	for (int k = TOPO_MOSAIC; k <= TOPO_FREEBSD; k++)
		if (streq(name, topo_kind_name(k)))
			return k;
	return -1;
}

void topo_cpulist(const struct cpuset *s, char *buf, size_t len)
{
	struct topo_str out;
	topo_str_init(&out, buf, len);
	int c = cpuset_next(s, -1);
	if (c < 0)
		topo_str_add(&out, "none");
	while (c >= 0) {
		int end = c;
		while (cpuset_isset(s, (unsigned)end + 1))
			end++;
		if (out.pos)
			topo_str_add(&out, ",");
		topo_str_num(&out, (uint64_t)c, 10);
		if (end > c) {
			topo_str_add(&out, "-");
			topo_str_num(&out, (uint64_t)end, 10);
		}
		c = cpuset_next(s, end);
	}
	if (out.cut && len >= 4) {
		buf[len - 4] = '.';
		buf[len - 3] = '.';
		buf[len - 2] = '.';
	}
}

/* The core type all CPUs of cg have, or CPU_CORE_UNKNOWN if they differ. */
static int group_core_type(const struct topo *t, const struct cpu_group *cg)
{
	int type = t->core_type[cg->cg_first];
	for (int c = cg->cg_first; c >= 0; c = cpuset_next(&cg->cg_mask, c))
		if (t->core_type[c] != type)
			return CPU_CORE_UNKNOWN;
	return type;
}

/* Names what cg is, singular, into buf: "P-core SMT group", "E-core module",
 * "E-core" (one CPU), "L3 group", "group" (inner, nothing shared), "CPU
 * group" (leaf, nothing shared). */
static void group_kind(const struct topo *t, const struct cpu_group *cg, char *buf, size_t len)
{
	struct topo_str s;
	topo_str_init(&s, buf, len);
	const char *type = topo_core_type_name(group_core_type(t, cg));
	topo_str_add(&s, type);
	if (cg->cg_children == 0 && cg->cg_count == 1) {
		if (!*type)
			topo_str_add(&s, "CPU");
		return;
	}
	if (*type)
		topo_str_add(&s, " ");
	if (cg->cg_children == 0 && (cg->cg_flags & CG_FLAG_THREAD))
		topo_str_add(&s, "SMT group");
	else if (cg->cg_children == 0 && cg->cg_level == CG_SHARE_L2)
		topo_str_add(&s, "module");
	else if (cg->cg_level != CG_SHARE_NONE) {
		topo_str_add(&s, topo_share_name(cg->cg_level));
		topo_str_add(&s, " group");
	} else
		topo_str_add(&s, cg->cg_children ? "group" : "CPU group");
}

#define KINDS_MAX 8
#define KIND_LEN 32

/* Prints "6 P-core SMT groups, 2 E-core modules": cg's children counted by
 * kind, kinds in order of first appearance (beyond KINDS_MAX: "N other"). */
static void print_children_summary(const struct topo *t, const struct cpu_group *cg,
				   topo_printf_fn pf, void *ctx)
{
	char kinds[KINDS_MAX][KIND_LEN];
	int counts[KINDS_MAX], nkinds = 0, other = 0;
	for (int i = 0; i < cg->cg_children; i++) {
		char kind[KIND_LEN];
		group_kind(t, &cg->cg_child[i], kind, sizeof(kind));
		int k = 0;
		while (k < nkinds && !streq(kinds[k], kind))
			k++;
		if (k == nkinds && nkinds == KINDS_MAX) {
			other++;
			continue;
		}
		if (k == nkinds) {
			struct topo_str s;
			topo_str_init(&s, kinds[k], KIND_LEN);
			topo_str_add(&s, kind);
			counts[nkinds++] = 0;
		}
		counts[k]++;
	}
	for (int k = 0; k < nkinds; k++)
		pf(ctx, "%s%d %s%s", k ? ", " : "", counts[k], kinds[k], counts[k] > 1 ? "s" : "");
	if (other)
		pf(ctx, ", %d other group%s", other, other > 1 ? "s" : "");
}

/* One line for cg at depth (1 = root), then its children. */
static void print_group(const struct topo *t, const struct cpu_group *cg, int depth,
			topo_printf_fn pf, void *ctx)
{
	char list[96];
	topo_cpulist(&cg->cg_mask, list, sizeof(list));
	for (int i = 1; i < depth; i++)
		pf(ctx, "  ");
	pf(ctx, "level %d: share %s, cpus %s (%d)%s: ", depth, topo_share_name(cg->cg_level), list,
	   cg->cg_count, (cg->cg_flags & CG_FLAG_SMT) ? ", SMT" : "");
	if (cg->cg_children) {
		print_children_summary(t, cg, pf, ctx);
	} else {
		char kind[KIND_LEN];
		group_kind(t, cg, kind, sizeof(kind));
		pf(ctx, "%s", kind);
	}
	pf(ctx, "\n");
	for (int i = 0; i < cg->cg_children; i++)
		print_group(t, &cg->cg_child[i], depth + 1, pf, ctx);
}

/* Where the FreeBSD tree's shifts came from: "leaf 0x1F and leaf 4". */
static const char *fbsd_source(const struct topo_fbsd *p)
{
	switch (p->path) {
	case TOPO_FBSD_LEAF: return p->leaf == 0x1F ? "leaf 0x1F and leaf 4" : "leaf 0x0B and leaf 4";
	case TOPO_FBSD_LEGACY: return "leaves 1 and 4 (no topology leaf)";
	case TOPO_FBSD_AMD: return "AMD leaves 0x80000001-0x8000001E";
	default: return "nothing: one CPU or a vendor FreeBSD does not probe";
	}
}

/* One layer of the FreeBSD tree: ", NAME >> SHIFT". */
static void print_fbsd_cache(const struct topo_fbsd *p, int level, topo_printf_fn pf, void *ctx)
{
	pf(ctx, ", L%d >> %d", level, p->cache_shift[level]);
	if (p->cache_share[level])
		pf(ctx, " (%u sharing%s)", (unsigned)p->cache_share[level],
		   p->capped >> level & 1 ? ", capped at the package" :
		   p->raised >> level & 1 ? ", raised to the core" : "");
}

/* The line saying which tree t is; for FreeBSD's, the APIC-id shifts of
 * its layers (the conditions of topo_freebsd.c's make_layers). */
static void print_kind(const struct topo *t, topo_printf_fn pf, void *ctx)
{
	const struct topo_fbsd *p = &t->fbsd;
	if (t->kind != TOPO_FREEBSD) {
		pf(ctx, "tree: mosaic, from every CPU's descriptor\n");
		return;
	}
	pf(ctx, "tree: freebsd, FreeBSD's x86 cpu_topo() from CPU %d's %s\n", p->boot_cpu, fbsd_source(p));
	pf(ctx, "  APIC id shifts: package >> %d", p->pkg_shift);
	if (p->pkg_shift > p->node_shift && p->node_shift != 0)
		pf(ctx, ", node >> %d", p->node_shift);
	for (int level = 3; level >= 1; level--)
		if (p->caches >> level & 1)
			print_fbsd_cache(p, level, pf, ctx);
	if (p->pkg_shift > p->core_shift)
		pf(ctx, ", core >> %d", p->core_shift);
	pf(ctx, "\n");
}

void topo_print(const struct topo *t, topo_printf_fn pf, void *ctx)
{
	if (!t->root) {
		pf(ctx, "topology: none (%s)\n", t->error[0] ? t->error : "not built");
		return;
	}
	int leaves = 0;
	for (int i = 0; i < t->ngroups; i++)
		leaves += t->groups[i].cg_children == 0;
	pf(ctx, "topology: %d CPU%s in %d group%s (%d lea%s); descriptors from %s%s\n", t->ncpus,
	   t->ncpus == 1 ? "" : "s", t->ngroups, t->ngroups == 1 ? "" : "s", leaves,
	   leaves == 1 ? "f" : "ves", topo_source_name(t->source),
	   t->mixed_sources ? " and others" : "");
	print_kind(t, pf, ctx);
	print_group(t, t->root, 1, pf, ctx);
}
