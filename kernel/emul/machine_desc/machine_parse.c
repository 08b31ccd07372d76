/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * machine_parse.c — the machine-description text format (docs/machines.md)
 * into a struct machine. Line by line; whole-machine consistency checks are
 * in machine_check.c. Portable C, no allocation.
 */
#include <emul/machine_desc/machine.h>
#include <kern/printk.h>
#include <lib/string.h>
#include <emul/machine_desc/machine_parse.h>

#define LINE_MAX_LEN 256
#define MAX_TOKENS   16

/* Format "FILE:LINE: message" into the caller's error buffer; returns -1. */
int machine_fail(struct machine_parser *p, unsigned line, const char *fmt, ...)
{
	int n = ksnprintf(p->err, p->err_size, "%s:%u: ", p->file, line);
	if (n < 0 || (size_t)n >= p->err_size)
		return -1;
	va_list ap;
	va_start(ap, fmt);
	kvsnprintf(p->err + n, p->err_size - n, fmt, ap);
	va_end(ap);
	return -1;
}

/* Split "key=value" in place; value NULL when there is no '='. */
static char *split_attr(char *tok)
{
	char *eq = strchr(tok, '=');
	if (!eq)
		return NULL;
	*eq = 0;
	return eq + 1;
}

/* A header key may appear once: remember its line in *first. */
static int once(struct machine_parser *p, const char *key, unsigned *first)
{
	if (*first)
		return machine_fail(p, p->line, "duplicate '%s' (first at line %u)", key, *first);
	*first = p->line;
	return 0;
}

/* See machine_parse.h. */
int machine_row_value(struct machine_parser *p, const char *s, int allow_none, int32_t *out)
{
	uint64_t v;
	if (allow_none && strcmp(s, "none") == 0) {
		*out = MACHINE_NO_ROW;
		return 0;
	}
	if (!p->line_hfi_rows)
		return machine_fail(p, p->line, "HFI row given before the 'hfi-rows' line");
	if (machine_number(p, s, "HFI row", MACHINE_MAX_ROWS - 1, &v))
		return -1;
	if (p->m->hfi_rows == 0)
		return machine_fail(p, p->line, "HFI row %lu given but 'hfi-rows 0' (no HFI)",
				    (unsigned long)v);
	if (v >= p->m->hfi_rows)
		return machine_fail(p, p->line, "HFI row %lu out of range (hfi-rows %u: 0..%d)",
				    (unsigned long)v, p->m->hfi_rows, (int)p->m->hfi_rows - 1);
	*out = (int32_t)v;
	return 0;
}

/* cpu N type=T core=C [thread=S] module=M llc=L|none [package=K] row=R|none */
static int parse_cpu(struct machine_parser *p, char **tok, int ntok)
{
	struct machine *m = p->m;
	uint64_t n, v;
	if (!p->line_cpus)
		return machine_fail(p, p->line, "'cpu' line before the 'cpus' line");
	if (m->topology == MACHINE_TOPOLOGY_CPUID)
		return machine_fail(p, p->line, "'cpu' line in a 'topology cpuid' description");
	if (ntok < 2 || machine_number(p, tok[1], "CPU number", MACHINE_MAX_CPUS - 1, &n))
		return ntok < 2 ? machine_fail(p, p->line, "'cpu' needs a CPU number") : -1;
	if (n >= m->cpu_count)
		return machine_fail(p, p->line, "CPU %lu out of range ('cpus %u' at line %u)",
				    (unsigned long)n, m->cpu_count, p->line_cpus);
	struct machine_cpu *c = &m->cpu[n];
	if (c->line)
		return machine_fail(p, p->line, "CPU %lu described twice (first at line %u)",
				    (unsigned long)n, c->line);
	unsigned seen = 0;   /* bit per attribute below */
	static const char *const attrs[] = { "type", "core", "thread", "module", "llc",
					     "package", "row" };
	for (int i = 2; i < ntok; i++) {
		char *val = split_attr(tok[i]);
		unsigned a = 0;
		while (a < sizeof(attrs) / sizeof(attrs[0]) && strcmp(tok[i], attrs[a]) != 0)
			a++;
		if (a == sizeof(attrs) / sizeof(attrs[0]) || !val)
			return machine_fail(p, p->line, "unknown cpu attribute '%s' (expected %s)",
					    tok[i], "type= core= thread= module= llc= package= row=");
		if (seen & (1u << a))
			return machine_fail(p, p->line, "'%s=' given twice", attrs[a]);
		seen |= 1u << a;
		int t;
		switch (a) {
		case 0:
			if ((t = machine_core_type_by_name(val)) < 0)
				return machine_fail(p, p->line,
						    "unknown core type '%s' (expected P, E, LP-E or none)",
						    val);
			c->type = (uint8_t)t;
			break;
		case 1:
			if (machine_number(p, val, "core=", 0xFFFFFFFEu, &v))
				return -1;
			c->core = (uint32_t)v;
			break;
		case 2:
			if (machine_number(p, val, "thread=", 7, &v))
				return -1;
			c->thread = (uint8_t)v;
			break;
		case 3:
			if (machine_number(p, val, "module=", 0xFFFFFFFEu, &v))
				return -1;
			c->module = (uint32_t)v;
			break;
		case 4:
			if (strcmp(val, "none") == 0)
				v = MACHINE_NO_LLC;
			else if (machine_number(p, val, "llc=", 0xFFFFFFFEu, &v))
				return -1;
			c->llc = (uint32_t)v;
			break;
		case 5:
			if (machine_number(p, val, "package=", 0xFFFFFFFEu, &v))
				return -1;
			c->package = (uint32_t)v;
			break;
		default:
			if (machine_row_value(p, val, 1, &c->hfi_row))
				return -1;
			break;
		}
	}
	static const unsigned required = 1u << 0 | 1u << 1 | 1u << 3 | 1u << 4 | 1u << 6;
	for (unsigned a = 0; a < sizeof(attrs) / sizeof(attrs[0]); a++)
		if ((required & (1u << a)) && !(seen & (1u << a)))
			return machine_fail(p, p->line, "cpu %lu: missing %s=", (unsigned long)n,
					    attrs[a]);
	c->line = p->line;
	return 0;
}

