/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Host tests for the loader's kernel ELF checks (boot/elf_check.c): a
 * small well-formed kernel image is accepted with the right layout, and
 * each broken variant is refused with a message saying what is wrong. At
 * each limit (segment count, span, the top of the address space, e_phnum,
 * the file's end) the largest allowed is accepted and one more refused
 * with a message naming the limit.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <boot/elf.h>
#include <boot/elf_check.h>

#define BASE 0xffffffff80000000ull

/* An image: ELF header, program headers at 64, segment bytes from 0x1000. */
static unsigned char file[0x3000];
static struct elf64_ehdr *eh = (struct elf64_ehdr *)file;
static struct elf64_phdr *ph = (struct elf64_phdr *)(file + 64);
static uint64_t file_size;
static const unsigned char *image = file;   /* what check() checks: file, or a larger one */

static void set_segment(int i, uint32_t flags, uint64_t vaddr, uint64_t offset, uint64_t filesz,
			uint64_t memsz)
{
	ph[i] = (struct elf64_phdr){ .type = ELF_PT_LOAD, .flags = flags, .offset = offset,
				     .vaddr = vaddr, .paddr = vaddr, .filesz = filesz,
				     .memsz = memsz, .align = 0x1000 };
}

/* Text R-X (one page), rodata R-- (the next page), data RW- with bss;
 * entry in the text. */
static void make_kernel(void)
{
	image = file;
	memset(file, 0, sizeof(file));
	*eh = (struct elf64_ehdr){ .magic = ELF_MAGIC, .class = ELF_CLASS_64, .data = ELF_DATA_LSB,
				   .version = 1, .type = ELF_TYPE_EXEC, .machine = ELF_MACHINE_X86_64,
				   .version2 = 1, .entry = BASE + 0x10, .phoff = 64, .ehsize = 64,
				   .phentsize = sizeof(struct elf64_phdr), .phnum = 3 };
	set_segment(0, 4 | ELF_PF_X, BASE, 0x1000, 0x800, 0x800);
	set_segment(1, 4, BASE + 0x1000, 0x1800, 0x400, 0x400);
	set_segment(2, 4 | ELF_PF_W, BASE + 0x2000, 0x1c00, 0x200, 0x3000);
	file_size = 0x2000;
}

static char err[ELF_ERR_MAX];
static struct elf_layout layout;

static int check(void)
{
	memset(err, 'x', sizeof(err));
	return elf_check(image, file_size, &layout, err, sizeof(err));
}

/* Refused, with a message containing want. */
static void expect_refused(const char *want)
{
	assert_int_equal(check(), -1);
	if (!strstr(err, want))
		fail_msg("message '%s' does not contain '%s'", err, want);
}

static void test_good_kernel(void **state)
{
	(void)state;
	make_kernel();
	assert_int_equal(check(), 0);
	assert_string_equal(err, "");
	assert_int_equal(layout.segment_count, 3);
	assert_int_equal(layout.virt_base, BASE);
	assert_int_equal(layout.virt_end, BASE + 0x5000);
	assert_int_equal(layout.entry, BASE + 0x10);
	assert_int_equal(layout.segments[2].offset, 0x1c00);
	assert_int_equal(layout.segments[2].filesz, 0x200);
	assert_int_equal(layout.segments[2].memsz, 0x3000);
	assert_int_equal(layout.segments[2].index, 2);

	/* Segments of one permission may share a page; an empty one is skipped. */
	set_segment(1, 4 | ELF_PF_X, BASE + 0x800, 0x1800, 0x400, 0x400);
	eh->phnum = 4;
	ph[3] = (struct elf64_phdr){ .type = ELF_PT_LOAD, .flags = 7 };
	assert_int_equal(check(), 0);
	assert_int_equal(layout.segment_count, 3);
}

static void test_not_elf_or_wrong_kind(void **state)
{
	(void)state;
	make_kernel();
	file_size = 10;
	expect_refused("not an ELF file (10 bytes, no ELF magic)");
	make_kernel();
	file[0] = 'M';
	expect_refused("no ELF magic");
	make_kernel();
	eh->class = 1;
	expect_refused("not ELF64 (class 1)");
	make_kernel();
	eh->data = 2;
	expect_refused("not little-endian");
	make_kernel();
	eh->machine = 3;
	expect_refused("ELF machine 3, not x86-64");
	make_kernel();
	eh->type = 3;
	expect_refused("ELF type 3, not a static executable");
	make_kernel();
	eh->phnum = 0;
	expect_refused("no usable program headers");
}

static void test_program_headers_placement(void **state)
{
	(void)state;
	make_kernel();
	eh->phoff = 65;
	expect_refused("program header table at offset 65 is not 8-byte aligned");
	make_kernel();
	eh->phoff = 0x1ff8;
	expect_refused("program headers run past the end of the file (8192 bytes); truncated?");
	make_kernel();
	eh->phnum = 0xffff;
	expect_refused("run past the end of the file");
	make_kernel();
	eh->phoff = ~0ull & ~7ull;
	expect_refused("run past the end of the file");
}

static void test_segment_in_file(void **state)
{
	(void)state;
	make_kernel();
	file_size = 0x1d00;
	expect_refused("segment 2 needs 512 file bytes at offset 7168 but the file has 7424; truncated?");
	make_kernel();
	ph[1].offset = ~0ull;
	expect_refused("segment 1 needs 1024 file bytes at offset");
	make_kernel();
	ph[1].filesz = 0x401;
	expect_refused("segment 1 has more file bytes (1025) than memory bytes (1024)");
}

static void test_memsz_zero_with_file_bytes(void **state)
{
	(void)state;
	make_kernel();
	ph[1].memsz = 0;
	expect_refused("segment 1 has 1024 file bytes but no memory bytes");
}

static void test_addresses(void **state)
{
	(void)state;
	make_kernel();
	ph[1].vaddr = 0x100000;
	expect_refused("segment 1 at 0x100000 (+0x400) is not in the upper half");
	make_kernel();
	ph[2].vaddr = ~0ull - 0x10;
	expect_refused("segment 2 at 0xFFFFFFFFFFFFFFEF (+0x3000) is not in the upper half");
	make_kernel();
	ph[2].vaddr = ~0ull - 0x37ff;
	expect_refused("segment 2 ends at the very top of the address space");
	make_kernel();
	ph[1].vaddr = BASE + 0x7ff;
	expect_refused("segment 1 at 0xFFFFFFFF800007FF overlaps segment 0 at 0xFFFFFFFF80000000");
	make_kernel();
	ph[2].vaddr = BASE + 0x40000000;
	expect_refused("spans 1025 MiB of addresses");
}

static void test_writable_and_executable(void **state)
{
	(void)state;
	make_kernel();
	ph[0].flags = 7;
	expect_refused("segment 0 at 0xFFFFFFFF80000000 is writable and executable");
	/* Data in the last page of the text: that page would be W and X. */
	make_kernel();
	ph[2].vaddr = BASE + 0x800;
	ph[2].memsz = 0x100;
	ph[2].filesz = 0x100;
	ph[1].vaddr = BASE + 0x3000;
	expect_refused("segments 0 (R-X) and 2 (RW-) share the page at 0xFFFFFFFF80000000");
	/* Read-only data in a page of the text: other permissions too. */
	make_kernel();
	ph[1].vaddr = BASE + 0x900;
	expect_refused("segments 0 (R-X) and 1 (R--) share the page");
	/* The bss tail of data reaching into the page of the next segment. */
	make_kernel();
	ph[1].vaddr = BASE + 0x5800;
	ph[2].memsz = 0x3400;
	expect_refused("segments 1 (R--) and 2 (RW-) share the page at 0xFFFFFFFF80005000");
}

static void test_entry_point(void **state)
{
	(void)state;
	make_kernel();
	eh->entry = BASE + 0x1010;
	expect_refused("entry point 0xFFFFFFFF80001010 is not inside an executable segment");
	make_kernel();
	eh->entry = BASE - 1;
	expect_refused("is not inside an executable segment");
	/* Executable bss: the entry would run zeros. */
	make_kernel();
	ph[0].memsz = 0x1000;
	eh->entry = BASE + 0x800;
	expect_refused("entry point 0xFFFFFFFF80000800 lies in the zero-filled part of segment 0 "
		       "(beyond its 2048 file bytes)");
	eh->entry = BASE + 0x7ff;
	assert_int_equal(check(), 0);
}

static void test_too_many_segments(void **state)
{
	(void)state;
	make_kernel();
	eh->phnum = ELF_SEGMENTS_MAX + 1;
	for (int i = 0; i <= ELF_SEGMENTS_MAX; i++)
		set_segment(i, 4 | ELF_PF_X, BASE + 0x1000ull * (uint64_t)i, 0x1000, 0x20, 0x20);
	expect_refused("more than 16 loadable segments");
	eh->phnum = ELF_SEGMENTS_MAX;
	assert_int_equal(check(), 0);
}

/* A span of ELF_SPAN_MAX (data and bss up to BASE + 1 GiB), not a byte more. */
static void test_span_limit(void **state)
{
	(void)state;
	make_kernel();
	ph[2].memsz = ELF_SPAN_MAX - 0x2000;
	assert_int_equal(check(), 0);
	assert_int_equal(layout.virt_end - layout.virt_base, ELF_SPAN_MAX);
	ph[2].memsz++;
	expect_refused("spans 1025 MiB of addresses (0xFFFFFFFF80000000..0xFFFFFFFFC0001000); "
		       "at most 1024 MiB is sane");
}

/* A kernel ending at the last page boundary of the address space, not a
 * byte later. */
static void test_top_limit(void **state)
{
	(void)state;
	uint64_t top = elf_rules_kernel.limit, at = top - 0x5000;
	make_kernel();
	for (int i = 0; i < 3; i++) {
		ph[i].vaddr += at - BASE;
		ph[i].paddr = ph[i].vaddr;
	}
	eh->entry = at + 0x10;
	assert_int_equal(check(), 0);
	assert_int_equal(layout.virt_end, top);
	ph[2].memsz++;
	expect_refused("segment 2 ends at the very top of the address space");
}

/* e_phnum 65535 (its largest value), the table ending at the end of the
 * file (after the segments' bytes; the last header a segment), not a byte
 * later. */
static void test_phnum_limit(void **state)
{
	(void)state;
	uint64_t size = 0x2000 + 0xffffull * sizeof(struct elf64_phdr);
	unsigned char *big = calloc(1, size);
	assert_non_null(big);
	make_kernel();
	eh->phoff = 0x2000;
	eh->phnum = 0xffff;
	memcpy(big, file, 0x2000);
	memcpy(big + 0x2000, ph, 2 * sizeof(*ph));
	memcpy(big + size - sizeof(*ph), &ph[2], sizeof(*ph));
	image = big;
	file_size = size;
	assert_int_equal(check(), 0);
	assert_int_equal(layout.segment_count, 3);
	assert_int_equal(layout.segments[2].index, 0xfffe);
	file_size--;
	expect_refused("program headers run past the end of the file (3678151 bytes); truncated?");
	free(big);
}

/* The last segment's file bytes ending at the end of the file, not a byte
 * later. */
static void test_file_end_limit(void **state)
{
	(void)state;
	make_kernel();
	file_size = 0x1e00;
	assert_int_equal(check(), 0);
	file_size--;
	expect_refused("segment 2 needs 512 file bytes at offset 7168 but the file has 7679; truncated?");
}

/* A short error buffer gets a cut but terminated message. */
static void test_short_message_buffer(void **state)
{
	(void)state;
	char small[8];
	make_kernel();
	eh->class = 1;
	memset(small, 'x', sizeof(small));
	assert_int_equal(elf_check(file, file_size, &layout, small, sizeof(small)), -1);
	assert_string_equal(small, "not ELF");
	assert_int_equal(elf_check(file, file_size, &layout, small, 0), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_good_kernel),
		cmocka_unit_test(test_not_elf_or_wrong_kind),
		cmocka_unit_test(test_program_headers_placement),
		cmocka_unit_test(test_segment_in_file),
		cmocka_unit_test(test_memsz_zero_with_file_bytes),
		cmocka_unit_test(test_addresses),
		cmocka_unit_test(test_writable_and_executable),
		cmocka_unit_test(test_entry_point),
		cmocka_unit_test(test_too_many_segments),
		cmocka_unit_test(test_span_limit),
		cmocka_unit_test(test_top_limit),
		cmocka_unit_test(test_phnum_limit),
		cmocka_unit_test(test_file_end_limit),
		cmocka_unit_test(test_short_message_buffer),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
