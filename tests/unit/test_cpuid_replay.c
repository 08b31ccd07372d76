/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Host tests for the replay tool's dump reader (tools/cpuid-replay/dump.c,
 * dump_check.c) and its whole-machine checks (replay.c): odd lines are
 * skipped with FILE:LINE, and a dump that is cut short, repeats or numbers
 * CPUs beyond MAXCPU, lacks a CPU's line or contradicts itself is refused
 * with FILE:LINE naming the CPU and the leaf; never split lines, no silent
 * merging, section numbers kept. Real cases start from the dumps in
 * tests/data/cpuid/; the tests run from the repository root.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>
#include <arch/x86_64/cpu/cpuid_decode.h>
#include <tools/cpuid-replay/replay.h>

#define RPL "tests/data/cpuid/i7-1370P_RaptorLakeP_B06A2_CPUID.txt"

static struct dump dump;
static struct replay rep;
static char err[512], warnings[4096];

static void collect(void *ctx, const char *msg)
{
	(void)ctx;
	size_t n = strlen(warnings);
	snprintf(warnings + n, sizeof(warnings) - n, "%s\n", msg);
}

/* Parses text as "t.txt"; warnings go to `warnings`. */
static int parse(const char *text, size_t len)
{
	warnings[0] = 0;
	return dump_parse(text, len, "t.txt", &dump, collect, NULL, err, sizeof(err));
}

static int parse_str(const char *text)
{
	return parse(text, strlen(text));
}

/* parse_str() must fail with exactly this message. */
static void expect_refused(const char *text, const char *message)
{
	assert_int_equal(parse_str(text), -1);
	assert_string_equal(err, message);
	for (unsigned i = 0; i < DUMP_MAX_CPUS; i++)
		assert_null(dump.cpu[i]);   /* emptied */
}

/* The real i7-1370P dump, in a buffer with room to edit it. */
static char *real;
static size_t real_len;

static void load_real(void)
{
	FILE *f = fopen(RPL, "rb");
	if (!f)
		fail_msg("cannot open %s (run the tests from the repository root)", RPL);
	real = realloc(real, 256 * 1024);
	real_len = fread(real, 1, 256 * 1024 - 1, f);
	real[real_len] = 0;
	fclose(f);
}

/* Deletes from `real` the first line starting with what after the text after. */
static void delete_line(const char *after, const char *what)
{
	char *from = strstr(real, after), *line = from ? strstr(from, what) : NULL;
	assert_non_null(line);
	char *end = strchr(line, '\n') + 1;
	memmove(line, end, real_len - (size_t)(end - real) + 1);
	real_len -= (size_t)(end - line);
}

/* Cuts `real` at the start of the line holding the n-th s. */
static void cut_before(const char *s, int n)
{
	char *p = real - 1;
	for (int i = 0; i < n; i++) {
		p = strstr(p + 1, s);
		assert_non_null(p);
	}
	while (p > real && p[-1] != '\n')
		p--;
	real_len = (size_t)(p - real);
	*p = 0;
}

/* Replays `real`: the parse must succeed; returns replay_run(). */
static int replay_real(void)
{
	if (parse(real, real_len))
		fail_msg("refused: %s", err);
	int rc = replay_run(&dump, &rep, err, sizeof(err));
	dump_free(&dump);
	return rc;
}

/* ------------------------------------------------------------ lines */

