/* SPDX-License-Identifier: BSD-2-Clause */
/* ujob.c — the life of jobs (docs/userland.md, "Jobs"): the tree, the
 * references that keep a job while anything is charged to it, and the
 * mark of a killed job; their counts are ulimit.c's (ulimit.h). A job is
 * made with the first process of a program the operator starts (the
 * shell's `run`, init's lines) or that a process starts with
 * SPAWN_NEW_JOB, below the job of its starter. Every process of a job
 * holds a reference until it is freed, every job below it one, and so
 * does every endpoint charged to it: the job, and its counts, outlive its
 * last process while an endpoint it made lives on. user_lock held for all
 * but ujob_alloc() and ujob_init(). Portable: also built into the host
 * harnesses. */
#include <user/uproc.h>
#include <mm/mm.h>
#include <kern/panic.h>
#include <lib/string.h>

static struct ujob *ujob_list;        /* every job but the root, newest first */
static uint32_t ujob_next_id = 1;

/* See uproc.h. */
struct ujob *ujob_alloc(void)
{
	return kzalloc(sizeof(struct ujob));
}

/* See uproc.h. */
void ujob_init(struct ujob *j, struct ujob *parent, const char name[PROC_NAME_MAX],
	       int unbounded)
{
	j->parent = parent;
	j->refs = 1;
	memcpy(j->name, name, sizeof(j->name));
	j->name[sizeof(j->name) - 1] = 0;
	ulimit_job_quotas(j, unbounded);
}

/* See uproc.h. */
void ujob_link_locked(struct ujob *j, int leader)
{
	j->id = ujob_next_id++;
	j->leader = leader;
	ujob_get(j->parent);
	j->next = ujob_list;
	ujob_list = j;
}

/* See uproc.h. */
void ujob_get(struct ujob *j)
{
	if (j != &ujob_root)
		j->refs++;
}

/* See uproc.h. Nothing may be charged to a job nobody refers to. */
void ujob_put(struct ujob *j)
{
	if (j == &ujob_root)
		return;
	KASSERT(j->refs > 0, "job %u: reference count underflow", j->id);
	if (--j->refs)
		return;
	for (int k = 0; k < UL_COUNT; k++)
		KASSERT(j->use[k] == 0, "job %u freed holding %lu of kind %d", j->id, j->use[k], k);
	for (struct ujob **pp = &ujob_list; *pp; pp = &(*pp)->next) {
		if (*pp == j) {
			*pp = j->next;
			break;
		}
	}
	ujob_put(j->parent);
	kfree(j);
}

/* See uproc.h. */
int ujob_dead(const struct ujob *j)
{
	for (; j; j = j->parent)
		if (j->killed)
			return 1;
	return 0;
}

/* See uproc.h. */
int ujob_within(const struct ujob *j, const struct ujob *top)
{
	for (; j; j = j->parent)
		if (j == top)
			return 1;
	return 0;
}

/* See uproc.h. */
struct ujob *ujob_find(uint32_t id)
{
	if (id == 0)
		return &ujob_root;
	for (struct ujob *j = ujob_list; j; j = j->next)
		if (j->id == id)
			return j;
	return NULL;
}

/* See uproc.h. */
struct ujob *ujob_next(const struct ujob *after)
{
	return after ? after->next : ujob_list;
}
