/* SPDX-License-Identifier: BSD-2-Clause */
/* elf_check.c — the checks of an ELF executable (the kernel, a user
 * program), portable (see elf_check.h): no EFI headers, no library calls,
 * every read of the file bounded by its size. */
#include <stdarg.h>
#include <boot/elf.h>
#include <boot/elf_check.h>

#define PAGE_MASK  (ELF_PAGE_SIZE - 1)
#define PERM_WX    (ELF_PF_W | ELF_PF_X)

/* See elf_check.h. */
const struct elf_rules elf_rules_kernel = {
	.lowest = ELF_UPPER_HALF,
	.limit = ~PAGE_MASK,
	.span_max = ELF_SPAN_MAX,
	.what = "kernel",
	.region = "the upper half",
	.linked = "kernels are linked at 0xFFFF800000000000 or above",
	.beyond = "ends at the very top of the address space",
};

/* Appends one byte to err[0..size) if it fits with the NUL; keeps the
 * string terminated. No locks. */
static void err_putc(char *err, size_t size, size_t *len, char c)
{
	if (*len + 1 >= size)
		return;
	err[(*len)++] = c;
	err[*len] = 0;
}

/* Formats one message into err: %s a string, %d a uint64_t in decimal, %x
 * a uint64_t as 0x-hex. ELF_ERR_MAX bytes hold every message of this file.
 * Returns -1 (the caller's error result). No locks. */
static int fail(char *err, size_t size, const char *fmt, ...)
{
	va_list ap;
	size_t len = 0;

	if (size == 0)
		return -1;
	err[0] = 0;
	va_start(ap, fmt);
	for (const char *f = fmt; *f; f++) {
		if (*f != '%' || !f[1]) {
			err_putc(err, size, &len, *f);
			continue;
		}
		f++;
		if (*f == 's') {
			for (const char *s = va_arg(ap, const char *); *s; s++)
				err_putc(err, size, &len, *s);
			continue;
		}
		uint64_t v = va_arg(ap, uint64_t);
		unsigned base = *f == 'x' ? 16 : 10;
		char digits[20];
		int n = 0;
		if (base == 16) {
			err_putc(err, size, &len, '0');
			err_putc(err, size, &len, 'x');
		}
		do {
			digits[n++] = "0123456789ABCDEF"[v % base];
			v /= base;
		} while (v);
		while (n)
			err_putc(err, size, &len, digits[--n]);
	}
	va_end(ap);
	return -1;
}

/* Copies n bytes (the file may be unaligned for the header structs). */
static void copy_bytes(void *dst, const void *src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;
	while (n--)
		*d++ = *s++;
}

/* "R-X" style permissions of p_flags, into a 4-byte buffer. */
static const char *perm_text(uint32_t flags, char buf[4])
{
	buf[0] = (flags & 4) ? 'R' : '-';
	buf[1] = (flags & ELF_PF_W) ? 'W' : '-';
	buf[2] = (flags & ELF_PF_X) ? 'X' : '-';
	buf[3] = 0;
	return buf;
}

/* The ELF header: identity, machine, type, and a program header table
 * that is 8-byte aligned and inside the file. */
static int check_header(const unsigned char *file, uint64_t size, const struct elf_rules *r,
			struct elf64_ehdr *eh, char *err, size_t err_size)
{
	if (size < sizeof(*eh))
		return fail(err, err_size, "not an ELF file (%d bytes, no ELF magic)", size);
	copy_bytes(eh, file, sizeof(*eh));
	if (eh->magic != ELF_MAGIC)
		return fail(err, err_size, "not an ELF file (%d bytes, no ELF magic)", size);
	if (eh->class != ELF_CLASS_64)
		return fail(err, err_size, "not ELF64 (class %d); the %s must be a 64-bit ELF",
			    (uint64_t)eh->class, r->what);
	if (eh->data != ELF_DATA_LSB)
		return fail(err, err_size, "not little-endian (ELF data encoding %d)",
			    (uint64_t)eh->data);
	if (eh->machine != ELF_MACHINE_X86_64)
		return fail(err, err_size, "built for ELF machine %d, not x86-64 (62)",
			    (uint64_t)eh->machine);
	if (eh->type != ELF_TYPE_EXEC)
		return fail(err, err_size, "ELF type %d, not a static executable (ET_EXEC = 2)",
			    (uint64_t)eh->type);
	if (eh->phentsize != sizeof(struct elf64_phdr) || eh->phnum == 0)
		return fail(err, err_size, "no usable program headers (%d of %d bytes)",
			    (uint64_t)eh->phnum, (uint64_t)eh->phentsize);
	if (eh->phoff % 8)
		return fail(err, err_size, "program header table at offset %d is not 8-byte aligned",
			    eh->phoff);
	if (eh->phoff > size || (size - eh->phoff) / sizeof(struct elf64_phdr) < eh->phnum)
		return fail(err, err_size,
			    "program headers run past the end of the file (%d bytes); truncated?", size);
	return 0;
}

/* One non-empty PT_LOAD header on its own: inside the file, file bytes
 * within memory bytes, inside the rules' range, not writable and
 * executable. */