static void test_odd_lines(void **state)
{
	(void)state;
	const char *text =
		"CPUID 00000000: 0000000B-756E6547-6C65746E-49656E69 [GenuineIntel]\n"
		"CPUID 0000000B: 00000001-00000002-00000100-00000000 [SL 00]\n"
		"------[ CPUID Registers / Logical CPU #1 ]------\n"
		"CPUID 00000000: 0000000B-756E6547-6C65746E-49656E69\r\n"
		"CPUID 0000000B: 00000001-00000002-00000100-00000003 [SL 00]\n"
		"CPUID 0000000B: 00000004-00000004-00000201-00000003 [SL 01]\n"
		"CPUID 0000000B: 00000004-00000004-00000201-000000FF [SL 01]\n"
		"CPUID 0000000B: zzzz\n"
		"CPUID 00000001: 1-2-3-4\n"
		"------[ MSR Registers / Logical CPU #0 ]------\n"
		"------[ MSR Registers / Logical CPU #1 ]------\n"
		"MSR 00000771: 0000-0000-0000-0011 [S200]\n"
		"MSR 00000771: 0000-0000-0000-0012\n"
		"MSR 00000772: < FAILED >\n"
		"MSR 00000773: 12-34\n";
	assert_int_equal(parse_str(text), 0);
	assert_int_equal(dump.ncpus, 2);
	assert_int_equal(dump.skipped, 3);
	assert_int_equal(dump.lines, 15);
	assert_string_equal(warnings, "t.txt:8: malformed line skipped: CPUID 0000000B: zzzz\n"
				      "t.txt:9: malformed line skipped: CPUID 00000001: 1-2-3-4\n"
				      "t.txt:15: malformed line skipped: MSR 00000773: 12-34\n");
	assert_int_equal(dump.cpu[0]->cpuid_line, 1);   /* before any title: CPU #0 */
	uint32_t r[4];
	uint64_t v;
	assert_int_equal(dump_cpuid(dump.cpu[1], 0x0B, 1, r), 0);
	assert_int_equal(r[3], 3);                      /* the first of a repeated line */
	assert_int_equal(dump_cpuid(dump.cpu[1], 0x0B, 2, r), 0);
	assert_int_equal(r[2], 0);                      /* omitted terminator */
	assert_int_equal(dump_cpuid(dump.cpu[1], 0, 5, r), 0);
	assert_int_equal(r[0], 0x0B);                   /* no [SL]: any sub-leaf; CRLF fine */
	assert_int_not_equal(dump_cpuid(dump.cpu[1], 6, 0, r), 0);
	assert_int_equal(dump_msr(dump.cpu[1], 0x771, &v), 0);
	assert_int_equal(v, 0x12);                      /* the last sample */
	assert_int_not_equal(dump_msr(dump.cpu[1], 0x772, &v), 0);
	assert_int_equal(dump_package_count(dump.cpu[1]), 4);
	dump_free(&dump);

	assert_int_equal(dump_load("tests/unit/no-such-dump.txt", &dump, NULL, NULL, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "no-such-dump.txt: No such file"));
	expect_refused("nothing useful\n", "t.txt:1: no CPUID lines (not an InstLatx64 CPUID dump?)");
}

/* A line over 1023 bytes is skipped whole: its tail is never read as a
 * line of its own. So is a line with a NUL byte. */
static void test_long_and_nul_lines(void **state)
{
	(void)state;
	static char text[4096];
	int n = snprintf(text, sizeof(text),
			 "CPUID 00000000: 00000001-756E6547-6C65746E-49656E69\n"
			 "CPUID 00000001: 000B06A2-00800800-7FFAFBFF-BFEBFBFF [%0990d] "
			 "CPUID 00000002: 00000001-00000001-00000001-00000001\n"
			 "CPUID 00000001: 000B06A2-00800800-7FFAFBFF-BFEBFBFF\n"
			 "CPUID 00000003: 00000001-00000001-00000001-0000000X\n",
			 0);
	char *x = strchr(text + 1100, 'X');
	*x = 0;   /* a NUL byte inside the last line */
	assert_int_equal(parse(text, (size_t)n), 0);
	assert_int_equal(dump.skipped, 2);
	assert_string_equal(warnings, "t.txt:2: line longer than 1023 bytes skipped\n"
				      "t.txt:4: line with a NUL byte skipped\n");
	uint32_t r[4];
	assert_int_not_equal(dump_cpuid(dump.cpu[0], 2, 0, r), 0);
	assert_int_not_equal(dump_cpuid(dump.cpu[0], 3, 0, r), 0);
	assert_int_equal(dump_cpuid(dump.cpu[0], 1, 0, r), 0);
	dump_free(&dump);
}

/* ------------------------------------------------------------ sections */

#define SEC(n) "------[ CPUID Registers / Logical CPU #" #n " ]------\n"
#define MSRS(n) "------[ MSR Registers / Logical CPU #" #n " ]------\n"
#define LEAF0 "CPUID 00000000: 00000000-756E6547-6C65746E-49656E69\n"

