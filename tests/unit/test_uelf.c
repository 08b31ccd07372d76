/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Host tests for the checks of user programs (boot/elf_check.c with the
 * program rules of kernel/user/uelf_rules.c): a program laid out as
 * userland/user.ld links it is accepted, and truncated headers, segments
 * outside the file or the program range, overlapping segments, huge sizes,
 * W+X segments and pages, and a bad entry point are refused with a message
 * that names the fault. At the program limits (a span of USER_IMAGE_SPAN,
 * the end of the range, a file of USER_IMAGE_SPAN bytes of code) the
 * largest allowed is accepted and one byte more refused.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <boot/elf.h>
#include <user/uelf_rules.h>
#include <user/ulayout.h>

#define BASE USER_IMAGE_LOW

static unsigned char file[0x3000];
static struct elf64_ehdr *eh = (struct elf64_ehdr *)file;
static struct elf64_phdr *ph = (struct elf64_phdr *)(file + 64);
static uint64_t file_size;
static const unsigned char *image = file;   /* what check() checks: file, or a larger one */
static char err[ELF_ERR_MAX];
static struct elf_layout layout;

static void set_segment(int i, uint32_t flags, uint64_t vaddr, uint64_t offset, uint64_t filesz,
			uint64_t memsz)
{
	ph[i] = (struct elf64_phdr){ .type = ELF_PT_LOAD, .flags = flags, .offset = offset,
				     .vaddr = vaddr, .paddr = vaddr, .filesz = filesz,
				     .memsz = memsz, .align = 0x1000 };
}

/* Text R-X at 0x400000, rodata R-- on the next page, data RW- with bss. */
static void make_program(void)
{
	image = file;
	memset(file, 0, sizeof(file));
	*eh = (struct elf64_ehdr){ .magic = ELF_MAGIC, .class = ELF_CLASS_64, .data = ELF_DATA_LSB,
				   .version = 1, .type = ELF_TYPE_EXEC, .machine = ELF_MACHINE_X86_64,
				   .version2 = 1, .entry = BASE + 0x20, .phoff = 64, .ehsize = 64,
				   .phentsize = sizeof(struct elf64_phdr), .phnum = 3 };
	set_segment(0, 4 | ELF_PF_X, BASE, 0x1000, 0x800, 0x800);
	set_segment(1, 4, BASE + 0x1000, 0x1800, 0x400, 0x400);
	set_segment(2, 4 | ELF_PF_W, BASE + 0x2000, 0x1c00, 0x200, 0x5000);
	file_size = 0x2000;
}

static int check(void)
{
	memset(err, 'x', sizeof(err));
	return elf_check_rules(image, file_size, &elf_rules_program, &layout, err, sizeof(err));
}

static void expect_refused(const char *want)
{
	assert_int_equal(check(), -1);
	if (!strstr(err, want))
		fail_msg("message '%s' does not contain '%s'", err, want);
}

static void test_good_program(void **state)
{
	(void)state;
	make_program();
	assert_int_equal(check(), 0);
	assert_int_equal(layout.segment_count, 3);
	assert_int_equal(layout.virt_base, BASE);
	assert_int_equal(layout.virt_end, BASE + 0x7000);
	assert_int_equal(layout.entry, BASE + 0x20);
}

static void test_truncated_headers(void **state)
{
	(void)state;
	for (uint64_t n = 0; n < 64; n += 7) {
		make_program();
		file_size = n;
		expect_refused("not an ELF file");
	}
	make_program();
	file_size = 64 + 56 * 2 + 10;   /* the third program header is cut */
	expect_refused("program headers run past the end of the file");
	make_program();
	eh->class = 1;
	expect_refused("the program must be a 64-bit ELF");
}

static void test_segments_outside_the_file(void **state)
{
	(void)state;
	make_program();
	file_size = 0x1c00 + 0x100;   /* data's file bytes cut */
	expect_refused("segment 2 needs 512 file bytes at offset 7168 but the file has 7424; truncated?");
	make_program();
	ph[1].offset = ~0ull - 0x10;
	expect_refused("segment 1 needs 1024 file bytes");
	make_program();
	ph[0].filesz = 0x900;
	expect_refused("segment 0 has more file bytes (2304) than memory bytes (2048)");
}

