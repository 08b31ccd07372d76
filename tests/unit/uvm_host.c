/* SPDX-License-Identifier: BSD-2-Clause */
/* uvm_host.c — the host machine under kernel/user/uvm*.c (see uvm_host.h). */
#include <tests/unit/uvm_host.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sanitizer/asan_interface.h>
#include <mm/mm.h>
#include <sync/mutex.h>
#include <kern/panic.h>
#include <kern/printk.h>
#include <arch/x86_64/cpu/user_cpu.h>
#include <mosaic/syscall.h>
#include <user/ulimit.h>

#define PG UINT64_C(4096)
#define PTE_P    (UINT64_C(1) << 0)
#define PTE_W    (UINT64_C(1) << 1)
#define PTE_NX   (UINT64_C(1) << 63)
#define PTE_ADDR UINT64_C(0x000FFFFFFFFFF000)
#define KERNEL_PML4_PHYS PG   /* pool page 1; page 0 is never handed out */
#define HEAP_MAGIC 0x6b6d616c6c6f6321ull
#define MUTEXES_MAX 8

enum { PG_NEVER, PG_FREE, PG_USED, PG_KEPT };

uint64_t mm_host_direct_map_base;
int host_spin_depth;

static uint8_t *pool;
static uint8_t page_state[HOST_POOL_PAGES];
static uint8_t page_flushed[HOST_POOL_PAGES];   /* a flush saw its entry not present */
static uint32_t free_stack[HOST_POOL_PAGES];
static uint32_t nfree;
static uint64_t pages_in_use, pages_kept;
static int in_init, in_free;                     /* inside host_uvm_init / host_uvm_free */
static uint32_t fail_page, fail_heap, fail_flush;
static uint64_t heap_live, flushes, printk_count;
static char printk_last[256];
static struct mutex *held[MUTEXES_MAX];
static int nheld;
static int reserve_allowed;
static uint64_t refusal_reports;

/* Entry i (256..511) of the fake kernel PML4: present, writable, NX, an
 * address outside the pool no walk ever follows. */
static uint64_t kernel_pml4_entry(unsigned i)
{
	return ((0x7f000ull + i) << 12) | PTE_P | PTE_W | PTE_NX;
}

/* Maps the pool and the kernel PML4 on first use; every free page is
 * poisoned. */