/* speed T X / smt-throughput T X */
static int parse_speed(struct machine_parser *p, char **tok, int ntok, uint16_t *table,
		       unsigned *lines)
{
	int t;
	if (ntok != 3)
		return machine_fail(p, p->line, "expected '%s TYPE NUMBER'", tok[0]);
	if ((t = machine_core_type_by_name(tok[1])) < 0)
		return machine_fail(p, p->line, "unknown core type '%s' (expected P, E, LP-E or none)",
				    tok[1]);
	if (lines[t])
		return machine_fail(p, p->line, "duplicate '%s %s' (first at line %u)", tok[0], tok[1],
				    lines[t]);
	lines[t] = p->line;
	return machine_speed_value(p, tok[2], tok[0], &table[t]);
}

/* One line, comment already removed, split into tokens; rest = the text
 * after the first token (for `model`). */
static int parse_line(struct machine_parser *p, char **tok, int ntok, const char *rest)
{
	struct machine *m = p->m;
	const char *key = tok[0];
	uint64_t v;
	if (strcmp(key, "model") == 0) {
		size_t n = strlen(rest);
		if (once(p, key, &p->line_model))
			return -1;
		if (n == 0 || n >= sizeof(m->model))
			return machine_fail(p, p->line, "model name must be 1..%zu characters",
					    sizeof(m->model) - 1);
		memcpy(m->model, rest, n + 1);
		return 0;
	}
	if (strcmp(key, "cpu") == 0)
		return parse_cpu(p, tok, ntok);
	if (strcmp(key, "hfi") == 0)
		return machine_parse_hfi(p, tok, ntok);
	if (strcmp(key, "event") == 0)
		return machine_parse_event(p, tok, ntok);
	if (strcmp(key, "hfi-classes") == 0)
		return machine_parse_hfi_classes(p, tok, ntok);
	if (strcmp(key, "hfi-features") == 0)
		return machine_parse_hfi_features(p, tok, ntok);
	if (strcmp(key, "speed") == 0)
		return parse_speed(p, tok, ntok, m->speed, p->line_speed);
	if (strcmp(key, "smt-throughput") == 0)
		return parse_speed(p, tok, ntok, m->smt_throughput, p->line_smt);
	if (strcmp(key, "power") == 0)
		return machine_power_parse(p, tok, ntok);
	if (strcmp(key, "class-speed") == 0)
		return machine_class_speed_parse(p, tok, ntok);
	if (strcmp(key, "cpus") && strcmp(key, "memory") && strcmp(key, "hfi-rows") &&
	    strcmp(key, "topology") && strcmp(key, "cpuid-levels"))
		return machine_fail(p, p->line, "unknown key '%s'", key);
	if (ntok != 2)
		return machine_fail(p, p->line, "'%s' takes one value", key);
	if (strcmp(key, "cpus") == 0) {
		if (once(p, key, &p->line_cpus) ||
		    machine_number(p, tok[1], "cpus", MACHINE_MAX_CPUS, &v))
			return -1;
		if (v == 0)
			return machine_fail(p, p->line, "cpus must be 1..%d", MACHINE_MAX_CPUS);
		m->cpu_count = (unsigned)v;
		m->cpu_count_line = p->line;
		return 0;
	}
	if (strcmp(key, "memory") == 0)
		return once(p, key, &p->line_memory) || machine_memory_value(p, tok[1], &m->mem_bytes) ? -1 : 0;
	if (strcmp(key, "hfi-rows") == 0) {
		if (once(p, key, &p->line_hfi_rows) ||
		    machine_number(p, tok[1], "hfi-rows", MACHINE_MAX_ROWS, &v))
			return -1;
		m->hfi_rows = (unsigned)v;
		return 0;
	}
	if (strcmp(key, "cpuid-levels") == 0) {
		if (once(p, key, &p->line_cpuid_levels))
			return -1;
		if (strcmp(tok[1], "smt,core") && strcmp(tok[1], "smt,core,module"))
			return machine_fail(p, p->line,
					    "cpuid-levels must be 'smt,core' or 'smt,core,module', not '%s'",
					    tok[1]);
		m->cpuid_module = strcmp(tok[1], "smt,core") != 0;
		return 0;
	}
	if (once(p, key, &p->line_topology))
		return -1;
	if (strcmp(tok[1], "file") && strcmp(tok[1], "cpuid"))
		return machine_fail(p, p->line, "topology must be 'file' or 'cpuid', not '%s'", tok[1]);
	if (tok[1][0] == 'c' && p->line_cpu_first)
		return machine_fail(p, p->line, "'topology cpuid' after cpu lines");
	m->topology = tok[1][0] == 'c' ? MACHINE_TOPOLOGY_CPUID : MACHINE_TOPOLOGY_FILE;
	return 0;
}

