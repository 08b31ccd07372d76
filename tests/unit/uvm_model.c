/* SPDX-License-Identifier: BSD-2-Clause */
/* uvm_model.c — the reference model of an address space (see uvm_model.h). */
#include <tests/unit/uvm_model.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <mm/mm.h>
#include <mosaic/syscall.h>
#include <kern/panic.h>
#include <user/ulayout.h>
#include <tests/unit/uvm_walk.h>

#define PG USER_PAGE
#define AREA (USER_MAP_LIMIT - USER_MAP_BASE)

/* ---- pages and their contents ---- */

/* The run holding va, or -1. */
static int run_find(const struct vm_model *m, uint64_t va)
{
	uint32_t lo = 0, hi = m->nruns;
	while (lo < hi) {
		uint32_t mid = (lo + hi) / 2;
		if (m->runs[mid].end <= va)
			lo = mid + 1;
		else if (m->runs[mid].start > va)
			hi = mid;
		else
			return (int)mid;
	}
	return -1;
}

/* Adds the unmapped page va with prot: extends the run before it when
 * that ends at va with the same permissions, else a new run. */
static void page_add(struct vm_model *m, uint64_t va, unsigned prot)
{
	uint32_t at = 0;
	while (at < m->nruns && m->runs[at].start < va)
		at++;
	if (at && m->runs[at - 1].end == va && m->runs[at - 1].prot == prot) {
		m->runs[at - 1].end += PG;
		return;
	}
	if (m->nruns == VM_MODEL_RUNS)
		panic("uvm_model: more than %d runs of pages", VM_MODEL_RUNS);
	memmove(&m->runs[at + 1], &m->runs[at], (m->nruns - at) * sizeof(m->runs[0]));
	m->runs[at] = (struct vm_run){ va, va + PG, prot };
	m->nruns++;
}

/* Forgets what was written to pages in [start, end). */
static void content_drop(struct vm_model *m, uint64_t start, uint64_t end)
{
	for (uint32_t i = 0; i < m->ncontent;) {
		if (m->content[i].va >= start && m->content[i].va < end) {
			free(m->content[i].bytes);
			m->content[i] = m->content[--m->ncontent];
		} else {
			i++;
		}
	}
}

/* The content record of the page at va (page aligned), or NULL. */
static int content_find(const struct vm_model *m, uint64_t va)
{
	for (uint32_t i = 0; i < m->ncontent; i++)
		if (m->content[i].va == va)
			return (int)i;
	return -1;
}

/* Unmaps every page in [start, end) (uncharging it); returns how many. */
static uint64_t pages_remove(struct vm_model *m, uint64_t start, uint64_t end)
{
	uint64_t removed = 0;
	for (uint32_t i = 0; i < m->nruns;) {
		struct vm_run *r = &m->runs[i];
		if (r->end <= start || r->start >= end) {
			i++;
			continue;
		}
		uint64_t a = r->start > start ? r->start : start, b = r->end < end ? r->end : end;
		removed += (b - a) / PG;
		if (r->start < a && r->end > b) {   /* split */
			if (m->nruns == VM_MODEL_RUNS)
				panic("uvm_model: more than %d runs of pages", VM_MODEL_RUNS);
			memmove(&m->runs[i + 2], &m->runs[i + 1],
				(m->nruns - i - 1) * sizeof(m->runs[0]));
			m->runs[i + 1] = (struct vm_run){ b, r->end, r->prot };
			r->end = a;
			m->nruns++;
			i += 2;
		} else if (r->start < a) {
			r->end = a;
			i++;
		} else if (r->end > b) {
			r->start = b;
			i++;
		} else {
			memmove(r, r + 1, (m->nruns - i - 1) * sizeof(m->runs[0]));
			m->nruns--;
		}
	}
	content_drop(m, start, end);
	lm_uncharge(m->lim, UL_PAGES, m->job, &m->pages, (uint32_t)removed);
	if (removed)
		m->flushed = 1;
	return removed;
}

/* ---- page tables ---- */

/* The tables va needs that do not exist yet, allocated from the top as
 * uvm.c does: 0 or the error of the first that cannot be had. */
static int tables_need(struct vm_model *m, uint64_t va)
{
	for (int l = 0; l < 3; l++) {
		uint64_t key = va >> (39 - 9 * l);
		int have = 0;
		for (uint32_t i = 0; i < m->ntables[l] && !have; i++)
			have = m->tables[l][i] == key;
		if (have)
			continue;
		int rc = lm_page(m->lim, m->job, &m->pages);
		if (rc)
			return rc;
		if (m->ntables[l] == VM_MODEL_TABLES)
			panic("uvm_model: more than %d tables of a level", VM_MODEL_TABLES);
		m->tables[l][m->ntables[l]++] = key;
	}
	return 0;
}

