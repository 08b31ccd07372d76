/* SPDX-License-Identifier: BSD-2-Clause */
/* Host tests for the machine-description parser and its application to
 * CPU descriptors (kernel/emul/machine_desc/machine_parse.c, machine_check.c,
 * machine_apply.c), including every preset in machines/. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <cmocka.h>
#include <emul/machine_desc/machine.h>
#include <string.h>

static struct machine mach;
static char err[256];

static int parse(const char *text)
{
	return machine_parse(&mach, text, strlen(text), "t.machine", err, sizeof(err));
}

/* Parse text, which must fail with exactly this message. */
static void expect_error(const char *text, const char *message)
{
	assert_int_equal(parse(text), -1);
	assert_string_equal(err, message);
}

static int parse_file(const char *name)
{
	char path[256];
	snprintf(path, sizeof(path), "machines/%s.machine", name);
	FILE *f = fopen(path, "rb");
	assert_non_null(f);
	static char buf[65536];
	size_t n = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	int rc = machine_parse(&mach, buf, n, path, err, sizeof(err));
	if (rc)
		fail_msg("%s", err);
	return rc;
}

#define HEAD "model test box\ncpus 4\nmemory 512M\nhfi-rows 2\nspeed P 1\nspeed E 0.54\nsmt-throughput P 1.39\n"
#define CPU0 "cpu 0 type=P core=0 thread=0 module=0 llc=0 row=0\n"
#define CPU1 "cpu 1 type=P core=0 thread=1 module=0 llc=0 row=0\n"
#define CPU2 "cpu 2 type=E core=1 module=1 llc=0 row=1\n"
#define CPU3 "cpu 3 type=E core=2 module=1 llc=0 row=1\n"
#define HFI  "hfi 0 perf=255 ee=80\nhfi 1 perf=140 ee=200\n"
#define GOOD HEAD CPU0 CPU1 CPU2 CPU3 HFI

static void test_small_machine(void **state)
{
	(void)state;
	assert_int_equal(parse("# a comment\n\n" GOOD "event 100 row=1 perf=10 ee=20  # later\n"
			       "event 100 row=0 perf=0 ee=0\n"), 0);
	assert_string_equal(mach.model, "test box");
	assert_int_equal(mach.cpu_count, 4);
	assert_int_equal(mach.mem_bytes, 512ull << 20);
	assert_int_equal(mach.hfi_rows, 2);
	assert_int_equal(mach.speed[CPU_CORE_P], 1000);
	assert_int_equal(mach.speed[CPU_CORE_E], 540);
	assert_int_equal(mach.smt_throughput[CPU_CORE_P], 1390);
	assert_int_equal(mach.cpu[1].type, CPU_CORE_P);
	assert_int_equal(mach.cpu[1].thread, 1);
	assert_int_equal(mach.cpu[1].smt_threads, 2);
	assert_int_equal(mach.cpu[3].smt_threads, 1);
	assert_int_equal(mach.cpu[3].module, 1);
	assert_int_equal(mach.cpu[3].hfi_row, 1);
	assert_int_equal(mach.hfi[1].perf, 140);
	assert_int_equal(mach.hfi[1].ee, 200);
	assert_int_equal(mach.event_count, 2);
	assert_int_equal(mach.event[0].time_ms, 100);
	assert_int_equal(mach.event[0].row, 1);
	assert_int_equal(mach.event[0].ee, 20);
}

/* Counts per core type, SMT cores, cores without an LLC, rows in use. */
static void census(unsigned *types, unsigned *smt_cpus, unsigned *no_llc, unsigned *rows)
{
	int used[MACHINE_MAX_ROWS] = { 0 };
	memset(types, 0, MACHINE_CORE_TYPES * sizeof(*types));
	*smt_cpus = *no_llc = *rows = 0;
	for (unsigned i = 0; i < mach.cpu_count; i++) {
		types[mach.cpu[i].type]++;
		*smt_cpus += mach.cpu[i].smt_threads > 1;
		*no_llc += mach.cpu[i].llc == MACHINE_NO_LLC;
		if (mach.cpu[i].hfi_row >= 0 && !used[mach.cpu[i].hfi_row]++)
			(*rows)++;
	}
}

