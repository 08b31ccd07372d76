/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * mutex.h — mutexes that sleep: a contending thread gives its CPU away
 * instead of spinning. Threads only (never an interrupt handler, never
 * with a spinlock held). An unlock wakes the thread that has waited
 * longest, which competes again with any that comes meanwhile (the holder
 * may take it back at once: throughput first); a fair mutex
 * (mutex_init_fair()) is handed to that thread instead, so threads that
 * lock it in a loop take turns (FIFO). Not recursive: relocking by the
 * holder panics, and so does an unlock by a thread that does not hold it.
 */
#ifndef MOSAIC_MUTEX_H
#define MOSAIC_MUTEX_H
#include <sync/waitq.h>

struct mutex {
	struct waitq wq;              /* its lock guards owner; sleepers wait here */
	struct thread *volatile owner;
	const char *name;
	int fair;                     /* an unlock hands it to the oldest sleeper */
};

#define MUTEX_INIT(v, nm) { .wq = WAITQ_INIT(nm), .owner = 0, .name = (nm), .fair = 0 }

void mutex_init(struct mutex *m, const char *name);
void mutex_init_fair(struct mutex *m, const char *name);
void mutex_lock(struct mutex *m);
void mutex_unlock(struct mutex *m);

#endif