static void pool_init(void)
{
	if (pool)
		return;
	pool = mmap(NULL, HOST_POOL_PAGES * PG, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (pool == MAP_FAILED) {
		perror("uvm_host: mmap of the fake physical memory");
		abort();
	}
	mm_host_direct_map_base = (uint64_t)pool;
	uint64_t *kernel = (uint64_t *)(pool + KERNEL_PML4_PHYS);
	for (unsigned i = 256; i < 512; i++)
		kernel[i] = kernel_pml4_entry(i);
	for (uint32_t i = HOST_POOL_PAGES - 1; i >= 2; i--) {
		page_state[i] = PG_FREE;
		free_stack[nfree++] = i;
	}
	ASAN_POISON_MEMORY_REGION(pool + 2 * PG, (HOST_POOL_PAGES - 2) * PG);
}

/* Counts a call down: 1 when this one is the n-th (and disarms). */
static int countdown(uint32_t *n)
{
	return *n && --*n == 0;
}

/* The pool index of phys, after checking it is a pool page. */
static uint32_t page_index(uint64_t phys, const char *what)
{
	if (phys % PG || phys / PG >= HOST_POOL_PAGES || phys / PG < 2)
		panic("uvm_host: %s of %lx, not a page of the fake memory", what, phys);
	return (uint32_t)(phys / PG);
}

/* See uvm_host.h. */
int host_uvm_init(struct uvm *vm, struct ujob *job)
{
	pool_init();
	in_init = 1;
	int rc = uvm_init(vm, job);
	in_init = 0;
	return rc;
}

/* See uvm_host.h. */
void host_uvm_free(struct uvm *vm)
{
	if (vm->lock.owner)
		panic("uvm_host: uvm_free with the space's lock held");
	in_free = 1;
	uvm_free(vm);
	in_free = 0;
}

/* See uvm_host.h. */
uint64_t host_pages_in_use(void)
{
	return pages_in_use;
}

/* See uvm_host.h. */
uint64_t host_pages_kept(void)
{
	return pages_kept;
}

/* See uvm_host.h. */
void host_pages_reclaim(void)
{
	for (uint32_t i = 2; pages_kept && i < HOST_POOL_PAGES; i++) {
		if (page_state[i] == PG_KEPT) {
			page_state[i] = PG_FREE;
			ASAN_POISON_MEMORY_REGION(pool + i * PG, PG);
			free_stack[nfree++] = i;
			pages_kept--;
		}
	}
}

/* See uvm_host.h. */
int host_page_allocated(uint64_t phys)
{
	return phys % PG == 0 && phys / PG < HOST_POOL_PAGES && page_state[phys / PG] == PG_USED;
}

/* See uvm_host.h. */
void host_fail_page(uint32_t n)
{
	fail_page = n;
}

/* See uvm_host.h. */
void host_fail_heap(uint32_t n)
{
	fail_heap = n;
}

/* See uvm_host.h. */
void host_fail_flush(uint32_t n)
{
	fail_flush = n;
}

/* See uvm_host.h. */
uint64_t host_heap_live(void)
{
	return heap_live;
}

/* See uvm_host.h. */
uint64_t host_flushes(void)
{
	return flushes;
}

/* See uvm_host.h. */
uint64_t host_printk_count(void)
{
	return printk_count;
}

/* See uvm_host.h. */
const char *host_printk_last(void)
{
	return printk_last;
}

/* See mm.h: a zeroed page, 0 when the armed failure comes. Only under a
 * mutex (the space's lock) or in uvm_init(), never under a spinlock. */
uint64_t pmm_alloc_page(void)
{
	pool_init();
	if (host_spin_depth)
		panic("uvm_host: page allocated under a spinlock");
	if (!in_init && !nheld)
		panic("uvm_host: page allocated without the address space's lock");
	if (countdown(&fail_page))
		return 0;
	if (!nfree)
		panic("uvm_host: the fake memory of %u pages is used up (lower kern.user.pages_total)",
		      HOST_POOL_PAGES);
	uint32_t i = free_stack[--nfree];
	ASAN_UNPOISON_MEMORY_REGION(pool + i * PG, PG);
	memset(pool + i * PG, 0, PG);
	page_state[i] = PG_USED;
	page_flushed[i] = 0;
	pages_in_use++;
	return i * PG;
}

/* See mm.h. Outside uvm_free() a page goes back only under the space's
 * lock, after a TLB flush that saw its entry not present. */
void pmm_free_page(uint64_t phys)
{
	uint32_t i = page_index(phys, "free");
	if (page_state[i] != PG_USED)
		panic("uvm_host: page %lx freed twice (or kept after a failed flush)", phys);
	if (!in_free && !nheld)
		panic("uvm_host: page %lx freed without the address space's lock", phys);
	if (!in_free && !page_flushed[i])
		panic("uvm_host: page %lx freed before a TLB flush saw its entry not present", phys);
	page_state[i] = PG_FREE;
	ASAN_POISON_MEMORY_REGION(pool + i * PG, PG);
	free_stack[nfree++] = i;
	pages_in_use--;
}

/* See mm.h. */
uint64_t vmm_kernel_cr3(void)
{
	pool_init();
	return KERNEL_PML4_PHYS;
}

/* The space whose lock is held and whose PML4 is cr3, or NULL. */
static struct uvm *held_space(uint64_t cr3)
{
	for (int i = 0; i < nheld; i++) {
		struct uvm *vm = (struct uvm *)((char *)held[i] - offsetof(struct uvm, lock));
		if (vm->pml4 == cr3)
			return vm;
	}
	return NULL;
}

/* Marks the pages behind the not-present leaf entries of the table at
 * phys (level 4: the PML4's user half): flushed, or kept when the flush
 * failed. */
static void flush_mark(uint64_t phys, int level, int failed)
{
	const uint64_t *t = (const uint64_t *)(pool + phys);
	for (unsigned i = 0; i < (level == 4 ? 256u : 512u); i++) {
		uint64_t e = t[i];
		if (level > 1) {
			if (e & PTE_P)
				flush_mark(e & PTE_ADDR, level - 1, failed);
			continue;
		}
		if ((e & PTE_P) || !(e & PTE_ADDR))
			continue;
		uint32_t k = page_index(e & PTE_ADDR, "TLB flush");
		if (page_state[k] != PG_USED)
			panic("uvm_host: a cleared entry maps page %lx, which is not in use", e & PTE_ADDR);
		if (failed) {
			page_state[k] = PG_KEPT;
			pages_in_use--;
			pages_kept++;
		} else {
			page_flushed[k] = 1;
		}
	}
}

/* See user_cpu.h: under the lock of the space with that CR3. */
int user_cpu_flush_tlb(uint64_t cr3)
{
	if (host_spin_depth)
		panic("uvm_host: TLB flush under a spinlock");
	if (!held_space(cr3))
		panic("uvm_host: TLB flush of %lx without that space's lock", cr3);
	flushes++;
	int failed = countdown(&fail_flush);
	flush_mark(cr3, 4, failed);
	return failed ? -1 : 0;
}

/* See mutex.h. */
void mutex_init(struct mutex *m, const char *name)
{
	m->owner = NULL;
	m->name = name;
}

/* See mutex.h: one thread here, so fairness changes nothing. */
void mutex_init_fair(struct mutex *m, const char *name)
{
	mutex_init(m, name);
	m->fair = 1;
}

/* See mutex.h: never under a spinlock, never twice. */
void mutex_lock(struct mutex *m)
{
	if (host_spin_depth)
		panic("uvm_host: mutex %s taken under a spinlock", m->name);
	if (!m->name)
		panic("uvm_host: mutex taken before mutex_init()");
	if (m->owner)
		panic("uvm_host: mutex %s taken twice", m->name);
	if (nheld == MUTEXES_MAX)
		panic("uvm_host: more than %d mutexes held", MUTEXES_MAX);
	m->owner = (struct thread *)m;   /* any non-NULL holder: one thread here */
	held[nheld++] = m;
}

/* See mutex.h: only by its holder. */
void mutex_unlock(struct mutex *m)
{
	if (!m->owner)
		panic("uvm_host: mutex %s unlocked but not held", m->name);
	m->owner = NULL;
	for (int i = 0; i < nheld; i++) {
		if (held[i] == m) {
			held[i] = held[--nheld];
			break;
		}
	}
}

/* See mm.h: a block behind a 16-byte header (its size and a magic
 * number); NULL for size 0 or the armed failure. */
void *kmalloc(size_t size)
{
	if (!size || countdown(&fail_heap))
		return NULL;
	uint64_t *h = malloc(16 + size);
	if (!h)
		abort();
	h[0] = size;
	h[1] = HEAP_MAGIC;
	heap_live++;
	return h + 2;
}

/* See mm.h. */
void *kzalloc(size_t size)
{
	void *p = kmalloc(size);
	if (p)
		memset(p, 0, size);
	return p;
}

/* See mm.h: panics on a pointer kmalloc() did not hand out (a second free
 * is a use after free AddressSanitizer reports). */
void kfree(void *ptr)
{
	if (!ptr)
		return;
	uint64_t *h = (uint64_t *)ptr - 2;
	if (h[1] != HEAP_MAGIC)
		panic("uvm_host: kfree(%p) of a block kmalloc did not hand out", ptr);
	h[1] = 0;
	heap_live--;
	free(h);
}

/* See printk.h: recorded, not printed. */
void printk(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(printk_last, sizeof(printk_last), fmt, ap);
	va_end(ap);
	printk_count++;
}

/* See uvm_host.h. */
void host_reserve(int allowed)
{
	reserve_allowed = allowed;
}

/* See ulimit.h: as host_reserve() says. */
int ulimit_reserve_allowed(void)
{
	return reserve_allowed;
}

/* See ulimit.h: counted, not printed; only quota and total refusals. */
void ulimit_report_refusal(enum ulimit_kind k, struct ujob *job, int err)
{
	if (k >= UL_COUNT || !job || (err != ERR_QUOTA && err != ERR_NOSPC))
		panic("uvm_host: a refusal of kind %d reported with error %d", k, err);
	refusal_reports++;
}

/* See uvm_host.h. */
uint64_t host_refusal_reports(void)
{
	return refusal_reports;
}

/* See panic.h: the condition, place and message, through panic(). */
void kassert_failed(const char *cond, const char *file, int line, const char *fmt, ...)
{
	char msg[192];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	panic("assertion %s failed at %s:%d: %s", cond, file, line, msg);
}