static void test_presets(void **state)
{
	(void)state;
	unsigned types[MACHINE_CORE_TYPES], smt, no_llc, rows;

	parse_file("i7-1370p");
	census(types, &smt, &no_llc, &rows);
	assert_int_equal(mach.cpu_count, 20);
	assert_int_equal(types[CPU_CORE_P], 12);
	assert_int_equal(types[CPU_CORE_E], 8);
	assert_int_equal(smt, 12);
	assert_int_equal(rows, 8);
	assert_int_equal(mach.cpu[12].module, mach.cpu[15].module);
	assert_int_not_equal(mach.cpu[15].module, mach.cpu[16].module);
	assert_int_equal(mach.cpu[4].hfi_row, mach.cpu[5].hfi_row);

	parse_file("core-ultra-7-155h");
	census(types, &smt, &no_llc, &rows);
	assert_int_equal(mach.cpu_count, 22);
	assert_int_equal(types[CPU_CORE_P], 12);
	assert_int_equal(types[CPU_CORE_E], 8);
	assert_int_equal(types[CPU_CORE_LPE], 2);
	assert_int_equal(no_llc, 2);
	assert_int_equal(rows, 22);
	static const int row_of_cpu[22] = { 4, 5, 12, 13, 14, 15, 16, 17, 18, 19, 0, 1,
					    2, 3, 6, 7, 8, 9, 10, 11, 20, 21 };
	for (unsigned i = 0; i < 22; i++)
		assert_int_equal(mach.cpu[i].hfi_row, row_of_cpu[i]);

	parse_file("i7-13800h");
	census(types, &smt, &no_llc, &rows);
	assert_int_equal(types[CPU_CORE_P], 12);
	assert_int_equal(types[CPU_CORE_E], 8);

	parse_file("xeon-4p-ht");
	census(types, &smt, &no_llc, &rows);
	assert_int_equal(types[CPU_CORE_UNKNOWN], 8);
	assert_int_equal(smt, 8);
	assert_int_equal(rows, 0);
	assert_int_equal(mach.cpu[7].package, 3);

	parse_file("opteron-2s");
	census(types, &smt, &no_llc, &rows);
	assert_int_equal(smt, 0);
	assert_int_equal(mach.cpu[3].package, 1);

	parse_file("small-hybrid");
	assert_int_equal(mach.cpu_count, 4);

	parse_file("smp");
	assert_int_equal(mach.topology, MACHINE_TOPOLOGY_CPUID);
}

