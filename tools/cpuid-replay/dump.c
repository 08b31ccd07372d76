/*
 * dump.c — parser for InstLatx64 / AIDA64 CPUID dumps.
 *
 * The format: sections start with "------[ TITLE ]------". Sections titled
 * "CPUID Registers / Logical CPU #n" hold lines
 *     CPUID 00000004: FC004121-02C0003F-0000003F-00000000 [SL 00] [L1D: 48 KB]
 * (leaf: EAX-EBX-ECX-EDX, optional sub-leaf, free text after); sections
 * "MSR Registers / Logical CPU #n" hold lines
 *     MSR 00000771: 0000-0000-0111-0B27
 * (four 16-bit groups, high first; repeated samples: the last wins) or
 * "< FAILED >". CPUID lines before any section belong to CPU #0, so a
 * single-CPU dump without headers works too. Everything else is ignored.
 */
#include "dump.h"
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Read exactly ndigits hex digits (ndigits 0: 1..8 digits) at *p. */
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

/* The CPU with this number, created (in sorted position) if new. */
static struct dump_cpu *dump_cpu_get(struct dump *d, unsigned number)
{
	size_t i = 0;
	while (i < d->ncpus && d->cpus[i].number < number)
		i++;
	if (i < d->ncpus && d->cpus[i].number == number)
		return &d->cpus[i];
	if (d->ncpus == d->cpus_cap) {
		d->cpus_cap = d->cpus_cap ? 2 * d->cpus_cap : 32;
		d->cpus = realloc(d->cpus, d->cpus_cap * sizeof(*d->cpus));
		if (!d->cpus) {
			perror("cpuid-replay");
			exit(2);
		}
	}
	memmove(&d->cpus[i + 1], &d->cpus[i], (d->ncpus - i) * sizeof(*d->cpus));
	memset(&d->cpus[i], 0, sizeof(d->cpus[i]));
	d->cpus[i].number = number;
	d->ncpus++;
	return &d->cpus[i];
}

/* Grow an array of elem-sized items so one more fits. */
static void *grow(void *arr, size_t n, size_t *cap, size_t elem)
{
	if (n < *cap)
		return arr;
	*cap = *cap ? 2 * *cap : 64;
	arr = realloc(arr, *cap * elem);
	if (!arr) {
		perror("cpuid-replay");
		exit(2);
	}
	return arr;
}

/* "CPUID llllllll: aaaaaaaa-bbbbbbbb-cccccccc-dddddddd [SL ss]" (after "CPUID "). */
static int parse_cpuid_line(const char *p, struct dump_cpu *cpu)
{
	struct dump_leaf l = { 0 };
	if (hex_field(&p, 8, &l.leaf) || *p++ != ':')
		return -1;
	while (*p == ' ')
		p++;
	for (int i = 0; i < 4; i++) {
		if (hex_field(&p, 8, &l.regs[i]) || (i < 3 && *p++ != '-'))
			return -1;
	}
	while (*p == ' ')
		p++;
	if (strncmp(p, "[SL ", 4) == 0) {
		p += 4;
		if (hex_field(&p, 0, &l.sub) || *p != ']')
			return -1;
		l.has_sub = 1;
	}
	for (size_t i = 0; i < cpu->nleaves; i++)
		if (cpu->leaves[i].leaf == l.leaf && cpu->leaves[i].sub == l.sub &&
		    cpu->leaves[i].has_sub == l.has_sub)
			return 0;   /* a repeated line: the first one stands */
	cpu->leaves = grow(cpu->leaves, cpu->nleaves, &cpu->leaves_cap, sizeof(*cpu->leaves));
	cpu->leaves[cpu->nleaves++] = l;
	return 0;
}

/* "MSR mmmmmmmm: hhhh-hhhh-hhhh-hhhh" or "< FAILED >" (after "MSR "). */
static int parse_msr_line(const char *p, struct dump_cpu *cpu)
{
	uint32_t msr, g;
	uint64_t v = 0;
	if (hex_field(&p, 8, &msr) || *p++ != ':')
		return -1;
	while (*p == ' ')
		p++;
	if (*p == '<')
		return 0;   /* unreadable on that machine: stays absent */
	for (int i = 0; i < 4; i++) {
		if (hex_field(&p, 4, &g) || (i < 3 && *p++ != '-'))
			return -1;
		v = v << 16 | g;
	}
	for (size_t i = 0; i < cpu->nmsrs; i++)
		if (cpu->msrs[i].msr == msr) {
			cpu->msrs[i].value = v;   /* later samples replace earlier ones */
			return 0;
		}
	cpu->msrs = grow(cpu->msrs, cpu->nmsrs, &cpu->msrs_cap, sizeof(*cpu->msrs));
	cpu->msrs[cpu->nmsrs].msr = msr;
	cpu->msrs[cpu->nmsrs++].value = v;
	return 0;
}

