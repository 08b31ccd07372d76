/* SPDX-License-Identifier: BSD-2-Clause */
/* Fuzz harness of the HFI driver's table reader and update path
 * (kernel/dev/hfi/hfi_*.c) on the scripted machine of
 * tests/unit/hfi_fake.h.
 *
 * Each input is a random machine: up to 16 CPUs in up to 4 packages, a
 * random CPUID leaf 0 maximum and leaf 06H (feature bits, capability byte,
 * class count 0..255, table pages 1..16, each CPU's row index anywhere in
 * 0..0xFFFF), random thermal LVTs; then rounds of hardware writes that
 * fill a package's whole table (timestamp, header and rows) with random
 * bytes, interrupts on random CPUs and publications at random times.
 * Tables and local copies are allocated at their exact size, so
 * AddressSanitizer stops any read outside them.
 *
 * Checked after every publication, against a layout computed here from the
 * CPUID values alone: every score handed to hmp is the class-0 byte of the
 * CPU's own row x 4 (so 0..1020); only CPUs whose row fits the table are
 * published, and every linked one of an updated package is; the driver
 * never faults the "hardware", never clears another driver's log bit and
 * never unmasks an LVT before linking its CPU; publications + coalesced
 * equals the updates taken. */
#include <tests/fuzz/fuzz.h>
#include <tests/unit/hfi_fake.h>

static struct hfi_drv drv;

/* The reference layout: columns, classes, stride and rows that fit. */
struct ref {
	unsigned ncap, ncls, stride, fit, ee;
};

static struct ref ref_layout(void)
{
	const struct door_cpuid_regs *r = &fake.leaf6[0];
	struct ref x;
	unsigned classes = (r->ecx >> 8) & 0xFF, pages = ((r->edx >> 8) & 0xF) + 1;
	x.ee = (r->edx >> 1) & 1;
	x.ncap = 1 + x.ee;
	x.ncls = (r->eax & HFI_CPUID6_EAX_ITD) && classes > 1 ? classes : 1;
	x.stride = (x.ncap * x.ncls + 7) / 8 * 8;
	x.fit = (pages * 4096 - 8 - x.stride) / x.stride;
	return x;
}

/* A random machine for fake_start(). */
static void random_machine(struct fuzz *f)
{
	unsigned ncpu = 1 + (unsigned)fuzz_below(f, FAKE_CPUS);
	fake_reset(ncpu, &drv);
	unsigned npkg = 1 + (unsigned)fuzz_below(f, fuzz_below(f, 2) ? 1 : FAKE_PKGS);
	for (unsigned i = 0; i < ncpu; i++) {
		fake.pkg_of[i] = (int)fuzz_below(f, npkg);
		uint64_t lvt = fuzz_below(f, 8);
		fake.lvt[i] = lvt == 0 ? HFI_LVT_DM_SMI : lvt == 1 ? (uint32_t)fuzz_u64(f) : HFI_LVT_MASKED;
		fake.misc_enable[i] = fuzz_below(f, 2) ? HFI_MISC_ENABLE_TM1 : 0;
		fake.lvt_absent[i] = fuzz_below(f, 16) == 0;
	}
	fake.leaf0.eax = fuzz_below(f, 8) ? 6 + (uint32_t)fuzz_below(f, 0x20) : (uint32_t)fuzz_below(f, 6);
	uint32_t eax = (uint32_t)fuzz_u64(f), ecx, edx;
	if (fuzz_below(f, 8))
		eax |= HFI_CPUID6_EAX_HFI;
	ecx = (uint32_t)(fuzz_below(f, 2) ? fuzz_below(f, 9) : fuzz_below(f, 256)) << 8;
	edx = (uint32_t)(fuzz_below(f, 4) ? 0x3 : fuzz_below(f, 256));
	edx |= (uint32_t)(fuzz_below(f, 4) ? 0 : fuzz_below(f, 16)) << 8;
	int rows[FAKE_CPUS];
	for (unsigned i = 0; i < FAKE_CPUS; i++)
		rows[i] = fuzz_below(f, 4) ? (int)fuzz_below(f, 40) : (int)fuzz_below(f, 0x10000);
	fake_set_leaf6(eax, ecx, edx, rows);
	if (fuzz_below(f, 8) == 0)
		fake.classes_now = (int)fuzz_below(f, 256);
}

