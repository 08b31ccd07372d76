/* SPDX-License-Identifier: BSD-2-Clause */
/* limit_model.c — the model of the limits, jobs and injected failures (see
 * limit_model.h). */
#include <tests/unit/limit_model.h>
#include <stdio.h>
#include <string.h>
#include <mosaic/syscall.h>
#include <kern/panic.h>
#include <tests/unit/host_sysctl.h>
#include <tests/unit/uvm_host.h>

/* Sets kern.user.NAME_SUFFIX of kind k; panics if it is refused. */
static void lm_sysctl(enum ulimit_kind k, const char *suffix, int64_t value)
{
	char name[64];
	snprintf(name, sizeof(name), "kern.user.%s_%s", ulimit_name(k), suffix);
	if (host_sysctl_set(name, value))
		panic("limit_model: %s=%ld refused", name, value);
}

/* See limit_model.h. */
void lm_sync(struct limit_model *m)
{
	memset(m, 0, sizeof(*m));
	m->njobs = 1;
	m->jobs[0].parent = -1;
	m->jobs[0].real = &ujob_root;
	for (int k = 0; k < UL_COUNT; k++) {
		struct ulimit_info i;
		ulimit_get((enum ulimit_kind)k, &i);
		m->per_proc[k] = i.per_proc;
		m->job[k] = i.job;
		m->total[k] = i.total;
		m->reserve[k] = i.reserve;
		m->jobs[0].use[k] = i.in_use;
		m->jobs[0].refused[k] = ujob_root.refused[k];
		m->refused_proc[k] = i.refused_proc;
		m->refused_job[k] = i.refused_job;
		m->refused_total[k] = i.refused_total;
		m->jobs[0].quota[k] = -1;
	}
	m->reports = host_refusal_reports();
	lm_reserve(m, 0);
	host_fail_page(0);
	host_fail_heap(0);
}

/* See limit_model.h. */
void lm_set(struct limit_model *m, enum ulimit_kind k, int64_t per_proc, int64_t total)
{
	lm_sysctl(k, "per_proc", per_proc);
	lm_sysctl(k, "total", total);
	lm_set_reserve(m, k, 0);
	m->per_proc[k] = per_proc;
	m->total[k] = total;
}

/* See limit_model.h. */
void lm_set_reserve(struct limit_model *m, enum ulimit_kind k, int64_t reserve)
{
	lm_sysctl(k, "reserve", reserve);
	m->reserve[k] = reserve;
}

/* See limit_model.h. */
void lm_reserve(struct limit_model *m, int allowed)
{
	m->reserve_ok = allowed;
	host_reserve(allowed);
}

/* See limit_model.h. */
int lm_job_add(struct limit_model *m, int parent, struct ujob *real)
{
	if (m->njobs == LM_JOBS || parent < 0 || parent >= m->njobs)
		panic("limit_model: no room for a job below %d", parent);
	int j = m->njobs++;
	struct lm_job *x = &m->jobs[j];
	memset(x, 0, sizeof(*x));
	x->parent = parent;
	x->real = real;
	real->parent = m->jobs[parent].real;
	for (int k = 0; k < UL_COUNT; k++)
		lm_set_quota(m, j, (enum ulimit_kind)k, -1);
	return j;
}

/* See limit_model.h. */
void lm_set_quota(struct limit_model *m, int j, enum ulimit_kind k, int64_t quota)
{
	m->jobs[j].quota[k] = quota;
	m->jobs[j].real->quota[k] = quota;
}

/* See limit_model.h. */
struct ujob *lm_job(const struct limit_model *m, int j)
{
	return m->jobs[j].real;
}

/* See limit_model.h. */
void lm_jobs_reset(struct limit_model *m)
{
	for (int j = 1; j < m->njobs; j++)
		for (int k = 0; k < UL_COUNT; k++)
			if (m->jobs[j].use[k])
				panic("limit_model: job %d forgotten holding %lu of kind %d", j,
				      m->jobs[j].use[k], k);
	m->njobs = 1;
}