static void test_errors(void **state)
{
	(void)state;
	expect_error(HEAD "frobnicate 3\n", "t.machine:8: unknown key 'frobnicate'");
	expect_error(HEAD CPU0 "cpu 0 type=P core=0 thread=1 module=0 llc=0 row=0\n",
		     "t.machine:9: CPU 0 described twice (first at line 8)");
	expect_error(HEAD "cpu 2 type=E core=1 module=1 llc=0 row=2\n",
		     "t.machine:8: HFI row 2 out of range (hfi-rows 2: 0..1)");
	expect_error(HEAD CPU0 CPU1 CPU2 HFI,
		     "t.machine:2: 'cpus 4' but CPU 3 is not described");
	expect_error(HEAD CPU0 CPU1 CPU2 CPU3 "cpu 4 type=E core=3 module=1 llc=0 row=1\n",
		     "t.machine:12: CPU 4 out of range ('cpus 4' at line 2)");
	expect_error(HEAD "cpu 0 type=P core=x0 module=0 llc=0 row=0\n",
		     "t.machine:8: bad number 'x0' for core= (expected 0..4294967294)");
	expect_error("cpus 1\nmemory 1G\nspeed none 1\ncpu 0 type=none core=0 module=0 llc=0 row=none\n",
		     "t.machine:4: end of file without a 'model' line");
	expect_error("model m\ncpus 99999\n", "t.machine:2: bad number '99999' for cpus (expected 0..256)");
	expect_error("model m\nspeed P fast\n",
		     "t.machine:2: bad number 'fast' for speed (expected a decimal above 0, e.g. 0.54)");
	expect_error("model m\nspeed E 0.5432\n",
		     "t.machine:2: bad number '0.5432' for speed (expected a decimal above 0, e.g. 0.54)");
	expect_error("model m\nmemory 12\n", "t.machine:2: bad memory size '12' (expected e.g. 512M or 2G)");
	expect_error("model a\nmodel b\n", "t.machine:2: duplicate 'model' (first at line 1)");
	expect_error(HEAD "hfi 0 perf=256 ee=1\n", "t.machine:8: bad number '256' for perf (expected 0..255)");
	expect_error(HEAD "hfi 0 perf=1\n", "t.machine:8: needs both perf= and ee= (0..255)");
	expect_error(HEAD "cpu 0 type=P core=0 module=0 llc=0 row=0 colour=red\n",
		     "t.machine:8: unknown cpu attribute 'colour' (expected type= core= thread= module= llc= package= row=)");
	expect_error(HEAD "cpu 0 type=Q core=0 module=0 llc=0 row=0\n",
		     "t.machine:8: unknown core type 'Q' (expected P, E, LP-E or none)");
	expect_error(HEAD "cpu 0 type=P core=0 llc=0 row=0\n", "t.machine:8: cpu 0: missing module=");
	expect_error("model m\ncpu 0 type=P core=0 module=0 llc=0 row=0\n",
		     "t.machine:2: 'cpu' line before the 'cpus' line");
	expect_error(HEAD CPU0 CPU1 CPU2 "cpu 3 type=P core=2 module=1 llc=0 row=1\n" HFI,
		     "t.machine:11: CPU 3 is in module 1 with CPU 2 (line 10) but has a different type");
	expect_error(HEAD CPU0 CPU1 CPU2 "cpu 3 type=E core=2 module=2 llc=0 package=1 row=1\n" HFI,
		     "t.machine:11: CPU 3 shares llc 0 with CPU 0 (line 8) but is in package 1, not 0");
	expect_error(HEAD CPU0 "cpu 1 type=P core=0 thread=0 module=0 llc=0 row=0\n" CPU2 CPU3 HFI,
		     "t.machine:9: CPU 1 repeats thread 0 of core 0 (CPU 0, line 8)");
	expect_error(HEAD CPU0 "cpu 1 type=P core=0 thread=2 module=0 llc=0 row=0\n" CPU2 CPU3 HFI,
		     "t.machine:9: CPU 1: thread=2 but core 0 has 2 thread(s)");
	expect_error(HEAD CPU0 CPU1 CPU2 CPU3 "hfi 0 perf=255 ee=80\n",
		     "t.machine:10: CPU 2 uses HFI row 1, which has no 'hfi' line");
	expect_error("model m\ncpus 1\nmemory 1G\nhfi-rows 1\nhfi 0 perf=1 ee=1\n"
		     "cpu 0 type=LP-E core=0 module=0 llc=none row=0\n",
		     "t.machine:6: CPU 0 is a LP-E core but there is no 'speed LP-E' line");
	expect_error(GOOD "event 100 row=1 perf=1 ee=1\nevent 50 row=1 perf=1 ee=1\n",
		     "t.machine:15: event at 50 ms comes after one at 100 ms");
	expect_error("model m\ntopology cpuid\ncpus 1\ncpu 0 type=P core=0 module=0 llc=0 row=none\n",
		     "t.machine:4: 'cpu' line in a 'topology cpuid' description");
	expect_error("model m\ncpus 1\x01\n", "t.machine:2: control character 0x01 at column 7");
	expect_error("model m\ncpus\x7f 1\n", "t.machine:2: control character 0x7f at column 5");
	expect_error("", "t.machine:1: end of file without a 'model' line");
	assert_int_equal(machine_parse(&mach, "model m\ncp\0us 1\n", 17, "t.machine", err, sizeof(err)), -1);
	assert_string_equal(err, "t.machine:2: NUL byte at column 3");
}

