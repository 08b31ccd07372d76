/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * hmp.c — per-CPU capacity and scores (see hmp.h): what each provider gave,
 * the resolution in provider order, the weights, and the lock-free
 * publication through a per-CPU sequence count.
 */
#include <sched/hmp.h>
#include <sched/sched_plat.h>

#define HMP_WHY_MAX 128

/* What one provider gave for one CPU (writer side, under the hmp lock). */
struct hmp_given {
	uint8_t mask;
	uint16_t capacity, perf, ee, smt;
	uint8_t classes;   /* bit c: cls_perf[c], cls_ee[c] given (c >= 1) */
	uint16_t cls_perf[ITD_CLASS_MAX], cls_ee[ITD_CLASS_MAX];
};

/* The published record of one CPU: every field is stored and loaded whole
 * (relaxed atomics); seq is odd while a writer changes them. */
struct hmp_pub {
	uint32_t seq;
	struct hmp_cpu rec;
} __attribute__((aligned(64)));

static int hmp_cpus;
static struct hmp_given *given[HMP_NPROV];   /* [provider][cpu] */
static struct hmp_pub *pub;
static uint64_t hmp_gen;
static struct cpuset avoid_set, never_set;   /* published with the records */
static int hmp_zero;
static int hmp_same;   /* every CPU has the same capacity and scores */
static struct {
	int active;
	char why[HMP_WHY_MAX];
} status[HMP_NPROV];

static const char *const provider_names[HMP_NPROV] = {
	[HMP_PROV_MANUAL] = "manual", [HMP_PROV_HFI] = "HFI", [HMP_PROV_MACHINE] = "machine",
	[HMP_PROV_HWP] = "HWP", [HMP_PROV_CORETYPE] = "core type", [HMP_PROV_DEFAULT] = "all equal",
};

