/*
 * elf_check.h — checking the kernel ELF before the loader places it.
 *
 * Portable C with no EFI headers: the loader (boot/elf.c) calls it, and the
 * host unit tests (tests/unit/test_elf_check.c) and the fuzz harness
 * (tests/fuzz/fuzz_elf.c) build it as is. It reads the file through its
 * size only, never past it, and describes a kernel it accepts by the
 * layout below. The rules are in docs/boot.md ("Kernel").
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

/* Checks the kernel ELF in file[0..size) and fills *out. Accepted means:
 * a little-endian ELF64 x86-64 ET_EXEC whose 8-byte aligned program header
 * table lies inside the file; 1..ELF_SEGMENTS_MAX non-empty PT_LOAD
 * segments (empty ones, memsz and filesz 0, are ignored), each inside the
 * file, with filesz <= memsz, in the upper half, not writable and
 * executable at once, not overlapping another, and not sharing a page with
 * a segment of other write/execute permissions; a span of at most
 * ELF_SPAN_MAX; the entry point inside the file bytes of an executable
 * segment. Returns 0, or -1 with one line in err (always terminated; the
 * caller adds the file name in front). *out is unspecified after an error.
 * No locks, no allocation; file may have any alignment. */
int elf_check(const void *file, uint64_t size, struct elf_layout *out, char *err,
	      size_t err_size);

#endif