/* CRLF line ends (a file edited on Windows) parse like LF ones. */
static void test_crlf(void **state)
{
	(void)state;
	static char crlf[2048];
	size_t n = 0;
	for (const char *s = "# \xc3\xa9t\xc3\xa9 comment\n" GOOD; *s; s++) {
		if (*s == '\n')
			crlf[n++] = '\r';
		crlf[n++] = *s;
	}
	assert_int_equal(machine_parse(&mach, crlf, n, "t.machine", err, sizeof(err)), 0);
	assert_int_equal(mach.cpu_count, 4);
	assert_int_equal(mach.cpu_count_line, 3);
	assert_int_equal(mach.mem_bytes, 512ull << 20);
	assert_string_equal(mach.model, "test box");
}

/* Bytes outside ASCII are named as such, with their column; in comments
 * they are fine (above). */
static void test_non_ascii(void **state)
{
	(void)state;
	expect_error("model caf\xc3\xa9 box\n",
		     "t.machine:1: non-ASCII byte 0xc3 at column 10 (descriptions are ASCII outside comments)");
	expect_error("model m\ncpus\xa0" "4\n",
		     "t.machine:2: non-ASCII byte 0xa0 at column 5 (descriptions are ASCII outside comments)");
}

/* cpus 1..256 (MAXCPU); memory 64M..16G. */
static void test_bounds(void **state)
{
	(void)state;
	expect_error("model m\ncpus 999\n", "t.machine:2: bad number '999' for cpus (expected 0..256)");
	expect_error("model m\ncpus 0\n", "t.machine:2: cpus must be 1..256");
	expect_error("model m\nmemory 1048576G\n", "t.machine:2: memory 1048576G out of range (64M..16G)");
	expect_error("model m\nmemory 17G\n", "t.machine:2: memory 17G out of range (64M..16G)");
	expect_error("model m\nmemory 63M\n", "t.machine:2: memory 63M out of range (64M..16G)");
	expect_error("model m\nmemory 0G\n", "t.machine:2: memory 0G out of range (64M..16G)");
	expect_error("model m\nmemory 1048577M\n",
		     "t.machine:2: bad memory size '1048577M' (expected e.g. 512M or 2G)");
	assert_int_equal(parse("model m\ncpus 256\nmemory 16G\ntopology cpuid\n"), 0);
	assert_int_equal(mach.mem_bytes, 16ull << 30);
	assert_int_equal(mach.cpu_count, 256);
	assert_int_equal(parse("model m\ncpus 1\nmemory 64M\ntopology cpuid\n"), 0);
	assert_int_equal(mach.mem_bytes, 64ull << 20);
}

/* hfi-classes, hfi-features, per-class values on hfi and event lines, the
 * defaults, and the table's pages (docs/machines.md). */
