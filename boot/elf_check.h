/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * elf_check.h — checking an ELF executable before it is placed: the kernel
 * (by the loader) and user programs (by the kernel's program loader).
 *
 * Portable C with no EFI headers: the loader (boot/elf.c) and the kernel
 * (kernel/user/uelf.c) call it, and the host unit tests
 * (tests/unit/test_elf_check.c) and the fuzz harness (tests/fuzz/fuzz_elf.c)
 * build it as is. It reads the file through its size only, never past it,
 * and describes an executable it accepts by the layout below. The rules
 * are in docs/boot.md ("Kernel") and docs/userland.md ("Programs"); the two
 * differ only in the address range, the span and the name in messages
 * (struct elf_rules).
 */
#ifndef MOSAIC_BOOT_ELF_CHECK_H
#define MOSAIC_BOOT_ELF_CHECK_H

#include <stddef.h>
#include <stdint.h>

#define ELF_SEGMENTS_MAX  16                       /* loadable segments of a kernel */
#define ELF_UPPER_HALF    0xffff800000000000ull    /* every segment at or above this */
#define ELF_SPAN_MAX      (1024ull * 1024 * 1024)  /* a sane kernel: at most 1 GiB */
#define ELF_PAGE_SIZE     0x1000ull
#define ELF_ERR_MAX       160                      /* room for any message */

/* One PT_LOAD segment: [vaddr, vaddr + memsz) in memory, of which the
 * first filesz bytes come from file[offset..offset + filesz) and the rest
 * is zero. */
struct elf_segment {
	uint64_t vaddr, memsz;
	uint64_t offset, filesz;
	uint32_t flags;   /* ELF p_flags: ELF_PF_X, ELF_PF_W, 4 = R */
	uint32_t index;   /* its program header number, for messages */
};

/* What an accepted kernel looks like. */
struct elf_layout {
	uint64_t virt_base;   /* lowest segment address, rounded down to a page */
	uint64_t virt_end;    /* highest segment end, rounded up to a page */
	uint64_t entry;
	uint32_t segment_count;
	struct elf_segment segments[ELF_SEGMENTS_MAX];   /* in program header order */
};

/* Where an executable may lie, and how it is named in messages. */
struct elf_rules {
	uint64_t lowest;       /* every segment at or above this address */
	uint64_t limit;        /* ... and ending at or below this one */
	uint64_t span_max;     /* lowest page to highest page end, bytes */
	const char *what;      /* "kernel", "program" */
	const char *region;    /* the range in words, e.g. "the upper half" */
	const char *linked;    /* why, e.g. "kernels are linked at 0x... or above" */
	const char *beyond;    /* a segment ending past limit, e.g. "ends at the very top ..." */
};

/* The kernel's rules: the upper half (above the direct map, which the
 * loader's page-table code checks), ELF_SPAN_MAX. */
extern const struct elf_rules elf_rules_kernel;

/* Checks the executable in file[0..size) against rules and fills *out.
 * Accepted means: a little-endian ELF64 x86-64 ET_EXEC whose 8-byte aligned
 * program header table lies inside the file; 1..ELF_SEGMENTS_MAX non-empty
 * PT_LOAD segments (empty ones, memsz and filesz 0, are ignored), each
 * inside the file, with filesz <= memsz, inside [lowest, limit), not
 * writable and executable at once, not overlapping another, and not sharing
 * a page with a segment of other write/execute permissions; a span of at
 * most span_max; the entry point inside the file bytes of an executable
 * segment. Returns 0, or -1 with one line in err (always terminated; the
 * caller adds the file name in front). *out is unspecified after an error.
 * No locks, no allocation; file may have any alignment. */
int elf_check_rules(const void *file, uint64_t size, const struct elf_rules *rules,
		    struct elf_layout *out, char *err, size_t err_size);
/* elf_check_rules() with the kernel's rules. */
int elf_check(const void *file, uint64_t size, struct elf_layout *out, char *err,
	      size_t err_size);

#endif
