/* SPDX-License-Identifier: BSD-2-Clause */
/* Fuzz harness of the system-call layer (kernel/user/handle.c, svc.c,
 * ipc.c, sys_vm.c, on the address spaces of uvm*.c and the limits of
 * ulimit.c) on the host (tests/unit/user_host.h, uvm_host.h).
 *
 * Up to four fake processes (struct proc, kzalloc'ed, each with an address
 * space and a scratch buffer it mapped with SYS_VM_MAP) are born, call and
 * die at random; the current one is switched at random. The real handlers
 * run on random trap frames: SYS_EP_CREATE, SYS_HANDLE_CLOSE,
 * SYS_SVC_PUBLISH, SYS_SVC_LOOKUP, SYS_VM_MAP, SYS_VM_UNMAP and the IPC
 * calls (send, call, receive, reply, reply-receive) with good and bad
 * handles and rights, names written into the process's memory (valid, at
 * and over the length limit, bad characters, running into an unmapped
 * page) or pointers that are not the caller's, message and receive
 * buffers good and bad, timeouts valid and not — a valid nonzero timeout
 * only where the call fails before it could wait, so nothing blocks (the
 * host panics on any attempt to sleep). A process dies as the reaper ends
 * it: handle_close_all(), endpoint_disown_all(), svc_release() under
 * user_lock, then uvm_free(). Each process belongs to one of two jobs
 * (ujob.c: made, referred to and freed as the kernel does), the second
 * below the first or beside it. Limits (kern.user.*), the operator's
 * reserve, whether the caller may take it and the jobs' quotas change at
 * random, and heap and page allocations fail on demand.
 *
 * The model: each process's handle table (slot → endpoint, rights), the
 * endpoints (ids given at the first handle, references, receive rights,
 * dead once the last receive right is closed, the owner charged until it
 * dies, its job until it is freed), the service names (one owner until it
 * dies, rebinding by the owner, ERR_EXIST for others, ERR_DEAD for a dead
 * endpoint), each address space (tests/unit/uvm_model.h) and the limits
 * with ERR_LIMIT before ERR_QUOTA before ERR_NOSPC, counted at every job
 * (limit_model.h). Every result must be the model's, the
 * trap frame must come back unchanged, and after every call the handle
 * tables, counts, owned lists and endpoint records must be the model's;
 * the heap must hold exactly the processes, endpoints, regions and jobs
 * alive and the fake memory exactly the spaces' pages. After all processes
 * died every endpoint is freed, nothing is charged, no page is in use, and
 * the jobs, let go, are freed. */
#include <tests/fuzz/fuzz.h>
#include <tests/fuzz/fuzz_panic.h>
#include <mm/mm.h>
#include <mosaic/syscall.h>
#include <user/ulayout.h>
#include <user/uproc.h>
#include <tests/unit/user_host.h>
#include <tests/unit/uvm_host.h>
#include <tests/unit/uvm_model.h>

int64_t sys_ep_create(struct trap_frame *tf);
int64_t sys_handle_close(struct trap_frame *tf);
int64_t sys_svc_publish(struct trap_frame *tf);
int64_t sys_svc_lookup(struct trap_frame *tf);
int64_t sys_vm_map(struct trap_frame *tf);
int64_t sys_vm_unmap(struct trap_frame *tf);
int64_t sys_ipc_send(struct trap_frame *tf);
int64_t sys_ipc_call(struct trap_frame *tf);
int64_t sys_ipc_recv(struct trap_frame *tf);
int64_t sys_ipc_reply(struct trap_frame *tf);
int64_t sys_ipc_reply_recv(struct trap_frame *tf);

#define PG USER_PAGE
#define NPROC 4
#define NEP 256
#define SCRATCH (2 * PG)
#define BLOCKS 1   /* a model result: the call would wait */

struct m_handle {
	int ep;                   /* -1: free */
	uint32_t rights;
};

struct m_proc {
	int live;
	int job;                  /* its model job */
	struct proc *p;
	struct uthread ut;
	struct vm_model vm;
	struct m_handle h[HANDLES_MAX];
	uint32_t use[UL_COUNT];   /* handles, endpoints, names */
	uint64_t scratch;         /* its SYS_VM_MAP buffer, 0 if none */
};

