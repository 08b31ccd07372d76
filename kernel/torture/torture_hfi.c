/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * torture_hfi.c — the HFI stressor: the emulated device (kernel/emul/
 * emul_hfi.h) driven hard while everything else runs — storms of changes,
 * most rows at perf 0, one row or every row to random scores (0
 * included), tables all zero, and back to the description's values; every row is put back
 * at the end. The device refuses when frozen (kern.emul.hfi=0): counted,
 * no violation. Controller thread only.
 */
#include <emul/emul_hfi.h>
#include <arch/x86_64/smp/smp.h>
#include <sched/topo_cpuset.h>
#include <torture/torture_int.h>

/* Every row's class-0 scores to 0: a table with nothing in it. */
static int all_zero(const struct emul_hfi_info *info, char *err, size_t n)
{
	for (unsigned row = 0; row < info->rows; row++)
		for (unsigned cls = 0; cls < info->classes; cls++)
			if (emul_hfi_set(row, cls, 0, 0, err, n))
				return -1;
	return 0;
}

/* Every row's class 0 to random scores (0 included): the whole table
 * changes at once. */
static int every_row(const struct emul_hfi_info *info, uint64_t *rng, char *err, size_t n)
{
	for (unsigned row = 0; row < info->rows; row++)
		if (emul_hfi_set(row, 0, (unsigned)(torture_rand(rng) % 256), (unsigned)(torture_rand(rng) % 256),
				 err, n))
			return -1;
	return 0;
}

/* perf 0 on the rows of every CPU but one (random). */
static int most_perf_zero(uint64_t *rng, char *err, size_t n)
{
	struct cpuset cpus;
	unsigned ncpu = smp_cpu_count(), keep = (unsigned)(torture_rand(rng) % ncpu);
	cpuset_zero(&cpus);
	for (unsigned c = 0; c < ncpu; c++)
		if (c != keep)
			cpuset_set(&cpus, c);
	return emul_hfi_throttle(&cpus, ncpu, 0, err, n);
}

/* See torture_int.h. */
void torture_hfi_drive(struct torture_pass *p, uint64_t *rng)
{
	struct emul_hfi_info info;
	char err[96];
	if (!emul_hfi_active())
		return;
	emul_hfi_get_info(&info);
	unsigned kind = (unsigned)(torture_rand(rng) % 6);
	int rc;
	switch (kind) {
	case 0:
		rc = emul_hfi_storm(20 + (unsigned)(torture_rand(rng) % 200), err, sizeof(err));
		break;
	case 1:
		rc = most_perf_zero(rng, err, sizeof(err));
		break;
	case 2:
		rc = info.rows ? emul_hfi_set((unsigned)(torture_rand(rng) % info.rows), 0,
					      (unsigned)(torture_rand(rng) % 256), (unsigned)(torture_rand(rng) % 256),
					      err, sizeof(err))
			       : 0;
		break;
	case 3:
		rc = all_zero(&info, err, sizeof(err));
		break;
	case 4:
		rc = every_row(&info, rng, err, sizeof(err));
		break;
	default:
		rc = emul_hfi_restore(err, sizeof(err));
		break;
	}
	torture_count(p, TOP_HFI, rc ? -1 : (int64_t)kind);
}

/* See torture_int.h. */
void torture_hfi_restore(void)
{
	char err[96];
	if (emul_hfi_active())
		emul_hfi_restore(err, sizeof(err));
}