static int clamp(int v, int lo, int hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

static void copy_why(char *dst, const char *src)
{
	int i = 0;
	for (; src && src[i] && i < HMP_WHY_MAX - 1; i++)
		dst[i] = src[i];
	dst[i] = 0;
}

/* See hmp.h. */
void hmp_init(int ncpu)
{
	hmp_cpus = ncpu;
	for (int p = 0; p < HMP_NPROV; p++) {
		given[p] = sched_plat_alloc(sizeof(struct hmp_given) * (size_t)ncpu);
		if (!given[p])
			sched_plat_panic("hmp_init: no memory");
	}
	pub = sched_plat_alloc(sizeof(struct hmp_pub) * (size_t)ncpu);
	if (!pub)
		sched_plat_panic("hmp_init: no memory");
	for (int c = 0; c < ncpu; c++)
		given[HMP_PROV_DEFAULT][c] = (struct hmp_given){ .mask = HMP_CAPACITY | HMP_PERF | HMP_EE | HMP_SMT,
								 .capacity = HMP_CAPACITY_MAX,
								 .perf = HMP_SCORE_MAX, .ee = HMP_SCORE_MAX,
								 .smt = HMP_SMT_DEFAULT };
	copy_why(status[HMP_PROV_DEFAULT].why,
		 "capacity 1024, scores 1020 and SMT share 400 where nobody knows better");
	status[HMP_PROV_DEFAULT].active = 1;
	for (int p = 0; p < HMP_PROV_DEFAULT; p++)
		copy_why(status[p].why, "nothing provided yet");
	hmp_publish();
}

/* See hmp.h. */
void hmp_provide(enum hmp_provider p, int cpu, unsigned mask, int capacity, int perf, int ee)
{
	if (p >= HMP_PROV_DEFAULT || cpu < 0 || cpu >= hmp_cpus)
		return;
	sched_plat_hmp_lock();
	struct hmp_given *g = &given[p][cpu];
	g->mask |= (uint8_t)(mask & (HMP_CAPACITY | HMP_PERF | HMP_EE));
	if (mask & HMP_CAPACITY)
		g->capacity = (uint16_t)clamp(capacity, 1, HMP_CAPACITY_MAX);
	if (mask & HMP_PERF)
		g->perf = (uint16_t)clamp(perf, 0, HMP_SCORE_MAX);
	if (mask & HMP_EE)
		g->ee = (uint16_t)clamp(ee, 0, HMP_SCORE_MAX);
	sched_plat_hmp_unlock();
}

/* See hmp.h. */
void hmp_provide_class(enum hmp_provider p, int cpu, unsigned cls, int perf, int ee)
{
	if (p >= HMP_PROV_DEFAULT || cpu < 0 || cpu >= hmp_cpus || cls == 0 || cls >= ITD_CLASS_MAX)
		return;
	sched_plat_hmp_lock();
	struct hmp_given *g = &given[p][cpu];
	g->mask |= HMP_CLASSES;
	g->classes |= (uint8_t)(1u << cls);
	g->cls_perf[cls] = (uint16_t)clamp(perf, 0, HMP_SCORE_MAX);
	g->cls_ee[cls] = (uint16_t)clamp(ee, 0, HMP_SCORE_MAX);
	sched_plat_hmp_unlock();
}

/* See hmp.h. */
void hmp_provide_smt(enum hmp_provider p, int cpu, int smt)
{
	if (p >= HMP_PROV_DEFAULT || cpu < 0 || cpu >= hmp_cpus)
		return;
	sched_plat_hmp_lock();
	given[p][cpu].mask |= HMP_SMT;
	given[p][cpu].smt = (uint16_t)clamp(smt, 0, HMP_SMT_MAX);
	sched_plat_hmp_unlock();
}

/* See hmp.h. */
void hmp_withdraw(enum hmp_provider p, int cpu, unsigned mask)
{
	if (p >= HMP_PROV_DEFAULT || cpu >= hmp_cpus)
		return;
	sched_plat_hmp_lock();
	for (int c = cpu < 0 ? 0 : cpu; c < (cpu < 0 ? hmp_cpus : cpu + 1); c++) {
		given[p][c].mask &= (uint8_t)~mask;
		if (mask & HMP_CLASSES)
			given[p][c].classes = 0;
	}
	sched_plat_hmp_unlock();
}

/* See hmp.h. */
void hmp_set_status(enum hmp_provider p, int active, const char *why)
{
	if (p >= HMP_PROV_DEFAULT)
		return;
	sched_plat_hmp_lock();
	status[p].active = active;
	copy_why(status[p].why, why);
	sched_plat_hmp_unlock();
}

/* The highest provider that gives field for cpu (DEFAULT always does). */
static enum hmp_provider source_of(int cpu, unsigned field)
{
	enum hmp_provider p = HMP_PROV_MANUAL;
	while (p < HMP_PROV_DEFAULT && !(given[p][cpu].mask & field))
		p++;
	return p;
}

/* cpu's record from the providers, before weights and marks. */
static struct hmp_cpu resolve(int cpu)
{
	struct hmp_cpu r = { 0 };
	r.capacity_from = (uint8_t)source_of(cpu, HMP_CAPACITY);
	r.perf_from = (uint8_t)source_of(cpu, HMP_PERF);
	r.ee_from = (uint8_t)source_of(cpu, HMP_EE);
	r.smt_from = (uint8_t)source_of(cpu, HMP_SMT);
	r.capacity = given[r.capacity_from][cpu].capacity;
	r.perf = given[r.perf_from][cpu].perf;
	r.ee = given[r.ee_from][cpu].ee;
	r.smt = given[r.smt_from][cpu].smt;
	return r;
}

/* r's class columns (r's perf and ee final): class k from gp, the
 * provider of the class-0 perf (ge: of ee), if it gave k and the perf
 * scores carry information (not no_info), else class 0's; each shared by
 * the SMT share as class 0 is. */
static void resolve_classes(const struct hmp_given *gp, const struct hmp_given *ge, int no_info,
			    struct hmp_cpu *r)
{
	for (unsigned k = 0; k < ITD_CLASS_MAX; k++) {
		int own_perf = k && !no_info && (gp->classes & (1u << k));
		int own_ee = k && (ge->classes & (1u << k));
		r->cls_perf[k] = own_perf ? gp->cls_perf[k] : r->perf;
		r->cls_ee[k] = own_ee ? ge->cls_ee[k] : r->ee;
		r->cls_perf_shared[k] = (uint16_t)(r->cls_perf[k] * r->smt / HMP_SMT_MAX);
		r->cls_ee_shared[k] = (uint16_t)(r->cls_ee[k] * r->smt / HMP_SMT_MAX);
	}
}

/* See hmp.h. */
int hmp_capacity_fits(int cpu, int cap, int *floor)
{
	int lo = HMP_CAPACITY_MAX, hi = 1;
	sched_plat_hmp_lock();
	for (int c = 0; c < hmp_cpus; c++) {
		int v = c == cpu ? cap : given[source_of(c, HMP_CAPACITY)][c].capacity;
		lo = v < lo ? v : lo;
		hi = v > hi ? v : hi;
	}
	sched_plat_hmp_unlock();
	*floor = (hi * HMP_CAPACITY_MIN + HMP_CAPACITY_MAX - 1) / HMP_CAPACITY_MAX;
	return lo >= *floor;
}

/* Stores r as cpu's record for lock-free readers (seq odd meanwhile). */
static void store(int cpu, const struct hmp_cpu *r)
{
	struct hmp_pub *p = &pub[cpu];
	uint32_t seq = p->seq;
	__atomic_store_n(&p->seq, seq + 1, __ATOMIC_RELAXED);
	__atomic_thread_fence(__ATOMIC_RELEASE);
	__atomic_store_n(&p->rec.capacity, r->capacity, __ATOMIC_RELAXED);
	__atomic_store_n(&p->rec.weight, r->weight, __ATOMIC_RELAXED);
	__atomic_store_n(&p->rec.perf, r->perf, __ATOMIC_RELAXED);
	__atomic_store_n(&p->rec.ee, r->ee, __ATOMIC_RELAXED);
	__atomic_store_n(&p->rec.smt, r->smt, __ATOMIC_RELAXED);
	__atomic_store_n(&p->rec.perf_shared, r->perf_shared, __ATOMIC_RELAXED);
	__atomic_store_n(&p->rec.ee_shared, r->ee_shared, __ATOMIC_RELAXED);
	__atomic_store_n(&p->rec.avoid, r->avoid, __ATOMIC_RELAXED);
	__atomic_store_n(&p->rec.never, r->never, __ATOMIC_RELAXED);
	__atomic_store_n(&p->rec.capacity_from, r->capacity_from, __ATOMIC_RELAXED);
	__atomic_store_n(&p->rec.perf_from, r->perf_from, __ATOMIC_RELAXED);
	__atomic_store_n(&p->rec.ee_from, r->ee_from, __ATOMIC_RELAXED);
	__atomic_store_n(&p->rec.smt_from, r->smt_from, __ATOMIC_RELAXED);
	for (int k = 0; k < ITD_CLASS_MAX; k++) {
		__atomic_store_n(&p->rec.cls_perf[k], r->cls_perf[k], __ATOMIC_RELAXED);
		__atomic_store_n(&p->rec.cls_ee[k], r->cls_ee[k], __ATOMIC_RELAXED);
		__atomic_store_n(&p->rec.cls_perf_shared[k], r->cls_perf_shared[k], __ATOMIC_RELAXED);
		__atomic_store_n(&p->rec.cls_ee_shared[k], r->cls_ee_shared[k], __ATOMIC_RELAXED);
	}
	__atomic_store_n(&p->rec.generation, r->generation, __ATOMIC_RELAXED);
	__atomic_store_n(&p->seq, seq + 2, __ATOMIC_RELEASE);
}

static int same(const struct hmp_cpu *a, const struct hmp_cpu *b)
{
	for (int k = 0; k < ITD_CLASS_MAX; k++)
		if (a->cls_perf[k] != b->cls_perf[k] || a->cls_ee[k] != b->cls_ee[k])
			return 0;
	return a->capacity == b->capacity && a->weight == b->weight && a->perf == b->perf &&
	       a->ee == b->ee && a->smt == b->smt && a->avoid == b->avoid && a->never == b->never &&
	       a->capacity_from == b->capacity_from && a->perf_from == b->perf_from &&
	       a->ee_from == b->ee_from && a->smt_from == b->smt_from;
}

/* The capacity of r scaled so that the fastest (cap_max) is 1024, and no
 * lower than HMP_CAPACITY_MIN. */
static int scaled_capacity(const struct hmp_cpu *r, int cap_max)
{
	return clamp((r->capacity * HMP_CAPACITY_MAX + cap_max / 2) / cap_max, HMP_CAPACITY_MIN,
		     HMP_CAPACITY_MAX);
}

/* See hmp.h. Capacities are scaled so that the fastest CPU is 1024; the
 * weight is HMP_WEIGHT_SLOWEST × slowest / capacity, rounded (at least 16,
 * as capacities are at least HMP_CAPACITY_MIN). */
int hmp_publish(void)
{
	int changed = 0, cap_max = 1, cap_min = HMP_CAPACITY_MAX, all_zero = 1, uniform = 1;
	struct cpuset avoid, never;
	cpuset_zero(&avoid);
	cpuset_zero(&never);
	sched_plat_hmp_lock();
	struct hmp_cpu first = resolve(0);
	for (int c = 0; c < hmp_cpus; c++) {
		struct hmp_cpu r = resolve(c);
		cap_max = r.capacity > cap_max ? r.capacity : cap_max;
		all_zero &= r.perf == 0;
		uniform &= r.capacity == first.capacity && r.perf == first.perf && r.ee == first.ee;
	}
	for (int c = 0; c < hmp_cpus; c++) {
		struct hmp_cpu r = resolve(c);
		int cap = scaled_capacity(&r, cap_max);
		cap_min = cap < cap_min ? cap : cap_min;
	}
	for (int c = 0; c < hmp_cpus; c++) {
		struct hmp_cpu r = resolve(c), old;
		r.capacity = (uint16_t)scaled_capacity(&r, cap_max);
		r.weight = (uint16_t)((HMP_WEIGHT_SLOWEST * cap_min + r.capacity / 2) / r.capacity);
		int no_info = all_zero || r.perf_from == HMP_PROV_DEFAULT;
		const struct hmp_given *perf_giver = &given[r.perf_from][c];
		if (no_info) {   /* no information: follow capacity */
			r.perf = (uint16_t)((r.capacity * HMP_SCORE_MAX + HMP_CAPACITY_MAX / 2) /
					    HMP_CAPACITY_MAX);
			r.perf_from = r.capacity_from;
		}
		r.perf_shared = (uint16_t)(r.perf * r.smt / HMP_SMT_MAX);
		r.ee_shared = (uint16_t)(r.ee * r.smt / HMP_SMT_MAX);
		resolve_classes(perf_giver, &given[r.ee_from][c], no_info, &r);
		r.avoid = r.perf == 0;
		r.never = r.avoid && r.ee == 0;
		if (r.avoid)
			cpuset_set(&avoid, (unsigned)c);
		if (r.never)
			cpuset_set(&never, (unsigned)c);
		hmp_read(c, &old);
		if (same(&r, &old) && old.generation)
			continue;
		r.generation = old.generation + 1;
		store(c, &r);
		changed++;
	}
	for (int i = 0; i < CPUSET_WORDS; i++) {
		__atomic_store_n(&avoid_set.bits[i], avoid.bits[i], __ATOMIC_RELAXED);
		__atomic_store_n(&never_set.bits[i], never.bits[i], __ATOMIC_RELAXED);
	}
	if (changed)
		__atomic_store_n(&hmp_gen, hmp_gen + 1, __ATOMIC_RELEASE);
	__atomic_store_n(&hmp_zero, all_zero, __ATOMIC_RELAXED);
	__atomic_store_n(&hmp_same, uniform, __ATOMIC_RELAXED);
	sched_plat_hmp_unlock();
	return changed;
}

/* ---- readers ---- */

int hmp_ncpu(void)
{
	return hmp_cpus;
}

/* See hmp.h: retries while a writer is inside the record. */
void hmp_read(int cpu, struct hmp_cpu *out)
{
	const struct hmp_pub *p = &pub[cpu];
	for (;;) {
		uint32_t s1 = __atomic_load_n(&p->seq, __ATOMIC_ACQUIRE);
		if (s1 & 1) {
			sched_plat_relax();
			continue;
		}
		out->capacity = __atomic_load_n(&p->rec.capacity, __ATOMIC_RELAXED);
		out->weight = __atomic_load_n(&p->rec.weight, __ATOMIC_RELAXED);
		out->perf = __atomic_load_n(&p->rec.perf, __ATOMIC_RELAXED);
		out->ee = __atomic_load_n(&p->rec.ee, __ATOMIC_RELAXED);
		out->smt = __atomic_load_n(&p->rec.smt, __ATOMIC_RELAXED);
		out->perf_shared = __atomic_load_n(&p->rec.perf_shared, __ATOMIC_RELAXED);
		out->ee_shared = __atomic_load_n(&p->rec.ee_shared, __ATOMIC_RELAXED);
		out->avoid = __atomic_load_n(&p->rec.avoid, __ATOMIC_RELAXED);
		out->never = __atomic_load_n(&p->rec.never, __ATOMIC_RELAXED);
		out->capacity_from = __atomic_load_n(&p->rec.capacity_from, __ATOMIC_RELAXED);
		out->perf_from = __atomic_load_n(&p->rec.perf_from, __ATOMIC_RELAXED);
		out->ee_from = __atomic_load_n(&p->rec.ee_from, __ATOMIC_RELAXED);
		out->smt_from = __atomic_load_n(&p->rec.smt_from, __ATOMIC_RELAXED);
		for (int k = 0; k < ITD_CLASS_MAX; k++) {
			out->cls_perf[k] = __atomic_load_n(&p->rec.cls_perf[k], __ATOMIC_RELAXED);
			out->cls_ee[k] = __atomic_load_n(&p->rec.cls_ee[k], __ATOMIC_RELAXED);
			out->cls_perf_shared[k] =
				__atomic_load_n(&p->rec.cls_perf_shared[k], __ATOMIC_RELAXED);
			out->cls_ee_shared[k] = __atomic_load_n(&p->rec.cls_ee_shared[k], __ATOMIC_RELAXED);
		}
		out->generation = __atomic_load_n(&p->rec.generation, __ATOMIC_RELAXED);
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		if (__atomic_load_n(&p->seq, __ATOMIC_RELAXED) == s1)
			return;
	}
}

int hmp_capacity(int cpu) { return __atomic_load_n(&pub[cpu].rec.capacity, __ATOMIC_RELAXED); }
int hmp_weight(int cpu) { return __atomic_load_n(&pub[cpu].rec.weight, __ATOMIC_RELAXED); }
int hmp_perf(int cpu) { return __atomic_load_n(&pub[cpu].rec.perf, __ATOMIC_RELAXED); }
int hmp_ee(int cpu) { return __atomic_load_n(&pub[cpu].rec.ee, __ATOMIC_RELAXED); }
int hmp_avoid(int cpu) { return __atomic_load_n(&pub[cpu].rec.avoid, __ATOMIC_RELAXED); }
int hmp_never(int cpu) { return __atomic_load_n(&pub[cpu].rec.never, __ATOMIC_RELAXED); }
int hmp_smt(int cpu) { return __atomic_load_n(&pub[cpu].rec.smt, __ATOMIC_RELAXED); }

/* See hmp.h. */
int hmp_score(int cpu, int metric, int shared)
{
	const struct hmp_cpu *r = &pub[cpu].rec;
	const uint16_t *f = metric ? (shared ? &r->ee_shared : &r->ee)
				   : (shared ? &r->perf_shared : &r->perf);
	return __atomic_load_n(f, __ATOMIC_RELAXED);
}

/* See hmp.h. */
int hmp_score_class(int cpu, int metric, int shared, unsigned cls)
{
	if (cls == 0)
		return hmp_score(cpu, metric, shared);
	if (cls >= ITD_CLASS_MAX)
		return 0;
	const struct hmp_cpu *r = &pub[cpu].rec;
	const uint16_t *f = metric ? (shared ? &r->cls_ee_shared[cls] : &r->cls_ee[cls])
				   : (shared ? &r->cls_perf_shared[cls] : &r->cls_perf[cls]);
	return __atomic_load_n(f, __ATOMIC_RELAXED);
}

/* Copies a published set word by word. */
static void set_copy(const struct cpuset *from, struct cpuset *out)
{
	for (int i = 0; i < CPUSET_WORDS; i++)
		out->bits[i] = __atomic_load_n(&from->bits[i], __ATOMIC_RELAXED);
}

/* See hmp.h. */
void hmp_avoid_set(struct cpuset *out) { set_copy(&avoid_set, out); }
void hmp_never_set(struct cpuset *out) { set_copy(&never_set, out); }
uint64_t hmp_generation(void) { return __atomic_load_n(&hmp_gen, __ATOMIC_ACQUIRE); }
int hmp_all_perf_zero(void) { return __atomic_load_n(&hmp_zero, __ATOMIC_RELAXED); }
int hmp_uniform(void) { return hmp_cpus == 0 || __atomic_load_n(&hmp_same, __ATOMIC_RELAXED); }

const char *hmp_provider_name(enum hmp_provider p)
{
	return p < HMP_NPROV ? provider_names[p] : "?";
}

/* See hmp.h. */
int hmp_provider_status(enum hmp_provider p, char *why, size_t len)
{
	if (p >= HMP_NPROV || len == 0)
		return 0;
	sched_plat_hmp_lock();
	size_t i = 0;
	for (; status[p].why[i] && i + 1 < len; i++)
		why[i] = status[p].why[i];
	why[i] = 0;
	int active = status[p].active;
	sched_plat_hmp_unlock();
	return active;
}

/* See hmp.h. */
unsigned hmp_provider_values(enum hmp_provider p, int cpu, int *capacity, int *perf, int *ee)
{
	if (p >= HMP_NPROV || cpu < 0 || cpu >= hmp_cpus)
		return 0;
	sched_plat_hmp_lock();
	struct hmp_given g = given[p][cpu];
	sched_plat_hmp_unlock();
	*capacity = g.capacity;
	*perf = g.perf;
	*ee = g.ee;
	return g.mask;
}