static void test_hfi_statements(void **state)
{
	(void)state;
	assert_int_equal(parse(GOOD), 0);
	assert_int_equal(mach.hfi_classes, 1);
	assert_int_equal(mach.hfi_features, MACHINE_HFI_F_HFI | MACHINE_HFI_F_PTS);
	assert_int_equal(mach.hfi_pages, 1);
	assert_int_equal(mach.hfi[0].cls[0].perf, 255);   /* .perf is class 0 */
	assert_int_equal(mach.hfi[1].cls[0].ee, 200);

	assert_int_equal(parse(HEAD "hfi-classes 4\nhfi-features hfi,itd\n" CPU0 CPU1 CPU2 CPU3
			       "hfi 0 perf=255 ee=80 class1=200,90 class2=100,101 class3=50,60\n"
			       "hfi 1 class3=1,2 perf=140 ee=200 class2=3,4 class1=5,6\n"
			       "event 100 row=1 perf=10 ee=20 class2=30,40\n"), 0);
	assert_int_equal(mach.hfi_classes, 4);
	assert_int_equal(mach.hfi_features, MACHINE_HFI_F_HFI | MACHINE_HFI_F_ITD);
	assert_int_equal(mach.hfi[0].cls[2].perf, 100);
	assert_int_equal(mach.hfi[0].cls[2].ee, 101);
	assert_int_equal(mach.hfi[1].cls[1].perf, 5);
	assert_int_equal(mach.hfi[1].cls[3].ee, 2);
	assert_int_equal(mach.event[0].classes, 0x5);
	assert_int_equal(mach.event[0].perf, 10);
	assert_int_equal(mach.event[0].cls[2].ee, 40);
	char text[32];
	machine_hfi_features_text(mach.hfi_features, text, sizeof(text));
	assert_string_equal(text, "hfi,itd");
	machine_hfi_features_text(0, text, sizeof(text));
	assert_string_equal(text, "none");

	/* Several classes and no hfi-features: itd is presented too. */
	assert_int_equal(parse(HEAD "hfi-classes 2\n" CPU0 CPU1 CPU2 CPU3
			       "hfi 0 perf=1 ee=1 class1=2,2\nhfi 1 perf=1 ee=1 class1=2,2\n"), 0);
	assert_int_equal(mach.hfi_features, MACHINE_HFI_F_HFI | MACHINE_HFI_F_PTS | MACHINE_HFI_F_ITD);
	assert_int_equal(parse(HEAD "hfi-features none\n" CPU0 CPU1 CPU2 CPU3 HFI), 0);
	assert_int_equal(mach.hfi_features, 0);

	/* 256 rows of 8 classes: 8 + 16 + 256 x 16 bytes are two pages. */
	assert_int_equal(parse("model m\ncpus 1\nmemory 64M\nhfi-rows 256\nhfi-classes 8\nspeed none 1\n"
			       "cpu 0 type=none core=0 module=0 llc=0 row=255\n"
			       "hfi 255 perf=1 ee=1 class1=1,1 class2=1,1 class3=1,1 class4=1,1 class5=1,1 "
			       "class6=1,1 class7=9,9\n"), 0);
	assert_int_equal(mach.hfi_pages, 2);
	assert_int_equal(mach.hfi[255].cls[7].perf, 9);
	/* Without rows there is no HFI to present. */
	assert_int_equal(parse("model m\ncpus 1\nmemory 64M\nspeed none 1\n"
			       "cpu 0 type=none core=0 module=0 llc=0 row=none\n"), 0);
	assert_int_equal(mach.hfi_classes, 0);
	assert_int_equal(mach.hfi_features, 0);
	assert_int_equal(mach.hfi_pages, 0);
}

static void test_hfi_errors(void **state)
{
	(void)state;
	expect_error(HEAD "hfi-classes 0\n", "t.machine:8: hfi-classes must be 1..8");
	expect_error(HEAD "hfi-classes 9\n", "t.machine:8: bad number '9' for hfi-classes (expected 0..8)");
	expect_error(HEAD "hfi-classes 2\nhfi-classes 2\n",
		     "t.machine:9: duplicate 'hfi-classes' (first at line 8)");
	expect_error("model m\nhfi-classes 2\n", "t.machine:2: 'hfi-classes' before the 'hfi-rows' line");
	expect_error("model m\nhfi-rows 0\nhfi-features hfi\n",
		     "t.machine:3: 'hfi-features' given but 'hfi-rows 0' (no HFI)");
	expect_error(HEAD "hfi 0 perf=1 ee=1\nhfi-classes 2\n",
		     "t.machine:9: 'hfi-classes' after the first 'hfi' or 'event' line (line 8)");
	expect_error(HEAD "event 5 row=0 perf=1 ee=1\nhfi-features hfi\n",
		     "t.machine:9: 'hfi-features' after the first 'hfi' or 'event' line (line 8)");
	expect_error(HEAD "hfi-features hfi,avx\n",
		     "t.machine:8: unknown HFI feature 'avx' in 'hfi,avx' (expected hfi, itd, pts or none)");
	expect_error(HEAD "hfi-features hfi,,pts\n",
		     "t.machine:8: unknown HFI feature '' in 'hfi,,pts' (expected hfi, itd, pts or none)");
	expect_error(HEAD "hfi-features pts,hfi,pts\n", "t.machine:8: HFI feature 'pts' given twice");
	expect_error(HEAD "hfi-features\n", "t.machine:8: 'hfi-features' takes one value (e.g. hfi,itd,pts)");
	expect_error(HEAD "hfi-classes 2\nhfi 0 perf=1 ee=1 class1=300,2\n",
		     "t.machine:9: bad value '300,2' for class1= (expected PERF,EE, each 0..255)");
	expect_error(HEAD "hfi-classes 2\nhfi 0 perf=1 ee=1 class1=3\n",
		     "t.machine:9: bad value '3' for class1= (expected PERF,EE, each 0..255)");
	expect_error(HEAD "hfi-classes 2\nhfi 0 perf=1 ee=1 class1=,3\n",
		     "t.machine:9: bad value ',3' for class1= (expected PERF,EE, each 0..255)");
	expect_error(HEAD "hfi-classes 2\nhfi 0 perf=1 ee=1 class2=3,3\n",
		     "t.machine:9: class2= given but hfi-classes is 2 (classes 0..1)");
	expect_error(HEAD "hfi 0 perf=1 ee=1 class1=3,3\n",
		     "t.machine:8: class1= given but hfi-classes is 1 (classes 0..0)");
	expect_error(HEAD "hfi-classes 4\nhfi 0 perf=1 ee=1 class1=3,3 class3=1,1\n",
		     "t.machine:9: HFI row 0 lacks class2= (hfi-classes 4: class1= to class3= needed)");
	expect_error(HEAD "hfi-classes 4\nhfi 0 perf=1 ee=1 class10=3,3\n",
		     "t.machine:9: unknown attribute 'class10' (expected perf= ee= class1..class3=P,E)");
	expect_error(HEAD "hfi 0 perf=1 ee=1 perf=2\n", "t.machine:8: 'perf=' given twice");
	expect_error(HEAD "hfi-classes 2\nevent 5 row=0 perf=1 ee=1 class1=1,1 class1=2,2\n",
		     "t.machine:9: 'class1=' given twice");
	expect_error(HEAD "event 5 row=0 ee=1 class1=1,1\n",
		     "t.machine:8: class1= given but hfi-classes is 1 (classes 0..0)");
	expect_error(HEAD "event 5 row=0 ee=1\n", "t.machine:8: needs both perf= and ee= (0..255)");
}

