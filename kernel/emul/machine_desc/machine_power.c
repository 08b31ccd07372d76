/*
 * machine_power.c — the optional `power` statement of a machine
 * description (docs/machines.md): a per-package power budget and what one
 * busy core of each type asks for, the input of the work clock's power
 * model (docs/hfi.md). Portable C, no allocation.
 *
 *     power budget=W TYPE=W... [smt=W]
 *
 * W is watts, a decimal with at most three decimals, 0 < W <= 1000
 * (smt= may be 0: a second busy thread costs nothing more).
 */
#include <machine.h>
#include <string.h>
#include "machine_parse.h"

#define POWER_KEYS "budget= P= E= LP-E= none= smt="

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

/* See machine_parse.h. Fills m->power only once the whole line is good. */
int machine_power_parse(struct machine_parser *p, char **tok, int ntok)
{
	struct machine_power pw;
	unsigned seen = 0;   /* bit t: core type t; bit 4: budget; bit 5: smt */
	if (p->m->power.line)
		return machine_fail(p, p->line, "duplicate 'power' (first at line %u)",
				    p->m->power.line);
	memset(&pw, 0, sizeof(pw));
	for (int i = 1; i < ntok; i++) {
		char *eq = strchr(tok[i], '=');
		int t;
		unsigned bit;
		uint32_t *dst;
		if (!eq)
			return machine_fail(p, p->line, "unknown power attribute '%s' (expected %s)",
					    tok[i], POWER_KEYS);
		*eq = 0;
		if (strcmp(tok[i], "budget") == 0) {
			bit = 4;
			dst = &pw.budget_mw;
		} else if (strcmp(tok[i], "smt") == 0) {
			bit = 5;
			dst = &pw.smt_mw;
		} else if ((t = machine_core_type_by_name(tok[i])) >= 0) {
			bit = (unsigned)t;
			dst = &pw.core_mw[t];
		} else {
			return machine_fail(p, p->line, "unknown power attribute '%s' (expected %s)",
					    tok[i], POWER_KEYS);
		}
		if (seen & (1u << bit))
			return machine_fail(p, p->line, "'%s=' given twice", tok[i]);
		seen |= 1u << bit;
		if (power_watts(p, eq + 1, tok[i], bit == 5, dst))
			return -1;
	}
	if (!(seen & (1u << 4)))
		return machine_fail(p, p->line, "'power' needs budget=W (and TYPE=W for each core type)");
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
