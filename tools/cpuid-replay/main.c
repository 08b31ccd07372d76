/*
 * cpuid-replay — run Mosaic's CPU enumeration and topology builder on a
 * CPUID dump in the InstLatx64 text format and print what the kernel's
 * `cpus` and `topo` commands would print on that machine.
 *
 *   cpuid-replay [--cpus] [--topo] DUMP...
 *
 * With neither option both are printed. Logical CPU ids are the dump's
 * "Logical CPU #n" order. Exit status: 0, 1 if a dump could not be used
 * (read error, no CPUID values, tree not buildable), 2 on a usage error.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cpu_desc.h>
#include <cpuid_decode.h>
#include <topo.h>
#include "dump.h"

static void out_printf(void *ctx, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vfprintf(ctx, fmt, ap);
	va_end(ap);
}

/* The `cpus` table and every fallback the decoder noted. */
static void print_cpus(const struct cpu_desc *descs, size_t n)
{
	char line[160];
	cpu_desc_format_header(line, sizeof(line));
	printf("%s\n", line);
	for (size_t i = 0; i < n; i++) {
		cpu_desc_format_line(line, sizeof(line), (unsigned)i, &descs[i], 1, 0);
		printf("%s\n", line);
	}
	for (size_t i = 0; i < n; i++)
		for (unsigned b = 0; b < CPU_DESC_NOTE_COUNT; b++)
			if (descs[i].notes & (1u << b))
				printf("note: cpu %zu: %s\n", i, cpuid_decode_note_text((uint16_t)(1u << b)));
}

/* Replay one dump; 0 on success. */
static int replay(const char *path, int want_cpus, int want_topo)
{
	static struct topo tree;
	struct dump d;
	char err[256];

	if (dump_load(path, &d, err, sizeof(err)) != 0) {
		fprintf(stderr, "cpuid-replay: %s\n", err);
		return 1;
	}
	if (d.ncpus > TOPO_MAXCPU) {
		fprintf(stderr, "cpuid-replay: %s: %zu logical CPUs, only the first %d are used\n",
			path, d.ncpus, TOPO_MAXCPU);
		d.ncpus = TOPO_MAXCPU;
	}
	struct cpu_desc *descs = calloc(d.ncpus, sizeof(*descs));
	if (!descs) {
		perror("cpuid-replay");
		exit(2);
	}
	for (size_t i = 0; i < d.ncpus; i++) {
		const struct cpuid_source src = { dump_cpuid, dump_msr, &d.cpus[i] };
		cpuid_decode(&src, &descs[i]);
		descs[i].source = CPU_DESC_FROM_DUMP;
	}
	const char *base = strrchr(path, '/');
	printf("# %s: %zu logical CPUs\n", base ? base + 1 : path, d.ncpus);
	if (want_cpus)
		print_cpus(descs, d.ncpus);
	int rc = 0;
	if (want_topo) {
		if (topo_build(&tree, descs, (unsigned)d.ncpus, NULL) == TOPO_OK) {
			topo_print(&tree, out_printf, stdout);
		} else {
			fprintf(stderr, "cpuid-replay: %s: no topology: %s\n", path, tree.error);
			rc = 1;
		}
	}
	free(descs);
	dump_free(&d);
	return rc;
}

int main(int argc, char **argv)
{
	int want_cpus = 0, want_topo = 0, ndumps = 0, rc = 0;

	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--cpus") == 0)
			want_cpus = 1;
		else if (strcmp(argv[i], "--topo") == 0)
			want_topo = 1;
		else if (argv[i][0] == '-' && argv[i][1]) {
			fprintf(stderr, "usage: cpuid-replay [--cpus] [--topo] DUMP...\n");
			return 2;
		} else
			ndumps++;
	}
	if (ndumps == 0) {
		fprintf(stderr, "usage: cpuid-replay [--cpus] [--topo] DUMP...\n");
		return 2;
	}
	if (!want_cpus && !want_topo)
		want_cpus = want_topo = 1;
	int first = 1;
	for (int i = 1; i < argc; i++) {
		if (argv[i][0] == '-' && argv[i][1])
			continue;
		if (!first)
			printf("\n");
		first = 0;
		rc |= replay(argv[i], want_cpus, want_topo);
	}
	return rc;
}
