/* SPDX-License-Identifier: BSD-2-Clause */
/* Fuzz harness of the address spaces (kernel/user/uvm.c, uvm_map.c,
 * uvm_stack.c) on the host machine of tests/unit/uvm_host.h.
 *
 * Each iteration makes one to three spaces under random page and region
 * limits (kern.user.pages_* and mappings_*, set through their sysctls,
 * the operator's reserve taken or not), each charged to the root job or to
 * one of two jobs with random quotas (one maybe below the other), and
 * runs a short random sequence on them: SYS_VM_MAP sizes (tiny, page
 * multiples, exactly the pages the process has left, the whole map area
 * and beyond), SYS_VM_UNMAP ranges (whole regions, heads, tails, middles
 * that split, spans over regions and gaps, unaligned, outside the area,
 * empty), image segments with permissions, uvm_write() anywhere, stacks
 * taken and given back, limits changed on the way, and failures injected
 * into page and heap allocations and TLB flushes. Every result must be
 * the reference model's (tests/unit/uvm_model.h: lowest-fit placement
 * with a guard page, refusals that change nothing but page tables, the
 * counts charged), and after every step the page tables walked
 * independently must map exactly the model's pages with its permissions
 * (at the end, its bytes), the regions must lie page aligned in the map
 * area each above an unmapped guard page, vm->pages must equal the pages
 * mapped plus the tables, the limits' counts must be the model's, and the
 * fake memory in use must be the pages the spaces hold. The host machine
 * itself checks that pages are allocated and freed under the space's lock
 * and that every page unmapped is freed only after a TLB flush saw its
 * entry not present. uvm_free() must give every page and record back. */
#include <tests/fuzz/fuzz.h>
#include <tests/fuzz/fuzz_panic.h>
#include <string.h>
#include <mosaic/syscall.h>
#include <user/ulayout.h>
#include <tests/unit/uvm_host.h>
#include <tests/unit/uvm_model.h>
#include <tests/unit/uvm_walk.h>

#define PG USER_PAGE
#define AREA (USER_MAP_LIMIT - USER_MAP_BASE)
#define NVM 3

static struct limit_model lim;
static struct uvm vms[NVM];
static struct vm_model models[NVM];
static int live[NVM];
static uint8_t bytes[3 * PG];

/* The regions of vm: page aligned, inside the map area, by address, each
 * followed by an unmapped guard page. */
static void check_regions(struct fuzz *f, const struct uvm *vm)
{
	for (const struct uvm_region *r = vm->regions; r; r = r->next) {
		if (r->start % PG || r->end % PG || r->start >= r->end || r->start < USER_MAP_BASE ||
		    r->end > USER_MAP_LIMIT || (r->next && r->end + PG > r->next->start) ||
		    walk_pte(vm, r->end))
			fuzz_fail(f, "region %lx..%lx breaks the layout", r->start, r->end);
	}
}

/* Space only (-1: every space) against its model (bytes too when
 * contents), the limits, and the fake memory in use. */
static void check(struct fuzz *f, int only, int contents)
{
	char why[256];
	uint64_t held = 0;
	for (int i = 0; i < NVM; i++) {
		if (!live[i])
			continue;
		held += vms[i].pages;
		if (only >= 0 && i != only)
			continue;
		if (vm_model_check(&models[i], &vms[i], contents, why, sizeof(why)))
			fuzz_fail(f, "space %d: %s", i, why);
		check_regions(f, &vms[i]);
	}
	if (lm_check(&lim, why, sizeof(why)))
		fuzz_fail(f, "limits: %s", why);
	if (host_pages_in_use() != held)
		fuzz_fail(f, "%lu pages of the fake memory in use, the spaces hold %lu",
			  host_pages_in_use(), held);
	if (lim.jobs[0].use[UL_PAGES] != held)
		fuzz_fail(f, "%lu pages charged, the spaces hold %lu", lim.jobs[0].use[UL_PAGES], held);
}

/* A page limit: mostly small, sometimes the default 64 MiB. */
static int64_t random_page_limit(struct fuzz *f)
{
	if (fuzz_below(f, 2000) == 0)
		return USER_PAGES_MAX;
	return fuzz_below(f, 16) ? 8 + (int64_t)fuzz_below(f, 200) : (int64_t)fuzz_below(f, 1200);
}

/* New random limits for pages and regions (the page total stays within
 * the fake memory): per space, the total and its reserve, whether the
 * reserve may be taken, and the quotas of the jobs (often none). */