struct m_ep {
	int live, dead, owner;    /* owner: a process slot, -1 once it died */
	int job;                  /* the owner's job, charged until it is freed */
	uint32_t id, refs, recv_refs;
	struct endpoint *real;
};

struct m_name {
	int used, ep, owner;
	char name[SVC_NAME_MAX];
};

static struct limit_model lim;
static struct m_proc procs[NPROC];
static struct m_ep eps[NEP];
static int neps;
static struct m_name names[SVC_TOTAL_MAX];
static uint32_t next_id = 1;   /* handle.c's: ids are never reused */
static int next_pid = 1;

/* ---- the model ---- */

/* Drops a reference of endpoint e: freed at 0, its owner uncharged. */
static void m_ep_put(int e)
{
	struct m_ep *x = &eps[e];
	if (--x->refs)
		return;
	lm_uncharge(&lim, UL_ENDPOINTS, x->job, x->owner >= 0 ? &procs[x->owner].use[UL_ENDPOINTS] : NULL,
		    1);
	x->live = 0;
}

/* A handle of process s to endpoint e in the lowest free slot. */
static int m_install(int s, int e, uint32_t rights)
{
	struct m_proc *mp = &procs[s];
	int rc = lm_charge(&lim, UL_HANDLES, mp->job, &mp->use[UL_HANDLES], 1);
	if (rc)
		return rc;
	int h = 0;
	while (mp->h[h].ep >= 0)
		h++;
	if (!eps[e].id)
		eps[e].id = next_id++;
	mp->h[h] = (struct m_handle){ e, rights };
	eps[e].refs++;
	if (rights & HANDLE_RECV)
		eps[e].recv_refs++;
	return h;
}

/* The endpoint behind handle h of process s if it has rights, or -1. */
static int m_get(int s, uint64_t h, uint32_t rights)
{
	if (h >= HANDLES_MAX || procs[s].h[h].ep < 0 || (procs[s].h[h].rights & rights) != rights)
		return -1;
	return procs[s].h[h].ep;
}

/* Closes handle h of process s. */
static int m_close(int s, uint64_t h)
{
	int e = m_get(s, h, 0);
	if (e < 0)
		return ERR_BADH;
	struct m_proc *mp = &procs[s];
	if ((mp->h[h].rights & HANDLE_RECV) && --eps[e].recv_refs == 0)
		eps[e].dead = 1;
	mp->h[h] = (struct m_handle){ -1, 0 };
	lm_uncharge(&lim, UL_HANDLES, mp->job, &mp->use[UL_HANDLES], 1);
	m_ep_put(e);
	return 0;
}

/* [a, a + n) is not in the user half (usercopy.c's check). */
static int m_bad_range(uint64_t a, uint64_t n)
{
	return a < PG || a >= USER_TOP || n > USER_TOP - a;
}

/* Every byte of [a, a + n) is mapped in process s. */
static int m_readable(int s, uint64_t a, uint64_t n)
{
	for (uint64_t p = a & ~(PG - 1); p < a + n; p += PG)
		if (!vm_model_prot(&procs[s].vm, p))
			return 0;
	return 1;
}

/* The rules of a service name (docs/userland.md): 1..31 of [a-z0-9._-],
 * the first a letter or digit. */
static int m_name_rules(const char *s, uint64_t n)
{
	if (n == 0)
		return ERR_INVAL;
	for (uint64_t i = 0; i < n; i++) {
		char c = s[i];
		if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'))
			continue;
		if (i == 0 || (c != '.' && c != '_' && c != '-'))
			return ERR_INVAL;
	}
	return 0;
}

/* The name at user address va of process s, read up to its NUL (at most
 * SVC_NAME_MAX bytes, never past USER_TOP) and checked. */
static int m_name(int s, uint64_t va, char out[SVC_NAME_MAX])
{
	if (va < PG || va >= USER_TOP)
		return ERR_FAULT;
	uint64_t room = USER_TOP - va, n = room < SVC_NAME_MAX ? room : SVC_NAME_MAX;
	for (uint64_t i = 0; i < n; i++) {
		if (!vm_model_prot(&procs[s].vm, va + i))
			return ERR_FAULT;
		out[i] = (char)vm_model_byte(&procs[s].vm, va + i);
		if (!out[i])
			return m_name_rules(out, i);
	}
	return room < SVC_NAME_MAX ? ERR_FAULT : ERR_TOOBIG;
}