enum section { SEC_NONE, SEC_CPUID, SEC_MSR };

/* A "------[ ... ]" header: which section and CPU it opens. */
static enum section parse_header(const char *line, unsigned *number)
{
	const char *n = strstr(line, "Logical CPU #");
	if (!n)
		return SEC_NONE;
	char *end;
	errno = 0;
	unsigned long v = strtoul(n + 13, &end, 10);
	if (end == n + 13 || errno || v > 100000)
		return SEC_NONE;
	*number = (unsigned)v;
	if (strstr(line, "CPUID Registers"))
		return SEC_CPUID;
	if (strstr(line, "MSR Registers"))
		return SEC_MSR;
	return SEC_NONE;
}

int dump_load(const char *path, struct dump *d, char *err, size_t errlen)
{
	memset(d, 0, sizeof(*d));
	FILE *f = fopen(path, "r");
	if (!f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	char line[1024];
	unsigned lineno = 0, number = 0, values = 0;
	enum section sec = SEC_CPUID;   /* implicit CPU #0 until a header */
	while (fgets(line, sizeof(line), f)) {
		lineno++;
		const char *p = line;
		while (*p == ' ' || *p == '\t')
			p++;
		int bad = 0;
		if (strncmp(p, "------[", 7) == 0) {
			sec = parse_header(p, &number);
		} else if (sec == SEC_CPUID && strncmp(p, "CPUID ", 6) == 0) {
			bad = parse_cpuid_line(p + 6, dump_cpu_get(d, number));
			values += !bad;
		} else if (sec == SEC_MSR && strncmp(p, "MSR ", 4) == 0) {
			bad = parse_msr_line(p + 4, dump_cpu_get(d, number));
		}
		if (bad) {
			fprintf(stderr, "%s:%u: malformed line skipped: %s", path, lineno, line);
			if (!strchr(line, '\n'))
				fputc('\n', stderr);
			d->skipped++;
		}
	}
	fclose(f);
	/* CPUs that only had MSR lines cannot be decoded; drop them. */
	size_t keep = 0;
	for (size_t i = 0; i < d->ncpus; i++) {
		if (d->cpus[i].nleaves) {
			d->cpus[keep++] = d->cpus[i];
		} else {
			free(d->cpus[i].msrs);
			fprintf(stderr, "%s: logical CPU #%u has MSRs but no CPUID values; ignored\n",
				path, d->cpus[i].number);
		}
	}
	d->ncpus = keep;
	if (values == 0) {
		snprintf(err, errlen, "%s: no CPUID lines (not an InstLatx64 CPUID dump?)", path);
		dump_free(d);
		return -1;
	}
	return 0;
}

void dump_free(struct dump *d)
{
	for (size_t i = 0; i < d->ncpus; i++) {
		free(d->cpus[i].leaves);
		free(d->cpus[i].msrs);
	}
	free(d->cpus);
	memset(d, 0, sizeof(*d));
}

int dump_cpuid(void *ctx, uint32_t leaf, uint32_t sub, uint32_t regs[4])
{
	const struct dump_cpu *cpu = ctx;
	const struct dump_leaf *any = NULL;
	int listed = 0;
	for (size_t i = 0; i < cpu->nleaves; i++) {
		const struct dump_leaf *l = &cpu->leaves[i];
		if (l->leaf != leaf)
			continue;
		listed = 1;
		if (l->has_sub && l->sub == sub) {
			memcpy(regs, l->regs, sizeof(l->regs));
			return 0;
		}
		if (!l->has_sub && !any)
			any = l;
	}
	if (any) {   /* a leaf without sub-leaves ignores ECX */
		memcpy(regs, any->regs, sizeof(any->regs));
		return 0;
	}
	if (listed) {
		regs[0] = regs[1] = regs[2] = regs[3] = 0;
		return 0;
	}
	return -1;
}

int dump_msr(void *ctx, uint32_t msr, uint64_t *value)
{
	const struct dump_cpu *cpu = ctx;
	for (size_t i = 0; i < cpu->nmsrs; i++)
		if (cpu->msrs[i].msr == msr) {
			*value = cpu->msrs[i].value;
			return 0;
		}
	return -1;
}
