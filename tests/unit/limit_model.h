/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * limit_model.h — the reference model of the limits of kernel/user/ulimit.c
 * and of the allocation failures the host machine injects (uvm_host.h),
 * for the host tests and harnesses: each kind's four limits (per process,
 * a new job's quota, the total, the operator's reserve), a small tree of
 * jobs with their quotas, counts and refusals (job 0 is the root: the
 * totals), the refusals of each kind, whether the caller may take the
 * reserve, and the countdowns to the next failing page and heap
 * allocation. A model operation changes only the model; lm_set*(),
 * lm_job_add(), lm_reserve() and lm_arm() also set the kernel's and the
 * host's side.
 */
#ifndef MOSAIC_TEST_LIMIT_MODEL_H
#define MOSAIC_TEST_LIMIT_MODEL_H
#include <stddef.h>
#include <stdint.h>
#include <user/ulimit.h>

#define LM_JOBS 6

struct lm_job {
	int parent;                      /* a model job, -1 for the root */
	int64_t quota[UL_COUNT];         /* < 0: none */
	uint64_t use[UL_COUNT];
	uint64_t refused[UL_COUNT];
	struct ujob *real;               /* the kernel's record */
};

struct limit_model {
	int64_t per_proc[UL_COUNT], job[UL_COUNT], total[UL_COUNT], reserve[UL_COUNT];
	uint64_t refused_proc[UL_COUNT], refused_job[UL_COUNT], refused_total[UL_COUNT];
	struct lm_job jobs[LM_JOBS];     /* [0]: the root, its use the system-wide count */
	int njobs;
	int reserve_ok;                  /* charges may take the reserve */
	uint64_t reports;                /* refusals reported (ulimit_report_refusal()) */
	uint32_t fail_page, fail_heap;   /* as host_fail_page() / host_fail_heap() */
};

/* The model of the kernel's numbers now (ulimit_get(), the root job's
 * counts), no job but the root, the reserve not allowed, nothing armed. */
void lm_sync(struct limit_model *m);
/* Sets kind k's limit per process and total through the sysctls
 * kern.user.NAME_per_proc and _total, with no reserve (_reserve 0), and
 * in the model; panics if a sysctl refuses. */
void lm_set(struct limit_model *m, enum ulimit_kind k, int64_t per_proc, int64_t total);
/* Sets kind k's reserve (kern.user.NAME_reserve), in the kernel and the
 * model. */
void lm_set_reserve(struct limit_model *m, enum ulimit_kind k, int64_t reserve);
/* Whether the caller's charges may take the reserve from now on, in the
 * model and on the host (host_reserve()). */
void lm_reserve(struct limit_model *m, int allowed);
/* A job below model job parent, whose kernel record is real (zeroed, or
 * from ujob_init(), the caller keeps it), with no quota of its own: its
 * index. Sets real's parent and quotas. */
int lm_job_add(struct limit_model *m, int parent, struct ujob *real);
/* Sets the quota of kind k of model job j (< 0: none), in the model and
 * in its kernel record. */
void lm_set_quota(struct limit_model *m, int j, enum ulimit_kind k, int64_t quota);
/* The kernel's record of model job j (0: &ujob_root). */
struct ujob *lm_job(const struct limit_model *m, int j);
/* Forgets every job but the root, which must hold nothing of them. */
void lm_jobs_reset(struct limit_model *m);
/* Arms the n-th page / heap allocation from now to fail (0: none), in the
 * model and on the host. */
void lm_arm(struct limit_model *m, uint32_t page_n, uint32_t heap_n);
/* ulimit_charge() in model job j as the model predicts it: 0 with every
 * count raised, or ERR_LIMIT / ERR_QUOTA / ERR_NOSPC with the refusal
 * counted. */
int lm_charge(struct limit_model *m, enum ulimit_kind k, int j, uint32_t *use, uint32_t n);
/* ulimit_uncharge(). */
void lm_uncharge(struct limit_model *m, enum ulimit_kind k, int j, uint32_t *use, uint32_t n);
/* 1 if the heap allocation made now fails (counts it down). */
int lm_heap_fails(struct limit_model *m);
/* A page charged (UL_PAGES on *use, in job j) and allocated: 0, ERR_LIMIT,
 * ERR_QUOTA, ERR_NOSPC or ERR_NOMEM (nothing charged then), as uvm.c
 * takes each page. */
int lm_page(struct limit_model *m, int j, uint32_t *use);
/* Compares the kernel's numbers (ulimit_get(), every job's record, the
 * refusals reported) with the model: 0, or -1 with the first difference
 * in why. */
int lm_check(const struct limit_model *m, char *why, size_t why_len);

#endif