/* The published name, or NULL. */
static struct m_name *m_find(const char *name)
{
	for (int i = 0; i < SVC_TOTAL_MAX; i++)
		if (names[i].used && strcmp(names[i].name, name) == 0)
			return &names[i];
	return NULL;
}

static int64_t m_ep_create(int s)
{
	if (lm_heap_fails(&lim))
		return ERR_NOMEM;
	int rc = lm_charge(&lim, UL_ENDPOINTS, procs[s].job, &procs[s].use[UL_ENDPOINTS], 1);
	if (rc)
		return rc;
	if (neps == NEP)
		panic("fuzz_syscall: more than %d endpoints", NEP);
	eps[neps] = (struct m_ep){ .live = 1, .owner = s, .job = procs[s].job, .refs = 1 };
	int h = m_install(s, neps, HANDLE_SEND | HANDLE_RECV);
	m_ep_put(neps);
	if (h >= 0)
		neps++;
	return h;
}

static int64_t m_publish(int s, const struct trap_frame *tf)
{
	char name[SVC_NAME_MAX];
	int rc = m_name(s, tf->rsi, name);
	if (rc)
		return rc;
	int e = m_get(s, tf->rdi, HANDLE_RECV);
	struct m_name *n = m_find(name);
	if (e < 0)
		return ERR_BADH;
	if (eps[e].dead)
		return ERR_DEAD;
	if (n && n->owner != s)
		return ERR_EXIST;
	if (n) {
		m_ep_put(n->ep);
	} else {
		if ((rc = lm_charge(&lim, UL_NAMES, procs[s].job, &procs[s].use[UL_NAMES], 1)))
			return rc;
		for (int i = 0; i < SVC_TOTAL_MAX && !n; i++)
			if (!names[i].used)
				n = &names[i];
		n->used = 1;
		n->owner = s;
		memcpy(n->name, name, sizeof(name));
	}
	n->ep = e;
	eps[e].refs++;
	return 0;
}

static int64_t m_lookup(int s, const struct trap_frame *tf)
{
	char name[SVC_NAME_MAX];
	int rc = m_name(s, tf->rdi, name);
	if (rc)
		return rc;
	struct m_name *n = m_find(name);
	if (!n)
		return ERR_NOENT;
	return eps[n->ep].dead ? ERR_DEAD : m_install(s, n->ep, HANDLE_SEND);
}

/* The message of the registers staged (ipc.c): 0 or its error. */
static int m_stage(int s, const struct trap_frame *tf)
{
	if (tf->r13 == 0)
		return 0;
	if (tf->r13 > IPC_BUF_MAX)
		return ERR_TOOBIG;
	if (m_bad_range(tf->r12, tf->r13))
		return ERR_FAULT;
	if (lm_heap_fails(&lim))
		return ERR_NOMEM;
	return m_readable(s, tf->r12, tf->r13) ? 0 : ERR_FAULT;
}

/* A timeout's and a receive buffer's checks. */
static int m_waits(const struct trap_frame *tf, int rbuf)
{
	if (tf->rbx > TIMEOUT_MAX_NS && tf->rbx != IPC_FOREVER)
		return ERR_INVAL;
	uint64_t cap = tf->r15 < IPC_BUF_MAX ? tf->r15 : IPC_BUF_MAX;
	return rbuf && cap && m_bad_range(tf->r14, cap) ? ERR_FAULT : 0;
}

/* SYS_IPC_SEND / _CALL: nobody ever waits to receive, so a send that gets
 * through its checks times out, or would wait (BLOCKS). */
static int64_t m_send(int s, const struct trap_frame *tf, int call)
{
	int rc = m_waits(tf, call);
	if (!rc)
		rc = m_stage(s, tf);
	if (rc)
		return rc;
	int e = m_get(s, tf->rdi, HANDLE_SEND);
	return e < 0 ? ERR_BADH : eps[e].dead ? ERR_DEAD : tf->rbx ? BLOCKS : ERR_TIMEOUT;
}

/* SYS_IPC_RECV (and _REPLY_RECV, no call being held): nobody ever waits
 * to send. */
static int64_t m_recv(int s, const struct trap_frame *tf)
{
	int rc = m_waits(tf, 1);
	if (rc)
		return rc;
	int e = m_get(s, tf->rdi, HANDLE_RECV);
	return e < 0 ? ERR_BADH : eps[e].dead ? ERR_DEAD : tf->rbx ? BLOCKS : ERR_TIMEOUT;
}

