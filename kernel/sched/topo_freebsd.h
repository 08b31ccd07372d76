/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * topo_freebsd.h — what FreeBSD's x86 topology probe makes of the boot
 * CPU's CPUID values (sys/x86/x86/mp_x86.c: topo_probe and the
 * topo_probe_intel_* / topo_probe_amd functions it calls): the APIC-id
 * shifts of its layers. topo_freebsd_probe.c computes them from a
 * struct cpu_layout (cpu_desc.h); topo_freebsd.c builds FreeBSD's
 * cpu_group tree from them (x86topo_add_sched_group). Portable.
 */
#ifndef MOSAIC_SCHED_TOPO_FREEBSD_H
#define MOSAIC_SCHED_TOPO_FREEBSD_H
#include <stddef.h>
#include <stdint.h>
#include <lib/cpu_desc.h>

/* Which of FreeBSD's probes read the values. */
enum topo_fbsd_path {
	TOPO_FBSD_NONE = 0,      /* one CPU, or a vendor FreeBSD does not probe: shifts 0 */
	TOPO_FBSD_LEAF,          /* Intel, leaf 0x1F or 0x0B (topo_probe_intel_0xb) */
	TOPO_FBSD_LEGACY,        /* Intel, leaves 1 and 4 (topo_probe_intel_0x4) */
	TOPO_FBSD_AMD,           /* topo_probe_amd */
};

struct topo_fbsd {
	int16_t boot_cpu;        /* the CPU whose values were read: the lowest present */
	uint8_t path;            /* enum topo_fbsd_path */
	uint8_t leaf;            /* with TOPO_FBSD_LEAF: 0x1F or 0x0B */
	int8_t core_shift;       /* FreeBSD's core_id_shift: APIC id >> it = core */
	int8_t pkg_shift;        /* pkg_id_shift: APIC id >> it = package */
	int8_t node_shift;       /* node_id_shift (AMD nodes); 0: no such layer */
	uint8_t caches;          /* bit L (1..3): there is an L-cache layer */
	int8_t cache_shift[4];   /* [1..3]: id_shift of that layer */
	uint16_t cache_share[4]; /* the sharing count a cache's shift came from; 0 when it
	                          * was set without one (below leaf 4: the package; AMD
	                          * without TOPOEXT) */
	uint8_t capped;          /* bit L: cache L's shift was capped at the package */
	uint8_t raised;          /* bit L: cache L's shift was raised to the core */
};

/* FreeBSD's probe of layout l (the boot CPU's) on a machine of ncpus CPUs
 * into p (p->boot_cpu is the caller's). 0; or -1 with a one-line reason in
 * err when the values would trip one of FreeBSD's assertions (a core wider
 * than its package, a cache outside the package/node bounds): FreeBSD
 * builds no tree from them. No locks. */
int topo_fbsd_probe(struct topo_fbsd *p, const struct cpu_layout *l, int ncpus, char *err,
		    size_t len);

#endif