static void test_apply(void **state)
{
	(void)state;
	struct cpu_desc d[4], before[4];
	struct cpu_desc *p[4];
	memset(d, 0, sizeof(d));
	for (unsigned i = 0; i < 4; i++) {
		d[i].apic_id = i;
		d[i].core_id = i;
		d[i].cache_id[3] = 0;
		d[i].hfi_row = CPU_DESC_NO_HFI_ROW;
		p[i] = &d[i];
	}
	memcpy(before, d, sizeof(d));
	assert_int_equal(parse(GOOD), 0);

	/* Mismatches leave the descriptors untouched. */
	assert_int_equal(machine_apply(&mach, p, 3, err, sizeof(err)), -1);
	assert_string_equal(err, "the description has 4 CPUs, this machine 3");
	p[2] = NULL;
	assert_int_equal(machine_apply(&mach, p, 4, err, sizeof(err)), -1);
	assert_string_equal(err, "CPU 2 is not online");
	p[2] = &d[1];
	assert_int_equal(machine_apply(&mach, p, 4, err, sizeof(err)), -1);
	assert_string_equal(err, "CPUs 1 and 2 share one descriptor");
	assert_memory_equal(d, before, sizeof(d));
	p[2] = &d[2];

	assert_int_equal(machine_apply(&mach, p, 4, err, sizeof(err)), 0);
	assert_int_equal(d[1].apic_id, 1);
	assert_int_equal(d[1].core_id, 0);
	assert_int_equal(d[1].smt_id, 1);
	assert_int_equal(d[1].smt_threads, 2);
	assert_int_equal(d[1].core_type, CPU_CORE_P);
	assert_int_equal(d[3].core_type, CPU_CORE_E);
	assert_int_equal(d[3].cache_id[2], 1);
	assert_int_equal(d[3].module_id, 1);
	assert_int_equal(d[3].cache_id[3], 0);
	assert_int_equal(d[3].hfi_row, 1);
	assert_int_equal(d[0].source, CPU_DESC_FROM_MACHINE_FILE);

	/* A CPUID-topology description changes nothing. */
	parse_file("smp");
	memcpy(before, d, sizeof(d));
	assert_int_equal(machine_apply(&mach, p, 4, err, sizeof(err)), 0);
	assert_memory_equal(d, before, sizeof(d));
}

/* The optional `power` line: watts in milliwatts, every core type in use
 * given, each mistake named with its line. */