/* SYS_IPC_REPLY: no call is ever held. */
static int64_t m_reply(int s, const struct trap_frame *tf)
{
	int rc = m_stage(s, tf);
	return rc ? rc : ERR_NOREPLY;
}

/* ---- checks ---- */

/* The model endpoint whose record is real, or -1. */
static int m_ep_of(const struct endpoint *real)
{
	for (int e = 0; e < neps; e++)
		if (eps[e].live && eps[e].real == real)
			return e;
	return -1;
}

/* The kernel's records against the model; the address space of process
 * vm too (-1: none, NPROC: every one). */
static void check_state(struct fuzz *f, int vm)
{
	char why[256];
	uint64_t heap = 0, pages = 0;
	for (int s = 0; s < NPROC; s++) {
		const struct m_proc *mp = &procs[s];
		if (!mp->live)
			continue;
		const struct proc *p = mp->p;
		heap += 1 + mp->vm.nregions;
		pages += mp->vm.pages;
		for (int h = 0; h < HANDLES_MAX; h++) {
			const struct handle *rh = &p->handles[h];
			int e = mp->h[h].ep;
			if (e < 0 ? rh->ep || rh->rights
				  : rh->ep != eps[e].real || rh->rights != mp->h[h].rights)
				fuzz_fail(f, "pid %d handle %d differs from the model", p->pid, h);
		}
		for (int k = UL_HANDLES; k <= UL_NAMES; k++)
			if (k != UL_PAGES && k != UL_MAPPINGS && p->use[k] != mp->use[k])
				fuzz_fail(f, "pid %d holds %u of kind %d, the model %u", p->pid, p->use[k], k,
					  mp->use[k]);
		uint32_t owned = 0;
		for (const struct endpoint *ep = p->owned; ep; ep = ep->owner_next, owned++) {
			int e = m_ep_of(ep);
			if (e < 0 || eps[e].owner != s)
				fuzz_fail(f, "pid %d owns an endpoint the model does not", p->pid);
		}
		if (owned != mp->use[UL_ENDPOINTS])
			fuzz_fail(f, "pid %d owns %u endpoints, the model %u", p->pid, owned,
				  mp->use[UL_ENDPOINTS]);
		if ((vm == s || vm == NPROC) && vm_model_check(&mp->vm, &p->vm, 0, why, sizeof(why)))
			fuzz_fail(f, "pid %d: %s", p->pid, why);
	}
	for (int e = 0; e < neps; e++) {
		const struct m_ep *x = &eps[e];
		if (!x->live)
			continue;
		heap++;
		const struct endpoint *r = x->real;
		if (r->id != x->id || r->refs != x->refs || r->recv_refs != x->recv_refs ||
		    r->dead != x->dead || r->owner != (x->owner >= 0 ? procs[x->owner].p : NULL) ||
		    r->job != lm_job(&lim, x->job))
			fuzz_fail(f, "endpoint %u: refs %u, receive rights %u, dead %d; the model %u: %u, "
				  "%u, %d", r->id, r->refs, r->recv_refs, r->dead, x->id, x->refs,
				  x->recv_refs, x->dead);
	}
	if (lm_check(&lim, why, sizeof(why)))
		fuzz_fail(f, "limits: %s", why);
	heap += (uint64_t)lim.njobs - 1;
	if (host_heap_live() != heap || host_pages_in_use() != pages)
		fuzz_fail(f, "%lu heap blocks, %lu pages in use; the model %lu, %lu", host_heap_live(),
			  host_pages_in_use(), heap, pages);
}

/* ---- processes ---- */

/* A random timeout: mostly 0 (never wait). */
static uint64_t random_timeout(struct fuzz *f)
{
	static const uint64_t t[] = { IPC_FOREVER, TIMEOUT_MAX_NS, TIMEOUT_MAX_NS + 1, 1000 };
	if (fuzz_below(f, 3))
		return 0;
	return fuzz_below(f, 5) ? t[fuzz_below(f, 4)] : fuzz_u64(f);
}

