/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * cpuid-replay — run Mosaic's CPU enumeration and topology builders on a
 * CPUID dump in the InstLatx64 text format and print what the kernel's
 * `cpus`, `topo mosaic` and `topo freebsd` commands would print on that
 * machine (without the columns only a running machine has: online,
 * ticks): our tree, then the one FreeBSD's x86 code would build.
 *
 *   cpuid-replay [--cpus] [--topo] DUMP...
 *
 * With neither option both are printed. Logical CPU ids are the dump's
 * "Logical CPU #n" numbers. Exit status: 0; 1 if a dump could not be used
 * (unreadable, cut short, inconsistent: the message names FILE:LINE); 2 on
 * a usage error.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arch/x86_64/cpu/cpuid_decode.h>
#include <tools/cpuid-replay/replay.h>

static void out_printf(void *ctx, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vfprintf(ctx, fmt, ap);
	va_end(ap);
}

/* dump_warn_fn: malformed lines on stderr. */
static void warn_stderr(void *ctx, const char *msg)
{
	(void)ctx;
	fprintf(stderr, "cpuid-replay: %s\n", msg);
}

/* The `cpus` table, then each fallback the decoder took, once per kind
 * with the CPUs that took it. */
static void print_cpus(const struct replay *r)
{
	char line[160];
	cpu_desc_format_header(line, sizeof(line));
	printf("%s\n", line);
	for (int c = cpuset_first(&r->present); c >= 0; c = cpuset_next(&r->present, c)) {
		cpu_desc_format_line(line, sizeof(line), (unsigned)c, &r->descs[c]);
		printf("%s\n", line);
	}
	for (unsigned b = 0; b < CPU_DESC_NOTE_COUNT; b++) {
		struct cpuset with;
		char list[512];
		cpuset_zero(&with);
		for (int c = cpuset_first(&r->present); c >= 0; c = cpuset_next(&r->present, c))
			if (r->descs[c].notes & (1u << b))
				cpuset_set(&with, (unsigned)c);
		if (cpuset_count(&with) == 0)
			continue;
		topo_cpulist(&with, list, sizeof(list));
		printf("note: cpu%s %s: %s\n", cpuset_count(&with) > 1 ? "s" : "", list,
		       cpuid_decode_note_text((uint16_t)(1u << b)));
	}
}

/* Replay one dump; 0 on success. */
static int replay(const char *path, int want_cpus, int want_topo)
{
	static struct replay r;
	struct dump d;
	char err[512];

	if (dump_load(path, &d, warn_stderr, NULL, err, sizeof(err)) != 0) {
		fprintf(stderr, "cpuid-replay: %s\n", err);
		return 1;
	}
	int rc = replay_run(&d, &r, err, sizeof(err));
	if (rc == 0) {
		const char *base = strrchr(path, '/');
		printf("# %s: %u logical CPUs\n", base ? base + 1 : path, d.ncpus);
		if (want_cpus)
			print_cpus(&r);
		if (want_topo) {
			topo_print(&r.tree, out_printf, stdout);
			if (r.fbsd_tree.root)
				topo_print(&r.fbsd_tree, out_printf, stdout);
			else
				printf("tree: freebsd: none (%s)\n", r.fbsd_tree.error);
		}
	} else {
		fprintf(stderr, "cpuid-replay: %s\n", err);
	}
	dump_free(&d);
	return rc ? 1 : 0;
}

static int usage(const char *bad)
{
	if (bad)
		fprintf(stderr, "cpuid-replay: unknown option '%s'\n", bad);
	fprintf(stderr, "usage: cpuid-replay [--cpus] [--topo] DUMP...\n");
	return 2;
}

int main(int argc, char **argv)
{
	int want_cpus = 0, want_topo = 0, ndumps = 0, rc = 0;

	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--cpus") == 0)
			want_cpus = 1;
		else if (strcmp(argv[i], "--topo") == 0)
			want_topo = 1;
		else if (argv[i][0] == '-' && argv[i][1])
			return usage(argv[i]);
		else
			ndumps++;
	}
	if (ndumps == 0)
		return usage(NULL);
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