static void test_sections(void **state)
{
	(void)state;
	/* Numbers are kept, gaps and all. */
	assert_int_equal(parse_str(SEC(5) LEAF0 SEC(2) LEAF0 SEC(0) LEAF0), 0);
	assert_int_equal(dump.ncpus, 3);
	assert_non_null(dump.cpu[5]);
	assert_int_equal(dump.cpu[5]->number, 5);
	assert_int_equal(dump.cpu[2]->cpuid_line, 3);
	assert_null(dump.cpu[1]);
	dump_free(&dump);

	expect_refused(SEC(0) LEAF0 SEC(1) LEAF0 SEC(0) LEAF0,
		       "t.txt:5: a second CPUID section for logical CPU #0 (the first at line 1)");
	expect_refused(LEAF0 SEC(0) LEAF0,
		       "t.txt:2: a second CPUID section for logical CPU #0 (the first at line 1)");
	expect_refused(SEC(0) LEAF0 MSRS(0) MSRS(0),
		       "t.txt:4: a second MSR section for logical CPU #0 (the first at line 3)");
	expect_refused(SEC(0) LEAF0 SEC(256) LEAF0,
		       "t.txt:3: logical CPU #256 out of range: at most 256 logical CPUs (0..255, the kernel's MAXCPU)");
	expect_refused(SEC(0) LEAF0 "------[ CPUID Registers / Logical CPU #99999999999999999999999 ]------\n",
		       "t.txt:3: logical CPU #99999999999999999999 out of range: at most 256 logical CPUs (0..255, the kernel's MAXCPU)");
	expect_refused(SEC(0) LEAF0 "------[ CPUID Registers / Logical CPU #x ]------\n",
		       "t.txt:3: no number after 'Logical CPU #'");
	expect_refused(SEC(0) LEAF0 MSRS(1) "MSR 00000771: 0000-0000-0000-0012\n",
		       "t.txt:3: MSR section for logical CPU #1, which has no CPUID section");
	expect_refused(SEC(0) LEAF0 SEC(1), "t.txt:3: logical CPU #1 lists no CPUID leaf 0 (an empty section): truncated?");
}

/* Too many CPUs or lines are refused where they start, in linear time. */
static void test_limits(void **state)
{
	(void)state;
	size_t size = 20000 * 128, n = 0;
	char *text = malloc(size);
	for (unsigned i = 0; i < 20000; i++)
		n += (size_t)snprintf(text + n, size - n, "------[ CPUID Registers / Logical CPU #%u ]------\n" LEAF0, i);
	assert_int_equal(parse(text, n), -1);
	assert_string_equal(err, "t.txt:513: logical CPU #256 out of range: at most 256 logical CPUs (0..255, the kernel's MAXCPU)");
	n = (size_t)snprintf(text, size, SEC(0));
	for (unsigned i = 0; i < 20000; i++)
		n += (size_t)snprintf(text + n, size - n, LEAF0);
	assert_int_equal(parse(text, n), -1);
	assert_string_equal(err, "t.txt:1026: more than 1024 CPUID lines for logical CPU #0");
	free(text);
}

/* ------------------------------------------------------------ cut short */

static void test_truncated(void **state)
{
	(void)state;
	/* Cut inside a line. */
	load_real();
	real_len = (size_t)(strstr(real, "CPUID 00000006") - real) + 5;
	assert_int_equal(parse(real, real_len), -1);
	assert_string_equal(err, "t.txt:14: the last line has no line end: truncated?");

	/* Cut at a line end inside CPU #5's section. */
	load_real();
	cut_before("CPUID 00000018", 5 * 9 + 1);
	assert_int_equal(parse(real, real_len), -1);
	assert_non_null(strstr(err, ": logical CPU #5 lists no CPUID leaf 0x18, logical CPU #0 does "));

	/* Cut between CPU sections: the topology leaf counts 20 CPUs. */
	load_real();
	cut_before("------[ CPUID Registers / Logical CPU #12 ]", 1);
	assert_int_equal(replay_real(), -1);
	assert_string_equal(err, "t.txt:948: CPUID leaf 0x1F of logical CPU #0 counts 20 logical CPUs in its package (0), the dump describes 12: truncated?");

	/* Cut inside the MSR sections. */
	load_real();
	cut_before("------[ MSR Registers / Logical CPU #7 ]", 1);
	assert_int_equal(parse(real, real_len), -1);
	assert_non_null(strstr(err, ": logical CPU #7 has no MSR section, logical CPU #0 has one: truncated?"));

	/* Cut inside the All CPUs list. */
	load_real();
	cut_before("CPU  10: APICID", 1);
	assert_int_equal(parse(real, real_len), -1);
	assert_string_equal(err, "t.txt:1549: the All CPUs section lists 10 CPUs, the dump has CPUID sections for 20: truncated?");

	/* A single CPU cut before a leaf the decoder reads. */
	load_real();
	cut_before("CPUID 0000000B", 1);
	assert_int_equal(replay_real(), -1);
	assert_string_equal(err, "t.txt:20: logical CPU #0 lists no CPUID leaf 0x1F, which the decoder reads (section from line 1): truncated?");
}