/* A user address for process s: mostly in its scratch buffer. */
static uint64_t random_pointer(struct fuzz *f, int s)
{
	static const uint64_t bad[] = { 0, PG, USER_IMAGE_LOW, USER_MAP_BASE, USER_TOP - 1, USER_TOP,
					0xffff800000000000ull, 0x800000000000ull };
	if (procs[s].scratch && fuzz_below(f, 4))
		return procs[s].scratch + fuzz_below(f, SCRATCH + 8);
	if (fuzz_below(f, 2) && procs[s].vm.nregions)
		return procs[s].vm.regions[fuzz_below(f, procs[s].vm.nregions)].start + fuzz_below(f, PG);
	return fuzz_below(f, 8) ? bad[fuzz_below(f, 8)] - fuzz_below(f, 2) : fuzz_u64(f);
}

/* A handle number for process s: mostly one of its handles, with the
 * rights wanted if it has one. */
static uint64_t random_handle(struct fuzz *f, int s, uint32_t rights)
{
	int used[HANDLES_MAX], n = 0;
	for (int pass = 0; pass < 2 && !n; pass++)
		for (int h = 0; h < HANDLES_MAX; h++)
			if (procs[s].h[h].ep >= 0 && (pass || fuzz_below(f, 4) == 0 ||
						      (procs[s].h[h].rights & rights) == rights))
				used[n++] = h;
	if (n && fuzz_below(f, 8))
		return (uint64_t)used[fuzz_below(f, (uint64_t)n)];
	static const uint64_t odd[] = { (uint64_t)-1, HANDLES_MAX, 1ull << 40, 1ull << 63 };
	return fuzz_below(f, 2) ? fuzz_below(f, HANDLES_MAX) : odd[fuzz_below(f, 4)];
}

/* Writes a service name (good, too long, bad, without its NUL) into
 * process s's scratch buffer; its address, or a random pointer. */
static uint64_t random_name(struct fuzz *f, int s)
{
	static const char *const names_[] = { "kv", "log", "a", "srv.1", "x-y_z", "0abc", "", "KV",
					      ".kv", "-a", "a b", "a/b", "kv2", "n.e.t" };
	char buf[48];
	uint64_t n;
	if (!procs[s].scratch || fuzz_below(f, 8) == 0)
		return random_pointer(f, s);
	if (fuzz_below(f, 6)) {   /* mostly one of the first three, so that names meet */
		uint64_t k = fuzz_below(f, fuzz_below(f, 3) ? 3 : sizeof(names_) / sizeof(names_[0]));
		const char *w = names_[k];
		n = strlen(w);
		memcpy(buf, w, n);
	} else {
		n = SVC_NAME_MAX - 2 + fuzz_below(f, 4 + 12 * fuzz_below(f, 2));
		for (uint64_t i = 0; i < n; i++)
			buf[i] = (char)('a' + fuzz_below(f, 26));
	}
	buf[n] = 0;
	uint64_t bytes = n + (fuzz_below(f, 8) != 0);   /* the NUL, mostly */
	uint64_t at = procs[s].scratch + (fuzz_below(f, 4) ? fuzz_below(f, PG) : SCRATCH - bytes);
	struct proc *p = procs[s].p;
	if (uvm_write(&p->vm, at, buf, bytes) != vm_model_write(&procs[s].vm, at, buf, bytes))
		fuzz_fail(f, "uvm_write of a name differs from the model");
	return at;
}

/* The call (current process s, frame tf) and the model's result. */
static void call(struct fuzz *f, int s, int64_t (*fn)(struct trap_frame *), struct trap_frame *tf,
		 int64_t want, const char *what)
{
	struct trap_frame before = *tf;
	host_set_current(&procs[s].ut);
	int64_t rc = fn(tf);
	host_set_current(NULL);
	if (rc != want)
		fuzz_fail(f, "%s: %ld, the model %ld", what, rc, want);
	if (memcmp(tf, &before, sizeof(before)))
		fuzz_fail(f, "%s changed the trap frame", what);
}

/* Process slot s is born: a record, an address space, a scratch buffer
 * mapped by the process itself. */