static int check_segment(const struct elf64_phdr *ph, uint64_t i, uint64_t size,
			 const struct elf_rules *r, char *err, size_t err_size)
{
	if (ph->filesz > ph->memsz)
		return fail(err, err_size, "segment %d has more file bytes (%d) than memory bytes (%d)",
			    i, ph->filesz, ph->memsz);
	if (ph->offset > size || size - ph->offset < ph->filesz)
		return fail(err, err_size,
			    "segment %d needs %d file bytes at offset %d but the file has %d; truncated?",
			    i, ph->filesz, ph->offset, size);
	if (ph->vaddr < r->lowest || ph->vaddr >= r->limit || ph->vaddr + ph->memsz < ph->vaddr)
		return fail(err, err_size, "segment %d at %x (+%x) is not in %s (%s)", i, ph->vaddr,
			    ph->memsz, r->region, r->linked);
	if (ph->vaddr + ph->memsz > r->limit)
		return fail(err, err_size, "segment %d %s", i, r->beyond);
	if ((ph->flags & PERM_WX) == PERM_WX)
		return fail(err, err_size,
			    "segment %d at %x is writable and executable; the %s is mapped W^X", i,
			    ph->vaddr, r->what);
	return 0;
}

/* A new segment against the ones already taken: no overlap, and no page
 * shared with a segment of other write/execute permissions (the page would
 * have to be both). */
static int check_neighbours(const struct elf_layout *l, const struct elf_segment *s, char *err,
			    size_t err_size)
{
	uint64_t first = s->vaddr & ~PAGE_MASK, last = (s->vaddr + s->memsz - 1) & ~PAGE_MASK;

	for (uint32_t j = 0; j < l->segment_count; j++) {
		const struct elf_segment *o = &l->segments[j];
		uint64_t ofirst = o->vaddr & ~PAGE_MASK, olast = (o->vaddr + o->memsz - 1) & ~PAGE_MASK;
		char a[4], b[4];

		if (s->vaddr < o->vaddr + o->memsz && o->vaddr < s->vaddr + s->memsz)
			return fail(err, err_size, "segment %d at %x overlaps segment %d at %x",
				    (uint64_t)s->index, s->vaddr, (uint64_t)o->index, o->vaddr);
		if (first <= olast && ofirst <= last && ((s->flags ^ o->flags) & PERM_WX))
			return fail(err, err_size,
				    "segments %d (%s) and %d (%s) share the page at %x; W^X needs one permission per page",
				    (uint64_t)o->index, perm_text(o->flags, a), (uint64_t)s->index,
				    perm_text(s->flags, b), first > ofirst ? first : ofirst);
	}
	return 0;
}

/* The entry point must be code the file provides: inside the file bytes of
 * an executable segment (not in its zero-filled tail). */
static int check_entry(const struct elf_layout *l, char *err, size_t err_size)
{
	for (uint32_t i = 0; i < l->segment_count; i++) {
		const struct elf_segment *s = &l->segments[i];

		if (!(s->flags & ELF_PF_X) || l->entry < s->vaddr || l->entry - s->vaddr >= s->memsz)
			continue;
		if (l->entry - s->vaddr < s->filesz)
			return 0;
		return fail(err, err_size,
			    "entry point %x lies in the zero-filled part of segment %d (beyond its %d file bytes)",
			    l->entry, (uint64_t)s->index, s->filesz);
	}
	return fail(err, err_size, "entry point %x is not inside an executable segment", l->entry);
}

/* See elf_check.h. */
int elf_check_rules(const void *file, uint64_t size, const struct elf_rules *r,
		    struct elf_layout *out, char *err, size_t err_size)
{
	const unsigned char *bytes = file;
	struct elf64_ehdr eh;

	if (err_size)
		err[0] = 0;
	if (check_header(bytes, size, r, &eh, err, err_size))
		return -1;
	out->virt_base = ~0ull;
	out->virt_end = 0;
	out->entry = eh.entry;
	out->segment_count = 0;
	for (uint64_t i = 0; i < eh.phnum; i++) {
		struct elf64_phdr ph;

		copy_bytes(&ph, bytes + eh.phoff + i * sizeof(ph), sizeof(ph));
		if (ph.type != ELF_PT_LOAD)
			continue;
		if (ph.memsz == 0 && ph.filesz == 0)
			continue;   /* an empty segment places nothing */
		if (ph.memsz == 0)
			return fail(err, err_size, "segment %d has %d file bytes but no memory bytes",
				    i, ph.filesz);
		if (check_segment(&ph, i, size, r, err, err_size))
			return -1;
		if (out->segment_count == ELF_SEGMENTS_MAX)
			return fail(err, err_size, "more than %d loadable segments",
				    (uint64_t)ELF_SEGMENTS_MAX);
		struct elf_segment *s = &out->segments[out->segment_count];
		s->vaddr = ph.vaddr;
		s->memsz = ph.memsz;
		s->offset = ph.offset;
		s->filesz = ph.filesz;
		s->flags = ph.flags;
		s->index = (uint32_t)i;
		if (check_neighbours(out, s, err, err_size))
			return -1;
		out->segment_count++;
		if (ph.vaddr < out->virt_base)
			out->virt_base = ph.vaddr;
		if (ph.vaddr + ph.memsz > out->virt_end)
			out->virt_end = ph.vaddr + ph.memsz;
	}
	if (out->segment_count == 0)
		return fail(err, err_size, "no loadable (PT_LOAD) segments");
	out->virt_base &= ~PAGE_MASK;
	out->virt_end = (out->virt_end + PAGE_MASK) & ~PAGE_MASK;
	if (out->virt_end - out->virt_base > r->span_max)
		return fail(err, err_size, "spans %d MiB of addresses (%x..%x); at most %d MiB is sane",
			    (out->virt_end - out->virt_base + (1u << 20) - 1) >> 20, out->virt_base,
			    out->virt_end, r->span_max >> 20);
	return check_entry(out, err, err_size);
}

/* See elf_check.h. */
int elf_check(const void *file, uint64_t size, struct elf_layout *out, char *err,
	      size_t err_size)
{
	return elf_check_rules(file, size, &elf_rules_kernel, out, err, err_size);
}
