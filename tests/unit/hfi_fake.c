/* SPDX-License-Identifier: BSD-2-Clause */
/* hfi_fake.c — the scripted machine of hfi_fake.h: door.h, hfi_plat.h and
 * the part of hmp.h the driver calls, on the host. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tests/unit/hfi_fake.h>
#include <dev/hfi/hfi_plat.h>
#include <sched/hmp.h>

struct fake fake;

static void trace(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void trace(const char *fmt, ...)
{
	if (fake.ntrace == FAKE_TRACE_MAX)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(fake.trace[fake.ntrace++], sizeof(fake.trace[0]), fmt, ap);
	va_end(ap);
}

void fake_set_leaf6(uint32_t eax, uint32_t ecx, uint32_t edx_low, const int *rows)
{
	for (unsigned i = 0; i < FAKE_CPUS; i++) {
		uint32_t row = rows ? (uint32_t)rows[i] : fake.leaf6[i].edx >> 16;
		fake.leaf6[i] = (struct door_cpuid_regs){ eax, 0, ecx, (edx_low & 0xFFFF) | row << 16 };
	}
}

void fake_reset(unsigned ncpu, struct hfi_drv *d)
{
	fake_free();
	memset(&fake, 0, sizeof(fake));
	fake.ncpu = ncpu;
	fake.drv = d;
	fake.classes_now = -1;
	fake.leaf0.eax = 0x20;
	int rows[FAKE_CPUS];
	for (unsigned i = 0; i < FAKE_CPUS; i++) {
		rows[i] = (int)i / 2;
		fake.lvt[i] = HFI_LVT_MASKED;
	}
	fake_set_leaf6(HFI_CPUID6_EAX_HFI | HFI_CPUID6_EAX_ITD | HFI_CPUID6_EAX_PTS | 0x4, 4u << 8, 0x003,
		       rows);
	memset(d, 0, sizeof(*d));
	d->vector = 0xFA;
}

int fake_start(struct hfi_drv *d)
{
	struct hfi_cpu_info info[FAKE_CPUS];
	for (unsigned i = 0; i < fake.ncpu; i++)
		info[i] = (struct hfi_cpu_info){ 1, (uint32_t)fake.pkg_of[i] };
	return hfi_start(d, fake.ncpu, info);
}

void fake_hw_write(struct hfi_drv *d, int k, uint64_t ts, const uint8_t *perf, const uint8_t *ee,
		   unsigned nrows)
{
	uint8_t *t = d->pkg[k].table;
	const struct hfi_layout *l = &d->lay;
	for (unsigned r = 0; r < nrows && r < l->rows_fit; r++)
		for (unsigned c = 0; c < l->ncls; c++) {
			uint8_t *e = t + l->rows_off + r * l->row_stride + c * l->ncap;
			e[0] = (uint8_t)(perf[r] ^ c);
			if (l->ee_col >= 0)
				e[l->ee_col] = (uint8_t)(ee[r] ^ c);
		}
	memcpy(t, &ts, sizeof(ts));
	fake.pkg[fake.pkg_of[d->pkg[k].first_cpu]].status |= HFI_STATUS_CHANGED;
}

int fake_trace_find(const char *s, int from)
{
	for (int i = from < 0 ? 0 : from; i < fake.ntrace; i++)
		if (strstr(fake.trace[i], s))
			return i;
	return -1;
}

int fake_log_count(const char *s)
{
	int n = 0;
	for (int i = 0; i < fake.nlog; i++)
		n += strstr(fake.log[i], s) != NULL;
	return n;
}

void fake_free(void)
{
	for (int i = 0; i < fake.ntables; i++)
		free(fake.tables[i]);
	fake.ntables = 0;
}

/* ---- door.h ---- */

static int leaf6_flag(uint32_t bit)
{
	return (fake.leaf6[fake.self].eax & bit) != 0;
}

uint64_t door_rdmsr(uint32_t msr)
{
	struct fake_pkg *p = &fake.pkg[fake.pkg_of[fake.self]];
	trace("cpu%u rdmsr 0x%x", fake.self, msr);
	switch (msr) {
	case MSR_IA32_PACKAGE_THERM_STATUS: return p->status;
	case MSR_IA32_PACKAGE_THERM_INTERRUPT: return p->intr;
	case MSR_IA32_HW_FEEDBACK_PTR: return p->ptr;
	case MSR_IA32_HW_FEEDBACK_CONFIG: return p->config;
	case MSR_IA32_MISC_ENABLE: return fake.misc_enable[fake.self];
	default:
		fake.faults++;
		return 0;
	}
}

