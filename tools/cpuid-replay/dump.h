/*
 * dump.h — an InstLatx64 / AIDA64 CPUID dump in memory: per logical CPU the
 * CPUID leaves and MSR values it lists, and callbacks that serve them to
 * cpuid_decode() as if executed on that CPU.
 */
#ifndef CPUID_REPLAY_DUMP_H
#define CPUID_REPLAY_DUMP_H
#include <stddef.h>
#include <stdint.h>

struct dump_leaf {
	uint32_t leaf, sub;
	int has_sub;          /* the line carried "[SL nn]" */
	uint32_t regs[4];
};

struct dump_msr {
	uint32_t msr;
	uint64_t value;
};

struct dump_cpu {
	unsigned number;      /* "Logical CPU #n" */
	struct dump_leaf *leaves;
	size_t nleaves, leaves_cap;
	struct dump_msr *msrs;
	size_t nmsrs, msrs_cap;
};

struct dump {
	struct dump_cpu *cpus;   /* sorted by number */
	size_t ncpus, cpus_cap;
	unsigned skipped;        /* malformed CPUID/MSR lines ignored */
};

/* Parse the file at path into *d (zeroed first). Malformed lines are
 * reported on stderr as FILE:LINE and skipped. Returns 0, or -1 with a
 * message in err when the file cannot be read or lists no CPUID values. */
int dump_load(const char *path, struct dump *d, char *err, size_t errlen);
void dump_free(struct dump *d);

/* struct cpuid_source callbacks; ctx is a struct dump_cpu. A sub-leaf the
 * dump omits reads as zeros when the leaf lists other sub-leaves (dumps stop
 * at the terminating sub-leaf); a leaf it omits entirely fails. */
int dump_cpuid(void *ctx, uint32_t leaf, uint32_t sub, uint32_t regs[4]);
/* Fails for MSRs the dump lacks or lists as "< FAILED >". */
int dump_msr(void *ctx, uint32_t msr, uint64_t *value);

#endif