static void test_power(void **state)
{
	(void)state;
	assert_int_equal(parse(GOOD), 0);
	assert_int_equal(mach.power.line, 0);
	assert_int_equal(parse(GOOD "power budget=28 P=6 E=1.5 smt=0.125  # modelled\n"), 0);
	assert_int_equal(mach.power.line, 14);
	assert_int_equal(mach.power.budget_mw, 28000);
	assert_int_equal(mach.power.core_mw[CPU_CORE_P], 6000);
	assert_int_equal(mach.power.core_mw[CPU_CORE_E], 1500);
	assert_int_equal(mach.power.core_mw[CPU_CORE_LPE], 0);
	assert_int_equal(mach.power.smt_mw, 125);
	assert_int_equal(parse("power budget=1000 P=0.001 E=1 LP-E=2\n" GOOD), 0);
	assert_int_equal(mach.power.budget_mw, 1000000);
	assert_int_equal(mach.power.smt_mw, 0);
	expect_error(GOOD "power budget=28 P=6\n",
		     "t.machine:14: 'power' gives no E= but CPU 2 (line 10) is a E core");
	assert_int_equal(parse(GOOD "power P=6 E=2 idle-P=0.2 idle-E=0 base=4.5\n"), 0);
	assert_int_equal(mach.power.budget_mw, 0);   /* no budget: metered only */
	assert_int_equal(mach.power.idle_mw[CPU_CORE_P], 200);
	assert_int_equal(mach.power.idle_mw[CPU_CORE_E], 0);
	assert_int_equal(mach.power.base_mw, 4500);
	expect_error(GOOD "power base=4 idle-P=1\n",
		     "t.machine:14: 'power' needs TYPE=W for each core type (e.g. P=7 E=1.5)");
	expect_error(GOOD "power P=6 E=2 idle-P=1 idle-P=2\n", "t.machine:14: 'idle-P=' given twice");
	expect_error(GOOD "power P=6 E=2 idle-X=1\n",
		     "t.machine:14: unknown power attribute 'idle-X' (expected P= E= LP-E= none= smt= idle-P= idle-E= idle-LP-E= idle-none= base= budget=)");
	expect_error(GOOD "power P=6 E=2 base=1001\n",
		     "t.machine:14: bad number '1001' for base (expected watts, 0 to 1000, at most three decimals, e.g. 6.5)");
	expect_error(GOOD "power P=6 E=2 budget=0\n",
		     "t.machine:14: bad number '0' for budget (expected watts, above 0 up to 1000, at most three decimals, e.g. 6.5)");
	expect_error(GOOD "power budget=28 P=6 E=2 P=7\n", "t.machine:14: 'P=' given twice");
	expect_error(GOOD "power budget=28 P=6 E=2\npower budget=20 P=6 E=2\n",
		     "t.machine:15: duplicate 'power' (first at line 14)");
	expect_error(GOOD "power budget=28 P=6 E=2 gpu=5\n",
		     "t.machine:14: unknown power attribute 'gpu' (expected P= E= LP-E= none= smt= idle-P= idle-E= idle-LP-E= idle-none= base= budget=)");
	expect_error(GOOD "power budget=28 P=6 E\n",
		     "t.machine:14: unknown power attribute 'E' (expected P= E= LP-E= none= smt= idle-P= idle-E= idle-LP-E= idle-none= base= budget=)");
	static const char *const bad[] = { "0", "1000.001", "1001", "1.2345", "x", "", ".5", "5.",
					   "-1", "99999999999" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char text[1024], want[200];
		snprintf(text, sizeof(text), GOOD "power budget=%s P=6 E=2\n", bad[i]);
		snprintf(want, sizeof(want),
			 "t.machine:14: bad number '%s' for budget (expected watts, above 0 up to 1000, at most three decimals, e.g. 6.5)",
			 bad[i]);
		expect_error(text, want);
	}
	expect_error(GOOD "power budget=10 P=6 E=2 smt=x\n",
		     "t.machine:14: bad number 'x' for smt (expected watts, 0 to 1000, at most three decimals, e.g. 6.5)");
	expect_error("model m\ncpus 2\nmemory 1G\ntopology cpuid\npower budget=10 none=1\n",
		     "t.machine:5: 'power' needs the cpu lines ('topology cpuid' has none)");
}

