/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * machine_check.c — whole-description checks of a parsed machine file:
 * what a single line cannot show (missing keys, missing CPUs, SMT cores and
 * L2 modules that contradict themselves, rows and speeds never given).
 * Portable C.
 */
#include <emul/machine_desc/machine.h>
#include <lib/string.h>
#include <emul/machine_desc/machine_parse.h>

/* The first attribute two CPUs of one core (or module) disagree on, or NULL. */
static const char *mismatch(const struct machine_cpu *a, const struct machine_cpu *b, int same_core)
{
	if (a->type != b->type)
		return "type";
	if (a->package != b->package)
		return "package";
	if (a->llc != b->llc)
		return "llc";
	if (same_core && a->module != b->module)
		return "module";
	return NULL;
}

/* SMT cores and modules coherent, a last-level cache in one package;
 * fills smt_threads. */
static int check_groups(struct machine_parser *p)
{
	struct machine *m = p->m;
	for (unsigned i = 0; i < m->cpu_count; i++) {
		struct machine_cpu *c = &m->cpu[i];
		unsigned threads = 0;
		for (unsigned j = 0; j < m->cpu_count; j++) {
			const struct machine_cpu *o = &m->cpu[j];
			const char *what;
			if (o->core == c->core)
				threads++;
			if (j >= i || (o->core != c->core && o->module != c->module))
				continue;
			what = mismatch(c, o, o->core == c->core);
			if (what)
				return machine_fail(p, c->line,
						    "CPU %u is in %s %u with CPU %u (line %u) but has a different %s",
						    i, o->core == c->core ? "core" : "module",
						    o->core == c->core ? c->core : c->module, j, o->line, what);
			if (o->core == c->core && o->thread == c->thread)
				return machine_fail(p, c->line,
						    "CPU %u repeats thread %u of core %u (CPU %u, line %u)", i,
						    c->thread, c->core, j, o->line);
		}
		for (unsigned j = 0; j < i; j++) {
			const struct machine_cpu *o = &m->cpu[j];
			if (c->llc != MACHINE_NO_LLC && o->llc == c->llc && o->package != c->package)
				return machine_fail(p, c->line,
						    "CPU %u shares llc %u with CPU %u (line %u) but is in package %u, not %u",
						    i, c->llc, j, o->line, c->package, o->package);
		}
		c->smt_threads = (uint8_t)threads;
	}
	for (unsigned i = 0; i < m->cpu_count; i++) {
		const struct machine_cpu *c = &m->cpu[i];
		if (c->thread >= c->smt_threads)
			return machine_fail(p, c->line, "CPU %u: thread=%u but core %u has %u thread(s)",
					    i, c->thread, c->core, c->smt_threads);
	}
	return 0;
}

/* Every row in use has values; every core type in use has its speeds. */
static int check_rows_and_speeds(struct machine_parser *p)
{
	struct machine *m = p->m;
	for (unsigned i = 0; i < m->cpu_count; i++) {
		const struct machine_cpu *c = &m->cpu[i];
		const char *type = machine_core_type_name(c->type);
		if (c->hfi_row != MACHINE_NO_ROW && !m->hfi[c->hfi_row].set)
			return machine_fail(p, c->line, "CPU %u uses HFI row %d, which has no 'hfi' line",
					    i, (int)c->hfi_row);
		if (!m->speed[c->type])
			return machine_fail(p, c->line,
					    "CPU %u is a %s core but there is no 'speed %s' line", i,
					    type, type);
		if (c->smt_threads > 1 && !m->smt_throughput[c->type])
			return machine_fail(p, c->line,
					    "core %u has %u threads but there is no 'smt-throughput %s' line",
					    c->core, c->smt_threads, type);
	}
	return 0;
}

int machine_check(struct machine_parser *p)
{
	struct machine *m = p->m;
	static const char *const keys[] = { "model", "cpus", "memory" };
	const unsigned lines[] = { p->line_model, p->line_cpus, p->line_memory };
	for (unsigned k = 0; k < 3; k++)
		if (!lines[k])
			return machine_fail(p, p->line ? p->line : 1, "end of file without a '%s' line",
					    keys[k]);
	if (machine_check_hfi(p))
		return -1;
	if (m->topology == MACHINE_TOPOLOGY_CPUID && p->line_cpuid_levels)
		return machine_fail(p, p->line_cpuid_levels,
				    "'cpuid-levels' describes the cpu lines, and 'topology cpuid' has none");
	if (m->topology == MACHINE_TOPOLOGY_CPUID)
		return machine_power_check(p) || machine_class_speed_check(p) ? -1 : 0;
	for (unsigned i = 0; i < m->cpu_count; i++)
		if (!m->cpu[i].line)
			return machine_fail(p, p->line_cpus, "'cpus %u' but CPU %u is not described",
					    m->cpu_count, i);
	if (check_groups(p) || check_rows_and_speeds(p))
		return -1;
	return machine_power_check(p) || machine_class_speed_check(p) ? -1 : 0;
}