static void random_limits(struct fuzz *f)
{
	int64_t pages = random_page_limit(f);
	int64_t total = fuzz_below(f, 4) ? pages * NVM : (int64_t)fuzz_below(f, (uint64_t)pages * 2 + 8);
	if (total > HOST_POOL_PAGES - 64)
		total = HOST_POOL_PAGES - 64;
	lm_set(&lim, UL_PAGES, pages, total);
	int64_t maps = fuzz_below(f, 8) ? 1 + (int64_t)fuzz_below(f, 12) : (int64_t)fuzz_below(f, 64);
	lm_set(&lim, UL_MAPPINGS, maps, fuzz_below(f, 4) ? maps * NVM : (int64_t)fuzz_below(f, 40));
	if (fuzz_below(f, 2)) {
		lm_set_reserve(&lim, UL_PAGES, (int64_t)fuzz_below(f, 64));
		lm_set_reserve(&lim, UL_MAPPINGS, (int64_t)fuzz_below(f, 8));
	}
	lm_reserve(&lim, (int)fuzz_below(f, 2));
	for (int j = 1; j < lim.njobs; j++) {
		lm_set_quota(&lim, j, UL_PAGES,
			     fuzz_below(f, 3) ? -1 : (int64_t)fuzz_below(f, (uint64_t)pages * 2 + 8));
		lm_set_quota(&lim, j, UL_MAPPINGS, fuzz_below(f, 3) ? -1 : (int64_t)fuzz_below(f, 16));
	}
}

/* Two jobs below the root, the second below the first or beside it; each
 * space is charged to one of the three (the root: a space of the kernel's). */
static void random_jobs(struct fuzz *f)
{
	static struct ujob jobs[2];
	lm_jobs_reset(&lim);
	memset(jobs, 0, sizeof(jobs));
	int first = lm_job_add(&lim, 0, &jobs[0]);
	lm_job_add(&lim, fuzz_below(f, 2) ? first : 0, &jobs[1]);
}

/* Arms a failure now and then: of the k-th page or heap allocation, or of
 * the next TLB flush. */
static void random_failures(struct fuzz *f)
{
	uint32_t page = fuzz_below(f, 6) ? 0 : 1 + (uint32_t)fuzz_below(f, 12);
	uint32_t heap = fuzz_below(f, 12) ? 0 : 1;
	lm_arm(&lim, page, heap);
	host_fail_flush(fuzz_below(f, 24) ? 0 : 1);
}

/* A SYS_VM_MAP size. */
static uint64_t random_map_size(struct fuzz *f, const struct vm_model *m)
{
	uint64_t left = lim.per_proc[UL_PAGES] > m->pages ? lim.per_proc[UL_PAGES] - m->pages : 0;
	switch (fuzz_below(f, 10)) {
	case 0: return 1 + fuzz_below(f, 3 * PG);
	case 1: return left * PG - fuzz_below(f, 2) * PG;
	case 2: return left * PG + fuzz_below(f, 2) * PG;
	case 3: {
		static const uint64_t big[] = { 0, AREA, AREA + 1, AREA - PG, 64ull << 20, UINT64_MAX,
						USER_MAP_LIMIT };
		return big[fuzz_below(f, sizeof(big) / sizeof(big[0]))];
	}
	case 4: return fuzz_u64(f) >> fuzz_below(f, 64);
	default: return (1 + fuzz_below(f, 16)) * PG - fuzz_below(f, 2);
	}
}