/* The hardware writes package k's whole table with random bytes. */
static void random_write(struct fuzz *f, int k)
{
	uint8_t *t = drv.pkg[k].table;
	for (uint32_t i = 0; i < drv.lay.size; i++)
		t[i] = (uint8_t)fuzz_u64(f);
	if (fuzz_below(f, 4) == 0)   /* a timestamp seen before, or going back */
		memcpy(t, &drv.pkg[k].last_ts, 8);
	fake.pkg[fake.pkg_of[drv.pkg[k].first_cpu]].status |= HFI_STATUS_CHANGED;
}

/* The promises after a publication. */
static void check(struct fuzz *f, const struct ref *x, const int *updated)
{
	uint64_t taken = 0;
	for (int k = 0; k < drv.npkg; k++)
		taken += drv.pkg[k].consumed;
	if (drv.publications + drv.coalesced != taken)
		fuzz_fail(f, "publications %lu + coalesced %lu != updates taken %lu",
			  (unsigned long)drv.publications, (unsigned long)drv.coalesced,
			  (unsigned long)taken);
	for (unsigned i = 0; i < fake.ncpu; i++) {
		const struct hfi_cpu *c = &drv.cpu[i];
		uint32_t row = fake.leaf6[i].edx >> 16;
		int fits = row < x->fit;
		if (fake.hmp_mask[i] && (!fits || !c->linked))
			fuzz_fail(f, "cpu %u published with row %u (%u fit), linked %d", i, row, x->fit,
				  c->linked);
		if (c->linked && fits && c->pkg >= 0 && updated[c->pkg] && !fake.hmp_mask[i])
			fuzz_fail(f, "cpu %u of an updated package not published", i);
		if (!fake.hmp_mask[i])
			continue;
		const uint8_t *e = drv.pkg[c->pkg].copy + 8 + x->stride + row * x->stride;
		int perf = e[0] * 4, ee = x->ee ? e[1] * 4 : 0;
		if (fake.hmp_perf[i] != perf || fake.hmp_ee[i] != ee || perf > 1020 || ee > 1020)
			fuzz_fail(f, "cpu %u: hmp got %d/%d, its row says %d/%d", i, fake.hmp_perf[i],
				  fake.hmp_ee[i], perf, ee);
		if (fake.hmp_mask[i] != (x->ee ? 0x6u : 0x2u))
			fuzz_fail(f, "cpu %u: mask 0x%x", i, fake.hmp_mask[i]);
	}
	if (fake.faults || fake.cleared_other_logs || fake.unmasked_unlinked || fake.config_before_ptr)
		fuzz_fail(f, "faults %d, cleared logs %d, unmasked unlinked %d, config before ptr %d",
			  fake.faults, fake.cleared_other_logs, fake.unmasked_unlinked,
			  fake.config_before_ptr);
}

static void fuzz_one(struct fuzz *f)
{
	random_machine(f);
	if (fuzz_below(f, 8) == 0)
		fake.pkg[0].status = fuzz_u64(f) & (HFI_STATUS_PTS_LOGS | HFI_STATUS_CHANGED);
	if (fake_start(&drv)) {
		if (fake.hmp_provides || fake.faults || drv.on)
			fuzz_fail(f, "refused start but %d provides, %d faults", fake.hmp_provides,
				  fake.faults);
		fake_free();
		return;
	}
	struct ref x = ref_layout();
	if (x.ncls != drv.lay.ncls || x.stride != drv.lay.row_stride || x.fit != drv.lay.rows_fit)
		fuzz_fail(f, "layout %u classes stride %u fit %u, expected %u %u %u", drv.lay.ncls,
			  drv.lay.row_stride, drv.lay.rows_fit, x.ncls, x.stride, x.fit);
	int updated[HFI_MAX_PKGS] = { 0 };
	uint64_t now = 1000000000ull;
	unsigned rounds = 1 + (unsigned)fuzz_below(f, 8);
	for (unsigned r = 0; r < rounds; r++) {
		int k = (int)fuzz_below(f, (uint64_t)drv.npkg);
		if (drv.pkg[k].enabled && fuzz_below(f, 4))
			random_write(f, k);
		unsigned events = 1 + (unsigned)fuzz_below(f, 4);
		for (unsigned e = 0; e < events; e++) {
			int cpu = (int)fuzz_below(f, fake.ncpu);
			fake.self = (unsigned)cpu;
			if (hfi_event(&drv, cpu) && drv.cpu[cpu].pkg >= 0)
				updated[drv.cpu[cpu].pkg] = 1;
		}
		now += fuzz_below(f, 3) ? fuzz_below(f, 20000000) : 0;
		if (hfi_publish_step(&drv, now) == 0)
			check(f, &x, updated);
	}
	fake_free();
}

FUZZ_MAIN("hfi_table")