static void test_program_range(void **state)
{
	(void)state;
	make_program();
	ph[1].vaddr = 0x1000;   /* the null-pointer pages */
	expect_refused("segment 1 at 0x1000 (+0x400) is not in the program range 0x400000..0x40000000");
	make_program();
	ph[2].vaddr = 0xffffffff80000000ull;   /* the kernel's half */
	expect_refused("segment 2 at 0xFFFFFFFF80000000 (+0x5000) is not in the program range");
	make_program();
	ph[2].vaddr = USER_IMAGE_LIMIT - 0x1000;
	expect_refused("segment 2 ends beyond 0x40000000, the end of the program range");
	make_program();
	ph[2].memsz = ~0ull - BASE;   /* huge: wraps around */
	expect_refused("segment 2 at 0x402000 (+0xFFFFFFFFFFBFFFFF) is not in the program range");
	make_program();
	ph[2].vaddr = BASE + USER_IMAGE_SPAN;   /* inside the range, span too large */
	ph[2].memsz = 0x1000;
	expect_refused("spans 65 MiB of addresses (0x400000..0x4401000); at most 64 MiB is sane");
}

static void test_overlap_and_wx(void **state)
{
	(void)state;
	make_program();
	ph[1].vaddr = BASE + 0x7f0;
	ph[1].flags = 4 | ELF_PF_X;
	expect_refused("segment 1 at 0x4007F0 overlaps segment 0 at 0x400000");
	make_program();
	ph[2].flags = 4 | ELF_PF_W | ELF_PF_X;
	expect_refused("segment 2 at 0x402000 is writable and executable; the program is mapped W^X");
	make_program();
	ph[2].vaddr = BASE + 0x900;   /* data in the text's page */
	ph[2].memsz = 0x100;
	ph[2].filesz = 0x100;
	expect_refused("segments 0 (R-X) and 2 (RW-) share the page at 0x400000");
}

static void test_entry(void **state)
{
	(void)state;
	make_program();
	eh->entry = BASE + 0x1010;
	expect_refused("entry point 0x401010 is not inside an executable segment");
	make_program();
	eh->entry = 0;
	expect_refused("entry point 0x0 is not inside an executable segment");
}

/* A span of USER_IMAGE_SPAN (the data's bss reaching BASE + 64 MiB), not
 * a byte more. */
static void test_span_limit(void **state)
{
	(void)state;
	make_program();
	ph[2].memsz = USER_IMAGE_SPAN - 0x2000;
	assert_int_equal(check(), 0);
	assert_int_equal(layout.virt_end - layout.virt_base, USER_IMAGE_SPAN);
	ph[2].memsz++;
	expect_refused("spans 65 MiB of addresses (0x400000..0x4401000); at most 64 MiB is sane");
}

/* A program ending at USER_IMAGE_LIMIT, not a byte later. */
static void test_range_end_limit(void **state)
{
	(void)state;
	uint64_t at = USER_IMAGE_LIMIT - 0x7000;
	make_program();
	for (int i = 0; i < 3; i++) {
		ph[i].vaddr += at - BASE;
		ph[i].paddr = ph[i].vaddr;
	}
	eh->entry = at + 0x20;
	assert_int_equal(check(), 0);
	assert_int_equal(layout.virt_end, USER_IMAGE_LIMIT);
	ph[2].memsz++;
	expect_refused("segment 2 ends beyond 0x40000000, the end of the program range");
}

/* One segment of USER_IMAGE_SPAN bytes of code, all from the file (the
 * entry point its last byte): accepted; the file a byte short is not. */
static void test_large_file(void **state)
{
	(void)state;
	uint64_t size = 0x1000 + USER_IMAGE_SPAN;
	unsigned char *big = calloc(1, size);
	assert_non_null(big);
	make_program();
	eh->phnum = 1;
	eh->entry = BASE + USER_IMAGE_SPAN - 1;
	set_segment(0, 4 | ELF_PF_X, BASE, 0x1000, USER_IMAGE_SPAN, USER_IMAGE_SPAN);
	memcpy(big, file, 0x1000);
	image = big;
	file_size = size;
	assert_int_equal(check(), 0);
	assert_int_equal(layout.virt_end - layout.virt_base, USER_IMAGE_SPAN);
	file_size--;
	expect_refused("segment 0 needs 67108864 file bytes at offset 4096 but the file has 67112959; "
		       "truncated?");
	free(big);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_good_program),
		cmocka_unit_test(test_truncated_headers),
		cmocka_unit_test(test_segments_outside_the_file),
		cmocka_unit_test(test_program_range),
		cmocka_unit_test(test_overlap_and_wx),
		cmocka_unit_test(test_entry),
		cmocka_unit_test(test_span_limit),
		cmocka_unit_test(test_range_end_limit),
		cmocka_unit_test(test_large_file),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
