/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * topo_spec.c — the cpu_group tree as FreeBSD's kern.sched.topology_spec
 * XML, so tools that read FreeBSD's output read ours:
 *   <groups>
 *    <group level="1" cache-level="3">
 *     <cpu count="20" mask="fffff,0,0,0">0, 1, ..., 19</cpu>
 *     <children>
 *      <group level="2" cache-level="2">
 *       <cpu count="2" mask="3,0,0,0">0, 1</cpu>
 *       <flags><flag name="THREAD">THREAD group</flag><flag name="SMT">SMT group</flag></flags>
 *      </group> ...
 * level = depth (root 1), cache-level = share level, mask = 64-bit words in
 * hex, lowest first. Output through the caller's printf-like callback.
 */
#include <sched/topo.h>

/* Prints n spaces. */
static void indent(int n, topo_printf_fn pf, void *ctx)
{
	while (n-- > 0)
		pf(ctx, " ");
}

/* One <group> element for cg at depth (1 = root), children nested. */
static void spec_group(const struct cpu_group *cg, int depth, topo_printf_fn pf, void *ctx)
{
	int in = 2 * depth - 1;
	indent(in, pf, ctx);
	pf(ctx, "<group level=\"%d\" cache-level=\"%d\">\n", depth, cg->cg_level);
	indent(in + 1, pf, ctx);
	pf(ctx, "<cpu count=\"%d\" mask=\"", cg->cg_count);
	for (int w = 0; w < CPUSET_WORDS; w++)
		pf(ctx, "%s%lx", w ? "," : "", (unsigned long)cg->cg_mask.bits[w]);
	pf(ctx, "\">");
	for (int c = cpuset_next(&cg->cg_mask, -1), n = 0; c >= 0; c = cpuset_next(&cg->cg_mask, c))
		pf(ctx, "%s%d", n++ ? ", " : "", c);
	pf(ctx, "</cpu>\n");
	if (cg->cg_flags) {
		indent(in + 1, pf, ctx);
		pf(ctx, "<flags>");
		if (cg->cg_flags & CG_FLAG_THREAD)
			pf(ctx, "<flag name=\"THREAD\">THREAD group</flag>");
		if (cg->cg_flags & CG_FLAG_SMT)
			pf(ctx, "<flag name=\"SMT\">SMT group</flag>");
		if (cg->cg_flags & CG_FLAG_NODE)
			pf(ctx, "<flag name=\"NODE\">NUMA node</flag>");
		pf(ctx, "</flags>\n");
	}
	if (cg->cg_children) {
		indent(in + 1, pf, ctx);
		pf(ctx, "<children>\n");
		for (int i = 0; i < cg->cg_children; i++)
			spec_group(&cg->cg_child[i], depth + 1, pf, ctx);
		indent(in + 1, pf, ctx);
		pf(ctx, "</children>\n");
	}
	indent(in, pf, ctx);
	pf(ctx, "</group>\n");
}

void topo_print_spec(const struct topo *t, topo_printf_fn pf, void *ctx)
{
	pf(ctx, "<groups>\n");
	if (t->root)
		spec_group(t->root, 1, pf, ctx);
	pf(ctx, "</groups>\n");
}