/* A file that ends without a line end after a whole line is not cut
 * short (downloaded dumps often do); a last line cut inside, or before its
 * "[SL nn]", still is. */
static void test_no_final_line_end(void **state)
{
	(void)state;
	const char *one = "CPUID 00000000: 00000001-756E6547-6C65746E-49656E69\n"
			  "CPUID 00000001: 000B06A2-00000800-00000000-00000000";
	assert_int_equal(parse_str(one), 0);
	assert_int_equal(dump.lines, 2);
	assert_int_equal(dump.cpu[0]->nleaves, 2);
	dump_free(&dump);

	/* The real dump cut after the "CPU 19" line of its All CPUs list. */
	load_real();
	char *end = strstr(real, "CPU  19: APICID");
	assert_non_null(end);
	real_len = (size_t)(strchr(end, '\n') - real);
	assert_int_equal(replay_real(), 0);
	/* ... and inside "CPU  19", before its colon. */
	real_len = (size_t)(end - real) + 6;
	assert_int_equal(parse(real, real_len), -1);
	assert_string_equal(err, "t.txt:1570: the last line has no line end: truncated?");

	expect_refused("CPUID 00000000: 00000001-756E6547-6C65746E-49656E69\n"
		       "CPUID 00000001: 000B06A2-00000800-00000000-0000",
		       "t.txt:2: the last line has no line end: truncated?");
	expect_refused("CPUID 00000000: 00000001-756E6547-6C65746E-49656E69\n"
		       "CPUID 00000001: 000B06A2-00000800-00000000-00000000 [SL 00]\n"
		       "CPUID 00000001: 000B06A2-00000800-00000000-00000000",
		       "t.txt:3: the last line has no line end: truncated?");
	expect_refused("CPUID 00000000: 00000001-756E6547-6C65746E-49656E69\n"
		       "some text",
		       "t.txt:2: the last line has no line end: truncated?");
}

/* InstLatx64's own dumper: one "Group: G Affinity mask: M" line per CPU
 * opens its section; CPU number = G * 64 + the mask's bit. */
static void test_affinity_sections(void **state)
{
	(void)state;
	const char *leaf0 = "CPUID 00000000: 00000001-68747541-444D4163-69746E65\n";
	char text[1024];
	snprintf(text, sizeof(text),
		 "Group: 0x00 Affinity mask: 0x0000000000000001\n%s"
		 "Group: 0x00 Affinity mask: 0x8000000000000000\n%s"
		 "Group: 0x01 Affinity mask: 0x0000000000000004 \n%s", leaf0, leaf0, leaf0);
	assert_int_equal(parse_str(text), 0);
	assert_int_equal(dump.ncpus, 3);
	assert_non_null(dump.cpu[0]);
	assert_non_null(dump.cpu[63]);
	assert_non_null(dump.cpu[66]);
	assert_int_equal(dump.cpu[66]->cpuid_line, 5);
	dump_free(&dump);

	expect_refused("Group: 0x00 Affinity mask: 0x0000000000000003\n",
		       "t.txt:1: affinity mask 0x0000000000000003 names more than one logical CPU");
	expect_refused("Group: 0x00 Affinity mask: 0x0000000000000000\n",
		       "t.txt:1: affinity mask 0x0000000000000000 names no logical CPU");
	expect_refused("Group: 0x04 Affinity mask: 0x0000000000000001\n",
		       "t.txt:1: processor group 4, CPU 0 out of range: at most 256 logical CPUs (0..255, the kernel's MAXCPU)");
	expect_refused("Group: 0x00 Affinity mask: 0x00001\n",
		       "t.txt:1: an affinity mask that is not 16 hexadecimal digits");
	expect_refused("Group: 0x00 Affinity mask: 0x00000000000000010\n",
		       "t.txt:1: an affinity mask that is not 16 hexadecimal digits");
	expect_refused("Group: 12\n", "t.txt:1: a processor group line without a hexadecimal group");
	expect_refused("Group: 0x00 Affinity\n", "t.txt:1: a processor group line without its affinity mask");
	snprintf(text, sizeof(text),
		 "Group: 0x00 Affinity mask: 0x0000000000000002\n%s"
		 "Group: 0x00 Affinity mask: 0x0000000000000002\n%s", leaf0, leaf0);
	expect_refused(text, "t.txt:3: a second CPUID section for logical CPU #1 (the first at line 1)");
}

