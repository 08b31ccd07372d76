/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * machine_class_speed.c — the optional `class-speed` statement of a
 * machine description (docs/machines.md): how fast code of each Thread
 * Director class (kernel/lib/itd_class.h) runs on each core type,
 * relative to class-0 (scalar) code on the same core type. The work clock
 * uses it (docs/hfi.md); class 0 is the `speed` line's and cannot be
 * given here. Portable C, no allocation.
 *
 *     class-speed CLASS TYPE=X...
 *
 * CLASS: scalar, vector, vnni, spin or a digit 1..7 (not 0). X: a decimal
 * with at most three decimals, 0 < X <= CLASS_SPEED_MAX_WHOLE.
 */
#include <emul/machine_desc/machine.h>
#include <lib/itd_names.h>
#include <lib/string.h>
#include <emul/machine_desc/machine_parse.h>

/* A class may run up to 8 times faster than scalar code on the same core
 * (a wide vector unit against scalar code): a bound on the input, not a
 * claim about any part. */
#define CLASS_SPEED_MAX_WHOLE 8
#define CLASS_SPEED_KEYS "P= E= LP-E= none="

/* See machine.h. */
unsigned machine_class_speed(const struct machine *m, unsigned cls, unsigned type)
{
	if (cls == 0 || cls >= MACHINE_HFI_CLASSES_MAX || type >= MACHINE_CORE_TYPES ||
	    !m->class_speed[cls][type])
		return MACHINE_SPEED_ONE;
	return m->class_speed[cls][type];
}

/* See machine_parse.h. Fills the class's factors only once the whole line
 * is good. */
int machine_class_speed_parse(struct machine_parser *p, char **tok, int ntok)
{
	struct machine *m = p->m;
	uint16_t f[MACHINE_CORE_TYPES] = { 0 };
	int cls;
	if (ntok < 3)
		return machine_fail(p, p->line, "expected 'class-speed CLASS TYPE=X...' (e.g. "
					       "'class-speed vector P=1.0 E=0.7')");
	cls = itd_class_by_name(tok[1]);
	if (cls < 0 || cls >= MACHINE_HFI_CLASSES_MAX)
		return machine_fail(p, p->line,
				    "unknown class '%s' (expected vector, vnni, spin or 1..%d)", tok[1],
				    MACHINE_HFI_CLASSES_MAX - 1);
	if (cls == 0)
		return machine_fail(p, p->line,
				    "class-speed of class 0 (scalar): that is the 'speed' line's speed");
	if (m->class_speed_line[cls])
		return machine_fail(p, p->line, "duplicate 'class-speed %s' (first at line %u)",
				    tok[1], m->class_speed_line[cls]);
	for (int i = 2; i < ntok; i++) {
		char *eq = strchr(tok[i], '=');
		uint64_t v;
		int t;
		if (eq)
			*eq = 0;
		if (!eq || (t = machine_core_type_by_name(tok[i])) < 0)
			return machine_fail(p, p->line, "unknown class-speed attribute '%s' (expected %s)",
					    tok[i], CLASS_SPEED_KEYS);
		if (f[t])
			return machine_fail(p, p->line, "'%s=' given twice", tok[i]);
		if (machine_thousandths(eq + 1, CLASS_SPEED_MAX_WHOLE, &v) || v == 0 ||
		    v > CLASS_SPEED_MAX_WHOLE * MACHINE_SPEED_ONE)
			return machine_fail(p, p->line,
					    "bad number '%s' for %s= (expected a factor above 0 up to %d, "
					    "at most three decimals, e.g. 0.7)",
					    eq + 1, tok[i], CLASS_SPEED_MAX_WHOLE);
		f[t] = (uint16_t)v;
	}
	memcpy(m->class_speed[cls], f, sizeof(f));
	m->class_speed_line[cls] = p->line;
	return 0;
}

/* See machine_parse.h. */
int machine_class_speed_check(struct machine_parser *p)
{
	const struct machine *m = p->m;
	for (unsigned cls = 1; cls < MACHINE_HFI_CLASSES_MAX; cls++) {
		unsigned line = m->class_speed_line[cls];
		if (!line)
			continue;
		if (m->topology == MACHINE_TOPOLOGY_CPUID)
			return machine_fail(p, line,
					    "'class-speed' needs the cpu lines ('topology cpuid' has none)");
		for (unsigned i = 0; i < m->cpu_count; i++) {
			const struct machine_cpu *c = &m->cpu[i];
			const char *type = machine_core_type_name(c->type);
			if (!m->class_speed[cls][c->type])
				return machine_fail(p, line,
						    "'class-speed %s' gives no %s= but CPU %u (line %u) is a %s core",
						    itd_class_name(cls), type, i, c->line, type);
		}
	}
	return 0;
}
