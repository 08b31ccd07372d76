/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * sim_machine.c — the simulated machine: a description from machines/
 * (the same files QEMU boots, docs/machines.md) read and checked by the
 * kernel's own parser, turned into per-CPU descriptors by the kernel's
 * machine_apply() and into the cpu_group tree by topo_build() (or FreeBSD's,
 * topo_build_freebsd(), with --topology freebsd).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sim/sim.h>
#include <sim/sim_machine.h>

/* The file a machine name means: itself when it names a file, else the
 * preset DIR/NAME.machine. */
static void resolve(const char *dir, const char *name, char *path, size_t size)
{
	struct stat st;
	if (stat(name, &st) == 0 && S_ISREG(st.st_mode))
		snprintf(path, size, "%s", name);
	else
		snprintf(path, size, "%s/%s.machine", dir, name);
}

/* See sim_machine.h. */
int sim_machine_load(const char *dir, const char *name, struct sim_machine *sm, char *err, size_t len)
{
	char *text = malloc(MACHINE_FILE_MAX + 1);
	char path[sizeof(sm->path)];
	if (!text) {
		snprintf(err, len, "no memory to read a machine description");
		return -1;
	}
	resolve(dir, name, path, sizeof(path));
	FILE *f = fopen(path, "rb");
	if (!f) {
		snprintf(err, len, "--machine '%s': %s: %s (a file, or a preset of %s/)", name, path,
			 strerror(errno), dir);
		free(text);
		return -1;
	}
	size_t n = fread(text, 1, MACHINE_FILE_MAX + 1, f);
	int bad = ferror(f);
	fclose(f);
	int rc = -1;
	if (bad)
		snprintf(err, len, "%s: read error", path);
	else if (n > MACHINE_FILE_MAX)
		snprintf(err, len, "%s: larger than %u bytes", path, MACHINE_FILE_MAX);
	else
		rc = sim_machine_parse(path, text, n, sm, err, len);
	free(text);
	return rc;
}

/* See sim_machine.h. */
int sim_machine_parse(const char *path, const char *text, size_t n, struct sim_machine *sm, char *err,
		      size_t len)
{
	snprintf(sm->path, sizeof(sm->path), "%s", path);
	if (machine_parse(&sm->m, text, n, sm->path, err, len))
		return -1;
	if (sm->m.topology != MACHINE_TOPOLOGY_FILE) {
		snprintf(err, len, "%s: 'topology cpuid': the simulator needs the cpu lines", sm->path);
		return -1;
	}
	return sim_machine_topology(sm, 0, TOPO_MOSAIC, err, len);
}

/* See sim_machine.h. */
int sim_machine_topology(struct sim_machine *sm, int flat, int kind, char *err, size_t len)
{
	const struct machine *m = &sm->m;
	struct cpu_desc *ptr[MACHINE_MAX_CPUS];
	for (unsigned i = 0; i < m->cpu_count; i++) {
		struct cpu_desc *d = &sm->desc[i];
		memset(d, 0, sizeof(*d));
		d->apic_id = i;
		d->hfi_row = CPU_DESC_NO_HFI_ROW;
		for (int l = 0; l < 4; l++)
			d->cache_id[l] = CPU_DESC_NO_CACHE;
		ptr[i] = d;
	}
	if (machine_apply(m, ptr, m->cpu_count, err, len))
		return -1;
	for (unsigned i = 0; flat && i < m->cpu_count; i++) {
		struct cpu_desc *d = &sm->desc[i];
		d->core_id = d->module_id = d->apic_id = i;
		d->smt_id = 0;
		d->smt_threads = 1;
		d->cache_id[1] = d->cache_id[2] = i;
		d->cache_id[3] = 0;
		d->die_id = d->package_id = 0;
	}
	if (topo_build_kind(&sm->topo, kind, sm->desc, m->cpu_count, NULL) != TOPO_OK) {
		snprintf(err, len, "%s: no %s topology: %s", sm->path, topo_kind_name(kind), sm->topo.error);
		return -1;
	}
	return 0;
}
