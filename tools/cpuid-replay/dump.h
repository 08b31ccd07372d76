/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * dump.h — an InstLatx64 / AIDA64 CPUID dump in memory: per logical CPU the
 * CPUID leaves and MSR values it lists, and callbacks that serve them to
 * cpuid_decode() as if executed on that CPU. The format and the checks are
 * in docs/cpuid.md ("Host replay").
 */
#ifndef CPUID_REPLAY_DUMP_H
#define CPUID_REPLAY_DUMP_H
#include <stddef.h>
#include <stdint.h>

#define DUMP_MAX_CPUS      256        /* logical CPU numbers 0..255: the kernel's MAXCPU */
#define DUMP_MAX_VALUES    1024       /* CPUID lines, and MSR lines, per CPU (real: < 130) */
#define DUMP_LINE_MAX      1023       /* bytes of a line, without its end */
#define DUMP_FILE_MAX      (16u << 20) /* a real dump is about 200 KiB */
#define DUMP_MAX_EXTENDED  0x800000FFu

struct dump_leaf {
	uint32_t leaf, sub;
	int has_sub;          /* the line carried "[SL nn]" */
	uint32_t regs[4];
	unsigned line;
};

struct dump_msr {
	uint32_t msr;
	uint64_t value;
	unsigned line;
};

struct dump_cpu {
	unsigned number;         /* "Logical CPU #n" */
	unsigned cpuid_line;     /* its CPUID section title (or first line, before any title) */
	unsigned msr_line;       /* its MSR section title, 0 if none */
	struct dump_leaf *leaves;   /* after loading: sorted by (leaf, has_sub, sub), unique */
	size_t nleaves, leaves_cap;
	struct dump_msr *msrs;      /* after loading: sorted by number, unique */
	size_t nmsrs, msrs_cap;
};

struct dump {
	const char *name;                     /* for messages: the path */
	struct dump_cpu *cpu[DUMP_MAX_CPUS];  /* by number; NULL: not in the dump */
	unsigned ncpus;                       /* CPUs with CPUID values */
	unsigned lines;                       /* lines of the text */
	unsigned skipped;                     /* malformed lines reported and skipped */
	unsigned all_cpus_line;               /* the "All CPUs" section title, 0 if none */
	unsigned all_cpus;                    /* "CPU n:" lines in it */
};

/* Receives each "NAME:LINE: ..." warning (malformed lines skipped). */
typedef void (*dump_warn_fn)(void *ctx, const char *msg);

/* Parses text[0..len) (need not be NUL-terminated) into *d, named name in
 * messages, and checks that it is whole (docs/cpuid.md): returns 0, or -1
 * with "NAME:LINE: reason" in err and *d emptied. Malformed CPUID/MSR lines
 * and over-long lines go to warn (may be NULL) and are skipped. Linear in
 * len. No locks; d belongs to the caller (dump_free). */
int dump_parse(const char *text, size_t len, const char *name, struct dump *d, dump_warn_fn warn,
	       void *warn_ctx, char *err, size_t errlen);
/* dump_parse() on the file at path (at most DUMP_FILE_MAX bytes). */
int dump_load(const char *path, struct dump *d, dump_warn_fn warn, void *warn_ctx, char *err,
	      size_t errlen);
void dump_free(struct dump *d);

/* The last line a CPU's CPUID section gave a value on. */
unsigned dump_last_cpuid_line(const struct dump_cpu *cpu);
/* The lines of a CPU's leaf (any sub-leaf), or NULL. */
const struct dump_leaf *dump_find_leaf(const struct dump_cpu *cpu, uint32_t leaf);
/* The logical CPUs in a package as the CPU's topology leaf (AMD's
 * 0x80000026, else 0x1F, else 0x0B) counts them: EBX[15:0] of its last
 * level; 0 if it has none. */
unsigned dump_package_count(const struct dump_cpu *cpu);

/* struct cpuid_source callbacks; ctx is a struct dump_cpu. A sub-leaf the
 * dump omits reads as zeros when the leaf lists other sub-leaves (dumps stop
 * at the terminating sub-leaf); a leaf it omits entirely fails. */
int dump_cpuid(void *ctx, uint32_t leaf, uint32_t sub, uint32_t regs[4]);
/* Fails for MSRs the dump lacks or lists as "< FAILED >". */
int dump_msr(void *ctx, uint32_t msr, uint64_t *value);

#endif
