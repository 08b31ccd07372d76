/* limit_model.c — the model of the limits and injected failures (see
 * limit_model.h). */
#include "limit_model.h"
#include <stdio.h>
#include <mosaic/syscall.h>
#include <panic.h>
#include "host_sysctl.h"
#include "uvm_host.h"

/* See limit_model.h. */
void lm_sync(struct limit_model *m)
{
	for (int k = 0; k < UL_COUNT; k++) {
		struct ulimit_info i;
		ulimit_get((enum ulimit_kind)k, &i);
		m->per_proc[k] = i.per_proc;
		m->total[k] = i.total;
		m->in_use[k] = i.in_use;
		m->refused_proc[k] = i.refused_proc;
		m->refused_total[k] = i.refused_total;
	}
	m->fail_page = m->fail_heap = 0;
	host_fail_page(0);
	host_fail_heap(0);
}

/* See limit_model.h. */
void lm_set(struct limit_model *m, enum ulimit_kind k, int64_t per_proc, int64_t total)
{
	struct ulimit_info i;
	char name[64];
	ulimit_get(k, &i);
	snprintf(name, sizeof(name), "kern.user.%s_per_proc", i.name);
	if (host_sysctl_set(name, per_proc))
		panic("limit_model: %s=%ld refused", name, per_proc);
	snprintf(name, sizeof(name), "kern.user.%s_total", i.name);
	if (host_sysctl_set(name, total))
		panic("limit_model: %s=%ld refused", name, total);
	m->per_proc[k] = per_proc;
	m->total[k] = total;
}

/* See limit_model.h. */
void lm_arm(struct limit_model *m, uint32_t page_n, uint32_t heap_n)
{
	m->fail_page = page_n;
	m->fail_heap = heap_n;
	host_fail_page(page_n);
	host_fail_heap(heap_n);
}

/* See limit_model.h. The rules of docs/userland.md, "Limits": the
 * process's own limit first, then the total. */
int lm_charge(struct limit_model *m, enum ulimit_kind k, uint32_t *use, uint32_t n)
{
	if (use && (int64_t)*use + n > m->per_proc[k]) {
		m->refused_proc[k]++;
		return ERR_LIMIT;
	}
	if ((int64_t)(m->in_use[k] + n) > m->total[k]) {
		m->refused_total[k]++;
		return ERR_NOSPC;
	}
	m->in_use[k] += n;
	if (use)
		*use += n;
	return 0;
}

/* See limit_model.h. */
void lm_uncharge(struct limit_model *m, enum ulimit_kind k, uint32_t *use, uint32_t n)
{
	m->in_use[k] -= n;
	if (use)
		*use -= n;
}

/* A countdown: 1 when this is the armed call (and disarms). */
static int lm_countdown(uint32_t *n)
{
	return *n && --*n == 0;
}

/* See limit_model.h. */
int lm_heap_fails(struct limit_model *m)
{
	return lm_countdown(&m->fail_heap);
}

/* See limit_model.h. */
int lm_page(struct limit_model *m, uint32_t *use)
{
	int rc = lm_charge(m, UL_PAGES, use, 1);
	if (rc)
		return rc;
	if (lm_countdown(&m->fail_page)) {
		lm_uncharge(m, UL_PAGES, use, 1);
		return ERR_NOMEM;
	}
	return 0;
}

/* See limit_model.h. */
int lm_check(const struct limit_model *m, char *why, size_t why_len)
{
	for (int k = 0; k < UL_COUNT; k++) {
		struct ulimit_info i;
		ulimit_get((enum ulimit_kind)k, &i);
		if (i.per_proc != m->per_proc[k] || i.total != m->total[k] || i.in_use != m->in_use[k] ||
		    i.refused_proc != m->refused_proc[k] || i.refused_total != m->refused_total[k]) {
			snprintf(why, why_len,
				 "%s: limits %ld/%ld, in use %lu, refused %lu/%lu; the model %ld/%ld, "
				 "%lu, %lu/%lu", i.name, i.per_proc, i.total, i.in_use, i.refused_proc,
				 i.refused_total, m->per_proc[k], m->total[k], m->in_use[k],
				 m->refused_proc[k], m->refused_total[k]);
			return -1;
		}
	}
	return 0;
}