/* uvm_map_zero_locked(): fresh pages over [va, va + bytes) where none is
 * mapped; the pages mapped before a failure stay. */
static int map_zero(struct vm_model *m, uint64_t va, uint64_t bytes, unsigned prot)
{
	for (uint64_t off = 0; off < bytes; off += PG) {
		int rc = tables_need(m, va + off);
		if (rc)
			return rc;
		if (run_find(m, va + off) >= 0)
			continue;
		if ((rc = lm_page(m->lim, m->job, &m->pages)))
			return rc;
		page_add(m, va + off, prot);
	}
	return 0;
}

/* ---- the operations ---- */

/* See uvm_model.h. */
int vm_model_init(struct vm_model *m, struct limit_model *lim, int job)
{
	m->lim = lim;
	m->job = job;
	m->pages = m->nregions = m->nstacks = m->nruns = m->ncontent = 0;
	m->ntables[0] = m->ntables[1] = m->ntables[2] = 0;
	m->stack_next = USER_STACK_TOP;
	m->flushed = 0;
	return lm_page(lim, job, &m->pages);
}

/* See uvm_model.h. */
void vm_model_free(struct vm_model *m)
{
	content_drop(m, 0, USER_TOP);
	lm_uncharge(m->lim, UL_PAGES, m->job, &m->pages, m->pages);
	lm_uncharge(m->lim, UL_MAPPINGS, m->job, &m->nregions, m->nregions);
	m->nruns = m->nstacks = 0;
}

/* The lowest address of the map area where size bytes and a guard page
 * fit between the first n regions; *at the index the new region takes. 0
 * if none. */
static uint64_t gap_find(const struct vm_model *m, uint32_t n, uint64_t size, uint32_t *at)
{
	uint64_t va = USER_MAP_BASE;
	for (uint32_t i = 0;; i++) {
		uint64_t limit = i < n ? m->regions[i].start - PG : USER_MAP_LIMIT;
		if (va <= limit && size <= limit - va) {
			*at = i;
			return va;
		}
		if (i == n)
			return 0;
		va = m->regions[i].end + PG;
	}
}

/* See uvm_model.h. The whole size must fit the page limits first; then a
 * region record (charged, then allocated), the gap, the pages. */
int64_t vm_model_map_anon(struct vm_model *m, uint64_t bytes)
{
	m->flushed = 0;
	if (bytes == 0 || bytes > AREA)
		return ERR_INVAL;
	uint64_t size = (bytes + PG - 1) & ~(PG - 1);
	uint32_t npages = size / PG > UINT32_MAX ? UINT32_MAX : (uint32_t)(size / PG);
	int rc = lm_charge(m->lim, UL_PAGES, m->job, &m->pages, npages);
	if (rc)
		return rc;
	lm_uncharge(m->lim, UL_PAGES, m->job, &m->pages, npages);
	if ((rc = lm_charge(m->lim, UL_MAPPINGS, m->job, &m->nregions, 1)))
		return rc;
	uint32_t at = 0;
	uint64_t va = 0;
	if (lm_heap_fails(m->lim) || !(va = gap_find(m, m->nregions - 1, size, &at)))
		rc = ERR_NOMEM;
	if (!rc && (rc = map_zero(m, va, size, UVM_WRITE)))
		pages_remove(m, va, va + size);
	if (rc) {
		lm_uncharge(m->lim, UL_MAPPINGS, m->job, &m->nregions, 1);
		return rc;
	}
	if (m->nregions > VM_MODEL_REGIONS)
		panic("uvm_model: more than %d regions", VM_MODEL_REGIONS);
	memmove(&m->regions[at + 1], &m->regions[at], (m->nregions - 1 - at) * sizeof(m->regions[0]));
	m->regions[at].start = va;
	m->regions[at].end = va + size;
	return (int64_t)va;
}

/* See uvm_model.h. A range strictly inside one region splits it and
 * needs a record first; the pages go, then the regions are cut. */