static void proc_born(struct fuzz *f, int s)
{
	struct m_proc *mp = &procs[s];
	struct proc *p = kzalloc(sizeof(*p));
	p->pid = next_pid++;
	snprintf(p->name, sizeof(p->name), "p%d", p->pid);
	mp->job = 1 + (int)fuzz_below(f, (uint64_t)lim.njobs - 1);
	p->job = lm_job(&lim, mp->job);
	int want = vm_model_init(&mp->vm, &lim, mp->job);
	if (host_uvm_init(&p->vm, p->job) != want)
		fuzz_fail(f, "uvm_init differs from the model");
	if (want) {
		kfree(p);
		return;
	}
	uint64_t flags = spin_lock_irqsave(&user_lock);
	ujob_get(p->job);
	spin_unlock_irqrestore(&user_lock, flags);
	memset(&mp->ut, 0, sizeof(mp->ut));
	mp->ut.proc = p;
	mp->ut.tid = (uint32_t)p->pid * 16;
	mp->p = p;
	mp->live = 1;
	for (int h = 0; h < HANDLES_MAX; h++)
		mp->h[h] = (struct m_handle){ -1, 0 };
	memset(mp->use, 0, sizeof(mp->use));
	struct trap_frame tf = { .rdi = SCRATCH };
	int64_t va = vm_model_map_anon(&mp->vm, SCRATCH);
	call(f, s, sys_vm_map, &tf, va, "SYS_VM_MAP of the scratch buffer");
	mp->scratch = va > 0 ? (uint64_t)va : 0;
}

/* Process slot s dies as the reaper ends it; then nothing may be charged
 * to it or owned by it. */
static void proc_die(struct fuzz *f, int s)
{
	struct m_proc *mp = &procs[s];
	struct proc *p = mp->p;
	uint64_t flags = spin_lock_irqsave(&user_lock);
	handle_close_all(p);
	endpoint_disown_all(p);
	svc_release(p);
	spin_unlock_irqrestore(&user_lock, flags);
	host_uvm_free(&p->vm);
	flags = spin_lock_irqsave(&user_lock);
	ujob_put(p->job);   /* as proc_free_locked(): the job stays while its endpoints live */
	spin_unlock_irqrestore(&user_lock, flags);
	if (p->use[UL_HANDLES] || p->use[UL_ENDPOINTS] || p->use[UL_NAMES] || p->owned || p->vm.pages)
		fuzz_fail(f, "pid %d still holds %u handles, %u endpoints, %u names, %u pages", p->pid,
			  p->use[UL_HANDLES], p->use[UL_ENDPOINTS], p->use[UL_NAMES], p->vm.pages);
	for (int h = 0; h < HANDLES_MAX; h++)
		if (p->handles[h].ep)
			fuzz_fail(f, "pid %d: handle %d left open", p->pid, h);
	kfree(p);
	for (int h = 0; h < HANDLES_MAX; h++)
		if (mp->h[h].ep >= 0)
			m_close(s, (uint64_t)h);
	for (int e = 0; e < neps; e++) {
		if (eps[e].live && eps[e].owner == s) {
			eps[e].owner = -1;
			mp->use[UL_ENDPOINTS]--;
		}
	}
	for (int i = 0; i < SVC_TOTAL_MAX; i++) {
		if (names[i].used && names[i].owner == s) {
			names[i].used = 0;
			lm_uncharge(&lim, UL_NAMES, mp->job, &mp->use[UL_NAMES], 1);
			m_ep_put(names[i].ep);
		}
	}
	vm_model_free(&mp->vm);
	mp->live = 0;
}

/* Random limits of the kinds this layer charges: per process and in all,
 * sometimes a reserve and whether it may be taken, and the jobs' quotas
 * (mostly none). */
static void random_limits(struct fuzz *f)
{
	static const enum ulimit_kind kinds[] = { UL_HANDLES, UL_ENDPOINTS, UL_NAMES, UL_PAGES,
						  UL_MAPPINGS };
	int64_t h = fuzz_below(f, 4) ? 1 + (int64_t)fuzz_below(f, 8) : HANDLES_MAX;
	lm_set(&lim, UL_HANDLES, h, fuzz_below(f, 4) ? h * NPROC : (int64_t)fuzz_below(f, 24));
	int64_t e = fuzz_below(f, 4) ? 1 + (int64_t)fuzz_below(f, 6) : 16;
	lm_set(&lim, UL_ENDPOINTS, e, fuzz_below(f, 4) ? e * NPROC : (int64_t)fuzz_below(f, 12));
	int64_t n = (int64_t)fuzz_below(f, 5);
	lm_set(&lim, UL_NAMES, n, fuzz_below(f, 4) ? SVC_TOTAL_MAX : (int64_t)fuzz_below(f, 8));
	int64_t pg = 8 + (int64_t)fuzz_below(f, 64);
	lm_set(&lim, UL_PAGES, pg, fuzz_below(f, 4) ? pg * NPROC : (int64_t)fuzz_below(f, 160));
	int64_t m = 1 + (int64_t)fuzz_below(f, 8);
	lm_set(&lim, UL_MAPPINGS, m, fuzz_below(f, 4) ? m * NPROC : (int64_t)fuzz_below(f, 16));
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		if (!fuzz_below(f, 4))
			lm_set_reserve(&lim, kinds[i], (int64_t)fuzz_below(f, 8));
		for (int j = 1; j < lim.njobs; j++)
			lm_set_quota(&lim, j, kinds[i], fuzz_below(f, 3) ? -1 : (int64_t)fuzz_below(f, 40));
	}
	lm_reserve(&lim, (int)fuzz_below(f, 2));
}

