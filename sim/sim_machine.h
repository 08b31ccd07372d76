/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * sim_machine.h — a machine description prepared for simulation: the
 * parsed file, its per-CPU descriptors and its cpu_group tree.
 */
#ifndef MOSAIC_SIM_MACHINE_H
#define MOSAIC_SIM_MACHINE_H
#include <stddef.h>
#include <emul/machine_desc/machine.h>
#include <sched/topo.h>

struct sim_machine {
	char path[512];                          /* the file read */
	struct machine m;
	struct cpu_desc desc[MACHINE_MAX_CPUS];
	struct topo topo;                        /* its root stays valid for every run */
};

/* Reads NAME (a file, or the preset DIR/NAME.machine), parses and checks
 * it as the kernel does, and builds its tree; 0, or -1 with "FILE:LINE:
 * reason" (or what else went wrong) in err. */
int sim_machine_load(const char *dir, const char *name, struct sim_machine *sm, char *err, size_t len);
/* The same for a description already in memory (n bytes of text, path
 * naming it in messages): what sim_machine_load does once it has read the
 * file. 0, or -1 with "PATH:LINE: reason" in err. */
int sim_machine_parse(const char *path, const char *text, size_t n, struct sim_machine *sm, char *err,
		      size_t len);
/* The descriptors and the tree of sm->m, of kind (enum topo_kind: ours or
 * the one FreeBSD's x86 code builds from the description's CPUID layout);
 * 0 or -1 with a reason. With flat the scheduler is told nothing of the
 * topology: every CPU is a core of its own with its own L1 and L2, all
 * under one L3 in one package (as a scheduler without SMT or package
 * awareness sees them: the 2003 HT seed's stock SMP kernel with HT on);
 * the machine itself (its speeds, how SMT siblings share a core in the
 * work clock) is unchanged. */
int sim_machine_topology(struct sim_machine *sm, int flat, int kind, char *err, size_t len);

#endif