/* The optional `class-speed` lines: factors in thousandths relative to
 * class 0 on the same core type, every core type in use on each line. */
static void test_class_speed(void **state)
{
	(void)state;
	assert_int_equal(parse(GOOD), 0);
	assert_int_equal(machine_class_speed(&mach, 1, CPU_CORE_E), 1000);
	assert_int_equal(parse(GOOD "class-speed vector P=1.0 E=0.7  # modelled\nclass-speed 3 E=2 P=0.125\n"), 0);
	assert_int_equal(mach.class_speed_line[1], 14);
	assert_int_equal(mach.class_speed_line[3], 15);
	assert_int_equal(machine_class_speed(&mach, 1, CPU_CORE_P), 1000);
	assert_int_equal(machine_class_speed(&mach, 1, CPU_CORE_E), 700);
	assert_int_equal(machine_class_speed(&mach, 3, CPU_CORE_E), 2000);
	assert_int_equal(machine_class_speed(&mach, 3, CPU_CORE_P), 125);
	assert_int_equal(machine_class_speed(&mach, 0, CPU_CORE_E), 1000);
	assert_int_equal(machine_class_speed(&mach, 2, CPU_CORE_E), 1000);
	assert_int_equal(mach.speed[CPU_CORE_E], 540);
	expect_error(GOOD "class-speed vector P=1.0\n",
		     "t.machine:14: 'class-speed vector' gives no E= but CPU 2 (line 10) is a E core");
	expect_error(GOOD "class-speed scalar P=1 E=1\n",
		     "t.machine:14: class-speed of class 0 (scalar): that is the 'speed' line's speed");
	expect_error(GOOD "class-speed 0 P=1 E=1\n",
		     "t.machine:14: class-speed of class 0 (scalar): that is the 'speed' line's speed");
	expect_error(GOOD "class-speed avx P=1 E=1\n",
		     "t.machine:14: unknown class 'avx' (expected vector, vnni, spin or 1..7)");
	expect_error(GOOD "class-speed 8 P=1 E=1\n",
		     "t.machine:14: unknown class '8' (expected vector, vnni, spin or 1..7)");
	expect_error(GOOD "class-speed vector\n",
		     "t.machine:14: expected 'class-speed CLASS TYPE=X...' (e.g. 'class-speed vector P=1.0 E=0.7')");
	expect_error(GOOD "class-speed vector P=1 E=1\nclass-speed 1 P=1 E=1\n",
		     "t.machine:15: duplicate 'class-speed 1' (first at line 14)");
	expect_error(GOOD "class-speed vector P=1 E=1 P=2\n", "t.machine:14: 'P=' given twice");
	expect_error(GOOD "class-speed vector P=1 gpu=2\n",
		     "t.machine:14: unknown class-speed attribute 'gpu' (expected P= E= LP-E= none=)");
	static const char *const bad[] = { "0", "0.0", "8.001", "9", "-1", "x", "1.2345", "" };
	for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char text[1024], want[200];
		snprintf(text, sizeof(text), GOOD "class-speed vector P=1 E=%s\n", bad[i]);
		snprintf(want, sizeof(want),
			 "t.machine:14: bad number '%s' for E= (expected a factor above 0 up to 8, at "
			 "most three decimals, e.g. 0.7)", bad[i]);
		expect_error(text, want);
	}
	assert_int_equal(parse(GOOD "class-speed vnni P=8 E=0.001\n"), 0);
	expect_error("model m\ncpus 2\nmemory 1G\ntopology cpuid\nclass-speed spin none=1\n",
		     "t.machine:5: 'class-speed' needs the cpu lines ('topology cpuid' has none)");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_small_machine),
		cmocka_unit_test(test_presets),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_crlf),
		cmocka_unit_test(test_non_ascii),
		cmocka_unit_test(test_bounds),
		cmocka_unit_test(test_hfi_statements),
		cmocka_unit_test(test_hfi_errors),
		cmocka_unit_test(test_apply),
		cmocka_unit_test(test_power),
		cmocka_unit_test(test_class_speed),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