/* A SYS_VM_UNMAP range around the regions of m, in *addr and *len. */
static void random_unmap_range(struct fuzz *f, const struct vm_model *m, uint64_t *addr,
			       uint64_t *len)
{
	uint64_t a = USER_MAP_BASE + fuzz_below(f, 64) * PG, b = a + (1 + fuzz_below(f, 8)) * PG;
	if (m->nregions && fuzz_below(f, 4)) {
		uint32_t i = (uint32_t)fuzz_below(f, m->nregions);
		uint32_t j = i + (uint32_t)fuzz_below(f, m->nregions - i);
		uint64_t s = m->regions[i].start, e = m->regions[j].end, n = (e - s) / PG;
		switch (fuzz_below(f, 5)) {
		case 0: a = s; b = e; break;                                    /* whole */
		case 1: a = s; b = s + (1 + fuzz_below(f, n)) * PG; break;      /* head */
		case 2: a = e - (1 + fuzz_below(f, n)) * PG; b = e; break;      /* tail */
		case 3: a = s + fuzz_below(f, n) * PG; b = a + (1 + fuzz_below(f, n)) * PG; break;
		default: a = s - fuzz_below(f, 2) * PG; b = e + fuzz_below(f, 3) * PG; break;
		}
	}
	*addr = a;
	*len = b - a - (fuzz_below(f, 4) ? 0 : fuzz_below(f, PG));
	switch (fuzz_below(f, 24)) {
	case 0: *addr += 1 + fuzz_below(f, PG - 1); break;
	case 1: *len = 0; break;
	case 2: *addr = USER_MAP_BASE - PG * (1 + fuzz_below(f, 4)); break;
	case 3: *addr = USER_MAP_LIMIT - fuzz_below(f, 2) * PG; break;
	case 4: *addr = USER_MAP_BASE; *len = AREA + fuzz_below(f, 2); break;
	case 5: *len = fuzz_u64(f); break;
	case 6: *addr = fuzz_u64(f) & ~(PG - 1); break;
	default: break;
	}
}

/* A user address for uvm_write: mostly in a mapped page. */
static uint64_t random_write_address(struct fuzz *f, const struct vm_model *m)
{
	if (m->nruns && fuzz_below(f, 4)) {
		const struct vm_run *r = &m->runs[fuzz_below(f, m->nruns)];
		return r->start + fuzz_below(f, r->end - r->start + PG) - fuzz_below(f, 16);
	}
	static const uint64_t at[] = { 0, USER_IMAGE_LOW, USER_MAP_BASE, USER_STACK_TOP - PG,
				       USER_TOP - 8, USER_TOP, ~0ull - 4 };
	return at[fuzz_below(f, sizeof(at) / sizeof(at[0]))] + fuzz_below(f, 64);
}

/* The real stack at position k of vm's list (newest first). */
static struct ustack *stack_at(struct uvm *vm, uint32_t k)
{
	struct ustack *s = vm->stacks;
	while (k--)
		s = s->next;
	return s;
}

/* uvm_in_guard() at an address near the stacks: 1 exactly in the page
 * below one of the model's stacks. */
static void check_guard(struct fuzz *f, struct uvm *vm, const struct vm_model *m)
{
	if (!m->nstacks)
		return;
	uint64_t low = m->stacks[fuzz_below(f, m->nstacks)].top;
	low -= m->stacks[fuzz_below(f, m->nstacks)].size;
	uint64_t addr = low - 2 * PG + fuzz_below(f, 3 * PG);
	int want = 0;
	for (uint32_t k = 0; k < m->nstacks; k++) {
		uint64_t bottom = m->stacks[k].top - m->stacks[k].size;
		want |= addr >= bottom - PG && addr < bottom;
	}
	if (uvm_in_guard(vm, addr) != want)
		fuzz_fail(f, "uvm_in_guard(%lx) %d, the model %d", addr, !want, want);
}