void door_wrmsr(uint32_t msr, uint64_t v)
{
	struct fake_pkg *p = &fake.pkg[fake.pkg_of[fake.self]];
	uint64_t logs = (leaf6_flag(HFI_CPUID6_EAX_PTS) ? HFI_STATUS_PTS_LOGS : 0) |
			(leaf6_flag(HFI_CPUID6_EAX_HFI) ? HFI_STATUS_CHANGED : 0);
	trace("cpu%u wrmsr 0x%x 0x%llx", fake.self, msr, (unsigned long long)v);
	switch (msr) {
	case MSR_IA32_PACKAGE_THERM_STATUS:
		if (v & ~logs) {
			fake.faults++;
			return;
		}
		if (p->status & logs & ~HFI_STATUS_CHANGED & ~v)
			fake.cleared_other_logs++;
		p->status &= v | ~logs;
		return;
	case MSR_IA32_PACKAGE_THERM_INTERRUPT:
		p->intr = v;
		return;
	case MSR_IA32_HW_FEEDBACK_PTR:
		if (v & 0xFFE)
			fake.faults++;
		p->ptr = v;
		return;
	case MSR_IA32_HW_FEEDBACK_CONFIG:
		if (v & ~3ull)
			fake.faults++;
		if ((v & HFI_CONFIG_ENABLE) && !(p->ptr & HFI_PTR_VALID))
			fake.config_before_ptr++;
		p->config = v;
		return;
	default:
		fake.faults++;
	}
}

void door_cpuid(uint32_t leaf, uint32_t subleaf, struct door_cpuid_regs *r)
{
	(void)subleaf;
	memset(r, 0, sizeof(*r));
	if (leaf == 0) {
		*r = fake.leaf0;
	} else if (leaf == 6) {
		*r = fake.leaf6[fake.self];
		if (fake.classes_now >= 0 && fake.cpuid6_reads >= (int)fake.ncpu + 1)
			r->ecx = (r->ecx & ~0xFF00u) | (uint32_t)fake.classes_now << 8;
		fake.cpuid6_reads++;
	}
}

/* ---- hfi_plat.h ---- */

int hfi_plat_run_on(unsigned cpu, void (*fn)(void *), void *arg)
{
	if (cpu >= fake.ncpu || fake.run_fails[cpu])
		return -1;
	unsigned saved = fake.self;
	fake.self = cpu;
	fn(arg);
	fake.self = saved;
	return 0;
}

unsigned hfi_plat_cpu_self(void)
{
	return fake.self;
}

int hfi_plat_lvt_present(void)
{
	return !fake.lvt_absent[fake.self];
}

uint32_t hfi_plat_lvt_read(void)
{
	return fake.lvt[fake.self];
}

void hfi_plat_lvt_write(uint32_t v)
{
	trace("cpu%u lvt 0x%x", fake.self, v);
	if (!(v & HFI_LVT_MASKED) && fake.drv && !fake.drv->cpu[fake.self].linked)
		fake.unmasked_unlinked++;
	fake.lvt[fake.self] = v;
}

void *hfi_plat_table_alloc(unsigned pages, uint64_t *phys)
{
	if (fake.alloc_fails || fake.ntables == 2 * FAKE_PKGS)
		return NULL;
	void *t = aligned_alloc(4096, pages * 4096u);
	memset(t, 0, pages * 4096u);
	fake.tables[fake.ntables++] = t;
	*phys = 0x100000ull * (uint64_t)fake.ntables;
	return t;
}

void *hfi_plat_zalloc(size_t size)
{
	if (fake.ntables == 2 * FAKE_PKGS)
		return NULL;
	void *p = calloc(1, size);
	fake.tables[fake.ntables++] = p;
	return p;
}

void hfi_plat_log(const char *fmt, ...)
{
	if (fake.nlog == FAKE_LOG_MAX)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(fake.log[fake.nlog++], sizeof(fake.log[0]), fmt, ap);
	va_end(ap);
}

/* ---- hmp.h (what the driver calls) ---- */

void hmp_provide(enum hmp_provider p, int cpu, unsigned mask, int capacity, int perf, int ee)
{
	(void)capacity;
	if (p != HMP_PROV_HFI || cpu < 0 || cpu >= FAKE_CPUS) {
		fake.faults++;
		return;
	}
	fake.hmp_provides++;
	fake.hmp_mask[cpu] = mask;
	fake.hmp_perf[cpu] = perf;
	fake.hmp_ee[cpu] = ee;
}

void hmp_provide_class(enum hmp_provider p, int cpu, unsigned cls, int perf, int ee)
{
	(void)perf;
	(void)ee;
	if (p != HMP_PROV_HFI || cpu < 0 || cpu >= FAKE_CPUS || cls == 0) {
		fake.faults++;
		return;
	}
	fake.hmp_class_provides++;
}

int hmp_publish(void)
{
	return ++fake.hmp_publishes;
}

void hmp_set_status(enum hmp_provider p, int active, const char *why)
{
	(void)p;
	fake.hmp_active = active;
	snprintf(fake.hmp_why, sizeof(fake.hmp_why), "%s", why);
}
