/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * replay.c — decoding a dump and building its topology, with the checks
 * only the decoder and a whole machine can show: leaves and MSRs the
 * decoder reads but a CPU's section lacks, CPUs that contradict each other
 * (a CPUID line missing from one CPU's section) and CPUs the dump lacks.
 */
#include <tools/cpuid-replay/replay.h>
#include <stdio.h>
#include <string.h>
#include <arch/x86_64/cpu/cpuid_decode.h>

#define MSR_HWP_CAPABILITIES 0x771u
#define MSR_AMD_CPPC_CAP1 0xC00102B0u

/* A cpuid_source over one dump CPU that remembers the first leaf it lacked. */
struct probe {
	struct dump_cpu *cpu;
	uint32_t missing;    /* valid when lacked */
	int lacked;
};

static int probe_cpuid(void *ctx, uint32_t leaf, uint32_t sub, uint32_t regs[4])
{
	struct probe *p = ctx;
	int rc = dump_cpuid(p->cpu, leaf, sub, regs);
	if (rc && !p->lacked) {
		p->missing = leaf;
		p->lacked = 1;
	}
	return rc;
}

static int probe_msr(void *ctx, uint32_t msr, uint64_t *value)
{
	struct probe *p = ctx;
	return dump_msr(p->cpu, msr, value);
}

/* Decodes CPU i; -1 with the error set when its section lacks a leaf the
 * decoder reads (below the maximum: the decoder never reads above it). */
static int decode(const struct dump *d, struct replay *r, unsigned i, char *err, size_t errlen)
{
	struct probe p = { d->cpu[i], 0, 0 };
	const struct cpuid_source src = { probe_cpuid, probe_msr, &p };
	cpuid_decode(&src, &r->descs[i]);
	r->descs[i].source = CPU_DESC_FROM_DUMP;
	if (!p.lacked)
		return 0;
	snprintf(err, errlen,
		 "%s:%u: logical CPU #%u lists no CPUID leaf 0x%X, which the decoder reads (section from line %u): truncated?",
		 d->name, dump_last_cpuid_line(d->cpu[i]), i, p.missing, d->cpu[i]->cpuid_line);
	return -1;
}

/* HWP's MSR 0x771 (AMD: CPPC's 0xC00102B0) is in every CPU's section or
 * in none. */
static int check_msrs(const struct dump *d, const struct replay *r, char *err, size_t errlen)
{
	int with = -1, without = -1;
	for (int c = cpuset_first(&r->present); c >= 0; c = cpuset_next(&r->present, c)) {
		if (!(r->descs[c].flags & (CPU_DESC_F_HWP | CPU_DESC_F_CPPC)))
			continue;
		if (r->descs[c].notes & CPU_DESC_NOTE_NO_HWP_MSR)
			without = without < 0 ? c : without;
		else
			with = with < 0 ? c : with;
	}
	if (with < 0 || without < 0)
		return 0;
	const struct dump_cpu *c = d->cpu[without];
	int hwp = r->descs[without].flags & CPU_DESC_F_HWP;
	snprintf(err, errlen,
		 "%s:%u: logical CPU #%d has no MSR 0x%X (%s capabilities), logical CPU #%d has it: truncated?",
		 d->name, c->msr_line ? c->msr_line : d->lines, without,
		 hwp ? MSR_HWP_CAPABILITIES : MSR_AMD_CPPC_CAP1, hwp ? "HWP" : "CPPC", with);
	return -1;
}

/* Of the two CPUs a topology error is about, the odd one: the one whose
 * package has fewer CPUs (ties: the later one). */
static unsigned odd_cpu(const struct replay *r)
{
	unsigned a = (unsigned)r->tree.error_cpu[0], b = (unsigned)r->tree.error_cpu[1];
	unsigned na = 0, nb = 0;
	for (int c = cpuset_first(&r->present); c >= 0; c = cpuset_next(&r->present, c)) {
		na += r->descs[c].package_id == r->descs[a].package_id;
		nb += r->descs[c].package_id == r->descs[b].package_id;
	}
	return na < nb ? a : b;
}

/* The error for descriptors that cannot form a tree. */
static int inconsistent(const struct dump *d, const struct replay *r, char *err, size_t errlen)
{
	if (r->tree.error_cpu[0] < 0) {
		snprintf(err, errlen, "%s:%u: no topology: %s", d->name, d->lines, r->tree.error);
		return -1;
	}
	unsigned c = odd_cpu(r);
	const struct cpu_desc *desc = &r->descs[c];
	const struct dump_leaf *topo = dump_find_leaf(d->cpu[c], desc->topo_leaf);
	snprintf(err, errlen,
		 "%s:%u: logical CPU #%u (x2APIC id 0x%x) contradicts the others: %s; its x2APIC, core and package ids come from CPUID leaf 0x%X, its cache ids from leaf %s",
		 d->name, topo ? topo->line : d->cpu[c]->cpuid_line, c, desc->apic_id, r->tree.error,
		 desc->topo_leaf, desc->vendor == CPU_VENDOR_AMD ? "0x8000001D" : "4");
	return -1;
}

/* Every package holds as many CPUs as its topology leaf counts. */
static int check_counts(const struct dump *d, const struct replay *r, char *err, size_t errlen)
{
	for (int c = cpuset_first(&r->present); c >= 0; c = cpuset_next(&r->present, c)) {
		unsigned want = dump_package_count(d->cpu[c]), have = 0;
		for (int o = cpuset_first(&r->present); o >= 0; o = cpuset_next(&r->present, o))
			have += r->descs[o].package_id == r->descs[c].package_id;
		if (want > have) {
			snprintf(err, errlen,
				 "%s:%u: CPUID leaf 0x%X of logical CPU #%d counts %u logical CPUs in its package (%u), the dump describes %u: truncated?",
				 d->name, d->lines, r->descs[c].topo_leaf, c, want,
				 r->descs[c].package_id, have);
			return -1;
		}
	}
	return 0;
}

int replay_run(const struct dump *d, struct replay *r, char *err, size_t errlen)
{
	cpuset_zero(&r->present);
	r->ncpu = 0;
	for (unsigned i = 0; i < DUMP_MAX_CPUS; i++) {
		memset(&r->descs[i], 0, sizeof(r->descs[i]));
		if (!d->cpu[i])
			continue;
		if (decode(d, r, i, err, errlen))
			return -1;
		cpuset_set(&r->present, i);
		r->ncpu = i + 1;
	}
	if (check_msrs(d, r, err, errlen))
		return -1;
	if (topo_build(&r->tree, r->descs, r->ncpu, &r->present) != TOPO_OK)
		return inconsistent(d, r, err, errlen);
	topo_build_freebsd(&r->fbsd_tree, r->descs, r->ncpu, &r->present);
	return check_counts(d, r, err, errlen);
}