/* Two jobs below the root, the second below the first or beside it, made
 * as the kernel makes them; the harness holds a reference to each until
 * the iteration ends. */
static void make_jobs(struct fuzz *f)
{
	static const char name[PROC_NAME_MAX] = "job";
	lm_jobs_reset(&lim);
	for (int i = 0; i < 2; i++) {
		int parent = i && fuzz_below(f, 2) ? 1 : 0;
		struct ujob *j = ujob_alloc();
		if (!j)
			panic("fuzz_syscall: no memory for a job");
		ujob_init(j, lm_job(&lim, parent), name, 1);
		uint64_t flags = spin_lock_irqsave(&user_lock);
		ujob_link_locked(j, 0);
		spin_unlock_irqrestore(&user_lock, flags);
		lm_job_add(&lim, parent, j);
	}
}

/* Lets the jobs go: nothing may hold them any more, so they are freed. */
static void drop_jobs(struct fuzz *f)
{
	uint64_t before = host_heap_live();
	uint64_t flags = spin_lock_irqsave(&user_lock);
	for (int j = lim.njobs - 1; j >= 1; j--)
		ujob_put(lm_job(&lim, j));
	spin_unlock_irqrestore(&user_lock, flags);
	if (host_heap_live() != before - (uint64_t)(lim.njobs - 1))
		fuzz_fail(f, "jobs were not freed when let go: %lu heap blocks, %lu before",
			  host_heap_live(), before);
	lm_jobs_reset(&lim);
}

/* Fills the message registers of tf at random. */
static void random_message(struct fuzz *f, int s, struct trap_frame *tf)
{
	tf->rsi = fuzz_u64(f);
	tf->rdx = fuzz_u64(f);
	tf->r10 = fuzz_u64(f);
	tf->r8 = fuzz_u64(f);
	tf->r9 = fuzz_u64(f);
	tf->r12 = random_pointer(f, s);
	tf->r13 = fuzz_below(f, 2)   ? 0
		  : fuzz_below(f, 8) ? fuzz_below(f, 64)
				     : fuzz_u64(f) >> fuzz_below(f, 64);
	tf->r14 = random_pointer(f, s);
	tf->r15 = fuzz_below(f, 2) ? 0 : fuzz_u64(f) >> fuzz_below(f, 64);
	tf->rbx = random_timeout(f);
}

