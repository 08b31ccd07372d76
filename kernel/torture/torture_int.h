/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * torture_int.h — between the files of the torture stressor: the state of
 * one pass, shared by the controller (the shell thread, torture_run.c) and
 * the workers (torture_worker.c). Counters are updated with atomic adds;
 * everything else is written before the workers start or after they end.
 */
#ifndef MOSAIC_TORTURE_INT_H
#define MOSAIC_TORTURE_INT_H
#include <stdint.h>
#include <sync/sem.h>
#include <torture/torture.h>
#include <torture/torture_ring.h>

#define TORTURE_CHILDREN 4     /* joinable children a worker keeps at once */
#define TORTURE_USER_SLOTS 2   /* user processes running at once, in all */

struct thread;

struct torture_worker {
	struct torture_pass *pass;
	unsigned index;
	uint64_t rng;
	struct sem token;                       /* the wake ring: see worker_wake() */
	struct thread *td;
	struct thread *child[TORTURE_CHILDREN];
	unsigned nchild;
};

struct torture_pass {
	struct torture_opts opts;
	uint64_t start_ns, deadline_ns;
	int stop;                               /* 1: workers finish their operation and end */
	unsigned nworkers;
	struct torture_worker *workers;
	uint64_t ops[TOP_NOPS];                 /* operations done, by kind */
	uint64_t created, joined;               /* kernel threads the pass made and joined */
	uint64_t spawned, reaped, refused;      /* user processes: started, collected, not started */
	uint64_t checks;                        /* invariant checks the pass ran itself */
	uint64_t max_wake_ns;                   /* longest delay past a sleep's end */
	int user_slots;                         /* free user-process slots */
	int violations;
};

/* 64 random bits from *state (xorshift64*). */
static inline uint64_t torture_rand(uint64_t *state)
{
	*state ^= *state >> 12;
	*state ^= *state << 25;
	*state ^= *state >> 27;
	return *state * 0x2545F4914F6CDD1Dull;
}

/* Counts op in p's totals and notes it on this CPU's ring. */
void torture_count(struct torture_pass *p, enum torture_op op, int64_t arg);
/* Reports a violation: the seed, what failed, and (the first time) every
 * CPU's last operations. Any thread of the pass. */
void torture_fail(struct torture_pass *p, const char *what, long a, long b);
/* A worker's body (thread entry): random operations until p->stop. */
void torture_worker_main(void *arg);
/* One user process from the boot archive, waited for; returns at once when
 * no slot is free. Worker threads. */
void torture_user_op(struct torture_pass *p, uint64_t *rng);
/* One short bench workload run, checked; returns at once while another
 * runs. Worker threads. */
void torture_bench_op(struct torture_pass *p, uint64_t *rng);
/* The scheduler variables: saved, flipped at random, put back. Controller. */
void torture_knobs_save(void);
void torture_knobs_flip(struct torture_pass *p, uint64_t *rng);
void torture_knobs_restore(void);
/* The emulated HFI device: one random change, and every row back. Controller. */
void torture_hfi_drive(struct torture_pass *p, uint64_t *rng);
void torture_hfi_restore(void);

#endif
