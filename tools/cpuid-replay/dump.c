/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * dump.c — parser for InstLatx64 / AIDA64 CPUID dumps (format: docs/cpuid.md).
 *
 * Sections start with "------[ TITLE ]------". Sections titled
 * "CPUID Registers / Logical CPU #n" hold lines
 *     CPUID 00000004: FC004121-02C0003F-0000003F-00000000 [SL 00] [L1D: 48 KB]
 * (leaf: EAX-EBX-ECX-EDX, optional sub-leaf, free text after); sections
 * "MSR Registers / Logical CPU #n" hold lines
 *     MSR 00000771: 0000-0000-0111-0B27
 * (four 16-bit groups, high first; repeated samples: the last wins) or
 * "< FAILED >"; the "All CPUs" section lists the CPUs. InstLatx64's own
 * dumper writes no titles but one line per logical CPU,
 *     Group: 0x00 Affinity mask: 0x0000000000000004
 * (Windows processor group, one bit: here CPU #2), before its CPUID lines.
 * CPUID lines before any section belong to CPU #0, so a single-CPU dump
 * without titles works. Everything else is ignored. The text is read line
 * by line in one pass; the whole-dump checks are in dump_check.c.
 */
#include <tools/cpuid-replay/dump.h>
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum section { SEC_NONE, SEC_CPUID, SEC_MSR, SEC_ALL_CPUS };

struct parser {
	struct dump *d;
	dump_warn_fn warn;
	void *warn_ctx;
	char *err;
	size_t errlen;
	unsigned line;
	enum section sec;
	struct dump_cpu *cur;   /* the section's CPU; NULL before any title */
};

int dump_check(struct dump *d, char *err, size_t errlen);   /* dump_check.c */

/* "NAME:LINE: message" into p->err; returns -1. */
static int perr(struct parser *p, unsigned line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int perr(struct parser *p, unsigned line, const char *fmt, ...)
{
	va_list ap;
	int n = snprintf(p->err, p->errlen, "%s:%u: ", p->d->name, line);
	if (n >= 0 && (size_t)n < p->errlen) {
		va_start(ap, fmt);
		vsnprintf(p->err + n, p->errlen - (size_t)n, fmt, ap);
		va_end(ap);
	}
	return -1;
}

/* Reports a skipped line "NAME:LINE: what: TEXT" (text cut to 80 bytes). */
static void skip_line(struct parser *p, const char *what, const char *text)
{
	char msg[256];
	p->d->skipped++;
	if (!p->warn)
		return;
	snprintf(msg, sizeof(msg), "%s:%u: %s%s%.80s", p->d->name, p->line, what, text ? ": " : "",
		 text ? text : "");
	p->warn(p->warn_ctx, msg);
}

/* Exactly ndigits hex digits (ndigits 0: 1..8 digits) at *p. */
static int hex_field(const char **p, int ndigits, uint32_t *out)
{
	uint32_t v = 0;
	int n = 0;
	while (isxdigit((unsigned char)**p) && (ndigits == 0 ? n < 8 : n < ndigits)) {
		char c = (char)tolower((unsigned char)**p);
		v = v << 4 | (uint32_t)(c <= '9' ? c - '0' : c - 'a' + 10);
		(*p)++;
		n++;
	}
	if (n == 0 || (ndigits && n != ndigits) || isxdigit((unsigned char)**p))
		return -1;
	*out = v;
	return 0;
}

/* Room for one more element in an array of elem-sized items; exits when
 * memory runs out (a host tool: nothing to fall back to). */
static void *grow(void *arr, size_t n, size_t *cap, size_t elem)
{
	if (n < *cap)
		return arr;
	*cap = *cap ? 2 * *cap : 128;
	arr = realloc(arr, *cap * elem);
	if (!arr) {
		perror("cpuid-replay");
		exit(2);
	}
	return arr;
}

/* The CPU with this number (< DUMP_MAX_CPUS), created if new. */
static struct dump_cpu *cpu_get(struct dump *d, unsigned number)
{
	if (!d->cpu[number]) {
		d->cpu[number] = calloc(1, sizeof(*d->cpu[number]));
		if (!d->cpu[number]) {
			perror("cpuid-replay");
			exit(2);
		}
		d->cpu[number]->number = number;
	}
	return d->cpu[number];
}

/* "llllllll: aaaaaaaa-bbbbbbbb-cccccccc-dddddddd [SL ss]" (after "CPUID "):
 * 0, 1 when malformed, -1 (error set) when the CPU has too many lines. */
static int cpuid_line(struct parser *p, const char *s, struct dump_cpu *cpu)
{
	struct dump_leaf l = { .line = p->line };
	if (hex_field(&s, 8, &l.leaf) || *s++ != ':')
		return 1;
	while (*s == ' ')
		s++;
	for (int i = 0; i < 4; i++)
		if (hex_field(&s, 8, &l.regs[i]) || (i < 3 && *s++ != '-'))
			return 1;
	while (*s == ' ')
		s++;
	if (strncmp(s, "[SL ", 4) == 0) {
		s += 4;
		if (hex_field(&s, 0, &l.sub) || *s != ']')
			return 1;
		l.has_sub = 1;
	}
	if (cpu->nleaves == DUMP_MAX_VALUES)
		return perr(p, p->line, "more than %d CPUID lines for logical CPU #%u", DUMP_MAX_VALUES,
			    cpu->number);
	cpu->leaves = grow(cpu->leaves, cpu->nleaves, &cpu->leaves_cap, sizeof(*cpu->leaves));
	cpu->leaves[cpu->nleaves++] = l;
	return 0;
}

/* "mmmmmmmm: hhhh-hhhh-hhhh-hhhh" or "< FAILED >" (after "MSR "): as
 * cpuid_line(). */
static int msr_line(struct parser *p, const char *s, struct dump_cpu *cpu)
{
	struct dump_msr m = { .line = p->line };
	uint32_t g;
	if (hex_field(&s, 8, &m.msr) || *s++ != ':')
		return 1;
	while (*s == ' ')
		s++;
	if (strncmp(s, "< FAILED >", 10) == 0)
		return 0;   /* unreadable on that machine: stays absent */
	for (int i = 0; i < 4; i++) {
		if (hex_field(&s, 4, &g) || (i < 3 && *s++ != '-'))
			return 1;
		m.value = m.value << 16 | g;
	}
	if (cpu->nmsrs == DUMP_MAX_VALUES)
		return perr(p, p->line, "more than %d MSR lines for logical CPU #%u", DUMP_MAX_VALUES,
			    cpu->number);
	cpu->msrs = grow(cpu->msrs, cpu->nmsrs, &cpu->msrs_cap, sizeof(*cpu->msrs));
	cpu->msrs[cpu->nmsrs++] = m;
	return 0;
}

/* A section title: which section it opens, for which CPU. */
static int title(struct parser *p, const char *s)
{
	struct dump *d = p->d;
	const char *n = strstr(s, "Logical CPU #");
	p->sec = SEC_NONE;
	p->cur = NULL;
	if (!n) {
		if (!strstr(s, "[ All CPUs ]"))
			return 0;
		if (d->all_cpus_line)
			return perr(p, p->line, "a second All CPUs section (the first at line %u)",
				    d->all_cpus_line);
		d->all_cpus_line = p->line;
		p->sec = SEC_ALL_CPUS;
		return 0;
	}
	unsigned long v = 0;
	const char *q = n + 13;
	int digits = 0;
	while (isdigit((unsigned char)q[digits]))
		digits++;
	if (!digits)
		return perr(p, p->line, "no number after 'Logical CPU #'");
	for (int i = 0; i < digits; i++)
		if ((v = v * 10 + (unsigned long)(q[i] - '0')) >= DUMP_MAX_CPUS)
			return perr(p, p->line,
				    "logical CPU #%.*s out of range: at most %d logical CPUs (0..%d, the kernel's MAXCPU)",
				    digits < 20 ? digits : 20, q, DUMP_MAX_CPUS, DUMP_MAX_CPUS - 1);
	int is_cpuid = strstr(s, "CPUID Registers") != NULL, is_msr = strstr(s, "MSR Registers") != NULL;
	if (!is_cpuid && !is_msr)
		return 0;
	struct dump_cpu *cpu = cpu_get(d, (unsigned)v);
	unsigned *first = is_cpuid ? &cpu->cpuid_line : &cpu->msr_line;
	if (*first)
		return perr(p, p->line, "a second %s section for logical CPU #%lu (the first at line %u)",
			    is_cpuid ? "CPUID" : "MSR", v, *first);
	*first = p->line;
	p->sec = is_cpuid ? SEC_CPUID : SEC_MSR;
	p->cur = cpu;
	return 0;
}

/* "Group: 0xGG Affinity mask: 0xMMMMMMMMMMMMMMMM" (after "Group: "): opens
 * the CPUID section of CPU GG * 64 + the mask's one bit. */
static int affinity(struct parser *p, const char *s)
{
	uint32_t group;
	if (strncmp(s, "0x", 2) != 0)
		return perr(p, p->line, "a processor group line without a hexadecimal group");
	s += 2;
	if (hex_field(&s, 0, &group) || strncmp(s, " Affinity mask: 0x", 18) != 0)
		return perr(p, p->line, "a processor group line without its affinity mask");
	s += 18;
	uint64_t mask = 0;
	int digits = 0;
	for (; isxdigit((unsigned char)*s) && digits <= 16; s++, digits++)
		mask = mask << 4 | (uint64_t)(isdigit((unsigned char)*s) ? *s - '0' : (tolower((unsigned char)*s) - 'a' + 10));
	while (*s == ' ')
		s++;
	if (digits != 16 || *s)
		return perr(p, p->line, "an affinity mask that is not 16 hexadecimal digits");
	if (!mask || (mask & (mask - 1)))
		return perr(p, p->line, "affinity mask 0x%016llx names %s logical CPU",
			    (unsigned long long)mask, mask ? "more than one" : "no");
	unsigned long long number = (unsigned long long)group * 64 + (unsigned)__builtin_ctzll(mask);
	if (number >= DUMP_MAX_CPUS)
		return perr(p, p->line,
			    "processor group %u, CPU %u out of range: at most %d logical CPUs (0..%d, the kernel's MAXCPU)",
			    group, (unsigned)__builtin_ctzll(mask), DUMP_MAX_CPUS, DUMP_MAX_CPUS - 1);
	struct dump_cpu *cpu = cpu_get(p->d, (unsigned)number);
	if (cpu->cpuid_line)
		return perr(p, p->line, "a second CPUID section for logical CPU #%llu (the first at line %u)",
			    number, cpu->cpuid_line);
	cpu->cpuid_line = p->line;
	p->sec = SEC_CPUID;
	p->cur = cpu;
	return 0;
}

/* One line (NUL-terminated, no line end): 0 or -1 with the error set. */
static int line(struct parser *p, const char *s)
{
	int bad = 0;
	while (*s == ' ' || *s == '\t')
		s++;
	if (strncmp(s, "------[", 7) == 0)
		return title(p, s);
	if (strncmp(s, "Group: ", 7) == 0)
		return affinity(p, s + 7);
	if (p->sec == SEC_CPUID && strncmp(s, "CPUID ", 6) == 0) {
		if (!p->cur) {   /* before any title: CPU #0 */
			p->cur = cpu_get(p->d, 0);
			p->cur->cpuid_line = p->line;
		}
		bad = cpuid_line(p, s + 6, p->cur);
	} else if (p->sec == SEC_MSR && strncmp(s, "MSR ", 4) == 0) {
		bad = msr_line(p, s + 4, p->cur);
	} else if (p->sec == SEC_ALL_CPUS && strncmp(s, "CPU ", 4) == 0) {
		for (s += 4; *s == ' '; s++)
			;
		while (isdigit((unsigned char)*s))
			s++;
		p->d->all_cpus += *s == ':';
	}
	if (bad > 0)
		skip_line(p, "malformed line skipped", s);
	return bad < 0 ? -1 : 0;
}

/* Whether the last line, which has no line end, is whole (the file simply
 * ends without one): a CPUID line with its four registers (and its
 * sub-leaf when the leaf's other lines have one), an MSR line, or a CPU of
 * the All CPUs list, taken without a complaint. skipped and all_cpus are
 * the dump's counts before the line. */
static int whole_last_line(const struct parser *p, const char *s, unsigned skipped, unsigned all_cpus)
{
	const struct dump *d = p->d;
	while (*s == ' ' || *s == '\t')
		s++;
	if (d->skipped != skipped)
		return 0;
	if (p->sec == SEC_CPUID && strncmp(s, "CPUID ", 6) == 0) {
		const struct dump_cpu *c = p->cur;
		const struct dump_leaf *l = &c->leaves[c->nleaves - 1];
		for (size_t i = 0; i + 1 < c->nleaves && !l->has_sub; i++)
			if (c->leaves[i].leaf == l->leaf && c->leaves[i].has_sub)
				return 0;   /* cut before its "[SL nn]" */
		return 1;
	}
	if (p->sec == SEC_MSR && strncmp(s, "MSR ", 4) == 0)
		return 1;
	return p->sec == SEC_ALL_CPUS && d->all_cpus != all_cpus;
}

int dump_parse(const char *text, size_t len, const char *name, struct dump *d, dump_warn_fn warn,
	       void *warn_ctx, char *err, size_t errlen)
{
	struct parser p = { .d = d, .warn = warn, .warn_ctx = warn_ctx, .err = err,
			    .errlen = errlen, .sec = SEC_CPUID };
	char buf[DUMP_LINE_MAX + 1];
	memset(d, 0, sizeof(*d));
	d->name = name;
	if (errlen)
		err[0] = 0;
	for (size_t pos = 0; pos < len;) {
		const char *nl = memchr(text + pos, '\n', len - pos);
		size_t n = (nl ? (size_t)(nl - text) : len) - pos;
		int whole = nl != NULL;
		p.line++;
		if (n && text[pos + n - 1] == '\r')
			n--;
		if (n > DUMP_LINE_MAX) {
			skip_line(&p, "line longer than 1023 bytes skipped", NULL);
		} else if (memchr(text + pos, 0, n)) {
			skip_line(&p, "line with a NUL byte skipped", NULL);
		} else {
			unsigned skipped = d->skipped, all_cpus = d->all_cpus;
			memcpy(buf, text + pos, n);
			buf[n] = 0;
			if (line(&p, buf)) {
				dump_free(d);
				return -1;
			}
			if (!nl)
				whole = whole_last_line(&p, buf, skipped, all_cpus);
		}
		if (!whole) {   /* a last line without its end that is not whole */
			perr(&p, p.line, "the last line has no line end: truncated?");
			dump_free(d);
			return -1;
		}
		if (!nl)
			break;
		pos = (size_t)(nl - text) + 1;
	}
	d->lines = p.line;
	if (dump_check(d, err, errlen)) {
		dump_free(d);
		return -1;
	}
	return 0;
}

int dump_load(const char *path, struct dump *d, dump_warn_fn warn, void *warn_ctx, char *err,
	      size_t errlen)
{
	memset(d, 0, sizeof(*d));
	FILE *f = fopen(path, "rb");
	if (!f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	char *text = malloc(DUMP_FILE_MAX + 1);
	if (!text) {
		perror("cpuid-replay");
		exit(2);
	}
	size_t len = fread(text, 1, DUMP_FILE_MAX + 1, f);
	int rc = -1;
	if (ferror(f))
		snprintf(err, errlen, "%s: read error", path);
	else if (len > DUMP_FILE_MAX)
		snprintf(err, errlen, "%s: larger than %u MiB; not a CPUID dump?", path,
			 DUMP_FILE_MAX >> 20);
	else
		rc = dump_parse(text, len, path, d, warn, warn_ctx, err, errlen);
	free(text);
	fclose(f);
	return rc;
}

void dump_free(struct dump *d)
{
	for (unsigned i = 0; i < DUMP_MAX_CPUS; i++) {
		if (!d->cpu[i])
			continue;
		free(d->cpu[i]->leaves);
		free(d->cpu[i]->msrs);
		free(d->cpu[i]);
		d->cpu[i] = NULL;
	}
	d->ncpus = 0;
}