/* One random operation on space i. */
static void step(struct fuzz *f, int i)
{
	struct uvm *vm = &vms[i];
	struct vm_model *m = &models[i];
	uint64_t flushes = host_flushes(), leaves = vm_model_leaves(m), tables = vm_model_tables(m);
	uint32_t nregions = m->nregions, pages = m->pages;
	int refused = 0;
	m->flushed = 0;
	random_failures(f);
	switch (fuzz_below(f, 16)) {
	case 0: case 1: case 2: case 3: {
		uint64_t size = random_map_size(f, m);
		int64_t want = vm_model_map_anon(m, size), rc = uvm_map_anon(vm, size);
		if (rc != want)
			fuzz_fail(f, "uvm_map_anon(%lx) %ld, the model %ld", size, rc, want);
		refused = rc < 0;
		break;
	}
	case 4: case 5: case 6: {
		uint64_t addr, len;
		random_unmap_range(f, m, &addr, &len);
		int want = vm_model_unmap_anon(m, addr, len), rc = uvm_unmap_anon(vm, addr, len);
		if (rc != want)
			fuzz_fail(f, "uvm_unmap_anon(%lx, %lx) %d, the model %d", addr, len, rc, want);
		refused = rc < 0;
		break;
	}
	case 7: case 8: {
		static const unsigned prots[] = { 0, UVM_WRITE, UVM_EXEC };
		uint64_t va = USER_IMAGE_LOW + fuzz_below(f, 64) * PG, n = (1 + fuzz_below(f, 8)) * PG;
		unsigned prot = prots[fuzz_below(f, 3)];
		int want = vm_model_map_zero(m, va, n, prot), rc = uvm_map_zero(vm, va, n, prot);
		if (rc != want)
			fuzz_fail(f, "uvm_map_zero(%lx, %lx, %u) %d, the model %d", va, n, prot, rc, want);
		break;
	}
	case 9: case 10: case 11: {
		uint64_t va = random_write_address(f, m);
		uint64_t n = fuzz_below(f, fuzz_below(f, 4) ? 64 : sizeof(bytes));
		for (uint64_t k = 0; k < n; k++)
			bytes[k] = (uint8_t)fuzz_u64(f);
		int want = vm_model_write(m, va, bytes, n), rc = uvm_write(vm, va, bytes, n);
		if (rc != want)
			fuzz_fail(f, "uvm_write(%lx, %lu) %d, the model %d", va, n, rc, want);
		break;
	}
	case 12: case 13: {
		uint64_t huge = ((USER_STACK_TOP - USER_STACK_LOW) >> fuzz_below(f, 3)) & ~(PG - 1);
		uint64_t size = fuzz_below(f, 32) ? (1 + fuzz_below(f, 16)) * PG : huge;
		struct ustack *s;
		uint32_t k = 0;
		int want = vm_model_stack_get(m, size, &k), rc = uvm_stack_get(vm, size, &s);
		if (rc != want || (rc == 0) != (s != NULL) || (s && s != stack_at(vm, k)))
			fuzz_fail(f, "uvm_stack_get(%lx) %d, the model %d (stack %u)", size, rc, want, k);
		check_guard(f, vm, m);
		break;
	}
	case 14: {
		uint32_t busy[VM_MODEL_STACKS], n = 0;
		for (uint32_t k = 0; k < m->nstacks; k++)
			if (m->stacks[k].in_use)
				busy[n++] = k;
		if (n) {
			uint32_t k = busy[fuzz_below(f, n)];
			uvm_stack_put(vm, stack_at(vm, k));
			vm_model_stack_put(m, k);
		}
		break;
	}
	default:
		random_limits(f);
		break;
	}
	lm_arm(&lim, 0, 0);
	host_fail_flush(0);
	if (host_flushes() != flushes + (uint64_t)m->flushed)
		fuzz_fail(f, "%lu TLB flushes, the model expects %d", host_flushes() - flushes, m->flushed);
	check(f, i, 0);
	/* The model is the space now: a refusal may leave page tables, nothing else. */
	if (refused && (vm_model_leaves(m) != leaves || m->nregions != nregions ||
			m->pages != pages + (vm_model_tables(m) - tables)))
		fuzz_fail(f, "a refused call changed the space");
}

static void fuzz_one(struct fuzz *f)
{
	static int synced;
	fuzz_current = f;
	if (!synced) {
		lm_sync(&lim);
		synced = 1;
	}
	random_jobs(f);
	random_limits(f);
	int n = 1 + (int)fuzz_below(f, NVM);
	for (int i = 0; i < NVM; i++) {
		live[i] = 0;
		if (i >= n)
			continue;
		lm_arm(&lim, fuzz_below(f, 64) ? 0 : 1, 0);
		int job = (int)fuzz_below(f, (uint64_t)lim.njobs);
		int want = vm_model_init(&models[i], &lim, job), rc = host_uvm_init(&vms[i], lm_job(&lim, job));
		if (rc != want)
			fuzz_fail(f, "uvm_init %d, the model %d", rc, want);
		live[i] = rc == 0;
	}
	lm_arm(&lim, 0, 0);
	check(f, -1, 0);
	int steps = 1 + (int)fuzz_below(f, 24);
	for (int s = 0; s < steps; s++) {
		int i = (int)fuzz_below(f, n);
		if (live[i])
			step(f, i);
	}
	check(f, -1, 1);
	for (int i = 0; i < n; i++) {
		if (!live[i])
			continue;
		host_uvm_free(&vms[i]);
		vm_model_free(&models[i]);
		live[i] = 0;
	}
	check(f, -1, 0);
	if (host_pages_in_use() || host_heap_live() || lim.jobs[0].use[UL_PAGES] ||
	    lim.jobs[0].use[UL_MAPPINGS])
		fuzz_fail(f, "after uvm_free: %lu pages, %lu heap blocks", host_pages_in_use(),
			  host_heap_live());
	host_pages_reclaim();
}

FUZZ_MAIN("uvm")
