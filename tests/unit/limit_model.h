/*
 * limit_model.h — the reference model of the limits of kernel/user/ulimit.c
 * and of the allocation failures the host machine injects (uvm_host.h),
 * for the host tests and harnesses: each limit, the system-wide count in
 * use and the refusals of each kind, and the countdowns to the next
 * failing page and heap allocation. A model operation changes only the
 * model; lm_set() and lm_arm() also set the kernel's and the host's side.
 */
#ifndef MOSAIC_TEST_LIMIT_MODEL_H
#define MOSAIC_TEST_LIMIT_MODEL_H
#include <stddef.h>
#include <stdint.h>
#include "ulimit.h"

struct limit_model {
	int64_t per_proc[UL_COUNT], total[UL_COUNT];
	uint64_t in_use[UL_COUNT];
	uint64_t refused_proc[UL_COUNT], refused_total[UL_COUNT];
	uint32_t fail_page, fail_heap;   /* as host_fail_page() / host_fail_heap() */
};

/* The model of the kernel's numbers now (ulimit_get()), nothing armed. */
void lm_sync(struct limit_model *m);
/* Sets kind k's limits through the sysctls kern.user.NAME_per_proc and
 * _total, and in the model; panics if a sysctl refuses. */
void lm_set(struct limit_model *m, enum ulimit_kind k, int64_t per_proc, int64_t total);
/* Arms the n-th page / heap allocation from now to fail (0: none), in the
 * model and on the host. */
void lm_arm(struct limit_model *m, uint32_t page_n, uint32_t heap_n);
/* ulimit_charge() as the model predicts it: 0 with both counts raised, or
 * ERR_LIMIT / ERR_NOSPC with the refusal counted. */
int lm_charge(struct limit_model *m, enum ulimit_kind k, uint32_t *use, uint32_t n);
/* ulimit_uncharge(). */
void lm_uncharge(struct limit_model *m, enum ulimit_kind k, uint32_t *use, uint32_t n);
/* 1 if the heap allocation made now fails (counts it down). */
int lm_heap_fails(struct limit_model *m);
/* A page charged (UL_PAGES on *use) and allocated: 0, ERR_LIMIT, ERR_NOSPC
 * or ERR_NOMEM (nothing charged then), as uvm.c takes each page. */
int lm_page(struct limit_model *m, uint32_t *use);
/* Compares the kernel's numbers (ulimit_get()) with the model: 0, or -1
 * with the first difference in why. */
int lm_check(const struct limit_model *m, char *why, size_t why_len);

#endif
