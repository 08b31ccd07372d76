/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * machine_values.c — the values of machine-description lines: numbers,
 * decimals, memory sizes, core type names. Portable C.
 */
#include <emul/machine_desc/machine.h>
#include <lib/string.h>
#include <emul/machine_desc/machine_parse.h>

const char *machine_core_type_name(unsigned type)
{
	switch (type) {
	case CPU_CORE_P: return "P";
	case CPU_CORE_E: return "E";
	case CPU_CORE_LPE: return "LP-E";
	default: return "none";
	}
}

/* Core type by name; -1 if unknown (see machine_parse.h). */
int machine_core_type_by_name(const char *s)
{
	for (unsigned t = 0; t < MACHINE_CORE_TYPES; t++)
		if (strcmp(s, machine_core_type_name(t)) == 0)
			return (int)t;
	return -1;
}

/* Decimal integer 0..max; the whole string must be digits. */
int machine_parse_uint(const char *s, uint64_t max, uint64_t *out)
{
	uint64_t v = 0;
	if (!*s)
		return -1;
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return -1;
		v = v * 10 + (uint64_t)(*s - '0');
		if (v > max)
			return -1;
	}
	*out = v;
	return 0;
}

/* A number token for `what`, 0..max, or a "bad number" error. */
int machine_number(struct machine_parser *p, const char *s, const char *what, uint64_t max,
		  uint64_t *out)
{
	if (machine_parse_uint(s, max, out) == 0)
		return 0;
	return machine_fail(p, p->line, "bad number '%s' for %s (expected 0..%lu)", s, what,
			    (unsigned long)max);
}

/* See machine_parse.h. */
int machine_thousandths(const char *s, uint64_t max_whole, uint64_t *out)
{
	uint64_t whole = 0, frac = 0;
	unsigned digits = 0;
	const char *dot = strchr(s, '.');
	char intpart[16];
	size_t n = dot ? (size_t)(dot - s) : strlen(s);
	if (n == 0 || n >= sizeof(intpart))
		return -1;
	memcpy(intpart, s, n);
	intpart[n] = 0;
	if (machine_parse_uint(intpart, max_whole, &whole))
		return -1;
	if (dot) {
		for (const char *d = dot + 1; *d; d++, digits++) {
			if (*d < '0' || *d > '9' || digits >= 3)
				return -1;
			frac = frac * 10 + (uint64_t)(*d - '0');
		}
		if (digits == 0)
			return -1;
	}
	for (; digits < 3; digits++)
		frac *= 10;
	*out = whole * 1000 + frac;
	return 0;
}

/* "1", "0.54", "1.390": above 0, at most three decimals, below 65.536. */
int machine_speed_value(struct machine_parser *p, const char *s, const char *what, uint16_t *out)
{
	uint64_t v;
	if (machine_thousandths(s, 65, &v) || v == 0 || v > 0xFFFF)
		return machine_fail(p, p->line,
				    "bad number '%s' for %s (expected a decimal above 0, e.g. 0.54)", s,
				    what);
	*out = (uint16_t)v;
	return 0;
}

/* "512M", "2G": bytes, MACHINE_MEM_MIN..MACHINE_MEM_MAX. */
int machine_memory_value(struct machine_parser *p, const char *s, uint64_t *out)
{
	char digits[16];
	size_t n = strlen(s);
	uint64_t v;
	char unit = n ? s[n - 1] : 0;
	if (n < 2 || n - 1 >= sizeof(digits) || (unit != 'M' && unit != 'G'))
		return machine_fail(p, p->line, "bad memory size '%s' (expected e.g. 512M or 2G)", s);
	memcpy(digits, s, n - 1);
	digits[n - 1] = 0;
	if (machine_parse_uint(digits, 1u << 20, &v))
		return machine_fail(p, p->line, "bad memory size '%s' (expected e.g. 512M or 2G)", s);
	v <<= unit == 'M' ? 20 : 30;
	if (v < MACHINE_MEM_MIN || v > MACHINE_MEM_MAX)
		return machine_fail(p, p->line, "memory %s out of range (%luM..%luG)", s,
				    (unsigned long)(MACHINE_MEM_MIN >> 20),
				    (unsigned long)(MACHINE_MEM_MAX >> 30));
	*out = v;
	return 0;
}
