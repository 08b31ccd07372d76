/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * machine_power.c — the optional `power` statement of a machine
 * description (docs/machines.md): what one busy core of each type draws,
 * what idle cores and the rest of the package draw, and optionally a
 * per-package power budget: the input of the work clock's power and
 * energy model (docs/hfi.md). Portable C, no allocation.
 *
 *     power TYPE=W... [smt=W] [idle-TYPE=W...] [base=W] [budget=W]
 *
 * W is watts, a decimal with at most three decimals, 0 < W <= 1000
 * (smt=, idle-TYPE= and base= may be 0).
 */
#include <emul/machine_desc/machine.h>
#include <lib/string.h>
#include <emul/machine_desc/machine_parse.h>

#define POWER_KEYS "P= E= LP-E= none= smt= idle-P= idle-E= idle-LP-E= idle-none= base= budget="
#define POWER_SEEN_BUDGET (2u * MACHINE_CORE_TYPES)   /* bits 0..3 TYPE=, 4..7 idle-TYPE= */
#define POWER_SEEN_SMT (POWER_SEEN_BUDGET + 1)
#define POWER_SEEN_BASE (POWER_SEEN_BUDGET + 2)

/* "28", "6.5", "0.125": watts into milliwatts, 0..MACHINE_POWER_MAX_MW
 * (0 only when allow_zero); else a "bad number" error naming `what`. */
static int power_watts(struct machine_parser *p, const char *s, const char *what, int allow_zero,
		       uint32_t *out)
{
	uint64_t mw;
	if (machine_thousandths(s, MACHINE_POWER_MAX_MW / 1000, &mw) || mw > MACHINE_POWER_MAX_MW ||
	    (mw == 0 && !allow_zero))
		return machine_fail(p, p->line,
				    "bad number '%s' for %s (expected watts, %s 1000, at most three decimals, e.g. 6.5)",
				    s, what, allow_zero ? "0 to" : "above 0 up to");
	*out = (uint32_t)mw;
	return 0;
}

/* Where attribute key of a power line goes: *dst, seen-bit *bit and
 * whether 0 W is allowed; -1 if key is no power attribute. */
static int power_key(struct machine_power *pw, const char *key, uint32_t **dst, unsigned *bit,
		     int *allow_zero)
{
	int t;
	*allow_zero = 1;
	if (strcmp(key, "budget") == 0) {
		*bit = POWER_SEEN_BUDGET;
		*dst = &pw->budget_mw;
		*allow_zero = 0;
	} else if (strcmp(key, "smt") == 0) {
		*bit = POWER_SEEN_SMT;
		*dst = &pw->smt_mw;
	} else if (strcmp(key, "base") == 0) {
		*bit = POWER_SEEN_BASE;
		*dst = &pw->base_mw;
	} else if (strncmp(key, "idle-", 5) == 0 && (t = machine_core_type_by_name(key + 5)) >= 0) {
		*bit = MACHINE_CORE_TYPES + (unsigned)t;
		*dst = &pw->idle_mw[t];
	} else if ((t = machine_core_type_by_name(key)) >= 0) {
		*bit = (unsigned)t;
		*dst = &pw->core_mw[t];
		*allow_zero = 0;
	} else {
		return -1;
	}
	return 0;
}

/* See machine_parse.h. Fills m->power only once the whole line is good. */
int machine_power_parse(struct machine_parser *p, char **tok, int ntok)
{
	struct machine_power pw;
	unsigned seen = 0;   /* bits: see POWER_SEEN_* */
	if (p->m->power.line)
		return machine_fail(p, p->line, "duplicate 'power' (first at line %u)",
				    p->m->power.line);
	memset(&pw, 0, sizeof(pw));
	for (int i = 1; i < ntok; i++) {
		char *eq = strchr(tok[i], '=');
		unsigned bit;
		uint32_t *dst;
		int allow_zero;
		if (!eq)
			return machine_fail(p, p->line, "unknown power attribute '%s' (expected %s)",
					    tok[i], POWER_KEYS);
		*eq = 0;
		if (power_key(&pw, tok[i], &dst, &bit, &allow_zero))
			return machine_fail(p, p->line, "unknown power attribute '%s' (expected %s)",
					    tok[i], POWER_KEYS);
		if (seen & (1u << bit))
			return machine_fail(p, p->line, "'%s=' given twice", tok[i]);
		seen |= 1u << bit;
		if (power_watts(p, eq + 1, tok[i], allow_zero, dst))
			return -1;
	}
	if (!(seen & ((1u << MACHINE_CORE_TYPES) - 1)))
		return machine_fail(p, p->line, "'power' needs TYPE=W for each core type (e.g. P=7 E=1.5)");
	pw.line = p->line;
	p->m->power = pw;
	return 0;
}

/* See machine_parse.h. */
int machine_power_check(struct machine_parser *p)
{
	const struct machine *m = p->m;
	if (!m->power.line)
		return 0;
	if (m->topology == MACHINE_TOPOLOGY_CPUID)
		return machine_fail(p, m->power.line,
				    "'power' needs the cpu lines ('topology cpuid' has none)");
	for (unsigned i = 0; i < m->cpu_count; i++) {
		const struct machine_cpu *c = &m->cpu[i];
		const char *type = machine_core_type_name(c->type);
		if (!m->power.core_mw[c->type])
			return machine_fail(p, m->power.line,
					    "'power' gives no %s= but CPU %u (line %u) is a %s core", type,
					    i, c->line, type);
	}
	return 0;
}