int vm_model_unmap_anon(struct vm_model *m, uint64_t addr, uint64_t bytes)
{
	m->flushed = 0;
	if (addr % PG || bytes == 0 || addr < USER_MAP_BASE || addr >= USER_MAP_LIMIT ||
	    bytes > USER_MAP_LIMIT - addr)
		return ERR_INVAL;
	uint64_t end = addr + ((bytes + PG - 1) & ~(PG - 1));
	int split = -1;
	for (uint32_t i = 0; i < m->nregions; i++)
		if (m->regions[i].start < addr && m->regions[i].end > end)
			split = (int)i;
	if (split >= 0) {
		int rc = lm_charge(m->lim, UL_MAPPINGS, m->job, &m->nregions, 1);
		if (rc)
			return rc;
		if (lm_heap_fails(m->lim)) {
			lm_uncharge(m->lim, UL_MAPPINGS, m->job, &m->nregions, 1);
			return ERR_NOMEM;
		}
		if (m->nregions > VM_MODEL_REGIONS)
			panic("uvm_model: more than %d regions", VM_MODEL_REGIONS);
		uint32_t n = m->nregions - 1;   /* records before this one */
		memmove(&m->regions[split + 2], &m->regions[split + 1],
			(n - split - 1) * sizeof(m->regions[0]));
		m->regions[split + 1].start = end;
		m->regions[split + 1].end = m->regions[split].end;
		m->regions[split].end = addr;
	}
	pages_remove(m, addr, end);
	for (uint32_t i = 0; i < m->nregions;) {
		uint64_t *s = &m->regions[i].start, *e = &m->regions[i].end;
		if (*e <= addr || *s >= end) {
			i++;
		} else if (*s >= addr && *e <= end) {
			memmove(&m->regions[i], &m->regions[i + 1],
				(m->nregions - i - 1) * sizeof(m->regions[0]));
			lm_uncharge(m->lim, UL_MAPPINGS, m->job, &m->nregions, 1);
		} else {
			if (*s < addr)
				*e = addr;
			else
				*s = end;
			i++;
		}
	}
	return 0;
}

/* See uvm_model.h. */
int vm_model_map_zero(struct vm_model *m, uint64_t va, uint64_t bytes, unsigned prot)
{
	m->flushed = 0;
	return map_zero(m, va, bytes, prot);
}

/* See uvm_model.h. Page by page into the pages' contents, up to the
 * first page that is not mapped. */
int vm_model_write(struct vm_model *m, uint64_t va, const void *src, uint64_t n)
{
	const uint8_t *s = src;
	m->flushed = 0;
	while (n) {
		uint64_t page = va & ~(PG - 1), chunk = PG - (va - page) < n ? PG - (va - page) : n;
		if (va >= USER_TOP || run_find(m, va) < 0)
			return ERR_FAULT;
		int c = content_find(m, page);
		if (c < 0) {
			if (m->ncontent == VM_MODEL_CONTENT)
				panic("uvm_model: more than %d pages written", VM_MODEL_CONTENT);
			c = (int)m->ncontent++;
			m->content[c].va = page;
			m->content[c].bytes = calloc(1, PG);
		}
		memcpy(m->content[c].bytes + (va - page), s, chunk);
		va += chunk;
		s += chunk;
		n -= chunk;
	}
	return 0;
}

/* See uvm_model.h. A free stack that is large enough (newest first), or a
 * new one below the last: room in the stack area, a record, its pages (all
 * given back when one cannot be had). */
int vm_model_stack_get(struct vm_model *m, uint64_t size, uint32_t *index)
{
	m->flushed = 0;
	for (uint32_t i = 0; i < m->nstacks; i++) {
		if (!m->stacks[i].in_use && m->stacks[i].size >= size) {
			m->stacks[i].in_use = 1;
			*index = i;
			return 0;
		}
	}
	uint64_t top = m->stack_next;
	if (top - USER_STACK_LOW < size + PG || lm_heap_fails(m->lim))
		return ERR_NOMEM;
	int rc = map_zero(m, top - size, size, UVM_WRITE);
	if (rc) {
		pages_remove(m, top - size, top);
		return rc;
	}
	if (m->nstacks == VM_MODEL_STACKS)
		panic("uvm_model: more than %d stacks", VM_MODEL_STACKS);
	memmove(&m->stacks[1], &m->stacks[0], m->nstacks * sizeof(m->stacks[0]));
	m->stacks[0].top = top;
	m->stacks[0].size = size;
	m->stacks[0].in_use = 1;
	m->nstacks++;
	m->stack_next = top - size - PG;
	*index = 0;
	return 0;
}

/* See uvm_model.h. */
void vm_model_stack_put(struct vm_model *m, uint32_t index)
{
	m->flushed = 0;
	m->stacks[index].in_use = 0;
}

/* See uvm_model.h. */
unsigned vm_model_prot(const struct vm_model *m, uint64_t va)
{
	int r = run_find(m, va);
	return r < 0 ? 0 : m->runs[r].prot + 1;
}

/* See uvm_model.h. */
uint8_t vm_model_byte(const struct vm_model *m, uint64_t va)
{
	int c = content_find(m, va & ~(PG - 1));
	return c < 0 ? 0 : m->content[c].bytes[va & (PG - 1)];
}

/* See uvm_model.h. */
uint64_t vm_model_leaves(const struct vm_model *m)
{
	uint64_t n = 0;
	for (uint32_t i = 0; i < m->nruns; i++)
		n += (m->runs[i].end - m->runs[i].start) / PG;
	return n;
}