/* One system call of process s. */
static void step(struct fuzz *f, int s)
{
	struct trap_frame tf;
	for (uint64_t *w = (uint64_t *)&tf; w < (uint64_t *)(&tf + 1); w++)
		*w = fuzz_u64(f);
	lm_arm(&lim, fuzz_below(f, 16) ? 0 : 1, fuzz_below(f, 12) ? 0 : 1);
	struct m_proc *mp = &procs[s];
	uint64_t op = fuzz_below(f, 15);
	if (!mp->use[UL_HANDLES] && fuzz_below(f, 2))
		op = 0;   /* a process without handles mostly makes an endpoint first */
	switch (op) {
	case 0: case 1: {
		int64_t want = m_ep_create(s);
		call(f, s, sys_ep_create, &tf, want, "SYS_EP_CREATE");
		if (want >= 0)
			eps[mp->h[want].ep].real = mp->p->handles[want].ep;
		break;
	}
	case 2:
		tf.rdi = random_handle(f, s, 0);
		call(f, s, sys_handle_close, &tf, m_close(s, tf.rdi), "SYS_HANDLE_CLOSE");
		break;
	case 3: case 11:
		tf.rdi = random_handle(f, s, HANDLE_RECV);
		tf.rsi = random_name(f, s);
		call(f, s, sys_svc_publish, &tf, m_publish(s, &tf), "SYS_SVC_PUBLISH");
		break;
	case 4: case 12: case 13:
		tf.rdi = random_name(f, s);
		call(f, s, sys_svc_lookup, &tf, m_lookup(s, &tf), "SYS_SVC_LOOKUP");
		break;
	case 5:
		tf.rdi = fuzz_below(f, 8) ? (1 + fuzz_below(f, 4)) * PG - fuzz_below(f, 2)
					  : fuzz_u64(f) >> fuzz_below(f, 64);
		call(f, s, sys_vm_map, &tf, vm_model_map_anon(&mp->vm, tf.rdi), "SYS_VM_MAP");
		break;
	case 6:
		tf.rdi = random_pointer(f, s) & ~(fuzz_below(f, 8) ? PG - 1 : 0);
		tf.rsi = fuzz_below(f, 8) ? (1 + fuzz_below(f, 3)) * PG : fuzz_u64(f) >> fuzz_below(f, 64);
		call(f, s, sys_vm_unmap, &tf, vm_model_unmap_anon(&mp->vm, tf.rdi, tf.rsi), "SYS_VM_UNMAP");
		break;
	case 7: case 8: {
		int is_call = (int)fuzz_below(f, 2);
		tf.rdi = random_handle(f, s, HANDLE_SEND);
		random_message(f, s, &tf);
		int64_t want = m_send(s, &tf, is_call);
		if (want == BLOCKS) {   /* it would wait: never here */
			tf.rbx = 0;
			want = ERR_TIMEOUT;
		}
		call(f, s, is_call ? sys_ipc_call : sys_ipc_send, &tf, want,
		     is_call ? "SYS_IPC_CALL" : "SYS_IPC_SEND");
		break;
	}
	case 9: {
		int rr = (int)fuzz_below(f, 2);
		tf.rdi = random_handle(f, s, HANDLE_RECV);
		random_message(f, s, &tf);
		int64_t want = m_recv(s, &tf);
		if (want == BLOCKS) {
			tf.rbx = 0;
			want = ERR_TIMEOUT;
		}
		call(f, s, rr ? sys_ipc_reply_recv : sys_ipc_recv, &tf, want,
		     rr ? "SYS_IPC_REPLY_RECV" : "SYS_IPC_RECV");
		break;
	}
	case 10:
		random_message(f, s, &tf);
		call(f, s, sys_ipc_reply, &tf, m_reply(s, &tf), "SYS_IPC_REPLY");
		break;
	default:
		random_limits(f);
		break;
	}
	lm_arm(&lim, 0, 0);
	check_state(f, s);
}

static void fuzz_one(struct fuzz *f)
{
	static int synced;
	fuzz_current = f;
	if (!synced) {
		lm_sync(&lim);
		synced = 1;
	}
	make_jobs(f);
	random_limits(f);
	neps = 0;
	int born = 1 + (int)fuzz_below(f, NPROC);
	for (int s = 0; s < born; s++)
		proc_born(f, s);
	check_state(f, NPROC);
	int steps = 1 + (int)fuzz_below(f, 64);
	for (int i = 0; i < steps; i++) {
		int s = (int)fuzz_below(f, NPROC);
		if (!procs[s].live) {
			if (fuzz_below(f, 2))
				proc_born(f, s);
		} else if (fuzz_below(f, 24) == 0) {
			proc_die(f, s);
		} else {
			step(f, s);
			continue;
		}
		check_state(f, s);
	}
	for (int s = 0; s < NPROC; s++)
		if (procs[s].live)
			proc_die(f, s);
	check_state(f, NPROC);
	for (int k = 0; k < UL_COUNT; k++)
		if (lim.jobs[0].use[k])
			fuzz_fail(f, "%lu of kind %d still charged after every process died",
				  lim.jobs[0].use[k], k);
	drop_jobs(f);
	if (host_heap_live() || host_pages_in_use())
		fuzz_fail(f, "%lu heap blocks and %lu pages left after every process died",
			  host_heap_live(), host_pages_in_use());
}

FUZZ_MAIN("syscall")