/* See limit_model.h. */
void lm_arm(struct limit_model *m, uint32_t page_n, uint32_t heap_n)
{
	m->fail_page = page_n;
	m->fail_heap = heap_n;
	host_fail_page(page_n);
	host_fail_heap(heap_n);
}

/* See limit_model.h. The rules of docs/userland.md, "Limits" and "Jobs":
 * the process's own limit first, then each job from j up, each within its
 * quota (the root's: the total, less the reserve unless it may be taken). */
int lm_charge(struct limit_model *m, enum ulimit_kind k, int j, uint32_t *use, uint32_t n)
{
	if (use && (int64_t)*use + n > m->per_proc[k]) {
		m->refused_proc[k]++;
		return ERR_LIMIT;
	}
	for (int a = j; a >= 0; a = m->jobs[a].parent) {
		struct lm_job *x = &m->jobs[a];
		int64_t quota = a ? x->quota[k] : m->total[k] - (m->reserve_ok ? 0 : m->reserve[k]);
		if (quota >= 0 && (int64_t)(x->use[k] + n) > quota) {
			x->refused[k]++;
			(a ? m->refused_job : m->refused_total)[k]++;
			m->reports++;
			return a ? ERR_QUOTA : ERR_NOSPC;
		}
	}
	for (int a = j; a >= 0; a = m->jobs[a].parent)
		m->jobs[a].use[k] += n;
	if (use)
		*use += n;
	return 0;
}

/* See limit_model.h. */
void lm_uncharge(struct limit_model *m, enum ulimit_kind k, int j, uint32_t *use, uint32_t n)
{
	for (int a = j; a >= 0; a = m->jobs[a].parent)
		m->jobs[a].use[k] -= n;
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
int lm_page(struct limit_model *m, int j, uint32_t *use)
{
	int rc = lm_charge(m, UL_PAGES, j, use, 1);
	if (rc)
		return rc;
	if (lm_countdown(&m->fail_page)) {
		lm_uncharge(m, UL_PAGES, j, use, 1);
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
		if (i.per_proc != m->per_proc[k] || i.job != m->job[k] || i.total != m->total[k] ||
		    i.reserve != m->reserve[k] || i.in_use != m->jobs[0].use[k] ||
		    i.refused_proc != m->refused_proc[k] || i.refused_job != m->refused_job[k] ||
		    i.refused_total != m->refused_total[k]) {
			snprintf(why, why_len,
				 "%s: limits %ld/%ld/%ld, in use %lu, refused %lu/%lu/%lu; the model "
				 "%ld/%ld/%ld, %lu, %lu/%lu/%lu", i.name, i.per_proc, i.total, i.reserve,
				 i.in_use, i.refused_proc, i.refused_job, i.refused_total,
				 m->per_proc[k], m->total[k], m->reserve[k], m->jobs[0].use[k],
				 m->refused_proc[k], m->refused_job[k], m->refused_total[k]);
			return -1;
		}
		for (int j = 0; j < m->njobs; j++) {
			const struct lm_job *x = &m->jobs[j];
			const struct ujob *r = x->real;
			if (r->use[k] != x->use[k] || r->refused[k] != x->refused[k] ||
			    (j && r->quota[k] != x->quota[k])) {
				snprintf(why, why_len, "job %d, %s: quota %ld, held %lu, refused %lu; the "
					 "model %ld, %lu, %lu", j, i.name, r->quota[k], r->use[k],
					 r->refused[k], x->quota[k], x->use[k], x->refused[k]);
				return -1;
			}
		}
	}
	if (host_refusal_reports() != m->reports) {
		snprintf(why, why_len, "%lu refusals reported, the model %lu", host_refusal_reports(),
			 m->reports);
		return -1;
	}
	return 0;
}