/* See uvm_model.h. */
uint64_t vm_model_tables(const struct vm_model *m)
{
	return (uint64_t)m->ntables[0] + m->ntables[1] + m->ntables[2];
}

/* ---- the comparison ---- */

struct cmp {
	const struct vm_model *m;
	uint32_t run;
	uint64_t next;   /* the next page the model maps */
	int contents;
	char *why;
	size_t why_len;
};

static const uint8_t zero_page[PG];

/* walk_fn: the next mapped page must be the model's next, with its
 * permissions and bytes. */
static int cmp_page(void *ctx, uint64_t va, uint64_t pte)
{
	struct cmp *c = ctx;
	const struct vm_model *m = c->m;
	while (c->run < m->nruns && c->next >= m->runs[c->run].end)
		if (++c->run < m->nruns)
			c->next = m->runs[c->run].start;
	if (c->run == m->nruns || va != c->next) {
		snprintf(c->why, c->why_len, "page %lx is mapped; the model's next is %lx", va,
			 c->run == m->nruns ? 0 : c->next);
		return -1;
	}
	unsigned prot = m->runs[c->run].prot;
	uint64_t want = WALK_P | WALK_U | ((prot & UVM_WRITE) ? WALK_W : 0) |
			((prot & UVM_EXEC) ? 0 : WALK_NX);
	if ((pte & ~WALK_ADDR) != want) {
		snprintf(c->why, c->why_len, "page %lx has flags %lx, the model %lx", va,
			 pte & ~WALK_ADDR, want);
		return -1;
	}
	if (c->contents) {
		int k = content_find(m, va);
		const uint8_t *have = phys_to_virt(pte & WALK_ADDR);
		if (memcmp(have, k < 0 ? zero_page : m->content[k].bytes, PG)) {
			snprintf(c->why, c->why_len, "page %lx holds other bytes than the model's", va);
			return -1;
		}
	}
	c->next += PG;
	return 0;
}

/* The region and stack records of vm against the model's. */
static int cmp_records(const struct vm_model *m, const struct uvm *vm, char *why, size_t why_len)
{
	uint32_t i = 0;
	for (const struct uvm_region *r = vm->regions; r; r = r->next, i++) {
		if (i == m->nregions || r->start != m->regions[i].start || r->end != m->regions[i].end) {
			snprintf(why, why_len, "region %u is %lx..%lx; the model has %u regions", i,
				 r->start, r->end, m->nregions);
			return -1;
		}
	}
	if (i != m->nregions) {
		snprintf(why, why_len, "%u regions, the model %u", i, m->nregions);
		return -1;
	}
	i = 0;
	for (const struct ustack *s = vm->stacks; s; s = s->next, i++) {
		if (i == m->nstacks || s->top != m->stacks[i].top || s->size != m->stacks[i].size ||
		    s->in_use != m->stacks[i].in_use) {
			snprintf(why, why_len, "stack %u is %lx-%lx in use %d; the model differs", i,
				 s->top, s->size, s->in_use);
			return -1;
		}
	}
	if (i != m->nstacks || vm->stack_next != m->stack_next) {
		snprintf(why, why_len, "%u stacks, next at %lx; the model %u, %lx", i, vm->stack_next,
			 m->nstacks, m->stack_next);
		return -1;
	}
	return 0;
}

/* See uvm_model.h. */
int vm_model_check(const struct vm_model *m, const struct uvm *vm, int contents, char *why,
		   size_t why_len)
{
	if (vm->pages != m->pages || vm->nregions != m->nregions) {
		snprintf(why, why_len, "%u pages, %u regions; the model %u, %u", vm->pages,
			 vm->nregions, m->pages, m->nregions);
		return -1;
	}
	if (cmp_records(m, vm, why, why_len))
		return -1;
	struct cmp c = { m, 0, m->nruns ? m->runs[0].start : 0, contents, why, why_len };
	uint64_t tables;
	if (walk_space(vm, cmp_page, &c, &tables, why, why_len))
		return -1;
	uint64_t leaves = vm_model_leaves(m);
	while (c.run < m->nruns && c.next >= m->runs[c.run].end)
		if (++c.run < m->nruns)
			c.next = m->runs[c.run].start;
	if (c.run < m->nruns) {
		snprintf(why, why_len, "page %lx is not mapped; the model maps it", c.next);
		return -1;
	}
	if (tables != vm_model_tables(m) || vm->pages != 1 + tables + leaves) {
		snprintf(why, why_len, "%lu tables and %lu pages mapped for %u pages held; the model "
			 "%lu tables", tables, leaves, vm->pages, vm_model_tables(m));
		return -1;
	}
	return 0;
}