/* ------------------------------------------------------------ whole machine */

/* One CPU's 0x1F sub-leaf 1 missing: that CPU is named, with its leaf. */
static void test_inconsistent_cpu(void **state)
{
	(void)state;
	load_real();
	assert_int_equal(replay_real(), 0);
	assert_int_equal(rep.tree.ncpus, 20);

	delete_line("Logical CPU #13 ]", "CPUID 0000001F: 00000007");
	assert_int_equal(replay_real(), -1);
	assert_string_equal(err, "t.txt:1081: logical CPU #13 (x2APIC id 0x32) contradicts the others: "
				 "CPUs 0 and 13 share an L3 but are in different packages (0 and 25); "
				 "its x2APIC, core and package ids come from CPUID leaf 0x1F, its cache ids from leaf 4");
}

/* HWP's MSR in some CPUs' sections but not in others'. */
static void test_missing_msr(void **state)
{
	(void)state;
	load_real();
	delete_line("------[ MSR Registers / Logical CPU #4 ]", "MSR 00000771");
	assert_int_equal(replay_real(), -1);
	assert_non_null(strstr(err, ": logical CPU #4 has no MSR 0x771 (HWP capabilities), logical CPU #0 has it: truncated?"));
}

/* ------------------------------------------------------------ the tool */

/* Runs build/cpuid-replay with args (stderr too) into out; the status. */
static int run_tool(const char *args, char *out, size_t size)
{
	char cmd[512];
	snprintf(cmd, sizeof(cmd), "build/cpuid-replay %s 2>&1", args);
	FILE *p = popen(cmd, "r");
	assert_non_null(p);
	size_t n = fread(out, 1, size - 1, p);
	out[n] = 0;
	int status = pclose(p);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* A dump without MSR sections: each note once, with its CPUs; no online
 * or ticks columns; a bad option is named. */
static void test_tool_output(void **state)
{
	(void)state;
	static char out[65536];
	char path[] = "/tmp/mosaic-replay-XXXXXX";
	load_real();
	cut_before("------[ All CPUs ]", 1);
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	FILE *f = fdopen(fd, "w");
	fwrite(real, 1, real_len, f);
	fclose(f);
	char args[64];
	snprintf(args, sizeof(args), "--cpus %s", path);
	assert_int_equal(run_tool(args, out, sizeof(out)), 0);
	unlink(path);
	const char *note = "note: cpus 0-19: HWP or CPPC present but its MSR (0x771, AMD 0xC00102B0) unreadable: no performance hint\n";
	char *at = strstr(out, note);
	assert_non_null(at);
	assert_null(strstr(at + 1, "note:"));
	assert_non_null(strstr(out, " cpu   apic type smt  core module pkg    l2    l3  hfi perf\n"));
	assert_null(strstr(out, "online"));

	assert_int_equal(run_tool("--frob " RPL, out, sizeof(out)), 2);
	assert_string_equal(out, "cpuid-replay: unknown option '--frob'\n"
				 "usage: cpuid-replay [--cpus] [--topo] DUMP...\n");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_odd_lines),
		cmocka_unit_test(test_long_and_nul_lines),
		cmocka_unit_test(test_sections),
		cmocka_unit_test(test_limits),
		cmocka_unit_test(test_truncated),
		cmocka_unit_test(test_no_final_line_end),
		cmocka_unit_test(test_affinity_sections),
		cmocka_unit_test(test_inconsistent_cpu),
		cmocka_unit_test(test_missing_msr),
		cmocka_unit_test(test_tool_output),
	};
	int rc = cmocka_run_group_tests(tests, NULL, NULL);
	free(real);
	return rc;
}
