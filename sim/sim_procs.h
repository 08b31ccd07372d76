/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * sim_procs.h — independent items computed in several processes and taken
 * in order (schedsim's --procs, used by the property run): what a run
 * prints cannot tell how many processes computed it.
 */
#ifndef MOSAIC_SIM_PROCS_H
#define MOSAIC_SIM_PROCS_H
#include <stddef.h>
#include <stdint.h>

#define SIM_PROCS_MAX 64   /* --procs */

/* Computes item i: its result as bytes in *bytes (valid until the next
 * call), returns their length. Must not write to stdout. */
typedef size_t (*sim_procs_make)(uint64_t i, void *ctx, const void **bytes);
/* Takes item i's result; called for items 0, 1, ... count - 1 in order. */
typedef void (*sim_procs_take)(uint64_t i, const void *bytes, size_t n, void *ctx);

/* make() for every item 0..count-1, take() of each in order. procs 1: one
 * after the other in this process. procs > 1: that many child processes
 * (forked after stdout is flushed) each take the next item not yet taken
 * and send its bytes through a pipe; this process takes them in order as
 * they arrive, holding the ones that come early. A child that stops
 * before sending its item stops the run (sim_fatal). */
void sim_procs_run(uint64_t count, int procs, sim_procs_make make, sim_procs_take take, void *ctx);

#endif