static int is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

/* Copy one line, drop its comment, tokenize and parse it. */
static int handle_line(struct machine_parser *p, const char *s, size_t n)
{
	char buf[LINE_MAX_LEN];
	char *tok[MAX_TOKENS];
	int ntok = 0;
	if (n >= sizeof(buf))
		return machine_fail(p, p->line, "line longer than %zu characters", sizeof(buf) - 1);
	memcpy(buf, s, n);
	buf[n] = 0;
	char *hash = strchr(buf, '#');
	if (hash)
		*hash = 0;
	for (size_t i = 0; i < n && buf[i]; i++) {
		unsigned char c = (unsigned char)buf[i];
		if (c >= 0x80)
			return machine_fail(p, p->line,
					    "non-ASCII byte 0x%02x at column %u (descriptions are ASCII outside comments)",
					    c, (unsigned)i + 1);
		if ((c < ' ' && !is_blank((char)c)) || c == 0x7f)
			return machine_fail(p, p->line, "control character 0x%02x at column %u", c,
					    (unsigned)i + 1);
	}
	char *q = buf;
	for (;;) {
		while (is_blank(*q))
			q++;
		if (!*q)
			break;
		if (ntok == MAX_TOKENS)
			return machine_fail(p, p->line, "more than %d words", MAX_TOKENS);
		tok[ntok++] = q;
		while (*q && !is_blank(*q))
			q++;
		if (*q)
			*q++ = 0;
	}
	if (ntok == 0)
		return 0;
	/* The words after the key, joined by single spaces (for `model`). */
	char restbuf[LINE_MAX_LEN];
	size_t used = 0;
	restbuf[0] = 0;
	for (int i = 1; i < ntok; i++)
		used += ksnprintf(restbuf + used, sizeof(restbuf) - used, "%s%s", i > 1 ? " " : "",
				  tok[i]);
	if (strcmp(tok[0], "cpu") == 0 && !p->line_cpu_first)
		p->line_cpu_first = p->line;
	return parse_line(p, tok, ntok, restbuf);
}

int machine_parse(struct machine *m, const char *text, size_t len, const char *file_name,
		  char *err, size_t err_size)
{
	struct machine_parser p = { .m = m, .file = file_name, .err = err, .err_size = err_size };
	memset(m, 0, sizeof(*m));
	for (unsigned i = 0; i < MACHINE_MAX_CPUS; i++)
		m->cpu[i].hfi_row = MACHINE_NO_ROW;
	if (err_size)
		err[0] = 0;
	size_t pos = 0;
	while (pos < len) {
		size_t end = pos;
		while (end < len && text[end] != '\n')
			end++;
		p.line++;
		for (size_t i = pos; i < end; i++)
			if (text[i] == 0)
				return machine_fail(&p, p.line, "NUL byte at column %u",
						    (unsigned)(i - pos) + 1);
		if (handle_line(&p, text + pos, end - pos))
			return -1;
		pos = end + 1;
	}
	return machine_check(&p);
}
